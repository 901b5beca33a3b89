"""Puzzles from your own hands: found in played records, judged exactly, every answer
re-checked here by an exact hint on the puzzle's own record (the other hands unknown),
asked through a pipe by --quiz, drawn in a page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.advice.cardplay import hint
from cuatrola_solver.analysis.puzzles import Puzzle, find_puzzles, positions
from cuatrola_solver.errors import RecordError
from cuatrola_solver.game.cards import format_card, parse_card
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.record import read_record, record_from_obj
from cuatrola_solver.notation.replay import view_of

from helpers import CHROMIUM, page_dom, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "analysis"
BLUNDER = EXAMPLES / "online-blunder.txt"
MONTAR = EXAMPLES / "online-montar.txt"          # decided by a renuncio at trick 3
FAST = ("--max-layouts", "3000")


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory) -> Path:
    """Hands of a random line-up against a heuristic one: mistakes to learn from."""
    out = tmp_path_factory.mktemp("sp") / "games.jsonl"
    r = run("selfplay", "--a", "random", "--b", "heuristic", "--hands", "6", "--out",
            str(out), "--odds-samples", "0", "--workers", "1", "--seed", "3")
    assert r.exit_code == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def found(selfplay) -> dict:
    r = run("puzzles", str(selfplay), str(BLUNDER), *FAST, "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_puzzles_are_found_and_the_search_is_stated(found):
    s = found["search"]
    assert s["records"] == 13 and s["puzzles"] == len(found["puzzles"]) >= 2
    assert s["positions"] >= s["screened"] + s["skipped"] and s["judged"] >= s["puzzles"]
    assert s["skipped"] > 0                       # the early tricks are over 3,000 layouts
    sources = {p["source"].split(",")[0] for p in found["puzzles"]}
    assert str(BLUNDER) in sources               # seat 4's Ae?? of the example


def test_every_answer_is_rechecked_by_an_exact_hint(found):
    """The puzzle's record alone (the other hands unknown) gives the same exact hint:
    the answer is its best card, it leads the second by the margin, the card played
    loses at least the stated share."""
    for p in found["puzzles"]:
        rec = record_from_obj(p["record"])
        assert [h is None for h in rec.hands].count(True) == 3       # only the seat's own
        assert rec.hands[p["seat"] - 1] is not None
        h = hint(view_of(rec, p["seat"]), Budget(exact=True), Models.of(rec.rules, played=False))
        values = {c.card: c.p_win for c in h.cards}
        best = max(values, key=values.get)
        assert format_card(best) == p["answer"]
        assert h.exact and h.deals == p["layouts"]
        ranked = sorted(values.values(), reverse=True)
        assert ranked[0] - ranked[1] >= found["margin"] - 1e-9
        assert ranked[0] - values[parse_card(p["played"])] >= found["min_loss"] - 1e-9
        assert p["p_answer"] == pytest.approx(ranked[0], abs=1e-6)
        assert p["loss"] == pytest.approx(ranked[0] - values[parse_card(p["played"])], abs=1e-6)


def test_the_puzzle_record_is_what_hint_reads(found, tmp_path):
    p = found["puzzles"][0]
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(p["record"]))
    r = run("hint", str(path), "--exact", "--model", "dd", "--json")
    assert r.exit_code == 0, r.stderr
    h = json.loads(r.stdout)
    assert h["seat"] == p["seat"] and h["best"] == p["answer"] and h["deals"] == p["layouts"]


def test_the_view_shows_no_hidden_hand(found):
    """What a puzzle draws is the seat's cards, the muestra and the cards played: the 20
    cards less those are the hidden ones, and none of them is named anywhere."""
    for p in found["puzzles"]:
        shown = p["shown"]
        played = {c for t in shown["tricks"] for _, c in t["cards"]} | {
            c for _, c in shown["current"]}
        assert set(shown["held"]) | played == set(p["record"]["hands"][p["seat"] - 1].split()) \
            | played
        visible = set(shown["held"]) | played | {shown["muestra"]}
        named = set(re.findall(r"\b[A3RCS][oceb]\b", json.dumps(shown) + p["question"]))
        assert named <= visible


def test_positions_skip_forced_cards_and_stop_at_the_first_renuncio():
    rec = read_record(MONTAR.read_text())
    found = list(positions(rec))
    assert found and all(len(v.legal_cards()) > 1 and c in v.legal_cards() for v, c in found)
    # the renuncio is at trick 3: nothing from it on
    assert max(v.trick_number for v, _ in found) <= 3
    blunder = read_record(BLUNDER.read_text())
    assert (4, 4) in {(v.trick_number, v.seat) for v, _ in positions(blunder)}


def test_no_puzzle_below_the_thresholds():
    rec = read_record(BLUNDER.read_text())
    strict = find_puzzles([(rec, "b")], min_loss=0.9, max_layouts=3000)
    assert strict.puzzles == [] and strict.screened > 0
    loose = find_puzzles([(rec, "b")], max_layouts=3000)
    assert [(p.trick, p.seat) for p in loose.puzzles] == [(4, 4)]
    assert loose.puzzles[0].loss >= 0.2 and loose.puzzles[0].margin >= 0.1


def test_out_reads_back_and_a_bad_puzzle_is_refused(found, selfplay, tmp_path):
    out = tmp_path / "p.json"
    r = run("puzzles", str(selfplay), str(BLUNDER), *FAST, "--out", str(out))
    assert r.exit_code == 0, r.stderr
    back = run("puzzles", str(out), "--json")
    assert back.exit_code == 0, back.stderr
    again = json.loads(back.stdout)
    assert [p["answer"] for p in again["puzzles"]] == [p["answer"] for p in found["puzzles"]]
    assert "search" not in again
    bad = json.loads(out.read_text())
    bad["puzzles"][0]["played"] = "Zz"
    out.write_text(json.dumps(bad))
    r = run("puzzles", str(out))
    assert r.exit_code == 2 and "puzzle 1" in r.stderr and "Traceback" not in r.stderr
    d = found["puzzles"][0]
    with pytest.raises(RecordError, match="not the legal cards"):
        Puzzle.from_dict(dict(d, cards=d["cards"][:1]))


def test_human_output_names_the_question_and_the_answer(selfplay):
    r = run("puzzles", str(BLUNDER), *FAST)
    assert r.exit_code == 0, r.stderr
    assert "1 record, " in r.stdout and ": 1 puzzle." in r.stdout
    assert "Seat 4, trick 4, you play card 3 of the trick: what do you play?" in r.stdout
    assert ("answer: Ce. Ce wins 73% of the 12 layouts you could not tell apart, weighted by "
            "how likely the calls and the play were with each (double dummy); Ae, the card "
            "played, 20%") in r.stdout
    assert "you hold: Ae Ce" in r.stdout


def _quiz(stdin: str, *files: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "puzzles", *files,
                           "--quiz"], input=stdin, capture_output=True, text=True,
                          timeout=300, env=env)


def test_quiz_through_a_pipe(tmp_path):
    out = tmp_path / "p.json"
    assert run("puzzles", str(BLUNDER), *FAST, "--out", str(out)).exit_code == 0
    p = _quiz("Zz\nAo\nCe\n", str(out))
    assert p.returncode == 0, p.stderr
    text = p.stdout
    assert "Puzzle 1 of 1" in text and "your card: Zz" in text and "bad card 'Zz'" in text
    assert "you do not hold Ao" in text
    assert "Right. Ce wins 73%" in text and "You found 1 of 1 puzzle (100%)." in text
    wrong = _quiz("Ae\n", str(out))
    assert "The answer is Ce: Ce wins 73%" in wrong.stdout
    assert "You found 0 of 1 puzzle (0%)." in wrong.stdout
    ended = _quiz("", str(out))                    # the end of input ends the quiz
    assert ended.returncode == 0 and "You found 0 of 0 puzzles." in ended.stdout


def test_quiz_refuses_a_renuncio(tmp_path):
    """Seat 3 at trick 1 of the example must beat the Sb led with a basto: Ro would be a
    renuncio (the puzzle is made by hand here, from a sampled hint: the quiz only asks)."""
    rec = read_record(BLUNDER.read_text())
    view, card = next((v, c) for v, c in positions(rec) if (v.trick_number, v.seat) == (1, 3))
    h = hint(view, Budget(samples=40, seed=1), Models.NONE)
    puzzle = Puzzle("by hand", view, card, h.cards, h.deals)
    out = tmp_path / "p.json"
    out.write_text(json.dumps({"puzzles": [puzzle.to_dict()]}))
    q = _quiz(f"Ro\n3e\n{format_card(puzzle.answer)}\n", str(out))
    assert q.returncode == 0, q.stderr
    assert "Ro would be a renuncio: you must follow the suit led (asistir)" in q.stdout
    assert "3e would be a renuncio" in q.stdout
    assert "You found 1 of 1 puzzle (100%)." in q.stdout


def test_bad_input_is_one_line(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"muestra": "3b"}\n{"nope"\n')
    r = run("puzzles", str(bad))
    assert r.exit_code == 2 and "line 1" in r.stderr and "Traceback" not in r.stderr
    r = run("puzzles", str(tmp_path / "missing.txt"))
    assert r.exit_code == 2 and "not found" in r.stderr
    r = run("puzzles", str(BLUNDER), "--model", "xx")
    assert r.exit_code == 2 and "bad --model" in r.stderr


def test_no_output_over_a_record(tmp_path):
    """--out and --html may not replace one of the records read (nor each other)."""
    mine = tmp_path / "mine.txt"
    mine.write_text(BLUNDER.read_text())
    for opt in ("--out", "--html"):
        r = run("puzzles", str(BLUNDER), str(mine), opt, str(mine))
        assert r.exit_code == 2, r.stdout
        assert r.stderr.startswith(f"error: {opt} '") and " is one of the records: the " \
            "output would overwrite what is read" in r.stderr
        assert mine.read_text() == BLUNDER.read_text()
    r = run("puzzles", str(BLUNDER), "--out", str(tmp_path / "p"), "--html", str(tmp_path / "p"))
    assert r.exit_code == 2 and "are the same file" in r.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (.ci/run installs it)")
def test_page_in_chromium(selfplay, tmp_path):
    page = tmp_path / "puzzles.html"
    r = run("puzzles", str(selfplay), str(BLUNDER), *FAST, "--html", str(page))
    assert r.exit_code == 0, r.stderr
    dom = page_dom(page, "puzzles")
    n = len(re.findall(r'<section class="puzzle"', dom))
    assert n >= 2
    assert len(re.findall(r'<div class="answer" hidden', dom)) == n     # answers hidden
    assert dom.count('<button class="show">show the answer</button>') == n
    # the seat's view only: no seat's hand but its own is drawn
    assert "you hold" in dom and "Seat2" not in dom


def test_a_puzzle_says_what_its_layouts_were_weighted_by():
    from cuatrola_solver.analysis.puzzles import _weighted_by_of
    assert _weighted_by_of({"weighted_by": "the calls and the play"}) == "the calls and the play"
    assert _weighted_by_of({"weighted": True}) == "the calls"          # written before
    assert _weighted_by_of({"weighted": False}) == ""
    assert _weighted_by_of({"weighted_by": "the moon", "weighted": True}) == "the calls"
