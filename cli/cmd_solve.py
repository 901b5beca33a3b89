"""``cuatrola solve``: the double-dummy table of a deal, or of a batch of records."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import IO, Any, Iterator, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.cards import format_card, parse_card, parse_deal
from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.dd.batch import SolveTable, solve_lines, solve_table
from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.i18n import N_, _
from cuatrola_solver.notation.lines import bounded_lines

from .common import (JsonOption, RulesOption, emit_json, fail, load_rules, user_errors,
                     workers_option)
from .render import colour_cards, muestra_text


def render_table(table: SolveTable) -> str:
    rows = [[r.contract, "/".join(map(str, r.declarer)) if r.declarer else "-", r.side, r.tricks,
             "-" if r.margin is None else f"{r.margin:+d}", _("yes") if r.makes else _("no"),
             f"{r.game_points:+d}"] for r in table.rows]
    return str(tabulate(rows, headers=[_("contract"), _("declarer"), _("side"), _("tricks"),
                                   _("margin"), _("makes"), _("game points")],
                    colalign=("left", "center", "center")))


def render(table: SolveTable, muestra: int) -> str:
    """The muestra and rules line, then the table."""
    head = colour_cards(_("{muestra}   rules: {rules}   (double dummy: all cards "
                          "visible, both sides perfect)").format(
        muestra=muestra_text(format_card(muestra)), rules=table.rules.name))
    return head + "\n" + render_table(table)


@user_errors
def solve_command(
    deal: Optional[str] = typer.Argument(
        None, help=N_("The four hands, seats 1 to 4, separated by '/'.")),
    muestra: Optional[str] = typer.Option(None, "--muestra", "-m",
                                          help=N_("The muestra (in seat 4's hand).")),
    batch: Optional[str] = typer.Option(
        None, "--batch", help=N_("A file of JSON lines (record objects), or - for stdin.")),
    keep_going: bool = typer.Option(
        False, "--keep-going", help=N_("With --batch: report each bad line on stderr and go "
        "on (exit 2 at the end if any line was bad).")),
    workers: Optional[int] = workers_option(N_("all cores")),
    rules: str = RulesOption,
    json_out: bool = JsonOption,
) -> None:
    """Double-dummy table: every contract and declarer, all cards visible."""
    default_rules = load_rules(rules)
    if batch is not None:
        if deal is not None:
            fail(_("give either a DEAL or --batch FILE, not both"))
        run_batch(batch, default_rules, workers or os.cpu_count() or 1, keep_going)
        return
    if keep_going:
        fail(_("--keep-going goes with --batch FILE"))
    if deal is None or muestra is None:
        fail(_("give a DEAL (four hands separated by '/') and --muestra, or --batch FILE"))
    card = parse_card(muestra, "(--muestra)")
    table = solve_table(parse_deal(deal), card, default_rules)
    if json_out:
        emit_json(table.to_dict())
    else:
        typer.echo(render(table, card))


def open_lines(path: str) -> tuple[IO[Any], str]:
    """The batch input as bytes (lines are split on b'\\n' only: a bare CR, form feed or
    U+2028 inside a line is part of it; a stdin without bytes gives text), and its name
    for messages."""
    if path == "-":
        stdin = sys.stdin
        if stdin is None or stdin.closed:
            fail(_("cannot read the batch from stdin: it is closed"))
        return getattr(stdin, "buffer", stdin), "stdin"
    try:
        return open(path, "rb"), path
    except FileNotFoundError:
        fail(_("batch file {path} not found").format(path=repr(path)))
    except OSError as e:
        fail(_("cannot read batch file {path}: {reason}").format(path=repr(path),
                                                                 reason=e.strerror or e))
    raise AssertionError  # unreachable


def read_lines(stream: IO[Any], name: str) -> Iterator[bytes | str]:
    """The lines of ``stream``, each at most :data:`MAX_LINE_BYTES` long; a read error or
    a longer line (``< /dev/zero``) is bad input, raised (by ``solve_lines``) after the
    tables of the lines before it."""
    for _number, line in bounded_lines(stream, name, error=CuatrolaError,
                                 what=_("a record of the batch")):
        yield line


def run_batch(path: str, default_rules: RuleSet, workers: int, keep_going: bool) -> None:
    """Solve the JSON lines of ``path``, writing each chunk's tables as soon as it is
    done, in input order.  A bad line stops the batch (exit 2) after the tables of the
    lines before it, or with ``keep_going`` is reported on stderr and skipped (exit 2
    at the end).  A closed pipe on stdout ends the batch quietly (exit 0)."""
    stream, name = open_lines(path)
    out = sys.stdout
    bad = False
    try:
        # stdin stays open: closing it could wait on the reading thread
        with stream if path != "-" else contextlib.nullcontext():
            for results in solve_lines(read_lines(stream, name), name, default_rules, workers):
                for r in results:
                    if r.error is None:
                        out.write(json.dumps(r.report, ensure_ascii=False) + "\n")
                    elif keep_going:
                        bad = True
                        out.flush()
                        typer.echo(f"error: {r.error}", err=True)
                    else:
                        out.flush()
                        fail(r.error)
                out.flush()
    except BrokenPipeError:
        quiet_stdout()
        raise typer.Exit(0)
    if bad:
        raise typer.Exit(2)


def quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null, so that flushing it at exit
    raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
