"""Match equity: the table's invariants, exact answers on made-up hand results, agreement
with matches played directly from the hand results, and the shipped data."""

from __future__ import annotations

import datetime
import json
import math
import random
import re
import time

import numpy as np
import pytest

from cuatrola_solver import __version__
from cuatrola_solver.advice import bidding
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.advice.stats import wilson
from cuatrola_solver.dd import solver
from cuatrola_solver.errors import CuatrolaError, NotationError
from cuatrola_solver.game.auction import CALLS, Auction
from cuatrola_solver.game.cards import cards_of
from cuatrola_solver.game.match import Score, bid_cap_reason, check_score, match_winner, parse_score
from cuatrola_solver.game.play import declaring_side, side_of
from cuatrola_solver.game.rules import CONTRACT_VALUE, PRESETS, get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.lab import measure_equity
from cuatrola_solver.models import equity
from cuatrola_solver.models.preset import Models

PRESET_NAMES = tuple(PRESETS)


def made_up(results: dict[tuple[int, int], float], rules: str = "online") -> equity.HandResults:
    """Hand results with the same odds for every pair of cap classes:
    ``{(side, points): probability}`` (probabilities as multiples of 1/1000)."""
    out = equity.HandResults(rules)
    for ca in equity.CAP_CLASSES:
        for cb in equity.CAP_CLASSES:
            for (side, pts), p in results.items():
                out.add((ca, cb), side, pts, n=round(1000 * p))
    return out


COIN = {(0, 1): 0.5, (1, 1): 0.5}


def race(need_mine: int, need_theirs: int) -> float:
    """P(a fair coin gives `need_mine` heads before `need_theirs` tails)."""
    return sum(math.comb(need_mine - 1 + k, k) * 0.5 ** (need_mine + k)
               for k in range(need_theirs))


# --- exact answers -------------------------------------------------------------------------

def test_a_fair_coin_to_11_is_a_race():
    tab = equity.EquityTable(get_rules("online"), made_up(COIN))
    for mine, theirs in ((0, 0), (3, 7), (10, 9), (6, 2), (10, 0)):
        for mano in (True, False):
            assert tab.p_win(mine, theirs, mano) == pytest.approx(race(11 - mine, 11 - theirs))


def test_win_by_two_past_the_target_depends_on_the_lead_only():
    tab = equity.EquityTable(get_rules("narro"), made_up(COIN, "narro"))
    # level: even; one ahead: win the next hand (1/2) or go back to level (1/2 of 1/2)
    for mine, theirs, p in ((20, 20, 0.5), (21, 20, 0.75), (20, 21, 0.25), (35, 34, 0.75),
                            (40, 40, 0.5)):
        for mano in (True, False):
            assert tab.p_win(mine, theirs, mano) == pytest.approx(p)
    # before that region, by the recursion: 18-20 -> 19-20 (1/4) or 18-21 (lost)
    assert tab.p_win(18, 20, True) == pytest.approx(0.5 * 0.25)


def test_the_mano_changes_every_hand():
    # side A (the mano's side) always scores 1: the pairs score in turn, the pair that is
    # mano first gets there first
    tab = equity.EquityTable(get_rules("online"), made_up({(0, 1): 1.0}))
    assert tab.p_win(0, 0, True) == 1.0 and tab.p_win(0, 0, False) == 0.0
    assert tab.p_win(10, 9, False) == 1.0      # they score first: 10-10, then my pair wins
    assert tab.p_win(9, 10, False) == 0.0 and tab.p_win(9, 10, True) == 0.0


def test_hand_results_that_never_decide_a_match_are_refused():
    # side A always scores 1 point: under win by 2 the lead only goes 0, 1, 0, 1...
    with pytest.raises(CuatrolaError, match="never"):
        equity.EquityTable(get_rules("narro"), made_up({(0, 1): 1.0}, "narro"))


def test_each_pair_plays_under_its_own_caps():
    rules = get_rules("app")                   # app: a bid may not pass 11
    assert [equity.cap_class(rules, s) for s in (0, 6, 7, 8, 9, 10)] == [5, 5, 4, 2, 2, 1]
    assert {equity.cap_class(get_rules("online"), s) for s in range(30)} == {5}
    it = get_rules("italiano")                 # from 17 on, not past 21
    assert [equity.cap_class(it, s) for s in (16, 17, 18, 19, 20)] == [5, 4, 2, 2, 1]
    # made-up odds: a pair that may still bid anything wins every hand scoring 2 against a
    # capped pair; otherwise a fair coin for 1 point
    res = equity.HandResults("app")
    for ca in equity.CAP_CLASSES:
        for cb in equity.CAP_CLASSES:
            if ca == 5 and cb < 5:
                res.add((ca, cb), 0, 2, n=1)
            elif cb == 5 and ca < 5:
                res.add((ca, cb), 1, 2, n=1)
            else:
                res.add((ca, cb), 0, 1, n=1)
                res.add((ca, cb), 1, 1, n=1)
    tab = equity.EquityTable(rules, res)
    # 7-0: my pair is capped (class 4), theirs is not: they score 2 a hand until capped
    # themselves at 7: 7-2, 7-4, 7-6, 7-8 -> from then on a coin for 1 point
    assert tab.p_win(7, 0, True) == pytest.approx(race(4, 3))
    assert tab.p_win(0, 7, True) == pytest.approx(1 - race(4, 3))


