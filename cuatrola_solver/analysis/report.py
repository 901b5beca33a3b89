"""The analysis report to look at: one self-contained HTML page, and the graph of the
win chances as PNG/SVG.

:func:`html_report` turns an :class:`~cuatrola_solver.analysis.review.Analysis` into
one HTML page that opens offline: the CSS, the script and the suit drawings are
inline, nothing is fetched.  It shows the deal drawn as cards, each baza in turn
(stepping through the hand with the buttons or the arrow keys), the graph of each
side's chance of winning along the hand -- each side's from what its own players knew,
ending at the result, over a background shaded by the side that wins double dummy --
with the mistakes marked, every valued card with its label and the best
alternatives, the bid review, the result with its points and the summary per seat.
The script draws the graph from the data embedded in the page and, when it has run
without error, sets ``data-report="ok"`` on ``<body>`` (the test looks for it).

:func:`plot_win_chances` draws the same graph with matplotlib (``pip install
cuatrola-solver[lab]``) to a ``.png`` or ``.svg`` file.

:func:`html_puzzles` makes the page of ``cuatrola puzzles --html`` the same way: each
puzzle drawn from the seat's own view, its cards to click, and "show the answer".
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any, Sequence

from ..advice.bidding import OptionResult, valued
from ..errors import CuatrolaError
from ..game.cards import format_card, suit_of
from ..game.hand import CanteScore, HandState, PointsBreakdown
from ..game.play import SUIT_NAMES, side_of
from ..game.rules import RuleSet
from ..game.seats import Side
from ..i18n import _, language, ngettext, percent
from .cards_svg import card_name, card_sheet, card_svg
from .puzzles import Puzzle, PuzzleReport
from .review import Analysis, BidReview, CardReview, SeatSummary, WinPoint

__all__ = ["html_report", "plot_win_chances", "html_puzzles", "SIDE_COLOURS"]

#: side A blue, side B red (the graph and the seat labels)
SIDE_COLOURS = {"A": "#1f5fbf", "B": "#c0392b"}

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
 background:#f4f1ea;color:#222;overflow-wrap:anywhere}
main{max-width:1100px;margin:0 auto;padding:12px 16px 32px}
h1{font-size:1.4em;margin:.2em 0}
h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid #c9c2b0;padding-bottom:3px}
.sub{color:#4a4a4a;margin:.2em 0 .8em}
.side-A{color:#1f5fbf}.side-B{color:#b03020}
.table{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr));gap:10px 24px}
.seat{background:#2f6b3c;border-radius:10px;padding:8px 10px;color:#fff}
.seat h3{margin:0 0 6px;font-size:.95em;font-weight:600}
.cards{display:flex;gap:6px;flex-wrap:wrap}
.card{position:relative;line-height:0;border-radius:6px}
.card .face{width:46px;height:69px;display:block}
.card.played{opacity:.25}
.card.muestra{outline:3px solid #e0b12a}
.card .sym{position:absolute;top:-8px;right:-8px;background:#b03020;color:#fff;line-height:1.3;
 border-radius:8px;font-size:11px;padding:0 4px}
.card.now{outline:3px solid #ff9800}
.tricks{display:flex;flex-direction:column;gap:8px}
.trick{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;background:#fff;border-radius:8px;
 padding:6px 10px;border:1px solid #ddd6c4}
.trick.current{border-color:#ff9800;box-shadow:0 0 0 2px #ffcc80}
.trick .t{min-width:60px;font-weight:600}
.trick .who{font-size:11px;text-align:center;line-height:1.6}
.trick .won .card{outline:2px solid #2e7d32}
.trick .note{font-size:13px;color:#4a4a4a;flex:1 1 12rem}
.controls{margin:8px 0;display:flex;flex-wrap:wrap;gap:8px;align-items:center;position:sticky;bottom:0;
 background:#f4f1ea;padding:4px 0}
.controls #step-text{flex:1 1 100%}
button{font:inherit;min-height:44px;min-width:44px;padding:3px 12px;border-radius:6px;border:1px solid #6b6b6b;
 background:#fff;color:#222;white-space:nowrap;cursor:pointer}
:focus-visible{outline:3px solid #0b3d91;outline-offset:2px}
#graph{background:#fff;border:1px solid #ddd6c4;border-radius:8px;width:100%;height:auto;display:block}
table.data{border-collapse:collapse;background:#fff;font-size:13px;margin:4px 0}
table.data th,table.data td{border:1px solid #ddd6c4;padding:3px 8px;text-align:left}
table.data th{background:#ebe5d6}
td.bad{color:#b03020;font-weight:700}
.legend span{margin-right:16px;font-size:13px}
.foot{color:#4a4a4a;font-size:12px;margin-top:2em}
@media (max-width:640px){
 main{padding:8px 10px 24px}
 .card .face{width:40px;height:60px}
 table.data,table.data tbody,table.data tr,table.data td{display:block}
 table.data thead{display:none}
 table.data tr{border:1px solid #ddd6c4;border-radius:6px;margin:6px 0;padding:4px 8px}
 table.data td{border:0;padding:1px 0}
 table.data td::before{content:attr(data-label) ": ";color:#4a4a4a}
}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var R = JSON.parse(document.getElementById("report-data").textContent);
  // the page's words, in the language it was written in: {name} filled from params
  var w = function (key, params) {
    return R.words[key].replace(/\{(\w+)\}/g, function (all, k) { return String(params[k]); });
  };
  var NS = "http://www.w3.org/2000/svg";
  var COL = {A: "#1f5fbf", B: "#c0392b"};
  function el(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  // --- the graph: each side's chance of winning after each card, from its own view ---
  var pts = R.win_chances, n = pts.length - 1;
  var KEY = {A: "knew", B: "knew_b"}, VIEW = {A: "view_a", B: "view_b"};
  var svg = document.getElementById("graph");
  // drawn at the width it is shown (at most 1000 units), so its labels keep their size on
  // a phone; drawn again when that width changes
  var W, H, L, Rm = 12, T = 20, B = 60, narrow, cursor;
  var x = function (i) { return L + (W - L - Rm) * (n ? i / n : 0); };
  var y = function (p) { return T + (H - T - B) * (1 - p); };
  function drawGraph() {
    W = Math.round(Math.max(300, Math.min(1000, svg.getBoundingClientRect().width || 1000)));
    narrow = W < 600; H = narrow ? 300 : 360; L = narrow ? 40 : 60;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    // the background: which side wins double dummy (all cards seen) from each point on
    pts.forEach(function (p, i) {
      if (p.dd === null || p.dd === undefined || i === n) { return; }
      var side = p.dd ? "A" : "B";
      svg.appendChild(el("rect", {x: x(i), y: T, width: x(i + 1) - x(i), height: H - T - B,
                                  fill: COL[side], "fill-opacity": 0.10, "class": "dd-" + side}));
    });
    var g = el("g", {"class": "axes"});
    [0, 0.25, 0.5, 0.75, 1].forEach(function (p) {
      g.appendChild(el("line", {x1: L, x2: W - Rm, y1: y(p), y2: y(p), stroke: p === 0.5 ? "#999" : "#e3ddcf"}));
      g.appendChild(el("text", {x: L - 8, y: y(p) + 4, "text-anchor": "end", "font-size": 12}, Math.round(100 * p) + "%"));
    });
    var lastTrick = 0;
    pts.forEach(function (p, i) {
      if (i > 0 && p.trick !== lastTrick) {
        var xb = x(i - 1);
        g.appendChild(el("line", {x1: xb, x2: xb, y1: T, y2: H - B, stroke: "#c9c2b0", "stroke-dasharray": "3,3"}));
        g.appendChild(el("text", {x: xb + 4, y: H - B + (narrow ? 42 : 34), "font-size": 12, fill: "#4a4a4a"}, "baza " + p.trick));
        lastTrick = p.trick;
      }
      if (i > 0) {
        var tx = x(i), ty = H - B + 16;
        g.appendChild(el("text", narrow ? {x: tx, y: ty, "text-anchor": "end", "font-size": 11, fill: "#4a4a4a",
                                           transform: "rotate(-60 " + tx + " " + ty + ")"} :
                         {x: tx, y: ty, "text-anchor": "middle", "font-size": 11, fill: "#4a4a4a"}, p.card));
      }
    });
    svg.appendChild(g);
    function path(side) {
      var d = "", key = KEY[side];
      pts.forEach(function (p, i) {
        var v = p[key];
        if (v === null || v === undefined) { return; }
        d += (d ? " L" : "M") + x(i) + "," + y(v);
      });
      if (!d) { return null; }
      return svg.appendChild(el("path", {d: d, fill: "none", stroke: COL[side], "stroke-width": 2.5,
                                         "class": "line-knew-" + side}));
    }
    path("A"); path("B");
    pts.forEach(function (p, i) {
      if (!p.symbol) { return; }
      var side = (p.seat % 2) ? "A" : "B", v = p[KEY[side]];
      if (v === null || v === undefined) { return; }
      var m = el("circle", {cx: x(i), cy: y(v), r: 7, fill: "#fff", stroke: COL[side], "stroke-width": 3, "class": "mistake"});
      m.appendChild(el("title", {}, "seat " + p.seat + " " + p.card + p.symbol + " (" + p.label + ")"));
      svg.appendChild(m);
      svg.appendChild(el("text", {x: x(i), y: y(v) - 12, "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: COL[side]}, p.card + p.symbol));
    });
    cursor = el("line", {x1: x(0), x2: x(0), y1: T, y2: H - B, stroke: "#ff9800", "stroke-width": 2, id: "cursor"});
    svg.appendChild(cursor);
  }
  drawGraph();
  // --- stepping through the hand ---
  var step = n;
  function show(s) {
    step = Math.max(0, Math.min(n, s));
    document.querySelectorAll("[data-step]").forEach(function (c) {
      var k = +c.getAttribute("data-step");
      // the deal: cards already played fade while stepping; at the end the whole deal shows
      if (c.classList.contains("in-hand")) { c.classList.toggle("played", k <= step && step < n); }
      else { c.style.visibility = k <= step ? "visible" : "hidden"; c.classList.toggle("now", k === step); }
    });
    document.querySelectorAll(".trick").forEach(function (t) {
      t.classList.toggle("current", step > 0 && +t.getAttribute("data-trick") === pts[step].trick);
    });
    cursor.setAttribute("x1", x(step)); cursor.setAttribute("x2", x(step));
    var p = pts[step];
    var txt = step === 0 ? w("start") :
      w("card", {step: step, n: n, seat: p.seat, card: p.card + (p.symbol || "")});
    if (p.decided && R.result) {
      txt += " \u2014 " + w("decided", {side: R.result.winner, points: R.result.game_points});
    } else {
      var parts = [];
      ["A", "B"].forEach(function (side) {
        var v = p[KEY[side]];
        if (v !== null && v !== undefined) {
          parts.push(w("side", {side: side, p: Math.round(100 * v) + R.words.percent,
                                seat: p[VIEW[side]]}));
        }
      });
      if (parts.length) { txt += " \u2014 " + parts.join(", "); }
      if (p.dd !== null) { txt += w("dd", {side: p.dd ? "A" : "B"}); }
    }
    document.getElementById("step-text").textContent = txt;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(step - 1); };
  document.getElementById("next").onclick = function () { show(step + 1); };
  document.getElementById("last").onclick = function () { show(n); };
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { show(step - 1); } else if (e.key === "ArrowRight") { show(step + 1); }
  });
  svg.addEventListener("click", function (e) {
    var r = svg.getBoundingClientRect();
    var px = (e.clientX - r.left) * W / r.width;
    show(Math.round((px - L) / (W - L - Rm) * n));
  });
  show(n);
  var drawnAt = W;
  window.addEventListener("resize", function () {
    var w = Math.round(Math.max(300, Math.min(1000, svg.getBoundingClientRect().width)));
    if (Math.abs(w - drawnAt) > 40) { drawnAt = w; drawGraph(); show(step); }
    tellHeight();
  });
  // inside the page of cuatrola serve: tell it the height, so the frame needs no scrolling
  function tellHeight() {
    if (window.parent !== window) {
      window.parent.postMessage({cuatrolaHeight: document.documentElement.scrollHeight}, "*");
    }
  }
  tellHeight();
  // and whenever the content's height changes (the graph drawn at the frame's width, a
  // font loaded), which a resize of the frame alone does not always follow
  if (window.ResizeObserver) { new ResizeObserver(tellHeight).observe(document.body); }
  window.addEventListener("load", tellHeight);
  document.body.setAttribute("data-report", "ok");
})();
"""


