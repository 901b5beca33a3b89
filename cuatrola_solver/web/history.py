"""The "Mis partidas" page of ``cuatrola serve``: the history's figures in the browser,
and the table's hands fed into the history as they end.

- ``GET /history``: the page (``static/history.html`` and ``static/history.js``);
- ``GET /api/history?player=NAME&rules=PRESET&since=YYYY-MM-DD``: the figures, the
  object of ``cuatrola history --json`` (docs/json.md) with ``database``, the file;
- ``GET /api/history/hand?id=N``: one hand of the history, its record in the text form,
  for the page's links to the hands;
- ``GET /api/history/puzzles?id=N``: the puzzles of that hand, found as the main page's
  Puzzles tab finds them (:func:`~cuatrola_solver.analysis.puzzles.find_puzzles` with its
  defaults, seeded: the same every time), with their page
  (:func:`~cuatrola_solver.analysis.report.html_puzzles`), for the page's "Puzzles"
  buttons.

Nothing here writes but :func:`feeder`, which the records folder calls with each hand
saved (:attr:`~.records.RecordsFolder.on_save`).  The history database is the one of
``cuatrola serve --db FILE`` (:attr:`starlette.datastructures.State.history`: its path,
None when the server keeps no history); it is opened for each request, in a worker
thread."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..analysis.puzzles import MARGIN, MIN_LOSS, PuzzleReport, find_puzzles
from ..analysis.report import html_puzzles
from ..errors import CuatrolaError, HistoryError, quote
from ..history.database import open_database
from ..history.feed import feed
from ..history.figures import Filters, figures, parse_day
from ..i18n import _
from ..notation.record import HandRecord, read_record

__all__ = ["history_routes", "feeder", "STATIC"]

STATIC = Path(__file__).resolve().parent / "static"


def feeder(path: Path | None) -> Callable[[HandRecord, Path, int | None], None]:
    """What the records folder calls with each hand saved: the hand kept in the history
    at ``path``.  A history that cannot be written never stops the table: its error is
    one line in the server's log."""

    def on_save(rec: HandRecord, saved: Path, seat: int | None) -> None:
        try:
            feed(path, rec, str(saved), seat)
        except CuatrolaError as e:
            print(_("history: the hand {name} was not kept: {error}").format(name=saved.name, error=e),
                  file=sys.stderr)

    return on_save


def _path(request: Request) -> Path:
    path = getattr(request.app.state, "history", None)
    if path is None:
        raise HistoryError(_("this server keeps no history (cuatrola serve --no-history)"))
    return Path(path)


def _error(e: CuatrolaError) -> Response:
    return JSONResponse({"error": str(e)}, 400)


def _text(request: Request, name: str) -> str | None:
    value = request.query_params.get(name, "").strip()
    if len(value) > 100:
        raise HistoryError(_("the parameter {name} is too long: {value}").format(
            name=name, value=quote(value)))
    return value or None


def history_page(request: Request) -> Response:
    return FileResponse(STATIC / "history.html")


def history_figures(request: Request) -> Response:
    try:
        path = _path(request)
        since = _text(request, "since")
        filters = Filters(_text(request, "player"), _text(request, "rules"),
                          None if since is None else parse_day(since))
        with open_database(path) as db:
            history = figures(db, filters)
    except CuatrolaError as e:
        return _error(e)
    return JSONResponse({**history.to_dict(), "database": str(path)})


def _hand(request: Request) -> tuple[int, str, str, str]:
    """The hand of the request's ``id``: its id, record (text form), source and day."""
    path = _path(request)
    raw = request.query_params.get("id", "")
    if not raw.isdigit() or len(raw) > 12:
        raise HistoryError(_("bad hand id {id}: expected a number").format(id=quote(raw)))
    with open_database(path) as db:
        rows = db.query("SELECT record, source, played FROM hands WHERE id = ?", (int(raw),))
    if not rows:
        raise HistoryError(_("no hand {id} in the history").format(id=raw))
    record, source, played = rows[0]
    return int(raw), str(record), str(source), str(played)


def history_hand(request: Request) -> Response:
    try:
        hand, record, source, played = _hand(request)
    except CuatrolaError as e:
        return _error(e)
    return JSONResponse({"id": hand, "record": record, "source": source, "played": played})


def history_puzzles(request: Request) -> Response:
    try:
        hand, record, source, _played = _hand(request)
        search = find_puzzles([(read_record(record, source), source)], workers=1)
    except CuatrolaError as e:
        return _error(e)
    report = PuzzleReport(tuple(search.puzzles), search, MIN_LOSS, MARGIN)
    return JSONResponse({"id": hand, "count": len(report.puzzles),
                         "html": html_puzzles(report, _("cuatrola puzzles"))})


def history_routes() -> list[Route]:
    """The page's routes (their handlers run in worker threads: the database is read
    there)."""
    return [Route("/history", history_page), Route("/api/history", history_figures),
            Route("/api/history/hand", history_hand),
            Route("/api/history/puzzles", history_puzzles)]
