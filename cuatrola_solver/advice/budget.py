"""How much search an answer may take, and when sampling stops.

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
from typing import Callable

from .stats import Z95

__all__ = ["ROUND", "MIN_ROUNDS", "TOLERANCE", "SETTLED", "EXACT_SLICE", "Progress",
           "random_seed"]

#: deals per round of a sampled advice (and chunk size of its seeding)
ROUND = 1000
#: rounds drawn before the first stopping test
MIN_ROUNDS = 2
#: target Wilson half-width of every allowed option's p_win
TOLERANCE = 0.01
#: deals per solve_batch call in exact mode (progress granularity)
EXACT_SLICE = 1 << 15
#: the most deals a sampled answer draws whatever ``samples`` asks for: by then every
#: Wilson half-width is within TOLERANCE, so sampling has stopped (rounded up to ROUND)
SETTLED = ROUND * math.ceil((Z95 / (2 * TOLERANCE)) ** 2 / ROUND)

#: ``progress(done, total)``: called as the work goes on
Progress = Callable[[int, int], None]


def random_seed() -> int:
    """A fresh seed, small enough to type back with ``--seed``."""
    return random.SystemRandom().randrange(2 ** 31)

