"""What one seat's view reveals about the hidden hands: :func:`knowledge_of`, the
:class:`~cuatrola_solver.hidden.knowledge.Knowledge` of a view.

What a seat knows: its own cards, the muestra (face up, in seat 4's hand until seat 4
plays it), who sits out, every card played so far with its trick context, the cantes (a
singer held the rey and the caballo of the suit), and what the strict rules of play
reveal about the other seats.

**Inference from a play is exact.**  A seat ``s`` that played card ``c`` to a trick
whose cards so far were ``before`` held, at that moment, the hand ``H_t`` = its
current cards plus every card it has played since (``c`` included).  Assuming the
play was no renuncio, ``c`` was in ``legal_mask(H_t, before, ...)``; by the rules of
play (docs/rules.md 2) that is always equivalent to ``H_t & F == 0`` for one mask ``F``
(:func:`~cuatrola_solver.game.play.play_forbidden`), derived from the
:class:`~cuatrola_solver.game.rules.RuleSet` parameters (``beat_led_after_trump``,
``free_when_cannot_overtrump``), e.g.:

- not following the led suit: void in it (``F`` holds the led suit);
- following without beating the highest led card where montar applied: no higher
  card of that suit;
- void, not trumping where fallar applied: no trump;
- not over-trumping where montar el fallo applied: no trump higher than the trick's
  best trump (no trump at all when ``free_when_cannot_overtrump`` is false and the
  card is not a trump).

The cards played since are known, so ``H_t & F == 0`` splits into a check on the known
later plays and ``current_hand & F == 0``: every constraint on the hidden cards is a
*forbidden-cards mask* per seat, and the set of deals consistent with the history is
exactly the set of deals that respect these masks (:mod:`~cuatrola_solver.hidden.deals`
counts, enumerates and samples them).  A play that was a renuncio (per the record, or
per the ``renuncios`` argument) is used for no inference at all, not even that it broke
a rule (nor that, under ``early_end``, play went on because of it).  Bids are not used
here (a human may bid anything; the advisor weighs the deals by the calls with the bid
model); a cante is used positively only: the cards of a cante not played since are known
to be in the singer's hand.
"""

from __future__ import annotations

from typing import Iterable

from ..errors import InconsistentDealError
from ..game.cards import cards_of, format_card, format_cards, mask_of, popcount
from ..game.play import cante_mask, play_forbidden
from ..game.hand import Play
from ..game.view import View
from ..i18n import _
from .constrain import constrain
from .knowledge import Knowledge

__all__ = ["knowledge_of"]


