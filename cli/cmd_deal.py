"""``cuatrola deal``: random deals, as records."""

from __future__ import annotations

from typing import Optional

import random

import typer

from cuatrola_solver.i18n import N_

from cuatrola_solver.game.cards import random_deal
from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.notation.record import HandRecord, write_text

from .common import JsonOption, RulesOption, emit_json, load_rules, user_errors


def random_record(rng: random.Random, rules: RuleSet) -> HandRecord:
    """Shuffle the 20 cards and deal five to each seat; the last one is the muestra."""
    hands, muestra = random_deal(rng)
    return HandRecord(rules=rules, muestra=muestra, hands=list(hands))


@user_errors
def deal_command(
    seed: Optional[int] = typer.Option(None, "--seed", min=0,
                                       help=N_("Seed for reproducible deals.")),
    count: int = typer.Option(1, "--count", "-n", min=1, help=N_("How many deals.")),
    rules: str = RulesOption,
    json_out: bool = JsonOption,
) -> None:
    """Random deals as hand records (JSON lines with --json, else the text form)."""
    rs = load_rules(rules)
    rng = random.Random(seed)
    for i in range(count):
        rec = random_record(rng, rs)
        if json_out:
            emit_json(rec.to_json_obj())
        else:
            if i:
                typer.echo("")
            typer.echo(write_text(rec), nl=False)


def register(app: typer.Typer) -> None:
    app.command("deal")(deal_command)
