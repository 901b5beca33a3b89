"""The double-dummy solver (cuatrola_solver.dd.solver): the compiled solver against the
pure-Python reference, the rule primitives against play.py, batches, the tables engine
(``dd_tables``) against the per-row searches and the reference, the backend selection, an
error in a worker thread."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from cuatrola_solver.dd import objectives, reference, solver
from cuatrola_solver.errors import RulesError
from cuatrola_solver.game import play
from cuatrola_solver.game.cards import parse_card
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden.deals import count_deals, enumerate_deals, unrank_deals
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.lab.bench import random_deals, random_position

from helpers import deal

compiled = pytest.mark.skipif(solver.BACKEND != "compiled", reason="compiled solver not built")
OBJECTIVES = objectives.OBJECTIVES


def random_case(rng: random.Random, rules, min_plays: dict[int, int]):
    """A random contract of the rules and a random position of it."""
    contract, declarer = rng.choice(solver.contract_rows(rules))
    nact = sum(play.active_seats(declarer))
    plays = rng.randint(min_plays[nact], 5 * nact - 1)
    return random_position(rng, rules, contract, declarer, plays)


def assert_same(pos, rules, objectives=OBJECTIVES):
    for objective in objectives:
        want = reference.solve(pos, rules, objective)
        got = solver.solve(pos, rules, objective)
        assert got == want and type(got) is type(want), (objective, pos, want, got)


# --- the primitives -------------------------------------------------------------------

@compiled
def test_primitives_equal_play_py():
    from cuatrola_solver.game import play
    rng = random.Random(7)
    for _ in range(20000):
        order = list(range(20))
        rng.shuffle(order)
        n = rng.randint(0, 3)
        trick = order[:n]
        hand = sum(1 << c for c in order[n:n + rng.randint(1, 5)])
        trump = rng.randrange(4)
        beat, free = rng.random() < 0.5, rng.random() < 0.5
        assert (play.legal_mask(hand, trick, trump, beat, free)
                == play.legal_mask(hand, trick, trump, beat, free))
        full = order[:rng.randint(1, 4)]
        assert play.trick_winner_index(full, trump) == play.trick_winner_index(full, trump)


# --- differential: compiled == reference --------------------------------------------

RULE_VARIANTS = {
    "beat_led_after_trump": (True, False),
    "free_when_cannot_overtrump": (True, False),
    "contrasolo": (True, False),
    "solo_goal": ("points", "tricks"),
    "tie_break": ("last_trick", "mano"),
    "pass_bonus": ("none", "over_100", "carbunco"),
    "monte": (10, 0, 7),
    "cantes_in": (("paso", "solo"), ("paso",), ("paso", "solo", "contrasolo", "cuatrola")),
    "cante_by": ("any_trick_won", "last_trick_winner"),
    "cante_after_tricks": ((1, 2, 3, 4), (1, 2, 3), (2, 4)),
    "max_cantes_per_side": (0, 1, 2),
    "forty_first": (True, False),
}


def random_rules(rng: random.Random):
    base = PRESETS[rng.choice(list(PRESETS))]
    changes = {k: rng.choice(v) for k, v in RULE_VARIANTS.items() if rng.random() < 0.4}
    return base.override(**changes)


#: fewest random steps before a position is compared, by number of active seats: the
#: reference needs seconds for a whole 4-hand deal
MID_HAND = {2: 0, 3: 4, 4: 10}


def differential(seed: int, count: int, rules_of, min_plays=MID_HAND) -> None:
    """``count`` random positions (rules from ``rules_of(rng)``), every objective."""
    rng = random.Random(seed)
    for _ in range(count):
        rules = rules_of(rng)
        assert_same(random_case(rng, rules, min_plays), rules)


@compiled
@pytest.mark.parametrize("preset", list(PRESETS))
def test_differential_mid_hand(preset):
    """Every objective, every contract kind, positions after random legal play."""
    differential(sum(map(ord, preset)), 1000, lambda rng: PRESETS[preset])


@compiled
def test_differential_rule_variants():
    """Presets with random parameter overrides: the search reads every parameter."""
    differential(99, 800, random_rules)


@compiled
@pytest.mark.parametrize("preset", list(PRESETS))
def test_differential_from_the_deal(preset):
    rules = PRESETS[preset]
    rng = random.Random(len(preset))
    for _ in range(3):
        contract, declarer = rng.choice(solver.contract_rows(rules)[1:])
        assert_same(random_position(rng, rules, contract, declarer, 0), rules)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_differential_from_the_deal_every_contract(preset):
    rules = PRESETS[preset]
    rng = random.Random(len(preset) + 100)
    for _ in range(6):
        for contract, declarer in solver.contract_rows(rules):
            assert_same(random_position(rng, rules, contract, declarer, 0), rules)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_differential_many(preset):
    differential(sum(map(ord, preset)) + 1, 10000, lambda rng: PRESETS[preset],
                 {2: 0, 3: 2, 4: 6})


@compiled
@pytest.mark.parametrize("contract,declarer,least", [
    ("cuatrola", (2,), 3), ("cuatrola", (1,), 3), ("quintola", (4,), 3), ("paso", (), 8),
    ("solo", (3,), 8)])
def test_tricks_table_shared_across_positions(contract, declarer, least):
    """The tricks table keys a position by the cards' ranks among those still in play,
    so positions of different deals share entries: one contract, one rule set, one
    warm table over many positions, each equal to the reference's tricks."""
    rng = random.Random(len(contract) * 7 + least)
    rules = PRESETS["online"]
    nact = sum(play.active_seats(declarer))
    for _ in range(250):
        pos = random_position(rng, rules, contract, declarer,
                              rng.randint(least, 5 * nact - 2))
        assert solver.solve(pos, rules, "tricks") == reference.solve(pos, rules, "tricks")


