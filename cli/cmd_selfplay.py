"""``cuatrola selfplay``: duplicate tournaments between two line-ups of players."""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.lab import selfplay
from cuatrola_solver.i18n import _

from .common import (JsonOption, MAX_WORKERS, RulesOption, check_writable, emit_json, fail,
                     user_errors)


def _interval(d: dict, scale: float = 1.0, digits: int = 3) -> str:
    if d["mean"] is None:
        return "-"
    text = f"{scale * d['mean']:+.{digits}f}" if scale == 1.0 else f"{scale * d['mean']:.1f}"
    if d["ci95"] is None:
        return text
    lo, hi = (scale * x for x in d["ci95"])
    return text + (f"  [{lo:+.{digits}f}, {hi:+.{digits}f}]" if scale == 1.0
                   else f"  [{lo:.1f}, {hi:.1f}]")


def render(s: dict) -> str:
    boards = s["boards"]
    twice = s["a"] != s["b"]
    unit = (("deals, each played twice" if twice else "deals") if s["mode"] == "hands"
            else "pairs of matches" if twice else "matches")
    pts = s["points_per_hand"]
    lines = [f"{boards} {unit} ({s['hands']} hands), rules {s['rules']}, seed {s['seed']}",
             f"  a = {s['a']}", f"  b = {s['b']}", "",
             "match points per hand (95% interval; boards are the unit of the interval):",
             f"  a           {_interval(pts['a'])}",
             f"  b           {_interval(pts['b'])}",
             f"  a - b       {_interval(pts['difference'])}   (duplicate: per hand, paired "
             f"by board)",
             f"hands won by a: {_interval(s['hands_won']['a'], 100)} %"]
    if "matches_won" in s:
        lines.append(f"matches won by a: {_interval(s['matches_won']['a'], 100)} % of "
                     f"{s['matches_won']['matches']}")
    rows = [[r["contract"], r["seat"], r["bid"], f"{100 * r['share']:.1f}", r["by_a"],
             r["by_b"], f"{100 * r['made_rate']:.0f}",
             f"{100 * r['made_ci95'][0]:.0f}-{100 * r['made_ci95'][1]:.0f}"]
            for r in s["contracts"]]
    lines += ["", "contracts played (paso: seat A, made = side A won):",
              tabulate(rows, headers=["contract", "seat", "hands", "%", "by a", "by b",
                                      "made %", "95%"], disable_numparse=True)]
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("selfplay")
    @user_errors
    def selfplay_command(
        a: str = typer.Option(..., "--a", help=_("Line-up a: a player spec, e.g. 'pimc', "
                              "'pimc:samples=80,bid=heuristic', 'heuristic', 'random'.")),
        b: str = typer.Option(..., "--b", help=_("Line-up b, the same way.")),
        hands: Optional[int] = typer.Option(None, "--hands", min=1, help=_("Deals to play, "
                                            "each twice with the line-ups swapped "
                                            "(default 100).")),
        matches: Optional[int] = typer.Option(None, "--matches", min=1, help=_("Pairs of "
                                              "matches to play (same seeds, line-ups "
                                              "swapped) instead of single hands.")),
        rules: str = RulesOption,
        seed: int = typer.Option(0, "--seed", min=0, help=_("Seed of the run: board i is "
                                 "seeded from it and i.")),
        out: Optional[str] = typer.Option(None, "--out", "-o", help=_("Write every hand's "
                                          "record here, one JSON object a line.")),
        workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                              max=MAX_WORKERS, help=_("Local processes "
                                              "(default: all cores).")),
        ray: Optional[str] = typer.Option(None, "--ray", help=_("Run on the Ray cluster at "
                                          "HOST:PORT, or 'auto' (the one started here "
                                          "with 'ray start --head').")),
        resume: bool = typer.Option(False, "--resume", help=_("Continue the run in --out "
                                    "(same options; --hands may grow).")),
        odds_samples: int = typer.Option(selfplay.DEFAULT_ODDS_SAMPLES, "--odds-samples",
                                         min=0, max=100_000, help=_("Deals behind the "
                                         "advisor's odds recorded at each bid decision "
                                         "(0: none; pimc bidders record their own).")),
        auction: Optional[List[str]] = typer.Option(None, "--auction", help=_("Force the "
                                                    "calls, e.g. 'paso solo paso paso'; "
                                                    "repeat to cycle over the deals.")),
        batch: Optional[int] = typer.Option(None, "--batch", min=1, max=1000,
                                            help=_("Boards per task (default: by size).")),
        time_limit: Optional[float] = typer.Option(None, "--time-limit", min=0,
                                                   help=_("Start no new batch after this "
                                                   "many seconds (continue with --resume).")),
        json_out: bool = JsonOption,
    ) -> None:
        """Duplicate tournament between two line-ups: every deal played twice, the
        line-ups swapped, so the luck of the cards cancels."""
        if hands is not None and matches is not None:
            fail(_("give either --hands N or --matches N, not both"))
        if ray is not None and workers is not None:
            fail(_("--workers counts local processes: with --ray the cluster's CPUs work"))
        if out is not None:
            check_writable(Path(out))
        mode, count = ("matches", matches) if matches is not None else ("hands", hands or 100)
        config = selfplay.LabConfig.make(a, b, rules, seed, mode, count, odds_samples,
                                    auction or ())
        from .cmd_advise import progress_bar

        began = time.monotonic()
        with progress_bar("boards") as bar:
            summary = selfplay.run(config, out, workers=workers, ray=ray, resume=resume,
                              batch=batch, time_limit=time_limit, progress=bar)
        elapsed = time.monotonic() - began
        report = summary.to_dict()
        if out is not None:
            report["out"] = out
        if summary.played:
            typer.echo(f"played {summary.played} hands in {elapsed:.1f} s "
                       f"({summary.played / elapsed:.2f} hands/s)", err=True)
        if json_out:
            emit_json(report)
            return
        typer.echo(render(report))
