"""Playing out: hands and matches between players who each see only their own view.

:func:`play_hand` deals nothing itself: it takes a deal (see
:func:`cuatrola_solver.game.cards.random_deal`) and four players (seats 1 to 4) and runs the
hand through the rules engine (:class:`~cuatrola_solver.game.hand.HandState`): each call, cante
and card is asked of the player whose turn it is, given that seat's
:class:`~cuatrola_solver.game.view.View` and a seed, and checked.  At a trick boundary the
seats that may sing are asked in turn: the side that won the trick first (its leader,
then its partner), then the other side (docs/rules.md 8.2).  It returns the hand's record,
which ``check`` and ``analyze`` read.

:func:`play_match` plays hands to the preset's target: the deal passes to the next
seat each hand, so the players move one seat on (the player who was seat 1 deals), the
pairs swap the A/B labels, and the match score, the bid caps and ``win_by`` apply.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Generator, Iterator, Protocol, Sequence, Union, cast

from ..game.cards import Card, format_card, random_deal
from ..errors import CuatrolaError, PlayerError
from ..game.hand import HandState
from ..game.match import Match, Score
from ..game.play import side_of
from ..notation.record import HandRecord
from ..notation.replay import record_of, replay
from ..game.rules import RuleSet, get_rules
from ..game.seats import Seat
from ..game.view import View
from ..i18n import _

__all__ = ["play_hand", "play_match", "iter_match", "hand_turns", "Turn", "decide", "hand_deal",
           "seat_of", "singing_order", "MAX_MATCH_HANDS", "PlayerError", "Player", "Answer",
           "Deal"]

#: a match that has not ended after this many hands is stopped (it cannot happen
#: under the presets: every hand scores at least one point)
MAX_MATCH_HANDS = 500


def singing_order(hand: HandState) -> list[Seat]:
    """The seats asked about cantes at the current trick boundary, in order."""
    pos = hand.pos
    assert pos is not None, "cantes are asked during the play"
    leader = pos.leader                       # the winner of the last trick
    order = [leader, (leader + 1) % 4 + 1]    # its side: leader, then partner
    order += [s for s in (1, 2, 3, 4) if side_of(s) != side_of(leader)]
    return [s for s in order if pos.in_play(s)]


class Player(Protocol):
    """What a hand asks of a player (the players of :mod:`~cuatrola_solver.bots.players`
    and any object that answers the same): ``call(view, seed)`` during the auction,
    ``sing(view, seed)`` at a trick boundary where the seat may sing (a suit, or None to
    keep quiet), ``card(view, seed)`` when it is the seat's turn to play."""

    def call(self, view: View, seed: int) -> str: ...

    def sing(self, view: View, seed: int) -> int | None: ...

    def card(self, view: View, seed: int) -> Card: ...


Observer = Callable[[HandState, str, Seat, object], None]
#: the answer to a :class:`Turn`: a call (``call``), a suit or None (``cante``), a card
#: (``card``)
Answer = Union[str, Card, None]
#: a deal: the four hands (seats 1 to 4) and the muestra
Deal = tuple[Sequence[Sequence[Card]], Card]

#: what a player is asked for each kind of :class:`Turn`, and the verb of a refusal
_ASK = {"call": ("call", "called"), "cante": ("sing", "sang"), "card": ("card", "played")}


@dataclass(frozen=True)
class Turn:
    """One decision a hand asks of one seat: ``kind`` is ``call``, ``cante`` (answered
    by a suit or None, keeping quiet) or ``card``; ``view`` is what the seat knows."""

    kind: str
    seat: Seat
    view: View

    def refusal(self, choice: Answer) -> str | None:
        """Why the rules refuse ``choice`` for this turn, or None when it is allowed."""
        if self.kind == "call":
            # the auction refuses any answer that is not a call (it compares it with them)
            return self.view.seen.auction.refusal(cast(str, choice))
        if self.kind == "cante":
            return (None if choice is None or choice in self.view.cante_options()
                    else "not one of its cantes")
        return None if choice in self.view.legal_cards() else "not a legal card"


def hand_turns(deal: Deal, rules: RuleSet | str | None = None,
               score: Score | None = None, observe: Observer | None = None
               ) -> Generator[Turn, Answer, HandRecord]:
    """A hand of ``deal`` (the four hands and the muestra) one decision at a time: a
    generator that yields each :class:`Turn` and is sent its answer (allowed: see
    :meth:`Turn.refusal`), and returns the hand's record.  At a trick boundary the seats
    that may sing are asked in turn (:func:`singing_order`).  ``observe(hand, kind, seat,
    choice)`` is called after each call, cante and card (kind ``call``, ``cante``,
    ``card``)."""
    rules = get_rules(rules)
    hands, muestra = deal
    hand = HandState(hands, muestra, rules, score)
    while not hand.auction.is_complete:
        seat = hand.auction.speaker
        assert seat is not None, "an auction not complete has a seat to speak"
        call = yield Turn("call", seat, View.from_hand(hand, seat))
        assert isinstance(call, str), "a call is answered with a call (Turn.refusal)"
        hand.bid(call)
        if observe:
            observe(hand, "call", seat, call)
    while not hand.is_over():
        if hand.tricks and not hand.play_position.trick:
            for seat in singing_order(hand):
                view = View.from_hand(hand, seat)
                if not view.cante_options():
                    continue
                suit = yield Turn("cante", seat, view)
                assert not isinstance(suit, str), "a cante is answered with a suit or None"
                if suit is not None and hand.cante_refusal(seat, suit) is None:
                    hand.sing(seat, suit)          # else forty_first: a partner's 40
                    if observe:
                        observe(hand, "cante", seat, suit)
        seat = hand.to_play
        assert seat is not None, "a hand not over has a seat to play"
        c = yield Turn("card", seat, View.from_hand(hand, seat))
        assert isinstance(c, int), "a card is answered with a card (Turn.refusal)"
        hand.play(c)
        if observe:
            observe(hand, "card", seat, c)
    return record_of(hand)


