"""A seat's view: exactly what one seat knows of a hand.

A :class:`View` is one seat's information state (OpenSpiel's observer): its five
cards, the muestra, its seat, the rules and the match score, the calls, every card
played so far in order (who played each follows from the leaders), and the cantes.
It holds nothing else, so a player (:mod:`cuatrola_solver.bots.players`) that receives a
view has no way to reach the hidden cards.  Its :attr:`View.seen` is the hand as the seat
has seen it: the one rules engine (:class:`~cuatrola_solver.game.hand.HandState`) with the
other hands unknown, which checks all that can be checked from this side and finds the
renuncios the play proves.  Views are made by projecting a :class:`HandState`
(:meth:`View.from_hand`, :meth:`View.on_turn`), for a seat about to speak
(:meth:`View.bidding`), or by the notation layer from a record or the live input
(:func:`~cuatrola_solver.notation.replay.view_of`,
:func:`~cuatrola_solver.notation.replay.read_view`); every answer (``advise``, ``hint``)
takes one.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from ..errors import IllegalPlayError, InconsistentDealError, NotationError, RecordError, quote
from ..i18n import _, ngettext
from .auction import parse_auction
from .cards import (Card, CardMask, cards_of, format_card, format_cards, mask_of,
                    parse_card, parse_cards, popcount, suit_of)
from .constraints import Constraints
from .hand import Cante, HandState, Play, Renuncio, Result
from .match import Score
from .play import SUIT_NAMES, Position, legal_mask, seat_cante_options, side_of
from .rules import RuleSet, get_rules
from .seats import Seat, Side, check_seat

__all__ = ["View"]


def _no_repeats(cards: Sequence[Card]) -> None:
    """Refuse a hand that names a card twice."""
    if len(set(cards)) != len(cards):
        raise NotationError(_("the hand {hand} repeats a card").format(
            hand=quote(format_cards(cards))))


@dataclass(frozen=True)
class View:
    """What seat ``seat`` knows: its dealt cards (``hand``, a mask), the muestra, the
    rules and score, the calls so far, the cards played so far (each trick from its
    leader; the last may be incomplete) and the cantes.  Checked on construction:
    a view that cannot have happened raises :class:`RecordError`."""

    rules: RuleSet
    seat: Seat
    hand: CardMask                # the seat's cards now
    muestra: Card
    calls: tuple[str, ...] = ()
    tricks: tuple[tuple[Card, ...], ...] = ()
    cantes: tuple[Cante, ...] = ()
    score: Score | None = None
    #: the seat's dealt cards in the order they were given, for display (an answer shows
    #: them as the player typed them); empty: canonical order.  Not part of the view's
    #: knowledge: two views that differ only here are equal
    order: tuple[Card, ...] = field(default=(), compare=False, repr=False)
    #: what the seat assumes about the other hands beyond what it has seen (what-if
    #: constraints, :meth:`assuming`): every answer deals only the layouts that meet them
    constraints: Constraints = field(default=Constraints(), repr=False)

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if self.order and (len(self.order) != popcount(self.hand)
                           or mask_of(self.order) != self.hand):
            raise RecordError(_("the order of seat {seat}'s cards ({order}) is not its hand "
                                "({hand})").format(seat=self.seat,
                                                   order=format_cards(self.order),
                                                   hand=format_cards(cards_of(self.hand))))
        self.seen  # noqa: B018 -- replay now: a bad view fails where it is made

    def assuming(self, constraints: Constraints | str | None) -> "View":
        """The same view with what-if constraints on the other hands (``"3: void o;
        4: >=2 triunfo"``, :class:`~cuatrola_solver.game.constraints.Constraints`): the
        answers then deal only the layouts that meet them."""
        c = Constraints.of(constraints)
        return self if c == self.constraints else dataclasses.replace(self, constraints=c)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The seat's dealt cards, in the order given (else canonical order)."""
        return self.order or tuple(cards_of(self.hand))

    @cached_property
    def seen(self) -> HandState:
        """The hand as this seat has seen it: a :class:`~cuatrola_solver.game.hand.HandState`
        with the other hands unknown, the calls, cards and cantes replayed into it."""
        hands: list[list[int] | None] = [None] * 4
        hands[self.seat - 1] = cards_of(self.hand)
        where = _("seat {seat}'s view: ").format(seat=self.seat)
        try:
            hand = HandState(hands, self.muestra, self.rules, self.score)
        except InconsistentDealError as e:
            raise InconsistentDealError(f"{where}{e}") from None
        return hand.replay(self.calls, self.tricks, self.cantes, at=lambda *part: where,
                           complete_auction=False)

    # --- making views -------------------------------------------------------------
    @classmethod
    def bidding(cls, hand: str | Sequence[Card], muestra: str | Card, seat: Seat,
                auction: str | Sequence[str] | None = None,
                rules: RuleSet | str | None = None, score: Score | None = None) -> "View":
        """The view of a seat about to speak, as ``advise`` takes it: its five cards (text
        such as ``"Ac 3c Ro Co Ab"``, or cards), the muestra (text or a card), the calls of
        the seats before it (text such as ``"paso solo"`` or a list; None: they all
        passed), the rules and the match score.  Errors name the bad card, call or seat."""
        rules = rules if isinstance(rules, RuleSet) else get_rules(rules)
        cards = parse_cards(hand, _("the hand")) if isinstance(hand, str) else list(hand)
        m = parse_card(muestra, "(--muestra)") if isinstance(muestra, str) else muestra
        _no_repeats(cards)
        calls = tuple(parse_auction(auction, seat, rules, score).calls)
        return cls.about_to_speak(rules, seat, cards, m, calls, score)

    @classmethod
    def about_to_speak(cls, rules: RuleSet, seat: Seat, cards: Sequence[Card], m: Card,
                       calls: Sequence[str], score: Score | None = None) -> "View":
        """The view of a seat about to speak from values already read one by one: its
        cards, the muestra ``m``, the calls of the seats before it (legal calls, as
        :func:`~cuatrola_solver.game.auction.parse_auction` gives them) and the score;
        what no single value says (five cards, none twice, the muestra's place) is
        checked here.  :meth:`bidding` reads the text first; the advise form reads its
        fields."""
        _no_repeats(cards)
        mask = mask_of(cards)
        if len(cards) != 5:
            raise InconsistentDealError(ngettext(
                "seat {seat} holds {n} card ({cards}): expected 5",
                "seat {seat} holds {n} cards ({cards}): expected 5", len(cards)).format(
                    seat=seat, n=len(cards), cards=format_cards(cards_of(mask))))
        if seat == 4 and not mask >> m & 1:
            raise InconsistentDealError(
                _("the muestra {card} is not in seat 4's hand ({cards}): the dealer keeps "
                  "it").format(card=quote(format_card(m)), cards=format_cards(cards_of(mask))))
        if seat != 4 and mask >> m & 1:
            raise InconsistentDealError(_("the muestra {card} is in seat {seat}'s hand: it "
                                          "belongs to seat 4, the dealer").format(
                                              card=quote(format_card(m)), seat=seat))
        return cls(rules, seat, mask, m, tuple(calls), score=score, order=tuple(cards))

    @classmethod
    def from_hand(cls, hand: HandState, seat: Seat) -> "View":
        """Project a :class:`~cuatrola_solver.game.hand.HandState` onto ``seat``."""
        tricks = [tuple(c for _, c in t) for t in hand.tricks]
        if hand.current:
            tricks.append(tuple(c for _, c in hand.current))
        return cls(hand.rules, seat, hand.deal[seat - 1], hand.muestra,
                   tuple(hand.auction.calls), tuple(tricks), tuple(hand.cantes), hand.score)

    @classmethod
    def on_turn(cls, hand: HandState) -> "View":
        """The view of the seat on turn in a :class:`~cuatrola_solver.game.hand.HandState` in
        play (what ``hint`` answers for a full record); refused when there is no card to
        play: the auction not over, the hand over or decided by a renuncio."""
        if hand.pos is None:
            raise IllegalPlayError(_("the auction is not over: there is no card to play yet"))
        if hand.is_over():
            raise IllegalPlayError(_("the hand is over: there is no card to play"))
        if hand.renuncios:
            raise IllegalPlayError(_("the hand is already decided by the first renuncio, "
                                     "{renuncio}").format(renuncio=hand.renuncios[0].describe()))
        return cls.from_hand(hand, hand.pos.to_play)

    # --- what it says ------------------------------------------------------------
    @property
    def trump(self) -> int:
        return int(suit_of(self.muestra))

    @property
    def side(self) -> Side:
        return side_of(self.seat)

    @property
    def auction_over(self) -> bool:
        return self.seen.auction.is_complete

    @property
    def contract(self) -> str:
        return self.seen.auction.contract

    @property
    def declarer(self) -> tuple[Seat, ...]:
        return self.seen.auction.declarer

    @property
    def active(self) -> tuple[bool, ...]:
        return self.seen.auction.active

    @property
    def position(self) -> Position | None:
        """The position as this seat sees it: hidden hands are 0 (None during the auction)."""
        return self.seen.pos

    @property
    def play_position(self) -> Position:
        """:attr:`position` once the auction is over (before: raises IllegalPlayError)."""
        return self.seen.play_position

    @property
    def held(self) -> CardMask:
        """The cards the seat still holds."""
        return self.hand & ~mask_of(p.card for p in self.seen.plays if p.seat == self.seat)

    @property
    def plays(self) -> list[Play]:
        return self.seen.plays

    @property
    def renuncios(self) -> list[Renuncio]:
        """The renuncios this seat has seen (its own, and those the play proves)."""
        return self.seen.renuncios

    @property
    def trick_number(self) -> int:
        return len(self.seen.tricks) + 1

    def is_over(self) -> bool:
        """Over for this seat: the hand is over, or a renuncio it has seen decides it."""
        return self.seen.is_over() or bool(self.seen.renuncios)

    @property
    def speaker(self) -> Seat | None:
        """The seat to call next during the auction."""
        return self.seen.auction.speaker

    @property
    def to_play(self) -> Seat | None:
        """The seat to play the next card, or None (auction on, or hand over)."""
        if self.position is None or self.seen.is_over():
            return None
        return self.position.to_play

    def legal_calls(self) -> list[str]:
        """The calls the seat may make now (empty when it is not its turn to speak)."""
        if self.speaker != self.seat:
            return []
        return self.seen.auction.legal_calls()

    def legal_cards(self) -> list[Card]:
        """The cards the seat may play now without renuncio (empty when not on turn)."""
        pos = self.position
        if self.to_play != self.seat or pos is None:
            return []
        r = self.rules
        return cards_of(legal_mask(self.held, pos.trick, self.trump,
                                   r.beat_led_after_trump, r.free_when_cannot_overtrump))

    def cante_options(self) -> list[int]:
        """The suits the seat may sing now, as far as it can tell (best first: the 40,
        then by suit).  Under ``forty_first`` a 20 is offered unless the seat itself can
        sing the 40; whether its partner could is not something it sees."""
        pos = self.position
        if pos is None or self.seen.is_over() or pos.trick:
            return []
        return seat_cante_options(pos, self.rules, self.seat)

    def result(self) -> Result | None:
        return self.seen.result()

    def key(self) -> str:
        """A canonical text of everything in the view (for seeding a player's choices)."""
        cantes = ";".join(f"{k.after_trick}.{k.seat}.{k.suit}"
                          for k in sorted(self.cantes, key=lambda k: (k.after_trick, k.seat)))
        tricks = "/".join(" ".join(map(str, t)) for t in self.tricks)
        return (f"{self.rules!r}|{self.seat}|{self.hand}|{self.muestra}|{' '.join(self.calls)}|"
                f"{tricks}|{cantes}|{self.score}"
                + (f"|{'dealt ' if self.constraints.dealt else ''}{self.constraints}"
                   if self.constraints else ""))

    def seed(self, base: int) -> int:
        """A seed drawn from ``base`` and this view only: equal views, equal seeds."""
        digest = hashlib.blake2b(f"{base}|{self.key()}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little") >> 1

    def describe(self) -> str:
        """A short text for people: the seat, its cards, the muestra and the state."""
        lines = [f"seat {self.seat} (side {self.side}), holds "
                 f"{format_cards(cards_of(self.held))}; muestra {format_card(self.muestra)} "
                 f"(triunfo {SUIT_NAMES[self.trump]})"]
        if self.auction_over:
            decl = self.declarer
            lines.append(f"contract {self.contract}"
                         + ("" if not decl else " by seat " + " against seat ".join(map(str, decl))))
        return "\n".join(lines)
