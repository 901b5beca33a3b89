"""The statistics of odds over deals: Wilson intervals and weighted tallies.

Odds are means over deals, each deal counted with a weight (1 without call inference).
:func:`wilson` gives the 95% interval of a proportion; a weighted tally's interval uses
the effective number of deals ``(sum w)^2 / sum w^2`` (Kish), as
:attr:`Tally.effective` gives it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..hidden.knowledge import Weights

__all__ = ["Z95", "wilson", "half_width", "Tally"]

Z95 = 1.959963984540054


def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ``wins / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)




def half_width(wins: float, n: float) -> float:
    """Half the width of the Wilson interval of ``wins`` (rounded) out of ``n``."""
    lo, hi = wilson(int(round(wins)), n)
    return (hi - lo) / 2


@dataclass
class Tally:
    """Sums over the deals seen so far, for one (contract, declarer), each deal counted
    with its weight (1 without call inference: the sums are then whole numbers)."""

    n: int = 0                    # deals
    w: float = 0.0                # sum of the weights
    w2: float = 0.0               # sum of the squared weights
    wins: float = 0.0             # deals the declaring side wins
    gp: float = 0.0               # sum of the declaring side's game points
    tricks: Weights = field(default_factory=lambda: np.zeros(6))
    outcomes: dict[int, float] = field(default_factory=dict)   # game points -> deals

    def add(self, makes: npt.NDArray[np.bool_], gp: npt.NDArray[np.int32],
            tricks: npt.NDArray[np.int32], weights: Weights | None = None) -> None:
        if weights is None:
            weights = np.ones(len(makes))
        self.n += len(makes)
        self.w += float(weights.sum())
        self.w2 += float(np.square(weights).sum())
        self.wins += float(weights[np.asarray(makes, dtype=bool)].sum())
        self.gp += float(np.dot(weights, gp))
        self.tricks += np.bincount(tricks, weights=weights, minlength=6)[:6]
        # the game points seen, in order (np.unique would import numpy.ma: 10 ms)
        low = int(gp.min()) if len(gp) else 0
        for i in np.flatnonzero(np.bincount(np.asarray(gp, dtype=np.int64) - low)).tolist():
            v = i + low
            self.outcomes[v] = self.outcomes.get(v, 0.0) + float(weights[gp == v].sum())

    @property
    def effective(self) -> float:
        """(sum w)^2 / sum w^2: the deals the weighted sums are worth (n when unweighted)."""
        return self.w * self.w / self.w2 if self.w2 else 0.0