@compiled
def test_solve_cards_and_analyse_play_match_reference():
    rng = random.Random(5)
    for _ in range(150):
        rules = PRESETS[rng.choice(list(PRESETS))]
        pos = random_case(rng, rules, MID_HAND)
        if pos.is_over:
            continue
        for objective in OBJECTIVES:
            assert solver.solve_cards(pos, rules, objective) == reference.solve_cards(
                pos, rules, objective)
        seq = []
        p = pos
        while not p.is_over and len(seq) < 6:
            c = rng.choice(reference.legal_cards(p, rules))
            seq.append(c)
            p = play.play_card(p, c, rules.monte)
        objective = rng.choice(OBJECTIVES)
        assert solver.analyse_play(pos, rules, objective, seq) == reference.analyse_play(
            pos, rules, objective, seq)


def test_solve_cards_best_equals_solve_when_nothing_is_pending():
    """With no cante pending, the position's value is the best card's value."""
    rng = random.Random(11)
    rules = PRESETS["online"]
    checked = 0
    while checked < 60:
        pos = random_case(rng, rules, MID_HAND)
        if pos.is_over or (not pos.trick and reference.pending_cante(pos, rules)):
            continue
        checked += 1
        cards = solver.solve_cards(pos, rules, "tricks")
        best = max if play.side_of(pos.to_play) == pos.declaring_side else min
        assert best(cards.values()) == solver.solve(pos, rules, "tricks")


# --- batches -----------------------------------------------------------------------------

@compiled
@pytest.mark.parametrize("contract,declarer,objective", [
    ("cuatrola", (2,), "tricks"), ("paso", (), "margin"), ("solo", (3,), "makes"),
    ("paso", (), "game_points"), ("contrasolo", (1, 4), "margin")])
