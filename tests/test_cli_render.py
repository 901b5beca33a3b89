"""What the commands print (cuatrola_cli.render): the muestra's words, grammar, colour
on a terminal only."""

from __future__ import annotations

import io
import re
from pathlib import Path

from cuatrola_cli.render import colour_cards, muestra_text, use_colour

from helpers import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


NARRO = EXAMPLES / "records" / "narro-solo.txt"               # a cante, a match score


# --- words and colour ----------------------------------------------------------------

def test_muestra_text_names_the_triunfo():
    assert muestra_text("3b") == "muestra 3b (triunfo bastos)"
    r = run("solve", "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab",
            "--muestra", "Ab")
    assert "muestra Ab (triunfo bastos)" in r.stdout


def test_auction_count_message_grammar():
    r = run("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "3", "--auction", "paso")
    assert r.exit_code == 2
    assert "1 call given, but seats 1 and 2 speak before seat 3" in r.stderr


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(_Tty()) and not use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Tty())
    coloured = colour_cards("seat 1: Ao 3c Re Sb", enabled=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == "seat 1: Ao 3c Re Sb"
    assert coloured.count("\x1b[0m") == 4
    assert "\x1b[33mAo" in coloured and "\x1b[31m3c" in coloured
    assert colour_cards("3c", enabled=False) == "3c"
    assert "\x1b[" not in run("check", str(NARRO)).stdout          # piped: plain
