"""``cuatrola charts``: bidding charts -- which hands should call paso, solo, cuatrola or
quintola, by class of hand -- as shipped with each preset, or computed with
``--compute`` (:mod:`cuatrola_solver.lab.charts`); ``--hand --muestra`` shows the cell
a hand falls in, ``--plot`` draws the charts, ``--html`` writes them as a page."""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.auction import parse_auction
from cuatrola_solver.game.match import parse_score
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View
from cuatrola_solver.i18n import _, count, decimal, percent, signed
from cuatrola_solver.lab import charts as lab_charts
from cuatrola_solver.game.cards import format_card, format_cards
from cuatrola_solver.models.charts import (SHIPPED_SITUATIONS, ChartSet, describe_key, load_charts,
                                           seat_after, situation_asked, sort_key)

from .chart_pictures import VALUE_WORDS, grid_text, html_charts, plot_chart, situation
from .progress import progress_bar
from .common import (JsonOption, RulesOption, check_outputs, check_writable, emit_json,
                     fail, load_rules, user_errors, workers_option, write_output)
from .render import colour_cards, muestra_text


def _pct(p) -> str:
    return "-" if p is None else percent(p)


def measured_line(chart) -> str | None:
    m = chart.measured
    if not m:
        return None
    return ((_("against advise on {n} fresh hands: the same call on {p} ({ci} interval "
               "{lo}-{hi}); following the chart gives up {given} match chance per hand ({ci} "
               "interval {given_lo}-{given_hi})") if chart.value == "p_match" else
             _("against advise on {n} fresh hands: the same call on {p} ({ci} interval "
               "{lo}-{hi}); following the chart gives up {given} points per hand ({ci} "
               "interval {given_lo}-{given_hi})")).format(
                n=m["hands"], p=percent(m["agreement"]), ci=percent(0.95),
                lo=decimal(100 * m["agreement_ci95"][0], 0),
                hi=percent(m["agreement_ci95"][1]), given=decimal(m["given_up"], 3),
                given_lo=decimal(m["given_up_ci95"][0], 3),
                given_hi=decimal(m["given_up_ci95"][1], 3)) + bid_words(m))


def bid_words(m: dict) -> str:
    """The agreement on the hands where the chart or advise bids (the paso hands left
    out), when measured."""
    if not m.get("bid_hands"):
        return ""
    lo, hi = m["bid_agreement_ci95"]
    return _("; on the {n} of them where either bids, the same call on {p} ({lo}-{hi})").format(
        n=m["bid_hands"], p=percent(m["bid_agreement"]), lo=decimal(100 * lo, 0),
        hi=percent(hi))


def cells_table(chart) -> str:
    played = chart.value == "ev_played"
    rows = []
    for cell in sorted(chart.cells.values(), key=lambda c: sort_key(c.key)):
        s = cell.stats
        rows.append([_(describe_key(cell.key)), count(cell.hands), cell.call,
                     _pct(s.p_rated), signed(s.ev_rated)]
                    + ([_pct(s.p_match)] if chart.value == "p_match" else [])
                    + [_pct(cell.agreement)])
    head = ([_("cell"), _("hands"), _("call"), _("P(win) played") if played else _("P(win)"),
             _("EV played") if played else _("EV")]
            + ([_("P(match)")] if chart.value == "p_match" else []) + [_("advise agrees")])
    return tabulate(rows, headers=head, disable_numparse=True)


def cell_text(chart, view: View) -> str:
    cell = chart.cell_of(view.hand, view.trump)
    s = cell.stats
    if chart.value == "p_match":      # with a score the call is chosen on the match chance
        head = _("{p} to win the match ({hand} to win the hand, {ev} points per hand on "
                 "average)").format(p=_pct(s.p_match), hand=_pct(s.p_rated),
                                    ev=signed(s.ev_rated))
        others = "; ".join(_("{call}: {p} the match ({hand}, {ev})").format(
                               call=b, p=_pct(c.p_match), hand=_pct(c.p_rated),
                               ev=signed(c.ev_rated))
                           for b, c in cell.calls.items() if b != cell.call)
    else:
        head = _("{p} to win, {ev} points per hand on average").format(
            p=_pct(s.p_rated), ev=signed(s.ev_rated))
        others = "; ".join(f"{b}: {_pct(c.p_rated)}, {signed(c.ev_rated)}"
                           for b, c in cell.calls.items() if b != cell.call)
    return (f"{colour_cards(format_cards(view.cards))}, "
            f"{colour_cards(muestra_text(format_card(view.muestra)))}: "
            f"{_(describe_key(cell.key))}\n"
            + _("The chart calls {call}: {head} over the {n} hands of the cell (advise agreed "
                "on {p} of them); {others}.").format(call=cell.call, head=head,
                                                     n=count(cell.hands),
                                                     p=_pct(cell.agreement), others=others))


