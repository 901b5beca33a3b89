"""``cuatrola equity``: the match-equity table of a preset (and remaking its hand results)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.match import match_winner
from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.game.seats import Side
from cuatrola_solver.i18n import N_, _, count, decimal, ngettext, percent, pgettext
from cuatrola_solver.lab import measure_equity
from cuatrola_solver.models import equity

from .common import (JsonOption, RulesOption, check_outputs, check_writable, emit_json, fail,
                     load_rules, need_matplotlib, save_figure, user_errors)
from .progress import progress_bar


def _source(results: equity.HandResults) -> str:
    s = results.source
    if s is None:
        return _("hand results without provenance")
    return _("hand results of {deals} random deals, seed {seed}, double dummy ({date}, "
             "version {version})").format(
        deals=count(s.deals) if isinstance(s.deals, int) else s.deals, seed=s.seed,
        date=s.date, version=s.version)


def _cell(p: float) -> str:
    """A percentage; a match still open never shows 0 or 100."""
    return ">99" if p >= 0.995 else "<1" if p < 0.005 else decimal(100 * p, 0)


def _grid(tab: equity.EquityTable, top: int, mano: bool) -> str:
    rows = []
    for theirs in range(top + 1):
        row = [str(theirs)]
        for mine in range(top + 1):
            won = match_winner(tab.rules, mine, theirs)
            row.append(pgettext("match", "won") if won is Side.A
                       else pgettext("match", "lost") if won is Side.B
                       else _cell(tab.p_win(mine, theirs, mano)))
        rows.append(row)
    return str(tabulate(rows, headers=[_("them \\ you")] + [str(m) for m in range(top + 1)],
                        disable_numparse=True, stralign="right"))


def _goal(tab: equity.EquityTable) -> str:
    """What the match is played to: ``to 21, win by 2``."""
    if tab.win_by > 1:
        return _("to {target}, win by {win_by}").format(target=tab.target, win_by=tab.win_by)
    return _("to {target}").format(target=tab.target)


def _lead(tab: equity.EquityTable, lead: int) -> str:
    """The chances of one lead in a win-by match: ``one ahead 62% (mano) / 58%``."""
    base = tab.lead_from
    mine, theirs = base + max(lead, 0), base - min(lead, 0)
    values = dict(n=abs(lead), mano=percent(tab.p_win(mine, theirs, True)),
                  other=percent(tab.p_win(mine, theirs, False)))
    if lead == 0:
        return _("level {mano} (mano) / {other}").format(**values)
    if lead > 0:
        return ngettext("one ahead {mano} (mano) / {other}", "{n} ahead {mano} (mano) / {other}",
                        abs(lead)).format(**values)
    return ngettext("one behind {mano} (mano) / {other}", "{n} behind {mano} (mano) / {other}",
                    abs(lead)).format(**values)


def render(tab: equity.EquityTable) -> str:
    top = tab.target + tab.win_by - 2
    lines = [_("Chance (%) that your pair wins the match, rules {rules}: {goal}; your score "
               "across, theirs down; {source}.").format(rules=tab.rules.name, goal=_goal(tab),
                                                         source=_source(tab.results))]
    for mano, title in ((True, _("Your pair is mano in the next hand (seats 1 & 3):")),
                        (False, _("The other pair is mano in the next hand:"))):
        lines += ["", title, _grid(tab, top, mano)]
    if tab.win_by > 1:
        parts = [_lead(tab, lead) for lead in range(tab.win_by - 1, -tab.win_by, -1)]
        lines += ["", _("From {base}-{base} on only the lead counts: {leads}.").format(
            base=tab.lead_from, leads=", ".join(parts))]
    return "\n".join(lines)


def plot(tab: equity.EquityTable, path: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        fail(_("--plot needs matplotlib: pip install 'cuatrola-solver[lab]'"))
    top = tab.target + tab.win_by - 2
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), constrained_layout=True)
    for ax, mano, title in ((axes[0], True, _("your pair mano next hand")),
                            (axes[1], False, _("the other pair mano next hand"))):
        grid = [[tab.p_win(m, t, mano) for m in range(top + 1)] for t in range(top + 1)]
        im = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0.0, vmax=1.0)
        ax.set_title(title)
        ax.set_xlabel(_("your score"))
        ax.set_ylabel(_("their score"))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.colorbar(im, ax=axes, label=_("P(your pair wins the match)"))
    fig.suptitle(_("match equity, {rules}: {goal}").format(rules=tab.rules.name,
                                                           goal=_goal(tab)))
    save_figure(fig, path)


def _check_options(rs: RuleSet, rules: str, plot_file: str | None, regenerate: bool,
                   out: Path | None) -> None:
    """Refuse the options that do not go together, and outputs that cannot be written,
    before any work."""
    if plot_file is not None:
        if Path(plot_file).suffix.lower() not in (".png", ".svg", ".pdf"):
            fail(_("bad plot file {plot_file!r}: expected a name ending in .png, .svg or "
                   ".pdf")
                  .format(plot_file=plot_file))
        check_writable(Path(plot_file))
    if out is not None and not regenerate:
        fail(_("-o FILE goes with --regenerate"))
    if regenerate and out is None:
        fail(_("--regenerate needs -o FILE, the hand results file to write (the shipped "
               "results are never overwritten)"))
    if out is not None:
        check_writable(out)
    check_outputs([("-o", out), ("--plot", plot_file)], [])
    if plot_file is not None:
        need_matplotlib()
    if regenerate and rs.differences():
        fail(_("--regenerate measures a preset: give its name alone, not {rules!r}")
              .format(rules=rules))


def _regenerate(rs: RuleSet, deals: int, seed: int, samples: int,
                out: Path) -> equity.EquityTable:
    """Measure the preset's hand results again, write them to ``out``: the table they
    give."""
    with progress_bar(_("hand results")) as bar:
        results = measure_equity.measure_hand_results(rs, deals, seed, samples, progress=bar)
    try:
        measure_equity.write_hand_results(results, out)
    except OSError as e:
        fail(_("cannot write the hand results to {out!r}: {value}")
              .format(out=str(out), value=e.strerror or e))
    typer.echo(_("wrote {out}: {source}").format(out=out, source=_source(results)), err=True)
    return equity.EquityTable(rs, results)


@user_errors
def equity_command(
    rules: str = RulesOption,
    json_out: bool = JsonOption,
    plot_file: Optional[str] = typer.Option(
        None, "--plot", help=N_("Also draw the table as a heat map into this file (.png, "
                                ".svg, .pdf; needs matplotlib, the 'lab' extra).")),
    regenerate: bool = typer.Option(
        False, "--regenerate", help=N_("Measure the preset's hand results again (random "
        "deals, advisor bidding, double-dummy play), write them to -o FILE and show "
        "the table they give.")),
    out: Optional[Path] = typer.Option(
        None, "--out", "-o", metavar="FILE", help=N_("With --regenerate: the hand results "
        "file to write (required: no command writes into the installed package).")),
    deals: int = typer.Option(2000, "--deals", min=1, max=100_000, help=N_("With "
                              "--regenerate: random deals to measure.")),
    seed: int = typer.Option(1, "--seed", min=0, help=N_("With --regenerate: seed of the "
                             "deals.")),
    samples: int = typer.Option(32, "--samples", "-n", min=1, max=20_000, help=N_("With "
                                "--regenerate: sampled deals behind each bidding "
                                "decision.")),
) -> None:
    """The chance of winning the match from every score (match equity), by preset."""
    rs = load_rules(rules)
    _check_options(rs, rules, plot_file, regenerate, out)
    tab = (_regenerate(rs, deals, seed, samples, out) if regenerate and out is not None
           else equity.table(rs))
    if plot_file is not None:
        plot(tab, plot_file)
    if json_out:
        emit_json(tab.to_dict())
        return
    typer.echo(render(tab))


def register(app: typer.Typer) -> None:
    app.command("equity")(equity_command)
