"""``cuatrola history``: a player's history across every hand, from one database.

``cuatrola history`` shows each player's figures (docs/history.md); ``import`` keeps
the hands of record files and folders and analyses them, hand by hand; ``analyze``
goes on with the hands waiting; ``rebuild`` makes the database again from the records;
``merge`` makes two names one player.  Every one takes ``--db FILE``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Optional

import typer
from tabulate import tabulate
from typer.core import TyperGroup

from cuatrola_solver.analysis import review
from cuatrola_solver.errors import HistoryError, quote
from cuatrola_solver.history.database import Database, default_path, open_database
from cuatrola_solver.history.figures import (Filters, History, PlayerFigures, Rate, figures,
                                              parse_day)
from cuatrola_solver.history.importing import ImportResult, import_paths
from cuatrola_solver.history.merge import merge_names
from cuatrola_solver.history.rebuild import rebuild
from cuatrola_solver.history.stored import Pending, analyse_pending
from cuatrola_solver.i18n import N_, _, ngettext

from .render import BARS
from .common import (HelpCommand, JsonOption, check_writable, emit_json,
                     help_text, load_rules, need_matplotlib, samples_option, save_figure,
                     translated_help_option, user_errors)


def db_option() -> Any:
    return typer.Option(None, "--db", metavar="FILE", help=help_text(
        "The history database (default {path}).", path=default_path()))


def _samples_option() -> Any:
    return samples_option(help_text("Deals per card and per bid review of each hand's "
                                    "analysis (default {n}, as cuatrola analyze).",
                                    n=review.DEFAULT_SAMPLES))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def rate_text(r: Rate) -> str:
    """``5 of 8 (62%, 95%: 31-86%)``."""
    if not r.of:
        return _("none of 0")
    lo, hi = r.interval or (0.0, 1.0)
    return _("{count} of {of}, {rate} (95%: {low}-{high})").format(
        count=r.count, of=r.of, rate=_pct(r.value), low=_pct(lo)[:-1], high=_pct(hi))


def sparkline(values: list[float | None]) -> str:
    """One bar per value of 0 to 100 (``·`` for a hand without choices)."""
    return "".join("·" if v is None else BARS[min(len(BARS) - 1, int(v / 100 * len(BARS)))]
                   for v in values)


#: hands per row of the trend's table
TREND_ROWS = 8


def _trend_table(p: PlayerFigures) -> str:
    trend = list(p.trend)
    size = max(1, -(-len(trend) // TREND_ROWS))
    rows = []
    for i in range(0, len(trend), size):
        part = trend[i:i + size]
        choices = sum(h.choices for h in part)
        rate = Rate(sum(h.sound for h in part), choices)
        first, last = i + 1, i + len(part)
        rows.append([str(first) if first == last else f"{first}-{last}", str(choices),
                     _pct(rate.value), sparkline([h.accuracy for h in part])])
    return str(tabulate(rows, headers=[_("hands"), _("choices"), _("accuracy"),
                                       _("per hand")], disable_numparse=True))


def _situation_name(s: str) -> str:
    return {"opening_lead": _("opening lead"), "leading": _("leading"),
            "following": _("following"), "trumping": _("trumping"),
            "discarding": _("discarding"), "last_two_bazas": _("last two bazas")}.get(s, s)


def _kind_name(k: str) -> str:
    return {"passed": _("passed where a bid was advised"),
            "bid_over_paso": _("bid where paso was advised"),
            "bid_lower": _("bid lower than advised"),
            "bid_higher": _("bid higher than advised")}.get(k, k)


def _advised_lines(p: PlayerFigures) -> list[str]:
    """The figures of the analysis: the bids against the advice, the cards."""
    lines: list[str] = []
    lines.append("  " + _("bids: {against} against the advice; expected match points "
                          "lost {ev:.2f} ({per} a hand)").format(
        against=rate_text(Rate(p.bids_against_advice, p.bids)), ev=p.ev_lost_bidding,
        per="-" if p.ev_lost_per_hand is None else f"{p.ev_lost_per_hand:.2f}"))
    for k in p.bid_kinds:
        lines.append("    " + _("{kind}: {n}, EV lost {ev:.2f}").format(
            kind=_kind_name(k.kind), n=k.count, ev=k.ev_lost))
    lines.append("  " + _("cards: accuracy {acc} of the choices; ?! {i}, ? {m}, ?? {b}")
                 .format(acc=rate_text(p.accuracy), i=p.inaccuracies, m=p.mistakes,
                         b=p.blunders))
    lines.append("  " + _("win chance lost: {w:.2f} in all, {per} a hand; cantes not sung: "
                          "{k}").format(w=p.win_chance_lost, k=p.cantes_not_sung,
                                        per=_pct(p.win_chance_lost / p.analysed
                                                 if p.analysed else None)))
    rows = [[_situation_name(s.situation), str(s.choices), str(s.inaccuracies),
             str(s.mistakes), str(s.blunders), _pct(s.labelled.value)]
            for s in p.situations if s.choices]
    if rows:
        table = tabulate(rows, headers=[_("situation"), _("choices"), "?!", "?", "??",
                                        _("labelled")], disable_numparse=True)
        lines += ["    " + x for x in table.splitlines()]
    return lines


def render_player(p: PlayerFigures) -> list[str]:
    lines = [ngettext("{name}: {n} hand ({a} analysed)", "{name}: {n} hands ({a} analysed)",
                      p.hands).format(name=p.name, n=p.hands, a=p.analysed)]
    lines.append("  " + _("hands won: {won}; matches finished {m}, won {mw}").format(
        won=rate_text(Rate(p.won, p.hands)), m=p.matches, mw=p.matches_won))
    lines.append("  " + _("match points scored {pw}, conceded {pl}").format(pw=p.points_won,
                                                                           pl=p.points_lost))
    rows = [[_("rules {preset}").format(preset=s.key), str(s.hands), str(s.won),
             str(s.points_won), str(s.points_lost)] for s in p.by_rules]
    rows += [[_("seat {seat}").format(seat=s.key), str(s.hands), str(s.won),
              str(s.points_won), str(s.points_lost)] for s in p.by_seat]
    table = tabulate(rows, headers=["", _("hands"), _("won"), _("points scored"),
                                    _("conceded")], disable_numparse=True)
    lines += ["    " + x for x in table.splitlines()]
    if p.analysed:
        lines += _advised_lines(p)
    else:       # not "none of 0 against the advice": the bids and cards are not known yet
        lines.append("  " + _("bids and cards: none of these hands is analysed yet "
                              "('cuatrola history analyze' analyses them)"))
    lines.append("  " + _("renuncios: {n}; hands with one: {hands}; match points given "
                          "away: {cost}").format(n=p.renuncios, cost=p.renuncio_cost,
                                           hands=rate_text(Rate(p.renuncio_hands, p.hands))))
    if p.obligations:
        lines.append("    " + "; ".join(_("{obligation}: {n}, cost {cost}").format(
            obligation=o.obligation.replace("_", " "), n=o.count, cost=o.cost)
            for o in p.obligations))
    if p.trend:
        lines.append("  " + _("accuracy per hand, oldest first: {line}").format(
            line=sparkline([h.accuracy for h in p.trend])))
        lines += ["    " + x for x in _trend_table(p).splitlines()]
        worst = sorted(p.trend, key=lambda h: (-h.win_chance_lost, h.hand))[:3]
        worst = [h for h in worst if h.win_chance_lost > 0]
        if worst:
            lines.append("  " + _("hands to look at (most win chance lost):"))
            lines += [f"    {h.source} ({_pct(h.win_chance_lost)})" for h in worst]
    return lines


def render(history: History, path: Path) -> str:
    lines = [_("{db}: {n} hands, {a} analysed, {w} waiting for analysis").format(
        db=path, n=history.hands, a=history.analysed, w=history.waiting)]
    if not history.players:
        lines.append(_("no named player: the Player tags of the records name the players"))
    for p in history.players:
        lines += [""] + render_player(p)
    return "\n".join(lines)


def plot_trend(history: History, path: Path) -> None:
    """Accuracy per hand of each player, hand after hand, to ``path`` (.png or .svg)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    for p in history.players:
        points = [(i, h.accuracy) for i, h in enumerate(p.trend, 1) if h.accuracy is not None]
        if points:
            ax.plot([i for i, _ in points], [a for _, a in points], marker="o", label=p.name)
    ax.set_xlabel(_("hand (oldest first)"))
    ax.set_ylabel(_("accuracy (%)"))
    ax.set_ylim(-5, 105)
    ax.set_title(_("Accuracy per hand"))
    if history.players:
        ax.legend()
    fig.tight_layout()
    save_figure(fig, str(path))


