"""What every command shares: reading inputs, the --rules option, JSON output and
turning the library's errors into exit code 2 with a one-line message."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import typer

from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.record import HandRecord, format_rules
from cuatrola_solver.rules import RuleSet, get_rules

SCHEMA = 1

RulesOption = typer.Option(
    "online", "--rules", "-r", metavar="PRESET",
    help="Preset (online, app, narro, italiano), optionally with overrides: "
         "'narro,tie_break=mano'.")
JsonOption = typer.Option(False, "--json", help="Machine output on stdout (schema 1).")
SeedOption = typer.Option(None, "--seed", help="Seed of the sampling (reported when not "
                          "given; unused with --exact).")


def samples_option(help: str):
    return typer.Option(None, "--samples", "-n", min=1, help=help)


def exact_option(note: str = ""):
    return typer.Option(False, "--exact", help="Every consistent deal instead of sampling"
                        + (f" ({note})." if note else "."))


def workers_option(default: str, what: str = "Threads of the solver"):
    return typer.Option(None, "--workers", "-w", min=1, metavar="N",
                        help=f"{what} (default: {default}).")


def check_sampling(exact: bool, samples: int | None) -> None:
    """--samples and --exact ask for two different things: refuse both at once."""
    if exact and samples is not None:
        fail("give either --samples N or --exact, not both")


def fail(message: str) -> None:
    """Print a bad-input message on stderr and exit with code 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def user_errors(func: Callable) -> Callable:
    """Run a command, turning CuatrolaError (bad input) into exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except CuatrolaError as e:
            fail(str(e))

    return wrapper


def load_rules(spec: str) -> RuleSet:
    return get_rules(spec)


#: ``--rules`` of the commands that read a record (check, analyze, hint)
RecordRulesOption = typer.Option(
    None, "--rules", "-r", metavar="PRESET",
    help="Rules for a record without a Rules tag (default online): a preset, optionally "
         "with overrides, 'narro,tie_break=mano'. A record's own Rules tag wins (with a "
         "note on stderr when they differ).")


def record_rules(rec: HandRecord, spec: str | None) -> HandRecord:
    """The record with ``--rules SPEC`` applied: it sets the rules of a record that names
    none; a record's own ``Rules`` tag wins, with a note on stderr when ``SPEC`` differs
    (the record says how the hand was played)."""
    if spec is None:
        return rec
    rules = get_rules(spec)
    if not rec.rules_given:
        return dataclasses.replace(rec, rules=rules)
    if rules != rec.rules:
        typer.echo(f"note: the record's Rules tag ({format_rules(rec.rules)}) is used, not "
                   f"--rules {spec!r}", err=True)
    return rec


def read_input(path: str, what: str = "record") -> tuple[str, str]:
    """The text of a file, or of stdin for '-'; and a name for messages."""
    if path == "-":
        return sys.stdin.read(), "stdin"
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8"), path
    except FileNotFoundError:
        fail(f"{what} file {path!r} not found")
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as e:
        fail(f"cannot read {what} file {path!r}: {e}")
    raise AssertionError  # unreachable


def check_writable(path: Path, suffixes: tuple[str, ...] | None = None) -> None:
    """Exit 2, naming the path, when an output file cannot be written there (checked
    before a long computation) or has a suffix other than ``suffixes``."""
    if path.is_dir():
        fail(f"cannot write {str(path)!r}: it is a directory")
    if suffixes and path.suffix.lower() not in suffixes:
        fail(f"cannot write {str(path)!r}: expected a file name ending in "
             f"{' or '.join(suffixes)}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        fail(f"cannot write {str(path)!r}: no directory {str(parent)!r}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"cannot write {str(path)!r}: permission denied")


def write_output(path: Path, text: str) -> None:
    """Write an output file; exit 2 naming the path when it cannot be written."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        fail(f"cannot write {str(path)!r}: {e.strerror or e}")


def emit_json(obj: dict) -> None:
    typer.echo(json.dumps({"schema": SCHEMA, **obj}, ensure_ascii=False))
