"""``cuatrola analyze``: the post-game report of a hand record -- the bid review, every
card's cost (double dummy and from the seat's knowledge) with its symbol, the renuncios
and a summary per seat; ``--annotate OUT`` writes the record back with the symbols."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.bidding import OptionResult, valued
from cuatrola_solver.analysis import review
from cuatrola_solver.analysis.report import (best_cards, call_odds, drop_empty_columns,
                                             html_report, plot_win_chances)
from cuatrola_solver.analysis.review import Analysis, BidReview, CardReview, SeatSummary
from cuatrola_solver.errors import quote
from cuatrola_solver.game.cards import format_card, format_cards
from cuatrola_solver.i18n import N_, _, count, decimal, later, percent, signed
from cuatrola_solver.notation.record import format_rules, read_record, write_text

from .progress import progress_bar
from .common import (JsonOption, RecordRulesOption, SeedOption, card_model_note,
                     check_outputs, check_writable, command_budget, command_constraints,
                     command_models, constrain_option, emit_json, exact_option, fail,
                     help_text, model_option, read_input, record_rules, samples_option,
                     user_errors, workers_option, write_output)
from .render import colour_cards, muestra_text, result_lines

#: the labels of the cards (analysis.review.THRESHOLDS), translated where shown
LABELS = (N_("inaccuracy"), N_("mistake"), N_("blunder"))


def _pct(p: float | None) -> str:
    return "-" if p is None else percent(p)


def _ev(x: float | None) -> str:
    return "-" if x is None else signed(x)


def _contract(contract: str, declarer: tuple[int, ...]) -> str:
    if contract == "paso" or not declarer:
        return contract
    if len(declarer) == 2:
        return _("{contract} {seat} v {other}").format(contract=contract, seat=declarer[0],
                                                       other=declarer[1])
    return _("{contract} by seat {seat}").format(contract=contract, seat=declarer[0])


# --- the report, section by section --------------------------------------------------

def _header_lines(a: Analysis) -> list[str]:
    """The rules, the contract and the score; the hands; how the cards were valued."""
    hand, score = a.hand, a.hand.score
    lines = [_("rules {rules}; {muestra}; contract {contract}").format(
                 rules=format_rules(hand.rules), muestra=muestra_text(format_card(hand.muestra)),
                 contract=_contract(hand.contract, hand.declarer))
             + (_("; score A {a} - B {b}").format(a=score.A, b=score.B) if score is not None
                else "")]
    for seat, (name, h) in enumerate(zip(a.players, a.dealt), 1):
        lines.append("  " + (_("seat {seat} ({name}): {hand}").format(
            seat=seat, name=name, hand=format_cards(h)) if name else
            _("seat {seat}: {hand}").format(seat=seat, hand=format_cards(h))))
    how = (_("every consistent deal") if a.exact else
           _("{n} sampled deals per card and bid (every deal when they are few), seed {seed}")
           .format(n=a.samples, seed=a.seed))
    lines.append(_("knowledge: {how}; double dummy: all cards visible").format(how=how))
    if a.constraints:
        left = ", ".join(_("seat {seat} {n} of {total}").format(
                             seat=seat, n=count(n[0]), total=count(n[1]))
                         for seat, n in enumerate(a.layouts, 1) if n is not None)
        lines.append(_("assuming, of the hands as dealt: {constraints} (each seat's view takes "
                       "those about the other seats; layouts left at the deal: {left})").format(
                           constraints="; ".join(a.constraints), left=left))
    return lines


def _bid_row(b: BidReview, match: bool) -> list[str]:
    """A call against the advice: their odds, the EV (and match chance) lost, double dummy."""
    call, adv = b.option(b.call), b.option(b.advice)
    (cp, cev), (ap, aev) = call_odds(call), call_odds(adv)

    def in_match(o: OptionResult) -> str:
        return _(" match {p}").format(p=_pct(o.p_match)) if match else ""
    lost = valued(b.match_loss_reported) if match else 0.0
    return ([str(b.seat), b.call, f"{_pct(cp)} {_ev(cev)}{in_match(call)}",
             f"{b.advice} {_pct(ap)} {_ev(aev)}{in_match(adv)}",
             "" if b.ev_loss_reported < 0.005 else decimal(b.ev_loss_reported)]
            + (["" if lost < 0.005 else _pct(lost)] if match else [])
            + [f"{valued(b.dd_game_points(b.call)):+d}",
               f"{b.dd_best} {valued(b.dd_game_points(b.dd_best)):+d}"])


def _missed_line(b: BidReview, missed: str) -> str:
    return _("seat {seat} called {call}: {missed} makes on this deal double dummy ({points:+d} "
             "instead of {called:+d})").format(
                 seat=b.seat, call=b.call, missed=missed,
                 points=valued(b.dd_game_points(missed)), called=valued(b.dd_game_points(b.call)))


def _bid_lines(a: Analysis) -> list[str]:
    """The bid review: a table of the calls, then the contracts missed."""
    if not a.bids:
        return []
    match = any(b.advice_per_hand is not None for b in a.bids)
    played = any(b.played for b in a.bids)
    lines = ["", _("Bidding (P(win), EV: from the seat's own hand{played}; {match}dd: on "
                   "the actual deal)").format(
                       played=_(", as the hand will be played") if played else "",
                       match=_("match: the pair's chance of winning the match after "
                               "the call; ") if match else "")]
    headers, rows = drop_empty_columns(
        [_("seat"), _("call"), _("P(win) EV"), _("advice"), _("EV lost")]
        + ([_("match lost")] if match else []) + [_("dd"), _("dd best")],
        [_bid_row(b, match) for b in a.bids])
    lines.append(tabulate(rows, headers=headers, disable_numparse=True))
    return lines + [_missed_line(b, b.missed) for b in a.bids if b.missed]


def _dd(card: CardReview) -> str:
    swing = card.dd_swing
    if swing is None:
        return ""
    word = {True: _("win"), False: _("lose")}
    (mb, ma), (pb, pa) = swing.makes, swing.game_points
    return f"{word[mb]}→{word[ma]}" + (f" ({pb:+d}→{pa:+d})" if pb != pa else "")


def _card_row(c: CardReview) -> list[str]:
    card = format_card(c.card)
    if c.kind == "forced":
        return [str(c.seat), card, "", "", "", "", _("forced")]
    if c.kind == "after_renuncio":
        return [str(c.seat), card, "", "", "", "", _("after the renuncio: not valued")]
    note = []
    if c.kind == "renuncio":
        note.append(_("renuncio ({obligation})").format(
            obligation=valued(c.obligation).replace("_", " ")))
    elif c.label:
        note.append(_(c.label))
    if c.dd_only:
        note.append(_("dd error, sound on what was known"))
    elif c.unpunished:
        note.append(_("cost nothing double dummy"))
    return [str(c.seat), card + (c.symbol or ""), _pct(c.p_rated),
            f"{best_cards(c)} {_pct(c.best_p_rated)}", _pct(c.loss_reported), _dd(c),
            "; ".join(note)]


def _play_lines(a: Analysis) -> list[str]:
    """Every card, trick by trick."""
    lines = ["", _("Play (P(win) of the seat's side from what it knew{played}; best: the card "
                   "that did best on that knowledge, and its P(win); win lost: the "
                   "difference; dd: double dummy before→after the card)").format(
                       played=_(", as the hand will be played") if a.model == "played" else "")]
    by_trick: dict[int, list[CardReview]] = {}
    for c in a.cards:
        by_trick.setdefault(c.trick, []).append(c)
    for t, cards in by_trick.items():
        lines.append(_("trick {trick}").format(trick=t))
        headers, rows = drop_empty_columns(
            [_("seat"), _("card"), _("P(win)"), _("best"), _("win lost"), _("dd"), _("note")],
            [_card_row(c) for c in cards], keep=2)
        table = tabulate(rows, headers=headers, disable_numparse=True)
        lines += ["  " + x for x in table.splitlines()]
    return lines


def _renuncio_lines(a: Analysis) -> list[str]:
    """The renuncios, whether the first decides the hand, and the result."""
    renuncios = a.hand.renuncios
    lines = [""] + ([] if renuncios else [_("renuncios: none")])
    for r in renuncios:
        lines.append(_("renuncio: {what}").format(what=_(
            "trick {trick}: seat {seat} played {card} against {obligation} (legal: {legal})")
            .format(trick=r.trick, seat=r.seat, card=format_card(r.card),
                    obligation=r.obligation.replace("_", " "), legal=format_cards(r.legal))))
    if a.decided_by is not None:
        lines.append(_("the first renuncio decides the hand: later cards are not valued"))
    return lines + result_lines(a.result, None)


def _summary_row(s: SeatSummary) -> list[str]:
    acc = s.accuracy_reported
    return [str(s.seat), str(s.side), "-" if acc is None else percent(acc / 100),
            str(s.choices), str(s.inaccuracies), str(s.mistakes), str(s.blunders),
            str(s.renuncios), percent(s.win_chance_lost_reported), str(s.points_lost),
            f"{s.dd_errors} ({s.dd_only})"]


def _summary_lines(a: Analysis) -> list[str]:
    """Per seat: accuracy and win chance lost on its knowledge, points lost double dummy."""
    rows = [_summary_row(s) for s in a.summary if s.cards]
    return ["", _("Summary (on what each seat knew: accuracy, the share of its choices "
                  "losing less than {p} of winning chances, and the chances it lost; dd, with "
                  "every card seen: the match points its cards gave away and its errors, in "
                  "brackets those that were sound on what it knew)").format(p=percent(0.10)),
            tabulate(rows, headers=[_("seat"), _("side"), _("accuracy"), _("choices"), "?!",
                                    "?", "??", _("renuncios"), _("win lost"),
                                    _("dd pts lost"), _("dd errors (sound)")],
                     disable_numparse=True)]


def render(a: Analysis) -> str:
    """The text report of an analysis."""
    return "\n".join(_header_lines(a) + _bid_lines(a) + _play_lines(a) + _renuncio_lines(a)
                     + _summary_lines(a))


# --- the command --------------------------------------------------------------------

def _check_paths(record: str, annotate: Optional[Path], html: Optional[Path],
                 plot: Optional[Path]) -> None:
    """Refuse, before the work, an output that cannot be written or would replace another."""
    for path, kinds in ((html, None), (plot, (".png", ".svg")),
                        (None if str(annotate) == "-" else annotate, None)):
        if path is not None:
            check_writable(path, kinds)
    # --annotate may write the record back over itself (the hand is all kept in it);
    # the page and the graph may not replace it, nor one another or the annotated record
    check_outputs([("--html", html), ("--plot", plot)],
                  [(_("the record"), None if record == "-" else record),
                   (_("the --annotate file"), None if str(annotate) == "-" else annotate)])
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        fail(_("--plot needs matplotlib: pip install 'cuatrola-solver[lab]' (or pip "
               "install matplotlib)"))


def _write_pictures(analysis: Analysis, title: str, html: Optional[Path],
                    plot: Optional[Path]) -> None:
    """The page (--html) and the graph (--plot)."""
    if html is not None:
        write_output(html, html_report(analysis, title))
    if plot is not None:
        try:
            plot_win_chances(analysis, plot, title)
        except OSError as e:
            fail(_("cannot write the plot to {path}: {reason}").format(
                path=repr(str(plot)), reason=e.strerror or e))


def _write_annotated(analysis: Analysis, annotate: Path) -> None:
    """The record with the symbols and comments, to ``annotate`` ('-': stdout)."""
    out = write_text(review.annotate(analysis))
    if str(annotate) == "-":
        typer.echo(out, nl=False)
        return
    try:
        annotate.write_text(out, encoding="utf-8")
    except OSError as e:
        fail(_("cannot write the annotated record to {path}: {reason}").format(
            path=quote(str(annotate)), reason=e))


@user_errors
def analyze_command(
    record: str = typer.Argument(..., help=N_("A hand record file (JSON or text form), "
                                 "or - for stdin.")),
    samples: Optional[int] = samples_option(help_text(
        "Deals per card and per bid review (default {n}; a card with fewer consistent "
        "deals is valued exactly).", n=review.DEFAULT_SAMPLES)),
    exact: bool = exact_option(N_("slow: minutes for a full hand")),
    seed: Optional[int] = SeedOption,
    workers: Optional[int] = workers_option(
        later("{n}; more pay only with idle cores. The report is the same whatever N",
              n=review.DEFAULT_WORKERS), N_("Processes sharing the cards")),
    annotate: Optional[Path] = typer.Option(
        None, "--annotate", help=N_("Write the record, in the text form, with the symbols "
        "and short comments, to this file ('-': stdout, instead of the report).")),
    bids: bool = typer.Option(True, "--bids/--no-bids", help=N_("Review the auction.")),
    html: Optional[Path] = typer.Option(
        None, "--html", metavar="FILE", help=N_("Also write the report as one "
        "self-contained HTML page (opens offline): the deal as cards, each baza, the "
        "graph of the win chances with the mistakes, the bids, the summary.")),
    plot: Optional[Path] = typer.Option(
        None, "--plot", metavar="FILE", help=N_("Also write the graph of the win chances "
        "to FILE, .png or .svg (needs matplotlib: pip install 'cuatrola-solver[lab]').")),
    rules: Optional[str] = RecordRulesOption,
    no_inference: bool = typer.Option(
        False, "--no-inference", help=N_("Deal the hidden cards as if the calls said "
        "nothing (by default each deal is weighted by how likely the calls were with "
        "it).")),
    model_name: str = model_option(N_("labels and bid advice on each card's and call's "
                                      "P(win)")),
    constrain: Optional[List[str]] = constrain_option(N_("as dealt")),
    json_out: bool = JsonOption,
) -> None:
    """Post-game report: each card's cost, the mistakes, the bids, the points.

    Every card is valued double dummy (all cards visible) and from what its player
    knew; ?! marks an inaccuracy, ? a mistake, ?? a blunder. Then the renuncios, the
    review of each call, the result with its points and a summary per seat.
    --html writes the same as a page to look at, --plot the graph of the win chances."""
    budget = command_budget(exact, samples, seed, workers)
    _check_paths(record, annotate, html, plot)
    text, where = read_input(record)
    rec = record_rules(read_record(text, where), rules)
    models = command_models(rec.rules, model_name, inference=not no_inference)
    with progress_bar(_("analyze")) as bar:
        analysis = review.analyze(rec, budget, models, bids=bids,
                                  constraints=command_constraints(constrain, dealt=True),
                                  progress=bar)
    _write_pictures(analysis, _("cuatrola analysis: {name}").format(name=Path(where).name),
                    html, plot)
    if annotate is not None:
        _write_annotated(analysis, annotate)
        if str(annotate) == "-":
            return
    if json_out:
        emit_json(analysis.to_dict())
        return
    note = card_model_note(models.played, rec.rules)
    typer.echo(colour_cards(render(analysis)) + (f"\n{note}" if note else ""))


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
