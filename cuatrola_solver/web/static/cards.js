/* The cards of the page, placed from the one drawing of the cards (the sheet the
   server gives at /cards.svg, made by cuatrola_solver/analysis/cards_svg.py, which the
   analysis report and the puzzles inline too).
   cuatrolaCard("Ac", {small, disabled, shown}) returns a <button class="card">
   (``disabled``: not to click now, ``shown``: only looked at; neither greys it: the page
   greys a card that may not be played with the class "illegal");
   cuatrolaFace("Ac", {small}) a card only looked at (the muestra, a trick), and
   cuatrolaFace(null) a card's back. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var SUITS = {o: "oros", c: "copas", e: "espadas", b: "bastos"};
  var RANKS = {A: "as", "3": "tres", R: "rey", C: "caballo", S: "sota"};

  function name(code) { return RANKS[code[0]] + " de " + SUITS[code[1]]; }

  function svg(code) {
    var s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 60 90");
    s.setAttribute("class", "face");
    if (code) { s.setAttribute("role", "img"); s.setAttribute("aria-label", name(code)); }
    else s.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(NS, "use");
    use.setAttribute("href", "/cards.svg#card-" + (code || "back"));
    s.appendChild(use);
    return s;
  }

  window.cuatrolaCard = function (code, opts) {
    opts = opts || {};
    var b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (opts.small ? " small" : "") + (opts.shown ? " shown" : "");
    b.dataset.card = code;
    b.appendChild(svg(code));
    if (opts.disabled || opts.shown) b.disabled = true;
    return b;
  };
  /* a card only looked at; null: its back */
  window.cuatrolaFace = function (code, opts) {
    var d = document.createElement("span");
    d.className = "face-card" + (opts && opts.small ? " small" : "") + (code ? "" : " back");
    if (code) d.dataset.card = code;
    d.appendChild(svg(code));
    return d;
  };
  window.cuatrolaCardName = name;
  window.CUATROLA_SUITS = SUITS;
})();
