"""``cuatrola calibrate``: predicted odds against what happened, from self-play records."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver import __version__
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.errors import quote
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, signed
from cuatrola_solver.lab import fit_played
from cuatrola_solver.lab.calibration import (DEFAULT_BINS, Calibration, CalibrationReport,
                                             CardOptions, GroupReport, GroupStats,
                                             PlayedModels, calibrate)

from .common import (JsonOption, check_outputs, check_writable, emit_json, fail,
                     need_matplotlib, save_figure, user_errors)

#: groups drawn in the plot's reliability panel: at least this many predictions, and
#: of their bins those with at least PLOT_MIN_BIN
PLOT_MIN = 20
PLOT_MIN_BIN = 10


def _pct(x: float | None) -> str:
    return "-" if x is None else decimal(100 * x, 1)


def _range(lo: float, hi: float, scale: float = 100, digits: int = 1) -> str:
    return f"{decimal(scale * lo, digits)}-{decimal(scale * hi, digits)}"


#: a card's role (the records' words) as a person reads it
ROLES = {"declarer": N_("declarer"), "defender": N_("defender")}


def group_label(g: GroupReport) -> str:
    """The name of a group of predictions in the current language (the report's
    ``group``, which --json keeps, in English)."""
    if g.cards:
        if g.trick is None:
            return _("cards, overall")
        role = g.role or ""
        return _("cards, trick {trick}, {role}").format(
            trick=g.trick, role=_(ROLES[role]) if role in ROLES else role)
    if g.group == "overall":
        return _("overall")
    if g.side is not None:
        return _("paso, side {side}").format(side=g.side)
    if g.contract is None:
        return _("seat {seat}").format(seat=g.seat)
    return _("{contract}, seat {seat}").format(contract=g.contract, seat=g.seat)


def _group_row(g: GroupReport, s: GroupStats) -> list[str]:
    lo, hi = s.observed_ci95
    return [group_label(g), count(s.n), _pct(s.mean_p), _pct(s.observed), _range(lo, hi),
            signed(100 * s.bias, 1), decimal(s.brier, 3), _pct(s.ece)]


def _headline(report: CalibrationReport) -> str:
    values = dict(records=count(report.records), without=count(report.without_odds))
    if report.with_cards:
        return ngettext("{records} record ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result; "
                        "cards: P(win) of the seat's side after the card it chose",
                        "{records} records ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result; "
                        "cards: P(win) of the seat's side after the card it chose",
                        report.records).format(**values)
    return ngettext("{records} record ({without} without odds); predicted P(win) of the "
                    "contract played (paso: of each seat's side) against the result",
                    "{records} records ({without} without odds); predicted P(win) of the "
                    "contract played (paso: of each seat's side) against the result",
                    report.records).format(**values)


def render(report: CalibrationReport) -> str:
    rows = [_group_row(g, g.stats) for g in report.groups if g.stats is not None]
    lines = [_headline(report), "",
             tabulate(rows, headers=[_("group"), "n", _("predicted %"), _("won %"), "95%",
                                     _("bias"), "Brier", "ECE %"], disable_numparse=True)]
    overall = report.overall
    if overall is not None and overall.stats is not None:
        bins = [[_range(b.lo, b.hi, scale=1), count(b.count), _pct(b.mean_p),
                 _pct(b.observed), _range(b.ci95[0], b.ci95[1])]
                for b in overall.stats.bins]
        lines += ["", _("reliability, all predictions:"),
                  tabulate(bins, headers=[_("predicted"), "n", _("mean %"), _("won %"), "95%"],
                           disable_numparse=True)]
    return "\n".join(lines)


def _plot_groups(left: Any, report: CalibrationReport) -> None:
    """The left panel: the reliability curve of each contract and seat (paso per side)
    with enough predictions."""
    for g in report.groups:
        s = g.stats
        if g.contract is None or s is None or s.n < PLOT_MIN:
            continue
        if g.contract == "paso" and g.seat is not None:
            continue                            # paso is drawn per side
        bins = [b for b in s.bins if b.count >= PLOT_MIN_BIN]
        if not bins:
            continue                            # no point to draw: no line, no legend
        left.plot([b.mean_p for b in bins], [b.observed for b in bins], marker="o", ms=3,
                  lw=1.2, label=_("{group} (n={n}, bias {bias})").format(
                      group=group_label(g), n=count(s.n), bias=signed(100 * s.bias, 1)))
    left.set_ylabel(_("observed win rate"))
    left.set_title(_("reliability by contract and seat (bins of {n}+ predictions)")
                   .format(n=PLOT_MIN_BIN))
    if left.get_lines()[1:]:
        left.legend(fontsize=7, loc="upper left")
    else:
        left.text(0.5, 0.5, _("no contract and seat with {n} predictions or more\n"
                              "and {bin} in a bin: play more hands")
                  .format(n=PLOT_MIN, bin=PLOT_MIN_BIN), ha="center",
                  va="center", fontsize=10, color="0.35", transform=left.transAxes)


def _plot_overall(right: Any, report: CalibrationReport) -> None:
    """The right panel: the win rate by predicted P(win) of all the calls, and the
    predictions per bin."""
    overall = report.overall
    s = None if overall is None else overall.stats
    if s is None:
        right.text(0.5, 0.5, _("no predictions in these records"), ha="center", va="center",
                   fontsize=10, color="0.35", transform=right.transAxes)
        right.set_ylabel(_("observed win rate"))
        return
    xs = [b.mean_p for b in s.bins]
    ys = [b.observed for b in s.bins]
    err = [[y - b.ci95[0] for y, b in zip(ys, s.bins)],
           [b.ci95[1] - y for y, b in zip(ys, s.bins)]]
    right.errorbar(xs, ys, yerr=err, fmt="o-", ms=4, capsize=3, color="C3",
                   label=_("win rate ({ci} Wilson)").format(ci=percent(0.95)))
    counts = right.twinx()
    width = 1 / report.bins
    counts.bar([b.lo + width / 2 for b in s.bins], [b.count for b in s.bins],
               width=width * 0.9, alpha=0.2, color="C0", label=_("predictions"))
    counts.set_ylabel(_("predictions per bin"))
    right.set_zorder(counts.get_zorder() + 1)
    right.patch.set_visible(False)
    right.legend(fontsize=8, loc="upper left")
    right.set_title(_("all predictions: n={n}, Brier {brier}, ECE {ece}").format(
        n=count(s.n), brier=decimal(s.brier, 3), ece=percent(s.ece, 1)))
    right.set_ylabel(_("observed win rate"))


def plot(report: CalibrationReport, path: str) -> None:
    """Draw the reliability curves and the win rate by predicted probability."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(_("--plot needs matplotlib: pip install 'cuatrola-solver[lab]'"))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.2), constrained_layout=True)
    for ax in (left, right):
        ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel(_("predicted P(win)"))
        ax.grid(alpha=0.3)
    _plot_groups(left, report)
    _plot_overall(right, report)
    save_figure(fig, path)


