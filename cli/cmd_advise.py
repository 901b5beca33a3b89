"""``cuatrola advise``: odds and advice for each call the seat about to speak may make."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.bidding import (DEFAULT_SAMPLES, Advice, Option, OptionResult,
                                             advise, valued)
from cuatrola_solver.game.cards import format_card, format_cards
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.play import side_of
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


def _half(ci: tuple[float, float]) -> str:
    half = (ci[1] - ci[0]) / 2
    return ("±" + percent(half) if half >= 0.005 else "±<" + percent(0.01) if half > 0
            else _("exact"))


def describe_contract(option: Option, seat: int) -> str:
    """``solo by 1 (you)``: the contract a call leads to, and who plays it."""
    decl = option.declarer
    if option.contract == "paso":
        return _("paso (all four play)")
    if len(decl) == 2:
        return _("contrasolo {seat} v {other}").format(seat=decl[0], other=decl[1])
    who = _("you") if decl[0] == seat else (_("partner") if (decl[0] - seat) % 4 == 2
                                            else _("opponent"))
    return _("{contract} by {seat} ({who})").format(contract=option.contract, seat=decl[0],
                                                    who=who)


def _verb(advice: Advice) -> str:
    """``Call paso (defend seat 1's solo)``: the advised call, and for a paso under a
    bid, who plays the contract."""
    best = advice.best.option
    if best.bid != "paso" or best.contract == "paso":
        return _("Call {bid}").format(bid=best.bid)
    seat = best.declarer[0]
    if side_of(seat) != side_of(advice.seat):
        return _("Call {bid} (defend seat {seat}'s {contract})").format(
            bid=best.bid, seat=seat, contract=best.contract)
    return _("Call {bid} (your partner plays the {contract})").format(
        bid=best.bid, contract=best.contract)


def advice_sentence(advice: Advice) -> str:
    """``Call solo: you win 83% (±1%), +1.32 points per hand on average; paso: 61%,
    +0.22``: the advised call named as the others are, by its word in the game (the
    figures the advice was chosen on: played odds with a played-odds model)."""
    best = advice.best
    you = best.option.contract != "paso" and best.option.declarer == (advice.seat,)
    text = ((_("{call}: you win {p}") if you else _("{call}: your side wins {p}")).format(
                call=_verb(advice), p=_pct(valued(best.p_rated)))
            + (_(" at the table ({p} double dummy)").format(p=_pct(valued(best.p_win)))
               if advice.played else "" if advice.exact else f" ({_half(valued(best.ci95))})")
            + _(", {ev} points per hand on average").format(ev=signed(valued(best.ev_rated)))
            + (_(", {p} to win the match").format(p=_pct(valued(best.p_match)))
               if advice.for_match else ""))
    others = [f"{o.option.bid}: {_pct(valued(o.p_rated))}, {signed(valued(o.ev_rated))}"
              + (_(", match {p}").format(p=_pct(valued(o.p_match))) if advice.for_match else "")
              for o in advice.options if o.option.allowed and o.option.bid != advice.advice]
    return text + ("; " + "; ".join(others) if others else "")


def dd_note(advice: Advice) -> str | None:
    """With played odds, when double dummy would advise another call."""
    dd = advice.advice_dd
    if dd is None or dd == advice.advice:
        return None
    return _("Double dummy (every card seen) the advice would be {dd}; at the table, where "
             "each player sees only his own cards, {advice} does better.").format(
                 dd=dd, advice=advice.advice)


def match_note(advice: Advice) -> str | None:
    """With the match score, when the call for the match is not the call for the hand."""
    hand = advice.advice_per_hand
    if hand is None or hand == advice.advice or advice.score is None:
        return None
    best, alt = advice.best, advice.option(hand)
    # the points the per-hand advice was chosen on
    ev, best_ev = valued(alt.ev_rated), valued(best.ev_rated)
    places = 2
    while places < 4 and f"{ev:+.{places}f}" == f"{best_ev:+.{places}f}":
        places += 1                      # show the difference that decided it
    return _("At {a}-{b} the match comes first: {hand} scores more per hand ({ev} against "
             "{best_ev}) but wins the match {p} of the time, {best} {best_p}.").format(
                 a=advice.score.A, b=advice.score.B, hand=hand,
                 ev=signed(ev, places), best_ev=signed(best_ev, places),
                 p=_pct(valued(alt.p_match)), best=advice.advice,
                 best_p=_pct(valued(best.p_match)))


def _headers(advice: Advice) -> list[str]:
    played = advice.played
    return ([_("call"), _("contract")] + ([_("P(win) played"), _("EV played")] if played else [])
            + [_("P(win) dd") if played else _("P(win)"), _("{p} interval").format(p=percent(0.95)),
               _("EV dd") if played else _("EV")]
            + ([_("P(match)")] if advice.for_match else []) + [_("tricks 0-5"), _("note")])


def _row(advice: Advice, r: OptionResult, columns: int) -> list[str]:
    """An option's row of the table: a refused call with its reason."""
    o = r.option
    if not o.allowed:
        return [o.bid, _("not allowed")] + [""] * (columns - 3) + [_(valued(o.reason))]
    lo, hi = valued(r.ci95)
    return ([o.bid, describe_contract(o, advice.seat)]
            + ([percent(valued(r.p_played), 1), signed(valued(r.ev_played))] if advice.played
               else [])
            + [percent(valued(r.p_win), 1),
               _("exact") if advice.exact else f"{decimal(100 * lo, 1)}-{percent(hi, 1)}",
               signed(valued(r.ev))]
            + ([percent(valued(r.p_match), 1)] if advice.for_match else [])
            + [histogram(valued(r.tricks)) + f" ({o.side_name})",
               _("<- advice") if o.bid == advice.advice else ""])


def render(advice: Advice) -> str:
    """The table of every call: its contract, odds, interval, EV and tricks."""
    head = _headers(advice)
    return str(tabulate([_row(advice, r, len(head)) for r in advice.options], headers=head,
                        disable_numparse=True))


def describe_deals(advice: Advice) -> str:
    """``300 sampled deals, seed 4, weighted by the calls made so far (worth 212 deals)``."""
    n = advice.deals
    how = (ngettext("all {n} consistent deal", "all {n} consistent deals", n)
           if advice.exact else
           ngettext("{n} sampled deal, seed {seed}", "{n} sampled deals, seed {seed}", n)
           ).format(n=count(n), seed=advice.seed)
    shown = advice.effective_deals_shown
    if shown is not None:
        how += _(", weighted by the calls made so far (worth {n} deals)").format(
            n=count(round(shown)))
    return how


def heading(advice: Advice) -> str:
    """``seat 1, Ac 3c Ro Co So, muestra 3c (triunfo copas), rules online; ...``."""
    odds = (_("played odds (the preset's self-play model) beside double dummy")
            if advice.played else _("double dummy"))
    if advice.seat < 4:
        odds += _(", later seats pass")
    return _("seat {seat}, {hand}, {muestra}, rules {rules}; {how}; {odds}").format(
        seat=advice.seat, hand=format_cards(advice.hand),
        muestra=muestra_text(format_card(advice.muestra)), rules=advice.rules.name,
        how=describe_deals(advice), odds=odds)


def report(advice: Advice) -> str:
    """The human answer: the advice in a sentence, its notes, what it was computed on,
    the constraints assumed, and the table."""
    lines = [advice_sentence(advice) + "."]
    lines += [note for note in (match_note(advice), dd_note(advice)) if note]
    lines.append(colour_cards(heading(advice)))
    line = constraints_line(advice.constraints, advice.layouts)
    if line:
        lines.append(colour_cards(line))
    lines.append(render(advice))
    return "\n".join(lines)


def bidding_view(hand: str, muestra: str, seat: int, auction: str | None, score: str | None,
                 rules: str, constrain: list[str] | None) -> View:
    """The seat's view on its turn to speak, from the command's options."""
    check_seat(seat, "--seat")
    rs = load_rules(rules)
    assumed = command_constraints(constrain)
    return View.bidding(hand, muestra, seat, auction, rs,
                        parse_score(score, rules=rs) if score is not None else None
                        ).assuming(assumed)


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
    view = bidding_view(hand, muestra, seat, auction, score, rules, constrain)
    models = command_models(view.rules, model_name, inference=not no_inference)
    with progress_bar(_("advise")) as bar:
        result = advise(view, budget, models, progress=bar)
    if json_out:
        emit_json(result.to_dict())
    else:
        typer.echo(report(result))


def register(app: typer.Typer) -> None:
    app.command("advise")(advise_command)
