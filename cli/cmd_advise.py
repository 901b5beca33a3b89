"""``cuatrola advise``: odds and advice for each call the seat about to speak may make."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator, List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.advice.bidding import DEFAULT_SAMPLES, advise
from cuatrola_solver.advice.budget import Progress
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View

from .common import (JsonOption, RulesOption, SeedOption, command_budget,
                     command_constraints, command_models, constrain_option, constraints_line,
                     emit_json, exact_option, load_rules, model_option, samples_option,
                     user_errors, workers_option)
from .render import colour_cards, muestra_text

BARS = "▁▂▃▄▅▆▇█"


@contextmanager
def progress_bar(label: str, enabled: bool | None = None) -> Iterator[Progress | None]:
    """A rich progress bar on stderr (only when stderr is a terminal); yields the
    ``progress(done, total)`` callback the library calls, or None."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def histogram(probs) -> str:
    """Six bars, k = 0..5 tricks, scaled to the tallest; '·' for probability 0."""
    top = max(probs) or 1.0
    return "".join("·" if p == 0 else BARS[min(len(BARS) - 1, int(p / top * len(BARS)))]
                   for p in probs)


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%" if p >= 0.01 or p == 0 else "<1%"


def _half(ci) -> str:
    half = (ci[1] - ci[0]) / 2
    return f"±{100 * half:.0f}%" if half >= 0.005 else "±<1%" if half > 0 else "exact"


def describe_contract(opt: dict, seat: int) -> str:
    decl = opt["declarer"]
    if opt["contract"] == "paso":
        return "paso (all four play)"
    if isinstance(decl, list):
        return f"contrasolo {decl[0]} v {decl[1]}"
    who = "you" if decl == seat else ("partner" if (decl - seat) % 4 == 2 else "opponent")
    return f"{opt['contract']} by {decl} ({who})"


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
    verb = f"Call {best['bid']}"
    if best["bid"] == "paso" and best["contract"] != "paso":
        decl = best["declarer"]
        if _side(decl[0] if isinstance(decl, list) else decl) != _side(seat):
            verb += f" (defend seat {decl[0] if isinstance(decl, list) else decl}'s {best['contract']})"
        else:
            verb += f" (your partner plays the {best['contract']})"
    side = "you" if best["contract"] != "paso" and best["declarer"] == seat else "your side"
    match = "advice_per_hand" in report
    played = report.get("model") == "played"
    p, ev = _yardstick(report)
    text = (f"{verb}: {side} win{'s' if side == 'your side' else ''} {_pct(best[p])}"
            + (f" at the table ({_pct(best['p_win'])} double dummy)" if played else
               "" if report["exact"] else f" ({_half(best['ci95'])})")
            + f", {best[ev]:+.2f} points per hand on average"
            + (f", {_pct(best['p_match'])} to win the match" if match else ""))
    others = [f"{o['bid']}: {_pct(o[p])}, {o[ev]:+.2f}"
              + (f", match {_pct(o['p_match'])}" if match else "")
              for o in report["options"] if o["allowed"] and o["bid"] != best["bid"]]
    return text + ("; " + "; ".join(others) if others else "")


def dd_note(report: dict) -> str | None:
    """With played odds, when double dummy would advise another call."""
    dd = report.get("advice_dd")
    if dd is None or dd == report["advice"]:
        return None
    return (f"Double dummy (every card seen) the advice would be {dd}; at the table, where "
            f"each player sees only his own cards, {report['advice']} does better.")


def match_note(report: dict) -> str | None:
    """With the match score, when the call for the match is not the call for the hand."""
    hand = report.get("advice_per_hand")
    if hand is None or hand == report["advice"]:
        return None
    opts = {o["bid"]: o for o in report["options"]}
    best, alt = opts[report["advice"]], opts[hand]
    _, ev = _yardstick(report)           # the points the per-hand advice was chosen on
    places = 2
    while places < 4 and f"{alt[ev]:+.{places}f}" == f"{best[ev]:+.{places}f}":
        places += 1                      # show the difference that decided it
    return (f"At {report['score']['A']}-{report['score']['B']} the match comes first: "
            f"{hand} scores more per hand ({alt[ev]:+.{places}f} against "
            f"{best[ev]:+.{places}f}) but "
            f"wins the match {_pct(alt['p_match'])} of the time, {best['bid']} "
            f"{_pct(best['p_match'])}.")


