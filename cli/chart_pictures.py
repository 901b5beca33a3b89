"""The bidding charts drawn: the grid as text, as a picture (PNG/SVG, matplotlib) and as
one self-contained HTML page.

The grid has a row per trump holding (how many trumps, and which of the as and the tres
of trumps) and a column per outside holding (outside aces, voids): every square is a
class of hand (:mod:`cuatrola_solver.models.charts`), coloured by its cell's call; a
cell that groups several squares is drawn as one region (no line between its squares)
with its numbers written once."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from cuatrola_solver.models.charts import (COLUMNS, ROWS, Cell, CellKey, Chart, ChartSet,
                                           Measure, describe_key, possible)
from cuatrola_solver.i18n import (N_, _, count, decimal, language, ngettext, percent,
                                  signed)

#: the colour of each call (paso quiet, the bids warmer as they rise)
CALL_COLOURS = {"paso": "#e4e0d6", "solo": "#9cc3e6", "contrasolo": "#c5a3d9",
                "cuatrola": "#f4b266", "quintola": "#e8685f"}
SHORT = {"paso": "·", "solo": "solo", "contrasolo": "contra", "cuatrola": "cuatr",
         "quintola": "quint"}
VALUE_WORDS = {"ev_played": N_("EV as played"), "ev": N_("EV double dummy"),
               "p_match": N_("P(match)")}


def row_label(row: tuple[int, str]) -> str:
    n, tops = row
    count = "4+" if n >= 4 else str(n)
    return count + "".join(f" +{t}" for t in tops[::-1])


def column_label(col: tuple[int, int]) -> tuple[str, str]:
    a, v = col
    return ("2+" if a == 2 else str(a)), ("2+" if v == 2 else str(v))


def situation(chart: Chart) -> str:
    """``seat 2, after paso``: whom the chart is for."""
    seat = chart.seat
    who = {1: _("seat 1 (mano)"), 4: _("seat 4 (dealer)")}.get(
        seat, _("seat {seat}").format(seat=seat))
    before = (_("first to speak") if not chart.auction else
              _("after {calls}").format(calls=" ".join(chart.auction))
              if any(c != "paso" for c in chart.auction)
              else _("all passed before"))
    score = ("" if chart.score is None else
             _(", score {a}-{b}").format(a=chart.score[0], b=chart.score[1]))
    return f"{who}, {before}{score}"


def grid_text(chart: Chart) -> str:
    """The chart as a grid of calls, for the terminal."""
    cols = [column_label(c) for c in COLUMNS]
    width = 7
    lines = [" " * 10 + _("outside aces / voids"),
             " " * 10 + "".join(f"{a:>{width}}" for a, _v in cols),
             " " * 10 + "".join(f"{v:>{width}}" for _a, v in cols)]
    for row in ROWS:
        text = f"{row_label(row):<10}"
        for col in COLUMNS:
            key = row + col
            mark = SHORT[chart.cell_at(key).call] if possible(key) else ""
            text += f"{mark:>{width}}"
        lines.append(text.rstrip())
    return "\n".join(lines)


def _cells_by_square(chart: Chart) -> dict[tuple[int, int], Cell]:
    out = {}
    for i, row in enumerate(ROWS):
        for j, col in enumerate(COLUMNS):
            if possible(row + col):
                out[(i, j)] = chart.cell_at(row + col)
    return out


def _anchors(squares: dict[tuple[int, int], Cell]) -> dict[CellKey, tuple[int, int]]:
    """The square each cell's numbers are written in: the one nearest its middle."""
    by_cell: dict[CellKey, list[tuple[int, int]]] = {}
    for sq, cell in squares.items():
        by_cell.setdefault(cell.key, []).append(sq)
    out = {}
    for key, sqs in by_cell.items():
        mi = sum(i for i, _ in sqs) / len(sqs)
        mj = sum(j for _, j in sqs) / len(sqs)
        out[key] = min(sqs, key=lambda s: ((s[0] - mi) ** 2 + (s[1] - mj) ** 2, s))
    return out