def register(app: typer.Typer) -> None:
    @app.command("charts")
    @user_errors
    def charts_command(
        rules: str = RulesOption,
        seat: Optional[int] = typer.Option(None, "--seat", "-s", metavar="N", help=_("The "
                                           "seat about to speak, 1-4 (default: every seat "
                                           "of the shipped charts).")),
        auction: Optional[str] = typer.Option(None, "--auction", "-a", metavar="CALLS",
                                              help=_("The calls of the seats before (default: "
                                              "they all passed).")),
        score: Optional[str] = typer.Option(None, "--score", metavar="A-B",
                                            help=_("The match score: the chart then plays for "
                                            "the match (computed with --compute).")),
        hand: Optional[str] = typer.Option(None, "--hand", "-H", help=_("Show the cell this "
                                           "hand falls in (with --muestra).")),
        muestra: Optional[str] = typer.Option(None, "--muestra", "-m", help=_("The muestra "
                                              "of --hand.")),
        plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help=_("Draw the "
                                            "charts to FILE, .png or .svg (needs "
                                            "matplotlib).")),
        html: Optional[Path] = typer.Option(None, "--html", metavar="FILE", help=_("Write the "
                                            "charts as one page.")),
        chart_file: Optional[Path] = typer.Option(None, "--chart", metavar="FILE",
                                                  help=_("Read the charts of FILE (as --out "
                                                  "writes them) instead of the shipped ones.")),
        compute: bool = typer.Option(False, "--compute", help=_("Compute the charts from the "
                                     "advisor over random deals instead of reading them.")),
        hands: int = typer.Option(lab_charts.DEFAULT_HANDS, "--hands", min=1, max=1_000_000,
                                  metavar="N",
                                  help=_("With --compute: random hands per chart.")),
        samples: int = typer.Option(lab_charts.DEFAULT_SAMPLES, "--samples", "-n", min=1,
                                    max=20_000,
                                    help=_("With --compute: deals of each hand's advice.")),
        min_hands: int = typer.Option(lab_charts.MIN_HANDS, "--min-hands", min=1, max=100_000,
                                      metavar="N", help=_("With --compute: the fewest hands "
                                      "a cell may rest on.")),
        measure: int = typer.Option(0, "--measure", min=0, max=100_000, metavar="N", help=_("With "
                                    "--compute: also measure each chart against advise "
                                    "(default budget) on N fresh hands.")),
        seed: int = typer.Option(0, "--seed", min=0, help=_("With --compute: the seed of the "
                                 "hands.")),
        workers: Optional[int] = workers_option("all cores", "With --compute: processes"),
        ray: Optional[str] = typer.Option(None, "--ray", metavar="ADDRESS", help=_("With "
                                          "--compute: value the hands on the Ray cluster at "
                                          "HOST:PORT, or 'auto'.")),
        hands_file: Optional[Path] = typer.Option(None, "--hands-file", metavar="FILE",
                                                  help=_("With --compute: keep the valued "
                                                  "hands in FILE; a run continues from it, "
                                                  "and a chart is rebuilt from it without "
                                                  "search.")),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE",
                                           help=_("With --compute: write the charts to FILE "
                                           "(JSON, as the shipped ones).")),
        json_out: bool = JsonOption,
    ) -> None:
        """Bidding charts: which hands should call paso, solo, cuatrola or quintola.

        Each chart is for one seat about to speak: a grid of classes of hand (trumps
        held, the as and the tres of trumps, outside aces, voids), each with the call the
        advisor makes on average, its P(win) and EV and how many hands it rests on. The
        shipped charts (every seat, all passed before) need no search; --compute makes
        others."""
        if seat is not None:
            check_seat(seat, "--seat")
        rs = load_rules(rules)
        for path, kinds in ((plot, (".png", ".svg")), (html, None), (out, None)):
            if path is not None:
                check_writable(path, kinds)
        check_outputs([("--out", out), ("--plot", plot), ("--html", html)],
                      [(_("the --chart file"), chart_file), (_("the --hands-file"), hands_file)])
        if plot is not None and importlib.util.find_spec("matplotlib") is None:
            fail(_("--plot needs matplotlib: pip install 'cuatrola-solver[lab]' (or pip "
                   "install matplotlib)"))
        if (hand is None) != (muestra is None):
            fail(_("give --hand and --muestra together"))
        if not compute:
            given = [n for n, v in (("--out", out), ("--hands-file", hands_file),
                                    ("--ray", ray)) if v is not None]
            if given:
                fail(_("{options} go with --compute").format(options=", ".join(given)))
        sc = parse_score(score, rules=rs) if score is not None else None
        calls = None
        if auction is not None:
            if seat is None:
                seat = seat_after(auction)
                check_seat(seat, "--auction (the seat after its calls)")
            calls = tuple(parse_auction(auction, seat, rs, sc).calls)
        wanted = situation_asked(seat, calls, sc)
        if compute:
            seats = [wanted] if wanted else list(SHIPPED_SITUATIONS)
            specs = [lab_charts.ChartSpec.make(rs, s, list(c), sco, seed, samples)
                     for s, c, sco in seats]
            command = "cuatrola charts " + " ".join(shlex.quote(a) for a in sys.argv[2:]) \
                if len(sys.argv) > 1 and sys.argv[1] == "charts" else None
            with progress_bar(_("charts")) as bar:
                chartset = lab_charts.compute(
                    specs, hands, min_hands=min_hands, measure_hands=measure,
                    workers=workers, ray=ray,
                    path=None if hands_file is None else str(hands_file), command=command,
                    progress=None if bar is None else (lambda what, d, t: bar(d, t)))
            if out is not None:
                write_output(out, lab_charts.to_json(chartset))
        else:
            chartset = load_charts(rs, chart_file)
        if wanted is not None:
            found = chartset.find(*wanted)
            if found is None:
                fail(_("no chart of seat {seat} {before}{score} in {where}: make one with "
                       "--compute (about a minute per 1,000 hands here)").format(
                    seat=wanted[0],
                    before=_("after {calls}").format(calls=" ".join(wanted[1])) if wanted[1]
                    else _("first to speak"),
                    score=_(" at {a}-{b}").format(a=wanted[2][0], b=wanted[2][1])
                    if wanted[2] else "",
                    where=_("the shipped charts of {rules}").format(rules=rs.name)
                    if chart_file is None else str(chart_file)))
            charts = [found]
        else:
            charts = list(chartset.charts)
        if hand is not None and muestra is not None:     # given together (checked above)
            if len(charts) != 1:
                fail(_("--hand shows one chart's cell: give --seat too"))
            c = charts[0]
            view = View.bidding(hand, muestra, c.seat, list(c.auction), rs,
                                sc if c.score is not None else None)
        title = _("cuatrola bidding charts, rules {rules}").format(rules=rs.name)
        if plot is not None:
            plot_chart(charts, plot, title)
        if html is not None:
            write_output(html, html_charts(charts, chartset.provenance, title))
        if json_out:
            emit_json(ChartSet(chartset.rules, tuple(charts), chartset.provenance).to_dict()
                      | ({"cell": charts[0].cell_of(view.hand, view.trump).to_dict()}
                         if hand is not None else {}))
            return
        if hand is not None:
            typer.echo(cell_text(charts[0], view))
            return
        prov = chartset.provenance
        for i, chart in enumerate(charts):
            if i:
                typer.echo("")
            typer.echo(_("{situation}: {n} hands, advise over {budget} each; the call of best "
                         "{value} per cell").format(
                situation=situation(chart), n=count(chart.hands),
                budget=prov.get("advise_budget", "?"),
                value=_(VALUE_WORDS.get(chart.value, chart.value))))
            line = measured_line(chart)
            if line:
                typer.echo(line)
            typer.echo(grid_text(chart))
            if len(charts) == 1:
                typer.echo("")
                typer.echo(cells_table(chart))
        if len(charts) > 1:
            typer.echo("")
            typer.echo(_("rows: triunfos held, +A and +3 when the as and the tres of trumps are "
                         "among them; columns: aces of the other suits, then the other suits "
                         "you hold no card of; · paso. --seat N lists each cell's numbers."))
