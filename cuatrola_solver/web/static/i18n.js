/* The page's language (docs/i18n.md), loaded before every other script.

   The language: the one chosen on the page (setLanguage, remembered in localStorage),
   else the browser's (navigator.languages, what it sends as Accept-Language), else
   English. <html lang> is set to it, and the cookie cuatrola_lang tells the server, whose
   messages (a bad hand, a bad record) then come in it too.

   The messages come from the same gettext catalogs as the command line's
   (GET /api/messages?lang=es), read once, before the page's own script runs:
     t("New game")                                -> "Nueva partida"
     t("Seat {seat} leads", {seat: 2})            -> named placeholders
     tn("{n} trick", "{n} tricks", n)             -> the plural form for n ({n} is filled)
     formatNumber(1.6, 2) / formatPercent(0.7)    -> "1,60" / "70 %" in Spanish
   Elements written in the HTML as <button data-t>New game</button> are translated when
   the page loads (translatePage(root) does it again for HTML added later); the
   attributes named in data-t-attrs="title aria-label" too. English text with no
   translation is shown as it is. The switch ES | EN is added to the page's <header>. */
(function () {
  "use strict";
  var KEY = "cuatrola-lang", COOKIE = "cuatrola_lang", LANGUAGES = ["en", "es"];

  function codeOf(name) {
    var code = String(name || "").toLowerCase().split(/[-_.]/)[0];
    return LANGUAGES.indexOf(code) >= 0 ? code : null;
  }
  function chosen() {
    var stored = null;
    try { stored = codeOf(window.localStorage.getItem(KEY)); } catch (e) { stored = null; }
    if (stored) return stored;
    var names = navigator.languages && navigator.languages.length ? navigator.languages
      : [navigator.language];
    for (var i = 0; i < names.length; i++) {
      var code = codeOf(names[i]);
      if (code) return code;
    }
    return "en";
  }

  var lang = chosen(), messages = {};
  document.documentElement.lang = lang;
  document.cookie = COOKIE + "=" + lang + "; path=/; SameSite=Strict";
  if (lang !== "en") {
    try {               // synchronous: t() must work as soon as the next script runs
      var request = new XMLHttpRequest();
      request.open("GET", "/api/messages?lang=" + lang, false);
      request.send();
      if (request.status === 200) messages = JSON.parse(request.responseText).messages || {};
    } catch (e) { messages = {}; }
  }

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }
  function t(msgid, params) {
    var found = messages[msgid];
    return fill(typeof found === "string" && found ? found : msgid, params);
  }
  function tn(singular, plural, n, params) {
    var forms = messages[singular], i = n === 1 ? 0 : 1;   // both languages: one, other
    var text = Array.isArray(forms) && forms[i] ? forms[i] : (i ? plural : singular);
    return fill(text, Object.assign({n: n}, params || {}));
  }
  function locale() { return lang === "es" ? "es-ES" : "en-US"; }
  function formatNumber(x, digits) {
    digits = digits == null ? 0 : digits;
    return Number(x).toLocaleString(locale(), {minimumFractionDigits: digits,
                                               maximumFractionDigits: digits});
  }
  function formatPercent(p, digits) {
    return formatNumber(100 * p, digits) + (lang === "es" ? "\u00a0%" : "%");
  }
  function translatePage(root) {
    var found = (root || document).querySelectorAll("[data-t], [data-t-attrs]");
    for (var i = 0; i < found.length; i++) {
      var e = found[i];
      if (e.hasAttribute("data-t")) {           // its text (else only its attributes)
        var id = e.getAttribute("data-t") || e.textContent.replace(/\s+/g, " ").trim();
        e.setAttribute("data-t", id);            // the English kept: translate again later
        if (id) e.textContent = t(id);
      }
      (e.getAttribute("data-t-attrs") || "").split(/\s+/).forEach(function (name) {
        if (!name) return;
        var key = "data-t-" + name, original = e.getAttribute(key) || e.getAttribute(name);
        if (original) { e.setAttribute(key, original); e.setAttribute(name, t(original)); }
      });
    }
  }
  function setLanguage(code) {
    code = codeOf(code) || "en";
    try { window.localStorage.setItem(KEY, code); } catch (e) { /* not remembered */ }
    document.cookie = COOKIE + "=" + code + "; path=/; SameSite=Strict";
    window.location.reload();
  }

  /* the switch ES | EN, put at the end of the page's <header>: two buttons (44 px), the
     one of the page's language pressed; the other reloads the page in its language */
  function addSwitch() {
    var header = document.querySelector("header");
    if (!header || document.getElementById("lang-switch")) return;
    var box = document.createElement("div");
    box.id = "lang-switch";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("Language"));
    box.style.cssText = "display:inline-flex;gap:.2rem";
    [["es", "ES", "Español"], ["en", "EN", "English"]].forEach(function (it) {
      var b = document.createElement("button");
      b.type = "button";
      b.lang = it[0];
      b.textContent = it[1];
      b.title = it[2];
      b.setAttribute("aria-label", it[1] + " (" + it[2] + ")");
      b.setAttribute("aria-pressed", String(it[0] === lang));
      b.style.cssText = "min-width:44px;min-height:44px;padding:0 .4rem;font:inherit;" +
        "font-size:.9rem;border-radius:4px;cursor:pointer;border:1px solid #ffffff80;" +
        (it[0] === lang ? "background:#fff;color:#24452f;font-weight:bold"
                        : "background:transparent;color:#fff");
      b.addEventListener("click", function () { if (it[0] !== lang) setLanguage(it[0]); });
      box.appendChild(b);
    });
    header.appendChild(box);
  }
  function start() { translatePage(document); addSwitch(); }

  window.t = t;
  window.tn = tn;
  window.formatNumber = formatNumber;
  window.formatPercent = formatPercent;
  window.translatePage = translatePage;
  window.setLanguage = setLanguage;
  window.pageLanguage = function () { return lang; };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
