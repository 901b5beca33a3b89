"""Playing out (cuatrola_solver.bots.playout), pinned by value: who is asked what and
when in a hand, where everyone sits in each hand of a match, the score and caps a match
applies."""

from __future__ import annotations

import copy
import random
from types import SimpleNamespace

import pytest

from cuatrola_solver.bots import playout
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.bots.playout import (iter_match, play_hand, play_match, seat_of,
                                          singing_order)
from cuatrola_solver.errors import CuatrolaError, PlayerError
from cuatrola_solver.game.cards import format_card, random_deal
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.match import Score, bid_cap_reason, match_winner
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.notation.replay import replay_deal


class Plain:
    """Passes, plays its first legal card, sings its first cante; notes every question."""

    def __init__(self, log=None, tag="plain", shy=False):
        self.log = [] if log is None else log
        self.tag, self.shy = tag, shy

    def __repr__(self):
        return self.tag

    def call(self, view, seed):
        self.log.append(("call", self.tag, view.seat, len(view.tricks), seed, view))
        return "paso"

    def sing(self, view, seed):
        self.log.append(("sing", self.tag, view.seat, len(view.tricks), seed, view))
        return None if self.shy else view.cante_options()[0]

    def card(self, view, seed):
        self.log.append(("card", self.tag, view.seat, len(view.tricks), seed, view))
        return view.legal_cards()[0]


# --- singing order ------------------------------------------------------------------------

def _at(leader, active=(True, True, True, True)):
    return SimpleNamespace(pos=SimpleNamespace(leader=leader, in_play=lambda s: active[s - 1]))


def test_singing_order_by_hand():
    """The side that won the trick first (its winner, then the partner), then the other
    side in seat order; seats that sit out are not asked."""
    assert [singing_order(_at(s)) for s in (1, 2, 3, 4)] == \
        [[1, 3, 2, 4], [2, 4, 1, 3], [3, 1, 2, 4], [4, 2, 1, 3]]
    solo_1 = (True, True, False, True)            # seat 1's solo: seat 3 sits out
    assert [singing_order(_at(s, solo_1)) for s in (1, 2, 4)] == [[1, 2, 4], [2, 4, 1], [4, 2, 1]]
    solo_4 = (True, False, True, True)
    assert [singing_order(_at(s, solo_4)) for s in (1, 3, 4)] == [[1, 3, 4], [3, 1, 4], [4, 1, 3]]
    contrasolo = (False, True, True, False)       # seats 2 and 3 play
    assert [singing_order(_at(s, contrasolo)) for s in (2, 3)] == [[2, 3], [3, 2]]


# seeds of deals where, with Plain players, two seats are asked at one boundary (online
# 348) and a cante is refused at its turn (italiano 227: a 20 before the partner's 40)
CANTE_SEEDS = {"online": list(range(12)) + [348], "italiano": list(range(12)) + [227]}