def test_batch_independent_of_workers_and_equal_to_solve(contract, declarer, objective):
    rules = PRESETS["narro"]
    hands, trumps = random_deals(60, seed=3)
    one = solver.solve_batch(hands, trumps, rules, contract, declarer, objective, workers=1)
    for workers in (2, 3, 7):
        many = solver.solve_batch(hands, trumps, rules, contract, declarer, objective,
                                  workers=workers)
        assert np.array_equal(one, many)
    for i in range(0, 60, 7):
        pos = play.deal_position(tuple(int(h) for h in hands[i]), int(trumps[i]), contract,
                                   declarer)
        assert one[i] == int(solver.solve(pos, rules, objective))


@compiled
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_batch_progress_counts_every_deal_and_a_raise_cancels(workers):
    """``progress(done, n)`` rises to every deal, in the calling thread, the values the
    same as without it; an exception it raises stops the search and comes out of
    solve_batch, and the next batch in the same slot is right again."""
    import threading
    rules = PRESETS["italiano"]
    hands, trumps = random_deals(3000, seed=5)
    plain = solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", workers=1)
    seen, caller = [], threading.get_ident()

    def progress(done, total):
        assert threading.get_ident() == caller and total == 3000
        seen.append(done)

    values = solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", workers,
                                slot="progress", progress=progress)
    assert np.array_equal(values, plain)
    assert seen == sorted(seen) and seen[-1] == 3000 and len(seen) > 1

    class Cancel(Exception):
        pass

    calls = []

    def cancel(done, total):
        calls.append(done)
        raise Cancel

    with pytest.raises(Cancel):
        solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", workers,
                           slot="progress", progress=cancel)
    assert len(calls) == 1 and calls[0] < 3000
    again = solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", workers,
                               slot="progress")
    assert np.array_equal(again, plain)


@compiled
@pytest.mark.parametrize("seed", range(6))
def test_batch_with_tricks_settles_the_same_values(seed):
    """``with_tricks`` lets the tricks settle makes and game points (every trick: a win,
    none: a loss): the values are those of separate searches, under random rules."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    hands, trumps = random_deals(300, seed=seed)
    for contract, declarer in solver.contract_rows(rules):
        tricks = solver.solve_batch(hands, trumps, rules, contract, declarer, "tricks", 1)
        for objective in ("makes", "game_points", "margin"):
            alone = solver.solve_batch(hands, trumps, rules, contract, declarer, objective, 1)
            for workers in (1, 2):
                v, t = solver.solve_batch(hands, trumps, rules, contract, declarer, objective,
                                          workers, with_tricks=True)
                assert np.array_equal(v, alone) and np.array_equal(t, tricks)


@compiled
@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bonus", ["none", "over_100", "carbunco"])
def test_the_tricks_bounds_settle_the_win_and_the_bonus_exactly(preset, bonus):
    """Given the most tricks d can take, each side is held to a number of tricks, and
    what those tricks can hold may settle the win either way, or whether a side passes
    100 points (``held_loses``, ``held_under_101``), and inside the points searches the
    tricks table bounds each boundary (``held_bounds``): game points with the tricks
    equal a search that knows no tricks, paso and every solo of every preset, each pass
    bonus."""
    rules = dataclasses.replace(PRESETS[preset], pass_bonus=bonus)
    hands, trumps = random_deals(300, seed=31)
    # and layouts where one side is strong (an advice's), where the bounds bite; with
    # over_100, the dealer's 1,400th to 1,450th and 2,700th to 2,750th too: in two of
    # them a side that took the last baza sings a cante with no trick more (the bounds
    # once left it out)
    parts = [("Ae 3e Re Ab Sc", "Ae", 4, slice(0, None, 700)),
             ("Ao 3o Ro Co Ac", "So", 1, slice(0, None, 250))]
    if bonus == "over_100":
        parts += [("Ae 3e Re Ab Sc", "Ae", 4, slice(1400, 1450)),
                  ("Ae 3e Re Ab Sc", "Ae", 4, slice(2700, 2750))]
    for cards, muestra, seat, part in parts:
        view = View.bidding(cards, muestra, seat, rules=rules)
        k = knowledge_of(view)
        layouts = unrank_deals(k, np.arange(count_deals(k))[part]).astype(np.int64)
        hands = np.concatenate([hands, layouts])
        trumps = np.concatenate([trumps, np.full(len(layouts), k.trump, dtype=np.int64)])
    for contract, declarer in [("paso", ())] + [("solo", (s,)) for s in (1, 2, 3, 4)]:
        if contract not in rules.allowed_contracts():
            continue
        solver.set_tt_bits(8)       # small fresh tables: the tricks table tells nothing
        alone = solver.solve_batch(hands, trumps, rules, contract, declarer, "game_points", 1)
        solver.set_tt_bits(None)
        v, _ = solver.solve_batch(hands, trumps, rules, contract, declarer, "game_points", 1,
                                  with_tricks=True)
        assert np.array_equal(v, alone), (contract, declarer)


@compiled
@pytest.mark.parametrize("contract,declarer,count", [("cuatrola", (3,), 16), ("paso", (), 4)])
def test_batch_of_whole_deals_equals_the_reference(contract, declarer, count):
    """A batch keeps its tables warm from one deal to the next: the tricks and game
    points of whole deals equal the reference's."""
    rules = PRESETS["online"]
    hands, trumps = random_deals(count, seed=21)
    tricks = solver.solve_batch(hands, trumps, rules, contract, declarer, "tricks", 1)
    for i in range(count):
        pos = play.deal_position(tuple(int(h) for h in hands[i]), int(trumps[i]), contract,
                                 declarer)
        assert tricks[i] == reference.solve(pos, rules, "tricks"), i


