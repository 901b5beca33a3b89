/* The page's session: its id kept in the browser (localStorage), so that a reload, a tab
   closed and opened again, or the server restarted gives the page back its match at the
   same decision (docs/serve.md, "A game that survives"); and the version of the table's
   state last drawn, sent with each move so that a move made on an old state (another
   tab moved) is refused with the state as it is now.

   app.js calls: CuatrolaSession.saved() for the id to ask /api/page with,
   CuatrolaSession.keep(id) with the id the server answers, CuatrolaSession.drawn(state)
   each time it draws the table (it remembers the state and its version, and enables
   #play-takeback),
   and sends CuatrolaSession.version with every POST. */
(function () {
  "use strict";
  var KEY = "cuatrola.page";

  function saved() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function keep(id) {
    try { window.localStorage.setItem(KEY, id); } catch (e) { /* storage off: this tab only */ }
  }
  function drawn(state) {
    session.state = state;
    session.version = state.version == null ? null : state.version;
    var back = document.getElementById("play-takeback");
    if (back) back.disabled = !state.can_take_back;
  }
  var session = {saved: saved, keep: keep, drawn: drawn, version: null, state: null};
  window.CuatrolaSession = session;
})();
