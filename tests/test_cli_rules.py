"""``cuatrola rules``: every preset and parameter, the table at the width of the
terminal, the text form."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from cuatrola_cli.cmd_rules import _show
from cuatrola_cli.main import app
from cuatrola_solver.errors import RulesError
from cuatrola_solver.game.rules import PARAMETERS, PRESETS, get_rules

from helpers import run

runner = CliRunner()


def test_rules_lists_every_preset_and_parameter():
    r = run("rules", "--json")
    out = json.loads(r.stdout)
    assert set(out["presets"]) == {"online", "app", "narro", "italiano"}
    assert out["presets"]["narro"]["renuncio_penalty"] == "double"
    assert "tie_break" in out["parameters"]
    one = runner.invoke(app, ["rules", "narro,tie_break=mano"], env={"COLUMNS": "250"})
    assert one.exit_code == 0 and "tie_break changed" in one.stdout
    assert "El renuncio se paga doble" in one.stdout
    bad = run("rules", "poker")
    assert bad.exit_code == 2 and "unknown preset 'poker'" in bad.output


@pytest.mark.parametrize("columns", [80, 120, 200])
def test_rules_fits_the_terminal(columns):
    for args in (["rules"], ["rules", "narro"]):
        out = run(*args, columns=columns).stdout
        widest = max(len(line) for line in out.splitlines())
        assert widest <= max(columns, 90), (args, columns, widest)   # 80: 4 presets need ~86
    assert max(len(x) for x in run("rules", columns=200).stdout.splitlines()) > 120


@pytest.mark.parametrize("columns", [80, 100])
def test_rules_never_cuts_a_word(columns):
    """At 80 columns 'exact_target' came out as 'exact_t' / 'arget'.  A value
    may break after '_' or ',', prose between words; nothing else."""
    from cuatrola_cli.cmd_rules import _show
    from cuatrola_solver.game.rules import PARAMETERS, PRESETS
    pieces = set()
    for p in PARAMETERS.values():
        texts = [p.name, p.meaning, *p.sources.values()] + [_show(getattr(r, p.name))
                                                              for r in PRESETS.values()]
        for word in (w for text in texts for w in str(text).split()):
            cs = re.findall(r"[^_,]+[_,]?|[_,]", word)     # a line holds a run of them
            pieces |= {"".join(cs[i:j]) for i in range(len(cs)) for j in range(i + 1, len(cs) + 1)}
    pieces |= {"parameter", "value", "meaning", "source", "(rule", "document)", "(seed)",
               "rules:", "narro"} | set(PRESETS)
    for args in (["rules"], ["rules", "narro"]):
        out = run(*args, columns=columns).stdout
        words = {w for line in out.splitlines() for w in line.split() if set(w) != {"-"}}
        assert words <= pieces, sorted(words - pieces)[:10]


# --- the rules text form ---------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_reads_back_as_rules_shows_it(name):
    preset = PRESETS[name]
    shown = ",".join(f"{p}={_show(getattr(preset, p))}" for p in PARAMETERS if p != "name")
    assert get_rules(f"{name.upper()},{shown}") == preset


def test_rules_lists_and_case():
    assert get_rules("Online") == PRESETS["online"]
    assert get_rules("ONLINE,Tie_Break=Mano").tie_break == "mano"
    assert get_rules("online,cantes_in=paso,solo,cuatrola").cantes_in == (
        "paso", "solo", "cuatrola")
    assert get_rules("narro,cante_after_tricks=1,2,target=15").cante_after_tricks == (1, 2)
    with pytest.raises(RulesError, match="expected NAME=VALUE"):
        get_rules("online,tie_break=mano,solo")       # tie_break is not a list
    r = run("rules", "online,cantes_in=paso,solo,cuatrola")
    assert r.exit_code == 0 and "online with cantes_in changed" in r.stdout
