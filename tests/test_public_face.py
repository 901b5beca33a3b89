"""The package's face: ``import cuatrola_solver as cs`` gives the everyday names, and the
library's defaults are the command's (the same numbers)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import cuatrola_solver as cs
from cuatrola_cli.main import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def cli_json(*args: str) -> dict:
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    del d["schema"]
    return d


def test_every_name_of_the_face_resolves():
    assert len(cs.__all__) == len(set(cs.__all__))
    for name in cs.__all__:
        assert getattr(cs, name) is not None, name
    assert set(cs.__all__) <= set(dir(cs))


def test_an_unknown_name_is_an_attribute_error():
    try:
        cs.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("no AttributeError")


def test_import_is_cheap_until_a_name_is_used():
    code = ("import sys, cuatrola_solver; print(sorted(m for m in sys.modules "
            "if m.startswith(('numpy', 'cuatrola_solver.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_advise_from_python_gives_the_command_s_numbers():
    view = cs.View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    lib = cs.advise(view, cs.Budget(seed=1)).to_dict()
    cmd = cli_json("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2",
                   "--auction", "paso", "--seed", "1")
    assert lib == cmd and lib["model"] == "played" and "effective_deals" in lib


def test_hint_from_python_gives_the_command_s_numbers():
    path = ROOT / "examples" / "advice" / "hint-trick3.txt"
    rec = cs.read_record(path.read_text())
    view = cs.View.on_turn(cs.replay(rec))
    lib = cs.hint(view, cs.Budget(seed=1)).to_dict()
    assert lib == cli_json("hint", str(path), "--seed", "1")
    assert lib["model"] == "played" and "effective_deals" in lib


def test_analyze_from_python_gives_the_command_s_numbers():
    path = ROOT / "examples" / "analysis" / "online-blunder.txt"
    lib = cs.analyze(cs.read_record(path.read_text()), cs.Budget(samples=100, seed=1))
    assert lib.to_dict() == cli_json("analyze", str(path), "--samples", "100", "--seed", "1")


def test_models_none_is_double_dummy_with_no_inference():
    view = cs.View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    lib = cs.advise(view, cs.Budget(samples=2000, seed=1), cs.Models.NONE).to_dict()
    cmd = cli_json("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2",
                   "--auction", "paso", "--seed", "1", "--samples", "2000", "--model", "dd",
                   "--no-inference")
    assert lib == cmd and lib["model"] == "dd" and "effective_deals" not in lib


def test_the_examples_use_only_the_face():
    for path in (ROOT / "examples").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("cuatrola_solver."), (path, node.module)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("cuatrola_solver."), (path, alias.name)


def test_the_python_example_runs_and_gives_the_command_s_advice():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "advise_api.py")],
                         capture_output=True, text=True, check=True).stdout
    cmd = cli_json("advise", "Ac 3c Rc Ce Ao", "--muestra", "3e", "--seat", "1", "--seed", "1")
    assert out.splitlines()[0] == f"{cmd['deals']} deals, seed 1: advice {cmd['advice']}"
    first = cmd["options"][0]
    assert f"P(win) {first['p_played']:.3f} as played, {first['p_win']:.3f} double dummy" in out


def test_the_readme_s_python_lines_run():
    """The ``python`` block of the README, run as it is written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code.replace("cs.Budget(exact=True)", "cs.Budget(samples=200, seed=1)"),
                 "README.md", "exec"), namespace)
    assert namespace["advice"].advice == cli_json(
        "advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--auction", "paso",
        "--seed", "1")["advice"]