def call_odds(option: OptionResult) -> tuple[float | None, float | None]:
    """``(P(win), EV)`` a call of the bid review is rated on: as played when the review
    has a played-odds model, else double dummy."""
    if option.p_played is not None:
        return option.p_played, option.ev_played
    return option.p_win, option.ev


def best_cards(card: CardReview) -> str:
    """The card that did best on what the seat knew (``Ac``); cards that tie for it as
    ``Re or Ac`` (at most three named): the P(win) shown beside is each one's."""
    best = [format_card(c) for c in card.best]
    return _(" or ").join(best[:3]) + (_(" or ") + "…" if len(best) > 3 else "")


def drop_empty_columns(headers: list[str], rows: list[list[str]],
                       keep: int = 1) -> tuple[list[str], list[list[str]]]:
    """The table without the columns (after the first ``keep``) whose every cell is
    empty: no column of blanks."""
    used = [i for i in range(len(headers))
            if i < keep or any(r[i] and r[i] != "<td></td>" for r in rows)]
    return [headers[i] for i in used], [[r[i] for i in used] for r in rows]


def _e(x: object) -> str:
    return html.escape(str(x), quote=True)


def _card(text: str, extra: str = "", attrs: str = "", symbol: str | None = None,
          tag: str = "div") -> str:
    """A card of the one drawing (:mod:`.cards_svg`); ``tag="button"``: one to click."""
    sym = f'<span class="sym">{_e(symbol)}</span>' if symbol else ""
    kind = ' type="button"' if tag == "button" else ""
    return (f'<{tag}{kind} class="card {extra}" data-card="{_e(text)}" '
            f'title="{_e(card_name(text))}" {attrs}>{card_svg(text)}{sym}</{tag}>')


