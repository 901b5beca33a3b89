"""``cuatrola hint`` live, from a seat's own cards: the opening lead, a seat not on turn."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.cards import parse_cards
from cuatrola_solver.game.view import View
from cuatrola_solver.notation.replay import read_view

runner = CliRunner()
LIVE = ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc", "--samples", "60", "--seed", "1",
        "--no-inference", "--model", "dd"]


def test_the_opening_lead_needs_neither_auction_nor_played():
    """Issue 19: the first lead is a decision too; the calls default to all passing
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
    """Issue 19, item 10: hint --help ended on a dangling 'Or give your cards live:',
    play --help showed FILE for the --save folder, and typer's range hid check_seat."""
    out = runner.invoke(app, ["hint", "--help"], env={"COLUMNS": "200"}).stdout
    assert "Or give your cards live:" not in out
    flat = " ".join(out.replace("│", " ").split())
    assert "the options marked Live (--hand, --muestra, --seat)." in flat
    assert "1<=x<=4" not in out
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"--save\s+DIR", out) and "1<=x<=4" not in out
