"""``cuatrola equity``, ``advise --score`` and the bid review with a score: the match
chances through the command line, their JSON and their bad input (exit 2)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from cuatrola_solver.advice import bidding
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.view import View
from cuatrola_solver.models import equity
from cuatrola_solver.models.preset import Models

from helpers import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "analysis"
# the README's hand: seat 2 after a paso, oros trumps
HAND, MUESTRA = "Ac 3c Ro Co Ab", "So"


def json_of(*args: str) -> dict:
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# --- cuatrola equity ------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["online", "narro"])
def test_equity_json(preset):
    d = json_of("equity", "--rules", preset)
    tab = equity.table(preset)
    assert d["schema"] == 1 and d["rules"] == preset
    assert (d["target"], d["win_by"]) == (tab.target, tab.win_by)
    assert d["hand_results"]["deals"] >= 1000
    rows = {(r["mine"], r["theirs"], r["mano"]): r["p_win"] for r in d["rows"]}
    assert len(rows) == len(d["rows"])
    top = tab.target + tab.win_by - 2
    # every open score up to the target, both ways round
    assert {(m, t) for m, t, _ in rows} == {(m, t) for m in range(top + 1)
                                          for t in range(top + 1) if abs(m - t) < tab.win_by
                                          or max(m, t) < tab.target}
    for (m, t, mano), p in rows.items():
        assert p == pytest.approx(1 - rows[(t, m, not mano)])


def test_equity_human_table():
    r = run("equity", "--rules", "narro")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "to 21, win by 2" in out and "2,000 random deals" in out
    assert "Your pair is mano in the next hand" in out and "The other pair is mano" in out
    assert "won" in out and "lost" in out            # 21-19 and 19-21 under win by 2
    assert "From 19-19 on only the lead counts" in out


def test_equity_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "online.png", tmp_path / "narro.svg"
    assert run("equity", "--plot", str(png)).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run("equity", "-r", "narro", "--plot", str(svg), "--json").exit_code == 0
    assert b"<svg" in svg.read_bytes()[:2000]


@pytest.mark.parametrize("args, words", [
    (["--plot", "{tmp}/no/such/folder/x.png"], ["cannot write", "x.png", "no directory"]),
    (["--plot", "{tmp}/table.txt"], ["bad plot file", ".png"]),
    (["--rules", "narro,target=5", "--regenerate", "-o", "{tmp}/r.json"],
     ["--regenerate", "preset"]),
    (["--regenerate"], ["--regenerate needs -o FILE"]),
    (["-o", "{tmp}/r.json"], ["-o FILE goes with --regenerate"]),
    (["--rules", "tute"], ["tute"]),
])
def test_equity_bad_input(tmp_path, args, words):
    pytest.importorskip("matplotlib")
    r = run("equity", *[a.format(tmp=tmp_path) for a in args])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1
    for w in words:
        assert w in r.stderr


def test_equity_plot_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import fails
    r = run("equity", "--plot", str(tmp_path / "x.png"))
    assert r.exit_code == 2 and "needs matplotlib" in r.stderr and "[lab]" in r.stderr


# --- advise --score --------------------------------------------------------------------------

def advise(*extra: str) -> dict:
    return json_of("advise", HAND, "-m", MUESTRA, "-s", "2", "-a", "paso", "-r", "narro",
                   "-n", "2000", "--seed", "1", *extra)


def test_without_a_score_nothing_about_the_match():
    d = advise()
    assert "advice_per_hand" not in d
    assert all("p_match" not in o for o in d["options"])
    r = run("advise", HAND, "-m", MUESTRA, "-s", "2", "-a", "paso", "-n", "300", "--seed", "1")
    assert "match" not in r.stdout.lower()


def test_end_of_match_advice_plays_for_the_match():
    # side B (seat 2) has 18, side A 19, to 21 by 2: a won cuatrola ends the match, a won
    # solo or paso does not; per hand (as played, the advice's own yardstick) solo
    # scores most
    d = advise("--score", "19-18")
    assert d["model"] == "played"
    by = {o["bid"]: o for o in d["options"]}
    hand = d["advice_per_hand"]
    assert hand in ("paso", "solo") and d["advice"] == "cuatrola"
    assert by["cuatrola"]["p_match"] > max(by["solo"]["p_match"], by["paso"]["p_match"]) + 0.05
    assert by[hand]["ev_played"] == max(o["ev_played"] for o in d["options"] if o["allowed"])
    # a cuatrola won wins the match, lost loses it: its match chance is its hand chance
    # as played
    assert by["cuatrola"]["p_match"] == pytest.approx(by["cuatrola"]["p_played"])
    assert all(("p_match" in o) and (o["p_match"] is None) == (not o["allowed"])
               for o in d["options"])
    r = run("advise", HAND, "-m", MUESTRA, "-s", "2", "-a", "paso", "-r", "narro",
            "-n", "2000", "--seed", "1", "--score", "19-18")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Call cuatrola:") and "to win the match" in lines[0]
    # the note quotes the points it chose on (as played), not the double-dummy ones
    m = re.fullmatch(rf"At 19-18 the match comes first: {hand} scores more per hand "
                     r"\(([+-][\d.]+) against ([+-][\d.]+)\) but wins the match (\d+)% of "
                     r"the time, cuatrola (\d+)%\.", lines[1])
    assert m, lines[1]
    shown, other = m.group(1), m.group(2)
    places = len(shown.split(".")[1])       # as many as it takes to tell them apart
    assert shown == f"{by[hand]['ev_played']:+.{places}f}" != other
    assert other == f"{by['cuatrola']['ev_played']:+.{places}f}"
    assert (int(m.group(3)), int(m.group(4))) == (round(100 * by[hand]["p_match"]),
                                                 round(100 * by["cuatrola"]["p_match"]))
    assert "P(match)" in r.stdout
    d = advise("--score", "19-18", "--model", "dd")
    by = {o["bid"]: o for o in d["options"]}
    assert by["cuatrola"]["p_match"] == pytest.approx(by["cuatrola"]["p_win"])
    assert by[d["advice_per_hand"]]["ev"] == max(o["ev"] for o in d["options"] if o["allowed"])


def test_p_match_weighs_the_hand_results_through_the_table():
    a = bidding.advise(View.bidding(parse_cards(HAND), parse_card(MUESTRA), 2, "paso", "narro", Score(11, 9)),
                       Budget(samples=1000, seed=2), Models.NONE)
    tab = equity.table("narro")
    for r in a.options:
        if not r.option.allowed:
            assert r.p_match is None
            continue
        assert sum(p for _, p in r.outcomes) == pytest.approx(1.0)
        assert sum(g * p for g, p in r.outcomes) == pytest.approx(r.ev)
        # seat 2's pair (side B) has 9, the other 11; next hand seat 2's pair is side A
        by_hand = sum(p * (tab.p_win(9 + g, 11, True) if g > 0 else tab.p_win(9, 11 - g, True))
                      for g, p in r.outcomes)
        assert r.p_match == pytest.approx(by_hand)


@pytest.mark.parametrize("rules, score, words", [
    ("online", "12-3", ["'12-3'", "over", "11", "side A"]),
    ("narro", "23-20", ["'23-20'", "over", "lead of 2"]),
    ("app", "4-11", ["'4-11'", "side B"]),
])
def test_advise_refuses_a_finished_match(rules, score, words):
    r = run("advise", HAND, "-m", MUESTRA, "-s", "2", "-r", rules, "--score", score)
    assert r.exit_code == 2 and "Traceback" not in r.output
    for w in words:
        assert w in r.stderr


# --- analyze: the bid review with the record's score -------------------------------------------

def test_bid_review_with_a_score(tmp_path):
    text = (EXAMPLES / "online-blunder.txt").read_text()
    rec = tmp_path / "scored.txt"
    rec.write_text(text.replace('[Auction', '[Score "9-10"]\n[Auction'))
    d = json_of("analyze", str(rec), "--samples", "200", "--seed", "1", "--no-bids")
    assert d["bids"] == []
    d = json_of("analyze", str(rec), "--samples", "200", "--seed", "1")
    assert d["score"] == {"A": 9, "B": 10}
    for b in d["bids"]:
        assert b["advice_per_hand"] in {o["bid"] for o in b["options"]}
        opts = {o["bid"]: o for o in b["options"]}
        best = max(o["p_match"] for o in b["options"] if o["allowed"])
        assert opts[b["advice"]]["p_match"] == best
        assert b["match_loss"] == pytest.approx(best - opts[b["call"]]["p_match"], abs=1e-6)
    r = run("analyze", str(rec), "--samples", "200", "--seed", "1")
    assert r.exit_code == 0 and " match " in r.stdout.split("Play (")[0]
    # the 'match lost' column shows only when a call lost some (no blank column)
    lost = any(b["match_loss"] >= 0.005 for b in d["bids"])
    assert ("match lost" in r.stdout) == lost
    rec.write_text(text.replace('[Auction', '[Score "11-10"]\n[Auction'))
    r = run("analyze", str(rec), "--samples", "200", "--seed", "1")
    assert r.exit_code == 2 and "over" in r.stderr
