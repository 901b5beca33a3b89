"""``cuatrola cardmodel``: fit the card-play model of a preset (what the cards played
reveal) on self-play records."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import List, Optional

import typer

from cuatrola_solver import __version__
from cuatrola_solver.lab import fit_cards
from cuatrola_solver.i18n import N_, _, count, ngettext, percent, shortest

from .common import (RulesOption, check_outputs, check_writable, fail, load_rules, user_errors,
                     write_output)


@user_errors
def cardmodel_command(
    records: List[Path] = typer.Argument(..., metavar="RECORDS", help=N_("Self-play "
                                         "records (selfplay --out files) of the preset.")),
    rules: str = RulesOption,
    seed: int = typer.Option(1, "--seed", min=0, help=N_("Seed of the held-out hands.")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                       help=N_("The model file to write (required: no "
                                       "command writes into the installed package).")),
) -> None:
    """Fit P(card | what the seat saw) on the cards the self-play players chose.

    A fifth of the hands (drawn with --seed) is held out to choose the model's floor
    and measure it against the uniform choice among the legal cards; the model is
    then fitted on every hand and goes to -o FILE."""
    rs = load_rules(rules)
    if out is None:
        fail(_("cardmodel needs -o FILE, the model file to write (the shipped model is "
               "never overwritten)"))
    check_writable(out)
    check_outputs([("-o", out)], [("a records file", r) for r in records])
    hands, sources = fit_cards.read_decisions([str(r) for r in records], rs)
    command = "cuatrola cardmodel " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    model, m = fit_cards.fit_measured(hands, rs, {"command": command.strip(),
                                                  "records": sources,
                                                  "lab_version": __version__}, seed=seed)
    write_output(out, model.to_json() + "\n", _("cannot write the model to {path}: {reason}"))
    typer.echo(ngettext("card-play model for {rules}: {hands} hand, {cards} cards with a "
                        "choice; held out {held_cards} cards of {held_hands} hands: log-loss "
                        "{loss} (uniform over the legal cards {uniform_loss}), accuracy "
                        "{accuracy} (uniform {uniform}); written to {out}",
                        "card-play model for {rules}: {hands} hands, {cards} cards with a "
                        "choice; held out {held_cards} cards of {held_hands} hands: log-loss "
                        "{loss} (uniform over the legal cards {uniform_loss}), accuracy "
                        "{accuracy} (uniform {uniform}); written to {out}",
                        m.hands).format(
        rules=rs.name, hands=count(m.hands), cards=count(m.cards_fitted),
        held_cards=count(m.held_out_cards), held_hands=count(m.held_out_hands),
        loss=shortest(m.log_loss), uniform_loss=shortest(m.uniform_log_loss),
        accuracy=percent(m.accuracy, 1), uniform=percent(m.uniform_accuracy, 1), out=out))


def register(app: typer.Typer) -> None:
    app.command("cardmodel")(cardmodel_command)
