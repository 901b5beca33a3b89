"""``cuatrola check``: the renuncios and the result of a hand record."""

from __future__ import annotations

from typing import Optional

import typer

from cuatrola_solver.analysis.check import Check, check
from cuatrola_solver.game.cards import format_card
from cuatrola_solver.i18n import N_, _, ngettext
from cuatrola_solver.notation.record import format_rules, read_record

from .common import (JsonOption, RecordRulesOption, emit_json, read_input, record_rules,
                     user_errors)
from .render import colour_cards, muestra_text, players_line, result_lines


@user_errors
def check_command(
    record: str = typer.Argument(..., metavar="RECORD",
                                 help=N_("A hand record file (JSON or text form), or - "
                                         "for stdin.")),
    rules: Optional[str] = RecordRulesOption,
    json_out: bool = JsonOption,
) -> None:
    """Check a hand record: every renuncio, the result and where its points come from.

    The points are split into the cards of the bazas, the monte and each cante; a
    tie says how it was broken; the match score after the hand is shown when the
    record has one."""
    text, where = read_input(record)
    verdict = check(record_rules(read_record(text, where), rules))
    if json_out:
        emit_json(verdict.to_dict())
        return
    typer.echo(colour_cards("\n".join(check_lines(verdict))))


def register(app: typer.Typer) -> None:
    app.command("check")(check_command)


def check_lines(verdict: Check) -> list[str]:
    """What ``check`` prints of a record replayed: the contract, the players, the hands
    not seen, every renuncio, the result and where its points come from."""
    rec, hand = verdict.record, verdict.hand
    decl = hand.declarer
    who = ("" if not decl else _(" by seat {seat}").format(seat=decl[0]) if len(decl) == 1
           else _(" by seat {seat} against seat {other}").format(seat=decl[0], other=decl[1]))
    out = [_("contract: {contract}{who}  (rules: {rules}; {muestra})").format(
        contract=hand.contract, who=who, rules=format_rules(rec.rules),
        muestra=muestra_text(format_card(rec.muestra)))]
    if any(rec.players):
        out.append(players_line(rec.players))
    if not rec.complete:
        out.append(ngettext("hands not seen: seat {seats} (checked from what was seen)",
                            "hands not seen: seats {seats} (checked from what was seen)",
                            len(rec.unknown_seats)).format(
            seats=", ".join(map(str, rec.unknown_seats))))
    if not verdict.renuncios:
        out.append(_("renuncios: none") if rec.complete else _("renuncios: none seen"))
    for r in verdict.renuncios:
        out.append(_("renuncio: {what}").format(what=r.describe()))
    return out + result_lines(verdict.result, verdict.tricks_played)
