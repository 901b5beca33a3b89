"""Match equity: the table's invariants, exact answers on made-up hand results, agreement
with matches played directly from the hand results, and the shipped data."""

from __future__ import annotations

import math

import pytest

from cuatrola_solver.models import equity
from cuatrola_solver.advice.stats import wilson
from cuatrola_solver.errors import CuatrolaError, NotationError
from cuatrola_solver.game.match import Score, check_score, match_winner, parse_score
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.lab import measure_equity

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
