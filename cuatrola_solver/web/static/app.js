/* The page of `cuatrola serve`: every answer comes from the server (the library); this
   script only asks and draws.  It sets data-ready="1" on <body> once the page id is had. */
(function () {
  "use strict";
  var PAGE = null, RULES = null, CHARTS = null;
  var $ = function (id) { return document.getElementById(id); };
  var t = window.t, tn = window.tn;
  /* fmt(cond ? t("...") : t("..."), {n: 3}): a chosen message's named placeholders filled */
  function fmt(s, v) { return s.replace(/\{(\w+)\}/g, function (m, k) { return k in v ? String(v[k]) : m; }); }
  var CARDS = [];
  "oceb".split("").forEach(function (s) { "A3RCS".split("").forEach(function (r) { CARDS.push(r + s); }); });

  /* numbers written the page's language's way (i18n.js): 26.0% / +0.47, 26,0 % / +0,47 */
  function pct(p) { return p == null ? "-" : formatPercent(p, 1); }
  function pct0(p) { return p == null ? "-" : formatPercent(p, 0); }
  function signed(x) { return x == null ? "-" : (x >= 0 ? "+" : "") + formatNumber(x, 2); }
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
  /* The table as it is played: four seats around the felt, you at the bottom, your partner
     across, the next to play on your right.  Each seat shows its roles, the cards it still
     holds (backs), its call and its bazas; the card it played lies in front of it.  When
     the bots have played, their cards come one by one, and a finished trick stays on the
     felt (PAUSE ms, or until a tap) before it goes to its winner; the last finished trick
     stays until the next lead, and "Last trick" shows it again. */
  var state = null, steps = 0, shownLog = 0, anim = null, lastShown = false, movedFrom = null;
  var PAUSE = 1400, CARD_PAUSE = 350;
  var WHERE = ["you", "right", "partner", "left"];
  function where(seat) { return WHERE[(seat - state.seat + 4) % 4]; }
  /* the seat to play after ``seat``: the next one that does not sit this contract out */
  function nextSeat(seat) {
    for (var k = 1; k < 4; k++) {
      var n = (seat + k - 1) % 4 + 1;
      if (state.seats[n - 1].roles.indexOf("out") < 0) return n;
    }
    return seat;
  }
  function seatName(seat) {
    if (seat === state.seat) return t("you");
    return fmt(where(seat) === "partner" ? t("partner, seat {seat}") : t("seat {seat}"), {seat: seat});
  }
  /* the declarer, or the two of a contrasolo: "seat 2 against seat 4" */
  function declarers(names) {
    return names.length === 2 ? t("{a} against {b}", {a: names[0], b: names[1]}) : names.join(", ");
  }
  function roleName(r) {
    return {mano: t("mano"), dealer: t("dealer"), declarer: t("declarer"), out: t("sits out")}[r] || r;
  }
  function sayEvent(e) {
    var you = e.seat === state.seat, w = seatName(e.seat);
    if (e.kind === "call") return fmt(you ? t("you call {call}") : t("{who} calls {call}"), {who: w, call: e.call});
    if (e.kind === "cante") return fmt(e.points === 40 ?
      (you ? t("you sing las cuarenta in {suit}: +{points}") : t("{who} sings las cuarenta in {suit}: +{points}")) :
      (you ? t("you sing las veinte in {suit}: +{points}") : t("{who} sings las veinte in {suit}: +{points}")),
      {who: w, suit: e.name, points: e.points});
    if (e.kind === "card") return fmt(e.forced ? (you ? t("you play {card} (forced)") : t("{who} plays {card} (forced)")) :
      (you ? t("you play {card}") : t("{who} plays {card}")), {who: w, card: e.card});
    if (e.kind === "contract") return e.declarer_seats && e.declarer_seats.length ?
      t("contract: {contract} by {who}", {contract: e.contract, who: declarers((e.declarer_seats || []).map(seatName))}) :
      t("contract: {contract}", {contract: e.contract});
    if (e.kind === "trick") return fmt(e.yours ? t("trick {n} to {who} (your pair)") : t("trick {n} to {who} (the other pair)"),
      {n: e.trick, who: w});
    return JSON.stringify(e);
  }

  /* the felt at one moment: {cards: {seat: code}, caption, winner, turn, done} */
  function finalFelt(s) {
    var f = {cards: {}, caption: "", winner: null, turn: s.to_play, done: false};
    if (!s.tricks) { f.caption = t("the calls"); return f; }
    if (s.current && s.current.length) {
      s.current.forEach(function (p) { f.cards[p.seat] = p.card; });
      f.caption = t("trick {n}", {n: s.tricks.length + 1});
    } else if (s.tricks.length) {
      var last = s.tricks[s.tricks.length - 1];
      last.cards.forEach(function (p) { f.cards[p.seat] = p.card; });
      f.winner = last.winner; f.done = true;
      f.caption = t("trick {n} to {who}", {n: s.tricks.length, who: seatName(last.winner)});
    } else f.caption = t("trick {n}", {n: 1});
    return f;
  }
  function drawFelt(f) {
    document.querySelectorAll("#play-trick .slot").forEach(function (slot) {
      clear(slot);
      slot.classList.remove("won", "sweep");
    });
    Object.keys(f.cards).forEach(function (seat) {
      var slot = document.querySelector("#play-trick .slot.at-" + where(Number(seat)));
      var card = cuatrolaFace(f.cards[seat]);
      card.title = t("{who}: {card}", {who: seatName(Number(seat)), card: f.cards[seat]});
      slot.appendChild(card);
      if (f.done && Number(seat) === f.winner) slot.classList.add("won");
      if (f.sweep) slot.classList.add("sweep", "to-" + where(f.winner));
    });
    $("play-caption").textContent = f.caption;
    $("felt").dataset.done = f.done ? "1" : "";
    state.seats.forEach(function (p) {
      $("seat-" + p.where).classList.toggle("turn", p.seat === f.turn);
      var mark = $("seat-" + p.where).querySelector(".to-play");
      if (mark) mark.hidden = p.seat !== f.turn;
    });
  }
  function drawSeats(s) {
    s.seats.forEach(function (p) {
      var box = clear($("seat-" + p.where));
      box.classList.toggle("out", p.roles.indexOf("out") >= 0);
      var head = el("div", {"class": "who"});
      head.appendChild(el("span", {"class": "name"}, p.seat === s.seat ? t("you, seat {seat}", {seat: p.seat}) :
        seatName(p.seat)));
      p.roles.forEach(function (r) { head.appendChild(el("span", {"class": "role role-" + r}, roleName(r))); });
      box.appendChild(head);
      var row = el("div", {"class": "holds"});
      if (p.seat !== s.seat) {
        var backs = el("span", {"class": "backs", role: "img",
          "aria-label": tn("{n} card", "{n} cards", p.held)});
        for (var i = 0; i < p.held; i++) backs.appendChild(cuatrolaFace(null, {small: true}));
        row.appendChild(backs);
      }
      if (p.roles.indexOf("dealer") >= 0) {
        var m = el("span", {"class": "muestra"});
        m.appendChild(cuatrolaFace(s.muestra, {small: true}));
        m.appendChild(el("span", {}, t("muestra: triunfo {suit}", {suit: s.trump})));
        row.appendChild(m);
      }
      box.appendChild(row);
      var notes = el("div", {"class": "notes"});
      if (p.call && !s.tricks) notes.appendChild(el("span", {"class": "call"}, p.call));
      if (p.bazas) notes.appendChild(el("span", {"class": "bazas"},
        tn("{n} baza", "{n} bazas", p.bazas)));
      var turn = el("span", {"class": "to-play"}, s.turn && s.turn.kind !== "card" ? t("to call") : t("to play"));
      turn.hidden = true;
      notes.appendChild(turn);
      box.appendChild(notes);
    });
  }
  function drawScore(s) {
    var m = s.match, score = clear($("play-score"));
    var line = el("p", {});
    line.appendChild(document.createTextNode(t("Match to {target}:", {target: m.target}) + " "));
    line.appendChild(el("span", {"class": "you"}, t("you {n}", {n: m.you})));
    line.appendChild(document.createTextNode(" – " + t("them {n}", {n: m.them}) + " · " +
      t("hand {n}", {n: s.hand})));
    score.appendChild(line);
    if (s.contract || s.bazas) {
      var decl = s.seats.filter(function (p) { return p.roles.indexOf("declarer") >= 0; })
        .map(function (p) { return seatName(p.seat); });
      score.appendChild(el("p", {}, (s.contract ? (decl.length ? fmt(t("{contract} by {who}"),
        {contract: s.contract, who: declarers(decl)}) : s.contract) + " · " : "") +
        (s.bazas ? fmt(t("bazas: you {you} – them {them} · points: you {pyou} – them {pthem}"),
          {you: s.bazas.you, them: s.bazas.them, pyou: s.points.you, pthem: s.points.them}) : "")));
    }
  }
  /* the cards come one by one, a finished trick pauses then goes to its winner */
  function stopAnim() {
    if (!anim) return;
    clearTimeout(anim.timer);
    anim = null;
    $("felt").classList.remove("moving");
    drawFelt(finalFelt(state));
  }
  function animate(events, start) {
    var frames = [], f = {cards: Object.assign({}, start.cards), caption: start.caption, turn: null, done: false};
    var fresh = start.done;          // the last trick still lies there: the next lead clears it
    var trickNo = state.tricks ? state.tricks.length - events.filter(function (e) { return e.kind === "trick"; }).length : 0;
    events.forEach(function (e) {
      if (e.kind === "card") {
        if (fresh) { f.cards = {}; fresh = false; }
        f.cards[e.seat] = e.card;
        f.turn = nextSeat(e.seat);
        f.caption = t("trick {n}", {n: trickNo + 1});
        frames.push({felt: Object.assign({}, f, {cards: Object.assign({}, f.cards)}), wait: e.seat === state.seat ? 0 : CARD_PAUSE});
      } else if (e.kind === "trick") {
        trickNo = e.trick;
        var done = {cards: Object.assign({}, f.cards), winner: e.seat, done: true, turn: null,
                    caption: t("trick {n} to {who}", {n: e.trick, who: seatName(e.seat)})};
        frames.push({felt: done, wait: PAUSE});
        frames.push({felt: Object.assign({}, done, {sweep: true}), wait: 300});
        f.cards = {}; fresh = false;
      }
    });
    if (!frames.length) { drawFelt(finalFelt(state)); return; }
    $("felt").classList.add("moving");
    anim = {timer: null};
    var i = 0;
    (function next() {
      if (!anim) return;
      if (i >= frames.length) { stopAnim(); return; }
      var fr = frames[i++];
      drawFelt(fr.felt);
      anim.timer = setTimeout(next, fr.wait);
    })();
  }
  $("felt").addEventListener("click", stopAnim);
  /* the arrow keys move between the cards you may play, and between the calls */
  ["play-hand", "play-choices"].forEach(function (id) {
    $(id).addEventListener("keydown", function (e) {
      if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
      var all = Array.prototype.slice.call($(id).querySelectorAll("button:not(:disabled)"));
      var i = all.indexOf(document.activeElement);
      if (i < 0 || !all.length) return;
      all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length].focus();
      e.preventDefault();
    });
  });
  document.addEventListener("keydown", function (e) { if (anim && e.key === "Escape") stopAnim(); });
  $("play-last").addEventListener("click", function () {
    var b = $("play-last");
    lastShown = b.getAttribute("aria-pressed") !== "true";
    b.setAttribute("aria-pressed", lastShown ? "true" : "false");
    stopAnim();
    if (!lastShown || !state.tricks || !state.tricks.length) { drawFelt(finalFelt(state)); return; }
    var last = state.tricks[state.tricks.length - 1], f = {cards: {}, winner: last.winner, done: true,
      turn: null, caption: t("last trick: trick {n} to {who}", {n: state.tricks.length, who: seatName(last.winner)})};
    last.cards.forEach(function (p) { f.cards[p.seat] = p.card; });
    drawFelt(f);
  });

  function focusedIn() {
    var a = document.activeElement;
    if (!a || !a.closest) return null;
    if (a.closest("#play-hand")) return {card: a.dataset.card};
    if (a.closest("#play-choices") || a.closest("#play-result") || a.id === "play-new") return {choice: true};
    return null;
  }
  function restoreFocus(had) {
    if (!had) return;
    var target = (had.card && document.querySelector("#play-hand .card[data-card='" + had.card + "']:not(:disabled)")) ||
      document.querySelector("#play-choices button") ||
      document.querySelector("#play-hand .card:not(:disabled)") ||
      document.querySelector("#play-result button");
    if (target) target.focus();
  }
  function drawPlay(s) {
    var had = focusedIn() || movedFrom;
    movedFrom = null;
    var prev = state, prevFelt = prev && prev.hand === s.hand && prev.seats ? finalFelt(prev) : null;
    stopAnim();
    state = s;
    CuatrolaSession.drawn(s);
    $("play-intro").hidden = true;
    $("play-table").hidden = false;
    drawScore(s);
    drawSeats(s);
    var legal = s.turn && s.turn.kind === "card" ? s.turn.legal : [];
    var hand = clear($("play-hand"));
    s.cards.forEach(function (c) {
      var b = cuatrolaCard(c);
      if (legal.indexOf(c) >= 0) b.classList.add("legal");
      else if (s.turn && s.turn.kind === "card") b.classList.add("illegal");
      b.disabled = legal.indexOf(c) < 0;
      if (s.turn && s.turn.kind === "card") b.setAttribute("aria-label", cuatrolaCardName(c) +
        (legal.indexOf(c) >= 0 ? "" : " (" + t("may not be played now") + ")"));
      b.addEventListener("click", function () { answer(c); });
      hand.appendChild(b);
    });
    var choices = clear($("play-choices"));
    var prompt = "";
    if (s.turn && s.turn.kind === "call") {
      prompt = t("Your call:");
      s.turn.legal.forEach(function (c) {
        var b = el("button", {type: "button", "data-call": c}, c);
        b.addEventListener("click", function () { answer(c); });
        choices.appendChild(b);
      });
    } else if (s.turn && s.turn.kind === "cante") {
      prompt = t("You may sing:");
      s.turn.legal.forEach(function (o) {
        var b = el("button", {type: "button", "data-cante": o.suit},
                   t("sing {suit} (+{points})", {suit: o.name, points: o.points}));
        b.addEventListener("click", function () { answer(o.suit); });
        choices.appendChild(b);
      });
      var no = el("button", {type: "button", "data-cante": "no"}, t("keep quiet"));
      no.addEventListener("click", function () { answer("no"); });
      choices.appendChild(no);
    } else if (s.turn && s.turn.kind === "card") {
      prompt = s.turn.forced ? t("Your card: forced, {card} (tap it)", {card: s.turn.legal[0]}) :
        t("Your card: tap one of the bright ones");
    }
    $("play-prompt").textContent = prompt;
    $("play-hint").disabled = !s.turn;
    $("play-last").disabled = !(s.tricks && s.tricks.length);
    $("play-last").setAttribute("aria-pressed", "false");
    lastShown = false;
    $("play-refused").textContent = s.refused || "";
    var log = $("play-log");
    if (!prev || prev.hand !== s.hand || s.log.length < log.children.length) clear(log);
    s.log.slice(log.children.length).forEach(function (e) {
      log.appendChild(el("li", {"class": e.kind === "trick" ? "trick-end" : ""}, sayEvent(e)));
    });
    log.scrollTop = log.scrollHeight;       // the newest line in view
    var res = $("play-result");
    res.hidden = !s.result;
    clear(res);
    if (s.result) drawResult(s, res);
    // what the bots did since the last answer, played out on the felt
    var fresh = prevFelt && prev.hand === s.hand ? s.log.slice(shownLog) : [];
    // a screen reader hears what the others did since your last move
    $("play-said").textContent = (prevFelt ? fresh : s.log).filter(function (e) {
      return e.seat !== s.seat || e.kind === "trick"; })
      .map(sayEvent).join(". ");
    shownLog = s.log.length;
    if (fresh.length) animate(fresh, prevFelt); else drawFelt(finalFelt(s));
    restoreFocus(had);
    $("play-table").dataset.step = ++steps;     // drawn: the tests wait for it
  }
  function drawResult(s, res) {
    var r = s.result, m = s.match;
    res.appendChild(el("h2", {}, fmt(r.yours ? t("Hand {n} over: your pair scores {points}") :
      t("Hand {n} over: the other pair scores {points}"), {n: s.hand, points: r.game_points})));
    var mine = s.side, theirs = mine === "A" ? "B" : "A";
    res.appendChild(el("p", {}, fmt(t("points: you {pyou} – them {pthem}; bazas: you {byou} – them {bthem}"),
      {pyou: r.points[mine], pthem: r.points[theirs], byou: r.tricks[mine], bthem: r.tricks[theirs]}) +
      (r.breakdown ? "; " + fmt(t("cards {c1}–{c2}, monte {m1}–{m2}, cantes {k1}–{k2}"),
        {c1: r.breakdown.cards[mine], c2: r.breakdown.cards[theirs], m1: r.breakdown.monte[mine],
         m2: r.breakdown.monte[theirs], k1: r.breakdown.cante_points[mine], k2: r.breakdown.cante_points[theirs]}) : "")));
    var name = s.records[s.records.length - 1];
    res.appendChild(el("p", {}, t("saved as {name}", {name: name})));
    if (m.over) res.appendChild(el("p", {"class": "score"}, fmt(m.you > m.them ?
      t("Match over: your pair wins, you {you} – them {them}") : t("Match over: the other pair wins, you {you} – them {them}"),
      {you: m.you, them: m.them})));
    else {
      var next = el("button", {type: "button", id: "play-next", "class": "main"}, t("Next hand"));
      next.addEventListener("click", function () { post("/api/play/next").then(played); });
      res.appendChild(next);
    }
    var an = el("button", {type: "button", id: "play-analyse"}, t("Analyse this hand"));
    an.addEventListener("click", function () { show("analyse"); analyse({name: name}); });
    res.appendChild(an);
  }
  function played(d) {
    if (d.state) drawPlay(d.state);       // refused on an old state: the state as it is now
    if (d.error || d.cancelled) {
      if (d.error) $("play-refused").textContent = d.error;
      if (state && !d.state) {          // not taken: the card back in the hand, the felt as it was
        document.querySelectorAll("#play-hand .going").forEach(function (b) { b.classList.remove("going"); });
        drawFelt(finalFelt(state));
      }
      return;
    }
    clear($("play-hint-out"));
    drawPlay(d);
  }
  /* your card goes on the felt at once, the next seat's turn marked, while the server
     plays the bots' turns; its answer then draws the table as it is */
  function answer(choice) {
    stopAnim();
    movedFrom = focusedIn();          // the card played leaves the hand: the focus comes back
    if (state && state.turn && state.turn.kind === "card" && state.turn.legal.indexOf(choice) >= 0) {
      var f = finalFelt(state);
      if (f.done) f.cards = {};
      f.cards[state.seat] = choice;
      f.done = false;
      f.turn = nextSeat(state.seat);
      drawFelt(f);
      var mine = document.querySelector("#play-hand .card[data-card='" + choice + "']");
      if (mine) mine.classList.add("going");
    }
    post("/api/play/answer", {choice: choice}).then(played);
  }
  $("play-new").addEventListener("click", function () {
    post("/api/play/new", {seat: Number($("play-seat").value)}).then(played);
  });
  function mark(button, text, best) {
    var old = button.querySelector(".num");
    if (old) old.remove();
    button.classList.toggle("best", best);
    button.appendChild(el("span", {"class": "num"}, text));
  }
  $("play-takeback").addEventListener("click", function () {
    post("/api/play/takeback").then(played);
  });
  $("play-hint").addEventListener("click", function () {
    post("/api/play/hint").then(function (d) {
      var out = $("play-hint-out");
      if (d.cancelled) { out.textContent = t("hint cancelled"); return; }
      if (d.error) { out.textContent = d.error; return; }
      var h = d.hint;
      var how = h.exact ? (h.deals === 1 ? t("exact: the one layout left") :
        t("exact: all {n} layouts", {n: formatNumber(h.deals)})) :
        t("sampled: {n} deals", {n: formatNumber(h.deals)});
      var text;
      if (h.kind === "call") {
        text = t("call {call}", {call: h.advice}) + " — " + h.options.map(function (o) {
          return o.bid + " " + pct0(o.p) + " (" + signed(o.ev) + ")"; }).join(", ");
        h.options.forEach(function (o) {
          var b = document.querySelector("#play-choices button[data-call='" + o.bid + "']");
          if (b) mark(b, pct0(o.p) + " · " + signed(o.ev), o.bid === h.advice);
        });
      } else if (h.kind === "card") {
        text = t("play {card}", {card: h.best}) + " — " + h.cards.map(function (c) {
          return c.card + " " + pct0(c.p); }).join(", ");
        h.cards.forEach(function (c) {
          var b = document.querySelector("#play-hand .card[data-card='" + c.card + "']");
          if (b) mark(b, pct0(c.p), c.card === h.best);
        });
      } else {
        var names = {no: t("keep quiet")};
        (state.turn.legal || []).forEach(function (o) { names[o.suit] = o.name; });
        text = (h.best === "no" ? t("keep quiet") : t("sing {suit}", {suit: names[h.best]})) + " — " +
          h.options.map(function (o) { return names[o.suit] + " " + pct0(o.p); }).join(", ");
        h.options.forEach(function (o) {
          var b = document.querySelector("#play-choices button[data-cante='" + o.suit + "']");
          if (b) mark(b, pct0(o.p), o.suit === h.best);
        });
      }
      out.textContent = t("Hint ({how}): {text}", {how: how, text: text});
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
    if (o.contract === "paso") return t("paso (all four play)");
    if (Array.isArray(o.declarer)) return t("contrasolo {a} v {b}", {a: o.declarer[0], b: o.declarer[1]});
    var d = o.declarer;
    return fmt(d === seat ? t("{contract} by {seat} (you)") : (d - seat + 4) % 4 === 2 ?
      t("{contract} by {seat} (partner)") : t("{contract} by {seat} (opponent)"), {contract: o.contract, seat: d});
  }
  function drawAdvice(d) {
    var a = d.advice, out = clear($("adv-out"));
    out.dataset.json = JSON.stringify(a);
    var played = a.model === "played";
    var best = a.options.filter(function (o) { return o.bid === a.advice; })[0];
    var p = played ? best.p_played : best.p_win, ev = played ? best.ev_played : best.ev;
    out.classList.remove("stale");
    out.appendChild(el("h2", {id: "adv-call"}, played ?
      t("Call {call}: {p} at the table ({dd} double dummy), {ev} points per hand on average",
        {call: a.advice, p: pct0(p), dd: pct0(best.p_win), ev: signed(ev)}) :
      t("Call {call}: {p}, {ev} points per hand on average", {call: a.advice, p: pct0(p), ev: signed(ev)})));
    var where = {seat: a.seat, hand: a.hand, muestra: a.muestra, rules: a.rules,
                 n: formatNumber(a.deals), seed: a.seed};
    out.appendChild(el("p", {}, (a.exact ?
      t("seat {seat}, {hand}, muestra {muestra}, rules {rules}; all {n} consistent deals", where) :
      t("seat {seat}, {hand}, muestra {muestra}, rules {rules}; {n} sampled deals, seed {seed}", where)) +
      (a.effective_deals != null ? t(", weighted by the calls (worth {n} deals)",
                                     {n: formatNumber(Math.round(a.effective_deals))}) : "")));
    var head = [t("call"), t("contract")].concat(played ? [t("P(win) played"), t("EV played")] : [])
      .concat([played ? t("P(win) dd") : t("P(win)"), t("{ci} interval", {ci: formatPercent(0.95)}), played ? t("EV dd") : t("EV")])
      .concat(a.score ? [t("P(match)")] : []).concat([t("tricks 0-5")]);
    var tab = el("table", {id: "adv-table", "class": "rows"}), tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    tab.appendChild(tr);
    a.options.forEach(function (o) {
      var row = el("tr", {"data-bid": o.bid, "class": o.bid === a.advice ? "advice" : ""});
      var cells = [o.bid];
      if (!o.allowed) cells = cells.concat([t("not allowed: {reason}", {reason: o.reason})]);
      else {
        cells.push(contractText(o, a.seat));
        if (played) cells.push(pct(o.p_played), signed(o.ev_played));
        cells.push(pct(o.p_win), a.exact ? t("exact") : formatNumber(100 * o.ci95[0], 1) + "-" +
                   pct(o.ci95[1]), signed(o.ev));
        if (a.score) cells.push(pct(o.p_match));
        cells.push(histogram(o.tricks) + " (" + o.side + ")");
      }
      cells.forEach(function (c, i) { row.appendChild(el("td", {"data-label": head[i]}, c)); });
      tab.appendChild(row);
    });
    out.appendChild(tab);
    if (a.advice_dd && a.advice_dd !== a.advice)
      out.appendChild(el("p", {}, t("Double dummy (every card seen) the advice would be {dd}; at the table, where each player sees only his own cards, {advice} does better.",
        {dd: a.advice_dd, advice: a.advice})));
    if (d.chart) out.appendChild(el("p", {id: "adv-chart"}, t("Bidding chart: the hand falls in the cell {cell}, where the chart calls {call} ({p}, {ev}, over {n} hands).",
      {cell: d.chart["class"], call: d.chart.call, p: pct0(d.chart.p), ev: signed(d.chart.ev),
       n: formatNumber(d.chart.hands)})));
    if (d.chart && d.chart.call !== a.advice)
      out.appendChild(el("p", {id: "adv-why"}, t("The two differ because the chart gives the call best on average over the {n} hands of its cell, while the advice weighs this hand's own cards (and the calls and score given): for this hand, {call} does better.",
        {n: formatNumber(d.chart.hands), call: a.advice})));
  }
  /* a field changed after an advice: the advice shown is no longer the fields' */
  function staleAdvice() {
    var out = $("adv-out");
    if (!out.firstChild || out.classList.contains("stale")) return;
    out.classList.add("stale");
    out.insertBefore(el("p", {"class": "stale-note", role: "status"},
      t("The fields changed since this advice: press Advise for the new one.")), out.firstChild);
  }
  $("adv-form").addEventListener("input", staleAdvice);
  $("adv-form").addEventListener("change", staleAdvice);
  $("deck").addEventListener("click", staleAdvice);
  $("adv-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    document.querySelectorAll("#adv-form .error").forEach(function (e) { e.textContent = ""; });
    var body = {hand: $("adv-hand").value, muestra: $("adv-muestra").value, seat: $("adv-seat").value,
                auction: $("adv-auction").value, score: $("adv-score").value, seed: $("adv-seed").value,
                exact: $("adv-exact").checked};
    post("/api/advise", body).then(function (d) {
      if (d.errors) {
        clear($("adv-out")).classList.remove("stale");
        Object.keys(d.errors).forEach(function (k) { $("err-" + k).textContent = d.errors[k]; });
        return;
      }
      if (d.cancelled) { clear($("adv-out")).appendChild(el("p", {}, t("cancelled"))); return; }
      if (d.error) { $("err-hand").textContent = d.error; return; }
      drawAdvice(d);
    });
  });

  /* --- analyse and puzzles ------------------------------------------------------------ */
  function loadRecords() {
    get("/api/records").then(function (d) {
      var sel = clear($("an-record"));
      d.records.forEach(function (n) { sel.appendChild(el("option", {value: n}, n)); });
      if (!d.records.length) sel.appendChild(el("option", {value: ""}, t("(none yet: play a hand)")));
    });
  }
  function analyse(body) {
    $("err-record").textContent = "";
    post("/api/analyze", body).then(function (d) {
      if (d.error) { $("err-record").textContent = d.error; return; }
      if (d.cancelled) { $("err-record").textContent = t("cancelled"); return; }
      var f = $("an-report");
      f.hidden = false;
      f.srcdoc = d.html;
    });
  }
  /* the report and the puzzles tell their height: the frame takes it, one page scrolls */
  followFrameHeights(["an-report", "pz-page"]);
  $("an-go").addEventListener("click", function () { analyse({name: $("an-record").value}); });
  $("an-file").addEventListener("change", function () {
    var file = $("an-file").files[0];
    if (!file) return;
    if (file.size > 64 * 1024) { $("err-record").textContent = t("record {name} is too big: more than 64 KB", {name: file.name}); return; }
    file.text().then(function (text) { analyse({record: text, filename: file.name}); });
  });
  $("pz-go").addEventListener("click", function () {
    $("err-puzzles").textContent = "";
    post("/api/puzzles").then(function (d) {
      if (d.error) { $("err-puzzles").textContent = d.error; return; }
      if (d.cancelled) { $("err-puzzles").textContent = t("cancelled"); return; }
      $("pz-note").textContent = tn("{n} puzzle in the {records} newest saved games.",
        "{n} puzzles in the {records} newest saved games.", d.count, {records: d.records});
      var f = $("pz-page");
      f.hidden = false;
      f.srcdoc = d.html;
    });
  });

  /* --- charts ------------------------------------------------------------------------ */
  function situation(c) {
    var before = !c.auction.length ? t("first to speak") : c.auction.every(function (x) { return x === "paso"; }) ?
      t("all passed before") : t("after {calls}", {calls: c.auction.join(" ")});
    return c.score ? t("seat {seat}, {before}, score {score}", {seat: c.seat, before: before, score: c.score.join("-")}) :
      t("seat {seat}, {before}", {seat: c.seat, before: before});
  }
  function drawChart() {
    var c = CHARTS.charts[Number($("ch-which").value)], out = clear($("ch-out"));
    var played = c.value === "ev_played";
    var value = played ? t("played EV") : c.value;
    $("ch-note").textContent = t("{situation}: the call of best {value} per class of hand, over {n} hands (rules {rules}).",
      {situation: situation(c), value: value, n: formatNumber(c.hands), rules: CHARTS.rules});
    var tab = el("table", {id: "ch-table", "class": "rows"}), tr = el("tr");
    var head = [t("cell"), t("hands"), t("call"), played ? t("P(win) played") : t("P(win)"), played ? t("EV played") : t("EV")];
    head.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    tab.appendChild(tr);
    c.cells.forEach(function (cell) {
      var s = cell.calls[cell.call], row = el("tr");
      [cell["class"], formatNumber(cell.hands), cell.call,
       pct0(s.p_played != null ? s.p_played : s.p_win), signed(s.ev_played != null ? s.ev_played : s.ev)]
        .forEach(function (x, i) {
          row.appendChild(el("td", i === 2 ? {"class": "call-" + cell.call, "data-label": head[i]} :
                                             {"data-label": head[i]}, x));
        });
      tab.appendChild(row);
    });
    out.appendChild(tab);
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