@compiled
@pytest.mark.parametrize("contract,declarer,objective", [
    ("paso", (), "tricks"), ("paso", (), "game_points"), ("cuatrola", (2,), "tricks"),
    ("solo", (2,), "game_points")])
def test_warm_tables_over_neighbouring_layouts(contract, declarer, objective):
    """The layouts of an exact advice, in their order (neighbours share most cards),
    searched as one batch with its tables kept warm, equal each layout searched alone
    with fresh tables (a build whose warm tables gave wrong tricks failed it)."""
    from cuatrola_solver.game.view import View
    from cuatrola_solver.hidden.deals import enumerate_deals
    from cuatrola_solver.hidden.inference import knowledge_of
    rules = PRESETS["online"]
    k = knowledge_of(View.bidding("Ae 3e Re Ab Sc", "Ce", 2, rules=rules))
    n = solver.BATCH_DEALS + 100            # a batch of the large tables
    hands = np.ascontiguousarray(enumerate_deals(k, 0, n), dtype=np.int64)
    trumps = np.full(len(hands), k.trump, dtype=np.int64)
    warm = solver.solve_batch(hands, trumps, rules, contract, declarer, objective, 1)
    params = solver.context_params(rules, contract, declarer, play.active_seats(declarer), 0)
    alone = np.zeros(len(hands), dtype=np.int32)
    for i in range(len(hands)):
        solver._compiled.Solver(8).batch(params, hands, trumps,
                                         OBJECTIVES.index(objective), alone, i, i + 1)
    assert np.array_equal(warm, alone)


@compiled
@pytest.mark.parametrize("preset, contract, declarer, plays", [
    ("online", "paso", (), 9), ("narro", "solo", (3,), 10), ("italiano", "cuatrola", (1,), 6),
    ("online", "paso", (), 19)])
