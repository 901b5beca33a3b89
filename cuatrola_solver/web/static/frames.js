/* A frame showing a report or puzzles takes the height its page tells (the page posts
   {cuatrolaHeight}), so one page scrolls, not a frame inside it. Used by the table's page
   and by Mis partidas. */
window.followFrameHeights = function (ids) {
  window.addEventListener("message", function (e) {
    ids.forEach(function (id) {
      var f = document.getElementById(id);
      // taken only when taller than the frame: the height told is at least the frame's
      // own (the page's scrollHeight), so taking each one grew the frame 4 px a round
      if (f && e.source === f.contentWindow && e.data && typeof e.data.cuatrolaHeight === "number" &&
          e.data.cuatrolaHeight > f.clientHeight)
        f.style.height = Math.min(20000, Math.max(200, e.data.cuatrolaHeight + 4)) + "px";
    });
  });
};
