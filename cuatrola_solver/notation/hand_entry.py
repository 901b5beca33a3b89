"""A hand taken down as it is played at a real table (anotar): entry by entry, with undo.

:class:`HandEntry` is built one entry at a time, in the order things happen at the
table: the muestra, the calls in speaking order, then the cards in playing order, trick
by trick, with the cantes between tricks where the rules allow them.  The rules, the
players' names and any subset of the hands (your own, another you saw, or none) are
given when it is made.  Each entry is checked by the one rules engine
(:class:`~cuatrola_solver.game.hand.HandState`): a card already played, a card known to
be another seat's (the muestra before the dealer plays it), a call or a cante the rules
refuse raises a :class:`~cuatrola_solver.errors.CuatrolaError` with its one-line message
and changes nothing.

**A renuncio is accepted**, because a real table plays on: it is marked at once in a
known hand, or as soon as a later card of the same seat proves it in a hand not entered
(as ``cuatrola check`` proves it), each with the obligation it broke and the preset's
consequence (:class:`Marked`).  :meth:`HandEntry.undo` takes back the last entry, any
number of times.  At any point :meth:`HandEntry.record` is the record so far and
:attr:`HandEntry.hand` the engine's state, whose ``result()`` and ``renuncios`` are
``check``'s verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence, Union

from ..errors import CuatrolaError, IllegalBidError, IllegalCanteError, NotationError, quote
from ..game.auction import parse_call
from ..game.cards import FULL_DECK, cards_of, format_card, parse_card, parse_cards, parse_suit
from ..game.hand import HandState, Renuncio, Result, check_hands
from ..game.match import Score
from ..game.play import SUIT_NAMES, side_of
from ..game.rules import RuleSet, get_rules
from ..i18n import _
from .record import NO_PLAYERS, HandRecord, player_name

__all__ = ["MuestraEntry", "CallEntry", "CardEntry", "CanteEntry", "Entry", "Marked", "Allowed",
           "HandEntry", "consequence", "describe_entry", "parse_hands", "parse_players"]


@dataclass(frozen=True)
class MuestraEntry:
    """The muestra turned up by the dealer."""

    card: int


@dataclass(frozen=True)
class CallEntry:
    """The next call of the auction, in speaking order from seat 1."""

    call: str


@dataclass(frozen=True)
class CardEntry:
    """The next card played, in playing order."""

    card: int


@dataclass(frozen=True)
class CanteEntry:
    """A cante, between tricks: ``seat`` sings ``suit``."""

    seat: int
    suit: int


Entry = Union[MuestraEntry, CallEntry, CardEntry, CanteEntry]


@dataclass(frozen=True)
class Marked:
    """A renuncio as the table learns it: the renuncio, the entry (0-based) whose card
    made it known (its own card in a known hand, a later card of the seat in a hand not
    entered) and the preset's consequence in players' words."""

    renuncio: Renuncio
    found_at: int
    consequence: str

    def describe(self) -> str:
        return f"renuncio: {self.renuncio.describe()}; {self.consequence}"


@dataclass(frozen=True)
class Allowed:
    """What may be entered now.

    ``stage``: ``muestra``, ``call``, ``card`` or ``over``; ``seat``: the seat that speaks
    or plays now (None before the muestra and when over); ``calls``: the calls the
    auction allows; ``cards``: the cards that may be entered for the seat on turn (not
    played, not ruled out by a known fact -- a renuncio included, it is accepted);
    ``legal``: of a known hand on turn, its cards playable without renuncio;
    ``cantes``: the ``(seat, suit)`` cantes the rules allow now."""

    stage: str
    seat: int | None
    calls: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    legal: tuple[int, ...] = ()
    cantes: tuple[tuple[int, int], ...] = ()


def consequence(hand: HandState, renuncio: Renuncio) -> str:
    """What a renuncio costs under the hand's rules (docs/rules.md 6 and 8.5): the first
    one ends the hand and the injured side scores the value at stake (doubled under
    ``renuncio_penalty = double``); a later one changes nothing."""
    first = hand.renuncios[0] if hand.renuncios else renuncio
    if (first.trick, first.seat) != (renuncio.trick, renuncio.seat):
        return _("the first renuncio already decided the hand")
    rules = hand.rules
    value = rules.renuncio_value(hand.contract)
    winner = side_of(renuncio.seat).other
    if rules.renuncio_penalty == "double":
        return _("the hand ends: side {side} scores {points} (twice the {contract}'s value, "
                 "{preset} rules)").format(side=winner, points=value, contract=hand.contract,
                                           preset=rules.name)
    return _("the hand ends: side {side} scores {points} (the {contract}'s value, {preset} "
             "rules)").format(side=winner, points=value, contract=hand.contract,
                              preset=rules.name)


class HandEntry:
    """One hand taken down entry by entry (see the module).

    ``hands``: seat ``i + 1``'s five cards at index ``i``, or None for a hand not known
    (the default: none); ``players``: the four names (None for a seat without one)."""

    def __init__(self, rules: RuleSet | str | None = None,
                 hands: Sequence[Iterable[int] | None] | None = None,
                 players: Sequence[str | None] | None = None,
                 score: Score | None = None) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else get_rules(rules)
        given: list[list[int] | None] = ([None] * 4 if hands is None else
                                         [None if h is None else list(h) for h in hands])
        if len(given) != 4:
            raise NotationError(f"a table has 4 seats, got {len(given)} hands")
        # the hands alone are checked now (five cards each, none twice); the muestra's
        # place is checked when it is entered
        check_hands(given, _free_card(given))
        self.hands = given
        names = list(NO_PLAYERS if players is None else players)
        if len(names) != 4:
            raise NotationError(f"a table has 4 players, got {len(names)} names")
        self.players = tuple(None if n is None else player_name(n, f"player {i}")
                             for i, n in enumerate(names, 1))
        self.score = score
        self.entries: list[Entry] = []
        self.marks: list[Marked] = []
        self._hand: HandState | None = None

    # --- what has been entered ----------------------------------------------------------
    @property
    def hand(self) -> HandState:
        """The engine's state after the entries (raises before the muestra)."""
        if self._hand is None:
            raise NotationError(_("no muestra yet: the hand starts with the muestra"))
        return self._hand

    @property
    def muestra(self) -> int | None:
        return None if self._hand is None else self._hand.muestra

    def record(self) -> HandRecord:
        """The record so far (raises before the muestra): the known hands as they were
        given, the calls, the tricks (the last may be incomplete), the cantes."""
        hand = self.hand
        calls = list(hand.auction.calls)
        tricks = [[c for _, c in t] for t in hand.tricks]
        if hand.current:
            tricks.append([c for _, c in hand.current])
        return HandRecord(rules=self.rules, muestra=hand.muestra,
                          hands=[None if h is None else list(h) for h in self.hands],
                          auction=calls, tricks=tricks, cantes=list(hand.cantes),
                          score=self.score, players=self.players)

    def result(self) -> Result | None:
        """The hand's result so far (None while undecided): ``check``'s."""
        return None if self._hand is None else self._hand.result()

    # --- entering ---------------------------------------------------------------------
    def enter(self, entry: Entry) -> list[Marked]:
        """Take ``entry``; returns the renuncios it makes known (usually none).  An entry
        that cannot be made raises a CuatrolaError and changes nothing."""
        hand = self._hand.copy() if self._hand is not None else None
        hand = self._apply(hand, entry)
        known = {(m.renuncio.trick, m.renuncio.seat) for m in self.marks}
        found = [Marked(r, len(self.entries), "") for r in hand.renuncios
                 if (r.trick, r.seat) not in known]
        found = [Marked(m.renuncio, m.found_at, consequence(hand, m.renuncio)) for m in found]
        self._hand = hand
        self.entries.append(entry)
        self.marks.extend(found)
        return found

    def enter_text(self, text: str) -> list[Marked]:
        """One entry as typed: a card (the muestra, or the next card played), a call
        during the auction, or ``cante SEAT SUIT`` between tricks."""
        return self.enter(self.parse(text))

    def parse(self, text: str) -> Entry:
        """The entry ``text`` means now (see :meth:`enter_text`)."""
        words = text.split()
        if not words:
            raise NotationError(_("empty entry: expected {what}").format(what=self._expected()))
        stage = self.stage
        if words[0].lower() == "cante":
            if len(words) != 3 or words[1] not in ("1", "2", "3", "4"):
                raise NotationError(_("bad cante {text}: expected 'cante SEAT SUIT', a seat 1 "
                                      "to 4, e.g. 'cante 2 oros'").format(text=quote(text)))
            return CanteEntry(int(words[1]), int(parse_suit(words[2], _("in cante"))))
        if len(words) > 1:
            raise NotationError(_("{text} is {n} entries: enter one at a time").format(
                text=quote(text), n=len(words)))
        word = words[0]
        if stage == "muestra":
            return MuestraEntry(parse_card(word, _("(the muestra)")))
        if stage == "call":
            return CallEntry(parse_call(word, _("(call {n})").format(
                n=len(self.hand.auction.calls) + 1)))
        return CardEntry(parse_card(word, _("(trick {n})").format(n=self.hand.trick_number)))

    def undo(self) -> Entry:
        """Take back the last entry (and the renuncios it made known); returns it."""
        if not self.entries:
            raise NotationError(_("nothing to undo: no entry yet"))
        last = self.entries.pop()
        hand: HandState | None = None
        for entry in self.entries:
            hand = self._apply(hand, entry)
        self._hand = hand
        self.marks = [m for m in self.marks if m.found_at < len(self.entries)]
        return last

    def _apply(self, hand: HandState | None, entry: Entry) -> HandState:
        """``entry`` applied to ``hand`` (a copy the caller may throw away)."""
        if isinstance(entry, MuestraEntry):
            if hand is not None:
                raise NotationError(_("the muestra is {card} already (undo to change it)")
                                    .format(card=format_card(hand.muestra)))
            return HandState(self.hands, entry.card, self.rules, self.score)
        if hand is None:
            raise NotationError(_("no muestra yet: the hand starts with the muestra"))
        if isinstance(entry, CallEntry):
            if hand.auction.is_complete:
                raise IllegalBidError(_("call {call}: the auction is over ({contract})").format(
                    call=quote(entry.call), contract=hand.contract))
            hand.bid(entry.call)
        elif isinstance(entry, CardEntry):
            hand.play(entry.card)
        elif not hand.auction.is_complete:
            raise IllegalCanteError(_("cante {seat} {suit}: a cante is sung between tricks, "
                                      "after the auction").format(seat=entry.seat,
                                                                  suit=SUIT_NAMES[entry.suit]))
        else:
            hand.sing(entry.seat, entry.suit)
        return hand

    # --- what may be entered now -------------------------------------------------------
    @property
    def stage(self) -> str:
        """``muestra``, ``call``, ``card`` or ``over``."""
        hand = self._hand
        if hand is None:
            return "muestra"
        if not hand.auction.is_complete:
            return "call"
        return "over" if hand.is_over() else "card"

    def allowed(self) -> Allowed:
        """What may be entered now (see :class:`Allowed`)."""
        stage = self.stage
        if stage == "muestra":
            return Allowed(stage, None, cards=tuple(self._muestras()))
        hand = self.hand
        if stage == "call":
            return Allowed(stage, hand.auction.speaker, calls=tuple(hand.legal_calls()))
        cantes = tuple((seat, suit) for seat in (1, 2, 3, 4) for suit in range(4)
                       if hand.cante_refusal(seat, suit) is None)
        if stage == "over":
            return Allowed(stage, None, cantes=())
        seat = hand.to_play
        assert seat is not None, "a card is expected"
        cards = tuple(c for c in cards_of(FULL_DECK) if _may_play(hand, c))
        legal = tuple(hand.legal_cards()) if self.hands[seat - 1] is not None else ()
        return Allowed(stage, seat, cards=cards, legal=legal, cantes=cantes)

    def _muestras(self) -> list[int]:
        """The cards the muestra may be: seat 4's when known, else any card no other known
        hand holds."""
        if self.hands[3] is not None:
            return sorted(self.hands[3])
        others = {c for h in self.hands[:3] if h is not None for c in h}
        return [c for c in cards_of(FULL_DECK) if c not in others]

    def _expected(self) -> str:
        return {"muestra": _("the muestra, a card such as 3o"),
                "call": _("a call (paso, solo, contrasolo, cuatrola, quintola)"),
                "card": _("a card such as 3o, or 'cante SEAT SUIT' between tricks"),
                "over": _("nothing more: the hand is over")}[self.stage]

    def describe_allowed(self) -> list[str]:
        """What may be typed now, in players' words (the ``?`` of ``cuatrola record``)."""
        a = self.allowed()
        if a.stage == "muestra":
            return [_("the muestra: one of {cards}").format(cards=_cards(a.cards))]
        if a.stage == "call":
            return [_("seat {seat} speaks: {calls}").format(seat=a.seat,
                                                             calls=" ".join(a.calls))]
        lines = []
        if a.stage == "card":
            lines.append(_("seat {seat} plays: {cards}").format(seat=a.seat,
                                                                  cards=_cards(a.cards)))
            if a.legal:
                lines.append(_("  without renuncio: {cards}").format(cards=_cards(a.legal)))
        else:
            lines.append(_("the hand is over: 'end' writes the record"))
        for seat, suit in a.cantes:
            lines.append(_("  cante {seat} {suit}").format(seat=seat, suit=SUIT_NAMES[suit]))
        return lines


