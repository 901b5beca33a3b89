"""``cuatrola hint``: the best next card for the seat on turn, from that seat's view.

From a record (full, or kept from one seat's side with the other hands unknown), or
live at the table from the seat's own cards: ``--hand --muestra --seat [--auction]
[--played]``."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.bidding import valued
from cuatrola_solver.advice.cardplay import DEFAULT_HINT_SAMPLES, Hint, hint
from cuatrola_solver.game.cards import format_card
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, signed
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import read_view, replay, view_of

from .progress import progress_bar
from .common import (JsonOption, RecordRulesOption, SeedOption, card_model_note,
                     command_budget, command_constraints, command_models, constrain_option,
                     constraints_line, emit_json, exact_option, fail, help_text, load_rules,
                     model_option, read_input, record_rules, samples_option, user_errors,
                     workers_option)


def render(hint: Hint) -> str:
    """The table of the legal cards, best first."""
    rows = [[format_card(c.card)] + ([percent(valued(c.p_played), 1)] if hint.played else [])
            + [percent(c.p_win, 1), decimal(c.tricks),
               "-" if c.margin is None else signed(c.margin, 1)]
            for c in hint.cards]
    side = hint.side_name
    return str(tabulate(rows, headers=[_("card")] + ([_("P(win) played"), _("P(win) dd")]
                                                     if hint.played else [_("P(win)")])
                        + [_("tricks ({side})").format(side=side),
                           _("margin ({side})").format(side=side)],
                        disable_numparse=True))


def cante_report(hint: Hint) -> str:
    """The answer of a hint about a cante only (another seat leads next)."""
    lines = [_("seat {seat}, after trick {trick}: {note}").format(
                 seat=hint.seat, trick=hint.trick - 1, note=_(valued(hint.note))),
             _("contract {contract}; {how}; double dummy").format(
                 contract=hint.contract,
                 how=ngettext("{n} sampled deal, seed {seed}", "{n} sampled deals, seed {seed}",
                              hint.deals).format(n=count(hint.deals), seed=hint.seed))]
    line = constraints_line(hint.constraints, hint.layouts)
    return "\n".join(lines + ([line] if line else []))


def advice_line(hint: Hint) -> str:
    """``seat 2, trick 3: play 3e (your side wins 58% at the table, 62% double dummy)``."""
    best = hint.cards[0]
    return ((_("seat {seat}, trick {trick}: play {card} (your side wins {p} at the "
               "table, {p_dd} double dummy)") if best.p_played is not None
             else _("seat {seat}, trick {trick}: play {card} (your side wins {p_dd})"))
            .format(seat=hint.seat, trick=hint.trick, card=format_card(best.card),
                    p=percent(best.p_played if best.p_played is not None else 0),
                    p_dd=percent(best.p_win)))


def describe_deals(hint: Hint, by_play: bool) -> str:
    """``PIMC over 200 sampled deals, seed 3, weighted by the calls (worth 150 deals)``;
    ``by_play``: the deals are weighted by the play too (a card-play model)."""
    n = hint.deals
    how = (ngettext("PIMC over all {n} consistent deal", "PIMC over all {n} consistent deals",
                    n) if hint.exact else
           ngettext("PIMC over {n} sampled deal, seed {seed}",
                    "PIMC over {n} sampled deals, seed {seed}", n)
           ).format(n=count(n), seed=hint.seed)
    shown = hint.effective_deals_shown
    if shown is not None:
        how += (_(", weighted by the calls and the play (worth {n} deals)") if by_play else
                _(", weighted by the calls (worth {n} deals)")).format(n=count(round(shown)))
    return how


def report(hint: Hint, by_play: bool, model_note: str | None) -> str:
    """The human answer: the best card, the cante note, what the odds were computed on,
    the constraints, why the cards are rated double dummy (``model_note``), the table."""
    if not hint.cards:                  # a cante before another seat leads
        return cante_report(hint)
    lines = [advice_line(hint)]
    if hint.note:
        lines.append(_(hint.note))
    lines.append(_("contract {contract}; {how}; {odds}").format(
        contract=hint.contract, how=describe_deals(hint, by_play),
        odds=_("played odds (the preset's self-play model) beside double dummy")
        if hint.played else _("double dummy")))
    line = constraints_line(hint.constraints, hint.layouts)
    lines += [text for text in (line, model_note) if text]
    lines.append(render(hint))
    return "\n".join(lines)


def source_of(record: str | None, hand: str | None, muestra: str | None, seat: int | None,
              auction: str | None, played: str | None, rules: str | None,
              score: str | None) -> View:
    """The seat's View the hint answers for: from a record (by default the seat on turn)
    or from the live options."""
    if record is None:
        return live_view(hand, muestra, seat, auction, played, rules, score)
    live = {"--hand": hand, "--muestra": muestra, "--auction": auction, "--played": played,
            "--score": score}
    given = [name for name, value in live.items() if value is not None]
    if given:
        fail(_("give a record or the live options, not both ({options} with a record)")
             .format(options=", ".join(given)))
    return record_view(record, seat, rules)


def record_view(record: str, seat: int | None, rules: str | None) -> View:
    """The view of ``seat`` (default: the seat on turn) in the record read from
    ``record`` (a path, or - for stdin)."""
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


def live_view(hand: str | None, muestra: str | None, seat: int | None, auction: str | None,
              played: str | None, rules: str | None, score: str | None) -> View:
    """The seat's view from its cards given live (``--hand --muestra --seat``, which
    are needed, and the calls and the cards played so far)."""
    if hand is None or muestra is None or seat is None:
        missing = [name for name, value in (("--hand", hand), ("--muestra", muestra),
                                            ("--seat", seat)) if value is None]
        fail(_("give a record, or your cards live: missing {options} (e.g. --hand \"Ao 3c Rb "
               "Ce Sb\" --muestra 3b --seat 2)").format(options=", ".join(missing)))
    return read_view(hand, muestra, seat, auction, played, load_rules(rules or "online"),
                     parse_score(score) if score is not None else None)


@user_errors
def hint_command(
    record: Optional[str] = typer.Argument(
        None, metavar="RECORD", help=N_("An unfinished hand record (JSON or text form; "
        "hands not seen may be '?'), or - for stdin; or, instead of a record, your "
        "cards live with the options marked Live (--hand, --muestra, --seat).")),
    hand: Optional[str] = typer.Option(None, "--hand", "-H", help=N_(
        "Live: your five cards as dealt (or the cards you still hold).")),
    muestra: Optional[str] = typer.Option(None, "--muestra", "-m",
                                          help=N_("Live: the muestra.")),
    seat: Optional[int] = typer.Option(None, "--seat", "-s", metavar="N", help=N_(
        "Live: your seat, 1-4 (with a record: answer for this seat; default the seat "
        "on turn).")),
    auction: Optional[str] = typer.Option(None, "--auction", "-a", help=N_(
        "Live: the four calls (default: all passed).")),
    played: Optional[str] = typer.Option(None, "--played", "-p", help=N_(
        "Live: the cards played so far, as in a record: '1. Sb Ab Cb 3b cante 2 oros "
        "2. Ao'.")),
    rules: Optional[str] = RecordRulesOption,
    score: Optional[str] = typer.Option(None, "--score", help=N_(
        "Live: the match score A-B before the hand.")),
    samples: Optional[int] = samples_option(
        help_text("Deals to sample (default {n}).", n=DEFAULT_HINT_SAMPLES)),
    exact: bool = exact_option(),
    seed: Optional[int] = SeedOption,
    workers: Optional[int] = workers_option("1"),
    no_inference: bool = typer.Option(
        False, "--no-inference", help=N_("Deal the hidden cards as if the calls and the "
        "play said nothing but their hard facts (by default each deal is weighted by "
        "how likely the calls were with it and, where the preset ships a card-play "
        "model, the cards the others played).")),
    model_name: str = model_option(N_("each card's P(win)")),
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
    with progress_bar(_("hint")) as bar:
        result = hint(view, budget, models, progress=bar)
    if json_out:
        emit_json(result.to_dict())
    else:
        typer.echo(report(result, models.cards is not None and bool(view.plays),
                          card_model_note(models.played, view.rules)))


def register(app: typer.Typer) -> None:
    app.command("hint")(hint_command)
