"""``cuatrola bidmodel``: fit the bid model of a preset (what the calls reveal)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from cuatrola_solver import __version__
from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.i18n import N_, _, count, ngettext, percent, shortest
from cuatrola_solver.lab import fit_bids

from .common import (RulesOption, check_outputs, check_writable, fail, load_rules, user_errors,
                     write_output)
from .progress import progress_bar


def _calls(calls: Path | None, rs: RuleSet, deals: int, seed: int,
           samples: int) -> list[dict[str, Any]]:
    """The calls to fit on: those already in the --calls file, else the advisor's on
    ``deals`` random deals (kept in --calls when given)."""
    if calls is not None and calls.exists():
        return fit_bids.read_calls(calls, rs)
    with progress_bar(_("bids")) as bar:
        rows = fit_bids.advisor_calls(deals, rs, seed, samples, progress=bar)
    if calls is not None:
        try:
            calls.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        except OSError as e:
            fail(_("cannot write --calls {calls!r}: {strerror}")
                  .format(calls=str(calls), strerror=e.strerror))
    return rows


@user_errors
def bidmodel_command(
    rules: str = RulesOption,
    deals: int = typer.Option(2500, "--deals", min=50, max=100_000,
                              help=N_("Random deals the advisor bids on (4 calls each).")),
    seed: int = typer.Option(1, "--seed", min=0, help=N_("Seed of the deals and the advice.")),
    samples: int = typer.Option(300, "--samples", min=20, max=20_000,
                                help=N_("Deals each advice samples (the lab bidder's budget).")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                       help=N_("The model file to write (required: no "
                                       "command writes into the installed package).")),
    calls: Optional[Path] = typer.Option(None, "--calls", help=N_("Keep the advisor's calls "
                                         "in this file (JSON lines), or fit on the calls "
                                         "already in it.")),
) -> None:
    """Fit P(call | hand, seat, calls before) on the advisor bidder's calls.

    The model goes to -o FILE; the one the commands use is the package's, which no
    command changes (docs/lab.md, 'Fitting the models')."""
    rs = load_rules(rules)
    if out is None:
        fail(_("bidmodel needs -o FILE, the model file to write (the shipped model is "
               "never overwritten)"))
    check_writable(out)
    reading = calls is not None and calls.exists()
    if calls is not None and not reading:
        check_writable(calls)
    check_outputs([("-o", out), ("--calls", None if reading else calls)],
                  [("the --calls file", calls if reading else None)])
    rows = _calls(calls, rs, deals, seed, samples)
    if reading:
        deals = len(rows) // 4
    command = "cuatrola bidmodel " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    model, measure = fit_bids.fit_measured(rows, rs, {"command": command.strip(),
                                                      "deals": deals, "seed": seed,
                                                      "samples": samples,
                                                      "lab_version": __version__})
    write_output(out, model.to_json() + "\n", _("cannot write the model to {path}: {reason}"))
    typer.echo(ngettext("bid model for {rules}: {deals} deal, held-out log-loss {loss} (base "
                        "rates {base}), accuracy {accuracy}; written to {out}",
                        "bid model for {rules}: {deals} deals, held-out log-loss {loss} "
                        "(base rates {base}), accuracy {accuracy}; written to {out}",
                        deals).format(
        rules=rs.name, deals=count(deals), loss=shortest(measure.log_loss),
        base=shortest(measure.base_rate_log_loss), accuracy=percent(measure.accuracy, 1),
        out=out))


def register(app: typer.Typer) -> None:
    app.command("bidmodel")(bidmodel_command)