def plot_chart(charts: list[Chart], path: str | Path, title: str) -> None:
    """The charts side by side (one panel per chart) to a .png or .svg file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(charts)
    cols = min(n, 2)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(8.2 * cols, 7.4 * rows), dpi=100,
                             squeeze=False)
    for ax in axes.flat[n:]:
        ax.axis("off")
    for chart, ax in zip(charts, axes.flat):
        _panel(ax, chart)
    _legend(fig, charts)
    fig.suptitle(title, fontsize=12)
    fig.tight_layout(rect=(0, 0.05, 1, 0.97))
    kind = Path(path).suffix.lstrip(".").lower() or "png"
    with matplotlib.rc_context({"svg.hashsalt": "cuatrola"}):
        fig.savefig(str(path), format=kind,
                    metadata={"Date": None} if kind == "svg" else {"Software": None})
    plt.close(fig)


def _panel(ax: Any, chart: Chart) -> None:
    """One chart's grid on ``ax``: its regions coloured by call, each region's numbers,
    the labels of its rows and columns, and whom it is for."""
    from matplotlib.patches import Rectangle

    squares = _cells_by_square(chart)
    nr, nc = len(ROWS), len(COLUMNS)
    for (i, j), cell in squares.items():
        ax.add_patch(Rectangle((j, nr - 1 - i), 1, 1, color=CALL_COLOURS[cell.call], lw=0))
    _borders(ax, squares, nr)
    for key, (i, j) in _anchors(squares).items():
        cell = next(c for c in squares.values() if c.key == key)
        s = cell.stats
        ax.text(j + 0.5, nr - 1 - i + 0.5,
                f"{cell.call}\n{percent(s.p_rated)} {signed(s.ev_rated)}\nn={cell.hands}",
                ha="center", va="center", fontsize=6.2, linespacing=1.15)
    ax.set_xlim(0, nc)
    ax.set_ylim(0, nr)
    ax.set_xticks([j + 0.5 for j in range(nc)])
    ax.set_xticklabels([f"{_aces(a, ACES)}\n{_aces(v, VOIDS)}"
                        for a, v in (column_label(c) for c in COLUMNS)], fontsize=7)
    ax.set_yticks([nr - 1 - i + 0.5 for i in range(nr)])
    ax.set_yticklabels([row_label(r) for r in ROWS], fontsize=8)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    m = chart.measured
    sub = (_("{hands} hands; same call as advise on {agreement} of {fresh} fresh hands, "
             "{given} given up per hand").format(
               hands=count(chart.hands), agreement=percent(m.agreement),
               fresh=m.hands, given=decimal(m.given_up, 3)) if m
           else _("{hands} hands").format(hands=count(chart.hands)))
    ax.set_title(f"{situation(chart)}\n{sub}", fontsize=9)
    ax.set_ylabel(_("triunfos held (+A, +3: the as, the tres of trumps)"), fontsize=8)


def _borders(ax: Any, squares: dict[tuple[int, int], Cell], nr: int) -> None:
    """Lines only between squares of different cells, and around the grid."""
    for (i, j), cell in squares.items():
        y = nr - 1 - i
        for di, dj, seg in ((0, 1, ((j + 1, y), (j + 1, y + 1))),
                            (1, 0, ((j, y), (j + 1, y)))):
            other = squares.get((i + di, j + dj))
            if other is None or other.key != cell.key:
                ax.plot(*zip(*seg), color="#5b5648", lw=0.8)
        if (i - 1, j) not in squares:
            ax.plot([j, j + 1], [y + 1, y + 1], color="#5b5648", lw=0.8)
        if (i, j - 1) not in squares:
            ax.plot([j, j], [y, y + 1], color="#5b5648", lw=0.8)


def _legend(fig: Any, charts: list[Chart]) -> None:
    """The calls' colours (of the calls the charts make) under the panels."""
    from matplotlib.patches import Patch

    handles = [Patch(color=CALL_COLOURS[c], label=c) for c in CALL_COLOURS
               if any(cell.call == c for ch in charts for cell in ch.cells.values())]
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), frameon=False,
               fontsize=9, title=_("each region: the call, its P(win) and EV as played, and "
                                   "the hands it rests on") if charts[0].value == "ev_played"
               else _("each region: the call, its P(win) and EV, and the hands it rests on"),
               title_fontsize=8)


