"""``cuatrola bench``: the solver benchmark of DESIGN.md."""

from __future__ import annotations

import typer

from cuatrola_solver.bench import format_bench, run_bench

from .common import JsonOption, RulesOption, emit_json, load_rules, user_errors

#: the most deals per case: a few seconds each, memory a few MB
MAX_BENCH_DEALS = 100_000
#: the reference solver is some 200 times slower (seconds a deal over the cases)
MAX_REFERENCE_DEALS = 100


def register(app: typer.Typer) -> None:
    @app.command("bench")
    @user_errors
    def bench_command(
        deals: int = typer.Option(2000, "--deals", min=1, max=MAX_BENCH_DEALS,
                                  help="Seeded deals per case."),
        seed: int = typer.Option(1, "--seed", min=0, help="Seed of the deals."),
        reference_deals: int = typer.Option(
            20, "--reference-deals", min=0, max=MAX_REFERENCE_DEALS,
            help="Deals for the (slow) reference solver; 0 skips it."),
        rules: str = RulesOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Benchmark the solver on fixed seeded deals, one core (µs and nodes per deal)."""
        result = run_bench(deals=deals, seed=seed, include_reference=reference_deals > 0,
                           reference_deals=reference_deals, rules=load_rules(rules))
        if json_out:
            emit_json(result)
        else:
            typer.echo(format_bench(result))
