"""``cuatrola play`` driven through stdin, as a pipe would."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.cards import format_card
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import replay

runner = CliRunner()

# An answer for every prompt: 'paso' for a call, 'no' for a cante, then every card in
# turn: the prompt refuses what it cannot take and asks again, so each card prompt
# ends on a legal card.
ANSWERS = "\n".join(["paso", "no"] + [format_card(c) for c in range(20)]) + "\n"


def test_a_whole_hand_through_stdin(tmp_path):
    res = runner.invoke(app, ["play", "--seat", "3", "--bots", "heuristic", "--seed", "4",
                              "--save", str(tmp_path)], input=ANSWERS * 12)
    assert res.exit_code == 0, res.output
    assert "hand 1 over:" in res.output
    assert "would be a renuncio" in res.output or "you do not hold" in res.output
    saved = list(tmp_path.iterdir())
    assert len(saved) == 1
    hand = replay(read_record(saved[0].read_text()))
    assert hand.result() is not None and not hand.renuncios
    # the points split into cards, monte and cantes, as check shows them
    out = res.output
    assert "  result: side " in out and "    cards: A " in out and "    monte: " in out
    bd = hand.points_breakdown()
    assert f"    cards: A {bd.cards[0]} - B {bd.cards[1]}" in out


def test_end_of_input_ends_cleanly(tmp_path):
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "1"], input="")
    assert res.exit_code == 0 and "end of input: game over" in res.output


def test_a_match_through_a_real_pipe(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "play", "--match",
                           "--bots", "random,heuristic,random", "--seed", "2", "--seat", "2",
                           "--save", str(tmp_path)], input=ANSWERS * 400, text=True,
                          capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "match over:" in proc.stdout and "Traceback" not in proc.stderr
    assert "\x1b[" not in proc.stdout          # no colour codes when piped
    saved = sorted(tmp_path.iterdir())
    assert len(saved) == proc.stdout.count(" over:\n") >= 2


def test_bad_bots_exit_2():
    res = runner.invoke(app, ["play", "--bots", "pimc,oracle,random"], input="")
    assert res.exit_code == 2 and "oracle" in res.output
    res = runner.invoke(app, ["play", "--bots", "pimc,random"], input="")
    assert res.exit_code == 2 and "three" in res.output


def test_hints_before_each_decision():
    res = runner.invoke(app, ["play", "--seat", "1", "--bots", "heuristic", "--seed", "5",
                              "--hints"], input=ANSWERS * 12)
    assert res.exit_code == 0, res.output
    assert "hint: advice " in res.output            # the call
    hints = [x for x in res.output.splitlines() if x.startswith("  hint: ") and "%" in x]
    assert any("wins" in x for x in hints) and any("wins" not in x for x in hints)