def _day(text: str | None) -> str | None:
    return None if text is None else parse_day(text)


def _progress(done: int, total: int, hand: Pending) -> None:
    typer.echo(_("analysed {done} of {total}: {source}").format(
        done=done, total=total, source=hand.source), err=True)


def _report_import(result: ImportResult, db: Database) -> None:
    for s in result.skipped:
        why = s.why if s.why.startswith(s.where) else f"{s.where}: {s.why}"
        typer.echo(_("skipped {why}").format(why=why), err=True)
    typer.echo(_("{db}: {added} hands added, {known} already in, {skipped} skipped").format(
        db=db.path, added=result.added, known=result.known, skipped=len(result.skipped)))


def _analyse(db: Database, samples: int | None, analyse: bool, again: bool = False) -> None:
    if not analyse:
        return
    done = analyse_pending(db, samples, again=again, progress=_progress)
    typer.echo(ngettext("{n} hand analysed", "{n} hands analysed", done).format(n=done))


class HistoryGroup(TyperGroup):
    """``cuatrola history`` and its commands: its help drawn as the top-level help is
    (cli/group_help.py), each value by its name."""

    def get_help_option(self, ctx: Any) -> Any:
        return translated_help_option(super().get_help_option(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from .group_help import print_group_help       # rich: only for a help
        print_group_help(self, ctx, [(name, self.commands[name].get_short_help_str(200))
                                     for name in self.list_commands(ctx)])


def _filters(player: str | None, rules: str | None, since: str | None) -> Filters:
    return Filters(player, None if rules is None else load_rules(rules).name, _day(since))


def read_history(db_path: Path | None, filters: Filters) -> tuple[History, Path]:
    """The figures of the database (which a read does not make), and its path."""
    path = db_path or default_path()
    if db_path is not None and not db_path.exists():     # a read makes no file, no folder
        raise HistoryError(_("no history database {db}: keep hands in it with 'cuatrola "
                             "history import RECORDS --db {path}'").format(
            db=quote(str(db_path)), path=db_path))
    with open_database(path) as db:
        history = figures(db, filters)
    if filters.player is not None and not history.players:
        raise HistoryError(f"no hand of player {quote(filters.player)} in {path}"
                           + (" with these filters" if filters.preset or filters.since
                              else ""))
    return history, path


@user_errors
def history_command(
    ctx: typer.Context,
    db_path: Optional[Path] = db_option(),
    player: Optional[str] = typer.Option(None, "--player", metavar="NAME", help=N_(
        "Only this player (a Player tag's name).")),
    rules: Optional[str] = typer.Option(None, "--rules", metavar="PRESET", help=N_(
        "Only the hands of this preset.")),
    since: Optional[str] = typer.Option(None, "--since", metavar="DATE", help=N_(
        "Only the hands played on or after this day (YYYY-MM-DD).")),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help=N_(
        "Also write the accuracy per hand to FILE, .png or .svg (needs matplotlib).")),
    json_out: bool = JsonOption,
) -> None:
    """A player's history across every hand: results, bids against the advisor,
    cards, renuncios.

    The hands come from 'cuatrola history import RECORDS...' (and from the table in
    the browser); a player is a name of the records' Player tags. Without a
    subcommand, shows each player's figures."""
    if ctx.invoked_subcommand is not None:
        return
    if plot is not None:
        check_writable(plot, (".png", ".svg"))
        need_matplotlib()
    history, path = read_history(db_path, _filters(player, rules, since))
    if plot is not None:
        plot_trend(history, plot)
    if json_out:
        emit_json(history.to_dict())
        return
    typer.echo(render(history, path))


@user_errors
def import_command(
    records: List[Path] = typer.Argument(..., metavar="RECORDS", help=N_(
        "Record files (text, JSON, JSON lines, self-play runs) and folders.")),
    db_path: Optional[Path] = db_option(),
    samples: Optional[int] = _samples_option(),
    analyse: bool = typer.Option(True, "--analyze/--no-analyze", help=N_(
        "Analyse the new hands (and those waiting).")),
) -> None:
    """Keep the hands of RECORDS, each once, then analyse them one by one.

    A hand already in is recognised and skipped. The analysis can be stopped at any
    moment: the next import or 'cuatrola history analyze' goes on with the rest."""
    with open_database(db_path or default_path()) as db:
        _report_import(import_paths(db, records), db)
        _analyse(db, samples, analyse)


@user_errors
def analyze_command(
    db_path: Optional[Path] = db_option(),
    samples: Optional[int] = _samples_option(),
    again: bool = typer.Option(False, "--again", help=N_(
        "Analyse anew the hands analysed by another version of the package or its "
        "models.")),
) -> None:
    """Analyse the hands waiting for their analysis, one by one."""
    with open_database(db_path or default_path()) as db:
        _analyse(db, samples, True, again)


@user_errors
def rebuild_command(
    records: List[Path] = typer.Argument(..., metavar="RECORDS", help=N_(
        "The records folder(s) and files.")),
    db_path: Optional[Path] = db_option(),
    samples: Optional[int] = _samples_option(),
    analyse: bool = typer.Option(True, "--analyze/--no-analyze", help=N_(
        "Analyse the hands without an analysis.")),
) -> None:
    """Make the database again from the records (a file that cannot be read too).

    The merges of names and the analyses of the hands still there are kept from the
    old file when it can be read."""
    path = db_path or default_path()
    result = rebuild(path, records)
    with open_database(path) as db:
        _report_import(result, db)
        _analyse(db, samples, analyse)


@user_errors
def merge_command(
    old: str = typer.Argument(..., metavar="OLD", help=N_("The name to give up.")),
    new: str = typer.Argument(..., metavar="NEW", help=N_("The name to keep.")),
    db_path: Optional[Path] = db_option(),
) -> None:
    """Merge two names of one player: OLD becomes NEW, now and in later imports."""
    with open_database(db_path or default_path()) as db:
        n = merge_names(db, old, new)
    typer.echo(ngettext("{old} is now {new}: {n} seat renamed",
                        "{old} is now {new}: {n} seats renamed", n).format(
        old=old, new=new, n=n))


def register(app: typer.Typer) -> None:
    group = typer.Typer(cls=HistoryGroup, add_completion=False, no_args_is_help=False,
                        rich_markup_mode="rich")
    group.callback(invoke_without_command=True)(history_command)
    for name, command in (("import", import_command), ("analyze", analyze_command),
                          ("rebuild", rebuild_command), ("merge", merge_command)):
        group.command(name, cls=HelpCommand)(command)
    app.add_typer(group, name="history")
