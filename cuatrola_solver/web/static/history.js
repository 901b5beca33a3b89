// "Mis partidas": the figures of /api/history (the object of `cuatrola history --json`)
// drawn as tables, the accuracy per hand as a chart, each hand a link to its record and a
// button to its puzzles (/api/history/puzzles: the puzzles page, shown in a frame).
"use strict";
(function () {
  const t = window.t || ((s, args) => s.replace(/\{(\w+)\}/g, (m, k) => (args && k in args ? args[k] : m)));
  const $ = (id) => document.getElementById(id);
  const pct = (x) => (x === null || x === undefined ? "-" : Math.round(100 * x) + "%");

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c instanceof Node ? c : String(c));
    return e;
  }

  function rate(r) {
    if (!r || !r.of) return t("none");
    return t("{count} of {of}, {rate} (95%: {low}-{high})",
             {count: r.count, of: r.of, rate: pct(r.rate), low: pct(r.low), high: pct(r.high)});
  }

  function table(headers, rows) {
    const head = el("tr", {}, ...headers.map((h) => el("th", {}, h)));
    // in a box that scrolls sideways when the table is wider than a phone, not the page
    return el("div", {class: "history-table-box", tabindex: "0"},
              el("table", {class: "history-table"}, el("thead", {}, head),
                 el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c)))))));
  }

  function chart(trend) {
    // accuracy per hand, oldest first: a line with a dot per hand, 0 to 100%
    const ns = "http://www.w3.org/2000/svg";
    const w = 600, h = 160, pad = 24;
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("Accuracy per hand, oldest first"));
    svg.classList.add("history-chart");
    const points = trend.map((p, i) => [i, p.accuracy]).filter((p) => p[1] !== null);
    const x = (i) => pad + (trend.length > 1 ? i * (w - 2 * pad) / (trend.length - 1) : (w - 2 * pad) / 2);
    const y = (a) => h - pad - a * (h - 2 * pad) / 100;
    for (const a of [0, 50, 100]) {
      const line = document.createElementNS(ns, "line");
      Object.entries({x1: pad, x2: w - pad, y1: y(a), y2: y(a), stroke: "#ccc"})
        .forEach(([k, v]) => line.setAttribute(k, v));
      const label = document.createElementNS(ns, "text");
      Object.entries({x: 0, y: y(a) + 4, "font-size": 10}).forEach(([k, v]) => label.setAttribute(k, v));
      label.textContent = a + "%";
      svg.append(line, label);
    }
    if (points.length > 1) {
      const path = document.createElementNS(ns, "polyline");
      path.setAttribute("points", points.map(([i, a]) => `${x(i)},${y(a)}`).join(" "));
      Object.entries({fill: "none", stroke: "#24452f", "stroke-width": 2})
        .forEach(([k, v]) => path.setAttribute(k, v));
      svg.append(path);
    }
    for (const [i, a] of points) {
      const dot = document.createElementNS(ns, "circle");
      Object.entries({cx: x(i), cy: y(a), r: 4, fill: "#24452f"}).forEach(([k, v]) => dot.setAttribute(k, v));
      const title = document.createElementNS(ns, "title");
      title.textContent = `${trend[i].played} ${trend[i].source}: ${Math.round(a)}%`;
      dot.append(title);
      dot.addEventListener("click", () => showHand(trend[i].hand));
      svg.append(dot);
    }
    return svg;
  }

  function handLink(h, text) {
    const a = el("a", {href: "#hand-" + h.hand}, text);
    a.addEventListener("click", (ev) => { ev.preventDefault(); showHand(h.hand); });
    return a;
  }

  function puzzlesButton(h) {
    const name = `${h.played} ${h.source}`;
    const title = t("Puzzles of the hand {name}", {name: name});
    const b = el("button", {type: "button", class: "history-puzzles", "data-hand": h.hand,
                            "aria-label": title}, t("Puzzles"));
    b.addEventListener("click", () => showPuzzles(h.hand, title, b));
    return b;
  }

  const SITUATIONS = {opening_lead: t("opening lead"), leading: t("leading"), following: t("following"),
                      trumping: t("trumping"), discarding: t("discarding"), last_two_bazas: t("last two bazas")};
  const KINDS = {passed: t("passed where a bid was advised"), bid_over_paso: t("bid where paso was advised"),
                 bid_lower: t("bid lower than advised"), bid_higher: t("bid higher than advised")};

  // the bids against the advice, the cards and the accuracy per hand: figures of the analysis
  function advised(box, p) {
    box.append(el("h3", {}, t("Bids against the advisor")));
    box.append(el("p", {}, t("{against} of the calls differed from the advice; expected match points lost {ev} ({per} a hand).",
                             {against: rate(p.against_advice), ev: p.ev_lost_bidding.toFixed(2),
                              per: p.ev_lost_bidding_per_hand === null ? "-" : p.ev_lost_bidding_per_hand.toFixed(2)})));
    if (p.bid_kinds.length) {
      box.append(table([t("how"), t("calls"), t("EV lost")],
                       p.bid_kinds.map((k) => [KINDS[k.kind] || k.kind, k.count, k.ev_lost.toFixed(2)])));
    }
    box.append(el("h3", {}, t("Cards")));
    box.append(el("p", {}, t("Accuracy {acc} of the choices; ?! {i}, ? {m}, ?? {b}; win chance lost {w} in all; cantes not sung {k}.",
                             {acc: rate(p.accuracy), i: p.mistakes["?!"], m: p.mistakes["?"], b: p.mistakes["??"],
                              w: p.win_chance_lost.toFixed(2), k: p.cantes_not_sung})));
    const situations = p.situations.filter((s) => s.choices);
    if (situations.length) {
      box.append(table([t("situation"), t("choices"), "?!", "?", "??", t("labelled")],
                       situations.map((s) => [SITUATIONS[s.situation] || s.situation, s.choices,
                         s.mistakes["?!"], s.mistakes["?"], s.mistakes["??"], rate(s.labelled)])));
    }
    if (p.trend.length) {
      box.append(el("h3", {}, t("Accuracy per hand")), chart(p.trend));
      const worst = p.trend.filter((h) => h.win_chance_lost > 0)
        .sort((a, b) => b.win_chance_lost - a.win_chance_lost || a.hand - b.hand).slice(0, 5);
      if (worst.length) {
        box.append(el("p", {}, t("Hands to look at (most win chance lost):")));
        box.append(el("ul", {}, ...worst.map((h) => el("li", {}, handLink(h, `${h.played} ${h.source}`), " ", pct(h.win_chance_lost), " ", puzzlesButton(h)))));
      }
    }
  }

  function player(p) {
    const box = el("section", {class: "history-player"});
    box.append(el("h2", {}, t("{name}: {n} hands ({a} analysed)", {name: p.name, n: p.hands, a: p.analysed})));
    box.append(el("h3", {}, t("Results")));
    box.append(el("p", {}, t("Hands won: {won}. Matches finished {m}, won {mw}. Match points scored {pw}, conceded {pl}.",
                             {won: rate(p.won), m: p.matches, mw: p.matches_won.count, pw: p.points_won, pl: p.points_lost})));
    box.append(table([t("rules / seat"), t("hands"), t("won"), t("points scored"), t("conceded")],
                     p.by_rules.map((s) => [t("rules {preset}", {preset: s.key}), s.hands, s.won.count, s.points_won, s.points_lost])
                       .concat(p.by_seat.map((s) => [t("seat {seat}", {seat: s.key}), s.hands, s.won.count, s.points_won, s.points_lost]))));
    if (!p.analysed) {
      // no analysis yet: the bids and the cards are not known (not "none differed")
      box.append(el("p", {}, t("The bids against the advice and the cards come with the analysis: none of these hands is analysed yet (cuatrola history analyze).")));
    } else {
      advised(box, p);
    }
    box.append(el("h3", {}, t("Renuncios")));
    box.append(el("p", {}, t("{n} renuncios, in {hands} hands; match points given away: {cost}.",
                             {n: p.renuncios, hands: rate(p.renuncio_hands), cost: p.renuncio_cost})));
    if (p.obligations.length) {
      box.append(table([t("obligation"), t("renuncios"), t("match points")],
                       p.obligations.map((o) => [o.obligation.replace(/_/g, " "), o.count, o.cost])));
    }
    return box;
  }

  async function getJSON(url) {
    const r = await fetch(url);
    const d = await r.json();
    if (!r.ok) throw new Error(d.error || r.statusText);
    return d;
  }

  async function showHand(id) {
    try {
      const d = await getJSON("/api/history/hand?id=" + encodeURIComponent(id));
      $("history-hand-title").textContent = t("Hand {id}: {source} ({played})", {id: d.id, source: d.source, played: d.played});
      $("history-hand-record").textContent = d.record;
      $("history-hand").hidden = false;
      $("history-hand").scrollIntoView();
    } catch (e) {
      $("history-error").textContent = e.message;
    }
  }

  // the hand's puzzles: their page in the frame, or why there is none
  async function showPuzzles(id, title, button) {
    const box = $("history-puzzles"), frame = $("history-puzzles-page"), note = $("history-puzzles-note");
    button.disabled = true;
    $("history-puzzles-title").textContent = title;
    note.textContent = t("Looking for puzzles…");
    frame.hidden = true;
    box.hidden = false;
    try {
      const d = await getJSON("/api/history/puzzles?id=" + encodeURIComponent(id));
      if (d.count) {
        note.textContent = "";
        frame.style.height = "";
        frame.srcdoc = d.html;
        frame.hidden = false;
      } else {
        note.textContent = t("No puzzle in this hand.");
      }
    } catch (e) {
      note.textContent = e.message;
    } finally {
      button.disabled = false;
    }
    box.scrollIntoView();
  }

  // the puzzles page tells its height: the frame takes it, one page scrolls
  followFrameHeights(["history-puzzles-page"]);

  async function load(first) {
    const q = new URLSearchParams();
    const who = $("history-player").value, rules = $("history-rules").value.trim(), since = $("history-since").value;
    if (who) q.set("player", who);
    if (rules) q.set("rules", rules);
    if (since) q.set("since", since);
    $("history-error").textContent = "";
    try {
      const d = await getJSON("/api/history?" + q);
      if (first) {
        for (const p of d.players) $("history-player").append(el("option", {value: p.name}, p.name));
      }
      $("history-summary").textContent = t("{n} hands in {db}, {a} analysed, {w} waiting for analysis (cuatrola history analyze).",
                                            {n: d.hands, db: d.database, a: d.analysed, w: d.waiting});
      $("history-players").replaceChildren(...d.players.map(player));
      if (!d.players.length) {
        $("history-players").append(el("p", {}, t("No named player yet: play at the table, or import records with Player tags (cuatrola history import).")));
      }
    } catch (e) {
      $("history-error").textContent = e.message;
    }
  }

  $("history-filters").addEventListener("submit", (ev) => { ev.preventDefault(); load(false); });
  load(true);
})();