def _pct(p: float | None) -> str:
    return "–" if p is None else f"{100 * p:.0f}%"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    """A table; on a phone each row is a block of its own, each cell named by its
    column (``data-label``), so nothing scrolls sideways."""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(
        (c.replace("<td", f'<td data-label="{_e(h)}"', 1) if c.startswith("<td") else
         f'<td data-label="{_e(h)}">{_e(c)}</td>') for h, c in zip(headers, row)) + "</tr>"
        for row in rows)
    return f'<table class="data"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _contract(hand: HandState) -> str:
    decl = hand.declarer
    if hand.contract == "paso" or not decl:
        return _("paso (all four play)")
    if len(decl) == 2:
        return _("contrasolo, seat {seat} against seat {other}").format(seat=decl[0],
                                                                        other=decl[1])
    return _("{contract} by seat {seat}").format(contract=hand.contract, seat=decl[0])


def _rules_text(rules: RuleSet) -> str:
    """A rule set as the pages show it: its preset, then each override
    (``narro, tie_break=mano``), as its record spec names them."""
    return rules.name + "".join(f", {k}={v}" for k, v in rules.differences().items())


def _deal_section(a: Analysis, played_at: dict[int, int]) -> str:
    parts = []
    auction = a.hand.auction.calls
    for seat, (name, hand) in enumerate(zip(a.players, a.dealt), 1):
        cards = "".join(
            _card(format_card(c), "in-hand" + (" muestra" if c == a.hand.muestra else ""),
                  f'data-step="{played_at.get(c, 999)}"') for c in hand)
        role = (_(" (mano)") if seat == 1 else _(" (dealer, holds the muestra)") if seat == 4
                else "")
        call = ""
        if auction and len(auction) >= seat:
            call = _(" — called {call}").format(call=auction[seat - 1])
        parts.append('<div class="seat"><h3>'
                     + _e(_("Seat {seat}{name}, side {side}{role}{call}").format(
                         seat=seat, name=f" — {name}" if name else "", side=side_of(seat),
                         role=role, call=call))
                     + f'</h3><div class="cards">{cards}</div></div>')
    return '<div class="table">' + "".join(parts) + "</div>"


