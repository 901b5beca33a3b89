"""What-if constraints applied to a seat's knowledge: the layouts that remain.

:func:`constrain` turns each :class:`~cuatrola_solver.game.constraints.Constraint` into
what the counting of :mod:`~cuatrola_solver.hidden.deals` already knows: cards a seat
cannot hold (``void``, ``not``: more ``forbidden`` cards), cards it holds (``has``: more
``known`` cards), and, for a count that is neither ("at least two trumps"), a count
constraint of :attr:`Knowledge.counts <cuatrola_solver.hidden.knowledge.Knowledge.counts>`
that the counting table tracks exactly.  A count that the rest of the knowledge settles
(no trump left that the seat may hold: ``<=`` is then a mask) becomes the mask.  So
exact enumeration visits exactly the layouts that meet every constraint, and sampling
draws them uniformly.

Constraints about the hands as dealt (``Constraints.dealt``, as ``analyze`` takes them)
are first turned into constraints on the cards held now: the cards of the set the seat
has played are taken off the bounds.  A constraint that no layout meets raises
:class:`~cuatrola_solver.errors.InconsistentDealError` naming it, and why when a single
card says it (played, in another known hand, ruled out by the seat's plays).
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import InconsistentDealError
from ..game.cards import cards_of, format_cards, popcount
from ..game.constraints import Constraint, Constraints
from ..i18n import _
from .deals import count_deals
from .knowledge import Knowledge


__all__ = ["constrain"]


def constrain(k: Knowledge, constraints: Constraints) -> Knowledge:
    """``k`` with every constraint applied, in order; raises
    :class:`InconsistentDealError` naming the first one after which no layout is left."""
    applied: list[Constraint] = []
    base = k
    for c in constraints:
        k = _apply(k, c, constraints.dealt, base, applied)
        applied.append(c)
        if count_deals(k) == 0:
            before = applied[:-1]
            raise InconsistentDealError(
                f"no layout of the hidden cards is left with the constraint '{c}'"
                + (f" together with {', '.join(repr(str(b)) for b in before)}" if before
                   else "") + ": the cards left cannot be dealt that way")
    return k


def _cards(mask: int) -> str:
    return format_cards(cards_of(mask))


def _apply(k: Knowledge, c: Constraint, dealt: bool, base: Knowledge,
           before: list[Constraint]) -> Knowledge:
    """``k`` with ``c`` applied; ``base`` is the knowledge before any constraint and
    ``before`` the constraints already applied (to say where a known card comes from)."""
    s = c.seat
    i = s - 1
    if s == k.seat:
        raise InconsistentDealError(_("the constraint '{c}' is about seat {s}, whose cards you "
                                      "hold: constraints are about the other seats")
                                     .format(c=c, s=s))
    cards = c.mask(k.trump)
    lo, hi = c.lo, c.hi                       # of the cards of the set held now
    if dealt:
        own = cards & k.played[i]
        lo, hi = lo - popcount(own), hi - popcount(own)
        if hi < 0:
            raise InconsistentDealError(_("the constraint '{c}' (on the hands as dealt) does "
                                          "not hold: seat {s} has played {own}")
                                         .format(c=c, s=s, own=_cards(own)))
    played = 0
    for m in k.played:
        played |= m
    now = cards & ~played                     # the set's cards someone may hold now
    free = now & k.pool & ~k.forbidden[i]     # ... that seat s may be dealt among its hidden
    held = popcount(now & k.known[i])
    most = held + min(popcount(free), k.hidden_counts[i])
    if hi < held:
        raise InconsistentDealError(f"the constraint '{c}' cannot hold: seat {s} is known to "
                                    f"hold {_cards(now & k.known[i])}"
                                    + _known_why(k, s, now & k.known[i], base, before))
    if lo > most:
        raise InconsistentDealError(f"the constraint '{c}' cannot hold: "
                                    + _why_not(k, c, cards, now, free, most, dealt, base,
                                               before))
    n = popcount(free)
    forbidden, known, hidden = list(k.forbidden), list(k.known), list(k.hidden_counts)
    if hi - held <= 0:                        # none of the free cards: a mask
        forbidden[i] |= free
    elif lo - held >= n:                      # all of them: known cards
        known[i] |= free
        hidden[i] -= n
    elif lo - held > 0 or hi - held < n:      # a count no mask says
        return replace(k, counts=k.counts + ((s, now, max(lo, 0), hi),))
    else:                                     # every layout meets it
        return k
    return replace(k, forbidden=tuple(forbidden), known=tuple(known),
                   hidden_counts=tuple(hidden))


def _by_constraint(k: Knowledge, s: int, cards: int, before: list[Constraint]) -> str:
    """The earlier constraint about seat ``s`` whose set holds ``cards``."""
    for b in before:
        if b.seat == s and b.mask(k.trump) & cards:
            return f"'{b}'"
    return "an earlier constraint"                      # not reached: a card comes from one


def _known_why(k: Knowledge, s: int, cards: int, base: Knowledge,
               before: list[Constraint]) -> str:
    """Where seat ``s``'s known ``cards`` are known from: the muestra, a cante, or an
    earlier constraint."""
    if s == 4 and cards >> k.muestra & 1:
        return " (the muestra)"
    if cards & base.known[s - 1]:
        return " (from a cante)"
    return f" (by the constraint {_by_constraint(k, s, cards, before)})"


def _why_not(k: Knowledge, c: Constraint, cards: int, now: int, free: int, most: int,
             dealt: bool, base: Knowledge, before: list[Constraint]) -> str:
    """Why seat ``c.seat`` cannot hold as many cards of the set as ``c`` asks: a card
    of a ``has`` that is played, in another known hand or ruled out by the seat's plays;
    else how many it can hold at most."""
    i = c.seat - 1
    if c.form == "has":
        gone = cards & ~now & ~(k.played[i] if dealt else 0)
        if gone:
            return (f"{_cards(gone)} {'has' if popcount(gone) == 1 else 'have'} been played"
                    + (" by another seat" if dealt else ""))
        for j, m in enumerate(k.known):
            there = now & m
            if j != i and there:
                if j == k.seat - 1:
                    return f"{_cards(there)} {'is' if popcount(there) == 1 else 'are'} in your hand"
                return (f"{_cards(there)} {'is' if popcount(there) == 1 else 'are'} known to "
                        f"be in seat {j + 1}'s hand" + _known_why(k, j + 1, there, base,
                                                                  before))
        ruled = now & base.forbidden[i]
        if ruled:
            return f"seat {c.seat}'s plays show it holds no {_cards(ruled)}"
        ruled = now & k.forbidden[i]
        if ruled:
            return (f"the constraint {_by_constraint(k, c.seat, ruled, before)} rules out "
                    f"{_cards(ruled)}")
    return f"seat {c.seat} can hold at most {most} of those cards now"