@pytest.mark.parametrize("shy", [(), (1,), (2, 4)])
@pytest.mark.parametrize("preset", sorted(CANTE_SEEDS))
def test_who_is_asked_to_sing_and_when(preset, shy):
    """Recomputed apart: after each trick but the last, the seats in the singing order
    that have a cante at their turn are asked, in that order, and each sings (unless it
    is shy: it declines) unless the rules refuse it then."""
    rules = get_rules(preset)
    seen = {"two asked": 0, "refused": 0, "sung": 0}
    if preset == "online" or shy:
        del seen["refused"]             # no forty_first there; no refusal of shy seats
    for seed in CANTE_SEEDS[preset]:
        log: list = []
        boundaries = {}

        def observe(hand, kind, seat, choice):
            if kind == "card" and hand.tricks and not hand.pos.trick and not hand.is_over():
                boundaries[len(hand.tricks)] = copy.deepcopy(hand)

        players = [Plain(log, shy=s in shy) for s in (1, 2, 3, 4)]
        rec = play_hand(random_deal(random.Random(seed)), players, rules, seed=seed,
                        observe=observe)
        final = replay_deal(rec)
        asked, sung = [], []
        for t, hand in sorted(boundaries.items()):
            winner = final.tricks[t][0][0]           # who leads trick t + 1 won trick t
            partner = {1: 3, 2: 4, 3: 1, 4: 2}[winner]
            order = [winner, partner] + [s for s in (1, 2, 3, 4) if (s - winner) % 2]
            here = []
            for s in order:
                options = View.from_hand(hand, s).cante_options()
                if options:
                    here.append((t, s))
                    if s in shy:
                        continue
                    if hand.cante_refusal(s, options[0]) is None:
                        hand.sing(s, options[0])
                        sung.append((t, s, options[0]))
                    else:
                        seen["refused"] = seen.get("refused", 0) + 1
            seen["two asked"] += len(here) >= 2
            if shy:
                seen["asked after a shy seat"] = seen.get("asked after a shy seat", 0) + any(
                    a[1] in shy for a in here[:-1])
            asked += here
        assert [(e[3], e[2]) for e in log if e[0] == "sing"] == asked, seed
        assert [(k.after_trick, k.seat, k.suit) for k in rec.cantes] == sung, seed
        seen["sung"] += len(sung)
        # nobody is asked to sing before the first trick or in the middle of one
        for e in log:
            if e[0] == "sing":
                assert e[5].tricks and all(len(t) == 4 for t in e[5].tricks)
    assert all(seen.values()) and (not shy or seen["asked after a shy seat"]), seen


# --- a hand: the questions, the seed, the observer, the errors -----------------------------

def test_a_hand_asks_each_seat_in_turn_with_the_seed_and_the_score():
    log: list = []
    players = [Plain(log, f"p{s}") for s in (1, 2, 3, 4)]
    seen = []
    rules = get_rules("app")
    rec = play_hand(random_deal(random.Random(348)), players, rules, score=Score(3, 10),
                    seed=77, observe=lambda h, kind, seat, choice: seen.append(
                        (kind, seat, choice, len(h.auction.calls), len(h.tricks),
                         len(h.current), len(h.cantes))))
    # every question carries the hand's seed and the match score, to the seat on turn
    assert {e[4] for e in log} == {77}
    assert all(e[5].score == Score(3, 10) and e[1] == f"p{e[2]}" for e in log)
    assert rec.score == Score(3, 10)
    # the calls, seat 1 to 4; side B at 10 of 11 may not bid (every bid passes 11)
    calls = [e for e in log if e[0] == "call"]
    assert [e[2] for e in calls] == [1, 2, 3, 4]
    assert [e[5].legal_calls() for e in calls] == \
        [["paso", "solo", "cuatrola", "quintola"], ["paso"],
         ["paso", "solo", "cuatrola", "quintola"], ["paso"]]
    # the observer sees each call, cante and card after it is made, as the record has them
    final = replay_deal(rec)
    want = [("call", s, "paso", s, 0, 0, 0) for s in (1, 2, 3, 4)]
    cantes = list(rec.cantes)
    for t, trick in enumerate(final.tricks):
        while cantes and cantes[0].after_trick == t:
            k = cantes.pop(0)
            want.append(("cante", k.seat, k.suit, 4, t, 0, len(rec.cantes) - len(cantes)))
        sung = sum(k.after_trick <= t for k in rec.cantes)
        for j, (seat, c) in enumerate(trick):
            done = j == len(trick) - 1
            want.append(("card", seat, c, 4, t + done, 0 if done else j + 1, sung))
    assert seen == want
    assert len(rec.cantes) >= 2


class Cheat(Plain):
    def __init__(self, what, answer):
        super().__init__(tag="cheat")
        self.what, self.answer = what, answer

    def call(self, view, seed):
        return self.answer if self.what == "call" else "paso"

    def sing(self, view, seed):
        return self.answer if self.what == "sing" else super().sing(view, seed)

    def card(self, view, seed):
        return self.answer if self.what == "card" else super().card(view, seed)


