"""``cuatrola charts``: bidding charts -- which hands should call paso, solo, cuatrola or
quintola, by class of hand -- as shipped with each preset, or computed with
``--compute`` (:mod:`cuatrola_solver.lab.charts`); ``--hand --muestra`` shows the cell
a hand falls in, ``--plot`` draws the charts, ``--html`` writes them as a page.

The command's steps: :func:`check_options` (the options that go together),
:func:`situation_of` (the chart asked for), :func:`computed` or
:func:`~cuatrola_solver.models.charts.load_charts` (the library's verb), :func:`shown`
(the charts asked for), then the renderers (:func:`charts_text`, :func:`cell_text`, the
pictures of :mod:`.chart_pictures`)."""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.auction import parse_auction
from cuatrola_solver.game.cards import format_card, format_cards
from cuatrola_solver.game.jsonvalue import JSONObject
from cuatrola_solver.game.match import Score, parse_score
from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View
from cuatrola_solver.i18n import N_, _, count, decimal, percent, signed
from cuatrola_solver.lab import charts as lab_charts
from cuatrola_solver.models.charts import (SHIPPED_SITUATIONS, Chart, ChartSet, Measure,
                                           Situation, describe_key, load_charts, seat_after,
                                           situation_asked, sort_key)

from .chart_pictures import VALUE_WORDS, grid_text, html_charts, plot_chart, situation
from .common import (JsonOption, RulesOption, check_outputs, check_writable, emit_json,
                     fail, load_rules, user_errors, workers_option, write_output)
from .progress import progress_bar
from .render import colour_cards, muestra_text


def _pct(p: float | None) -> str:
    return "-" if p is None else percent(p)


def measured_line(chart: Chart) -> str | None:
    m = chart.measured
    if not m:
        return None
    return ((_("against advise on {n} fresh hands: the same call on {p} ({ci} interval "
               "{lo}-{hi}); following the chart gives up {given} match chance per hand ({ci} "
               "interval {given_lo}-{given_hi})") if chart.value == "p_match" else
             _("against advise on {n} fresh hands: the same call on {p} ({ci} interval "
               "{lo}-{hi}); following the chart gives up {given} points per hand ({ci} "
               "interval {given_lo}-{given_hi})")).format(
                n=m.hands, p=percent(m.agreement), ci=percent(0.95),
                lo=decimal(100 * m.agreement_ci95[0], 0),
                hi=percent(m.agreement_ci95[1]), given=decimal(m.given_up, 3),
                given_lo=decimal(m.given_up_ci95[0], 3),
                given_hi=decimal(m.given_up_ci95[1], 3)) + bid_words(m))


def bid_words(m: Measure) -> str:
    """The agreement on the hands where the chart or advise bids (the paso hands left
    out), when measured."""
    if not m.bid_hands or m.bid_agreement is None or m.bid_agreement_ci95 is None:
        return ""
    lo, hi = m.bid_agreement_ci95
    return _("; on the {n} of them where either bids, the same call on {p} ({lo}-{hi})").format(
        n=m.bid_hands, p=percent(m.bid_agreement), lo=decimal(100 * lo, 0),
        hi=percent(hi))


def cells_table(chart: Chart) -> str:
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
    return str(tabulate(rows, headers=head, disable_numparse=True))


def cell_text(chart: Chart, view: View) -> str:
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


def check_options(seat: int | None, hand: str | None, muestra: str | None,
                  plot: Path | None, html: Path | None, out: Path | None,
                  chart_file: Path | None, hands_file: Path | None, ray: str | None,
                  compute: bool) -> None:
    """The options that go together, and the files that can be written, checked before
    any work."""
    if seat is not None:
        check_seat(seat, "--seat")
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


