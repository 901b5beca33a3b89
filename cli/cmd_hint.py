"""``cuatrola hint``: the best next card for the seat on turn, from that seat's knowledge."""

from __future__ import annotations

from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver import advisor
from cuatrola_solver.hand import Hand
from cuatrola_solver.record import read_record

from .cmd_advise import progress_bar
from .common import (JsonOption, SeedOption, check_sampling, emit_json, exact_option,
                     read_input, samples_option, user_errors, workers_option)


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
        samples: Optional[int] = samples_option(
            f"Deals to sample (default {advisor.DEFAULT_HINT_SAMPLES})."),
        exact: bool = exact_option(),
        seed: Optional[int] = SeedOption,
        workers: Optional[int] = workers_option("1"),
        json_out: bool = JsonOption,
    ) -> None:
        """The value of each legal card for the seat on turn, from what it knows (best first)."""
        check_sampling(exact, samples)
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