def _trick_notes(t: int, cards: list[CardReview], winner: int | None,
                 cantes: tuple[CanteScore, ...]) -> list[str]:
    """Who took baza ``t``, the cantes sung after it, its renuncios."""
    notes = []
    if winner is not None:
        notes.append(_("seat {seat} (side {side}) takes the baza").format(
            seat=winner, side=side_of(winner)))
    for k in cantes:
        if k.after_trick == t:
            notes.append((_("seat {seat} sings las cuarenta in {suit} (+{points})")
                           if k.points == 40 else
                           _("seat {seat} sings las veinte in {suit} (+{points})")).format(
                seat=k.seat, suit=SUIT_NAMES[k.suit], points=k.points))
    for c in cards:
        if c.kind == "renuncio":
            notes.append(_("renuncio by seat {seat} ({obligation})").format(
                seat=c.seat, obligation=valued(c.obligation).replace("_", " ")))
    return notes


def _tricks_section(a: Analysis) -> str:
    res = a.result
    bd = None if res is None else res.breakdown
    winners = () if bd is None else bd.trick_winners
    seat_of = _("seat {seat}")
    by_trick: dict[int, list[tuple[int, CardReview]]] = {}
    for i, c in enumerate(a.cards, 1):
        by_trick.setdefault(c.trick, []).append((i, c))
    out = []
    for t, cards in by_trick.items():
        winner = winners[t - 1] if t - 1 < len(winners) else None
        cells = [f'<div class="{"won" if c.seat == winner else ""}"><div class="who '
                 f'side-{c.side}">{_e(seat_of.format(seat=c.seat))}</div>'
                 f'{_card(format_card(c.card), "", f"data-step={i!s}", c.symbol)}</div>'
                 for i, c in cards]
        notes = _trick_notes(t, [c for _i, c in cards], winner, () if bd is None else bd.cantes)
        baza = _e(_("Baza {trick}").format(trick=t))
        out.append(f'<div class="trick" data-trick="{t}"><div class="t">{baza}</div>'
                   + "".join(cells) + f'<div class="note">{_e("; ".join(notes))}</div></div>')
    return '<div class="tricks">' + "".join(out) + "</div>"


def _play_row(c: CardReview) -> list[str]:
    if c.kind == "forced":
        note, pw, best, loss = _("forced (one legal card)"), "", "", ""
    elif c.kind == "after_renuncio":
        note, pw, best, loss = _("after the renuncio: not valued"), "", "", ""
    else:
        note = _(c.label) if c.label else ""
        if c.kind == "renuncio":
            note = _("renuncio ({obligation})").format(
                obligation=valued(c.obligation).replace("_", " "))
        if c.dd_only:
            note += ("; " if note else "") + _("double-dummy error, sound on what was known")
        pw = _pct(c.p_rated)
        best = f"{best_cards(c)} {_pct(c.best_p_rated)}"
        loss = _pct(c.loss_reported)
    dd = ""
    swing = c.dd_swing
    if swing is not None:
        word = {True: _("win"), False: _("lose")}
        dd = f"{word[swing.makes[0]]} → {word[swing.makes[1]]}"
    card = format_card(c.card) + (c.symbol or "")
    cls = ' class="bad"' if c.symbol else ""
    return [str(c.trick), str(c.seat), f"<td{cls}>{_e(card)}</td>", pw, best, loss, dd, note]


def _play_table(a: Analysis) -> str:
    return _table([_("baza"), _("seat"), _("card"), _("P(win) knew"), _("best card"),
                   _("win lost"), _("double dummy"), _("label")],
                  [_play_row(c) for c in a.cards])


def _bid_row(b: BidReview) -> list[str]:
    (cp, cev), (ap, aev) = call_odds(b.option(b.call)), call_odds(b.option(b.advice))
    lost = b.ev_loss_reported
    return [str(b.seat), b.call, f"{_pct(cp)} {valued(cev):+.2f}",
            f"{b.advice} {_pct(ap)} {valued(aev):+.2f}",
            "" if lost < 0.005 else f"{lost:.2f}",
            f"{valued(b.dd_game_points(b.call)):+d}",
            f"{b.dd_best} {valued(b.dd_game_points(b.dd_best)):+d}",
            _("{call} was there to be made").format(call=b.missed) if b.missed else ""]


def _bids_table(a: Analysis) -> str:
    return _table(*drop_empty_columns([_("seat"), _("call"), _("P(win) EV"), _("advice"),
                                       _("EV lost"), _("double dummy"),
                                       _("best double dummy"), _("note")],
                                      [_bid_row(b) for b in a.bids]))


def _summary_row(s: SeatSummary) -> list[str]:
    acc = s.accuracy_reported
    return [str(s.seat), str(s.side), "–" if acc is None else f"{acc:.0f}%",
            str(s.choices), str(s.inaccuracies), str(s.mistakes), str(s.blunders),
            str(s.renuncios), f"{100 * s.win_chance_lost_reported:.0f}%", str(s.points_lost),
            f"{s.dd_errors} ({s.dd_only})"]