def describe_entry(entry: Entry) -> str:
    """An entry as it is typed: ``Re``, ``paso``, ``cante 3 copas``."""
    if isinstance(entry, (MuestraEntry, CardEntry)):
        return format_card(entry.card)
    if isinstance(entry, CallEntry):
        return entry.call
    return f"cante {entry.seat} {SUIT_NAMES[entry.suit]}"


def _cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def _may_play(hand: HandState, c: int) -> bool:
    """Whether the seat on turn may be entered as playing ``c`` (a renuncio may)."""
    try:
        hand.copy().play(c)
    except CuatrolaError:
        return False
    return True


def _free_card(hands: Sequence[Sequence[int] | None]) -> int:
    """A muestra the known hands allow, to check them before the muestra is entered:
    one of seat 4's cards, or a card no known hand holds."""
    if hands[3] is not None and hands[3]:
        return hands[3][0]
    held = {c for h in hands if h is not None for c in h}
    return next(c for c in cards_of(FULL_DECK) if c not in held)


def parse_hands(specs: Iterable[str]) -> list[list[int] | None]:
    """``["2=Co Ro Sb Rb 3b", ...]`` (``SEAT=CARDS``, as ``--hand`` gives them) as the four
    hands, None for a seat not given."""
    hands: list[list[int] | None] = [None] * 4
    for spec in specs:
        seat, sep, cards = spec.partition("=")
        if not sep or seat.strip() not in ("1", "2", "3", "4"):
            raise NotationError(_("bad --hand {spec}: expected SEAT=CARDS, a seat 1 to 4, e.g. "
                                  "'2=Co Ro Sb Rb 3b'").format(spec=quote(spec)))
        s = int(seat)
        if hands[s - 1] is not None:
            raise NotationError(_("--hand: seat {seat} is given twice").format(seat=s))
        hands[s - 1] = parse_cards(cards, f"--hand {s}")
    return hands


def parse_players(text: str) -> tuple[str | None, ...]:
    """``"Ana,Luis,,Marta"`` (``--players``) as the four names, an empty one None."""
    names = text.split(",")
    if len(names) != 4:
        raise NotationError(_("bad --players {text}: expected four names separated by commas, "
                              "seat 1 first (an empty name for a seat without one)").format(
                                  text=quote(text)))
    return tuple(player_name(n, f"--players, seat {i}") for i, n in enumerate(names, 1))