def test_card_figures_equal_solve_cards_of_each_layout(monkeypatch, preset, contract,
                                                       declarer, plays):
    """card_figures (one warm batch per card, the margin settling makes) equals
    solve_cards of each layout, compiled and with the reference backend."""
    rules = PRESETS[preset]
    pos = random_position(random.Random(plays), rules, contract, declarer, plays, 0.0)
    seat = pos.to_play
    others = [s for s in range(1, 5) if s != seat and pos.active[s - 1]]
    rows = [list(pos.hands)]
    rng = random.Random(1)
    for _ in range(30):                 # the hidden cards dealt again among the others
        hidden = [c for s in others for c in range(20) if pos.hands[s - 1] >> c & 1]
        rng.shuffle(hidden)
        row = list(pos.hands)
        for s in others:
            k = bin(pos.hands[s - 1]).count("1")
            row[s - 1] = sum(1 << c for c in hidden[:k])
            hidden = hidden[k:]
        rows.append(row)
    hands = np.array(rows, dtype=np.int64)
    got = solver.card_figures(pos, hands, rules)
    for i, row in enumerate(rows):
        layout = pos.with_changes(hands=tuple(row))
        for j, o in enumerate(solver.HINT_FIGURES):
            want = solver.solve_cards(layout, rules, o)
            assert list(want) == list(got)
            assert [got[c][i, j] for c in want] == [int(v or 0) for v in want.values()], (i, o)
    if plays >= 9:
        monkeypatch.setattr(solver, "_compiled", None)
        ref = solver.card_figures(pos, hands[:3], rules)
        assert all(np.array_equal(ref[c], got[c][:3]) for c in got)


def test_batch_checks_shapes():
    with pytest.raises(ValueError):
        solver.solve_batch(np.zeros((3, 3)), np.zeros(3), PRESETS["online"], "paso")


# --- dd_table ----------------------------------------------------------------------------

# a whole table takes the reference about a minute: slow on that backend
@(pytest.mark.slow if solver.BACKEND != "compiled" else (lambda f: f))
def test_dd_table_rows():
    hands, trumps = random_deals(1, seed=8)
    rules = PRESETS["narro"]
    rows = solver.dd_table(tuple(int(h) for h in hands[0]), int(trumps[0]), rules)
    kinds = [(r["contract"], r["declarer"]) for r in rows]
    assert kinds[0] == ("paso", None) and rows[0]["side"] == "A"
    assert kinds[1:5] == [("solo", s) for s in (1, 2, 3, 4)]
    assert kinds[5:9] == [("contrasolo", p) for p in ([1, 2], [1, 4], [2, 3], [3, 4])]
    assert kinds[9:] == [(c, s) for c in ("cuatrola", "quintola") for s in (1, 2, 3, 4)]
    for r in rows:
        assert set(r) == {"contract", "declarer", "side", "tricks", "margin", "makes",
                          "game_points"}
        assert (r["margin"] is None) == (r["contract"] in ("cuatrola", "quintola"))
        assert isinstance(r["makes"], bool)
        sign = 1 if r["makes"] else -1
        assert r["game_points"] * sign > 0
        if r["contract"] == "quintola":
            assert r["makes"] == (r["tricks"] == 5)
        if r["contract"] == "cuatrola":
            assert r["makes"] == (r["tricks"] >= 4)
        seat = r["declarer"][0] if isinstance(r["declarer"], list) else r["declarer"]
        assert r["side"] == ("A" if seat in (None, 1, 3) else "B")
    online = solver.dd_table(tuple(int(h) for h in hands[0]), int(trumps[0]), PRESETS["online"])
    assert len(online) == 13 and "contrasolo" not in {r["contract"] for r in online}


# --- backend selection -------------------------------------------------------------------

def test_purepython_environment_forces_the_reference():
    env = dict(os.environ, CUATROLA_PUREPYTHON="1")
    code = "from cuatrola_solver.dd import solver; print(solver.BACKEND)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "reference"
    assert done.stderr.count("\n") == 1 and "reference" in done.stderr


def test_reference_backend_solves(monkeypatch):
    monkeypatch.setattr(solver, "_compiled", None)
    rules = PRESETS["online"]
    pos = random_position(random.Random(4), rules, "paso", (), 12)
    assert solver.solve(pos, rules, "margin") == reference.solve(pos, rules, "margin")
    hands, trumps = random_deals(2, seed=1)
    out = solver.solve_batch(hands, trumps, rules, "cuatrola", (1,), "tricks")
    assert out.dtype == np.int32 and out.shape == (2,)