def decide(player: Player, turn: Turn, seed: int) -> Answer:
    """``player``'s answer to ``turn`` (its choice from the turn's view and ``seed``);
    :class:`PlayerError` when the rules refuse it."""
    ask, verb = _ASK[turn.kind]
    choice: Answer = getattr(player, ask)(turn.view, seed)
    reason = turn.refusal(choice)
    if reason is not None:
        shown = repr(format_card(choice) if turn.kind == "card" and isinstance(choice, int)
                     and 0 <= choice < 20 else choice)
        raise PlayerError(_("player {player!r} in seat {seat} {verb} {shown}: {reason}")
                           .format(player=player, seat=turn.seat, verb=verb, shown=shown,
                               reason=reason))
    return choice


def play_hand(deal: Deal, players: Sequence[Player],
              rules: RuleSet | str | None = None, score: Score | None = None,
              seed: int = 0, observe: Observer | None = None) -> HandRecord:
    """Play one hand of ``deal`` (the four hands and the muestra) between ``players``
    (seats 1 to 4) and return its record.  ``seed`` seeds every player's choices (each
    choice from its view and this seed).  ``observe(hand, kind, seat, choice)`` is
    called after each call, cante and card (kind ``call``, ``cante``, ``card``)."""
    if len(players) != 4:
        raise CuatrolaError(_("a hand needs 4 players, got {players}")
                             .format(players=len(players)))
    turns = hand_turns(deal, rules, score, observe)
    try:
        turn = next(turns)
        while True:
            turn = turns.send(decide(players[turn.seat - 1], turn, seed))
    except StopIteration as stop:
        record: HandRecord = stop.value
        return record


def hand_deal(seed: int, k: int) -> tuple[tuple[list[list[Card]], Card], int]:
    """The deal of hand ``k`` of a match seeded ``seed``, and the seed of its players'
    choices: both from ``random.Random(f"{seed}/{k}")``."""
    rng = random.Random(f"{seed}/{k}")
    return random_deal(rng), rng.getrandbits(62)


def check_match_length(match: Match) -> None:
    """A match that has not ended after :data:`MAX_MATCH_HANDS` hands is stopped."""
    if match.hands_played >= MAX_MATCH_HANDS:
        raise CuatrolaError(_("the match has not ended after {hands_played} hands")
                             .format(hands_played=match.hands_played))


def play_match(players: Sequence[Player], rules: RuleSet | str | None = None, seed: int = 0,
               observe: Observer | None = None) -> list[HandRecord]:
    """Play a match to the target between ``players`` (in their seats of the first
    hand: players 1 and 3 are one pair) and return the records of its hands, each with
    the A/B score before it.  Hand ``k`` is dealt by ``random.Random(f"{seed}/{k}")`` and
    its players' choices are seeded from the same generator."""
    return list(iter_match(players, rules, seed, observe))


def seat_of(player: Seat, k: int) -> Seat:
    """The seat, in hand ``k`` of a match, of the player who sat at seat ``player`` in
    hand 0: the deal passes on, so everyone moves one seat up (seat 1 deals next)."""
    return (player - 1 - k) % 4 + 1


def iter_match(players: Sequence[Player], rules: RuleSet | str | None = None, seed: int = 0,
               observe: Observer | None = None) -> Iterator[HandRecord]:
    """:func:`play_match` one hand at a time: yields each hand's record as it ends."""
    if len(players) != 4:
        raise CuatrolaError(_("a match needs 4 players, got {players}")
                             .format(players=len(players)))
    rules = get_rules(rules)
    match = Match(rules)
    while match.winner() is None:
        check_match_length(match)
        k = match.hands_played
        # in hand k, seat s is the player who sat at seat (s - 1 + k) % 4 + 1 in hand 0
        seated = [players[(s - 1 + k) % 4] for s in (1, 2, 3, 4)]
        deal, hand_seed = hand_deal(seed, k)
        rec = play_hand(deal, seated, rules, match.score(), seed=hand_seed, observe=observe)
        result = replay(rec).final_result()
        match.record_hand(result.winner, result.game_points)
        yield rec
