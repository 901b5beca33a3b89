"""``cuatrola analyze``: the post-game report of a hand record -- the bid review, every
card's cost (double dummy and from the seat's knowledge) with its symbol, the renuncios
and a summary per seat; ``--annotate OUT`` writes the record back with the symbols."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.analysis import review
from cuatrola_solver.analysis.report import (best_cards, call_odds, card_odds, drop_empty_columns,
                                             html_report, plot_win_chances)
from cuatrola_solver.errors import quote
from cuatrola_solver.i18n import N_, _, count, decimal, percent, signed
from cuatrola_solver.notation.record import format_rules, read_record, write_text

from .progress import progress_bar
from .common import (JsonOption, RecordRulesOption, SeedOption, card_model_note,
                     check_outputs, check_writable, command_budget, command_constraints,
                     command_models, constrain_option, emit_json, exact_option, fail,
                     model_option, read_input, record_rules, samples_option, user_errors,
                     workers_option, write_output)
from .render import colour_cards, muestra_text, result_lines

#: the labels of the cards (analysis.review.THRESHOLDS), translated where shown
LABELS = (N_("inaccuracy"), N_("mistake"), N_("blunder"))


def _pct(p) -> str:
    return "-" if p is None else percent(p)


def _ev(x) -> str:
    return "-" if x is None else signed(x)


def _contract(contract: str, declarer) -> str:
    if contract == "paso" or declarer is None:
        return contract
    if isinstance(declarer, list):
        return _("{contract} {seat} v {other}").format(contract=contract, seat=declarer[0],
                                                       other=declarer[1])
    return _("{contract} by seat {seat}").format(contract=contract, seat=declarer)


def _dd(card: dict) -> str:
    dd = card["dd"]
    if dd is None:
        return ""
    b, a = dd["before"], dd["after"]
    word = {True: _("win"), False: _("lose")}
    text = f"{word[b['makes']]}→{word[a['makes']]}"
    if b["game_points"] != a["game_points"]:
        text += f" ({b['game_points']:+d}→{a['game_points']:+d})"
    return text


def _card_row(c: dict) -> list[str]:
    sym = c["symbol"] or ""
    if c["kind"] == "forced":
        return [str(c["seat"]), c["card"], "", "", "", "", _("forced")]
    if c["kind"] == "after_renuncio":
        return [str(c["seat"]), c["card"], "", "", "", "", _("after the renuncio: not valued")]
    note = []
    if c["kind"] == "renuncio":
        note.append(_("renuncio ({obligation})").format(
            obligation=c["obligation"].replace("_", " ")))
    elif c["label"]:
        note.append(_(c["label"]))
    if c["dd_only"]:
        note.append(_("dd error, sound on what was known"))
    elif c["unpunished"]:
        note.append(_("cost nothing double dummy"))
    p, best_p = card_odds(c)
    return [str(c["seat"]), c["card"] + sym, _pct(p), f"{best_cards(c)} {_pct(best_p)}",
            _pct(c["loss"]), _dd(c), "; ".join(note)]


def render(report: dict) -> str:
    lines = []
    decl = report["declarer"]
    score = report["score"]
    muestra = report["muestra"]
    lines.append(_("rules {rules}; {muestra}; contract {contract}").format(
                     rules=format_rules(report["rules"]), muestra=muestra_text(muestra),
                     contract=_contract(report["contract"], decl))
                 + (_("; score A {a} - B {b}").format(a=score["A"], b=score["B"]) if score
                    else ""))
    names = report.get("players") or [None] * 4
    for seat, h in enumerate(report["hands"], 1):
        name = names[seat - 1]
        lines.append("  " + (_("seat {seat} ({name}): {hand}").format(seat=seat, name=name, hand=h)
                             if name else _("seat {seat}: {hand}").format(seat=seat, hand=h)))
    how = (_("every consistent deal") if report["exact"] else
           _("{n} sampled deals per card and bid (every deal when they are few), seed {seed}")
           .format(n=report["samples"], seed=report["seed"]))
    lines.append(_("knowledge: {how}; double dummy: all cards visible").format(how=how))
    if report.get("constraints"):
        left = ", ".join(_("seat {seat} {n} of {total}").format(
                             seat=n["seat"], n=count(n["layouts"]),
                             total=count(n["layouts_unconstrained"]))
                         for n in report["layouts"] if n is not None)
        lines.append(_("assuming, of the hands as dealt: {constraints} (each seat's view takes "
                       "those about the other seats; layouts left at the deal: {left})").format(
                           constraints="; ".join(report["constraints"]), left=left))

    if report["bids"]:
        match = any("match_loss" in b for b in report["bids"])
        played = any(o.get("p_played") is not None for b in report["bids"]
                     for o in b["options"])
        lines += ["", _("Bidding (P(win), EV: from the seat's own hand{played}; {match}dd: on "
                        "the actual deal)").format(
                            played=_(", as the hand will be played") if played else "",
                            match=_("match: the pair's chance of winning the match after "
                                    "the call; ") if match else "")]
        rows = []
        notes = []
        for b in report["bids"]:
            opts = {o["bid"]: o for o in b["options"]}
            call, adv, best = opts[b["call"]], opts[b["advice"]], opts[b["dd_best"]]
            flag = "" if b["ev_loss"] < 0.005 else decimal(b["ev_loss"])
            in_match = ((lambda o: _(" match {p}").format(p=_pct(o["p_match"]))) if match
                        else (lambda o: ""))
            (cp, cev), (ap, aev) = call_odds(call), call_odds(adv)
            rows.append([str(b["seat"]), b["call"],
                         f"{_pct(cp)} {_ev(cev)}{in_match(call)}",
                         f"{b['advice']} {_pct(ap)} {_ev(aev)}{in_match(adv)}",
                         flag]
                        + (["" if b["match_loss"] < 0.005 else _pct(b["match_loss"])]
                           if match else [])
                        + [f"{call['dd_game_points']:+d}",
                           f"{b['dd_best']} {best['dd_game_points']:+d}"])
            if b["missed"]:
                m = opts[b["missed"]]
                notes.append(_("seat {seat} called {call}: {missed} makes on this deal double "
                               "dummy ({points:+d} instead of {called:+d})").format(
                                   seat=b["seat"], call=b["call"], missed=b["missed"],
                                   points=m["dd_game_points"], called=call["dd_game_points"]))
        headers, rows = drop_empty_columns(
            [_("seat"), _("call"), _("P(win) EV"), _("advice"), _("EV lost")]
            + ([_("match lost")] if match else []) + [_("dd"), _("dd best")], rows)
        lines.append(tabulate(rows, headers=headers, disable_numparse=True))
        lines += notes

    lines += ["", _("Play (P(win) of the seat's side from what it knew{played}; best: the card "
                    "that did best on that knowledge, and its P(win); win lost: the "
                    "difference; dd: double dummy before→after the card)").format(
                        played=_(", as the hand will be played")
                        if report.get("model") == "played" else "")]
    by_trick: dict[int, list[dict]] = {}
    for c in report["cards"]:
        by_trick.setdefault(c["trick"], []).append(c)
    for t, cards in by_trick.items():
        lines.append(_("trick {trick}").format(trick=t))
        headers, rows = drop_empty_columns(
            [_("seat"), _("card"), _("P(win)"), _("best"), _("win lost"), _("dd"), _("note")],
            [_card_row(c) for c in cards], keep=2)
        table = tabulate(rows, headers=headers, disable_numparse=True)
        lines += ["  " + x for x in table.splitlines()]

    lines.append("")
    if not report["renuncios"]:
        lines.append(_("renuncios: none"))
    for r in report["renuncios"]:
        lines.append(_("renuncio: {what}").format(what=_(
            "trick {trick}: seat {seat} played {card} against {obligation} (legal: {legal})")
            .format(trick=r["trick"], seat=r["seat"], card=r["card"],
                    obligation=r["obligation"].replace("_", " "), legal=" ".join(r["legal"]))))
    if report["decided_by_renuncio"]:
        lines.append(_("the first renuncio decides the hand: later cards are not valued"))
    lines += result_lines(report["result"], None)

    lines += ["", _("Summary (on what each seat knew: accuracy, the share of its choices "
                    "losing less than {p} of winning chances, and the chances it lost; dd, with "
                    "every card seen: the match points its cards gave away and its errors, in "
                    "brackets those that were sound on what it knew)").format(p=percent(0.10))]
    rows = []
    for s in report["summary"]:
        if not s["cards"]:
            continue
        acc = "-" if s["accuracy"] is None else percent(s["accuracy"] / 100)
        rows.append([str(s["seat"]), s["side"], acc, str(s["choices"]),
                     str(s["inaccuracies"]), str(s["mistakes"]), str(s["blunders"]),
                     str(s["renuncios"]), percent(s["win_chance_lost"]),
                     str(s["points_lost"]), f"{s['dd_errors']} ({s['dd_only']})"])
    lines.append(tabulate(rows, headers=[_("seat"), _("side"), _("accuracy"), _("choices"), "?!",
                                         "?", "??", _("renuncios"), _("win lost"),
                                         _("dd pts lost"), _("dd errors (sound)")],
                          disable_numparse=True))
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("analyze")
    @user_errors
    def analyze_command(
        record: str = typer.Argument(..., help=_("A hand record file (JSON or text form), "
                                     "or - for stdin.")),
        samples: Optional[int] = samples_option(
            _("Deals per card and per bid review (default {n}; a card with fewer consistent "
              "deals is valued exactly).").format(n=review.DEFAULT_SAMPLES)),
        exact: bool = exact_option(_("slow: minutes for a full hand")),
        seed: Optional[int] = SeedOption,
        workers: Optional[int] = workers_option(
            _("{n}; more pay only with idle cores. The report is the same whatever N").format(
                n=review.DEFAULT_WORKERS), _("Processes sharing the cards")),
        annotate: Optional[Path] = typer.Option(
            None, "--annotate", help=_("Write the record, in the text form, with the symbols "
            "and short comments, to this file ('-': stdout, instead of the report).")),
        bids: bool = typer.Option(True, "--bids/--no-bids", help=_("Review the auction.")),
        html: Optional[Path] = typer.Option(
            None, "--html", metavar="FILE", help=_("Also write the report as one "
            "self-contained HTML page (opens offline): the deal as cards, each baza, the "
            "graph of the win chances with the mistakes, the bids, the summary.")),
        plot: Optional[Path] = typer.Option(
            None, "--plot", metavar="FILE", help=_("Also write the graph of the win chances "
            "to FILE, .png or .svg (needs matplotlib: pip install 'cuatrola-solver[lab]').")),
        rules: Optional[str] = RecordRulesOption,
        no_inference: bool = typer.Option(
            False, "--no-inference", help=_("Deal the hidden cards as if the calls said "
            "nothing (by default each deal is weighted by how likely the calls were with "
            "it).")),
        model_name: str = model_option(_("labels and bid advice on each card's and call's "
                                         "P(win)")),
        constrain: Optional[List[str]] = constrain_option(_("as dealt")),
        json_out: bool = JsonOption,
    ) -> None:
        """Post-game report: each card's cost, the mistakes, the bids, the points.

        Every card is valued double dummy (all cards visible) and from what its player
        knew; ?! marks an inaccuracy, ? a mistake, ?? a blunder. Then the renuncios, the
        review of each call, the result with its points and a summary per seat.
        --html writes the same as a page to look at, --plot the graph of the win chances."""
        budget = command_budget(exact, samples, seed, workers)
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
        text, where = read_input(record)
        rec = record_rules(read_record(text, where), rules)
        models = command_models(rec.rules, model_name, inference=not no_inference)
        with progress_bar(_("analyze")) as bar:
            result = review.analyze(rec, budget, models, bids=bids,
                                    constraints=command_constraints(constrain, dealt=True),
                                    progress=bar)
        report = result.to_dict()
        title = _("cuatrola analysis: {name}").format(name=Path(where).name)
        if html is not None:
            write_output(html, html_report(report, title))
        if plot is not None:
            try:
                plot_win_chances(report, plot, title)
            except OSError as e:
                fail(_("cannot write the plot to {path}: {reason}").format(
                    path=repr(str(plot)), reason=e.strerror or e))
        if annotate is not None:
            out = write_text(review.annotate(result))
            if str(annotate) == "-":
                typer.echo(out, nl=False)
                return
            try:
                annotate.write_text(out, encoding="utf-8")
            except OSError as e:
                fail(_("cannot write the annotated record to {path}: {reason}").format(
                    path=quote(str(annotate)), reason=e))
        if json_out:
            emit_json(report)
            return
        note = card_model_note(models.played, rec.rules)
        typer.echo(colour_cards(render(report)) + (f"\n{note}" if note else ""))