@compiled
def test_tiny_table_gives_the_same_values():
    """Replacement and reuse of table entries never change a value."""
    rules = PRESETS["online"]
    hands, trumps = random_deals(80, seed=12)
    want = {o: solver.solve_batch(hands, trumps, rules, "paso", (), o, workers=1)
            for o in OBJECTIVES}
    try:
        solver.set_tt_bits(4)
        for o in OBJECTIVES:
            assert np.array_equal(solver.solve_batch(hands, trumps, rules, "paso", (), o,
                                                     workers=1), want[o])
    finally:
        solver.set_tt_bits(None)


def test_search_order_is_a_permutation_grouping_the_trump_holders():
    """The order exact advice searches its layouts in: every layout once, the owner of
    the highest trump varying slowest."""
    view = View.bidding("Ae 3e Re Ab Sc", "Ae", 4, rules=PRESETS["online"])
    k = knowledge_of(view)
    deals = enumerate_deals(k, 0, 5000)
    order = solver.search_order(deals, k.trump)
    assert sorted(order.tolist()) == list(range(len(deals)))
    top = max(c for c in range(5 * k.trump, 5 * k.trump + 5) if not view.hand >> c & 1)
    owners = np.argmax((deals[order] & np.uint32(1 << top)) != 0, axis=1)
    assert (np.diff(owners) >= 0).all() and len(set(owners.tolist())) > 1


@compiled
def test_a_slot_keeps_its_own_warm_context_and_the_same_values():
    """Calls in a slot search with contexts of their own (their tables stay warm whatever
    else is searched in between); the values are those of a call without one."""
    rules = PRESETS["online"]
    hands, trumps = random_deals(300, seed=5)
    plain = solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", 2)
    for _ in range(2):
        slotted = solver.solve_batch(hands, trumps, rules, "paso", (), "game_points", 2,
                                     slot=("paso", ()))
        solver.solve_batch(hands, trumps, rules, "solo", (1,), "game_points", 2)
        assert np.array_equal(slotted, plain)
    assert any(k == ("paso", ()) for k, _ in solver._pool)


# --- the table engine (dd_tables) against the per-row searches and the reference ------

def per_row_table(hands, trump, rules, solve=solver.solve) -> list[list[int]]:
    """The table as it was computed before the table engine: every figure of every row
    its own search from the deal (margin of a tricks contract: 0, as in dd_tables)."""
    rows = []
    for contract, declarer in solver.contract_rows(rules):
        pos = play.deal_position(tuple(hands), trump, contract, declarer)
        rows.append([int(solve(pos, rules, o) or 0) for o in solver.TABLE_FIGURES])
    return rows


def assert_tables_equal(hands, trumps, rules, workers=1, solve=solver.solve):
    tables = solver.dd_tables(hands, trumps, rules, workers=workers)
    assert tables.shape == (len(hands), len(solver.contract_rows(rules)), 4)
    for i in range(len(hands)):
        want = per_row_table([int(h) for h in hands[i]], int(trumps[i]), rules, solve)
        assert tables[i].tolist() == want, (rules, hands[i].tolist(), int(trumps[i]))


@compiled
@pytest.mark.parametrize("preset", list(PRESETS))
def test_table_equals_per_row_searches(preset):
    hands, trumps = random_deals(150, seed=len(preset))
    assert_tables_equal(hands, trumps, PRESETS[preset])


@compiled
@pytest.mark.parametrize("seed", range(8))
def test_table_equals_per_row_searches_rule_variants(seed):
    """Random overrides reach every branch: tie breaks on a zero margin, both pass
    bonuses, solo on tricks, odd montes, cantes in any contract."""
    rules = random_rules(random.Random(1000 + seed))
    hands, trumps = random_deals(40, seed=1000 + seed)
    assert_tables_equal(hands, trumps, rules)


