"""``cuatrola compare``: where the two line-ups of a duplicate run part, and the
properties of the game behind PIMC's play."""

from __future__ import annotations

from typing import List, Optional

import typer
from tabulate import tabulate

from cuatrola_solver.lab.compare import (AskedReport, ComparisonReport, DoubleDummy, KindRow,
                                         PartingsReport, PropertiesReport, RunFile, Share,
                                         compare)
from cuatrola_solver.lab.selfplay import Estimate
from cuatrola_solver.i18n import (N_, _, count, decimal, ngettext, percent, pgettext,
                                  signed)

from .common import JsonOption, emit_json, user_errors

#: the first column of each tally of the partings, its heading and its title
TALLIES = (("trick", N_("baza"), N_("by baza of the first difference:")),
           ("contract", N_("contract"), N_("by contract of the first difference:")),
           ("role", N_("role"), N_("by role of the first difference:")),
           ("seat", N_("seat"), N_("by seat of the first difference:")))
#: the roles of the records (``declarer``, ``defender``, in paso ``side A``/``side B``)
ROLES = {"declarer": N_("declarer"), "defender": N_("defender")}


def _key(key: str, value: object) -> str:
    """A tally's first column as a person reads it (the JSON keeps the records' words)."""
    if key == "role" and isinstance(value, str):
        if value in ROLES:
            return _(ROLES[value])
        if value.startswith("side "):
            return _("side {letter}").format(letter=value[len("side "):])
    if key == "contract" and value == "all":
        return pgettext("contracts", "all")
    return str(value)


def _mean(e: Estimate) -> str:
    """``+0.028 [+0.005, +0.051]``: a mean per hand and its 95% interval."""
    if e.mean is None:
        return "-"
    if e.ci95 is None:
        return signed(e.mean, 3)
    return signed(e.mean, 3) + " " + _("[{lo}, {hi}]").format(
        lo=signed(e.ci95[0], 3), hi=signed(e.ci95[1], 3))


def _pct(s: Share) -> list[str]:
    """A share as a percentage, and its 95% interval."""
    if s.mean is None:
        return ["-", "-"]
    ci = ("-" if s.ci95 is None
          else f"{decimal(100 * s.ci95[0], 1)}-{decimal(100 * s.ci95[1], 1)}")
    return [decimal(100 * s.mean, 1), ci]


def _number(x: float) -> str:
    """A median count of layouts: ``90,090`` or ``808.5``."""
    if float(x).is_integer() and abs(x) < 1e6:
        return count(int(x))
    return decimal(x, 1) if abs(x) < 1e6 else f"{x:,g}"


def _dd(d: DoubleDummy) -> str:
    return f"{d.a}/{d.same}/{d.b}"


def _kind_text(k: KindRow, n: int, apart: bool = False) -> str:
    """The line of one kind of first difference: a card's, a cante's, or (``apart``)
    the boards whose calls differ, counted apart."""
    if k.boards:
        text = (ngettext("{n} board ({share}), counted apart: {mean}, share {part}",
                         "{n} boards ({share}), counted apart: {mean}, share {part}",
                         k.boards) if apart else
                ngettext("{n} board ({share}): {mean}, share {part}",
                         "{n} boards ({share}): {mean}, share {part}", k.boards))
    else:
        text = (ngettext("{n} board ({share}), counted apart",
                         "{n} boards ({share}), counted apart", k.boards) if apart else
                ngettext("{n} board ({share})", "{n} boards ({share})", k.boards))
    return text.format(n=count(k.boards), share=percent(k.boards / n, 1), mean=_mean(k.mean),
                       part=_mean(k.share))


def _parting_kinds(p: PartingsReport, n: int) -> list[str]:
    """One line for each kind of first difference: none, a card, a cante, the calls."""
    labels = [_("no difference"), _("a card"), _("a cante"), _("the calls differ")]
    width = max(16, *(len(label) for label in labels))
    texts = [ngettext("{n} board ({share}): 0 each", "{n} boards ({share}): 0 each",
                      p.none).format(n=count(p.none), share=percent(p.none / n, 1)),
             _kind_text(p.card, n), _kind_text(p.cante, n), _kind_text(p.calls, n, apart=True)]
    return [f"  {label:<{width}} {text}" for label, text in zip(labels, texts)]


def _partings(p: PartingsReport) -> list[str]:
    n = p.boards
    lines = ["", *_("where the two plays of a board part: the first decision that differs "
                    "(the same seat,\nthe same cards before, another card or cante); a - b "
                    "per hand over those boards, and\ntheir share of the run's a - b ({ci} "
                    "intervals over boards):").format(ci=percent(0.95)).split("\n"),
             *_parting_kinds(p, n)]
    for key, heading, title in TALLIES:
        rows = [[_key(key, r.value), count(r.boards), decimal(100 * r.boards / n, 1),
                 _mean(r.mean), _mean(r.share), f"{r.a_ahead}/{r.level}/{r.a_behind}",
                 _dd(r.dd)]
                for r in p.by(key)]
        lines += ["", _(title),
                  tabulate(rows, headers=[_(heading), _("boards"), "%",
                                          _("a - b (these boards)"), _("share of a - b"),
                                          "a +/=/-", _("dd a/=/b")],
                           disable_numparse=True)]
    lines += _("(a +/=/-: boards where a scored more, as much, less; dd a/=/b: where a's "
               "card, either,\nor b's kept the better result double dummy on the actual "
               "deal)").split("\n")
    return lines


