"""``cuatrola compare``: where the two line-ups of a duplicate run part, and the
properties of the game behind PIMC's play."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.lab.compare import compare
from cuatrola_solver.i18n import _

from .common import JsonOption, emit_json, user_errors

#: the first column of each tally of the partings, and its heading
TALLIES = (("by_trick", "trick", "baza"), ("by_contract", "contract", "contract"),
           ("by_role", "role", "role"), ("by_seat", "seat", "seat"))


def _mean(d: dict) -> str:
    """``+0.028 [+0.005, +0.051]``: a mean per hand and its 95% interval."""
    if d["mean"] is None:
        return "-"
    if d["ci95"] is None:
        return f"{d['mean']:+.3f}"
    return f"{d['mean']:+.3f} [{d['ci95'][0]:+.3f}, {d['ci95'][1]:+.3f}]"


def _pct(d: dict) -> list[str]:
    """A share as a percentage, and its 95% interval."""
    if d["mean"] is None:
        return ["-", "-"]
    ci = "-" if d["ci95"] is None else f"{100 * d['ci95'][0]:.1f}-{100 * d['ci95'][1]:.1f}"
    return [f"{100 * d['mean']:.1f}", ci]


def _partings(report: dict) -> list[str]:
    p = report["partings"]
    n = p["boards"]

    def share(k: int) -> str:
        return f"{100 * k / n:.1f}%"

    lines = ["", "where the two plays of a board part: the first decision that differs (the "
             "same seat,", "the same cards before, another card or cante); a - b per hand "
             "over those boards, and", "their share of the run's a - b (95% intervals over "
             "boards):",
             f"  no difference    {p['none']} boards ({share(p['none'])}): 0 each"]
    for kind, what in (("card", "a card"), ("cante", "a cante")):
        k = p[kind]
        lines.append(f"  {what:<16} {k['boards']} boards ({share(k['boards'])})"
                     + (f": {_mean(k['mean'])}, share {_mean(k['share'])}" if k["boards"]
                        else ""))
    k = p["calls"]
    lines.append(f"  the calls differ {k['boards']} boards ({share(k['boards'])}), counted apart"
                 + (f": {_mean(k['mean'])}, share {_mean(k['share'])}" if k["boards"] else ""))
    for name, key, heading in TALLIES:
        rows = [[r[key], r["boards"], f"{100 * r['boards'] / n:.1f}", _mean(r["mean"]),
                 _mean(r["share"]), f"{r['a_ahead']}/{r['level']}/{r['a_behind']}",
                 f"{r['dd']['a']}/{r['dd']['same']}/{r['dd']['b']}"] for r in p[name]]
        lines += ["", f"by {heading} of the first difference:",
                  tabulate(rows, headers=[heading, "boards", "%", "a - b (these boards)",
                                          "share of a - b", "a +/=/-", "dd a/=/b"],
                           disable_numparse=True)]
    lines += ["(a +/=/-: boards where a scored more, as much, less; dd a/=/b: where a's card, "
              "either,", "or b's kept the better result double dummy on the actual deal)"]
    return lines


def _properties(props: dict) -> list[str]:
    rows = [[t["trick"], t["decisions"], f"{t['layouts_median']:,g}", f"{t['bits']:.1f}",
             f"{100 * t['bits_left']:.0f}", *_pct(t["known"]), *_pct(t["dd_alike"])]
            for t in props["by_trick"]]
    lines = ["", f"the hands' properties ({props['hands']} hands; a decision: a card played "
             f"with two legal cards or more)", "disambiguation: the layouts of the hidden "
             "cards the seat on turn cannot tell apart,", "by baza (bits: their log2; known: "
             "one layout); dd alike: every legal card gives the same", "result double dummy:",
             tabulate(rows, headers=["baza", "decisions", "layouts (median)", "bits",
                                     "bits left %", "known %", "95%", "dd alike %", "95%"],
                      disable_numparse=True)]
    for key, title in (("leaf_correlation", "leaf correlation: at the last decision of each "
                        "hand, every legal card gives\nthe same result double dummy"
                        + (f" ({props['without_choice']} hands without a decision left out)"
                           if props["without_choice"] else "")),
                       ("bias", "bias: the declaring side (paso: side A) wins double dummy "
                        "from the first lead")):
        rows = [[r["contract"], r["hands"], *_pct(r["share"])] for r in props[key]]
        lines += ["", title + ":",
                  tabulate(rows, headers=["contract", "hands", "%", "95%"],
                           disable_numparse=True)]
    return lines


def _asked(asked: dict) -> list[str]:
    lines = ["", f"{asked['player']} asked at each of line-up a's {asked['decisions']:,} "
             f"decisions (the same view and seed):", "how often it would play another "
             "card, and where it would, whose card kept the better", "result double dummy "
             "(dd a/=/b):"]
    for name, key, heading in TALLIES[:3]:
        rows = [[r[key], r["decisions"], *_pct(r["differ"]),
                 f"{r['dd']['a']}/{r['dd']['same']}/{r['dd']['b']}"] for r in asked[name]]
        lines += ["", tabulate(rows, headers=[heading, "decisions", "another card %", "95%",
                                              "dd a/=/b"], disable_numparse=True)]
    return lines


def render(report: dict) -> str:
    lines = [f"{r['run']}: {r['boards']} boards ({r['hands']} hands), rules "
             f"{report['rules']}, seed {r['seed']}"
             + (f"; {r['unfinished']} record of an unfinished board left out"
                if r["unfinished"] else "") for r in report["runs"]]
    if len(report["runs"]) > 1:
        lines.append(f"together: {report['boards']} boards ({report['hands']} hands)")
    lines += [f"  a = {report['a']}", f"  b = {report['b']}"]
    if report["paired"]:
        lines.append(f"a - b, match points per hand: {_mean(report['difference'])} "
                     f"(duplicate, paired by board)")
        lines += _partings(report)
    else:
        lines.append("the two line-ups are the same: each board was played once, so there "
                     "is nothing to pair")
    lines += _properties(report["properties"])
    if "asked" in report:
        lines += _asked(report["asked"])
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("compare")
    @user_errors
    def compare_command(
        runs: List[str] = typer.Argument(..., metavar="RUN", help=_("Duplicate runs of "
                                         "single hands, as selfplay --out writes them "
                                         "(JSON lines): the same two line-ups and rules, "
                                         "any seeds; their boards are pooled.")),
        ask: Optional[str] = typer.Option(
            None, "--ask", metavar="SPEC", help=_("Also ask this player (line-up b's, or "
            "any: 'pimc:samples=100') at each decision line-up a took with a choice, on "
            "the same view and seed: how often it would play another card, by baza, "
            "contract and role (it plays each of those decisions again).")),
        json_out: bool = JsonOption,
    ) -> None:
        """Where the two line-ups of a duplicate run part: the first card that differs,
        by baza, contract, role and seat; and the properties behind PIMC's play
        (disambiguation, leaf correlation, bias)."""
        report = compare(runs, ask).to_dict()
        if json_out:
            emit_json(report)
            return
        typer.echo(render(report))