def _summary_table(a: Analysis) -> str:
    return _table([_("seat"), _("side"), _("accuracy"), _("choices"), _("?! inaccuracies"),
                   _("? mistakes"), _("?? blunders"), _("renuncios"), _("win chance lost"),
                   _("match points lost (dd)"), _("dd errors (sound)")],
                  [_summary_row(s) for s in a.summary if s.cards])


def _breakdown_line(bd: PointsBreakdown) -> str:
    """The points of the cards, the monte and each cante."""
    line = _("Cards A {a} – B {b}").format(a=bd.cards[0], b=bd.cards[1])
    for side in Side:
        if bd.monte[side]:
            line += _("; monte (last baza) {side} +{points}").format(
                side=side, points=bd.monte[side])
    for k in bd.cantes:
        line += (_("; seat {seat} sang las cuarenta in {suit} after baza {trick} ({side} "
                   "+{points})") if k.points == 40 else
                 _("; seat {seat} sang las veinte in {suit} after baza {trick} ({side} "
                   "+{points})")).format(
            seat=k.seat, suit=SUIT_NAMES[k.suit], trick=k.after_trick, side=k.side,
            points=k.points)
    return line + "."


def _result_section(a: Analysis) -> str:
    res = a.result
    if res is None:
        return "<p>" + _e(_("Not decided yet.")) + "</p>"
    how = {"play": _("after five bazas"), "renuncio": _("by the first renuncio"),
           "early_end": _("ended early: the bazas decide it")}[res.ended_by]
    items = ["<b>" + _e(_("Side {side} scores {points}").format(
                 side=res.winner, points=res.game_points)) + f"</b> ({_e(how)}).",
             _("Points A {a} – B {b}; bazas A {ta} – B {tb}.").format(
                 a=res.points[0], b=res.points[1], ta=res.tricks[0], tb=res.tricks[1])]
    if res.breakdown is not None:
        items.append(_breakdown_line(res.breakdown))
    if res.tie_break:
        items.append(_("A tie on points, broken by {how}.").format(
            how=res.tie_break.replace("_", " ")))
    if res.score_before is not None and res.score_after is not None:
        sa, sb = res.score_before, res.score_after
        items.append(_("Match: A {a} – B {b} before the hand, A {a2} – B {b2} after.").format(
            a=sa.A, b=sa.B, a2=sb.A, b2=sb.B))
    return "<p>" + "<br>".join(_e(x) if not x.startswith("<b>") else x for x in items) + "</p>"


def _page_data(a: Analysis) -> str:
    """The data the page's script draws from: the win chances (as ``analyze --json``
    writes them), the result and the page's words, in the language of the page."""
    res = a.result
    words = {"start": _("before the first card"),
             "card": _("card {step} of {n}: seat {seat} plays {card}"),
             "decided": _("the hand is decided: side {side} scores {points}."),
             "side": _("side {side} {p} (from seat {seat}'s view)"),
             "dd": _("; double dummy side {side} wins"),
             "percent": "\u00a0%" if language() == "es" else "%"}
    return json.dumps({"win_chances": [p.to_dict() for p in a.win_chances], "words": words,
                       "result": None if res is None else {
                           "winner": str(res.winner), "game_points": res.game_points}}
                      ).replace("</", "<\\/")


def _intro(a: Analysis, title: str) -> list[str]:
    """The page's head and title; the rules, the contract, the score, how it was valued."""
    hand, score = a.hand, a.hand.score
    how = (_("every consistent deal") if a.exact else
           _("{n} sampled deals per card and bid (every deal when they are few), seed {seed}")
           .format(n=a.samples, seed=a.seed))
    return [
        "<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>",
        card_sheet(),
        f"<h1>{_e(title)}</h1>",
        '<p class="sub">' + _e(_("rules {rules}; muestra {muestra} (triunfo {suit}); contract "
                                 "{contract}").format(
            rules=_rules_text(hand.rules), muestra=format_card(hand.muestra),
            suit=SUIT_NAMES[suit_of(hand.muestra)], contract=_contract(hand)))
        + (_e(_("; match score A {a} – B {b}").format(a=score.A, b=score.B))
           if score is not None else "")
        + _e(_("; values from {how}").format(how=how)) + "</p>"]


def _graph(a: Analysis) -> list[str]:
    """The graph of the win chances (drawn by the script), its legend, the buttons."""
    return [
        "<h2>" + _e(_("Win chances along the hand")) + "</h2>",
        '<p class="legend"><span class="side-A">━ ' + _e(_("side A (seats 1, 3)")) + "</span>"
        '<span class="side-B">━ ' + _e(_("side B (seats 2, 4)")) + "</span><span>"
        + _e((_("each line is that side's chance of winning the hand after every card, from "
                "what that side's own players knew then (the one who played the card, or the "
                "one to play next), as the hand will be played; the two need not add up to "
                "100%: each side sees only its own cards. The last point is the result. "
                "Shading: the side that wins double dummy (every card seen, perfect play from "
                "there). ○ a mistake.") if a.model == "played" else
              _("each line is that side's chance of winning the hand after every card, from "
                "what that side's own players knew then (the one who played the card, or the "
                "one to play next); the two need not add up to 100%: each side sees only its "
                "own cards. The last point is the result. Shading: the side that wins double "
                "dummy (every card seen, perfect play from there). ○ a mistake.")))
        + "</span></p>",
        '<svg id="graph" viewBox="0 0 1000 360" role="img" aria-label="'
        + _e(_("each side's chance of winning after each card")) + '"></svg>',
        '<div class="controls"><button id="first">« ' + _e(_("start")) + '</button>'
        '<button id="prev">‹ ' + _e(_("back")) + '</button><button id="next">'
        + _e(_("next")) + ' ›</button><button id="last">' + _e(_("end")) + " »</button>"
        '<span id="step-text"></span></div>']