def _cheat_at(seat, what, answer, seed=348, rules="online"):
    players = [Plain() for _ in range(4)]
    players[seat - 1] = Cheat(what, answer)
    with pytest.raises(PlayerError) as e:
        play_hand(random_deal(random.Random(seed)), players, rules, seed=1)
    return str(e.value)


def test_a_player_that_breaks_the_rules_is_named_with_its_seat():
    assert _cheat_at(2, "call", "contrasolo") == (
        "player cheat in seat 2 called 'contrasolo': contrasolo is not played under these rules")
    assert _cheat_at(3, "call", "bid") == "player cheat in seat 3 called 'bid': bid is not " \
        "played under these rules"
    # seed 348: seat 1 sings after trick 2 (with Plain players)
    assert _cheat_at(1, "sing", 5) == "player cheat in seat 1 sang 5: not one of its cantes"
    # a card it does not hold (or holds and plays again later), or no card at all
    for c in (0, 19, 20, -1, "So"):
        shown = repr(format_card(c) if c in (0, 19) else c)     # quoted, as a card's name
        assert _cheat_at(1, "card", c) == f"player cheat in seat 1 played {shown}: not a " \
            f"legal card", c
    assert format_card(0) == "So" and format_card(19) == "Ab"


def test_a_card_the_seat_holds_but_may_not_play():
    """Seat 2 must follow suit (asistir): a card of another suit it holds is refused."""
    hands, muestra = random_deal(random.Random(348))
    hand = HandState(hands, muestra, get_rules("online"))
    for _ in range(4):
        hand.bid("paso")
    lead = hand.legal_cards()[0]
    hand.play(lead)
    legal = hand.legal_cards()
    wrong = [c for c in hands[1] if c not in legal]
    assert wrong
    assert _cheat_at(2, "card", wrong[0]) == (f"player cheat in seat 2 played "
                                              f"'{format_card(wrong[0])}': not a legal card")


def test_a_hand_needs_four_players():
    for n in (3, 5):
        with pytest.raises(CuatrolaError) as e:
            play_hand(random_deal(random.Random(1)), [Plain()] * n)
        assert str(e.value) == f"a hand needs 4 players, got {n}"
        with pytest.raises(CuatrolaError) as e:
            next(iter_match([Plain()] * n))
        assert str(e.value) == f"a match needs 4 players, got {n}"


def test_play_hand_takes_a_preset_name_or_the_rules():
    deal = random_deal(random.Random(5))
    assert play_hand(deal, [Plain()] * 4, "narro", seed=2) == \
        play_hand(deal, [Plain()] * 4, get_rules("narro"), seed=2)
    assert play_hand(deal, [Plain()] * 4, None).rules == get_rules(None)


# --- a match --------------------------------------------------------------------------------

def test_seat_of_by_hand():
    """The deal passes on: the player of seat 1 deals (seat 4) in hand 1, and so on."""
    assert [[seat_of(p, k) for p in (1, 2, 3, 4)] for k in range(6)] == [
        [1, 2, 3, 4], [4, 1, 2, 3], [3, 4, 1, 2], [2, 3, 4, 1], [1, 2, 3, 4], [4, 1, 2, 3]]


