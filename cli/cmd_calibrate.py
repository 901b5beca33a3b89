"""``cuatrola calibrate``: predicted odds against what happened, from self-play records."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Iterable, List, Optional, Sequence

import typer
from tabulate import tabulate

from cuatrola_solver import __version__
from cuatrola_solver.models import played
from cuatrola_solver.lab.calibration import (DEFAULT_BINS, Calibration, Prediction, read_records,
                                             with_card_predictions)
from cuatrola_solver.errors import quote
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.game.rules import get_rules

from .common import (JsonOption, check_outputs, check_writable, emit_json, fail,
                     need_matplotlib, save_figure, user_errors)
from cuatrola_solver.lab import fit_played
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, signed

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


def group_label(g: dict) -> str:
    """The name of a group of predictions in the current language (the report's
    ``group``, which --json keeps, in English)."""
    if g.get("cards"):
        if "trick" not in g:
            return _("cards, overall")
        return _("cards, trick {trick}, {role}").format(
            trick=g["trick"], role=_(ROLES.get(g["role"], g["role"])))
    if g["group"] == "overall":
        return _("overall")
    if "side" in g:
        return _("paso, side {side}").format(side=g["side"])
    if g.get("contract") is None:
        return _("seat {seat}").format(seat=g["seat"])
    return _("{contract}, seat {seat}").format(contract=g["contract"], seat=g["seat"])


def render(report: dict) -> str:
    rows = []
    for g in report["groups"]:
        if not g["n"]:
            continue
        rows.append([group_label(g), count(g["n"]), _pct(g["mean_p"]), _pct(g["observed"]),
                     _range(g["observed_ci95"][0], g["observed_ci95"][1]), signed(100 * g["bias"], 1),
                     decimal(g["brier"], 3), _pct(g["ece"])])
    values = dict(records=count(report["records"]), without=count(report["without_odds"]))
    if any(g.get("cards") for g in report["groups"]):
        head = ngettext("{records} record ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result; "
                        "cards: P(win) of the seat's side after the card it chose",
                        "{records} records ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result; "
                        "cards: P(win) of the seat's side after the card it chose",
                        report["records"]).format(**values)
    else:
        head = ngettext("{records} record ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result",
                        "{records} records ({without} without odds); predicted P(win) of the "
                        "contract played (paso: of each seat's side) against the result",
                        report["records"]).format(**values)
    lines = [head, "",
             tabulate(rows, headers=[_("group"), "n", _("predicted %"), _("won %"), "95%",
                                     _("bias"), "Brier", "ECE %"], disable_numparse=True)]
    overall = next((g for g in report["groups"] if g["group"] == "overall"), None)
    if overall and overall["n"]:
        bins = [[_range(b["bin"][0], b["bin"][1], scale=1), count(b["count"]),
                 _pct(b["mean_p"]), _pct(b["observed"]), _range(b["ci95"][0], b["ci95"][1])]
                for b in overall["bins"]]
        lines += ["", _("reliability, all predictions:"),
                  tabulate(bins, headers=[_("predicted"), "n", _("mean %"), _("won %"), "95%"],
                           disable_numparse=True)]
    return "\n".join(lines)


def plot(report: dict, path: str) -> None:
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
    for g in report["groups"]:
        if g.get("contract") is None or not g["n"] or g["n"] < PLOT_MIN:
            continue
        if g["contract"] == "paso" and "seat" in g:
            continue                            # paso is drawn per side
        bins = [b for b in g["bins"] if b["count"] >= PLOT_MIN_BIN]
        if not bins:
            continue                            # no point to draw: no line, no legend
        xs = [b["mean_p"] for b in bins]
        ys = [b["observed"] for b in bins]
        left.plot(xs, ys, marker="o", ms=3, lw=1.2,
                  label=_("{group} (n={n}, bias {bias})").format(
                      group=group_label(g), n=count(g["n"]), bias=signed(100 * g["bias"], 1)))
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
    overall = next((g for g in report["groups"] if g["group"] == "overall"), None)
    if overall and overall["n"]:
        xs = [b["mean_p"] for b in overall["bins"]]
        ys = [b["observed"] for b in overall["bins"]]
        err = [[y - b["ci95"][0] for y, b in zip(ys, overall["bins"])],
               [b["ci95"][1] - y for y, b in zip(ys, overall["bins"])]]
        right.errorbar(xs, ys, yerr=err, fmt="o-", ms=4, capsize=3, color="C3",
                       label=_("win rate ({ci} Wilson)").format(ci=percent(0.95)))
        counts = right.twinx()
        width = 1 / report["bins"]
        counts.bar([b["bin"][0] + width / 2 for b in overall["bins"]],
                   [b["count"] for b in overall["bins"]], width=width * 0.9, alpha=0.2,
                   color="C0", label=_("predictions"))
        counts.set_ylabel(_("predictions per bin"))
        right.set_zorder(counts.get_zorder() + 1)
        right.patch.set_visible(False)
        right.legend(fontsize=8, loc="upper left")
        right.set_title(_("all predictions: n={n}, Brier {brier}, ECE {ece}").format(
            n=count(overall["n"]), brier=decimal(overall["brier"], 3),
            ece=percent(overall["ece"], 1)))
    else:
        right.text(0.5, 0.5, _("no predictions in these records"), ha="center", va="center",
                   fontsize=10, color="0.35", transform=right.transAxes)
    right.set_ylabel(_("observed win rate"))
    save_figure(fig, path)


def _played_model(spec: str, obj: dict) -> played.PlayedModel:
    """The model ``--model`` names: a file, or 'played' for the records' preset's own."""
    rules = get_rules(obj.get("rules"))
    return played.load_model(rules, None if spec == "played" else spec)


def _fit(cal: Calibration, rules_seen: set, hands: int, records: List[str], out: Path) -> None:
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


def register(app: typer.Typer) -> None:
    @app.command("calibrate")
    @user_errors
    def calibrate_command(
        records: List[str] = typer.Argument(..., help=_("Self-play record files (JSON "
                                            "lines, as selfplay --out writes them).")),
        bins: int = typer.Option(DEFAULT_BINS, "--bins", min=1, max=100,
                                 help=_("Bins of predicted P(win).")),
        plot_file: Optional[str] = typer.Option(
            None, "--plot", help=_("Draw the reliability curves and the win rate by "
                                 "predicted probability into this file (.png or .svg; "
                                 "needs matplotlib, the 'lab' extra).")),
        model: Optional[str] = typer.Option(
            None, "--model", help=_("Judge the played odds of this played-odds model file "
            "('played': the preset's own) instead of the recorded double-dummy odds.")),
        fit: bool = typer.Option(False, "--fit", help=_("Fit a played-odds model on the "
                                 "records' predictions and outcomes (write it with -o).")),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help=_("With --fit: the "
                                           "model file to write.")),
        player: Optional[str] = typer.Option(
            None, "--player", metavar="SPEC", help=_("Only the calls of the seats playing this "
            "player (a line-up of the records, e.g. 'pimc:odds=played,inference=1'): the "
            "odds it bid on.")),
        cards: bool = typer.Option(False, "--cards", help=_("Also the cards: at each card a "
                                   "seat chose, the hint's P(win) of that card on what the "
                                   "seat knew, against the result (about 0.03 s a hand); "
                                   "with --fit, the model's card cells (hint and analyze "
                                   "use them).")),
        card_samples: int = typer.Option(100, "--card-samples", min=1, max=100000,
                                         metavar="N", help=_("With --cards: deals per hint.")),
        seed: int = typer.Option(0, "--seed", min=0, help=_("With --cards: seed of the "
                                 "hints (record n, card k: seed + 100 n + k).")),
        workers: int = typer.Option(1, "--workers", "-w", min=1, max=64, help=_("With "
                                    "--cards: processes sharing the records (the result "
                                    "does not depend on it).")),
        no_inference: bool = typer.Option(
            False, "--no-inference", help=_("With --cards: deal the hidden cards as if the "
            "calls said nothing (by default they are weighted by the calls, as hint does, "
            "except in records whose calls were forced).")),
        json_out: bool = JsonOption,
    ) -> None:
        """Predicted odds against outcomes: reliability tables, Brier score, expected
        calibration error and bias, per contract and seat (paso per side); --fit makes
        the played-odds model that advise uses."""
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
        cal = Calibration(bins, player=None if player is None
                          else repr(parse_player(player)))
        if fit:
            cal.kept = []
        rules_seen: set = set()
        hands = 0
        models: dict = {}               # --model played: each record's preset's own

        def model_of(obj: dict):
            """The played-odds model a record is judged by (None without --model)."""
            if model is None:
                return None
            key = json.dumps(obj.get("rules"), sort_keys=True)
            if key not in models:
                models[key] = _played_model(model, obj)
                if cards and not models[key].has_cards:
                    if model == "played":
                        fail(_("--model {model} has no card cells for {rules}: fit it with "
                               "--cards to judge the cards").format(
                            model=quote(model), rules=get_rules(obj.get("rules")).name))
                    fail(_("--model {model} has no card cells: fit it with --cards to judge "
                           "the cards").format(model=quote(model)))
            return models[key]

        for path in records:
            items: Iterable[tuple[dict, str, Sequence[Prediction]]] = (
                (obj, w, ()) for obj, w in read_records(path))
            if cards:
                items = with_card_predictions(
                    read_records(path), samples=card_samples, seed=seed + 100 * hands,
                    workers=workers, infer=not no_inference)
            for obj, winner, card_preds in items:
                rules_seen.add(json.dumps(obj.get("rules", "online"), sort_keys=True))
                hands += 1
                cal.add_record(obj, winner, card_preds, played=model_of(obj))
        if fit:
            assert out is not None, "--fit without --out is refused above"
            _fit(cal, rules_seen, hands, records, out)
        report = cal.to_dict()
        if model is not None:
            report["played_model"] = model
        if plot_file is not None:
            plot(report, plot_file)
        if json_out:
            emit_json(report)
            return
        typer.echo(render(report))
