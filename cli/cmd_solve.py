"""``cuatrola solve``: the double-dummy table of a deal, or of a batch of records."""

from __future__ import annotations

import json
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver import solver
from cuatrola_solver.cards import SUIT_LETTERS, format_card, parse_card, parse_deal
from cuatrola_solver.errors import CuatrolaError, RecordError
from cuatrola_solver.hand import check_deal
from cuatrola_solver.record import record_from_obj
from cuatrola_solver.rules import rules_spec

from .common import JsonOption, RulesOption, emit_json, fail, load_rules, read_input, user_errors
from .render import colour_cards, muestra_text


def table_report(hands, muestra: int, rules) -> dict:
    masks = check_deal(hands, muestra)
    trump = muestra // 5
    return {"rules": rules_spec(rules), "trump": SUIT_LETTERS[trump],
            "results": solver.dd_table(masks, trump, rules)}


def render_table(report: dict) -> str:
    rows = []
    for r in report["results"]:
        decl = r["declarer"]
        decl = "-" if decl is None else ("/".join(map(str, decl)) if isinstance(decl, list) else decl)
        rows.append([r["contract"], decl, r["side"], r["tricks"],
                     "-" if r["margin"] is None else f"{r['margin']:+d}",
                     "yes" if r["makes"] else "no", f"{r['game_points']:+d}"])
    return tabulate(rows, headers=["contract", "declarer", "side", "tricks", "margin",
                                   "makes", "game points"], colalign=("left", "center", "center"))


def register(app: typer.Typer) -> None:
    @app.command("solve")
    @user_errors
    def solve_command(
        deal: Optional[str] = typer.Argument(
            None, help="The four hands, seats 1 to 4, separated by '/'."),
        muestra: Optional[str] = typer.Option(None, "--muestra", "-m",
                                              help="The muestra (in seat 4's hand)."),
        batch: Optional[str] = typer.Option(
            None, "--batch", help="A file of JSON lines (record objects), or - for stdin."),
        rules: str = RulesOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Double-dummy table: every contract and declarer, all cards visible."""
        default_rules = load_rules(rules)
        if batch is not None:
            if deal is not None:
                fail("give either a DEAL or --batch FILE, not both")
            text, where = read_input(batch, "batch")
            for n, line in enumerate(text.splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as e:
                    fail(f"{where}, line {n}: not valid JSON ({e.msg}, column {e.colno})")
                if isinstance(obj, dict) and "rules" not in obj:
                    obj = {**obj, "rules": rules_spec(default_rules)}
                try:
                    rec = record_from_obj(obj, f"{where}, line {n}")
                    report = table_report(rec.hands, rec.muestra, rec.rules)
                except CuatrolaError as e:
                    raise RecordError(f"{where}, line {n}: {e}" if where not in str(e) else str(e)) from None
                typer.echo(json.dumps({"schema": 1, **report}, ensure_ascii=False))
            return
        if deal is None or muestra is None:
            fail("give a DEAL (four hands separated by '/') and --muestra, or --batch FILE")
        report = table_report(parse_deal(deal), parse_card(muestra, "(--muestra)"), default_rules)
        if json_out:
            emit_json(report)
            return
        typer.echo(colour_cards(f"{muestra_text(format_card(parse_card(muestra)))}   rules: "
                                f"{default_rules.name}   (double dummy: all cards visible, "
                                f"both sides perfect)"))
        typer.echo(render_table(report))
