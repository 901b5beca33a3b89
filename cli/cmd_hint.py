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
from cuatrola_solver.i18n import _, count, decimal, ngettext, percent, signed
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import read_view, replay, view_of

from .progress import progress_bar
from .common import (JsonOption, RecordRulesOption, SeedOption, card_model_note,
                     command_budget, command_constraints, command_models, constrain_option,
                     constraints_line, emit_json, exact_option, fail, load_rules,
                     model_option, read_input, record_rules, samples_option, user_errors,
                     workers_option)


def render(report: dict) -> str:
    played = report.get("model") == "played"
    rows = [[c["card"]] + ([percent(c["p_played"], 1)] if played else [])
            + [percent(c["p_win"], 1), decimal(c["tricks"]),
               "-" if c["margin"] is None else signed(c["margin"], 1)]
            for c in report["cards"]]
    return tabulate(rows, headers=[_("card")] + ([_("P(win) played"), _("P(win) dd")] if played
                                                 else [_("P(win)")])
                    + [_("tricks ({side})").format(side=report["side"]),
                       _("margin ({side})").format(side=report["side"])],
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
            fail(_("give a record or the live options, not both ({options} with a record)")
                 .format(options=", ".join(given)))
        text, where = read_input(record)
        rec = record_rules(read_record(text, where), rules)
        if seat is None:
            state = replay(rec)
            if rec.complete:
                return View.on_turn(state)
            seat = state.to_play                    # whose turn it is, from the seen side
            if seat is None:
                fail(_("{where}: there is no card to play (the auction is not over, or the "
                       "hand is)").format(where=where))
        return view_of(rec, seat)
    if hand is None or muestra is None or seat is None:
        missing = [name for name, value in (("--hand", hand), ("--muestra", muestra),
                                            ("--seat", seat)) if value is None]
        fail(_("give a record, or your cards live: missing {options} (e.g. --hand \"Ao 3c Rb "
               "Ce Sb\" --muestra 3b --seat 2)").format(options=", ".join(missing)))
    return read_view(hand, muestra, seat, auction, played, load_rules(rules or "online"),
                           parse_score(score) if score is not None else None)


def register(app: typer.Typer) -> None:
    @app.command("hint")
    @user_errors
    def hint_command(
        record: Optional[str] = typer.Argument(
            None, metavar="RECORD", help=_("An unfinished hand record (JSON or text form; "
            "hands not seen may be '?'), or - for stdin; or, instead of a record, your "
            "cards live with the options marked Live (--hand, --muestra, --seat).")),
        hand: Optional[str] = typer.Option(None, "--hand", "-H", help=_(
            "Live: your five cards as dealt (or the cards you still hold).")),
        muestra: Optional[str] = typer.Option(None, "--muestra", "-m",
                                              help=_("Live: the muestra.")),
        seat: Optional[int] = typer.Option(None, "--seat", "-s", metavar="N", help=_(
            "Live: your seat, 1-4 (with a record: answer for this seat; default the seat "
            "on turn).")),
        auction: Optional[str] = typer.Option(None, "--auction", "-a", help=_(
            "Live: the four calls (default: all passed).")),
        played: Optional[str] = typer.Option(None, "--played", "-p", help=_(
            "Live: the cards played so far, as in a record: '1. Sb Ab Cb 3b cante 2 oros "
            "2. Ao'.")),
        rules: Optional[str] = RecordRulesOption,
        score: Optional[str] = typer.Option(None, "--score", help=_(
            "Live: the match score A-B before the hand.")),
        samples: Optional[int] = samples_option(
            _("Deals to sample (default {n}).").format(n=DEFAULT_HINT_SAMPLES)),
        exact: bool = exact_option(),
        seed: Optional[int] = SeedOption,
        workers: Optional[int] = workers_option("1"),
        no_inference: bool = typer.Option(
            False, "--no-inference", help=_("Deal the hidden cards as if the calls and the "
            "play said nothing but their hard facts (by default each deal is weighted by "
            "how likely the calls were with it and, where the preset ships a card-play "
            "model, the cards the others played).")),
        model_name: str = model_option(_("each card's P(win)")),
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
        with progress_bar(_("hint")) as bar:
            result = hint(view, budget, models, progress=bar)
        report = result.to_dict()
        if json_out:
            emit_json(report)
            return
        if not report["cards"]:             # a cante before another seat leads
            typer.echo(_("seat {seat}, after trick {trick}: {note}").format(
                seat=report["seat"], trick=report["trick"] - 1, note=_(report["note"])))
            typer.echo(_("contract {contract}; {how}; double dummy").format(
                contract=report["contract"],
                how=ngettext("{n} sampled deal, seed {seed}", "{n} sampled deals, seed {seed}",
                             report["deals"]).format(n=count(report["deals"]),
                                                     seed=report["seed"])))
            line = constraints_line(report)
            if line:
                typer.echo(line)
            return
        best = report["cards"][0]
        typer.echo((_("seat {seat}, trick {trick}: play {card} (your side wins {p} at the "
                      "table, {p_dd} double dummy)") if "p_played" in best
                    else _("seat {seat}, trick {trick}: play {card} (your side wins {p_dd})"))
                   .format(seat=report["seat"], trick=report["trick"], card=best["card"],
                           p=percent(best.get("p_played", 0)), p_dd=percent(best["p_win"])))
        if report["note"]:
            typer.echo(_(report["note"]))
        n = report["deals"]
        how = (ngettext("PIMC over all {n} consistent deal", "PIMC over all {n} consistent deals",
                        n) if report["exact"] else
               ngettext("PIMC over {n} sampled deal, seed {seed}",
                        "PIMC over {n} sampled deals, seed {seed}", n)
               ).format(n=count(n), seed=report["seed"])
        if report.get("effective_deals") is not None:
            how += (_(", weighted by the calls and the play (worth {n} deals)")
                    if models.cards is not None and view.plays else
                    _(", weighted by the calls (worth {n} deals)")).format(
                        n=count(round(report["effective_deals"])))
        typer.echo(_("contract {contract}; {how}; {odds}").format(
            contract=report["contract"], how=how,
            odds=_("played odds (the preset's self-play model) beside double dummy")
            if report["model"] == "played" else _("double dummy")))
        line = constraints_line(report)
        if line:
            typer.echo(line)
        if note:
            typer.echo(note)
        typer.echo(render(report))
