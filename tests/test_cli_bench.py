"""``cuatrola bench``: its sizes, the compiled backend, the answers a player waits for,
the players."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.lab.bench import (format_answers_bench, format_bench, run_answers_bench,
                                       run_bench)

from helpers import one_error_line, run


# --- bench sizes ------------------------------------------------------------

@pytest.mark.parametrize("args", [["--deals", "1000000000000"], ["--reference-deals", "10000000"],
                                  ["--deals", "0"]])
def test_bench_sizes_are_bounded(args):
    one_error_line(run("bench", *args))


runner = CliRunner()


def test_bench_by_default_is_quick_and_compiled_only():
    r = runner.invoke(app, ["bench", "--deals", "30"])
    assert r.exit_code == 0
    assert "µs" in r.stdout and " us " not in r.stdout and "True" not in r.stdout
    assert "reference" not in r.stdout.splitlines()[1]          # no reference column
    assert "bench: margin4: compiled solver, 30 deals" in r.stderr   # progress on stderr
    assert "reference solver" not in r.stderr
    d = json.loads(runner.invoke(app, ["bench", "--deals", "10", "--json"]).stdout)
    assert all("reference" not in row for row in d["cases"].values())


def test_bench_answers_times_whole_processes_and_a_hint():
    """bench --answers: each row a case with its target, wall and CPU seconds; here the
    start-up commands (one run each) and an exact hint late in a hand."""
    rows = run_answers_bench(presets=[], hint_case=("Ac Re", "3b", 2,
                                                    "1. Sb Ab Cb 3b 2. Ao Ro So Co "
                                                    "3. 3c Sc Cc Rc", "online"),
                             repeat=1)
    cases = [r["case"] for r in rows]
    assert cases == ["hint --exact, trick 4, seat 2", "cuatrola --help (whole process)",
                     "cuatrola rules (whole process)",
                     "cuatrola advise (default, sampled) (whole process)"]
    assert rows[0]["deals"] >= 1 and rows[0]["target_s"] == 0.5
    for r in rows:
        assert r["wall_s"] > 0 and r["cpu_s"] >= 0 and r["meets_target"] == (
            r["wall_s"] <= r["target_s"])
    text = format_answers_bench(rows)
    assert "cuatrola rules (whole process)" in text and "≤ 0.3 s" in text


def test_bench_reference_columns_match_the_readme():
    result = run_bench(deals=3, reference_deals=1, include_reference=True)
    text = format_bench(result)
    header = text.splitlines()[1]
    for column in ("work", "target", "compiled", "wall", "nodes per deal", "reference",
                   "speed-up", "same answers"):
        assert column in header
    assert "yes (1 deal)" in text
    readme = (__import__("pathlib").Path(__file__).resolve().parent.parent / "README.md")
    table = [x for x in readme.read_text().splitlines() if x.startswith("| work ")]
    assert table and [c.strip() for c in table[0].strip("|").split("|")] == [
        "work", "target", "compiled", "wall", "nodes per deal", "reference", "speed-up",
        "same answers"]


def test_bench_players_times_the_pimc_player():
    r = runner.invoke(app, ["bench", "--players", "1", "--json"])
    assert r.exit_code == 0, r.output
    [p] = json.loads(r.stdout)["players"]
    assert p["hands"] == 1 and p["decisions"] > 0 and p["player"] == "pimc"
    assert 0 < p["decision_median_ms"] <= p["decision_p90_ms"] and p["wait_max_ms"] > 0


def test_bench_players_times_each_player_asked():
    r = runner.invoke(app, ["bench", "--players", "1", "--player", "heuristic", "--player",
                            "alphamu:worlds=10", "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)["players"]
    assert [p["player"] for p in got] == ["heuristic", "alphamu:worlds=10,depth=2"]
    assert all(p["decisions"] > 0 for p in got)
    r = runner.invoke(app, ["bench", "--players", "1", "--player", "nobody"])
    assert r.exit_code == 2 and "unknown player 'nobody'" in r.output
    r = runner.invoke(app, ["bench", "--player", "pimc"])
    assert r.exit_code == 2 and "--player needs --players N" in r.output


def test_bench_json_small():
    r = run("bench", "--deals", "20", "--reference-deals", "0", "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["schema"] == 1 and set(out["cases"]) == {"tricks3", "margin4", "makes", "ddtable"}
    for case in out["cases"].values():
        assert case["compiled"]["us_per_deal"] > 0 and case["compiled"]["nodes_per_deal"] > 0
