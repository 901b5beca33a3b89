"""``cuatrola hint``: the best next card for the seat on turn, from that seat's view.

From a record (full, or kept from one seat's side with the other hands unknown), or
live at the table from the seat's own cards: ``--hand --muestra --seat [--auction]
[--played]``."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.cardplay import DEFAULT_HINT_SAMPLES, hint
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import read_view, replay, view_of

from .cmd_advise import progress_bar
from .common import (JsonOption, RecordRulesOption, SeedOption, card_model_note,
                     command_budget, command_constraints, command_models, constrain_option,
                     constraints_line, emit_json, exact_option, fail, load_rules,
                     model_option, read_input, record_rules, samples_option, user_errors,
                     workers_option)


def render(report: dict) -> str:
    played = report.get("model") == "played"
    rows = [[c["card"]] + ([f"{100 * c['p_played']:.1f}%"] if played else [])
            + [f"{100 * c['p_win']:.1f}%", f"{c['tricks']:.2f}",
               "-" if c["margin"] is None else f"{c['margin']:+.1f}"]
            for c in report["cards"]]
    return tabulate(rows, headers=["card"] + (["P(win) played", "P(win) dd"] if played
                                              else ["P(win)"])
                    + [f"tricks ({report['side']})", f"margin ({report['side']})"],
                    disable_numparse=True)


def source_of(record: str | None, hand: str | None, muestra: str | None, seat: int | None,
              auction: str | None, played: str | None, rules: str | None, score: str | None):
    """The seat's View the hint answers for: from a record (by default the seat on turn)
    or from the live options."""
    live = {"--hand": hand, "--muestra": muestra, "--auction": auction, "--played": played,
            "--score": score}
    if record is not None:
        given = [name for name, value in live.items() if value is not None]
        if given:
            fail(f"give a record or the live options, not both ({', '.join(given)} with a record)")
        text, where = read_input(record)
        rec = record_rules(read_record(text, where), rules)
        if seat is None:
            state = replay(rec)
            if rec.complete:
                return View.on_turn(state)
            seat = state.to_play                    # whose turn it is, from the seen side
            if seat is None:
                fail(f"{where}: there is no card to play (the auction is not over, or the "
                     f"hand is)")
        return view_of(rec, seat)
    if hand is None or muestra is None or seat is None:
        missing = [name for name, value in (("--hand", hand), ("--muestra", muestra),
                                            ("--seat", seat)) if value is None]
        fail(f"give a record, or your cards live: missing {', '.join(missing)} "
             f"(e.g. --hand \"Ao 3c Rb Ce Sb\" --muestra 3b --seat 2)")
    return read_view(hand, muestra, seat, auction, played, load_rules(rules or "online"),
                           parse_score(score) if score is not None else None)


def register(app: typer.Typer) -> None:
    @app.command("hint")
    @user_errors
    def hint_command(
        record: Optional[str] = typer.Argument(
            None, metavar="RECORD", help="An unfinished hand record (JSON or text form; "
            "hands not seen may be '?'), or - for stdin; or, instead of a record, your "
            "cards live with the options marked Live (--hand, --muestra, --seat)."),
        hand: Optional[str] = typer.Option(None, "--hand", "-H", help="Live: your five "
                                           "cards as dealt (or the cards you still hold)."),
        muestra: Optional[str] = typer.Option(None, "--muestra", "-m", help="Live: the muestra."),
        seat: Optional[int] = typer.Option(None, "--seat", "-s", metavar="N",
                                           help="Live: your seat, 1-4 (with a record: answer "
                                           "for this seat; default the seat on turn)."),
        auction: Optional[str] = typer.Option(None, "--auction", "-a", help="Live: the four "
                                              "calls (default: all passed)."),
        played: Optional[str] = typer.Option(None, "--played", "-p", help="Live: the cards "
                                             "played so far, as in a record: '1. Sb Ab Cb 3b "
                                             "cante 2 oros 2. Ao'."),
        rules: Optional[str] = RecordRulesOption,
        score: Optional[str] = typer.Option(None, "--score", help="Live: the match score "
                                            "A-B before the hand."),
        samples: Optional[int] = samples_option(
            f"Deals to sample (default {DEFAULT_HINT_SAMPLES})."),
        exact: bool = exact_option(),
        seed: Optional[int] = SeedOption,
        workers: Optional[int] = workers_option("1"),
        no_inference: bool = typer.Option(
            False, "--no-inference", help="Deal the hidden cards as if the calls and the "
            "play said nothing but their hard facts (by default each deal is weighted by "
            "how likely the calls were with it and, where the preset ships a card-play "
            "model, the cards the others played)."),
        model_name: str = model_option("each card's P(win)"),
        constrain: Optional[List[str]] = constrain_option(),
        json_out: bool = JsonOption,
    ) -> None:
        """The value of each legal card for the seat on turn, from what it knows (best first)."""
        budget = command_budget(exact, samples, seed, workers)
        if seat is not None:
            check_seat(seat, "--seat")
        assumed = command_constraints(constrain)
        view = source_of(record, hand, muestra, seat, auction, played, rules,
                         score).assuming(assumed)
        models = command_models(view.rules, model_name, inference=not no_inference)
        note = card_model_note(models.played, view.rules)
        with progress_bar("hint") as bar:
            result = hint(view, budget, models, progress=bar)
        report = result.to_dict()
        if json_out:
            emit_json(report)
            return
        if not report["cards"]:             # a cante before another seat leads
            typer.echo(f"seat {report['seat']}, after trick {report['trick'] - 1}: "
                       f"{report['note']}")
            typer.echo(f"contract {report['contract']}; {report['deals']:,} sampled deals, "
                       f"seed {report['seed']}; double dummy")
            line = constraints_line(report)
            if line:
                typer.echo(line)
            return
        best = report["cards"][0]
        typer.echo(f"seat {report['seat']}, trick {report['trick']}: play {best['card']} "
                   + (f"(your side wins {100 * best['p_played']:.0f}% at the table, "
                      f"{100 * best['p_win']:.0f}% double dummy)" if "p_played" in best
                      else f"(your side wins {100 * best['p_win']:.0f}%)"))
        if report["note"]:
            typer.echo(report["note"])
        how = (f"PIMC over all {report['deals']:,} consistent deals" if report["exact"] else
               f"PIMC over {report['deals']:,} sampled deals, seed {report['seed']}")
        if report.get("effective_deals") is not None:
            what = ("the calls and the play" if models.cards is not None and view.plays
                    else "the calls")
            how += f", weighted by {what} (worth {report['effective_deals']:,.0f} deals)"
        typer.echo(f"contract {report['contract']}; {how}; "
                   + ("played odds (the preset's self-play model) beside double dummy"
                      if report["model"] == "played" else "double dummy"))
        line = constraints_line(report)
        if line:
            typer.echo(line)
        if note:
            typer.echo(note)
        typer.echo(render(report))