# --- invariants on the shipped tables ---------------------------------------------------------

@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_won_lost_and_both_pairs(preset):
    rules = get_rules(preset)
    tab = equity.table(rules)
    t, w = rules.target, rules.win_by
    for mano in (True, False):
        assert tab.p_win(t, t - w, mano) == 1.0 and tab.p_win(t - w, t, mano) == 0.0
        assert tab.p_win(t + 3, 0, mano) == 1.0 and tab.p_win(0, t + 3, mano) == 0.0
    for mine, theirs, mano, p in tab.states():
        assert 0.0 < p < 1.0
        # my pair's chance and theirs add up to 1 (the next hand they are mano iff I am not)
        assert p + tab.p_win(theirs, mine, not mano) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_more_points_more_chances(preset):
    tab = equity.table(preset)
    top = tab.target + tab.win_by
    for mine in range(top):
        for theirs in range(top):
            for mano in (True, False):
                p = tab.p_win(mine, theirs, mano)
                assert tab.p_win(mine + 1, theirs, mano) >= p - 1e-12
                assert tab.p_win(mine, theirs + 1, mano) <= p + 1e-12


@pytest.mark.parametrize("preset, mine, theirs, mano", [
    ("online", 0, 0, True), ("online", 8, 9, False), ("narro", 0, 0, False),
    ("narro", 19, 19, True), ("narro", 21, 20, False), ("app", 7, 5, True),
    ("italiano", 15, 17, True),
])
def test_table_agrees_with_matches_played_from_the_same_hand_results(preset, mine, theirs,
                                                                      mano):
    rules = get_rules(preset)
    tab = equity.table(rules)
    n = 3000
    wins = equity.simulate_matches(rules, tab.results, mine, theirs, mano, n, seed=7)
    lo, hi = wilson(wins, n, z=3.29)            # 99.9%: seven such checks
    assert lo <= tab.p_win(mine, theirs, mano) <= hi


# --- the data -----------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_shipped_hand_results(preset):
    res = equity.load_hand_results(preset)
    assert res.rules == preset
    p = res.provenance
    assert {"command", "deals", "seed", "date", "version", "method"} <= set(p)
    assert p["command"].startswith(f"cuatrola equity --rules {preset} --regenerate")
    # every pair of cap classes, each measured on every deal
    assert set(res.counts) == {(a, b) for a in equity.CAP_CLASSES for b in equity.CAP_CLASSES}
    assert {res.hands(c) for c in res.counts} == {p["deals"]}
    for caps in res.counts:
        assert sum(res.contracts[caps].values()) == p["deals"]
    assert equity.HandResults.from_dict(res.to_dict()).counts == res.counts


def test_paso_only_pairs_play_paso():
    res = equity.load_hand_results("online")
    assert set(res.contracts[(1, 1)]) == {"paso"}
    assert {pts for (side, pts) in res.counts[(1, 1)]} <= {1, 2}


def test_measuring_is_reproducible():
    a = measure_equity.measure_hand_results("narro", 3, seed=5, samples=8)
    b = measure_equity.measure_hand_results("narro", 3, seed=5, samples=8)
    assert a.counts == b.counts and a.contracts == b.contracts
    assert {a.hands(c) for c in a.counts} == {3} and len(a.counts) == 16
    assert a.provenance["deals"] == 3 and a.provenance["seed"] == 5
    with pytest.raises(CuatrolaError, match="deals"):
        measure_equity.measure_hand_results("narro", 0, seed=5)


def test_missing_cap_classes_say_how_to_make_them():
    res = equity.HandResults("online")
    res.add((5, 5), 0, 1)
    res.add((5, 5), 1, 1)
    with pytest.raises(CuatrolaError, match="--regenerate"):
        equity.EquityTable(get_rules("app"), res)


def test_not_a_hand_results_file():
    with pytest.raises(CuatrolaError, match="hand_results"):
        equity.HandResults.from_dict({"schema": 1, "kind": "something else"})


# --- scores that cannot be played -------------------------------------------------------------