def situation_of(rs: RuleSet, seat: int | None, auction: str | None,
                 score: str | None) -> tuple[Situation | None, Score | None]:
    """The chart asked for by ``--seat``, ``--auction`` and ``--score`` (None: every
    chart), and the score."""
    sc = parse_score(score, rules=rs) if score is not None else None
    calls = None
    if auction is not None:
        if seat is None:
            seat = seat_after(auction)
            check_seat(seat, "--auction (the seat after its calls)")
        calls = tuple(parse_auction(auction, seat, rs, sc).calls)
    return situation_asked(seat, calls, sc), sc


def _this_command() -> str | None:
    """The command line as typed, for the provenance of charts computed."""
    if len(sys.argv) > 1 and sys.argv[1] == "charts":
        return "cuatrola charts " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    return None


def computed(rs: RuleSet, wanted: Situation | None, hands: int, samples: int,
             min_hands: int, measure: int, seed: int, workers: int | None, ray: str | None,
             hands_file: Path | None) -> ChartSet:
    """The charts computed from the advisor: the one asked for, else the shipped
    situations'."""
    seats = [wanted] if wanted else list(SHIPPED_SITUATIONS)
    specs = [lab_charts.ChartSpec.make(rs, s, list(c), sco, seed, samples)
             for s, c, sco in seats]
    with progress_bar(_("charts")) as bar:
        return lab_charts.compute(
            specs, hands, min_hands=min_hands, measure_hands=measure,
            workers=workers, ray=ray,
            path=None if hands_file is None else str(hands_file), command=_this_command(),
            progress=None if bar is None else (lambda what, d, t: bar(d, t)))


def shown(chartset: ChartSet, wanted: Situation | None, rs: RuleSet,
          chart_file: Path | None) -> ChartSet:
    """The charts of ``chartset`` asked for: the one of ``wanted``, else all of them."""
    if wanted is None:
        return chartset
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
    return ChartSet(chartset.rules, (found,), chartset.provenance, chartset.path)


def hand_view(charts: ChartSet, hand: str, muestra: str, rs: RuleSet,
              sc: Score | None) -> View:
    """The bidding view of ``--hand`` in the one chart shown."""
    if len(charts.charts) != 1:
        fail(_("--hand shows one chart's cell: give --seat too"))
    c = charts.charts[0]
    return View.bidding(hand, muestra, c.seat, list(c.auction), rs,
                        sc if c.score is not None else None)


def charts_text(charts: ChartSet) -> str:
    """The charts for the terminal: each one's situation and grid (with its cells' numbers
    when it is the only one)."""
    blocks = []
    for chart in charts.charts:
        lines = [_("{situation}: {n} hands, advise over {budget} each; the call of best "
                   "{value} per cell").format(
            situation=situation(chart), n=count(chart.hands), budget=charts.advise_budget,
            value=_(VALUE_WORDS.get(chart.value, chart.value)))]
        line = measured_line(chart)
        if line:
            lines.append(line)
        lines.append(grid_text(chart))
        if len(charts.charts) == 1:
            lines += ["", cells_table(chart)]
        blocks.append("\n".join(lines))
    if len(charts.charts) > 1:
        blocks.append(_("rows: triunfos held, +A and +3 when the as and the tres of trumps "
                        "are among them; columns: aces of the other suits, then the other "
                        "suits you hold no card of; · paso. --seat N lists each cell's "
                        "numbers."))
    return "\n\n".join(blocks)


def charts_json(charts: ChartSet, view: View | None) -> JSONObject:
    """``--json``: the charts shown, with the cell of ``--hand`` when given."""
    cell = {} if view is None else {
        "cell": charts.charts[0].cell_of(view.hand, view.trump).to_dict()}
    return charts.to_dict() | cell