def knowledge_of(view: View, renuncios: Iterable[tuple[int, int]] | None = None) -> Knowledge:
    """What a :class:`~cuatrola_solver.game.view.View` tells about the current hands: the
    one way to the knowledge behind every answer.

    ``renuncios`` lists the plays, as (trick number, seat) pairs, that were renuncios
    and so reveal nothing; by default the renuncios the view has seen.  Raises
    :class:`InconsistentDealError` when the history contradicts itself (a play assumed
    legal that the seat's later plays show was not).  The view's what-if constraints
    (:meth:`View.assuming <cuatrola_solver.game.view.View.assuming>`) are applied last
    (:func:`~cuatrola_solver.hidden.constrain.constrain`): an error names the first one
    that leaves no layout.
    """
    seat = view.seat
    rules = view.rules
    trump = view.trump
    if renuncios is None:
        renuncios = [(r.trick, r.seat) for r in view.renuncios]
    skip = frozenset((int(t), int(s)) for t, s in renuncios)
    plays = list(view.plays)
    played = [0, 0, 0, 0]
    for p in plays:
        played[p.seat - 1] |= 1 << p.card
    forbidden = [0, 0, 0, 0]
    for i, p in enumerate(plays):
        if (p.trick, p.seat) in skip or p.seat == seat:
            continue
        f = play_forbidden(p.card, p.before, trump, rules.beat_led_after_trump,
                           rules.free_when_cannot_overtrump)
        later = mask_of(q.card for q in plays[i + 1:] if q.seat == p.seat)
        if later & f:
            raise InconsistentDealError(
                _("trick {trick}: seat {seat} played {card}, which would be a renuncio since "
                  "it still held {value}")
                 .format(trick=p.trick, seat=p.seat, card=format_card(p.card),
                     value=format_cards(cards_of(later & f))))
        forbidden[p.seat - 1] |= f
    active = tuple(view.active) if view.auction_over else (True,) * 4
    known = [0, 0, 0, 0]
    known[seat - 1] = view.held
    if not (played[3] >> view.muestra & 1):
        known[3] |= 1 << view.muestra
    not_both: list[tuple[int, int]] = []
    sung = 0
    for k in view.cantes:
        if rules.forty_first and k.suit != trump and not sung >> trump & 1:
            # a 20 before the 40: no active seat of the side could sing the 40 then
            for mate in (k.seat, (k.seat + 1) % 4 + 1):
                if active[mate - 1] and mate != seat:
                    _no_forty(mate, k.after_trick, cante_mask(trump), plays, played,
                              known, forbidden, not_both)
        sung |= 1 << k.suit
        need = cante_mask(k.suit)
        before = mask_of(p.card for p in plays if p.trick <= k.after_trick)
        if need & before or need & ~played[k.seat - 1] & (played[0] | played[1] | played[2]
                                                           | played[3]):
            raise InconsistentDealError(_("seat {seat} sang {value} after trick {after_trick} "
                                          "without holding them")
                                         .format(seat=k.seat, value=format_cards(cards_of(need)),
                                             after_trick=k.after_trick))
        known[k.seat - 1] |= need & ~played[k.seat - 1]
    for s in range(4):
        if known[s] & forbidden[s]:
            raise InconsistentDealError(
                _("seat {value} is known to hold {value2}, which its plays show it cannot hold")
                 .format(value=s + 1, value2=format_cards(cards_of(known[s] & forbidden[s]))))
    others = [known[s] for s in range(4) if s != seat - 1]
    if known[seat - 1] & (others[0] | others[1] | others[2]):
        raise InconsistentDealError(_("the observer's cards are known to be elsewhere"))
    hidden = tuple(0 if s == seat - 1 else 5 - popcount(played[s]) - popcount(known[s])
                   for s in range(4))
    if min(hidden) < 0:
        raise InconsistentDealError(_("a seat is known to hold more cards than it has"))
    for mate, need in not_both:
        if need & ~known[mate - 1] == 0:
            raise InconsistentDealError(_("seat {mate} is known to hold {value}, which the "
                                          "cantes show it did not hold")
                                         .format(mate=mate, value=format_cards(cards_of(need))))
    knowledge = Knowledge(seat, view.muestra, trump, rules, active, tuple(known), hidden,
                          tuple(forbidden), tuple(played), tuple(plays), skip, tuple(not_both))
    return constrain(knowledge, view.constraints) if view.constraints else knowledge


def _no_forty(mate: int, after: int, need: int, plays: list[Play], played: list[int],
              known: list[int], forbidden: list[int], not_both: list[tuple[int, int]]) -> None:
    """Record that ``mate`` did not hold both cards of ``need`` after trick ``after``:
    a forbidden card when one of them was played by it since, a ``not_both`` pair when
    neither was, nothing when one of them was elsewhere."""
    before = mask_of(p.card for p in plays if p.trick <= after)
    others = 0
    for s in range(4):
        if s != mate - 1:
            others |= played[s]
    if need & (before | others):
        return                       # one of the cards was not in its hand then
    rest = need & ~played[mate - 1]
    if not rest:
        raise InconsistentDealError(_("seat {mate} played {value} after trick {after}, so its "
                                      "side had the 40 and sang a 20")
                                     .format(mate=mate, value=format_cards(cards_of(need)),
                                         after=after))
    if rest != need:
        forbidden[mate - 1] |= rest
    elif (mate, need) not in not_both:
        not_both.append((mate, need))