def _cards_part(a: Analysis) -> list[str]:
    """The bazas, then every card with its value."""
    return [
        "<h2>" + _e(_("The bazas")) + "</h2>", _tricks_section(a),
        "<h2>" + _e(_("Every card")) + "</h2>",
        "<p>" + _e((_("P(win): the chance of the card's side from what its player knew, as "
                      "the hand will be played (the played-odds model); best card: the card "
                      "that did best on that knowledge (cards that tie joined by 'or'), and its "
                      "P(win); win lost: the win chance given away. ?! an inaccuracy (10 points "
                      "or more), ? a mistake (20), ?? a blunder (30).")
                    if a.model == "played" else
                    _("P(win): the chance of the card's side from what its player knew, double "
                      "dummy; best card: the card that did best on that knowledge (cards that "
                      "tie joined by 'or'), and its P(win); win lost: the win chance given "
                      "away. ?! an inaccuracy (10 points or more), ? a mistake (20), ?? a "
                      "blunder (30).")))
        + "</p>",
        _play_table(a)]


def _closing(a: Analysis) -> list[str]:
    """The bid review, the result, the summary per seat, the page's data and script."""
    parts = []
    if a.bids:
        parts += ["<h2>" + _e(_("The bidding")) + "</h2>",
                  "<p>" + _e(_("P(win) and EV from the seat's own hand; double dummy: the "
                               "match points on the actual deal.")) + "</p>",
                  _bids_table(a)]
    return parts + [
        "<h2>" + _e(_("The result")) + "</h2>", _result_section(a),
        "<h2>" + _e(_("Per seat")) + "</h2>",
        "<p>" + _e(_("Accuracy (the share of a seat's choices losing less than {p} of "
                     "winning chances) and the win chance lost: on what the seat knew. "
                     "Match points lost and errors: double dummy, with every card seen; "
                     "in brackets the errors that were sound on what the seat knew, "
                     "which is how an accurate seat can still lose points.").format(
            p=percent(0.10))) + "</p>", _summary_table(a),
        '<p class="foot">' + _e(_("Written by cuatrola analyze --html. This page needs "
                                  "no network.")) + "</p></main>",
        f'<script type="application/json" id="report-data">{_page_data(a)}</script>',
        f"<script>{_SCRIPT}</script></body></html>"]


def html_report(analysis: Analysis, title: str = "cuatrola analysis") -> str:
    """One self-contained HTML page of an analysis (see the module)."""
    played_at = {c.card: i for i, c in enumerate(analysis.cards, 1)}
    return "\n".join(_intro(analysis, title)
                     + ["<h2>" + _e(_("The deal")) + "</h2>", _deal_section(analysis, played_at)]
                     + _graph(analysis) + _cards_part(analysis) + _closing(analysis))


def _draw_chances(ax: Any, pts: tuple[WinPoint, ...], colour: dict[Side, str]) -> None:
    """The graph's background shaded by the side that wins double dummy, each side's
    line, the mistakes marked."""
    for p, after in zip(pts, pts[1:]):
        if p.dd is not None:
            ax.axvspan(p.index, after.index, color=colour[Side.A if p.dd else Side.B],
                       alpha=0.10, lw=0)
    for side in Side:
        known = [p for p in pts if p.knew_of(side) is not None]
        ax.plot([p.index for p in known], [valued(p.knew_of(side)) for p in known],
                color=colour[side], lw=2.2,
                label=f"side {side} ({'seats 1, 3' if side is Side.A else 'seats 2, 4'})")
    for p in pts:
        if p.symbol and p.seat is not None and p.card is not None:
            side = side_of(p.seat)
            v = p.knew_of(side)
            if v is None:
                continue
            ax.plot([p.index], [v], "o", ms=9, mfc="white", mec=colour[side], mew=2.5)
            ax.annotate(format_card(p.card) + p.symbol, (p.index, v), xytext=(0, 9),
                        textcoords="offset points", ha="center", color=colour[side],
                        fontweight="bold")


def _draw_bazas(ax: Any, pts: tuple[WinPoint, ...]) -> None:
    """A line where each baza begins, and each card under its point."""
    last = None
    for p in pts[1:]:
        if p.trick != last:
            ax.axvline(p.index - 1, color="#c9c2b0", ls=":", lw=1)
            ax.text(p.index - 0.9, -0.16, f"baza {p.trick}", fontsize=8, color="#555")
            last = p.trick
    ax.set_xticks([p.index for p in pts[1:]])
    ax.set_xticklabels([format_card(valued(p.card)) for p in pts[1:]], fontsize=7)


