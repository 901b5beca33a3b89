"""Playing out: hands and matches between players who each see only their own view.

:func:`play_hand` deals nothing itself: it takes a deal (see
:func:`cuatrola_solver.game.cards.random_deal`) and four players (seats 1 to 4) and runs the
hand through the rules engine (:class:`~cuatrola_solver.game.hand.Hand`): each call, cante
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
from typing import Callable, Sequence

from ..game.cards import format_card, random_deal
from ..errors import CuatrolaError, PlayerError
from ..game.hand import Hand
from ..game.match import Match, Score
from ..game.play import side_of
from ..notation.record import HandRecord
from ..notation.replay import record_of, replay
from ..game.rules import RuleSet, get_rules
from ..game.view import View

__all__ = ["play_hand", "play_match", "iter_match", "seat_of", "singing_order", "MAX_MATCH_HANDS", "PlayerError"]

#: a match that has not ended after this many hands is stopped (it cannot happen
#: under the presets: every hand scores at least one point)
MAX_MATCH_HANDS = 500




def singing_order(hand: Hand) -> list[int]:
    """The seats asked about cantes at the current trick boundary, in order."""
    pos = hand.pos
    leader = pos.leader                       # the winner of the last trick
    order = [leader, (leader + 1) % 4 + 1]    # its side: leader, then partner
    order += [s for s in (1, 2, 3, 4) if side_of(s) != side_of(leader)]
    return [s for s in order if pos.in_play(s)]


Observer = Callable[[Hand, str, int, object], None]


def play_hand(deal: tuple[Sequence[Sequence[int]], int], players: Sequence,
              rules: RuleSet | str | None = None, score: Score | None = None,
              seed: int = 0, observe: Observer | None = None) -> HandRecord:
    """Play one hand of ``deal`` (the four hands and the muestra) between ``players``
    (seats 1 to 4) and return its record.  ``seed`` seeds every player's choices (each
    choice from its view and this seed).  ``observe(hand, kind, seat, choice)`` is
    called after each call, cante and card (kind ``call``, ``cante``, ``card``)."""
    if len(players) != 4:
        raise CuatrolaError(f"a hand needs 4 players, got {len(players)}")
    rules = get_rules(rules)
    hands, muestra = deal
    hand = Hand(hands, muestra, rules, score)
    while not hand.auction.is_complete:
        seat = hand.auction.speaker
        call = players[seat - 1].call(View.from_hand(hand, seat), seed)
        reason = hand.auction.refusal(call)
        if reason is not None:
            raise PlayerError(f"player {players[seat - 1]!r} in seat {seat} called {call!r}: "
                              f"{reason}")
        hand.bid(call)
        if observe:
            observe(hand, "call", seat, call)
    while not hand.is_over():
        if hand.tricks and not hand.pos.trick:
            for seat in singing_order(hand):
                view = View.from_hand(hand, seat)
                if not view.cante_options():
                    continue
                suit = players[seat - 1].sing(view, seed)
                if suit is None:
                    continue
                if suit not in view.cante_options():
                    raise PlayerError(f"player {players[seat - 1]!r} in seat {seat} sang "
                                      f"{suit!r}: not one of its cantes")
                if hand.cante_refusal(seat, suit) is None:   # forty_first: a partner's 40
                    hand.sing(seat, suit)
                    if observe:
                        observe(hand, "cante", seat, suit)
        seat = hand.to_play
        c = players[seat - 1].card(View.from_hand(hand, seat), seed)
        if c not in hand.legal_cards():
            raise PlayerError(f"player {players[seat - 1]!r} in seat {seat} played "
                              f"{format_card(c) if isinstance(c, int) and 0 <= c < 20 else c!r}:"
                              f" not a legal card")
        hand.play(c)
        if observe:
            observe(hand, "card", seat, c)
    return record_of(hand)


def play_match(players: Sequence, rules: RuleSet | str | None = None, seed: int = 0,
               observe: Observer | None = None) -> list[HandRecord]:
    """Play a match to the target between ``players`` (in their seats of the first
    hand: players 1 and 3 are one pair) and return the records of its hands, each with
    the A/B score before it.  Hand ``k`` is dealt by ``random.Random(f"{seed}/{k}")`` and
    its players' choices are seeded from the same generator."""
    return list(iter_match(players, rules, seed, observe))


def seat_of(player: int, k: int) -> int:
    """The seat, in hand ``k`` of a match, of the player who sat at seat ``player`` in
    hand 0: the deal passes on, so everyone moves one seat up (seat 1 deals next)."""
    return (player - 1 - k) % 4 + 1


def iter_match(players: Sequence, rules: RuleSet | str | None = None, seed: int = 0,
               observe: Observer | None = None):
    """:func:`play_match` one hand at a time: yields each hand's record as it ends."""
    if len(players) != 4:
        raise CuatrolaError(f"a match needs 4 players, got {len(players)}")
    rules = get_rules(rules)
    match = Match(rules)
    while match.winner() is None:
        k = match.hands_played
        if k >= MAX_MATCH_HANDS:
            raise CuatrolaError(f"the match has not ended after {k} hands")
        # in hand k, seat s is the player who sat at seat (s - 1 + k) % 4 + 1 in hand 0
        seated = [players[(s - 1 + k) % 4] for s in (1, 2, 3, 4)]
        rng = random.Random(f"{seed}/{k}")
        rec = play_hand(random_deal(rng), seated, rules, match.score(),
                        seed=rng.getrandbits(62), observe=observe)
        result = replay(rec).result()
        match.record_hand(result.winner, result.game_points)
        yield rec
