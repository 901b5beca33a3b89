"""The HTML report and plot (cuatrola_solver.analysis.report): analyze --html (one
self-contained page, opened in headless Chromium) and --plot."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.analysis.report import html_report
from cuatrola_solver.analysis.review import Analysis, analyze
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.record import read_record

from helpers import CHROMIUM, chromium, page_dom, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BLUNDER = EXAMPLES / "analysis" / "online-blunder.txt"
MONTAR = EXAMPLES / "analysis" / "online-montar.txt"        # decided by a renuncio
FAST = ("--samples", "60", "--seed", "1", "--no-bids", "--workers", "1")


@pytest.fixture(scope="module")
def blunder_analysis() -> Analysis:
    return analyze(read_record(BLUNDER.read_text()), Budget(samples=60, seed=1, workers=1),
                   Models.NONE, bids=True)


@pytest.fixture(scope="module")
def blunder_report(blunder_analysis) -> dict:
    return blunder_analysis.to_dict()


def rated(card: dict) -> float | None:
    """The P(win) a card of ``analyze --json`` is rated on: as played with a played-odds
    model, else double dummy."""
    return card["p_played"] if card["p_played"] is not None else card["p_win"]


def test_win_chances_follow_the_hand(blunder_report):
    pts = blunder_report["win_chances"]
    cards = blunder_report["cards"]
    assert len(pts) == len(cards) + 1 and pts[0]["card"] is None
    assert [p["card"] for p in pts[1:]] == [c["card"] for c in cards]
    # double dummy: side B's hand until seat 4's blunder Ae??, side A's after it
    ae = next(i for i, p in enumerate(pts) if p["card"] == "Ae")
    assert pts[ae]["symbol"] == "??" and pts[ae]["label"] == "blunder"
    assert {p["dd"] for p in pts[:ae]} == {0} and {p["dd"] for p in pts[ae:]} == {1}
    # each side's line is seen from its own seats only, never from the other side's
    for p in pts:
        assert p["view_a"] in (None, 1, 3) and p["view_b"] in (None, 2, 4)
        for key in ("knew", "knew_b"):
            assert p[key] is None or 0 <= p[key] <= 1
    assert {p["view_a"] for p in pts} >= {1, 3} and {p["view_b"] for p in pts} >= {2, 4}
    # a chosen card's point is the chance its player gave it, on its side's line
    for p, c in zip(pts[1:], cards):
        assert p["valued"] == (c["kind"] != "forced")
        if c["kind"] == "choice" and not p["decided"]:
            key, view = ("knew", "view_a") if c["side"] == "A" else ("knew_b", "view_b")
            assert p[key] == pytest.approx(rated(c), abs=1e-6) and p[view] == c["seat"]
    # after Ae?? seat 4 knows side B is lost (15%), while seat 1 values its side from its
    # own view: the two lines do not mirror each other
    assert pts[ae]["knew_b"] < 0.3 and pts[ae]["view_a"] == 1
    assert pts[ae]["knew"] + pts[ae]["knew_b"] != pytest.approx(1)
    # the last point is the result: side A won
    assert blunder_report["result"]["winner"] == "A"
    last = pts[-1]
    assert (last["knew"], last["knew_b"], last["dd"], last["decided"]) == (1.0, 0.0, 1, True)
    assert not any(p["decided"] for p in pts[:-1])


def test_win_chances_after_a_renuncio_are_the_result():
    d = analyze(read_record(MONTAR.read_text()), Budget(samples=40, seed=1, workers=1),
                Models.NONE, bids=False).to_dict()
    winner_a = d["result"]["winner"] == "A"
    decided = [p for p, c in zip(d["win_chances"][1:], d["cards"])
               if c["kind"] in ("renuncio", "after_renuncio")]
    assert len(decided) >= 2 and all(p["decided"] for p in decided)
    assert all(p["knew"] == float(winner_a) and p["knew_b"] == float(not winner_a)
               and p["dd"] == int(winner_a) for p in decided)
    assert d["win_chances"][-1]["knew"] == float(winner_a)


def test_page_is_self_contained(blunder_analysis, blunder_report):
    page = html_report(blunder_analysis, "test")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert 'id="graph"' in page and "data-report" in page
    # every card of the deal is drawn from the one drawing of the cards (its sheet
    # inlined), the bid review and the summary are there
    assert page.count('<symbol id="card-') == 21
    for hand in blunder_report["hands"]:
        for c in hand.split():
            assert f'<use href="#card-{c}"/>' in page
    assert "The bidding" in page and "Per seat" in page and "Ae??" in page


#: .ci/run installs chromium and sets this: there the browser tests may not be skipped
REQUIRED = os.environ.get("CUATROLA_REQUIRE_CHROMIUM", "") not in ("", "0")


def test_chromium_is_there_when_required():
    if REQUIRED:
        assert CHROMIUM, "CUATROLA_REQUIRE_CHROMIUM is set but chromium is not installed"


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_page_loads_in_chromium_with_no_console_error_and_draws_the_graph(tmp_path):
    page = tmp_path / "report.html"
    r = run("analyze", str(BLUNDER), *FAST, "--html", str(page))
    assert r.exit_code == 0, r.stderr
    dom = page_dom(page, "report")
    graph = re.search(r'<svg id="graph".*?</svg>', dom, re.S).group(0)
    # a line per side, drawn by the script, over the double-dummy shading of both sides
    for cls in ("line-knew-A", "line-knew-B"):
        assert re.search(rf'<path[^>]*d="M[\d.]+,[\d.]+ L[^"]*"[^>]*class="{cls}"', graph) \
            or re.search(rf'<path[^>]*class="{cls}"[^>]*d="M', graph), cls
    shading = re.findall(r'<rect[^>]*class="dd-([AB])"', graph)
    assert shading == ["B"] * 15 + ["A"] * 5       # from card 15, Ae??, on: side A's
    # the page says what the graph shows, and ends at the result
    assert "from what that side's own players knew" in dom and "The last point is the result" in dom
    assert "the hand is decided: side A scores 1" in dom
    assert len(re.findall(r'<circle[^>]*class="mistake"', graph)) == 2     # 3c? and Ae??
    assert "baza 5" in graph


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_chromium_reports_a_broken_script(tmp_path, blunder_analysis):
    """The check above can fail: a page whose script throws is caught by it."""
    page = tmp_path / "broken.html"
    page.write_text(html_report(blunder_analysis).replace('var R = JSON.parse',
                                                        'nosuchfunction(); var R = JSON.parse'))
    p = chromium("--dump-dom", url=page.as_uri())
    assert not re.search(r'data-report="ok"', p.stdout)
    assert any("CONSOLE" in x and "nosuchfunction" in x for x in p.stderr.splitlines())


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<svg")])
def test_plot_writes_png_and_svg(tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"graph{suffix}"
    r = run("analyze", str(BLUNDER), *FAST, "--plot", str(out))
    assert r.exit_code == 0, r.stderr
    data = out.read_bytes()
    assert magic in data[:400]
    if suffix == ".svg":
        assert b"Ae??" in data                     # the blunder is marked


@pytest.mark.parametrize("option", ["--html", "--plot"])
def test_unwritable_path_exits_2_naming_it(tmp_path, option):
    bad = tmp_path / "no" / "such" / "dir" / ("x.html" if option == "--html" else "x.png")
    r = run("analyze", str(BLUNDER), *FAST, option, str(bad))
    assert r.exit_code == 2
    assert str(bad) in r.stderr and "Traceback" not in r.stderr
    assert not bad.parent.exists()
    r = run("analyze", str(BLUNDER), *FAST, option, str(tmp_path))     # a directory
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_plot_needs_png_or_svg(tmp_path):
    r = run("analyze", str(BLUNDER), *FAST, "--plot", str(tmp_path / "graph.txt"))
    assert r.exit_code == 2 and "graph.txt" in r.stderr and ".png or .svg" in r.stderr


def test_html_and_json_together(tmp_path):
    page = tmp_path / "r.html"
    r = run("analyze", str(BLUNDER), *FAST, "--html", str(page), "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["win_chances"] and page.read_text().startswith("<!DOCTYPE")


def test_html_with_annotate_to_stdout(tmp_path):
    page = tmp_path / "r.html"
    r = run("analyze", str(BLUNDER), *FAST, "--html", str(page), "--annotate", "-")
    assert r.exit_code == 0
    assert r.stdout.startswith('[Rules "online"]') and page.exists()


def test_plot_without_matplotlib_exits_2_before_the_work(tmp_path, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    r = run("analyze", str(BLUNDER), *FAST, "--plot", str(tmp_path / "g.png"))
    assert r.exit_code == 2 and "pip install 'cuatrola-solver[lab]'" in r.stderr
    assert not (tmp_path / "g.png").exists()
