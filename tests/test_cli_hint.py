"""``cuatrola hint``: from a record (JSON, cantes, bad input, a decided hand) and live,
from a seat's own cards (the opening lead, a seat not on turn)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.notation.record import write_json, write_text
from cuatrola_solver.notation.replay import read_view, record_of

from helpers import deal, run

runner = CliRunner()
LIVE = ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc", "--samples", "60", "--seed", "1",
        "--no-inference", "--model", "dd"]


def test_the_opening_lead_needs_neither_auction_nor_played():
    """The first lead is a decision too; the calls default to all passing
    whether or not cards were played."""
    res = runner.invoke(app, LIVE + ["--seat", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["trick"] == 1 and out["contract"] == "paso"
    assert sorted(c["card"] for c in out["cards"]) == sorted("Sc 3c Se 3e Sb".split())
    view = read_view("Sc 3c Se 3e Sb", "Rc", 1)
    assert view.calls == ("paso",) * 4 and view.to_play == 1
    assert view.legal_cards() == sorted(parse_cards("Sc 3c Se 3e Sb"))


def test_a_seat_not_on_turn_is_told_whose_turn_it_is():
    res = runner.invoke(app, LIVE + ["--seat", "2"])
    assert res.exit_code == 2
    assert res.stderr.strip() == "error: it is seat 1's turn to play, not seat 2's"
    # an auction still going on is said as such
    res = runner.invoke(app, LIVE + ["--seat", "2", "--auction", "paso"])
    assert res.exit_code == 2 and "the auction is not over" in res.stderr


def test_the_opening_lead_through_a_real_pipe():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "cuatrola_cli.main", *LIVE, "--seat", "1"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("seat 1, trick 1: play ") and "contract paso" in done.stdout


def test_help_names_the_values_and_ends_on_a_sentence():
    """Hint --help ended on a dangling 'Or give your cards live:',
    play --help showed FILE for the --save folder, and typer's range hid check_seat."""
    out = runner.invoke(app, ["hint", "--help"], env={"COLUMNS": "200"}).stdout
    assert "Or give your cards live:" not in out
    flat = " ".join(out.replace("│", " ").split())
    assert "the options marked Live (--hand, --muestra, --seat)." in flat
    assert "1<=x<=4" not in out
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"--save\s+DIR", out) and "1<=x<=4" not in out


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# --- hint -------------------------------------------------------------------------------

def record_file(tmp_path, cards: str, form: str = "json"):
    h = HandState(deal("Ao Ro Co Ac Ae / 3c Rc 3e Re Ab / 3o Sc Ce Se 3b / So Cc Rb Cb Sb"),
             parse_card("So"))
    h.pass_all()
    for c in cards.split():
        h.play(parse_card(c))
    path = tmp_path / ("hand.json" if form == "json" else "hand.txt")
    path.write_text(write_json(record_of(h)) if form == "json" else write_text(record_of(h)))
    return str(path)


def test_hint_json(tmp_path):
    path = record_file(tmp_path, "Ac 3c Sc Cc Ao 3e 3o")
    r = run("hint", path, "--json", "--samples", "200", "--seed", "1")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["schema"] == 1 and d["seat"] == 4 and d["trick"] == 2
    assert {"card", "tricks", "margin", "p_win"} <= set(d["cards"][0])
    assert d["best"] == d["cards"][0]["card"]
    assert {c["card"] for c in d["cards"]} == {"So"}          # seat 4 must follow oros
    exact = json.loads(run("hint", path, "--json", "--exact").stdout)
    assert exact["exact"] is True and exact["seed"] is None


def test_hint_human_with_cante(tmp_path):
    path = record_file(tmp_path, "Ac 3c Sc Cc", form="text")
    r = run("hint", path, "--samples", "100", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("seat 1, trick 2: play ")
    assert "sing the 40 in oros" in r.stdout


def test_hint_bad_input(tmp_path):
    done = record_file(tmp_path, "Ac 3c Sc Cc Ao 3e 3o So Ae Re Ce Cb Co Rc Se Sb Ro Ab 3b Rb")
    r = run("hint", done)
    assert r.exit_code == 2 and "over" in r.output
    r = run("hint", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "not found" in r.output
    r = run("hint", done, "--exact", "--samples", "5")
    assert r.exit_code == 2


def test_hint_after_a_renuncio_says_the_hand_is_decided():
    result = runner.invoke(app, ["hint", str(EXAMPLES / "records" / "online-renuncio.json")])
    assert result.exit_code == 2
    assert "decided by the first renuncio" in result.output and "asistir" in result.output