@pytest.mark.parametrize("preset, text", [
    ("online", "12-3"), ("online", "11-10"), ("online", "0-11"), ("narro", "21-19"),
    ("narro", "23-20"), ("app", "11-0"), ("italiano", "3-21"),
])
def test_a_decided_match_is_refused(preset, text):
    with pytest.raises(NotationError, match="over") as e:
        parse_score(text, rules=get_rules(preset))
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("preset, text", [
    ("online", "10-10"), ("narro", "21-20"), ("narro", "30-30"), ("narro", "22-21"),
    ("italiano", "20-20"),
])
def test_an_open_match_is_accepted(preset, text):
    rules = get_rules(preset)
    s = parse_score(text, rules=rules)
    assert match_winner(rules, s.A, s.B) is None
    check_score(rules, s)


def test_negative_scores_are_refused():
    with pytest.raises(NotationError, match="negative"):
        check_score(get_rules("online"), Score(-1, 3))


# --- the table against a plain computation (values, not only invariants) ---------

def plain_class(rules, score: int) -> int:
    """A pair's cap class, straight from the caps: the most an allowed bid is worth."""
    return max(CONTRACT_VALUE[c] for c in rules.allowed_contracts()
               if bid_cap_reason(rules, score, c) is None)


def by_caps(ca: int, cb: int) -> dict[tuple[int, int], int]:
    """Made-up counts that depend on both pairs' cap classes and differ between the
    sides: side A scores 1, its class or up to 2; side B scores 1 or its class."""
    out: dict[tuple[int, int], int] = {}
    for key, k in (((0, 1), 30), ((0, ca), 15), ((0, min(2, ca)), 10), ((1, 1), 25),
                   ((1, cb), 20)):
        out[key] = out.get(key, 0) + k
    return out


def results_by_caps(rules) -> equity.HandResults:
    out = equity.HandResults(rules.name)
    for ca in equity.CAP_CLASSES:
        for cb in equity.CAP_CLASSES:
            for (side, pts), k in by_caps(ca, cb).items():
                out.add((ca, cb), side, pts, n=k)
    return out


def plain_p_win(rules, extra: int = 100):
    """P(my pair wins) of every state, hand by hand from the highest scores down: the
    successors of a state have more points.  Past ``extra`` points beyond where the caps
    can still change a state counts 1/2: in these tests it is reached with a chance below
    1e-13 (``extra`` large enough for the lead each match needs)."""
    top = max(rules.target, rules.near_target_from) + rules.win_by + extra
    values: dict[tuple[int, int, bool], float] = {}

    def value(m: int, t: int, mano: bool) -> float:
        won = match_winner(rules, m, t)
        if won is not None:
            return 1.0 if str(won) == "A" else 0.0
        if m > top or t > top:
            return 0.5
        return values[(m, t, mano)]

    for total in range(2 * top, -1, -1):
        for m in range(max(0, total - top), min(total, top) + 1):
            t = total - m
            if match_winner(rules, m, t) is not None:
                continue
            for mano in (True, False):
                a, b = (m, t) if mano else (t, m)      # side A's score, side B's
                counts = by_caps(plain_class(rules, a), plain_class(rules, b))
                n = sum(counts.values())
                values[(m, t, mano)] = sum(
                    k / n * (value(m + pts, t, not mano) if (side == 0) == mano
                             else value(m, t + pts, not mano))
                    for (side, pts), k in counts.items())
    return value


@pytest.mark.parametrize("spec", [
    "online,target=3", "online,target=5,win_by=2", "online,target=4,win_by=3",
    "narro,target=5", "app,target=6", "app,target=6,win_by=2", "app,win_by=2",
    "italiano,target=9,near_target_from=5",
    "italiano,target=9,near_target_from=5,win_by=12",      # a lead of 12, past any cap
    # caps that change far past the target: from 20 on, a pair may only pass
    "narro,target=5,bid_cap=near_target,near_target_from=20",
    "online,win_by=2,bid_cap=near_target,near_target_from=30",
])
def test_the_table_is_the_plain_recursion(spec):
    rules = get_rules(spec)
    tab = equity.EquityTable(rules, results_by_caps(rules))
    plain = plain_p_win(rules, 100 if rules.win_by < 10 else 400)     # long matches: more
    top = max(rules.target, rules.near_target_from) + rules.win_by + 3
    for m in range(top):
        for t in range(top):
            for mano in (True, False):
                assert tab.p_win(m, t, mano) == pytest.approx(plain(m, t, mano), abs=1e-12), \
                    (m, t, mano)


def test_negative_scores_have_no_chance():
    tab = equity.EquityTable(get_rules("online"), made_up(COIN))
    for mine, theirs in ((-1, 0), (0, -1)):
        with pytest.raises(ValueError) as e:
            tab.p_win(mine, theirs, True)
        assert str(e.value) == "scores are not negative"


