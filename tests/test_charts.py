"""Bidding charts: the classes of hand, the chart built from valued hands, the cells
against advise on sampled hands, the shipped charts, the command."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import numpy as np
import pytest

from cuatrola_solver.advice.bidding import advise
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.errors import LabError, ModelError
from cuatrola_solver.game.cards import mask_of, parse_card, parse_cards
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.lab import charts as lc
from cuatrola_solver.models.charts import (COLUMNS, DOMAINS, ROWS, _possible, describe_key,
                                           hand_class, load_charts, possible)

from helpers import CHROMIUM, page_dom, run


# --- classes ---------------------------------------------------------------------------

@pytest.mark.parametrize("hand,muestra,key", [
    ("Ac 3c Ro Co Ab", "So", (2, "", 2, 1)),          # oros: Ro Co; Ac Ab outside; void e
    ("Ao 3o Ro Co Ab", "So", (4, "A3", 1, 2)),
    ("Ao Ro Sc Se Sb", "3o", (2, "A", 0, 0)),
    ("Sc Cc Rc 3c Ac", "Ab", (0, "", 1, 2)),
    ("3b Cc Rc Ae Ab", "Ab", (2, "A3", 1, 1)),        # seat 4 holds the muestra
])
def test_hand_class(hand, muestra, key):
    m = parse_card(muestra)
    assert hand_class(mask_of(parse_cards(hand)), m // 5).key == key


def test_the_grid_holds_every_class():
    classes = _possible()
    squares = {r + c for r in ROWS for c in COLUMNS if possible(r + c)}
    assert squares == set(classes)
    assert (4, "", 0, 2) not in classes            # four trumps hold the as or the tres
    assert (3, "A", 0, 0) not in classes           # two other cards: a void at least
    assert describe_key(((2,), ("A", "A3"), (1, 2), (1, 2))) == \
        "2 triunfos · the as · 1+ outside aces · a void"
    assert describe_key(((0, 1), ("", "3", "A", "A3"), (0,), (0, 1, 2))) == \
        "0-1 triunfos · no outside ace"


# --- building a chart from valued hands (no search) --------------------------------------

def _lines(n: int, seed: int, seat: int = 1) -> list[lc.ValuedHand]:
    """Made-up valued hands: solo pays with 3 trumps or more, else paso."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cards = rng.sample(range(20), 6)
        hand, m = cards[:5], cards[5]
        trumps = sum(1 for c in hand if c // 5 == m // 5)
        solo = 0.8 if trumps >= 3 else -0.5
        out.append(lc.ValuedHand(i, " ".join(_fmt(c) for c in hand), _fmt(m),
                                 "solo" if solo > 0.1 else "paso",
                                 {"paso": [0.5, 0.5, 0.1, 0.1, None],
                                  "solo": [0.6, 0.6, solo, solo + rng.uniform(-.1, .1), None]}))
    return out


def _fmt(c: int) -> str:
    from cuatrola_solver.game.cards import format_card
    return format_card(c)


def test_build_merges_rare_classes_and_covers_every_class():
    spec = lc.ChartSpec.make("online", seat=1, keep=None)
    chart = lc.build(spec, _lines(3000, 1), min_hands=60)
    assert all(c.hands >= 60 for c in chart.cells.values())
    assert sum(c.hands for c in chart.cells.values()) == 3000
    for key in _possible():
        assert sum(c.holds(key) for c in chart.cells.values()) == 1
    for c in chart.cells.values():
        for group, domain in zip(c.key, DOMAINS):                 # runs of each level
            at = [domain.index(v) for v in group]
            assert at == list(range(at[0], at[0] + len(at)))
        assert c.call == ("solo" if min(c.key[0]) >= 3 else "paso")
    # a hand's cell is its class's
    hand = mask_of(parse_cards("Ao 3o Ro Sc Sb"))
    assert chart.cell_of(hand, 0).call == "solo" and chart.cell_of(hand, 1).call == "paso"
    # fewer hands: coarser cells, never under the minimum (but the whole chart)
    coarse = lc.build(spec, _lines(3000, 1), min_hands=600)
    assert len(coarse.cells) < len(chart.cells)
    assert all(c.hands >= 600 for c in coarse.cells.values())


def test_the_call_of_a_cell_is_the_best_mean_and_kept_hands_are_weighted():
    spec = lc.ChartSpec.make("online", seat=1, keep=(0.1, 0.1, 0.5, 1.0, 1.0))
    lines = _lines(400, 2)
    chart = lc.build(spec, lines, min_hands=10 ** 6)   # one cell: every number of trumps
    assert len(chart.cells) == 1
    for cell in chart.cells.values():
        mine = [ln for ln in lines if hand_class(mask_of(parse_cards(ln.hand)),
                                                 parse_card(ln.muestra) // 5).key[0]
                in cell.key[0]]
        w = [1 / spec.keep[hand_class(mask_of(parse_cards(ln.hand)),
                                      parse_card(ln.muestra) // 5).key[0]] for ln in mine]
        ev = {b: np.average([ln.calls[b][3] for ln in mine], weights=w)
              for b in ("paso", "solo")}
        assert cell.calls["solo"].ev_played == pytest.approx(ev["solo"])
        assert cell.call == max(ev, key=ev.get)
        assert cell.hands == len(mine)
        assert sum(cell.advised.values()) == len(mine)


def test_hands_are_seeded_and_thinned_by_trumps():
    spec = lc.ChartSpec.make("online", seat=3, seed=4)
    a = [lc.hand_of(spec, i) for i in range(300)]
    assert a == [lc.hand_of(spec, i) for i in range(300)]
    assert a != [lc.hand_of(replace(spec, seed=5), i) for i in range(300)]
    few = sum(1 for h, m, _ in a if sum(c // 5 == m // 5 for c in h) <= 1)
    fresh = [lc.hand_of(spec, i, lc.MEASURE_STREAM) for i in range(300)]
    few_fresh = sum(1 for h, m, _ in fresh if sum(c // 5 == m // 5 for c in h) <= 1)
    assert few < 0.4 * 300 < few_fresh          # thinned on the chart's stream only


def test_valued_hands_continue_from_the_hands_file(tmp_path):
    spec = lc.ChartSpec.make("online", seat=2, seed=1, samples=20)
    path = tmp_path / "hands.jsonl"
    first = lc.value_hands(spec, 4, workers=1, path=str(path))
    with open(path, "a") as f:
        f.write('{"run": {"cut')                  # an interrupted run's last line
    again = lc.value_hands(spec, 6, workers=1, path=str(path))
    assert again[:4] == first
    assert len(path.read_text().splitlines()) == 6
    assert again == lc.value_hands(spec, 6, workers=1)
    other = lc.ChartSpec.make("online", seat=3, seed=1, samples=20)   # one file, two runs
    lc.value_hands(other, 2, workers=1, path=str(path))
    assert lc.value_hands(spec, 6, workers=1, path=str(path)) == again
    path.write_text("not json\n")
    with pytest.raises(LabError, match="line 1"):
        lc.value_hands(spec, 1, workers=1, path=str(path))


@pytest.mark.parametrize("change,says", [
    (lambda d: d.pop("run"), "line 2: not a valued hand of a chart run (no 'run' field)"),
    (lambda d: d.update(i=-1), "line 2, i: expected the hand's index"),
    (lambda d: d.update(i=True), "line 2, i: expected the hand's index"),
    (lambda d: d.update(hand="Ao Ao 3o Ro Co"), "line 2, hand: expected five cards and a "
                                                 "muestra, got 'Ao Ao 3o Ro Co'"),
    (lambda d: d.update(hand=d["muestra"] + " " + " ".join(d["hand"].split()[1:])),
     "line 2, hand: expected five different cards and the muestra, which only seat 4 holds"),
    (lambda d: d.update(hand="Ao 3o Ro"), "line 2, hand: expected five different cards"),
    (lambda d: d.update(muestra="Xx"), "line 2, hand: expected five cards and a muestra"),
    (lambda d: d.update(advice="bluff"), "line 2, advice: expected one of the calls"),
    (lambda d: d["calls"].update(paso=[0.5, None]), "line 2, calls: expected per allowed call"),
    (lambda d: d["calls"].update(paso=[0.5, 0.5, "x", 0.1, None]), "line 2, calls: expected"),
    (lambda d: d["calls"].update(bluff=[0, 0, 0, 0, None]), "line 2, calls: expected"),
    (lambda d: d.update(calls=[]), "line 2, calls: expected"),
])
def test_a_bad_line_of_a_hands_file_is_one_error_naming_its_field(tmp_path, change, says):
    """Every line of a hands file is read through the lab's reader and checked field
    by field before a chart rests on it."""
    spec = lc.ChartSpec.make("online", seat=1, seed=0, samples=20)
    path = tmp_path / "hands.jsonl"
    lc.value_hands(spec, 2, workers=1, path=str(path))
    first, second = path.read_text().splitlines()
    d = json.loads(second)
    change(d)
    path.write_text(first + "\n" + json.dumps(d) + "\n")
    with pytest.raises(LabError, match=re.escape(says)):
        lc.value_hands(spec, 2, workers=1, path=str(path))


def test_the_dealers_hands_hold_the_muestra(tmp_path):
    """Seat 4 holds the muestra: its hands are read back (and one without it refused)."""
    spec = lc.ChartSpec.make("online", seat=4, seed=0, samples=20)
    path = tmp_path / "hands.jsonl"
    first = lc.value_hands(spec, 2, workers=1, path=str(path))
    assert all(h.muestra in h.hand.split() for h in first)
    assert lc.value_hands(spec, 2, workers=1, path=str(path)) == first
    d = json.loads(path.read_text().splitlines()[1])
    d["hand"] = " ".join(c for c in lc.format_cards(range(20)).split()
                         if c != d["muestra"])[:14]
    path.write_text(path.read_text().splitlines()[0] + "\n" + json.dumps(d) + "\n")
    with pytest.raises(LabError, match="line 2, hand: expected five different cards and the "
                                       "muestra, which only seat 4 holds"):
        lc.value_hands(spec, 2, workers=1, path=str(path))


def test_a_hands_file_with_a_line_too_long_is_refused(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b"x" * (2 << 20))
    spec = lc.ChartSpec.make("online", seat=1, seed=0, samples=20)
    with pytest.raises(LabError, match="line 1: longer than"):
        lc.value_hands(spec, 1, workers=1, path=str(path))


# --- the cells against advise on sampled hands ---------------------------------------------

def test_measure_is_the_agreement_with_advise_on_fresh_hands():
    """The chart's call of each fresh hand against advise's own call on it, recomputed
    here hand by hand: the agreement and the points given up are what measure says."""
    spec = lc.ChartSpec.make("online", seat=1, seed=4, samples=40)   # two bid hands
    chart = lc.build(spec, lc.value_hands(spec, 120, workers=1), min_hands=15)
    fresh = lc.value_hands(replace(spec, samples=60), 12, stream=lc.MEASURE_STREAM, workers=1)
    m = lc.measure(chart, spec, lines=fresh)
    same, lost, bids = 0, [], []
    rules = get_rules("online")
    for i in range(12):
        cards, muestra, seed = lc.hand_of(spec, i, lc.MEASURE_STREAM)
        view = View.bidding(cards, muestra, 1, [], rules)
        a = advise(view, Budget(samples=60, seed=seed, workers=1))
        call = chart.cell_of(view.hand, view.trump).call
        same += call == a.advice
        if call != "paso" or a.advice != "paso":
            bids.append(call == a.advice)
        lost.append(a.option(a.advice).ev_rated - a.option(call).ev_rated)
    assert m.hands == 12
    assert (m.bid_hands, m.bid_same) == (len(bids), sum(bids))
    assert m.agreement == pytest.approx(same / 12, abs=1e-4)
    assert m.given_up == pytest.approx(np.mean(lost), abs=1e-4)
    lo, hi = m.agreement_ci95
    assert lo <= m.agreement <= hi and m.given_up_ci95[0] <= m.given_up


def test_the_shipped_cells_against_advise_on_sampled_hands():
    """Fresh hands (the measuring stream, not the chart's), each given to advise: the
    online chart's call is advise's on most of them, and where it is not, advise's own
    numbers say following the chart costs little."""
    cs = load_charts(PRESETS["online"])
    rules = get_rules("online")
    same, lost, n = 0, [], 0
    for seat in (1, 4):
        chart = cs.find(seat, ("paso",) * (seat - 1))
        spec = lc.ChartSpec.make("online", seat=seat, seed=11)
        for i in range(12):
            cards, muestra, seed = lc.hand_of(spec, i, lc.MEASURE_STREAM)
            view = View.bidding(cards, muestra, seat, ["paso"] * (seat - 1), rules)
            a = advise(view, Budget(samples=150, seed=seed, workers=1))
            call = chart.cell_of(view.hand, view.trump).call
            same += call == a.advice
            lost.append(a.option(a.advice).ev_rated - a.option(call).ev_rated)
            n += 1
    assert same >= 0.75 * n, (same, n)
    assert np.mean(lost) <= 0.1


# --- the shipped charts ---------------------------------------------------------------------

@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_shipped_charts(preset):
    cs = load_charts(PRESETS[preset])
    assert sorted(c.seat for c in cs.charts) == [1, 2, 3, 4]
    prov = cs.provenance
    assert prov["command"].startswith("cuatrola charts") and prov["hands_per_chart"] >= 5000
    assert "Budget(samples=300)" in prov["advise_budget"]
    assert prov["measured"] == lc.pooled([c.measured for c in cs.charts]).to_dict()  # all seats
    for chart in cs.charts:
        assert chart.auction == ("paso",) * (chart.seat - 1) and chart.score is None
        assert sum(c.hands for c in chart.cells.values()) == chart.hands
        small = [c for c in chart.cells.values() if c.hands < chart.min_hands]
        assert not small, [c.label for c in small]
        m = chart.measured
        assert m.hands >= 50 and 0 <= m.agreement <= 1 and m.given_up >= 0
        assert m.bid_same <= m.bid_hands <= m.hands - m.same + m.bid_same
        for cell in chart.cells.values():
            best = max(cell.calls, key=lambda b: getattr(cell.calls[b], chart.value))
            assert getattr(cell.calls[best], chart.value) == pytest.approx(
                getattr(cell.stats, chart.value))


def test_a_corrupt_chart_file_is_one_error(tmp_path):
    good = json.loads(load_charts(PRESETS["online"]).path.read_text())
    bad = tmp_path / "c.json"
    del good["charts"][0]["cells"][0]                     # a class with no cell
    bad.write_text(json.dumps(good))
    with pytest.raises(ModelError, match="do not cover every class once"):
        load_charts(PRESETS["online"], bad)
    r = run("charts", "--chart", str(bad))
    assert r.exit_code == 2 and "corrupt" in r.stderr
    bad.write_text(json.dumps({"version": 1, "rules": "app", "charts": []}))
    r = run("charts", "--chart", str(bad))
    assert r.exit_code == 2 and "for rules 'app', not online" in r.stderr


# --- the command ---------------------------------------------------------------------------

def test_command_shows_the_shipped_charts():
    r = run("charts")
    assert r.exit_code == 0, r.stderr
    for seat in ("seat 1 (mano), first to speak", "seat 2, all passed before",
                 "seat 4 (dealer), all passed before"):
        assert seat in r.stdout
    assert r.stdout.count("outside aces / voids") == 4
    assert "against advise on" in r.stdout
    one = run("charts", "--seat", "3")
    assert one.exit_code == 0 and "advise agrees" in one.stdout and "hands" in one.stdout


def test_command_shows_a_hands_cell():
    r = run("charts", "--seat", "2", "--hand", "Ao 3o Ro Co Ab", "--muestra", "So")
    assert r.exit_code == 0, r.stderr
    assert "4+ triunfos" in r.stdout and "The chart calls" in r.stdout
    j = run("charts", "--seat", "2", "--hand", "Ao 3o Ro Co Ab", "--muestra", "So", "--json")
    cell = json.loads(j.stdout)["cell"]
    chart = load_charts(PRESETS["online"]).find(2, ("paso",))
    assert cell["call"] == chart.cell_of(mask_of(parse_cards("Ao 3o Ro Co Ab")), 0).call


@pytest.mark.parametrize("args,says", [
    (["--hand", "Ao 3o Ro Co Ab"], "--hand and --muestra together"),
    (["--hand", "Ao 3o Ro Co Ab", "--muestra", "So"], "give --seat too"),
    (["--seat", "2", "--auction", "solo"], "make one with --compute"),
    (["--seat", "2", "--auction", "cuatrola quintola"], "bad"),
    (["--out", "x.json"], "go with --compute"),
    (["--plot", "x.pdf"], "ending in .png or .svg"),
    (["--seat", "5"], "bad seat"),
    (["--compute", "--hands", "1000001"], "--hands: input should be less than or equal to 1000000"),
    (["--compute", "--samples", "20001"], "input should be less than or equal to 20000"),
    (["--compute", "--seed", "-1"], "--seed: input should be greater than or equal to 0"),
])
def test_command_errors(args, says):
    r = run("charts", *args)
    assert r.exit_code == 2 and says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_no_output_over_an_input(tmp_path):
    hands = tmp_path / "hands.jsonl"
    hands.write_text("")
    r = run("charts", "--compute", "--seat", "1", "--hands", "5", "--samples", "20",
            "--workers", "1", "--hands-file", str(hands), "--out", str(hands))
    assert r.exit_code == 2 and "is the --hands-file: the output would overwrite" in r.stderr
    assert hands.read_text() == ""
    chart = tmp_path / "c.json"
    chart.write_text(load_charts(PRESETS["online"]).path.read_text())
    r = run("charts", "--chart", str(chart), "--html", str(chart))
    assert r.exit_code == 2 and "is the --chart file" in r.stderr
    r = run("charts", "--html", str(tmp_path / "a.png"), "--plot", str(tmp_path / "a.png"))
    assert r.exit_code == 2 and "the same file" in r.stderr


def test_compute_writes_a_chart_the_command_reads(tmp_path):
    out = tmp_path / "c.json"
    r = run("charts", "--compute", "--seat", "3", "--auction", "paso solo", "--hands", "40",
            "--samples", "20", "--min-hands", "5", "--workers", "1", "--seed", "3",
            "--out", str(out), "--rules", "narro")
    assert r.exit_code == 0, r.stderr
    assert "seat 3, after paso solo" in r.stdout
    data = json.loads(out.read_text())
    assert data["rules"] == "narro" and data["charts"][0]["auction"] == ["paso", "solo"]
    assert "contrasolo" in {b for c in data["charts"][0]["cells"] for b in c["calls"]}
    again = run("charts", "--chart", str(out), "--rules", "narro", "--seat", "3", "--auction",
                "paso solo", "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["charts"][0]["hands"] == 40


def test_a_chart_at_a_score_plays_for_the_match(tmp_path):
    out = tmp_path / "c.json"
    r = run("charts", "--compute", "--seat", "1", "--score", "3-8", "--hands", "30",
            "--samples", "20", "--min-hands", "5", "--workers", "1", "--seed", "1",
            "--out", str(out))
    assert r.exit_code == 0, r.stderr
    assert "score 3-8" in r.stdout and "the call of best P(match) per cell" in r.stdout
    chart = load_charts(PRESETS["online"], out).find(1, (), (3, 8))
    assert chart.value == "p_match"
    for cell in chart.cells.values():
        assert cell.call == max(cell.calls, key=lambda b: cell.calls[b].p_match)
    r = run("charts", "--chart", str(out), "--seat", "1", "--score", "3-8", "--hand",
            "Ao 3o Ro Sc Sb", "--muestra", "Co")
    assert r.exit_code == 0, r.stderr
    cell = chart.cell_of(mask_of(parse_cards("Ao 3o Ro Sc Sb")), 0)
    assert (f"The chart calls {cell.call}: {100 * cell.stats.p_match:.0f}% to win the match"
            in r.stdout)
    assert r.stdout.count("the match") == len(cell.calls)


def test_pictures(tmp_path):
    pytest.importorskip("matplotlib")
    for suffix in (".png", ".svg"):
        path = tmp_path / f"chart{suffix}"
        r = run("charts", "--plot", str(path))
        assert r.exit_code == 0, r.stderr
        assert path.stat().st_size > 10_000
    assert path.read_text().count("<svg") >= 1


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_page_in_chromium(tmp_path):
    page = tmp_path / "charts.html"
    r = run("charts", "--html", str(page))
    assert r.exit_code == 0, r.stderr
    dom = page_dom(page, "charts")
    assert dom.count('<table class="chart">') == 4
    assert "following it gave up" in dom


@pytest.mark.ray
def test_ray_values_the_same_hands():
    ray = pytest.importorskip("ray")
    spec = lc.ChartSpec.make("online", seat=4, seed=2, samples=20)
    local = lc.value_hands(spec, 60, workers=1)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        on_ray = lc.value_hands(spec, 60, ray="auto")
    finally:
        ray.shutdown()
    assert on_ray == local
