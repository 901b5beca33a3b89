"""``cuatrola hint``: the best next card for the seat on turn, from that seat's knowledge."""

from __future__ import annotations

from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver import advisor
from cuatrola_solver.hand import Hand
from cuatrola_solver.record import read_record

from .cmd_advise import progress_bar
from .common import JsonOption, emit_json, fail, read_input, user_errors


def render(report: dict) -> str:
    rows = [[c["card"], f"{100 * c['p_win']:.1f}%", f"{c['tricks']:.2f}",
             "-" if c["margin"] is None else f"{c['margin']:+.1f}"]
            for c in report["cards"]]
    return tabulate(rows, headers=["card", "P(win)", f"tricks ({report['side']})",
                                   f"margin ({report['side']})"], disable_numparse=True)


def register(app: typer.Typer) -> None:
    @app.command("hint")
    @user_errors
    def hint_command(
        record: str = typer.Argument(..., help="An unfinished hand record (JSON or text "
                                     "form), or - for stdin."),
        samples: Optional[int] = typer.Option(
            None, "--samples", "-n", min=1,
            help=f"Deals to sample (default {advisor.DEFAULT_HINT_SAMPLES})."),
        exact: bool = typer.Option(False, "--exact", help="Every consistent deal instead of "
                                   "sampling."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the sampling "
                                           "(reported when not given)."),
        workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                              help="Solver threads (default 1)."),
        json_out: bool = JsonOption,
    ) -> None:
        """The value of each legal card for the seat on turn, from what it knows (best first)."""
        if exact and samples is not None:
            fail("give either --samples N or --exact, not both")
        text, where = read_input(record)
        hand = Hand.from_record(read_record(text, where))
        with progress_bar("hint") as bar:
            result = advisor.hint(hand, exact=exact,
                                  samples=samples or advisor.DEFAULT_HINT_SAMPLES,
                                  seed=seed, workers=workers, progress=bar)
        report = result.to_dict()
        if json_out:
            emit_json(report)
            return
        best = report["cards"][0]
        typer.echo(f"seat {report['seat']}, trick {report['trick']}: play {best['card']} "
                   f"(your side wins {100 * best['p_win']:.0f}%)")
        if report["note"]:
            typer.echo(report["note"])
        how = (f"all {report['deals']:,} consistent deals" if report["exact"] else
               f"{report['deals']:,} sampled deals, seed {report['seed']}")
        typer.echo(f"contract {report['contract']}; {how}; double dummy")
        typer.echo(render(report))