def test_after_a_hand_and_the_match_chance_of_a_hand():
    rules = get_rules("online,target=5")
    tab = equity.EquityTable(rules, results_by_caps(rules))
    # side A's pair (2 points) scores 2: 4-1, and it is side B in the next hand
    assert tab.after_hand(Score(2, 1), 0, 2) == tab.p_win(4, 1, False)
    # side A's pair concedes 3: 2-4, side B next hand
    assert tab.after_hand(Score(2, 1), 0, -3) == tab.p_win(2, 4, False)
    # side B's pair (1 point) scores 1: 2-2, and it is side A (mano) in the next hand
    assert tab.after_hand(Score(2, 1), 1, 1) == tab.p_win(2, 2, True)
    assert tab.after_hand(Score(2, 1), 1, -2) == tab.p_win(1, 4, True)
    assert tab.after_hand(Score(2, 1), 1, 4) == 1.0        # 5-2: won
    assert tab.after_hand(Score(2, 1), 0, -4) == 0.0       # 2-5: lost
    hand = [(-2, 0.25), (1, 0.5), (4, 0.25)]
    assert tab.match_chance(Score(3, 0), 1, hand) == pytest.approx(
        0.25 * tab.p_win(0, 5, True) + 0.5 * tab.p_win(1, 3, True)
        + 0.25 * tab.p_win(4, 3, True), abs=1e-15)
    assert tab.match_chance(Score(3, 0), 1, []) == 0


def test_the_states_listed():
    tab = equity.EquityTable(get_rules("online,target=3"), results_by_caps(get_rules("online")))
    # win by 1: the undecided states up to target - 1
    assert [(m, t, mano) for m, t, mano, _ in tab.states()] == [
        (m, t, mano) for m in range(3) for t in range(3) for mano in (True, False)]
    assert all(p == tab.p_win(m, t, mano) for m, t, mano, p in tab.states())
    # through 3: 3-3 is open (no pair has a lead), 3-x and x-3 are decided
    assert [(m, t) for m, t, mano, _ in tab.states(3) if 3 in (m, t)] == [(3, 3), (3, 3)]
    narro = get_rules("narro,target=5")
    tab = equity.EquityTable(narro, results_by_caps(narro))
    # win by 2: up to the target; 5-4 and 4-5 are open, 5-3 is not
    got = {(m, t) for m, t, _, _ in tab.states()}
    assert max(max(s) for s in got) == 5 and (5, 4) in got and (4, 5) in got
    assert (5, 3) not in got and (3, 5) not in got and (5, 5) in got
    assert len(tab.states()) == 2 * len(got)


# --- cap classes and hand results by hand --------------------------------------------------------

def test_cap_classes_by_hand():
    # exact_target: the most a bid may be worth is the target minus the score
    app = get_rules("app,target=6")
    assert [equity.cap_class(app, s) for s in range(8)] == [5, 5, 4, 2, 2, 1, 1, 1]
    # contrasolo (4) keeps class 4 where a cuatrola would too
    narro = get_rules("narro,bid_cap=exact_target")
    assert [equity.cap_class(narro, s) for s in (16, 17, 18, 19, 20, 21)] == [5, 4, 2, 2, 1, 1]
    # near_target: no cap below near_target_from, even at the target's doorstep
    it = get_rules("italiano,near_target_from=20")
    assert [equity.cap_class(it, s) for s in (18, 19, 20, 21)] == [5, 5, 1, 1]
    for rules in (app, narro, it):
        assert all(equity.cap_class(rules, s) == plain_class(rules, s) for s in range(40))


