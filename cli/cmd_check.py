"""``cuatrola check``: the renuncios and the result of a hand record."""

from __future__ import annotations

import typer

from cuatrola_solver.cards import format_cards
from cuatrola_solver.hand import Hand
from cuatrola_solver.record import format_rules, read_record

from .common import JsonOption, emit_json, read_input, user_errors


def check_report(hand: Hand) -> dict:
    result = hand.result()
    return {"renuncios": [r.to_dict() for r in hand.renuncios],
            "result": result.to_dict() if result else None}


def register(app: typer.Typer) -> None:
    @app.command("check")
    @user_errors
    def check_command(
        record: str = typer.Argument(..., help="A hand record file (JSON or text form), or - for stdin."),
        json_out: bool = JsonOption,
    ) -> None:
        """Check a hand record: every renuncio, and the hand's result."""
        text, where = read_input(record)
        hand = Hand.from_record(read_record(text, where))
        report = check_report(hand)
        if json_out:
            emit_json(report)
            return
        decl = hand.declarer
        who = "" if not decl else " by seat " + " against seat ".join(map(str, decl))
        typer.echo(f"contract: {hand.contract}{who}  (rules: {format_rules(hand.rules)})")
        if not hand.renuncios:
            typer.echo("renuncios: none")
        for r in hand.renuncios:
            typer.echo(f"renuncio: {r.describe()}")
        result = hand.result()
        if result is None:
            done = len(hand.tricks)
            typer.echo(f"result: not decided yet ({done} trick{'s' if done != 1 else ''} played)")
            return
        how = {"play": "after five tricks", "renuncio": "by the first renuncio",
               "early_end": "ended early: the tricks decide it"}[result.ended_by]
        typer.echo(f"result: side {result.winner} scores {result.game_points} ({how})")
        typer.echo(f"points: A {result.points[0]} - B {result.points[1]};  "
                   f"tricks: A {result.tricks[0]} - B {result.tricks[1]}")
