"""``cuatrola advise``: odds and advice for each call the seat about to speak may make."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.bidding import DEFAULT_SAMPLES, advise
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, signed

from .common import (JsonOption, RulesOption, SeedOption, command_budget,
                     command_constraints, command_models, constrain_option, constraints_line,
                     emit_json, exact_option, help_text, load_rules, model_option, samples_option,
                     user_errors, workers_option)
from .progress import progress_bar
from .render import colour_cards, histogram, muestra_text

def _pct(p: float) -> str:
    return percent(p) if p >= 0.01 or p == 0 else "<" + percent(0.01)


def _half(ci) -> str:
    half = (ci[1] - ci[0]) / 2
    return ("±" + percent(half) if half >= 0.005 else "±<" + percent(0.01) if half > 0
            else _("exact"))


def describe_contract(opt: dict, seat: int) -> str:
    decl = opt["declarer"]
    if opt["contract"] == "paso":
        return _("paso (all four play)")
    if isinstance(decl, list):
        return _("contrasolo {seat} v {other}").format(seat=decl[0], other=decl[1])
    who = _("you") if decl == seat else (_("partner") if (decl - seat) % 4 == 2
                                         else _("opponent"))
    return _("{contract} by {seat} ({who})").format(contract=opt["contract"], seat=decl,
                                                    who=who)


def _side(seat: int) -> int:
    return (seat - 1) % 2


def _yardstick(report: dict) -> tuple[str, str]:
    """The keys of the P(win) and the EV the advice was chosen on: as played with the
    played-odds model, else double dummy."""
    return ("p_played", "ev_played") if report.get("model") == "played" else ("p_win", "ev")


def advice_sentence(report: dict) -> str:
    """``Call solo: you win 83% (±1%), +1.32 points per hand on average; paso: 61%,
    +0.22``: the advised call named as the others are, by its word in the game."""
    seat = report["seat"]
    opts = {o["bid"]: o for o in report["options"]}
    best = opts[report["advice"]]
    verb = _("Call {bid}").format(bid=best["bid"])
    if best["bid"] == "paso" and best["contract"] != "paso":
        decl = best["declarer"]
        if _side(decl[0] if isinstance(decl, list) else decl) != _side(seat):
            verb = _("Call {bid} (defend seat {seat}'s {contract})").format(
                bid=best["bid"], seat=decl[0] if isinstance(decl, list) else decl,
                contract=best["contract"])
        else:
            verb = _("Call {bid} (your partner plays the {contract})").format(
                bid=best["bid"], contract=best["contract"])
    you = best["contract"] != "paso" and best["declarer"] == seat
    match = "advice_per_hand" in report
    played = report.get("model") == "played"
    p, ev = _yardstick(report)
    text = ((_("{call}: you win {p}") if you else _("{call}: your side wins {p}")).format(
                call=verb, p=_pct(best[p]))
            + (_(" at the table ({p} double dummy)").format(p=_pct(best["p_win"])) if played
               else "" if report["exact"] else f" ({_half(best['ci95'])})")
            + _(", {ev} points per hand on average").format(ev=signed(best[ev]))
            + (_(", {p} to win the match").format(p=_pct(best["p_match"])) if match else ""))
    others = [f"{o['bid']}: {_pct(o[p])}, {signed(o[ev])}"
              + (_(", match {p}").format(p=_pct(o["p_match"])) if match else "")
              for o in report["options"] if o["allowed"] and o["bid"] != best["bid"]]
    return text + ("; " + "; ".join(others) if others else "")


def dd_note(report: dict) -> str | None:
    """With played odds, when double dummy would advise another call."""
    dd = report.get("advice_dd")
    if dd is None or dd == report["advice"]:
        return None
    return _("Double dummy (every card seen) the advice would be {dd}; at the table, where "
             "each player sees only his own cards, {advice} does better.").format(
                 dd=dd, advice=report["advice"])


def match_note(report: dict) -> str | None:
    """With the match score, when the call for the match is not the call for the hand."""
    hand = report.get("advice_per_hand")
    if hand is None or hand == report["advice"]:
        return None
    opts = {o["bid"]: o for o in report["options"]}
    best, alt = opts[report["advice"]], opts[hand]
    ev = _yardstick(report)[1]           # the points the per-hand advice was chosen on
    places = 2
    while places < 4 and f"{alt[ev]:+.{places}f}" == f"{best[ev]:+.{places}f}":
        places += 1                      # show the difference that decided it
    return _("At {a}-{b} the match comes first: {hand} scores more per hand ({ev} against "
             "{best_ev}) but wins the match {p} of the time, {best} {best_p}.").format(
                 a=report["score"]["A"], b=report["score"]["B"], hand=hand,
                 ev=signed(alt[ev], places), best_ev=signed(best[ev], places),
                 p=_pct(alt["p_match"]), best=best["bid"], best_p=_pct(best["p_match"]))


def render(report: dict) -> str:
    match = "advice_per_hand" in report
    played = report.get("model") == "played"
    head = ([_("call"), _("contract")] + ([_("P(win) played"), _("EV played")] if played else [])
            + [_("P(win) dd") if played else _("P(win)"), _("{p} interval").format(p=percent(0.95)),
               _("EV dd") if played else _("EV")]
            + ([_("P(match)")] if match else []) + [_("tricks 0-5"), _("note")])
    rows = []
    for o in report["options"]:
        if not o["allowed"]:
            rows.append([o["bid"], _("not allowed")] + [""] * (len(head) - 3)
                        + [_(o["reason"])])
            continue
        lo, hi = o["ci95"]
        mark = _("<- advice") if o["bid"] == report["advice"] else ""
        rows.append([o["bid"], describe_contract(o, report["seat"])]
                    + ([percent(o["p_played"], 1), signed(o["ev_played"])] if played
                       else [])
                    + [percent(o["p_win"], 1),
                       _("exact") if report["exact"] else f"{decimal(100 * lo, 1)}-{percent(hi, 1)}",
                       signed(o["ev"])] + ([percent(o["p_match"], 1)] if match else [])
                    + [histogram(o["tricks"]) + f" ({o['side']})", mark])
    return tabulate(rows, headers=head, disable_numparse=True)


@user_errors
def advise_command(
    hand: str = typer.Argument(..., help=N_("Your five cards, e.g. 'Ao 3o Ro Co So'.")),
    muestra: str = typer.Option(..., "--muestra", "-m", help=N_("The muestra (face up, "
                                "in seat 4's hand).")),
    seat: int = typer.Option(..., "--seat", "-s",
                             help=N_("Your seat, 1 to 4 (1 speaks first).")),
    auction: Optional[str] = typer.Option(
        None, "--auction", "-a", help=N_("The calls of the seats before you, e.g. 'paso "
        "solo' (default: they all passed).")),
    score: Optional[str] = typer.Option(None, "--score", help=N_(
        "Match score A-B before the hand, e.g. 3-5: the bid caps, and each call's "
        "chance of winning the match (the advice then plays for the match).")),
    samples: Optional[int] = samples_option(help_text(
        "Most deals to sample (default {n}; stops once every P(win) is within ±1%).",
        n=DEFAULT_SAMPLES)),
    exact: bool = exact_option(),
    seed: Optional[int] = SeedOption,
    workers: Optional[int] = workers_option(N_("all cores")),
    rules: str = RulesOption,
    no_inference: bool = typer.Option(
        False, "--no-inference", help=N_("Deal the hidden cards as if the calls already "
        "made said nothing (by default each deal is weighted by how likely those calls "
        "were with it: the preset's bid model).")),
    model_name: str = model_option(N_("odds and advice")),
    constrain: Optional[List[str]] = constrain_option(),
    json_out: bool = JsonOption,
) -> None:
    """Odds and advice for each call this seat may make now (later seats assumed to pass)."""
    budget = command_budget(exact, samples, seed, workers)
    check_seat(seat, "--seat")
    rs = load_rules(rules)
    assumed = command_constraints(constrain)
    view = View.bidding(hand, muestra, seat, auction, rs,
                        parse_score(score, rules=rs) if score is not None else None
                        ).assuming(assumed)
    models = command_models(rs, model_name, inference=not no_inference)
    with progress_bar(_("advise")) as bar:
        result = advise(view, budget, models, progress=bar)
    report = result.to_dict()
    if json_out:
        emit_json(report)
        return
    typer.echo(advice_sentence(report) + ".")
    for note in (match_note(report), dd_note(report)):
        if note:
            typer.echo(note)
    n = report["deals"]
    how = (ngettext("all {n} consistent deal", "all {n} consistent deals", n)
           if report["exact"] else
           ngettext("{n} sampled deal, seed {seed}", "{n} sampled deals, seed {seed}", n)
           ).format(n=count(n), seed=report["seed"])
    if report.get("effective_deals") is not None:
        how += _(", weighted by the calls made so far (worth {n} deals)").format(
            n=count(round(report["effective_deals"])))
    odds = (_("played odds (the preset's self-play model) beside double dummy")
            if report.get("model") == "played" else _("double dummy"))
    if report["seat"] < 4:
        odds += _(", later seats pass")
    typer.echo(colour_cards(_("seat {seat}, {hand}, {muestra}, rules {rules}; {how}; "
                              "{odds}").format(seat=report["seat"], hand=report["hand"],
                                               muestra=muestra_text(report["muestra"]),
                                               rules=rs.name, how=how, odds=odds)))
    line = constraints_line(report)
    if line:
        typer.echo(colour_cards(line))
    typer.echo(render(report))


def register(app: typer.Typer) -> None:
    app.command("advise")(advise_command)