def _properties(props: PropertiesReport) -> list[str]:
    rows = [[t.trick, count(t.decisions), _number(t.layouts_median), decimal(t.bits, 1),
             "-" if t.bits_left is None else decimal(100 * t.bits_left, 0),
             *_pct(t.known), *_pct(t.dd_alike)]
            for t in props.by_trick]
    lines = ["", ngettext("the hands' properties ({n} hand; a decision: a card played with "
                          "two legal cards or more)",
                          "the hands' properties ({n} hands; a decision: a card played with "
                          "two legal cards or more)", props.hands).format(
                 n=count(props.hands)),
             *_("disambiguation: the layouts of the hidden cards the seat on turn cannot tell "
                "apart,\nby baza (bits: their log2; known: one layout); dd alike: every legal "
                "card gives the same\nresult double dummy:").split("\n"),
             tabulate(rows, headers=[_("baza"), _("decisions"), _("layouts (median)"),
                                     _("bits"), _("bits left %"), _("known %"), "95%",
                                     _("dd alike %"), "95%"],
                      disable_numparse=True)]
    if props.without_choice:
        leaf = ngettext("leaf correlation: at the last decision of each hand, every legal "
                        "card gives\nthe same result double dummy ({n} hand without a "
                        "decision left out):",
                        "leaf correlation: at the last decision of each hand, every legal "
                        "card gives\nthe same result double dummy ({n} hands without a "
                        "decision left out):", props.without_choice).format(
            n=count(props.without_choice))
    else:
        leaf = _("leaf correlation: at the last decision of each hand, every legal card "
                 "gives\nthe same result double dummy:")
    for table, title in ((props.leaf_correlation, leaf),
                         (props.bias, _("bias: the declaring side (paso: side A) wins double "
                                        "dummy from the first lead:"))):
        rows = [[_key("contract", r.contract), count(r.hands), *_pct(r.share)] for r in table]
        lines += ["", title,
                  tabulate(rows, headers=[_("contract"), _("hands"), "%", "95%"],
                           disable_numparse=True)]
    return lines


def _asked(asked: AskedReport) -> list[str]:
    lines = ["", *ngettext("{player} asked at each of line-up a's {n} decision (the same view "
                           "and seed):\nhow often it would play another card, and where it "
                           "would, whose card kept the better\nresult double dummy "
                           "(dd a/=/b):",
                           "{player} asked at each of line-up a's {n} decisions (the same "
                           "view and seed):\nhow often it would play another card, and where "
                           "it would, whose card kept the better\nresult double dummy "
                           "(dd a/=/b):", asked.decisions).format(
        player=asked.player, n=count(asked.decisions)).split("\n")]
    for key, heading, _title in TALLIES[:3]:
        rows = [[_key(key, r.value), count(r.decisions), *_pct(r.differ), _dd(r.dd)]
                for r in asked.by(key)]
        lines += ["", tabulate(rows, headers=[_(heading), _("decisions"), _("another card %"),
                                              "95%", _("dd a/=/b")], disable_numparse=True)]
    return lines


def _run_line(r: RunFile) -> str:
    values = dict(run=r.run, boards=count(r.boards), hands=count(r.hands),
                  rules=r.config.rules, seed=r.seed, unfinished=count(r.unfinished))
    if r.unfinished:
        return ngettext("{run}: {boards} board ({hands} hands), rules {rules}, seed {seed}; "
                        "{unfinished} record of an unfinished board left out",
                        "{run}: {boards} boards ({hands} hands), rules {rules}, seed {seed}; "
                        "{unfinished} record of an unfinished board left out",
                        r.boards).format(**values)
    return ngettext("{run}: {boards} board ({hands} hands), rules {rules}, seed {seed}",
                    "{run}: {boards} boards ({hands} hands), rules {rules}, seed {seed}",
                    r.boards).format(**values)


def render(report: ComparisonReport) -> str:
    lines = [_run_line(r) for r in report.runs]
    if len(report.runs) > 1:
        lines.append(ngettext("together: {boards} board ({hands} hands)",
                              "together: {boards} boards ({hands} hands)",
                              report.boards).format(boards=count(report.boards),
                                                    hands=count(report.hands)))
    lines += [f"  a = {report.config.a}", f"  b = {report.config.b}"]
    if report.difference is not None and report.partings is not None:
        lines.append(_("a - b, match points per hand: {mean} (duplicate, paired by board)")
                     .format(mean=_mean(report.difference)))
        lines += _partings(report.partings)
    else:
        lines.append(_("the two line-ups are the same: each board was played once, so there "
                       "is nothing to pair"))
    lines += _properties(report.properties)
    if report.asked is not None:
        lines += _asked(report.asked)
    return "\n".join(lines)


@user_errors
def compare_command(
    runs: List[str] = typer.Argument(..., metavar="RUN", help=N_("Duplicate runs of "
                                     "single hands, as selfplay --out writes them "
                                     "(JSON lines): the same two line-ups and rules, "
                                     "any seeds; their boards are pooled.")),
    ask: Optional[str] = typer.Option(
        None, "--ask", metavar="SPEC", help=N_("Also ask this player (line-up b's, or "
        "any: 'pimc:samples=100') at each decision line-up a took with a choice, on "
        "the same view and seed: how often it would play another card, by baza, "
        "contract and role (it plays each of those decisions again).")),
    json_out: bool = JsonOption,
) -> None:
    """Where the two line-ups of a duplicate run part: the first card that differs,
    by baza, contract, role and seat; and the properties behind PIMC's play
    (disambiguation, leaf correlation, bias)."""
    report = compare(runs, ask).report()
    if json_out:
        emit_json(report.to_dict())
        return
    typer.echo(render(report))


def register(app: typer.Typer) -> None:
    app.command("compare")(compare_command)
