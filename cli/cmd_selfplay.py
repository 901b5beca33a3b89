"""``cuatrola selfplay``: duplicate tournaments between two line-ups of players."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.selfplay import ContractRow, Estimate, RunReport
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, signed

from .common import (JsonOption, MAX_WORKERS, RulesOption, check_writable, emit_json, fail,
                     user_errors)
from .progress import progress_bar


def _interval(e: Estimate, scale: float = 1.0, digits: int = 3) -> str:
    if e.mean is None:
        return "-"
    def number(x: float) -> str:
        return signed(x, digits) if scale == 1.0 else decimal(x, 1)

    text = number(scale * e.mean)
    if e.ci95 is None:
        return text
    lo, hi = (scale * x for x in e.ci95)
    return text + "  " + _("[{lo}, {hi}]").format(lo=number(lo), hi=number(hi))


def _headline(s: RunReport) -> str:
    """The first line: what was played, under which rules and seed."""
    boards, twice = s.boards, s.paired
    values = dict(boards=count(boards), hands=count(s.hands), rules=s.config.rules,
                  seed=s.config.seed)
    if s.config.mode == "hands" and twice:
        return ngettext("{boards} deal, each played twice ({hands} hands), rules {rules}, "
                        "seed {seed}",
                        "{boards} deals, each played twice ({hands} hands), rules {rules}, "
                        "seed {seed}", boards).format(**values)
    if s.config.mode == "hands":
        return ngettext("{boards} deal ({hands} hands), rules {rules}, seed {seed}",
                        "{boards} deals ({hands} hands), rules {rules}, seed {seed}",
                        boards).format(**values)
    if twice:
        return ngettext("{boards} pair of matches ({hands} hands), rules {rules}, seed {seed}",
                        "{boards} pairs of matches ({hands} hands), rules {rules}, seed {seed}",
                        boards).format(**values)
    return ngettext("{boards} match ({hands} hands), rules {rules}, seed {seed}",
                    "{boards} matches ({hands} hands), rules {rules}, seed {seed}",
                    boards).format(**values)


def _contract_row(r: ContractRow) -> list[object]:
    lo, hi = r.made_ci95
    return [r.contract, r.seat, count(r.bid),
            "-" if r.share is None else decimal(100 * r.share, 1),
            count(r.by_a), count(r.by_b), decimal(100 * r.made_rate, 0),
            f"{decimal(100 * lo, 0)}-{decimal(100 * hi, 0)}"]


def render(s: RunReport) -> str:
    lines = [_headline(s), f"  a = {s.config.a}", f"  b = {s.config.b}", "",
             _("match points per hand ({ci} interval; boards are the unit of the "
               "interval):").format(ci=percent(0.95)),
             f"  a           {_interval(s.points_a)}",
             f"  b           {_interval(s.points_b)}",
             "  a - b       " + _("{interval}   (duplicate: per hand, paired by board)").format(
                 interval=_interval(s.difference)),
             _("hands won by a: {interval} %").format(
                 interval=_interval(s.hands_won, 100))]
    if s.matches_won is not None:
        lines.append(_("matches won by a: {interval} of {matches}").format(
            interval=_interval(s.matches_won, 100) + " %", matches=count(s.matches)))
    rows = [_contract_row(r) for r in s.contracts]
    lines += ["", _("contracts played (paso: seat A, made = side A won):"),
              tabulate(rows, headers=[_("contract"), _("seat"), _("hands"), "%", _("by a"),
                                      _("by b"), _("made %"), "95%"], disable_numparse=True)]
    return "\n".join(lines)


def _check(hands: int | None, matches: int | None, workers: int | None, ray: str | None,
           out: str | None) -> None:
    if hands is not None and matches is not None:
        fail(_("give either --hands N or --matches N, not both"))
    if ray is not None and workers is not None:
        fail(_("--workers counts local processes: with --ray the cluster's CPUs work"))
    if out is not None:
        check_writable(Path(out))


@user_errors
def selfplay_command(
    a: str = typer.Option(..., "--a", help=N_("Line-up a: a player spec, e.g. 'pimc', "
                          "'pimc:samples=80,bid=heuristic', 'heuristic', 'random'.")),
    b: str = typer.Option(..., "--b", help=N_("Line-up b, the same way.")),
    hands: Optional[int] = typer.Option(None, "--hands", min=1, help=N_("Deals to play, "
                                        "each twice with the line-ups swapped "
                                        "(default 100).")),
    matches: Optional[int] = typer.Option(None, "--matches", min=1, help=N_("Pairs of "
                                          "matches to play (same seeds, line-ups "
                                          "swapped) instead of single hands.")),
    rules: str = RulesOption,
    seed: int = typer.Option(0, "--seed", min=0, help=N_("Seed of the run: board i is "
                             "seeded from it and i.")),
    out: Optional[str] = typer.Option(None, "--out", "-o", help=N_("Write every hand's "
                                      "record here, one JSON object a line.")),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          max=MAX_WORKERS, help=N_("Local processes "
                                          "(default: all cores).")),
    ray: Optional[str] = typer.Option(None, "--ray", help=N_("Run on the Ray cluster at "
                                      "HOST:PORT, or 'auto' (the one started here "
                                      "with 'ray start --head').")),
    resume: bool = typer.Option(False, "--resume", help=N_("Continue the run in --out "
                                "(same options; --hands may grow).")),
    odds_samples: int = typer.Option(selfplay.DEFAULT_ODDS_SAMPLES, "--odds-samples",
                                     min=0, max=100_000, help=N_("Deals behind the "
                                     "advisor's odds recorded at each bid decision "
                                     "(0: none; pimc bidders record their own).")),
    auction: Optional[List[str]] = typer.Option(None, "--auction", help=N_("Force the "
                                                "calls, e.g. 'paso solo paso paso'; "
                                                "repeat to cycle over the deals.")),
    batch: Optional[int] = typer.Option(None, "--batch", min=1, max=1000,
                                        help=N_("Boards per task (default: by size).")),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", min=0,
                                               help=N_("Start no new batch after this "
                                               "many seconds (continue with --resume).")),
    json_out: bool = JsonOption,
) -> None:
    """Duplicate tournament between two line-ups: every deal played twice, the
    line-ups swapped, so the luck of the cards cancels."""
    _check(hands, matches, workers, ray, out)
    mode, size = ("matches", matches) if matches is not None else ("hands", hands or 100)
    config = selfplay.LabConfig.make(a, b, rules, seed, mode, size, odds_samples,
                                     auction or ())
    began = time.monotonic()
    with progress_bar(_("boards")) as bar:
        summary = selfplay.run(config, out, workers=workers, ray=ray, resume=resume,
                               batch=batch, time_limit=time_limit, progress=bar)
    elapsed = time.monotonic() - began
    if summary.played:
        typer.echo(ngettext("played {n} hand in {seconds} s ({rate} hands/s)",
                            "played {n} hands in {seconds} s ({rate} hands/s)",
                            summary.played).format(
            n=count(summary.played), seconds=decimal(elapsed, 1),
            rate=decimal(summary.played / elapsed)), err=True)
    report = summary.report(out)
    if json_out:
        emit_json(report.to_dict())
        return
    typer.echo(render(report))


def register(app: typer.Typer) -> None:
    app.command("selfplay")(selfplay_command)