def plot_win_chances(analysis: Analysis, path: str | Path, title: str = "") -> None:
    """The graph of the report to a .png or .svg file: each side's chance of winning
    after every card, from what that side's own players knew (``knew``, ``knew_b``),
    ending at the result, over a background shaded by the side that wins double dummy,
    the mistakes marked; the legend says what each line is."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        raise CuatrolaError("--plot needs matplotlib: pip install 'cuatrola-solver[lab]'") \
            from None
    pts = analysis.win_chances
    xs = [p.index for p in pts]
    played = analysis.model == "played"
    colour = {side: SIDE_COLOURS[str(side)] for side in Side}
    fig, ax = plt.subplots(figsize=(10, 5.2), dpi=100)
    _draw_chances(ax, pts, colour)
    _draw_bazas(ax, pts)
    ax.set_ylim(-0.05, 1.08)
    ax.set_xlim(0, max(xs) if xs else 1)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_ylabel("chance of winning the hand")
    ax.set_title(title or "Win chances along the hand")
    handles, labels = ax.get_legend_handles_labels()
    handles += [Patch(color=colour[Side.A], alpha=0.18), Patch(color=colour[Side.B], alpha=0.18)]
    labels += ["shaded: side A wins double dummy (every card seen)",
               "shaded: side B wins double dummy"]
    ax.legend(handles, labels, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2),
              ncol=2, frameon=False,
              title="Each side's chance of winning after each card"
              + (", as the hand will be played" if played else "")
              + ",\nfrom what that side's own players knew then: the two need not add up to "
              "100%. The last point is the result; ○ a mistake.", title_fontsize=8)
    ax.grid(axis="y", color="#eee")
    fig.tight_layout()
    kind = Path(path).suffix.lstrip(".").lower() or "png"
    # the same report gives the same file: no date, fixed ids in an SVG
    with matplotlib.rc_context({"svg.hashsalt": "cuatrola"}):
        fig.savefig(str(path), format=kind,
                    metadata={"Date": None} if kind == "svg" else {"Software": None})
    plt.close(fig)


# --- the puzzles' page ------------------------------------------------------------------

_PUZZLE_CSS = """
.puzzle{background:#fff;border:1px solid #ddd6c4;border-radius:10px;padding:10px 14px;
 margin:14px 0}
