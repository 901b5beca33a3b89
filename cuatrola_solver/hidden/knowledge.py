"""What one seat knows about the hidden hands: :class:`Knowledge`, the value the hidden-deal
layer counts, enumerates and samples from (:mod:`~cuatrola_solver.hidden.deals`), narrows
by what-if constraints (:mod:`~cuatrola_solver.hidden.constrain`), and that
:func:`~cuatrola_solver.hidden.inference.knowledge_of` derives from a seat's view.

This module imports nothing else of the hidden layer: the other modules import it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..game.cards import FULL_DECK, CardMask, cards_of, format_card, format_cards, popcount
from ..game.hand import Play
from ..game.rules import RuleSet

__all__ = ["Knowledge", "Deals", "Weights"]

#: deals as rows of the four hands' masks, seats 1 to 4: an ``(n, 4)`` uint32 array (what
#: the hidden layer draws and enumerates, and every search over deals reads)
Deals = npt.NDArray[np.uint32]
#: a weight per deal (how likely the calls and cards seen make it): a float64 array
Weights = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Knowledge:
    """What seat ``seat`` knows about the current hands.

    All masks are per seat, index ``seat - 1``:

    - ``known``: cards known to be in the seat's current hand (the observer's own
      cards; the muestra for seat 4 until it is played; unplayed cards of a cante);
    - ``hidden_counts``: how many more (unknown) cards the seat holds now;
    - ``forbidden``: cards the seat cannot hold now (exact consequences of the plays;
      always 0 for the observer);
    - ``played``: cards the seat has played in this hand.

    ``plays`` is the history the knowledge was derived from (empty at the start), and
    ``ignored`` the plays, as ``(trick, seat)``, taken as renuncios: they reveal nothing.
    ``not_both`` lists (seat, mask) pairs: the seat does not hold *all* the cards of the
    mask now (``forty_first``: a side that sang a 20 before the 40 could not sing the 40,
    so neither of its active seats held the trump rey and caballo together).
    ``counts`` lists (seat, mask, lo, hi): the seat holds now between ``lo`` and ``hi``
    of the mask's cards (what-if constraints, :mod:`~cuatrola_solver.hidden.constrain`,
    that no mask says: "at least two trumps").
    """

    seat: int
    muestra: int
    trump: int
    rules: RuleSet
    # one per seat:
    active: tuple[bool, ...]
    known: tuple[CardMask, ...]
    hidden_counts: tuple[int, ...]
    forbidden: tuple[CardMask, ...]
    played: tuple[CardMask, ...] = (0, 0, 0, 0)
    plays: tuple[Play, ...] = ()
    ignored: frozenset[tuple[int, int]] = frozenset()
    not_both: tuple[tuple[int, int], ...] = ()
    counts: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def hand(self) -> CardMask:
        """The observer's current cards."""
        return self.known[self.seat - 1]

    @property
    def pool(self) -> CardMask:
        """The cards whose holder the observer does not know."""
        taken = 0
        for m in self.known + self.played:
            taken |= m
        return FULL_DECK & ~taken

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(popcount(k) + h for k, h in zip(self.known, self.hidden_counts))

    def dealt_hands(self, deals: Deals) -> Deals:
        """The hands as dealt (current cards plus cards played) for deals of current hands."""
        return np.asarray(deals, dtype=np.uint32) | np.array(self.played, dtype=np.uint32)

    def describe(self) -> str:
        lines = [f"seat {self.seat} holds {format_cards(cards_of(self.hand))}, "
                 f"muestra {format_card(self.muestra)}"]
        for s in range(1, 5):
            if s != self.seat:
                lines.append(f"seat {s}: known {format_cards(cards_of(self.known[s - 1]))} "
                             f"+ {self.hidden_counts[s - 1]} hidden, cannot hold "
                             f"{format_cards(cards_of(self.forbidden[s - 1] & self.pool))}")
        return "\n".join(lines)