@compiled
def test_zero_margins_and_bonuses_are_covered():
    """The branches that take an extra search are met by the deals above: a zero margin
    under each tie break, and each pass bonus deciding the game points either way."""
    seen = set()
    for preset, tie in (("online", "last_trick"), ("app", "mano")):
        rules = PRESETS[preset]
        tables = solver.dd_tables(*random_deals(150, seed=len(preset)), rules)
        if (tables[:, :, 1][:, [r for r, (c, _) in enumerate(solver.contract_rows(rules))
                                if c != "cuatrola" and c != "quintola"]] == 0).any():
            seen.add(tie)
    for preset in ("narro", "italiano"):
        paso = solver.dd_tables(*random_deals(150, seed=len(preset)), PRESETS[preset])[:, 0, 3]
        seen |= {(preset, int(g)) for g in paso if abs(g) == 2}
    assert seen >= {"last_trick", "mano", ("narro", 2), ("narro", -2), ("italiano", 2),
                    ("italiano", -2)}


@compiled
def test_table_independent_of_workers():
    rules = PRESETS["narro"]
    hands, trumps = random_deals(70, seed=4)
    one = solver.dd_tables(hands, trumps, rules, workers=1)
    for workers in (2, 3, 8):
        assert np.array_equal(solver.dd_tables(hands, trumps, rules, workers=workers), one)


@compiled
def test_table_equals_the_reference_for_one_declarer():
    """Straight against the reference (a whole table takes it about a minute: the rows of
    one declarer here, every row in the slow test below)."""
    rules = PRESETS["online"]
    hands, trumps = random_deals(1, seed=21)
    table = solver.dd_table(tuple(int(h) for h in hands[0]), int(trumps[0]), rules)
    for row, (contract, declarer) in zip(table, solver.contract_rows(rules)):
        if declarer != (2,):
            continue
        pos = play.deal_position(tuple(int(h) for h in hands[0]), int(trumps[0]), contract,
                                   declarer)
        for o in solver.TABLE_FIGURES:
            assert row[o] == reference.solve(pos, rules, o), (contract, o)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_table_equals_the_reference_every_row(preset):
    hands, trumps = random_deals(1, seed=30 + len(preset))
    assert_tables_equal(hands, trumps, PRESETS[preset], solve=reference.solve)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_table_equals_per_row_searches_many(preset):
    hands, trumps = random_deals(3000, seed=100 + len(preset))
    assert_tables_equal(hands, trumps, PRESETS[preset], workers=2)


@compiled
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_table_equals_per_row_searches_rule_variants_many(seed):
    rules = random_rules(random.Random(2000 + seed))
    hands, trumps = random_deals(150, seed=2000 + seed)
    assert_tables_equal(hands, trumps, rules, workers=2)


def test_table_rows_shape_the_json_rows():
    rules = PRESETS["italiano"]
    rows = solver.contract_rows(rules)
    table = np.zeros((len(rows), 4), dtype=np.int32)
    table[:, 0] = 3
    table[:, 1] = 8
    table[:, 2] = 1
    table[:, 3] = 2
    out = solver.table_rows(table, rules)
    assert [(r["contract"], r["declarer"]) for r in out][:2] == [("paso", None), ("solo", 1)]
    for r in out:
        assert r["margin"] == (8 if r["contract"] == "paso" else None)   # italiano: solo on tricks
        assert r["makes"] is True and r["tricks"] == 3 and r["game_points"] == 2
        assert type(r["tricks"]) is int and type(r["game_points"]) is int


def test_table_entries_are_the_json_rows_typed():
    """The typed rows a renderer reads say what the JSON rows say, row for row."""
    rules = PRESETS["online"]
    hands, trumps = random_deals(3, seed=8)
    for table in solver.dd_tables(hands, trumps, rules):
        typed = solver.table_entries(table, rules)
        assert [r.contract for r in typed] == [c for c, _ in solver.contract_rows(rules)]
        for row, d in zip(typed, solver.table_rows(table, rules), strict=True):
            assert solver.shown_declarer(row.declarer) == d["declarer"]
            assert (row.contract, row.side, row.tricks, row.margin, row.makes,
                    row.game_points) == (d["contract"], d["side"], d["tricks"], d["margin"],
                                         d["makes"], d["game_points"])


