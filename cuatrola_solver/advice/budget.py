"""How much search an answer may take (:class:`Budget`), and when sampling stops.

A :class:`Budget` bundles the search options of every answer -- :func:`advise
<cuatrola_solver.advice.bidding.advise>`, :func:`hint
<cuatrola_solver.advice.cardplay.hint>`, :func:`analyze
<cuatrola_solver.analysis.review.analyze>` -- as python-chess's ``chess.engine.Limit``
bundles an engine's: every consistent deal (``exact``), or at most ``samples`` sampled
deals drawn with ``seed``, on ``workers``.  What is left as None takes the answer's own
default, which is the command's.

Sampled answers (:func:`~cuatrola_solver.advice.bidding.advise`,
:func:`~cuatrola_solver.advice.cardplay.hint`) draw deals in rounds of :data:`ROUND`
(the chunks of :func:`~cuatrola_solver.hidden.chunks.iter_chunks`); after
:data:`MIN_ROUNDS` rounds they stop once every odds' Wilson half-width is within
:data:`TOLERANCE`, so by :data:`SETTLED` deals whatever the number asked for.  The
deals and the stopping point depend on the seed only, never on the number of workers.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable

from ..errors import NotationError
from ..i18n import _
from .stats import Z95

__all__ = ["Budget", "ROUND", "MIN_ROUNDS", "TOLERANCE", "SETTLED", "EXACT_SLICE",
           "Progress", "random_seed"]

#: deals per round of a sampled advice (and chunk size of its seeding)
ROUND = 1000
#: rounds drawn before the first stopping test
MIN_ROUNDS = 2
#: target Wilson half-width of every allowed option's p_win
TOLERANCE = 0.01
#: the layouts of an exact advice are weighed (call weights) and summed slice by slice,
#: in the enumeration's order; they are searched all at once, each contract's tables
#: warm over all of them (advice.bidding._solve_round)
EXACT_SLICE = 1 << 17
#: the most deals a sampled answer draws whatever ``samples`` asks for: by then every
#: Wilson half-width is within TOLERANCE, so sampling has stopped (rounded up to ROUND)
SETTLED = ROUND * math.ceil((Z95 / (2 * TOLERANCE)) ** 2 / ROUND)

#: ``progress(done, total)``: called as the work goes on
Progress = Callable[[int, int], None]


def random_seed() -> int:
    """A fresh seed, small enough to type back with ``--seed``."""
    return random.SystemRandom().randrange(2 ** 31)



@dataclass(frozen=True)
class Budget:
    """The search an answer may do.

    ``exact``: value every deal consistent with what the seat knows (``samples`` and
    ``seed`` are then unused); else sample at most ``samples`` deals (None: the answer's
    default), drawn with ``seed`` (None: a fresh seed, reported in the answer), stopping
    early once every odds' Wilson half-width is within ``tolerance`` (0: never early).  ``workers``: how
    many threads or processes share the work (None: the answer's default); the answer
    never depends on it."""

    exact: bool = False
    samples: int | None = None
    seed: int | None = None
    workers: int | None = None
    tolerance: float = TOLERANCE

    def __post_init__(self) -> None:
        if self.samples is not None and (isinstance(self.samples, bool)
                                         or not isinstance(self.samples, int)
                                         or self.samples < 1):
            raise NotationError(_("bad number of samples {samples!r}: expected at least 1")
                                 .format(samples=self.samples))
        if self.workers is not None and (not isinstance(self.workers, int) or self.workers < 1):
            raise NotationError(_("bad number of workers {workers!r}: expected at least 1")
                                 .format(workers=self.workers))
        if not 0 <= self.tolerance < 1:
            raise NotationError(_("bad tolerance {tolerance!r}: expected a number from 0 "
                                  "(never stop early) to 1")
                                 .format(tolerance=self.tolerance))

    def samples_or(self, default: int) -> int:
        """The most deals to sample: ``samples``, or the answer's ``default``."""
        return default if self.samples is None else self.samples

    def workers_or(self, default: int) -> int:
        """The workers to use: ``workers``, or the answer's ``default`` (at least 1)."""
        return max(1, default if self.workers is None else self.workers)

    def drawn_seed(self) -> int | None:
        """The seed of a sampled answer (a fresh one when none was given); None when exact."""
        if self.exact:
            return None
        return random_seed() if self.seed is None else self.seed
