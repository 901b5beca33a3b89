"""Records and the game: a record replayed into the rules engine, a record seen from one
seat, the live input of a seat, a hand written back as a record.

- :func:`replay` plays a :class:`~cuatrola_solver.notation.record.HandRecord` into one
  :class:`~cuatrola_solver.game.hand.HandState` (with the hands the record leaves out unknown),
  every error saying where in the record it is: the file, then the line and column of
  the text form or the field of the JSON form (:meth:`HandRecord.at`), then why, in
  players' terms.  :func:`replay_deal` is the same for what needs the whole deal
  (double dummy, the analysis).
- :func:`replay_cards` steps through a checked record card by card (the analysis and the
  calibration value each card on the hand as it stood).
- :func:`view_of` is a record seen from one seat (``hint RECORD --seat N``);
  :func:`read_view` the seat's own input at the table (``hint --hand ... --played ...``).
- :func:`record_of` writes a hand (or what a seat has seen of it) back as a record.
"""

from __future__ import annotations

from typing import Iterator

from ..errors import CuatrolaError, NotationError, RecordError, quote
from ..game.auction import parse_call
from ..game.cards import Card, cards_of, format_cards, mask_of, parse_card, parse_cards, popcount
from ..game.hand import HandState
from ..game.match import Score, check_score
from ..game.rules import RuleSet, get_rules
from ..game.seats import Seat, check_seat
from ..game.view import View
from .record import HandRecord, read_play

__all__ = ["replay", "replay_deal", "replay_cards", "view_of", "read_view", "record_of"]


def replay(rec: HandRecord) -> HandState:
    """The record replayed into the rules engine, checked call by call, card by card and
    cante by cante (hands the record leaves out are unknown: what can be checked from the
    seen side is).  Raises :class:`RecordError` saying where and why."""
    if rec.score is not None:
        try:
            check_score(rec.rules, rec.score, "the record's score")
        except CuatrolaError as e:
            raise RecordError(f"{rec.at('score')}{e}") from None
    try:
        hand = HandState(rec.hands, rec.muestra, rec.rules, rec.score)
    except CuatrolaError as e:
        raise RecordError(f"{rec.at(*getattr(e, 'part', ()))}bad deal: {e}") from None
    return hand.replay(rec.auction, rec.tricks, rec.cantes, at=rec.at)


def replay_deal(rec: HandRecord) -> HandState:
    """:func:`replay` of a record that gives every hand; one that does not is refused
    (what needs the whole deal: double dummy, the analysis, a result's points)."""
    if not rec.complete:
        unknown = rec.unknown_seats
        many = len(unknown) > 1
        raise RecordError(
            f"{rec.at()}the hand{'s' if many else ''} of seat{'s' if many else ''} "
            f"{', '.join(map(str, unknown))} {'are' if many else 'is'} unknown: this needs "
            f"the whole deal (check and hint read such records)")
    return replay(rec)


def replay_cards(rec: HandRecord) -> Iterator[tuple[int, int, HandState, Card]]:
    """Yield ``(trick, position, hand, card)`` before each card of a record that
    :func:`replay_deal` has already checked, replaying it the same way: ``hand`` is one
    :class:`HandState`, advanced after each yield (copy it to keep a position)."""
    hand = HandState(rec.hands, rec.muestra, rec.rules, rec.score)
    for call in (["paso"] * 4 if rec.auction is None else rec.auction):
        hand.bid(call)
    cantes = sorted(rec.cantes, key=lambda k: k.after_trick)
    for t, trick in enumerate(rec.tricks, 1):
        for j, c in enumerate(trick, 1):
            yield t, j, hand, c
            hand.play(c)
        if len(hand.tricks) == t:
            for k in cantes:
                if k.after_trick == t:
                    hand.sing(k.seat, k.suit)


def view_of(rec: HandRecord, seat: Seat) -> View:
    """The record as seat ``seat`` saw it (other hands may be unknown, not ``seat``'s)."""
    check_seat(seat, "--seat")
    hand = rec.hands[seat - 1]
    if hand is None:
        raise RecordError(f"the record does not give seat {seat}'s hand, so it cannot be "
                          f"seen from seat {seat}")
    calls = ("paso",) * 4 if rec.auction is None else tuple(rec.auction)
    return View(rec.rules, seat, mask_of(hand), rec.muestra, calls,
                tuple(tuple(t) for t in rec.tricks), tuple(rec.cantes), rec.score)


def read_view(hand: str, muestra: str, seat: Seat, auction: str | None = None,
              played: str | None = None, rules: RuleSet | str | None = None,
              score: Score | None = None) -> View:
    """The seat's own input at the table, as ``hint --hand ... --played ...`` gives it.

    ``hand`` is the five cards dealt, or the cards still held (the seat's cards in
    ``played`` complete them); ``auction`` the four calls (None: all passed); ``played``
    the play section of a record (``"1. Rb Sb 3b Rc cante 2 oros 2. Ao"``; None: no card
    yet, the opening lead)."""
    rules = rules if isinstance(rules, RuleSet) else get_rules(rules)
    if score is not None:
        check_score(rules, score, "--score")
    cards = parse_cards(hand, "--hand")
    m = parse_card(muestra, "(--muestra)")
    check_seat(seat, "--seat")
    tricks, cantes = read_play(played or "", "--played")
    calls = (tuple(parse_call(c, f"(call {i} in --auction)")
                   for i, c in enumerate(auction.replace(",", " ").split(), 1))
             if auction else ("paso",) * 4)
    if len(calls) > 4:
        raise NotationError(f"--auction {quote(auction)}: {len(calls)} calls, but there are "
                            f"four at most, one per seat from seat 1")
    held = mask_of(cards)
    if len(cards) < 5:
        # the cards still held: add the ones this seat played
        probe = HandState([None] * 4, m, rules, score).replay(
            calls, tricks, cantes, at=lambda *part: "--played: ", complete_auction=False)
        mine = mask_of(p.card for p in probe.plays if p.seat == seat)
        if held & mine:
            raise RecordError(f"--hand: {format_cards(cards_of(held & mine))} is played "
                              f"in --played, so it is no longer held")
        held |= mine
        if popcount(held) != 5:
            raise RecordError(f"--hand {quote(hand)}: seat {seat} holds {len(cards)} cards and "
                              f"played {popcount(mine)}: expected 5 in all")
    return View(rules, seat, held, m, calls, tuple(tuple(t) for t in tricks), tuple(cantes),
                score)


def record_of(source: HandState | View) -> HandRecord:
    """The hand written as a record, the hands it does not know left unknown (of a view:
    what its seat has seen)."""
    hand = source.seen if isinstance(source, View) else source
    return HandRecord(rules=hand.rules, muestra=hand.muestra,
                      hands=[None if k is None else cards_of(k) for k in hand.known],
                      auction=list(hand.auction.calls) if hand.auction.calls else None,
                      tricks=[[c for _, c in t] for t in hand.tricks]
                      + ([[c for _, c in hand.current]] if hand.current else []),
                      cantes=list(hand.cantes), score=hand.score)