@compiled
def test_monte_at_the_solver_limit_and_beyond():
    """The largest monte the rules allow (1000, well inside the search's 16-bit bounds)
    still gives the values of the per-row searches; a larger one is bad input
    (RulesError) where the rules are made, not an overflow."""
    rules = PRESETS["italiano"].override(monte=1000)
    hands, trumps = random_deals(10, seed=5)
    assert_tables_equal(hands, trumps, rules)
    assert solver.dd_tables(hands, trumps, rules)[:, 0, 1].max() > 1000
    assert solver.MAX_MONTE >= 1000
    for monte in (1001, solver.MAX_MONTE + 1, 2 ** 31, -2):
        with pytest.raises(RulesError, match="monte"):
            PRESETS["online"].override(monte=monte)


@pytest.mark.slow
def test_reference_backend_table(monkeypatch):
    """Without the compiled search dd_tables falls back on the reference, same values."""
    rules = PRESETS["app"]
    hands, trumps = random_deals(1, seed=40)
    want = solver.dd_tables(hands, trumps, rules) if solver.BACKEND == "compiled" else None
    monkeypatch.setattr(solver, "_compiled", None)
    got = solver.dd_tables(hands, trumps, rules)
    assert got.tolist() == (want.tolist() if want is not None
                            else [per_row_table([int(h) for h in hands[0]], int(trumps[0]),
                                                rules, reference.solve)])


@compiled
def test_an_error_in_a_worker_thread_is_raised_by_the_caller():
    def call(engine, lo, hi):
        if lo >= 50:
            raise ZeroDivisionError("chunk %d" % lo)
        return hi - lo

    assert solver._in_threads(100, 2, 10, 10, lambda e, lo, hi: hi - lo) == 100
    with pytest.raises(ZeroDivisionError):
        solver._in_threads(100, 2, 10, 10, call)
    hands, trumps = random_deals(5, seed=1)
    with pytest.raises(RulesError, match="monte"):
        solver.solve_batch(hands, trumps, PRESETS["online"].override(monte=-1), "paso",
                           objective="margin", workers=2)


DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"


def test_highest_monte_still_gives_sane_margins():
    """monte=1000 (the most allowed) stays inside the compiled solver's 16-bit bounds: the
    paso margin is the card points and monte of a real play, not a wrapped number."""
    rows = solver.dd_table(*_deal_masks(), get_rules("online,monte=1000"))
    paso = rows[0]
    assert paso["contract"] == "paso"
    assert 1000 - 130 <= abs(paso["margin"]) <= 1000 + 130 + 100


def _deal_masks():
    from cuatrola_solver.game.hand import check_deal
    hands = deal(DEAL)
    return check_deal(hands, parse_card("Ab")), 3


# --- an error in a worker thread is raised, not swallowed --------------------

def test_worker_thread_error_is_raised(monkeypatch):
    if solver._compiled is None:
        pytest.skip("the threads are the compiled backend's")

    class Broken:
        tt_bits = 12

        def batch(self, *args):
            raise OverflowError("boom in a worker")

    monkeypatch.setattr(solver, "_borrow", lambda *sizes: Broken())
    monkeypatch.setattr(solver, "_give_back", lambda s, slot=None: None)
    hands = np.array([[int(m) for m in _deal_masks()[0]]] * 300, dtype=np.int64)
    trumps = np.full(300, 3, dtype=np.int64)
    with pytest.raises(OverflowError, match="boom in a worker"):
        solver.solve_batch(hands, trumps, get_rules(), "paso", (), "tricks", workers=2)
