"""``cuatrola check``: the renuncios and the result of a hand record."""

from __future__ import annotations

from typing import Optional

import typer

from cuatrola_solver.cards import format_card
from cuatrola_solver.hand import Hand
from cuatrola_solver.record import format_rules, read_record

from .common import (JsonOption, RecordRulesOption, emit_json, read_input, record_rules,
                     user_errors)
from .render import colour_cards, muestra_text, result_lines


def check_report(hand: Hand) -> dict:
    result = hand.result()
    return {"renuncios": [r.to_dict() for r in hand.renuncios],
            "result": result.to_dict() if result else None}


def register(app: typer.Typer) -> None:
    @app.command("check")
    @user_errors
    def check_command(
        record: str = typer.Argument(..., metavar="RECORD",
                                     help="A hand record file (JSON or text form), or - for stdin."),
        rules: Optional[str] = RecordRulesOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Check a hand record: every renuncio, the result and where its points come from.

        The points are split into the cards of the bazas, the monte and each cante; a
        tie says how it was broken; the match score after the hand is shown when the
        record has one."""
        text, where = read_input(record)
        hand = Hand.from_record(record_rules(read_record(text, where), rules))
        report = check_report(hand)
        if json_out:
            emit_json(report)
            return
        decl = hand.declarer
        who = "" if not decl else " by seat " + " against seat ".join(map(str, decl))
        out = [f"contract: {hand.contract}{who}  (rules: {format_rules(hand.rules)}; "
               f"{muestra_text(format_card(hand.muestra))})"]
        if not hand.renuncios:
            out.append("renuncios: none")
        for r in hand.renuncios:
            out.append(f"renuncio: {r.describe()}")
        result = hand.result()
        out += result_lines(None if result is None else result.to_dict(), len(hand.tricks))
        typer.echo(colour_cards("\n".join(out)))