#: a column's count with its noun, for one and for any other count (``0``, ``2+``)
ACES = (N_("{n} ace"), N_("{n} aces"))
OUTSIDE_ACES = (N_("{n} outside ace"), N_("{n} outside aces"))
VOIDS = (N_("{n} void"), N_("{n} voids"))


def _aces(n: str, nouns: tuple[str, str]) -> str:
    """``1 ace``, ``0 aces``, ``2+ aces``: a column's count (a string) with its noun."""
    message = nouns[0] if n == "1" else nouns[1]
    return _(message).format(n=n)


def _measured(m: Measure) -> str:
    """How a chart agrees with advise on fresh hands, and what following it gives up."""
    def pct(x: float) -> str:
        return decimal(100 * x, 0)

    values = dict(hands=m.hands, agreement=percent(m.agreement), ci=percent(0.95),
                  lo=pct(m.agreement_ci95[0]), hi=percent(m.agreement_ci95[1]),
                  given=decimal(m.given_up, 3), given_lo=decimal(m.given_up_ci95[0], 3),
                  given_hi=decimal(m.given_up_ci95[1], 3))
    if not m.bid_hands or m.bid_agreement is None or m.bid_agreement_ci95 is None:
        return _("On {hands} fresh hands the chart made the call advise made on {agreement} "
                 "({ci} interval {lo}-{hi}); following it gave up {given} points per hand "
                 "({ci} interval {given_lo}-{given_hi}).").format(**values)
    return _("On {hands} fresh hands the chart made the call advise made on {agreement} "
             "({ci} interval {lo}-{hi}); following it gave up {given} points per hand ({ci} "
             "interval {given_lo}-{given_hi}); on the {bids} of them where the chart or advise "
             "bids, the same call on {bid_agreement} ({ci} interval {bid_lo}-{bid_hi}).").format(
        bids=m.bid_hands, bid_agreement=percent(m.bid_agreement),
        bid_lo=pct(m.bid_agreement_ci95[0]), bid_hi=percent(m.bid_agreement_ci95[1]),
        **values)


def _e(x: object) -> str:
    return html.escape(str(x), quote=True)


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
 background:#f4f1ea;color:#222}
