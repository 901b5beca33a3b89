/* Spanish-suited cards drawn in SVG: oros a coin, copas a cup, espadas a sword,
   bastos a club.  cuatrolaCard("Ac", {small, disabled, shown}) returns a <button
   class="card">: ``disabled`` greyed (a card that may not be played), ``shown`` only
   looked at (the muestra, a trick). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var SUITS = {
    o: {name: "oros", colour: "#b8860b",
        draw: '<circle r="13" fill="#e9b824" stroke="#8a6100" stroke-width="2"/>' +
              '<circle r="7" fill="none" stroke="#8a6100" stroke-width="1.5"/>' +
              '<circle r="2.5" fill="#8a6100"/>'},
    c: {name: "copas", colour: "#c0392b",
        draw: '<path d="M-12,-13 H12 C12,-1 6,3 2,4 V9 H7 V13 H-7 V9 H-2 V4 C-6,3 -12,-1 -12,-13 Z"' +
              ' fill="#d64535" stroke="#7d1c12" stroke-width="1.5"/>' +
              '<path d="M-9,-9 H9" stroke="#f6c1b8" stroke-width="2"/>'},
    e: {name: "espadas", colour: "#1f4e9c",
        draw: '<path d="M0,-17 L3,-12 V6 H-3 V-12 Z" fill="#c9d6ea" stroke="#1f4e9c" stroke-width="1.3"/>' +
              '<rect x="-8" y="6" width="16" height="3" rx="1" fill="#1f4e9c"/>' +
              '<rect x="-1.8" y="9" width="3.6" height="6" fill="#6b4a2b"/>' +
              '<circle cy="16.5" r="2.2" fill="#1f4e9c"/>'},
    b: {name: "bastos", colour: "#2e7d32",
        draw: '<path d="M-3,15 C-5,5 -7,-6 -6,-14 C-4,-18 4,-18 6,-14 C7,-6 4,5 3,15 Z"' +
              ' fill="#8d5a2b" stroke="#4e2f12" stroke-width="1.3"/>' +
              '<circle cx="-5" cy="-6" r="2" fill="#2e7d32"/><circle cx="5" cy="-1" r="2" fill="#2e7d32"/>' +
              '<circle cx="-4" cy="5" r="2" fill="#2e7d32"/>'}
  };
  var RANKS = {A: "as", "3": "tres", R: "rey", C: "caballo", S: "sota"};

  function svg(code) {
    var rank = code[0].toUpperCase(), suit = SUITS[code[1].toLowerCase()];
    var s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 60 90");
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", RANKS[rank] + " de " + suit.name);
    s.innerHTML =
      '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#555" stroke-width="1.5"/>' +
      '<rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="' + suit.colour +
      '" stroke-width="1" stroke-dasharray="' + (code[1] === "o" ? "none" : code[1] === "c" ? "6 2" :
      code[1] === "e" ? "2 2" : "10 3") + '"/>' +
      '<text x="9" y="19" font-size="15" font-weight="bold" font-family="serif" fill="' +
      suit.colour + '">' + rank + '</text>' +
      '<text x="51" y="81" font-size="15" font-weight="bold" font-family="serif" fill="' +
      suit.colour + '" text-anchor="middle" transform="rotate(180 48 76)">' + rank + '</text>' +
      '<g transform="translate(30 47) scale(1.15)">' + suit.draw + '</g>';
    return s;
  }

  window.cuatrolaCard = function (code, opts) {
    opts = opts || {};
    var b = document.createElement("button");
    b.type = "button";
    b.className = "card" + (opts.small ? " small" : "") + (opts.shown ? " shown" : "");
    b.dataset.card = code;
    b.title = code;
    b.appendChild(svg(code));
    if (opts.disabled || opts.shown) b.disabled = true;
    return b;
  };
  window.CUATROLA_SUITS = SUITS;
})();
