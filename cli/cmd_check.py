"""``cuatrola check``: the renuncios and the result of a hand record."""

from __future__ import annotations

import typer

from cuatrola_solver.cards import format_cards
from cuatrola_solver.hand import Hand
from cuatrola_solver.record import format_rules, read_record
from cuatrola_solver.view import check_seen

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
        rec = read_record(text, where)
        if rec.complete:
            hand = Hand.from_record(rec)
            report = check_report(hand)
            contract, decl, done = hand.contract, hand.declarer, len(hand.tricks)
        else:
            seen = check_seen(rec, where)
            report = {"unknown_seats": rec.unknown_seats,
                      "renuncios": [r.to_dict() for r in seen.renuncios],
                      "result": seen.result()}
            contract, decl, done = seen.auction.contract, seen.auction.declarer, seen.tricks_done
        if json_out:
            emit_json(report)
            return
        who = "" if not decl else " by seat " + " against seat ".join(map(str, decl))
        typer.echo(f"contract: {contract}{who}  (rules: {format_rules(rec.rules)})")
        if not rec.complete:
            typer.echo(f"hands not seen: seat{'s' if len(rec.unknown_seats) > 1 else ''} "
                       f"{', '.join(map(str, rec.unknown_seats))} (checked from what was seen)")
        if not report["renuncios"]:
            typer.echo("renuncios: none" + ("" if rec.complete else " seen"))
        for r in (hand.renuncios if rec.complete else seen.renuncios):
            typer.echo(f"renuncio: {r.describe()}")
        result = report["result"]
        if result is None:
            typer.echo(f"result: not decided yet ({done} trick{'s' if done != 1 else ''} played)")
            return
        how = {"play": "after five tricks", "renuncio": "by the first renuncio",
               "early_end": "ended early: the tricks decide it"}[result["ended_by"]]
        typer.echo(f"result: side {result['winner']} scores {result['game_points']} ({how})")
        typer.echo(f"points: A {result['points']['A']} - B {result['points']['B']};  "
                   f"tricks: A {result['tricks']['A']} - B {result['tricks']['B']}")
