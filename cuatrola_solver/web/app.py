"""The application of ``cuatrola serve``: the page, its routes, and the checks every
request goes through (docs/serve.md, "Limits").

- A request names a host the server answers to (``Host``): a page from elsewhere that
  rebinds a name to 127.0.0.1 is refused.
- No GET changes anything; every POST comes from the server's own page (``Origin``
  is the server's) with a JSON object of at most :data:`MAX_BODY` bytes.
- The work of a request is bounded by its :class:`~cuatrola_solver.advice.budget.Budget`
  (the commands' defaults, one worker each), by one computation at a time per page and
  :data:`~.pages.MAX_COMPUTATIONS` on the server (:mod:`.pages`); a cancel stops it.
- Files are read only from the records folder, by name (:mod:`.records`); nothing is
  run but the library.

Bad input gets the message the command line gives for it (a
:class:`~cuatrola_solver.errors.CuatrolaError`), with status 400; the advise form's
messages come per field (:mod:`.forms`)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (FileResponse, JSONResponse, PlainTextResponse, Response,
                                 StreamingResponse)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..advice.bidding import advise
from ..advice.budget import Budget, random_seed
from ..analysis.puzzles import MARGIN, MIN_LOSS, find_puzzles
from ..analysis.report import html_puzzles, html_report
from ..analysis.review import analyze
from ..errors import CuatrolaError, ModelError, RecordError
from ..game.rules import RuleSet
from ..game.seats import check_seat
from ..models.charts import describe_key, load_charts
from ..notation.record import HandRecord
from .forms import FormError, read_advise_form
from .history import feeder, history_routes
from .pages import Busy, Cancelled, Page, Pages, UnknownPage
from .play import PlayTable
from .records import RecordsFolder, read_text_record

__all__ = ["make_app", "MAX_BODY", "STREAM_SECONDS", "MAX_PUZZLE_RECORDS", "LOOPBACK"]

#: the largest request body read (a record sent for analysis is the largest)
MAX_BODY = 128 << 10
#: how long one event stream stays open (the page's EventSource opens the next)
STREAM_SECONDS = 300
#: the records searched for puzzles: the newest ones
MAX_PUZZLE_RECORDS = 12
#: the host names of this machine itself
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
STATIC = Path(__file__).resolve().parent / "static"


class BadRequest(CuatrolaError):
    """A request that is not one the page sends: not JSON, too big, from elsewhere."""


def host_name(header: str) -> str:
    """The host name of a ``Host`` header: ``127.0.0.1:8765`` -> ``127.0.0.1``,
    ``[::1]:8765`` -> ``::1``."""
    name = header if header.endswith("]") or header.count(":") != 1 else header.split(":")[0]
    if name.startswith("[") and "]" in name:
        name = name[1:name.index("]")]
    return name.lower()


class HostCheck:
    """Refuse a request whose ``Host`` is not a name the server answers to: a page
    elsewhere that points a name of its own at this machine (DNS rebinding) is refused."""

    def __init__(self, app, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and "*" not in self.hosts:
            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.hosts:
                await PlainTextResponse(f"refused: this server does not answer to the host "
                                        f"{header[:60]!r}", 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _error(e: Exception) -> JSONResponse:
    if isinstance(e, FormError):
        return JSONResponse({"errors": e.errors}, 400)
    status = 409 if isinstance(e, Busy) else 410 if isinstance(e, UnknownPage) else 400
    return JSONResponse({"error": str(e)}, status)


def make_app(rules: RuleSet, records: RecordsFolder, hosts: tuple[str, ...] | None = None,
             bots: str = "best", seed: int | None = None,
             history: Path | None = None) -> Starlette:
    """The application: the table under ``rules`` against ``bots``, hands saved in
    ``records``; requests answered for the host names ``hosts`` (default
    :data:`LOOPBACK`; ``("*",)``: any).  With ``seed``, the n-th game started on the
    server (n = 0, 1, ...) deals from seed ``seed + n``, as ``cuatrola play --seed``
    does; without, each game from a fresh seed.  With ``history`` (a database file),
    each hand saved is kept in it and the "Mis partidas" page reads it (:mod:`.history`)."""
    pages = Pages()
    if history is not None:
        records.on_save = feeder(history)
    games_started = itertools.count()
    hosts = LOOPBACK if hosts is None else hosts

    async def body_of(request: Request) -> dict:
        origin = request.headers.get("origin")
        if origin != f"{request.url.scheme}://{request.headers.get('host', '')}":
            raise BadRequest(f"refused: a change asked from another origin "
                             f"({origin or 'none given'})")
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise BadRequest(f"refused: a request body of more than {MAX_BODY >> 10} KB")
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise BadRequest(f"refused: a request body of more than {MAX_BODY >> 10} KB")
        try:
            body = json.loads(data or b"{}")
        except ValueError:
            raise BadRequest("refused: the request body is not JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("refused: the request body is not a JSON object")
        return body

    def post(path: str, handler, paged: bool = True) -> Route:
        """A POST route: its JSON body read and checked, its page found (when
        ``paged``), its errors turned into the messages the page shows."""
        async def endpoint(request: Request) -> Response:
            try:
                body = await body_of(request)
                page = pages.get(body.get("page")) if paged else None
                return JSONResponse(await handler(body, page))
            except Cancelled:
                return JSONResponse({"cancelled": True})
            except CuatrolaError as e:
                return _error(e)
            except Exception as e:       # a bug: said in one line, the server goes on
                return JSONResponse({"error": f"internal error ({type(e).__name__}: {e})"},
                                    500)
        return Route(path, endpoint, methods=["POST"])

    def compute(page: Page, what: str, work) -> Any:
        return page.compute(what, work, pages.limiter)

    # --- the page and its stream -----------------------------------------------------

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def new_page(body: dict, page: None) -> dict:
        new = pages.new()
        return {"page": new.id, "rules": rules.name, "target": rules.target}

    async def events(request: Request) -> Response:
        try:
            page = pages.get(request.query_params.get("page"))
        except UnknownPage as e:
            return _error(e)

        async def stream():
            seen, start = -1, time.monotonic()
            while time.monotonic() - start < STREAM_SECONDS:
                if page.version != seen:
                    seen = page.version
                    yield f"data: {json.dumps(page.status())}\n\n"
                await anyio.sleep(0.1)
                if await request.is_disconnected():
                    break

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def cancel(body: dict, page: Page) -> dict:
        return {"cancelled": page.cancel()}

    # --- advise ----------------------------------------------------------------------

    async def advise_(body: dict, page: Page) -> dict:
        form = read_advise_form(body, rules)
        what = "the exact advice" if form.budget.exact else "the advice"
        answer = await compute(page, what, lambda progress: advise(
            form.view, form.budget, progress=progress))
        return {"advice": {"schema": 1, **answer.to_dict()}, "chart": chart_cell(form.view)}

    def chart_cell(view) -> dict | None:
        """The cell of the shipped bidding chart the hand falls in (None: no chart for
        this seat and calls)."""
        try:
            charts = load_charts(rules)
        except ModelError:
            return None
        score = None if view.score is None else (view.score.A, view.score.B)
        chart = charts.find(view.seat, view.calls, score)
        if chart is None:
            return None
        cell = chart.cell_of(view.hand, view.trump)
        return {"class": describe_key(cell.key), "call": cell.call, "hands": cell.hands,
                "p": cell.stats.p_rated, "ev": cell.stats.ev_rated,
                "agreement": cell.agreement}

    # --- the table -------------------------------------------------------------------

    async def play_new(body: dict, page: Page) -> dict:
        seat = check_seat(body.get("seat", 1), "--seat")

        def work(progress) -> dict:
            n = next(games_started)
            page.table = PlayTable(rules, seat, random_seed() if seed is None else seed + n,
                                   records, bots)
            page.table.deal()
            return page.table.state()
        return await compute(page, "the bots' turns", work)

    def table_of(page: Page) -> PlayTable:
        if page.table is None:
            raise BadRequest("no game on this page: start one")
        return page.table

    async def play_answer(body: dict, page: Page) -> dict:
        table = table_of(page)

        def work(progress) -> dict:
            reason = table.answer(body.get("choice"))
            return {**table.state(), "refused": reason}
        return await compute(page, "the bots' turns", work)

    async def play_next(body: dict, page: Page) -> dict:
        table = table_of(page)

        def work(progress) -> dict:
            table.deal()
            return table.state()
        return await compute(page, "the bots' turns", work)

    async def play_hint(body: dict, page: Page) -> dict:
        table = table_of(page)
        return {"hint": await compute(page, "the hint", table.hint)}

    # --- records, analysis, puzzles, charts ------------------------------------------

    async def record_list(request: Request) -> Response:
        return JSONResponse({"records": records.names(), "folder": str(records.path)})

    def with_rules(rec: HandRecord) -> HandRecord:
        """A record's own Rules tag wins; one without is read under the server's rules."""
        return rec if rec.rules_given else dataclasses.replace(rec, rules=rules)

    async def analyze_(body: dict, page: Page) -> dict:
        text, name = body.get("record"), body.get("name")
        if isinstance(text, str):
            rec = read_text_record(text.encode("utf-8"), str(body.get("filename") or
                                                            "the uploaded record")[:100])
        else:
            rec = records.read(name)
        rec = with_rules(rec)

        def work(progress) -> dict:
            report = analyze(rec, Budget(workers=1), progress=progress).to_dict()
            return {"html": html_report(report, f"cuatrola analysis: {name or 'upload'}")}
        return await compute(page, "the analysis", work)

    async def puzzles(body: dict, page: Page) -> dict:
        names = records.names()[:MAX_PUZZLE_RECORDS]
        found, skipped = [], []
        for n in names:
            try:
                found.append((with_rules(records.read(n)), n))
            except RecordError:
                skipped.append(n)
        if not found:
            raise RecordError("no saved games to find puzzles in: play a hand first")

        def work(progress) -> dict:
            search = find_puzzles(found, workers=1, progress=progress)
            report = {"puzzles": [p.to_dict() for p in search.puzzles],
                      "search": search.to_dict(), "min_loss": MIN_LOSS, "margin": MARGIN}
            return {"html": html_puzzles(report, "cuatrola puzzles"), "records": len(found),
                    "skipped": skipped, "count": len(search.puzzles)}
        return await compute(page, "the puzzles", work)

    async def charts(request: Request) -> Response:
        try:
            charts = load_charts(rules)
        except ModelError as e:
            return _error(e)
        return JSONResponse({"rules": rules.name,
                             "charts": [c.to_dict() for c in charts.charts]})

    routes = [
        Route("/", index), Route("/api/events", events), Route("/api/records", record_list),
        Route("/api/charts", charts),
        post("/api/page", new_page, paged=False), post("/api/cancel", cancel),
        post("/api/advise", advise_), post("/api/play/new", play_new),
        post("/api/play/answer", play_answer), post("/api/play/next", play_next),
        post("/api/play/hint", play_hint), post("/api/analyze", analyze_),
        post("/api/puzzles", puzzles), *history_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(HostCheck, hosts=tuple(hosts))])
    app.state.history = history
    return app