def _fit(cal: Calibration, records: List[str], out: Path) -> None:
    """Fit a played-odds model on the predictions kept and write it to ``out``."""
    rules_seen, hands = cal.rule_sets, cal.records
    if len(rules_seen) != 1:
        fail(_("--fit needs records of one rule set; these have {rules_seen}")
              .format(rules_seen=len(rules_seen)))
    rules = get_rules(json.loads(next(iter(rules_seen))))
    if not cal.kept:
        fail(_("--fit: the records carry no predictions (no bid odds)"))
    command = "cuatrola calibrate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    model = fit_played.fit(cal.kept, rules, {"command": command.strip(), "hands": hands,
                                         "records": [Path(r).name for r in records],
                                         "lab_version": __version__})
    try:
        out.write_text(model.to_json() + "\n", encoding="utf-8")
    except OSError as e:
        fail(_("cannot write the model to {value}: {strerror}")
              .format(value=quote(str(out)), strerror=e.strerror))
    typer.echo(ngettext("played-odds model for {rules}: {predictions} predictions from "
                        "{hands} hand; written to {out}",
                        "played-odds model for {rules}: {predictions} predictions from "
                        "{hands} hands; written to {out}", hands).format(
        rules=rules.name, predictions=count(len(cal.kept)), hands=count(hands), out=out),
        err=True)