def test_hand_results_by_hand():
    res = equity.HandResults("online", provenance={"deals": 7})
    res.add((5, 5), 0, 1, "paso", n=3)
    res.add((5, 5), 1, 2, "solo")
    res.add((5, 5), 0, 1, "paso")
    res.add((2, 1), 1, 1)
    res.add((5, 4), 1, 4, "cuatrola", n=2)
    assert res.counts == {(5, 5): {(0, 1): 4, (1, 2): 1}, (2, 1): {(1, 1): 1},
                          (5, 4): {(1, 4): 2}}
    assert res.contracts == {(5, 5): {"paso": 4, "solo": 1}, (5, 4): {"cuatrola": 2}}
    assert [res.hands(c) for c in ((5, 5), (2, 1), (5, 4), (1, 1))] == [5, 1, 2, 0]
    assert res.distribution((5, 5)) == [(0, 1, 0.8), (1, 2, 0.2)]
    with pytest.raises(CuatrolaError, match="A 1, B 2 in the data of online"):
        res.distribution((1, 2))
    for points in (0, -1):
        with pytest.raises(ValueError, match="at least 1 point"):
            res.add((5, 5), 0, points)
    d = res.to_dict()
    assert (d["schema"], d["kind"], d["rules"], d["provenance"]) == (1, "hand_results", "online",
                                                                     {"deals": 7})
    assert d["tables"] == [
        {"caps": {"A": 5, "B": 5}, "hands": 5, "results": {"A": {"1": 4}, "B": {"2": 1}},
         "contracts": {"paso": 4, "solo": 1}},
        {"caps": {"A": 5, "B": 4}, "hands": 2, "results": {"A": {}, "B": {"4": 2}},
         "contracts": {"cuatrola": 2}},
        {"caps": {"A": 2, "B": 1}, "hands": 1, "results": {"A": {}, "B": {"1": 1}}}]
    back = equity.HandResults.from_dict(json.loads(json.dumps(d)))
    assert (back.rules, back.counts, back.contracts, back.provenance) == (
        res.rules, res.counts, res.contracts, res.provenance)
    # points in order within each side, as numbers
    res.add((1, 1), 0, 10)
    res.add((1, 1), 0, 2)
    assert list(res.to_dict()["tables"][-1]["results"]["A"]) == ["2", "10"]
    for bad in ({**d, "schema": 2}, {**d, "kind": None}):
        with pytest.raises(CuatrolaError) as e:
            equity.HandResults.from_dict(bad)
        assert str(e.value) == "not a hand-results file (expected kind 'hand_results', schema 1)"
    # a file may leave out the provenance and a side that never scores
    bare = {"schema": 1, "kind": "hand_results", "rules": "app",
            "tables": [{"caps": {"A": 5, "B": 2}, "results": {"A": {"1": 3}}},
                       {"caps": {"A": 2, "B": 5}, "results": {"B": {"2": 1}}}]}
    back = equity.HandResults.from_dict(bare)
    assert (back.rules, back.provenance, back.contracts) == ("app", {}, {})
    assert back.counts == {(5, 2): {(0, 1): 3}, (2, 5): {(1, 2): 1}}


# --- matches played from the hand results ---------------------------------------------------------

def follow(rules, result, mine: int, theirs: int, mano: bool) -> bool:
    """Whether my pair wins when every hand's result is ``result(caps of A, caps of B)``."""
    while match_winner(rules, mine, theirs) is None:
        a, b = (mine, theirs) if mano else (theirs, mine)
        side, pts = result(plain_class(rules, a), plain_class(rules, b))
        if (side == 0) == mano:
            mine += pts
        else:
            theirs += pts
        mano = not mano
    return str(match_winner(rules, mine, theirs)) == "A"


def test_matches_played_hand_by_hand():
    # a sure result per pair of cap classes: the side whose pair may bid more scores its
    # class, or side B scores 1 on a tie
    def result(ca, cb):
        return (0, ca) if ca > cb else (1, cb) if cb > ca else (1, 1)

    res = equity.HandResults("app")
    for ca in equity.CAP_CLASSES:
        for cb in equity.CAP_CLASSES:
            res.add((ca, cb), *result(ca, cb))
    rules = get_rules("app,target=6")
    outcomes = set()
    for mine in range(6):
        for theirs in range(6):
            for mano in (True, False):
                won = follow(rules, result, mine, theirs, mano)
                outcomes.add(won)
                assert equity.simulate_matches(rules, res, mine, theirs, mano, 3, seed=1) \
                    == (3 if won else 0), (mine, theirs, mano)
    assert outcomes == {True, False}


def test_matches_played_at_random_agree_with_the_table():
    rules = get_rules("narro,target=5")
    res = results_by_caps(rules)
    tab = equity.EquityTable(rules, res)
    n = 4000
    for mine, theirs, mano in ((0, 0, True), (4, 5, False), (2, 0, False)):
        wins = equity.simulate_matches(rules, res, mine, theirs, mano, n, seed=3)
        assert wins == equity.simulate_matches(rules, res, mine, theirs, mano, n, seed=3)
        lo, hi = wilson(wins, n, z=3.29)
        assert lo <= tab.p_win(mine, theirs, mano) <= hi
    # an odd chance, so that the draw's order matters: side A scores 1 with 1/10
    odd = made_up({(0, 1): 0.1, (1, 1): 0.9})
    online3 = get_rules("online,target=3")
    wins = equity.simulate_matches(online3, odd, 2, 2, True, n, seed=4)
    lo, hi = wilson(wins, n, z=3.29)
    assert lo <= 0.1 <= hi


# --- measuring: the advised auction of every pair of cap classes, played double dummy -----------

