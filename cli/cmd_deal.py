"""``cuatrola deal``: random deals, as records."""

from __future__ import annotations

from typing import Optional

import numpy as np
import typer

from cuatrola_solver.record import HandRecord, write_text

from .common import JsonOption, RulesOption, emit_json, load_rules, user_errors


def random_record(rng: np.random.Generator, rules) -> HandRecord:
    """Shuffle the 20 cards and deal five to each seat; the last one is the muestra."""
    order = [int(c) for c in rng.permutation(20)]
    hands = [sorted(order[5 * i:5 * i + 5]) for i in range(4)]
    return HandRecord(rules=rules, muestra=order[19], hands=hands)


def register(app: typer.Typer) -> None:
    @app.command("deal")
    @user_errors
    def deal_command(
        seed: Optional[int] = typer.Option(None, "--seed", min=0,
                                             help="Seed for reproducible deals."),
        count: int = typer.Option(1, "--count", "-n", min=1, help="How many deals."),
        rules: str = RulesOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Random deals as hand records (JSON lines with --json, else the text form)."""
        rs = load_rules(rules)
        rng = np.random.default_rng(seed)
        for i in range(count):
            rec = random_record(rng, rs)
            if json_out:
                emit_json(rec.to_json_obj())
            else:
                if i:
                    typer.echo("")
                typer.echo(write_text(rec), nl=False)