def _check_options(records: List[str], plot_file: str | None, fit: bool, out: Path | None,
                   model: str | None) -> None:
    """Refuse the options that do not go together, and outputs that cannot be written
    or would overwrite an input, before any work."""
    if plot_file is not None and Path(plot_file).suffix.lower() not in (".png", ".svg"):
        fail(_("bad plot file {plot_file}: expected a name ending in .png or .svg")
              .format(plot_file=quote(plot_file)))
    if plot_file is not None:
        check_writable(Path(plot_file))
        need_matplotlib()
    if fit and out is None:
        fail(_("--fit needs -o FILE, the model file to write (the shipped model is never "
               "overwritten)"))
    if out is not None and not fit:
        fail(_("-o FILE goes with --fit"))
    if out is not None:
        check_writable(out)
    if model not in (None, "played") and not Path(model).is_file():
        fail(_("--model {model}: no such file (give a played-odds model file, or 'played' "
               "for each preset's own)")
              .format(model=quote(model)))
    check_outputs([("-o", out), ("--plot", plot_file)],
                  [("a records file", r) for r in records]
                  + [("the --model file", None if model in (None, "played") else model)])


@user_errors
def calibrate_command(
    records: List[str] = typer.Argument(..., help=N_("Self-play record files (JSON "
                                        "lines, as selfplay --out writes them).")),
    bins: int = typer.Option(DEFAULT_BINS, "--bins", min=1, max=100,
                             help=N_("Bins of predicted P(win).")),
    plot_file: Optional[str] = typer.Option(
        None, "--plot", help=N_("Draw the reliability curves and the win rate by "
                                "predicted probability into this file (.png or .svg; "
                                "needs matplotlib, the 'lab' extra).")),
    model: Optional[str] = typer.Option(
        None, "--model", help=N_("Judge the played odds of this played-odds model file "
        "('played': the preset's own) instead of the recorded double-dummy odds.")),
    fit: bool = typer.Option(False, "--fit", help=N_("Fit a played-odds model on the "
                             "records' predictions and outcomes (write it with -o).")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=N_("With --fit: the "
                                       "model file to write.")),
    player: Optional[str] = typer.Option(
        None, "--player", metavar="SPEC", help=N_("Only the calls of the seats playing this "
        "player (a line-up of the records, e.g. 'pimc:odds=played,inference=1'): the "
        "odds it bid on.")),
    cards: bool = typer.Option(False, "--cards", help=N_("Also the cards: at each card a "
                               "seat chose, the hint's P(win) of that card on what the "
                               "seat knew, against the result (about 0.03 s a hand); "
                               "with --fit, the model's card cells (hint and analyze "
                               "use them).")),
    card_samples: int = typer.Option(100, "--card-samples", min=1, max=100000,
                                     metavar="N", help=N_("With --cards: deals per hint.")),
    seed: int = typer.Option(0, "--seed", min=0, help=N_("With --cards: seed of the "
                             "hints (record n, card k: seed + 100 n + k).")),
    workers: int = typer.Option(1, "--workers", "-w", min=1, max=64, help=N_("With "
                                "--cards: processes sharing the records (the result "
                                "does not depend on it).")),
    no_inference: bool = typer.Option(
        False, "--no-inference", help=N_("With --cards: deal the hidden cards as if the "
        "calls said nothing (by default they are weighted by the calls, as hint does, "
        "except in records whose calls were forced).")),
    json_out: bool = JsonOption,
) -> None:
    """Predicted odds against outcomes: reliability tables, Brier score, expected
    calibration error and bias, per contract and seat (paso per side); --fit makes
    the played-odds model that advise uses."""
    _check_options(records, plot_file, fit, out, model)
    cal = calibrate(
        records, Calibration(bins, player=None if player is None else repr(parse_player(player)),
                             keep=fit),
        models=None if model is None else PlayedModels(model, cards),
        cards=CardOptions(card_samples, seed, workers, not no_inference) if cards else None)
    if out is not None:
        _fit(cal, records, out)
    report = cal.report(played_model=model)
    if plot_file is not None:
        plot(report, plot_file)
    if json_out:
        emit_json(report.to_dict())
        return
    typer.echo(render(report))


def register(app: typer.Typer) -> None:
    app.command("calibrate")(calibrate_command)
