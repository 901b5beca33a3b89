/* Anotar: a hand taken down on a phone as it is played at a real table.
   The page keeps the entries (the muestra, the calls, the cards, the cantes, each as
   `cuatrola record` reads it) and sends them whole with each new one to
   /api/anotar/state; the server replays them with the library of `cuatrola record` and
   answers what may be entered now, the table, the renuncios marked, the record so far
   and the result.  A refused entry (400) leaves the entries as they were; Undo drops
   the last one.  Save writes the record into the records folder; Analyse shows the
   report of the saved record. */
(function () {
  "use strict";
  var t = window.t || function (s, values) {
    return s.replace(/\{(\w+)\}/g, function (m, k) {
      return values && k in values ? values[k] : m;
    });
  };
  var SUIT_ORDER = "oceb", RANK_ORDER = "A3RCS";
  var setup = null, entries = [], last = null, saved = null, page = null;

  function $(id) { return document.getElementById(id); }

  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (d) { d._status = r.status; return d; }); });
  }

  function body(entry) {
    return {rules: setup.rules, hands: setup.hands, players: setup.players,
            entries: entries, entry: entry};
  }

  /* Send the entries and the new one (null: just the state); draw the answer. */
  function ask(entry) {
    return post("/api/anotar/state", body(entry)).then(function (d) {
      if (d._status !== 200) {
        $("an-error").textContent = d.error || t("Refused.");
        return false;
      }
      if (entry !== null) entries.push(entry);
      $("an-error").textContent = "";
      draw(d);
      return true;
    });
  }

  function nameOf(seat) {
    var n = setup.players[seat - 1];
    return n ? n : t("Seat {seat}", {seat: seat});
  }

  function prompt(d) {
    if (d.stage === "muestra") return t("Tap the muestra, the card the dealer turned up.");
    if (d.stage === "call") return t("{name} speaks (seat {seat}).", {name: nameOf(d.seat), seat: d.seat});
    if (d.stage === "card") {
      return t("Trick {trick}: {name} plays (seat {seat}).",
               {trick: d.tricks.length + 1, name: nameOf(d.seat), seat: d.seat});
    }
    return t("The hand is over. Save it, then Analyse.");
  }

  function drawSeats(d) {
    for (var seat = 1; seat <= 4; seat++) {
      var el = $("an-seat-" + seat);
      el.textContent = "";
      el.className = "seat" + (d.seat === seat && d.stage !== "over" ? " turn" : "");
      var name = document.createElement("div");
      name.className = "name";
      name.textContent = nameOf(seat) + (seat === 1 ? " · " + t("mano") : seat === 4 ? " · " + t("dealer") : "");
      el.appendChild(name);
      var calls = d.calls_made || [];
      if (calls.length >= seat) {
        var call = document.createElement("div");
        call.textContent = calls[seat - 1];
        el.appendChild(call);
      }
      (d.current || []).forEach(function (p) {
        if (p.seat === seat) el.appendChild(window.cuatrolaCard(p.card, {shown: true}));
      });
      (d.marks || []).forEach(function (m) {
        if (m.seat === seat) {
          var mark = document.createElement("div");
          mark.textContent = t("renuncio, trick {trick}", {trick: m.trick});
          mark.className = "renuncio-seat";
          el.appendChild(mark);
        }
      });
    }
    var mid = $("an-mid");
    mid.textContent = "";
    if (d.muestra) {
      mid.appendChild(window.cuatrolaCard(d.muestra, {shown: true}));
      var what = document.createElement("div");
      what.textContent = t("muestra") + (d.contract ? " · " + d.contract : "") +
        " · " + t("bazas {n}", {n: d.tricks.length});
      mid.appendChild(what);
    }
  }

  function drawDeck(d) {
    var deck = $("an-deck");
    deck.textContent = "";
    deck.hidden = d.stage === "over";
    var may = {}, legal = {}, gone = {};
    d.cards.forEach(function (c) { may[c] = true; });
    d.legal.forEach(function (c) { legal[c] = true; });
    (d.played || []).forEach(function (c) { gone[c] = true; });
    for (var s = 0; s < 4; s++) {
      for (var r = 0; r < 5; r++) {
        var code = RANK_ORDER[r] + SUIT_ORDER[s];
        var b = window.cuatrolaCard(code, {});
        if (gone[code]) b.classList.add("gone");
        if (legal[code]) b.classList.add("legal");
        b.disabled = gone[code] || !may[code] || (d.stage !== "card" && d.stage !== "muestra");
        b.addEventListener("click", (function (c) { return function () { ask(c); }; })(code));
        deck.appendChild(b);
      }
    }
  }

  function buttons(id, items) {
    var box = $(id);
    box.textContent = "";
    items.forEach(function (item) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = item.label;
      b.dataset.entry = item.entry;
      b.addEventListener("click", function () { ask(item.entry); });
      box.appendChild(b);
    });
  }

  function resultLines(res) {
    var lines = [t("Side {side} scores {points} ({how}).",
                   {side: res.winner, points: res.game_points,
                    how: {play: t("after five tricks"), renuncio: t("by the first renuncio"),
                          early_end: t("ended early")}[res.ended_by]})];
    lines.push(t("Points: A {a} - B {b}; tricks: A {ta} - B {tb}.",
                 {a: res.points.A, b: res.points.B, ta: res.tricks.A, tb: res.tricks.B}));
    var bd = res.breakdown;
    if (bd) {
      lines.push(t("Cards: A {a} - B {b}; monte: A {ma} - B {mb}; cantes: A {ca} - B {cb}.",
                   {a: bd.cards.A, b: bd.cards.B, ma: bd.monte.A, mb: bd.monte.B,
                    ca: bd.cante_points.A, cb: bd.cante_points.B}));
    }
    if (res.score_after) {
      lines.push(t("Match: A {a} - B {b} after the hand.", {a: res.score_after.A, b: res.score_after.B}));
    }
    return lines;
  }

  function draw(d) {
    last = d;
    document.body.dataset.entries = String(entries.length);
    document.body.dataset.stage = d.stage;
    $("an-prompt").textContent = prompt(d);
    drawSeats(d);
    buttons("an-calls", d.stage === "call" ? d.calls.map(function (c) { return {label: c, entry: c}; }) : []);
    buttons("an-cantes", d.cantes.map(function (k) {
      return {label: t("{name} sings {suit}", {name: nameOf(k.seat), suit: k.suit}), entry: k.text};
    }));
    drawDeck(d);
    var marks = $("an-marks");
    marks.textContent = "";
    d.marks.forEach(function (m) {
      var div = document.createElement("div");
      div.className = "renuncio";
      div.textContent = m.text;
      marks.appendChild(div);
    });
    var res = $("an-result");
    res.hidden = !d.result;
    res.textContent = "";
    if (d.result) {
      resultLines(d.result).forEach(function (line) {
        var p = document.createElement("div");
        p.textContent = line;
        res.appendChild(p);
      });
    }
    $("an-record").textContent = d.record || "";
    $("an-undo").disabled = entries.length === 0;
    $("an-save").disabled = !d.record;
  }

  function start() {
    var v = function (id) { var x = $(id).value.trim(); return x ? x : null; };
    setup = {rules: $("an-rules").value,
             players: [1, 2, 3, 4].map(function (s) { return v("an-name-" + s); }),
             hands: [1, 2, 3, 4].map(function (s) { return v("an-hand-" + s); })};
    entries = [];
    saved = null;
    post("/api/anotar/state", body(null)).then(function (d) {
      if (d._status !== 200) {
        $("an-setup-error").textContent = d.error;
        return;
      }
      $("an-setup-error").textContent = "";
      $("setup").hidden = true;
      $("take").hidden = false;
      $("an-saved").textContent = "";
      $("an-analyse").hidden = true;
      $("an-report").hidden = true;
      draw(d);
    });
  }

  $("an-start").addEventListener("click", start);
  $("an-undo").addEventListener("click", function () {
    if (!entries.length) return;
    var dropped = entries.pop();
    ask(null).then(function (ok) { if (!ok) entries.push(dropped); });
  });
  $("an-save").addEventListener("click", function () {
    post("/api/anotar/save", body(null)).then(function (d) {
      if (d._status !== 200) { $("an-error").textContent = d.error; return; }
      saved = d.name;
      $("an-saved").textContent = t("Saved as {name}.", {name: d.name});
      $("an-analyse").hidden = false;
    });
  });
  $("an-analyse").addEventListener("click", function () {
    if (!saved) return;
    var got = page ? Promise.resolve(page) : post("/api/page", {page: null}).then(function (d) {
      page = d.page;
      return page;
    });
    $("an-saved").textContent = t("Analysing {name}…", {name: saved});
    got.then(function (id) {
      return post("/api/analyze", {page: id, name: saved});
    }).then(function (d) {
      if (d._status !== 200 || !d.html) {
        $("an-saved").textContent = d.error || t("The analysis failed.");
        return;
      }
      $("an-saved").textContent = t("The analysis of {name}:", {name: saved});
      var frame = $("an-report");
      frame.srcdoc = d.html;
      frame.hidden = false;
    });
  });
  $("an-new").addEventListener("click", function () {
    $("take").hidden = true;
    $("setup").hidden = false;
  });
  document.body.dataset.ready = "1";
})();
