/* The page of `cuatrola serve`: every answer comes from the server (the library); this
   script only asks and draws.  It sets data-ready="1" on <body> once the page id is had. */
(function () {
  "use strict";
  var PAGE = null, RULES = null, CHARTS = null;
  var $ = function (id) { return document.getElementById(id); };
  var CARDS = [];
  "oceb".split("").forEach(function (s) { "A3RCS".split("").forEach(function (r) { CARDS.push(r + s); }); });

  function pct(p) { return p == null ? "-" : (100 * p).toFixed(1) + "%"; }
  function pct0(p) { return p == null ? "-" : Math.round(100 * p) + "%"; }
  function signed(x) { return x == null ? "-" : (x >= 0 ? "+" : "") + x.toFixed(2); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

  /* --- talking to the server --------------------------------------------------------- */
  function post(path, body) {
    body = Object.assign({page: PAGE, version: CuatrolaSession.version}, body || {});
    $("page-error").textContent = "";
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (d) { d._status = r.status; return d; }); })
      .then(function (d) {
        $("progress").hidden = true;     // answered: nothing of this page runs now
        if (d._status === 410) $("page-error").textContent = d.error;
        else if (d._status === 409) $("page-error").textContent = d.error;
        return d;
      });
  }
  function get(path) { return fetch(path).then(function (r) { return r.json(); }); }

  function listen() {
    var es = new EventSource("/api/events?page=" + encodeURIComponent(PAGE));
    es.onmessage = function (m) {
      var s = JSON.parse(m.data);
      $("progress").hidden = !s.running;
      if (s.running) {
        $("progress-what").textContent = s.running + "…";
        var bar = $("progress-bar");
        if (s.total) { bar.max = s.total; bar.value = s.done; } else { bar.removeAttribute("value"); }
      }
    };
  }
  $("cancel").addEventListener("click", function () { post("/api/cancel"); });

  /* --- tabs -------------------------------------------------------------------------- */
  function show(tab) {
    document.querySelectorAll("nav button").forEach(function (b) {
      b.classList.toggle("on", b.dataset.tab === tab);
    });
    document.querySelectorAll(".tab").forEach(function (s) { s.hidden = s.id !== "tab-" + tab; });
    if (tab === "analyse") loadRecords();
    if (tab === "charts") loadCharts();
  }
  document.querySelectorAll("nav button").forEach(function (b) {
    b.addEventListener("click", function () { show(b.dataset.tab); });
  });

  /* --- play -------------------------------------------------------------------------- */
  var state = null, steps = 0;
  function sayEvent(e) {
    if (e.kind === "call") return e.who + (e.who === "you" ? " call " : " calls ") + e.call;
    if (e.kind === "cante") return e.who + (e.who === "you" ? " sing " : " sings ") +
      (e.points === 40 ? "las cuarenta" : "las veinte") + " in " + e.name + ": +" + e.points;
    if (e.kind === "card") return e.who + (e.who === "you" ? " play " : " plays ") + e.card +
      (e.forced ? " (forced)" : "");
    if (e.kind === "contract") return "contract: " + e.contract +
      (e.declarer.length ? " by " + e.declarer.join(" against ") : "");
    if (e.kind === "trick") return "trick " + e.trick + " to " + e.who +
      (e.yours ? " (your pair)" : " (the other pair)");
    return JSON.stringify(e);
  }
  function who(seat) {
    if (seat === state.seat) return "you";
    return ((seat - state.seat + 4) % 4 === 2 ? "partner " : "") + "seat " + seat;
  }
  function drawPlay(s) {
    state = s;
    CuatrolaSession.drawn(s);
    $("play-intro").hidden = true;
    $("play-table").hidden = false;
    var m = s.match;
    var score = $("play-score");
    clear(score);
    score.appendChild(document.createTextNode("Match to " + m.target + ": "));
    score.appendChild(el("span", {"class": "you"}, "you " + m.you));
    score.appendChild(document.createTextNode(" – them " + m.them + " · hand " + s.hand +
      " · you are seat " + s.seat + (s.seat === 1 ? " (mano)" : s.seat === 4 ? " (dealer)" : "") +
      ", your partner seat " + ((s.seat + 1) % 4 + 1)));
    clear($("play-muestra")).appendChild(cuatrolaCard(s.muestra, {small: true, shown: true}));
    $("play-trump").textContent = "triunfo " + s.trump;
    $("play-contract").textContent = s.contract ? "contract: " + s.contract : "the calls";
    var trick = clear($("play-trick"));
    var shown = s.current && s.current.length ? s.current :
      (s.tricks && s.tricks.length ? s.tricks[s.tricks.length - 1].cards : []);
    shown.forEach(function (p) {
      var d = el("div", {"class": "played"});
      d.appendChild(cuatrolaCard(p.card, {small: true, shown: true}));
      d.appendChild(el("span", {}, who(p.seat)));
      trick.appendChild(d);
    });
    if (!(s.current && s.current.length) && s.tricks && s.tricks.length) {
      var last = s.tricks[s.tricks.length - 1];
      trick.appendChild(el("p", {"class": "won"}, "trick " + s.tricks.length + " to " + who(last.winner)));
    }
    $("play-counts").textContent = s.bazas ? "bazas: you " + s.bazas.you + " – them " + s.bazas.them +
      " · points: you " + s.points.you + " – them " + s.points.them : "";
    var legal = s.turn && s.turn.kind === "card" ? s.turn.legal : [];
    var hand = clear($("play-hand"));
    s.cards.forEach(function (c) {
      var b = cuatrolaCard(c, {disabled: legal.indexOf(c) < 0});
      if (legal.indexOf(c) >= 0) b.classList.add("legal");
      b.addEventListener("click", function () { answer(c); });
      hand.appendChild(b);
    });
    var choices = clear($("play-choices"));
    var prompt = "";
    if (s.turn && s.turn.kind === "call") {
      prompt = "Your call:";
      s.turn.legal.forEach(function (c) {
        var b = el("button", {type: "button", "data-call": c}, c);
        b.addEventListener("click", function () { answer(c); });
        choices.appendChild(b);
      });
    } else if (s.turn && s.turn.kind === "cante") {
      prompt = "You may sing:";
      s.turn.legal.forEach(function (o) {
        var b = el("button", {type: "button", "data-cante": o.suit},
                   "sing " + o.name + " (+" + o.points + ")");
        b.addEventListener("click", function () { answer(o.suit); });
        choices.appendChild(b);
      });
      var no = el("button", {type: "button", "data-cante": "no"}, "keep quiet");
      no.addEventListener("click", function () { answer("no"); });
      choices.appendChild(no);
    } else if (s.turn && s.turn.kind === "card") {
      prompt = s.turn.forced ? "Your card: forced, " + s.turn.legal[0] + " (click it)" :
        "Your card: click one of the bright ones";
    }
    $("play-prompt").textContent = prompt;
    $("play-hint").disabled = !s.turn;
    $("play-refused").textContent = s.refused || "";
    var log = clear($("play-log"));
    s.log.forEach(function (e) {
      log.appendChild(el("li", {"class": e.kind === "trick" ? "trick-end" : ""}, sayEvent(e)));
    });
    var res = $("play-result");
    res.hidden = !s.result;
    clear(res);
    if (s.result) {
      var r = s.result;
      res.appendChild(el("h3", {}, "Hand " + s.hand + " over: " + (r.yours ? "your pair" : "the other pair") +
        " scores " + r.game_points));
      var mine = s.side, theirs = mine === "A" ? "B" : "A";
      res.appendChild(el("p", {}, "points: you " + r.points[mine] + " – them " + r.points[theirs] +
        "; bazas: you " + r.tricks[mine] + " – them " + r.tricks[theirs] +
        (r.breakdown ? "; cards " + r.breakdown.cards[mine] + "–" + r.breakdown.cards[theirs] +
         ", monte " + r.breakdown.monte[mine] + "–" + r.breakdown.monte[theirs] +
         ", cantes " + r.breakdown.cante_points[mine] + "–" + r.breakdown.cante_points[theirs] : "")));
      var name = s.records[s.records.length - 1];
      res.appendChild(el("p", {}, "saved as " + name));
      if (m.over) res.appendChild(el("p", {"class": "score"}, "Match over: " +
        (m.you > m.them ? "your pair wins" : "the other pair wins") + ", you " + m.you + " – them " + m.them));
      else {
        var next = el("button", {type: "button", id: "play-next", "class": "main"}, "Next hand");
        next.addEventListener("click", function () { post("/api/play/next").then(played); });
        res.appendChild(next);
      }
      var an = el("button", {type: "button", id: "play-analyse"}, "Analyse this hand");
      an.addEventListener("click", function () { show("analyse"); analyse({name: name}); });
      res.appendChild(an);
    }
    $("play-table").dataset.step = ++steps;     // drawn: the tests wait for it
  }
  function played(d) {
    if (d.state) drawPlay(d.state);       // refused on an old state: the state as it is now
    if (d.error || d.cancelled) { if (d.error) $("play-refused").textContent = d.error; return; }
    $("play-hint-out").textContent = "";
    drawPlay(d);
  }
  function answer(choice) { post("/api/play/answer", {choice: choice}).then(played); }
  $("play-new").addEventListener("click", function () {
    post("/api/play/new", {seat: Number($("play-seat").value)}).then(played);
  });
  $("play-takeback").addEventListener("click", function () {
    post("/api/play/takeback").then(played);
  });
  $("play-hint").addEventListener("click", function () {
    post("/api/play/hint").then(function (d) {
      var out = $("play-hint-out");
      if (d.cancelled) { out.textContent = "hint cancelled"; return; }
      if (d.error) { out.textContent = d.error; return; }
      var h = d.hint;
      var how = h.exact ? (h.deals === 1 ? "exact: the one layout left" : "exact: all " +
        h.deals.toLocaleString("en") + " layouts") : "sampled: " + h.deals.toLocaleString("en") + " deals";
      var text;
      if (h.kind === "call") text = "call " + h.advice + " — " + h.options.map(function (o) {
        return o.bid + " " + pct0(o.p) + " (" + signed(o.ev) + ")"; }).join(", ");
      else if (h.kind === "card") text = "play " + h.best + " — " + h.cards.map(function (c) {
        return c.card + " " + pct0(c.p); }).join(", ");
      else text = (h.best === "no" ? "keep quiet" : "sing " + h.best) + " — " + h.options.map(function (o) {
        return (o.suit === "no" ? "quiet" : o.suit) + " " + pct0(o.p); }).join(", ");
      out.textContent = "Hint (" + how + "): " + text;
      document.querySelectorAll("#play-hand .card").forEach(function (b) {
        b.classList.toggle("best", h.kind === "card" && b.dataset.card === h.best);
      });
    });
  });

  /* --- advise ------------------------------------------------------------------------ */
  var picked = [], muestra = null;
  function drawDeck() {
    var deck = clear($("deck"));
    CARDS.forEach(function (c) {
      var b = cuatrolaCard(c, {small: true});
      if (picked.indexOf(c) >= 0) b.classList.add("picked");
      if (muestra === c) b.classList.add("muestra-pick");
      b.addEventListener("click", function () { pick(c); });
      deck.appendChild(b);
    });
    $("adv-hand").value = picked.join(" ");
    $("adv-muestra").value = muestra || "";
  }
  function pick(c) {
    var mode = document.querySelector("input[name=pick]:checked").value;
    if (mode === "muestra") muestra = muestra === c ? null : c;
    else if (picked.indexOf(c) >= 0) picked.splice(picked.indexOf(c), 1);
    else if (picked.length < 5) picked.push(c);
    if (mode === "hand" && picked.length === 5 && !muestra)
      document.querySelector("input[name=pick][value=muestra]").checked = true;
    drawDeck();
  }
  function fromText() {
    picked = $("adv-hand").value.trim().split(/[\s,]+/).filter(function (t) { return t; });
    muestra = $("adv-muestra").value.trim() || null;
    drawDeck();
  }
  $("adv-hand").addEventListener("change", fromText);
  $("adv-muestra").addEventListener("change", fromText);
  $("adv-clear").addEventListener("click", function () {
    picked = []; muestra = null;
    document.querySelector("input[name=pick][value=hand]").checked = true;
    drawDeck();
  });
  var BARS = "▁▂▃▄▅▆▇█";
  function histogram(ps) {
    var top = Math.max.apply(null, ps) || 1;
    return ps.map(function (p) { return p === 0 ? "·" : BARS[Math.min(7, Math.floor(p / top * 8))]; }).join("");
  }
  function contractText(o, seat) {
    if (o.contract === "paso") return "paso (all four play)";
    if (Array.isArray(o.declarer)) return "contrasolo " + o.declarer[0] + " v " + o.declarer[1];
    var d = o.declarer;
    return o.contract + " by " + d + " (" + (d === seat ? "you" : (d - seat + 4) % 4 === 2 ? "partner" : "opponent") + ")";
  }
  function drawAdvice(d) {
    var a = d.advice, out = clear($("adv-out"));
    out.dataset.json = JSON.stringify(a);
    var played = a.model === "played";
    var best = a.options.filter(function (o) { return o.bid === a.advice; })[0];
    var p = played ? best.p_played : best.p_win, ev = played ? best.ev_played : best.ev;
    out.appendChild(el("h3", {id: "adv-call"}, "Call " + a.advice + ": " + pct0(p) +
      (played ? " at the table (" + pct0(best.p_win) + " double dummy)" : "") + ", " + signed(ev) +
      " points per hand on average"));
    out.appendChild(el("p", {}, "seat " + a.seat + ", " + a.hand + ", muestra " + a.muestra + ", rules " +
      a.rules + "; " + (a.exact ? "all " + a.deals.toLocaleString("en") + " consistent deals" :
      a.deals.toLocaleString("en") + " sampled deals, seed " + a.seed) +
      (a.effective_deals != null ? ", weighted by the calls (worth " + Math.round(a.effective_deals).toLocaleString("en") + " deals)" : "")));
    var head = ["call", "contract"].concat(played ? ["P(win) played", "EV played"] : [])
      .concat([played ? "P(win) dd" : "P(win)", "95% interval", played ? "EV dd" : "EV"])
      .concat(a.score ? ["P(match)"] : []).concat(["tricks 0-5"]);
    var t = el("table", {id: "adv-table"}), tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(tr);
    a.options.forEach(function (o) {
      var row = el("tr", {"data-bid": o.bid, "class": o.bid === a.advice ? "advice" : ""});
      var cells = [o.bid];
      if (!o.allowed) cells = cells.concat(["not allowed: " + o.reason]);
      else {
        cells.push(contractText(o, a.seat));
        if (played) cells.push(pct(o.p_played), signed(o.ev_played));
        cells.push(pct(o.p_win), a.exact ? "exact" : (100 * o.ci95[0]).toFixed(1) + "-" +
                   (100 * o.ci95[1]).toFixed(1) + "%", signed(o.ev));
        if (a.score) cells.push(pct(o.p_match));
        cells.push(histogram(o.tricks) + " (" + o.side + ")");
      }
      cells.forEach(function (c) { row.appendChild(el("td", {}, c)); });
      t.appendChild(row);
    });
    var wrap = el("div", {"class": "tablewrap"});
    wrap.appendChild(t);
    out.appendChild(wrap);
    if (a.advice_dd && a.advice_dd !== a.advice)
      out.appendChild(el("p", {}, "Double dummy (every card seen) the advice would be " + a.advice_dd +
        "; at the table, where each player sees only his own cards, " + a.advice + " does better."));
    if (d.chart) out.appendChild(el("p", {id: "adv-chart"}, "Bidding chart: the hand falls in the cell " +
      d.chart["class"] + ", where the chart calls " + d.chart.call + " (" + pct0(d.chart.p) + ", " +
      signed(d.chart.ev) + ", over " + d.chart.hands.toLocaleString("en") + " hands)."));
  }
  $("adv-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    document.querySelectorAll("#adv-form .error").forEach(function (e) { e.textContent = ""; });
    var body = {hand: $("adv-hand").value, muestra: $("adv-muestra").value, seat: $("adv-seat").value,
                auction: $("adv-auction").value, score: $("adv-score").value, seed: $("adv-seed").value,
                exact: $("adv-exact").checked};
    post("/api/advise", body).then(function (d) {
      if (d.errors) {
        Object.keys(d.errors).forEach(function (k) { $("err-" + k).textContent = d.errors[k]; });
        return;
      }
      if (d.cancelled) { clear($("adv-out")).appendChild(el("p", {}, "cancelled")); return; }
      if (d.error) { $("err-hand").textContent = d.error; return; }
      drawAdvice(d);
    });
  });

  /* --- analyse and puzzles ------------------------------------------------------------ */
  function loadRecords() {
    get("/api/records").then(function (d) {
      var sel = clear($("an-record"));
      d.records.forEach(function (n) { sel.appendChild(el("option", {value: n}, n)); });
      if (!d.records.length) sel.appendChild(el("option", {value: ""}, "(none yet: play a hand)"));
    });
  }
  function analyse(body) {
    $("err-record").textContent = "";
    post("/api/analyze", body).then(function (d) {
      if (d.error) { $("err-record").textContent = d.error; return; }
      if (d.cancelled) { $("err-record").textContent = "cancelled"; return; }
      var f = $("an-report");
      f.hidden = false;
      f.srcdoc = d.html;
    });
  }
  $("an-go").addEventListener("click", function () { analyse({name: $("an-record").value}); });
  $("an-file").addEventListener("change", function () {
    var file = $("an-file").files[0];
    if (!file) return;
    if (file.size > 64 * 1024) { $("err-record").textContent = "record " + file.name + " is too big: more than 64 KB"; return; }
    file.text().then(function (text) { analyse({record: text, filename: file.name}); });
  });
  $("pz-go").addEventListener("click", function () {
    $("err-puzzles").textContent = "";
    post("/api/puzzles").then(function (d) {
      if (d.error) { $("err-puzzles").textContent = d.error; return; }
      if (d.cancelled) { $("err-puzzles").textContent = "cancelled"; return; }
      $("pz-note").textContent = d.count + " puzzle" + (d.count === 1 ? "" : "s") + " in the " +
        d.records + " newest saved games.";
      var f = $("pz-page");
      f.hidden = false;
      f.srcdoc = d.html;
    });
  });

  /* --- charts ------------------------------------------------------------------------ */
  function situation(c) {
    var before = !c.auction.length ? "first to speak" : c.auction.every(function (x) { return x === "paso"; }) ?
      "all passed before" : "after " + c.auction.join(" ");
    return "seat " + c.seat + ", " + before + (c.score ? ", score " + c.score.join("-") : "");
  }
  function drawChart() {
    var c = CHARTS.charts[Number($("ch-which").value)], out = clear($("ch-out"));
    var played = c.value === "ev_played";
    $("ch-note").textContent = situation(c) + ": the call of best " + (played ? "played EV" : c.value) +
      " per class of hand, over " + c.hands.toLocaleString("en") + " hands (rules " + CHARTS.rules + ").";
    var t = el("table", {id: "ch-table"}), tr = el("tr");
    ["cell", "hands", "call", played ? "P(win) played" : "P(win)", played ? "EV played" : "EV"]
      .forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(tr);
    c.cells.forEach(function (cell) {
      var s = cell.calls[cell.call], row = el("tr");
      [cell["class"], cell.hands.toLocaleString("en"), cell.call,
       pct0(s.p_played != null ? s.p_played : s.p_win), signed(s.ev_played != null ? s.ev_played : s.ev)]
        .forEach(function (x, i) { row.appendChild(el("td", i === 2 ? {"class": "call-" + cell.call} : {}, x)); });
      t.appendChild(row);
    });
    var wrap = el("div", {"class": "tablewrap"});
    wrap.appendChild(t);
    out.appendChild(wrap);
  }
  function loadCharts() {
    if (CHARTS) return;
    get("/api/charts").then(function (d) {
      if (d.error) { $("ch-note").textContent = d.error; return; }
      CHARTS = d;
      var sel = clear($("ch-which"));
      d.charts.forEach(function (c, i) { sel.appendChild(el("option", {value: i}, situation(c))); });
      sel.addEventListener("change", drawChart);
      drawChart();
    });
  }

  /* --- start ------------------------------------------------------------------------- */
  drawDeck();
  post("/api/page", {page: CuatrolaSession.saved()}).then(function (d) {
    PAGE = d.page; RULES = d.rules;
    CuatrolaSession.keep(PAGE);
    if (d.game) played(d.game);
    document.title = "cuatrola (" + RULES + ")";
    listen();
    document.body.dataset.ready = "1";
  });
})();