@user_errors
def charts_command(
    rules: str = RulesOption,
    seat: Optional[int] = typer.Option(None, "--seat", "-s", metavar="N", help=N_(
        "The seat about to speak, 1-4 (default: every seat of the shipped charts).")),
    auction: Optional[str] = typer.Option(None, "--auction", "-a", metavar="CALLS", help=N_(
        "The calls of the seats before (default: they all passed).")),
    score: Optional[str] = typer.Option(None, "--score", metavar="A-B", help=N_(
        "The match score: the chart then plays for the match (computed with --compute).")),
    hand: Optional[str] = typer.Option(None, "--hand", "-H", help=N_(
        "Show the cell this hand falls in (with --muestra).")),
    muestra: Optional[str] = typer.Option(None, "--muestra", "-m", help=N_(
        "The muestra of --hand.")),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help=N_(
        "Draw the charts to FILE, .png or .svg (needs matplotlib).")),
    html: Optional[Path] = typer.Option(None, "--html", metavar="FILE", help=N_(
        "Write the charts as one page.")),
    chart_file: Optional[Path] = typer.Option(None, "--chart", metavar="FILE", help=N_(
        "Read the charts of FILE (as --out writes them) instead of the shipped ones.")),
    compute: bool = typer.Option(False, "--compute", help=N_(
        "Compute the charts from the advisor over random deals instead of reading them.")),
    hands: int = typer.Option(lab_charts.DEFAULT_HANDS, "--hands", min=1, max=1_000_000,
                              metavar="N", help=N_("With --compute: random hands per chart.")),
    samples: int = typer.Option(lab_charts.DEFAULT_SAMPLES, "--samples", "-n", min=1,
                                max=20_000,
                                help=N_("With --compute: deals of each hand's advice.")),
    min_hands: int = typer.Option(lab_charts.MIN_HANDS, "--min-hands", min=1, max=100_000,
                                  metavar="N", help=N_(
                                      "With --compute: the fewest hands a cell may rest on.")),
    measure: int = typer.Option(0, "--measure", min=0, max=100_000, metavar="N", help=N_(
        "With --compute: also measure each chart against advise (default budget) on N "
        "fresh hands.")),
    seed: int = typer.Option(0, "--seed", min=0, help=N_(
        "With --compute: the seed of the hands.")),
    workers: Optional[int] = workers_option(N_("all cores"), N_("With --compute: processes")),
    ray: Optional[str] = typer.Option(None, "--ray", metavar="ADDRESS", help=N_(
        "With --compute: value the hands on the Ray cluster at HOST:PORT, or 'auto'.")),
    hands_file: Optional[Path] = typer.Option(None, "--hands-file", metavar="FILE", help=N_(
        "With --compute: keep the valued hands in FILE; a run continues from it, and a "
        "chart is rebuilt from it without search.")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", help=N_(
        "With --compute: write the charts to FILE (JSON, as the shipped ones).")),
    json_out: bool = JsonOption,
) -> None:
    """Bidding charts: which hands should call paso, solo, cuatrola or quintola.

    Each chart is for one seat about to speak: a grid of classes of hand (trumps
    held, the as and the tres of trumps, outside aces, voids), each with the call the
    advisor makes on average, its P(win) and EV and how many hands it rests on. The
    shipped charts (every seat, all passed before) need no search; --compute makes
    others."""
    check_options(seat, hand, muestra, plot, html, out, chart_file, hands_file, ray, compute)
    rs = load_rules(rules)
    wanted, sc = situation_of(rs, seat, auction, score)
    if compute:
        chartset = computed(rs, wanted, hands, samples, min_hands, measure, seed, workers,
                            ray, hands_file)
        if out is not None:
            write_output(out, lab_charts.to_json(chartset))
    else:
        chartset = load_charts(rs, chart_file)
    charts = shown(chartset, wanted, rs, chart_file)
    view = None if hand is None or muestra is None else hand_view(charts, hand, muestra,
                                                                  rs, sc)
    title = _("cuatrola bidding charts, rules {rules}").format(rules=rs.name)
    if plot is not None:
        plot_chart(list(charts.charts), plot, title)
    if html is not None:
        write_output(html, html_charts(charts, title))
    if json_out:
        emit_json(charts_json(charts, view))
    elif view is not None:
        typer.echo(cell_text(charts.charts[0], view))
    else:
        typer.echo(charts_text(charts))


def register(app: typer.Typer) -> None:
    app.command("charts")(charts_command)