def replayed(rules, deals: int, seed: int, samples: int) -> equity.HandResults:
    """The hand results of measure_hand_results, deal by deal: each seat takes the allowed
    call of highest expected points by the advice on its own cards (later seats passing),
    the first of equals; the contract's game points double dummy on the actual deal."""
    rng = random.Random(seed)
    out = equity.HandResults(rules.name)
    for i in range(deals):
        order = list(range(20))
        rng.shuffle(order)
        hands = [sum(1 << c for c in order[5 * j:5 * j + 5]) for j in range(4)]
        muestra = order[19]
        advice = {}
        for ca in equity.CAP_CLASSES:
            for cb in equity.CAP_CLASSES:
                auction = Auction(rules)
                for seat in (1, 2, 3, 4):
                    key = (seat, tuple(auction.calls))
                    if key not in advice:
                        s = int(np.random.SeedSequence(
                            [seed, i, seat] + [CALLS.index(c) for c in auction.calls]
                        ).generate_state(1)[0])
                        view = View.bidding(cards_of(hands[seat - 1]), muestra, seat,
                                            list(auction.calls), rules)
                        advice[key] = bidding.advise(view, Budget(samples=samples, seed=s,
                                                                  workers=1), Models.NONE)
                    cap = (ca, cb)[side_of(seat)]
                    allowed = [r for r in advice[key].options
                               if r.option.allowed and CONTRACT_VALUE[r.option.bid] <= cap]
                    auction.call(max(allowed, key=lambda r: r.ev_sum).option.bid)   # first max
                gp = int(solver.solve_batch(np.array([hands]), np.array([muestra // 5]), rules,
                                            auction.contract, auction.declarer, "game_points",
                                            1)[0])
                side = declaring_side(auction.declarer)
                out.add((ca, cb), side if gp > 0 else 1 - side, abs(gp), auction.contract)
    return out


@pytest.mark.parametrize("spec, deals, seed, played", [
    ("online", 2, 11, "every seat passes"),
    # seat 4's cuatrola fails with 3 tricks, seat 4's solo makes
    ("narro", 2, 133, "a failed cuatrola of side B"),
    # seat 4's cuatrola makes with exactly 4 tricks
    ("narro", 3, 35, "a cuatrola made with 4 tricks"),
])
def test_measured_hand_results_replayed(spec, deals, seed, played):
    rules = get_rules(spec)
    seen = []
    res = measure_equity.measure_hand_results(
        rules, deals, seed, 4, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, deals) for i in range(1, deals + 1)]
    expected = replayed(rules, deals, seed, 4)
    assert res.counts == expected.counts and res.contracts == expected.contracts, played
    assert set(res.contracts[(1, 1)]) == {"paso"} and res.rules == rules.name


def test_measured_provenance(monkeypatch):
    # the date is in UTC whatever the local time zone
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")          # UTC+14
    time.tzset()
    try:
        before = datetime.datetime.now(datetime.timezone.utc)
        p = measure_equity.measure_hand_results("online", 2, 11, 4).provenance
        after = datetime.datetime.now(datetime.timezone.utc)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert p["command"] == "cuatrola equity --rules online --regenerate --deals 2 --seed 11 " \
                           "--samples 4"
    assert (p["deals"], p["seed"], p["samples"]) == (2, 11, 4)
    assert p["method"] == ("seeded random deals; each seat bids the call of highest expected "
                           "match points allowed by its cap class (advisor, 4 sampled deals per "
                           "call, later seats assumed to pass); the contract played double dummy")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", p["date"])
    when = datetime.datetime.strptime(p["date"], "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc)
    assert before.replace(microsecond=0) <= when <= after
    assert p["version"] == __version__
    with pytest.raises(CuatrolaError, match="samples"):
        measure_equity.measure_hand_results("online", 1, 11, 0)
    mine = measure_equity.measure_hand_results("online", 1, 11, 1, command="by hand")
    assert mine.provenance["command"] == "by hand" and mine.rules == "online"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_shipped_files_are_what_write_hand_results_writes(preset, tmp_path):
    res = equity.load_hand_results(preset)
    text = equity.data_path(preset).read_text(encoding="utf-8")
    assert res.to_dict() == json.loads(text)
    out = tmp_path / "new" / "data" / f"hand_results_{preset}.json"
    for _ in range(2):                              # folders made, then the file replaced
        measure_equity.write_hand_results(res, out)
        assert out.read_text(encoding="utf-8") == text


def test_missing_data_says_how_to_make_it(tmp_path, monkeypatch):
    path = tmp_path / "hand_results_online.json"
    monkeypatch.setattr(equity, "data_path", lambda preset: path)
    with pytest.raises(CuatrolaError) as e:
        equity.load_hand_results.__wrapped__("online")
    assert str(e.value) == (f"hand results '{path}' not found (make them with 'cuatrola "
                            f"equity --rules online --regenerate')")
    monkeypatch.undo()
    assert equity.data_path("narro").name == "hand_results_narro.json"
    assert equity.data_path("narro").parent.name == "data"


def test_messages_of_the_hand_results():
    res = equity.HandResults("narro")
    with pytest.raises(CuatrolaError) as e:
        res.distribution((4, 2))
    assert str(e.value) == ("no hand results for cap classes A 4, B 2 in the data of narro: "
                            "regenerate them with 'cuatrola equity --rules narro --regenerate'")
    with pytest.raises(ValueError) as e:
        res.add((5, 5), 1, 0)
    assert str(e.value) == "a hand result scores at least 1 point, not 0"
    with pytest.raises(CuatrolaError) as e:
        measure_equity.measure_hand_results("narro", 0, seed=1)
    assert str(e.value) == "bad number of deals 0: expected at least 1"
    with pytest.raises(CuatrolaError) as e:
        measure_equity.measure_hand_results("narro", 1, seed=1, samples=0)
    assert str(e.value) == "bad number of samples 0: expected at least 1"
    with pytest.raises(CuatrolaError) as e:
        equity.EquityTable(get_rules("narro"), made_up({(0, 1): 1.0}, "narro"))
    assert str(e.value) == ("these hand results never decide a match won by 2: the lead cannot "
                            "grow to 2 (the data of narro is degenerate)")


# --- reading a hand-results file: every field's message, and what is accepted --------------

def results_file(*tables, **fields) -> dict:
    """A hand-results object with these tables (default: one good table)."""
    good = {"caps": {"A": 5, "B": 4}, "results": {"A": {"1": 3}, "B": {"2": 1}}}
    return {"schema": 1, "kind": "hand_results", "rules": "online",
            "tables": list(tables) or [good], **fields}


def table_of(caps=(5, 4), results=None, **fields) -> dict:
    return {"caps": {"A": caps[0], "B": caps[1]},
            "results": {"A": {"1": 3}, "B": {"2": 1}} if results is None else results,
            **fields}


@pytest.mark.parametrize("obj, message", [
    (results_file(rules=5), "'rules': expected a preset name"),
    (results_file(provenance=[]), "'provenance': expected an object"),
    (results_file(tables=[]), "'tables': expected a list of tables, one per pair of cap classes"),
    (results_file(tables={"caps": 1}),
     "'tables': expected a list of tables, one per pair of cap classes"),
    (results_file(table_of(), ["a", "list"]),
     "tables[1]: expected an object with caps and results"),
    (results_file(table_of(results=[1])), "tables[0]: expected an object with caps and results"),
    (results_file({"caps": [5, 4], "results": {}}),
     "tables[0]: expected an object with caps and results"),
    # 5.0 and true are not whole numbers, though 5.0 == 5 and true == 1
    (results_file(table_of(caps=(5.0, 4))),
     "tables[0].caps: expected the cap classes of A and B, each one of 5, 4, 2, 1"),
    (results_file(table_of(caps=(5, True))),
     "tables[0].caps: expected the cap classes of A and B, each one of 5, 4, 2, 1"),
    (results_file(table_of(caps=(5, 3))),
     "tables[0].caps: expected the cap classes of A and B, each one of 5, 4, 2, 1"),
    (results_file(table_of(), table_of(caps=(2, 1)), table_of()),
     "tables[2].caps: a second table of classes A 5, B 4"),
    (results_file(table_of(results={"A": {"1": 1}, "C": {}})),
     "tables[0].results: expected the sides A and B"),
    (results_file(table_of(results={"A": {"1": 1}, "B": [2]})),
     "tables[0].results.B: expected an object of points -> hands"),
    (results_file(table_of(results={"B": {"0": 1}})),
     "tables[0].results.B: points '0': expected 1 to 1000"),
    (results_file(table_of(results={"A": {"1001": 1}})),
     "tables[0].results.A: points '1001': expected 1 to 1000"),
    (results_file(table_of(results={"A": {"\u0663": 1}})),
     "tables[0].results.A: points '\u0663': expected 1 to 1000"),
    (results_file(table_of(results={"A": {"2": -1, "1": 5}})),
     "tables[0].results.A['2']: expected a count of hands, 0 or more"),
    (results_file(table_of(results={"B": {"2": 2.0}})),
     "tables[0].results.B['2']: expected a count of hands, 0 or more"),
    (results_file(table_of(caps=(2, 5), results={"A": {"1": 0}})),
     "tables[0]: no hand counted for classes A 2, B 5"),
    (results_file(table_of(hands=5)), "tables[0].hands: 5, but the results count 4"),
    (results_file(table_of(contracts=["paso"])),
     "tables[0].contracts: expected an object of contract -> hands"),
    (results_file(table_of(contracts={"nada": 1})),
     "tables[0].contracts: expected an object of contract -> hands"),
    (results_file(table_of(contracts={"paso": -1})),
     "tables[0].contracts: expected an object of contract -> hands"),
    (results_file(table_of(contracts={"solo": 1.0})),
     "tables[0].contracts: expected an object of contract -> hands"),
])
def test_each_field_of_a_hand_results_file_is_checked(obj, message):
    with pytest.raises(CuatrolaError) as e:
        equity.HandResults.from_dict(obj)
    assert str(e.value) == message


def test_what_a_hand_results_file_may_hold():
    # the most points a hand may score, counts and contracts of 0, the hands count given
    obj = results_file(table_of(caps=(2, 1), results={"A": {"1000": 2, "3": 0}, "B": {"1": 1}},
                                hands=3, contracts={"paso": 0, "solo": 3}))
    got = equity.HandResults.from_dict(obj)
    assert got.counts == {(2, 1): {(0, 1000): 2, (1, 1): 1}}
    assert got.contracts == {(2, 1): {"paso": 0, "solo": 3}}
    assert got.distribution((2, 1)) == [(0, 1000, 2 / 3), (1, 1, 1 / 3)]


@pytest.mark.parametrize("spec, state, p", [
    # the largest target: a fair coin for 1 point, one hand from the target against two
    ("online,target=100", (99, 98), race(1, 2)),
    # the largest win_by: a fair coin's walk of the lead, from +3 to +100 before -100
    # (gambler's ruin: (3 + 100) / 200); the target of 2 is passed long before
    ("online,target=2,win_by=100", (3, 0), 103 / 200),
])
def test_the_largest_tables_are_made(spec, state, p):
    tab = equity.EquityTable(get_rules(spec), made_up(COIN))
    for mano in (True, False):
        assert tab.p_win(*state, mano) == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("spec, plays_to", [("online,target=101", "101"),
                                            ("narro,win_by=101", "21 by 101"),
                                            ("narro,target=101", "101 by 2")])
def test_a_table_too_large_says_what_the_rules_play_to(spec, plays_to):
    with pytest.raises(CuatrolaError) as e:
        equity.EquityTable(get_rules(spec), made_up(COIN))
    assert str(e.value) == (
        "the match-equity table (of equity, and of advise with a --score) is computed for a "
        f"target and a win_by of at most 100, its work growing with their square: these rules "
        f"play to {plays_to} (docs/equity.md)")


@pytest.mark.parametrize("first, p", [
    (1 + 5e-10, 1.0), (1 + 1e-9, 1.0),          # float noise above 1: clipped to 1
    (-5e-10, 0.0), (-1e-9, 0.0),                # and below 0: clipped to 0
    (-0.5, None), (1.5, None), (1 + 2e-9, None), (-2e-9, None), (math.nan, None),
    (math.inf, None),
])
def test_the_lead_states_solved_off_0_to_1(monkeypatch, first, p):
    """The lead states' solution off [0, 1] by more than 1e-9 (or not finite) is refused as
    the data's fault; within 1e-9 it is float noise, clipped.  The solve is made to return
    ``first`` for the first lead state (narro: lead -1, my pair mano), 1/4 in truth."""
    real = np.linalg.solve

    def solve(a, b):
        x = real(a, b)
        assert x[0] == pytest.approx(0.25)
        x[0] = first
        return x

    monkeypatch.setattr(np.linalg, "solve", solve)
    if p is None:
        with pytest.raises(CuatrolaError, match="never decide a match won by 2"):
            equity.EquityTable(get_rules("narro"), made_up(COIN, "narro"))
    else:
        tab = equity.EquityTable(get_rules("narro"), made_up(COIN, "narro"))
        assert tab.p_win(20, 21, True) == p
        assert tab.p_win(21, 20, True) == pytest.approx(0.75, abs=1e-12)


@pytest.mark.parametrize("spec, lead_from", [
    ("narro", 19),                           # no caps: from target - win_by, 19-19
    ("online,target=3,win_by=5", 0),         # target - win_by below 0: from 0-0
    ("app,win_by=2", 10),                    # exact_target to 11: paso only from 10 on
    ("app,target=6,win_by=4", 5),            # to 6: paso only from 5 on (6 - 4 = 2 before)
    ("italiano,win_by=2", 20),               # near_target from 17, to 21: paso only from 20
    ("narro,target=5,bid_cap=near_target,near_target_from=20", 20),   # paso only from 20
])
def test_where_only_the_lead_counts(spec, lead_from):
    """``lead_from`` (which ``cuatrola equity`` prints: "From 19-19 on only the lead
    counts") is the first score from which both the caps and the target leave only the
    lead: the larger of target - win_by and the score from which a pair's cap class stays
    as it is, worked out by hand above."""
    rules = get_rules(spec)
    assert equity.EquityTable(rules, results_by_caps(rules)).lead_from == lead_from