.puzzle h2{border:0;margin:.2em 0}
.puzzle .row{display:flex;gap:10px;align-items:center;margin:6px 0;flex-wrap:wrap}
.puzzle .row .lbl{width:110px;font-size:13px;color:#4a4a4a}
.puzzle .hand .card{cursor:pointer;padding:0;border:0;background:none;min-height:0;min-width:0}
.puzzle .hand .card .face{width:50px;height:75px}
.puzzle .hand .card.right{outline:3px solid #2e7d32}
.puzzle .hand .card.wrong{outline:3px solid #c0392b}
.puzzle .q{font-weight:600;margin:8px 0}
.puzzle .answer{background:#f4f1ea;border-radius:8px;padding:6px 10px;margin-top:6px}
.puzzle .said{font-size:13px;min-height:1.2em}
.mini{display:inline-flex;gap:3px;align-items:center;margin-right:10px}
.mini .card .face{width:34px;height:51px}
.mini .who{font-size:11px;color:#4a4a4a}
"""

_PUZZLE_SCRIPT = r"""
(function () {
  // the page's words, in the language it was written in
  var W = JSON.parse(document.getElementById('puzzle-words').textContent);
  document.querySelectorAll('.puzzle').forEach(function (pz) {
    var answer = pz.dataset.answer, box = pz.querySelector('.answer'),
        said = pz.querySelector('.said'), button = pz.querySelector('button.show');
    button.addEventListener('click', function () {
      box.hidden = !box.hidden;
      button.textContent = box.hidden ? W.show : W.hide;
    });
    pz.querySelectorAll('.hand .card').forEach(function (card) {
      card.addEventListener('click', function () {
        var c = card.dataset.card;
        if (pz.dataset.legal.split(' ').indexOf(c) < 0) {
          said.textContent = W.renuncio.replace('{card}', c);
          return;
        }
        card.classList.add(c === answer ? 'right' : 'wrong');
        said.textContent = (c === answer ? W.right : W.wrong).replace('{card}', c);
      });
    });
  });
  if (window.parent !== window) {
    var tell = function () {
      window.parent.postMessage({cuatrolaHeight: document.documentElement.scrollHeight}, '*');
    };
    document.querySelectorAll('button').forEach(function (b) {
      b.addEventListener('click', function () { setTimeout(tell, 0); });
    });
    window.addEventListener('resize', tell);
    if (window.ResizeObserver) { new ResizeObserver(tell).observe(document.body); }
    window.addEventListener('load', tell);
    tell();
  }
  document.body.dataset.puzzles = 'ok';
})();
"""


def _mini(cards: Sequence[tuple[int, int]], label: str = "", tail: str = "") -> str:
    """Cards played, each after its seat: ``(seat, card)``."""
    inner = "".join(f'<span class="who">{_e(s)}</span>{_card(format_card(c))}'
                    for s, c in cards)
    end = f'<span class="who">{_e(tail)}</span>' if tail else ""
    return f'<span class="mini">{_e(label)}{inner}{end}</span>'


def _puzzle_contract(contract: str, decl: tuple[int, ...]) -> str:
    if contract == "paso" or not decl:
        return _("paso (all four play)")
    if len(decl) == 1:
        return _("{contract} by seat {seat}").format(contract=contract, seat=decl[0])
    return _("{contract} by seat {seat} against seat {other}").format(
        contract=contract, seat=decl[0], other=decl[1])


def _puzzle_section(i: int, p: Puzzle) -> str:
    d = p.shown()
    score = d.score
    tricks = "".join(_mini(t.cards, f"{n}.", _("won by {seat}").format(seat=t.winner))
                     for n, t in enumerate(d.tricks, 1)) or "–"
    now = _mini(d.current) if d.current else _e(_("you lead"))
    hand = "".join(_card(format_card(c), "muestra" if c == d.muestra else "", tag="button")
                   for c in d.held)
    cantes = ", ".join(_("seat {seat} sang {suit} after trick {trick}").format(
                           seat=k.seat, suit=SUIT_NAMES[k.suit], trick=k.after_trick)
                       for k in d.cantes)
    how = _("as the hand will be played") if p.model == "played" else _("double dummy")
    answer, played = format_card(p.answer), format_card(p.played)
    rows = [[format_card(c.card) + (_(" (answer)") if c.card == p.answer else "")
             + (_(" (played)") if c.card == p.played else ""),
             _pct(c.p_played if p.model == "played" else c.p_win),
             f"{c.tricks:.2f}"] for c in p.cards]
    # the messages, outside the f-strings (where the catalogs' extraction cannot see them)
    heading = _("Puzzle {i}").format(i=i)
    so_far, sung, this_trick, held = (_("played so far"), _("cantes"), _("this trick"),
                                      _("you hold"))
    side, show = _("side"), _("show the answer")
    judged = _("Every card, judged exactly over every layout ({how}):").format(how=how)
    return (f'<section class="puzzle" data-answer="{_e(answer)}" '
            f'data-legal="{_e(" ".join(format_card(c.card) for c in p.cards))}">'
            f'<h2>{_e(heading)}</h2><p class="sub">{_e(_(p.source))}</p>'
            '<p class="sub">' + _e(_("rules {rules}; muestra {muestra} (triunfo {trump}); "
                                     "contract {contract}; you are seat {seat}").format(
                rules=_rules_text(d.rules), muestra=format_card(d.muestra),
                trump=d.trump_name, contract=_puzzle_contract(d.contract, d.declarer),
                seat=d.seat))
            + f' ({_e(side)} <span class="side-{d.side}">{d.side}</span>)'
            + (_e(_("; match score A {a} – B {b}").format(a=score.A, b=score.B))
               if score else "") + "</p>"
            f'<div class="row"><span class="lbl">{_e(so_far)}</span>{tricks}</div>'
            + (f'<div class="row"><span class="lbl">{_e(sung)}</span>{_e(cantes)}</div>'
               if cantes else "")
            + f'<div class="row"><span class="lbl">{_e(this_trick)}</span>{now}</div>'
            f'<div class="row hand"><span class="lbl">{_e(held)}</span>{hand}</div>'
            + (f'<p class="sub">{_e(p.note)}</p>' if p.note else "")
            + f'<p class="q">{_e(_(p.question()))}</p><p class="said"></p>'
            f'<button class="show">{_e(show)}</button>'
            f'<div class="answer" hidden><p><b>{_e(answer)}</b>. {_e(_(p.why()))}</p>'
            f'<p>{_e(judged)}</p>'
            + _table([_("card"), _("P(win)"), _("tricks")], rows) + "</div></section>")


def html_puzzles(report: PuzzleReport, title: str = "cuatrola puzzles") -> str:
    """One self-contained page of the puzzles of ``report``: each puzzle drawn from the
    seat's view, a question, the cards of the hand to click, and "show the answer" with
    why.  The script sets ``data-puzzles="ok"`` on ``<body>`` when it has run."""
    puzzles = report.puzzles
    search = report.search
    found = (_("{records} records, {positions} positions with a choice, {judged} judged "
               "exactly").format(records=search.records, positions=search.positions,
                                 judged=search.judged) if search
             else _("puzzles read back"))
    parts = [
        "<!DOCTYPE html>", f'<html lang="{language()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}{_PUZZLE_CSS}</style></head><body><main>",
        card_sheet(), f"<h1>{_e(title)}</h1>",
        '<p class="sub">' + _e(ngettext(
            "{n} puzzle ({found}): positions of your hands where the card played gave away at "
            "least {loss} of the win chance while one card led the next by {margin} or more, "
            "judged exactly over every layout of the hidden cards the seat could not tell "
            "apart. Click the card you would play.",
            "{n} puzzles ({found}): positions of your hands where the card played gave away at "
            "least {loss} of the win chance while one card led the next by {margin} or more, "
            "judged exactly over every layout of the hidden cards the seat could not tell "
            "apart. Click the card you would play.", len(puzzles)).format(
                n=len(puzzles), found=found, loss=percent(report.min_loss),
                margin=percent(report.margin))) + "</p>",
    ]
    parts += [_puzzle_section(i, p) for i, p in enumerate(puzzles, 1)]
    if not puzzles:
        parts.append("<p>" + _e(_("No puzzle: no card played lost that much where one card "
                                  "was clearly best.")) + "</p>")
    words = json.dumps({"show": _("show the answer"), "hide": _("hide the answer"),
                        "renuncio": _("{card} would be a renuncio here."),
                        "right": _("Right: {card}."),
                        "wrong": _("{card} is not the best card: try again, or show the "
                                   "answer.")}).replace("</", "<\\/")
    parts += ['<p class="foot">' + _e(_("Written by cuatrola puzzles --html. This page needs "
                                        "no network.")) + "</p></main>",
              f'<script type="application/json" id="puzzle-words">{words}</script>',
              f"<script>{_PUZZLE_SCRIPT}</script></body></html>"]
    return "\n".join(parts)
