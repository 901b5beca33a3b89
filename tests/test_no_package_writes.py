"""No command writes into the installed package: the fitting commands (``bidmodel``,
``calibrate --fit``, ``equity --regenerate``) write where ``-o`` says and refuse to run
without it; the shipped models are never overwritten."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cuatrola_solver
from cuatrola_cli.main import app
from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.selfplay import LabConfig

runner = CliRunner()
PACKAGE = Path(cuatrola_solver.__file__).resolve().parent


def package_files() -> dict[str, str]:
    """Every file of the installed package (the models' data among them), hashed."""
    return {str(p.relative_to(PACKAGE)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(PACKAGE.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fit") / "run.jsonl"
    selfplay.run(LabConfig.make("heuristic", "random", seed=8, count=4, odds_samples=20),
                 str(path), workers=1)
    return path


def fitting_commands(records: Path, out: Path) -> list[list[str]]:
    return [["bidmodel", "--deals", "50", "--samples", "20"],
            ["calibrate", str(records), "--fit"],
            ["equity", "-r", "app", "--regenerate", "--deals", "2", "--samples", "4"]]


def test_the_data_files_are_the_ones_hashed():
    names = package_files()
    for kind in ("bids", "played", "hand_results"):
        for preset in ("online", "app", "narro", "italiano"):
            assert f"models/data/{kind}_{preset}.json" in names


@pytest.mark.parametrize("which", [0, 1, 2], ids=["bidmodel", "calibrate-fit", "equity-regenerate"])
def test_a_fitting_command_refuses_without_o_and_writes_only_there(which, records, tmp_path):
    before = package_files()
    args = fitting_commands(records, tmp_path)[which]
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "-o FILE" in r.stderr and "never overwritten" in r.stderr
    out = tmp_path / "model.json"
    r = runner.invoke(app, args + ["-o", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())                 # the file named was written
    assert str(out) in r.stdout + r.stderr             # and named
    assert package_files() == before


def test_the_regenerated_table_is_the_new_results(tmp_path):
    out = tmp_path / "hand_results_app.json"
    r = runner.invoke(app, ["equity", "-r", "app", "--regenerate", "--deals", "2", "--seed",
                            "3", "--samples", "4", "-o", str(out), "--json"])
    assert r.exit_code == 0, r.output
    stored = json.loads(out.read_text())
    assert stored["provenance"]["deals"] == 2 and stored["provenance"]["seed"] == 3
    assert json.loads(r.stdout)["hand_results"]["deals"] == 2
    shipped = json.loads(runner.invoke(app, ["equity", "-r", "app", "--json"]).stdout)
    assert shipped["hand_results"]["deals"] != 2       # the shipped table is unchanged


@pytest.mark.parametrize("args", [["bidmodel", "--deals", "50"], ["equity", "--regenerate"]])
def test_o_into_a_missing_folder_is_refused_before_the_work(args, tmp_path):
    out = tmp_path / "no" / "such" / "m.json"
    r = runner.invoke(app, args + ["-o", str(out)])
    assert r.exit_code == 2 and "no directory" in r.stderr and not out.parent.exists()