main{max-width:1200px;margin:0 auto;padding:16px 24px 40px}
h1{font-size:1.5em;margin:.2em 0}
h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid #c9c2b0;padding-bottom:3px}
.sub{color:#555;margin:.2em 0 .8em}
table.chart{border-collapse:collapse;background:#fff;font-size:11px}
table.chart th{background:#ebe5d6;padding:2px 6px;font-weight:600}
table.chart td{width:74px;height:40px;text-align:center;border:1px solid #fff;padding:1px}
table.chart td.none{background:#fff}
table.chart td b{font-size:12px}
table.data{border-collapse:collapse;background:#fff;font-size:12px;margin:6px 0}
table.data th,table.data td{border:1px solid #ddd6c4;padding:2px 7px;text-align:left}
table.data th{background:#ebe5d6}
.legend span{display:inline-block;padding:2px 10px;margin-right:6px;border-radius:4px}
.foot{color:#777;font-size:12px;margin-top:2em}
"""


def _chart_table(chart: Chart) -> str:
    squares = _cells_by_square(chart)
    anchors = _anchors(squares)
    head = ("<tr><th rowspan=2>triunfos</th>" + "".join(
        f"<th colspan=3>{_e(_aces(a, OUTSIDE_ACES))}</th>"
        for a in ("0", "1", "2+")) + "</tr><tr>" + "".join(
        f"<th>{_e(_aces(v, VOIDS))}</th>" for _a, v in
        (column_label(c) for c in COLUMNS)) + "</tr>")
    body = []
    for i, row in enumerate(ROWS):
        tds = []
        for j, col in enumerate(COLUMNS):
            cell = squares.get((i, j))
            if cell is None:
                tds.append('<td class="none"></td>')
                continue
            title = ngettext("{cell}: {call}, {n} hand, advisor agrees on {agreement}",
                             "{cell}: {call}, {n} hands, advisor agrees on {agreement}",
                             cell.hands).format(cell=_(describe_key(cell.key)), call=cell.call,
                                                n=count(cell.hands),
                                                agreement=percent(cell.agreement))
            text = ""
            if anchors[cell.key] == (i, j):
                s = cell.stats
                text = (f"<b>{_e(cell.call)}</b><br>{_e(percent(s.p_rated))} "
                        f"{signed(s.ev_rated)}<br>n={cell.hands}")
            colour = CALL_COLOURS[cell.call]

            def side(di: int, dj: int) -> str:
                other = squares.get((i + di, j + dj))
                return "#5b5648" if other is None or other.key != cell.key else colour
            tds.append(f'<td style="background:{colour};border-color:{side(-1, 0)} '
                       f'{side(0, 1)} {side(1, 0)} {side(0, -1)}" '
                       f'data-call="{_e(cell.call)}" title="{_e(title)}">{text}</td>')
        body.append(f"<tr><th>{_e(row_label(row))}</th>{''.join(tds)}</tr>")
    return f'<table class="chart">{head}{"".join(body)}</table>'


def _cells_table(chart: Chart) -> str:
    rows = []
    for cell in sorted(chart.cells.values(), key=lambda c: describe_key(c.key)):
        s = cell.stats
        rows.append("<tr>" + "".join(f"<td>{_e(x)}</td>" for x in (
            _(describe_key(cell.key)), count(cell.hands), cell.call, percent(s.p_rated),
            signed(s.ev_rated), percent(cell.agreement))) + "</tr>")
    heads = (_("cell"), _("hands"), _("call"), _("P(win)"), _("EV"), _("advisor agrees"))
    return ('<table class="data"><thead><tr>' + "".join(f"<th>{_e(h)}</th>" for h in heads)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def html_charts(chartset: ChartSet, title: str) -> str:
    """One self-contained page: each chart of ``chartset`` as a coloured grid, its cells'
    numbers and how well it agrees with the advisor, and how the charts were made; the
    page sets ``data-charts="ok"`` when shown."""
    charts = chartset.charts
    used = {cell.call for chart in charts for cell in chart.cells.values()}
    legend = "".join(f'<span style="background:{c}">{_e(k)}</span>'
                     for k, c in CALL_COLOURS.items() if k in used)
    intro = (_("Which hands should call paso, solo, cuatrola or quintola. Rows: how many "
               "trumps you hold, +A and +3 when the as and the tres of trumps are among them; "
               "columns: aces of the other suits and the other suits you hold no card of. Each "
               "region is one cell: its call, P(win) and EV as the hand will be played, and how "
               "many hands it rests on. Hover a square for its class.")
             if charts and charts[0].value == "ev_played" else
             _("Which hands should call paso, solo, cuatrola or quintola. Rows: how many "
               "trumps you hold, +A and +3 when the as and the tres of trumps are among them; "
               "columns: aces of the other suits and the other suits you hold no card of. Each "
               "region is one cell: its call, P(win) and EV, and how many hands it rests on. "
               "Hover a square for its class."))
    parts = ["<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>",
             f"<h1>{_e(title)}</h1>",
             f'<p class="sub">{_e(intro)}</p>',
             f'<p class="legend">{legend}</p>']
    for chart in charts:
        m = chart.measured
        parts.append(f"<h2>{_e(situation(chart))}</h2>")
        if m:
            parts.append(f'<p class="sub">{_e(_measured(m))}</p>')
        every_cell = _("every cell")
        parts += [_chart_table(chart), f"<details><summary>{_e(every_cell)}</summary>",
                  _cells_table(chart), "</details>"]
    how = chartset.how_made()
    parts += ['<p class="foot">' + _e(_("How it was made: {how}. Written by cuatrola charts "
                                        "--html; this page needs no network.").format(how=how))
              + "</p></main>",
              "<script>document.body.dataset.charts = "
              "document.querySelectorAll('table.chart').length ? 'ok' : 'empty';</script>",
              "</body></html>"]
    return "\n".join(parts)