@pytest.mark.parametrize("preset", ["online", "app", "italiano"])
def test_a_match_hand_by_hand(preset):
    """Where everyone sits, which deal and seed each hand gets, the score before each
    hand by pairs, the caps, and the end at the target."""
    rules = get_rules(preset)
    log: list = []
    players = [parse_player(n) for n in ("heuristic", "random", "heuristic", "random")]
    spies = [_Tagged(p, f"p{s}", log) for s, p in enumerate(players, 1)]
    seen: list = []
    recs = list(iter_match(spies, rules, seed=4,
                           observe=lambda h, kind, seat, choice: seen.append(kind)))
    assert seen.count("call") == 4 * len(recs)
    pair = [0, 0]                             # pair 0: the players of seats 1 and 3 of hand 0
    for k, rec in enumerate(recs):
        # seats: the player of hand 0's seat p sits at seat_of(p, k)
        questions = [e for e in log if e[3] == k]
        for who, seat in {(e[0], e[1]) for e in questions}:
            assert seat == seat_of(int(who[1]), k)
        # the deal and the players' seed, from Random(f"{seed}/{k}")
        rng = random.Random(f"4/{k}")
        hands, muestra = random_deal(rng)
        assert (rec.hands, rec.muestra) == (hands, muestra)
        assert {e[2] for e in questions} == {rng.getrandbits(62)}
        # the score before the hand: the pair at side A alternates
        a_pair = k % 2
        assert rec.score == Score(pair[a_pair], pair[1 - a_pair])
        assert match_winner(rules, *pair) is None
        for s, call in enumerate(rec.auction, 1):
            assert bid_cap_reason(rules, rec.score.of((s - 1) % 2), call) is None
        result = replay_deal(rec).result()
        pair[a_pair if str(result.winner) == "A" else 1 - a_pair] += result.game_points
    assert match_winner(rules, *pair) is not None
    assert max(e[3] for e in log) == len(recs) - 1
    assert recs == play_match(spies, rules, seed=4)


class _Tagged:
    """A player noting (tag, seat, seed, hand number) at each call."""

    hand = -1

    def __init__(self, inner, tag, log):
        self.inner, self.tag, self.log = inner, tag, log

    def __repr__(self):
        return self.tag

    def call(self, view, seed):
        if view.seat == 1 and not view.calls:
            _Tagged.hand += 1
        self.log.append((self.tag, view.seat, seed, _Tagged.hand))
        return self.inner.call(view, seed)

    def sing(self, view, seed):
        return self.inner.sing(view, seed)

    def card(self, view, seed):
        return self.inner.card(view, seed)


@pytest.fixture(autouse=True)
def _fresh_hand_count():
    _Tagged.hand = -1


def test_a_capped_bid_is_refused_in_a_match():
    """Under app (exact_target) a pair may not bid past 11: the match's score reaches the
    auction.  A player that bids quintola as soon as it may not is refused."""
    rules = get_rules("app")

    class Greedy(Plain):
        def call(self, view, seed):
            return "quintola" if view.score.of((view.seat - 1) % 2) + 5 > 11 else "paso"

    recs = []
    with pytest.raises(PlayerError) as e:
        for rec in iter_match([Greedy(tag="greedy") for _ in range(4)], rules, seed=1):
            recs.append(rec)
    # paso hands score 1 for one pair: the first pair to reach 7 may not bid quintola
    assert max(max(r.score.A, r.score.B) for r in recs) == 6
    assert str(e.value).startswith("player greedy in seat ") and str(e.value).endswith(
        " called 'quintola': quintola is worth 5 and the bidding pair has 7: 12 would pass "
        "the target of 11")


def test_a_match_that_does_not_end_is_stopped(monkeypatch):
    monkeypatch.setattr(playout, "MAX_MATCH_HANDS", 2)
    got = []
    with pytest.raises(CuatrolaError) as e:
        for rec in iter_match([Plain() for _ in range(4)], "narro", seed=1):
            got.append(rec)
    assert len(got) == 2 and str(e.value) == "the match has not ended after 2 hands"


def test_play_match_passes_the_observer_on_and_defaults_to_seed_0():
    seen = []
    players = [Plain() for _ in range(4)]
    recs = play_match(players, "online", seed=0,
                      observe=lambda h, kind, seat, choice: seen.append(kind))
    assert seen.count("call") == 4 * len(recs) and seen.count("card") > 0
    # without a seed a match, or a hand, is the seed-0 one (and still the same every time)
    assert play_match(players) == recs == list(iter_match(players))
    deal = random_deal(random.Random(3))
    log_default, log_zero = [], []
    play_hand(deal, [Plain(log_default)] * 4)
    play_hand(deal, [Plain(log_zero)] * 4, seed=0)
    assert {e[4] for e in log_default} == {e[4] for e in log_zero} == {0}
