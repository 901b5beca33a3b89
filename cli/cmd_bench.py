"""``cuatrola bench``: the solver benchmark (docs/benchmark.md)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.lab.bench import (format_answers_bench, format_bench, format_players_bench,
                                       run_answers_bench, run_bench, run_players_bench)
from cuatrola_solver.i18n import N_, _, count, ngettext

from .common import JsonOption, RulesOption, emit_json, fail, load_rules, user_errors

#: the most deals per case: a few seconds each, memory a few MB
MAX_BENCH_DEALS = 100_000
#: the reference solver is some 200 times slower (seconds a deal over the cases)
MAX_REFERENCE_DEALS = 100


def answers_bench(workers: int | None, json_out: bool) -> None:
    """Time the answers a player waits for (``--answers``)."""
    examples = sorted(p for p in Path("examples/analysis").glob("*.txt")
                      if not p.name.endswith(".analysis.txt"))
    rows = run_answers_bench(workers=workers, examples=[str(p) for p in examples],
                             progress=lambda m: typer.echo(f"bench: {m}", err=True))
    if json_out:
        emit_json({"answers": rows})
    else:
        typer.echo(format_answers_bench(rows))


def players_bench(hands: int, specs: list[str], seed: int, rules: str, json_out: bool) -> None:
    """Time the card play of each player of ``specs`` over ``hands`` seeded hands."""
    for spec in specs:
        parse_player(spec)                  # every spec read before any work
    results = []
    for spec in specs:
        typer.echo(ngettext("bench: {player}, {n} hand", "bench: {player}, {n} hands",
                            hands).format(player=spec, n=count(hands)), err=True)
        results.append(run_players_bench(hands=hands, seed=seed, rules=load_rules(rules),
                                         player=spec))
    if json_out:
        emit_json({"players": results})
    else:
        for p in results:
            typer.echo(format_players_bench(p))


def solver_bench(deals: int, seed: int, reference: bool, reference_deals: int, rules: str,
                 json_out: bool) -> None:
    """Time the solver on fixed seeded deals (and the reference, with ``reference``)."""
    result = run_bench(deals=deals, seed=seed, include_reference=reference,
                       reference_deals=reference_deals, rules=load_rules(rules),
                       progress=lambda message: typer.echo(f"bench: {message}", err=True))
    if json_out:
        emit_json(result)
    else:
        typer.echo(format_bench(result))


@user_errors
def bench_command(
    deals: int = typer.Option(2000, "--deals", min=1, max=MAX_BENCH_DEALS,
                              help=N_("Seeded deals per case.")),
    seed: int = typer.Option(1, "--seed", min=0, help=N_("Seed of the deals.")),
    reference: bool = typer.Option(
        False, "--reference", help=N_("Also time the pure-Python reference solver (slow: "
        "up to a second per deal) and check that it gives the same answers.")),
    reference_deals: int = typer.Option(
        5, "--reference-deals", min=0, max=MAX_REFERENCE_DEALS,
        help=N_("Deals for the reference, with --reference (0: none).")),
    players: int = typer.Option(
        0, "--players", min=0, max=1000, help=N_("Time the card play of players instead "
        "(--player, default pimc) over the cards of this many seeded hands of four "
        "such players.")),
    player: List[str] = typer.Option(
        [], "--player", metavar="SPEC", help=N_("With --players: a player to time, as "
        "selfplay names them (repeat for several; default pimc).")),
    answers: bool = typer.Option(
        False, "--answers", help=N_("Instead, time the answers a player waits for: advise "
        "--exact for every preset and seat, hint --exact at trick 2, the start-up of "
        "--help, rules and the default advise, analyze of examples/analysis/ (whole "
        "processes); wall and CPU seconds against their targets.")),
    workers: Optional[int] = typer.Option(
        None, "--workers", "-w", min=1, max=64, metavar="N",
        help=N_("With --answers: threads of the solver (default: all cores).")),
    rules: str = RulesOption,
    json_out: bool = JsonOption,
) -> None:
    """Benchmark the solver on fixed seeded deals, one core (µs and nodes per deal)."""
    if player and not players:
        fail(_("--player needs --players N, the hands to time it over"))
    if answers:
        answers_bench(workers, json_out)
    elif players:
        players_bench(players, player or ["pimc"], seed, rules, json_out)
    else:
        solver_bench(deals, seed, reference, reference_deals, rules, json_out)


def register(app: typer.Typer) -> None:
    app.command("bench")(bench_command)
