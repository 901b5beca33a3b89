"""The double-dummy table engine (``solver.dd_tables``) against the old per-row
computation (four separate searches per row, each checked against the reference by
test_solver's differential tests) and against the pure-Python reference itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cuatrola_solver.dd import reference, solver
from cuatrola_solver.game import play
from cuatrola_solver.lab.bench import random_deals
from cuatrola_solver.errors import RulesError
from cuatrola_solver.game.rules import PRESETS
from test_solver import random_rules

compiled = pytest.mark.skipif(solver.BACKEND != "compiled", reason="compiled solver not built")


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