def render(report: dict) -> str:
    match = "advice_per_hand" in report
    played = report.get("model") == "played"
    head = (["call", "contract"] + (["P(win) played", "EV played"] if played else [])
            + ["P(win) dd" if played else "P(win)", "95% interval", "EV dd" if played else "EV"]
            + (["P(match)"] if match else []) + ["tricks 0-5", "note"])
    rows = []
    for o in report["options"]:
        if not o["allowed"]:
            rows.append([o["bid"], "not allowed"] + [""] * (len(head) - 3) + [o["reason"]])
            continue
        lo, hi = o["ci95"]
        mark = "<- advice" if o["bid"] == report["advice"] else ""
        rows.append([o["bid"], describe_contract(o, report["seat"])]
                    + ([f"{100 * o['p_played']:.1f}%", f"{o['ev_played']:+.2f}"] if played
                       else [])
                    + [f"{100 * o['p_win']:.1f}%",
                       "exact" if report["exact"] else f"{100 * lo:.1f}-{100 * hi:.1f}%",
                       f"{o['ev']:+.2f}"] + ([f"{100 * o['p_match']:.1f}%"] if match else [])
                    + [histogram(o["tricks"]) + f" ({o['side']})", mark])
    return tabulate(rows, headers=head, disable_numparse=True)


def register(app: typer.Typer) -> None:
    @app.command("advise")
    @user_errors
    def advise_command(
        hand: str = typer.Argument(..., help="Your five cards, e.g. 'Ao 3o Ro Co So'."),
        muestra: str = typer.Option(..., "--muestra", "-m", help="The muestra (face up, "
                                    "in seat 4's hand)."),
        seat: int = typer.Option(..., "--seat", "-s", help="Your seat, 1 to 4 (1 speaks first)."),
        auction: Optional[str] = typer.Option(
            None, "--auction", "-a", help="The calls of the seats before you, e.g. 'paso solo' "
            "(default: they all passed)."),
        score: Optional[str] = typer.Option(None, "--score", help="Match score A-B before the "
                                            "hand, e.g. 3-5: the bid caps, and each call's "
                                            "chance of winning the match (the advice then "
                                            "plays for the match)."),
        samples: Optional[int] = samples_option(
            f"Most deals to sample (default {DEFAULT_SAMPLES}; stops once every "
            f"P(win) is within ±1%)."),
        exact: bool = exact_option(),
        seed: Optional[int] = SeedOption,
        workers: Optional[int] = workers_option("all cores"),
        rules: str = RulesOption,
        no_inference: bool = typer.Option(
            False, "--no-inference", help="Deal the hidden cards as if the calls already "
            "made said nothing (by default each deal is weighted by how likely those calls "
            "were with it: the preset's bid model)."),
        model_name: str = model_option("odds and advice"),
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
        with progress_bar("advise") as bar:
            result = advise(view, budget, models, progress=bar)
        report = result.to_dict()
        if json_out:
            emit_json(report)
            return
        typer.echo(advice_sentence(report) + ".")
        for note in (match_note(report), dd_note(report)):
            if note:
                typer.echo(note)
        how = (f"all {report['deals']:,} consistent deals" if report["exact"] else
               f"{report['deals']:,} sampled deals, seed {report['seed']}")
        if report.get("effective_deals") is not None:
            how += (f", weighted by the calls made so far (worth "
                    f"{report['effective_deals']:,.0f} deals)")
        typer.echo(colour_cards(f"seat {report['seat']}, {report['hand']}, {muestra_text(report['muestra'])}, "
                   f"rules {rs.name}; {how}; "
                   + ("played odds (the preset's self-play model) beside double dummy"
                      if report.get("model") == "played" else "double dummy")
                   + (", later seats pass" if report["seat"] < 4 else "")))
        line = constraints_line(report)
        if line:
            typer.echo(colour_cards(line))
        typer.echo(render(report))
