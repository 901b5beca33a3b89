"""The application of ``cuatrola serve``: the page, its routes, and the checks every
request goes through (docs/serve.md, "Limits"), laid out as Starlette's own
documentation lays an application out: endpoints at module level in :data:`routes`,
the server's state in ``app.state`` (:class:`Serving`), middleware and exception
handlers given to :class:`~starlette.applications.Starlette`.

- A request names a host the server answers to (``Host``,
  :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`): a page from
  elsewhere that rebinds a name to 127.0.0.1 is refused.
- No GET changes anything; every POST comes from the server's own page (``Origin``
  is the server's) with a JSON object of at most :data:`MAX_BODY` bytes, read into its
  typed shape (:mod:`.messages`).
- The work of a request is bounded by its :class:`~cuatrola_solver.advice.budget.Budget`
  (the commands' defaults), by one computation at a time per page and by the server's
  cores, shared (:class:`~.pages.Cores`); a cancel stops it.
- Files are read only from the records folder, by name (:mod:`.records`); nothing is
  run but the library.  Each page's match is kept in the games database (:mod:`.store`).

Bad input gets the message the command line gives for it (a
:class:`~cuatrola_solver.errors.CuatrolaError`), with status 400 (409 for a move the
game's state does not allow now, 410 for a page not known); the advise form's messages
come per field (:mod:`.forms`).  The exception handlers (:data:`HANDLERS`) turn each
into its answer, so no bad request gets a 500."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..advice.bidding import advise
from ..advice.budget import Budget, random_seed
from ..analysis.cards_svg import card_sheet
from ..analysis.puzzles import MARGIN, MIN_LOSS, PuzzleReport, find_puzzles
from ..analysis.report import html_puzzles, html_report
from ..analysis.review import analyze
from ..errors import CuatrolaError, ModelError, RecordError
from ..i18n import _
from ..game.rules import RuleSet
from ..game.seats import check_seat
from ..game.view import View
from ..i18n import _
from ..models.charts import Chart, describe_key, load_charts
from ..notation.record import HandRecord
from .anotar import anotar_routes
from .forms import FormError, read_advise_form
from .games import Game, GameStateError
from .history import feeder, history_routes
from .language import RequestLanguage, messages_route
from .messages import (AdviceAnswer, AdviseAsk, AnalyzeAsk, BadRequest, CancelAnswer, Cancelled as
                       CancelledAnswer, ChartCell, ChartsAnswer, ErrorAnswer, GameAnswer,
                       HintAnswer, Move, NewGame, PageAnswer, PageAsk, PageOf, PuzzlesAnswer,
                       RecordsAnswer, ReportAnswer, Step)
from .pages import Busy, Cancelled, Cores, Page, Pages, Progress, UnknownPage
from .records import RecordsFolder, read_text_record
from .store import Store

__all__ = ["make_app", "routes", "Serving", "MAX_BODY", "STREAM_SECONDS",
           "MAX_PUZZLE_RECORDS", "LOOPBACK", "host_name", "BadRequest"]

#: the largest request body read (a record sent for analysis is the largest)
MAX_BODY = 128 << 10
#: how long one event stream stays open (the page's EventSource opens the next)
STREAM_SECONDS = 300
#: the records searched for puzzles: the newest ones
MAX_PUZZLE_RECORDS = 12
#: the host names of this machine itself
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
STATIC = Path(__file__).resolve().parent / "static"
#: the drawing of the cards the page places with <use href="/cards.svg#card-Ac">
CARD_SHEET = card_sheet(standalone=True)


def host_name(header: str) -> str:
    """The host name of a ``Host`` header: ``127.0.0.1:8765`` -> ``127.0.0.1``,
    ``[::1]:8765`` -> ``::1``."""
    name = header if header.endswith("]") or header.count(":") != 1 else header.split(":")[0]
    if name.startswith("[") and "]" in name:
        name = name[1:name.index("]")]
    return name.lower()


@dataclass
class Serving:
    """What the endpoints share (``app.state.serving``): the rules, the records folder and
    the games database, the pages, the cores, the bots and the seed of the deals."""

    rules: RuleSet
    records: RecordsFolder
    store: Store
    pages: Pages
    cores: Cores
    bots: str
    seed: int | None


def serving(request: Request) -> Serving:
    state: Serving = request.app.state.serving
    return state


# --- reading a request ------------------------------------------------------------------

async def body_of(request: Request) -> dict[str, Any]:
    """The request's body: from the server's own page, at most :data:`MAX_BODY` bytes, a
    JSON object (:class:`BadRequest` otherwise)."""
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
    except RecursionError:
        raise BadRequest(_("refused: the request body is nested too deep")) from None
    if not isinstance(body, dict):
        raise BadRequest("refused: the request body is not a JSON object")
    return body


def answer(value: Any) -> JSONResponse:
    return JSONResponse(value.to_json())


async def compute(request: Request, page: Page, what: str,
                  work: Callable[[Progress, int], Any], wanted: int = 1) -> Any:
    """``work(progress, workers)`` run as the page's computation on the server's cores."""
    return await page.compute(what, work, serving(request).cores, wanted)


def game_now(s: Serving, page: Page, progress: Progress | None = None) -> Game | None:
    """The page's match, rebuilt from the games database the first time it is asked (or
    after a write to the database failed).  Called inside the page's computation only,
    so two requests of one page never see two different games."""
    if not page.loaded or (page.game is not None and page.game.lost):
        page.game, page.loaded = Game.restore(s.store, page.id, s.records, progress), True
    return page.game


def table_now(s: Serving, page: Page, progress: Progress | None = None) -> Game:
    game = game_now(s, page, progress)
    if game is None:
        raise GameStateError(_("no game on this page: start one"))
    return game


# --- the page and its stream ------------------------------------------------------------

async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def cards(request: Request) -> Response:
    return Response(CARD_SHEET, media_type="image/svg+xml",
                    headers={"Cache-Control": "max-age=3600"})


async def page_endpoint(request: Request) -> Response:
    """The page's id and match: the one its browser kept, when the server knows it
    (from memory or the games database), else a new page."""
    ask = PageAsk.from_json(await body_of(request))
    s = serving(request)
    page = s.pages.find(ask.page) if ask.page is not None else None
    if page is None:
        page = s.pages.new()

    def work(progress: Progress, workers: int) -> dict[str, Any] | None:
        game = game_now(s, page, progress)
        return None if game is None else game.state()
    deadline = time.monotonic() + STREAM_SECONDS
    while True:     # a page reloaded while its last computation runs waits for its end
        try:
            state = await compute(request, page, "the game, as it was left", work)
            break
        except Busy:
            if time.monotonic() > deadline:
                raise
            await anyio.sleep(0.1)
    return answer(PageAnswer(page.id, s.rules.name, s.rules.target, state))


async def events(request: Request) -> Response:
    page_id = request.query_params.get("page")
    page = serving(request).pages.get(page_id or "")

    async def stream() -> AsyncIterator[str]:
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


async def cancel(request: Request) -> Response:
    ask = PageOf.from_json(await body_of(request))
    return answer(CancelAnswer(serving(request).pages.get(ask.page).cancel()))


# --- advise -----------------------------------------------------------------------------

async def advise_endpoint(request: Request) -> Response:
    ask = AdviseAsk.from_json(await body_of(request))
    page = serving(request).pages.get(ask.page)
    form = read_advise_form(ask, serving(request).rules)
    what = "the exact advice" if form.budget.exact else "the advice"

    def work(progress: Progress, workers: int) -> Any:
        return advise(form.view, dataclasses.replace(form.budget, workers=workers),
                      progress=progress)
    advice = await compute(request, page, what, work, wanted=serving(request).cores.total)
    return answer(AdviceAnswer(advice.to_dict(), chart_cell(serving(request).rules, form.view)))


def chart_cell(rules: RuleSet, view: View) -> ChartCell | None:
    """The cell of the shipped bidding chart the hand falls in (None: no chart for this
    seat and calls)."""
    try:
        charts = load_charts(rules)
    except ModelError:
        return None
    score = None if view.score is None else (view.score.A, view.score.B)
    chart = charts.find(view.seat, view.calls, score)
    if chart is None:
        return None
    cell = chart.cell_of(view.hand, view.trump)
    return ChartCell(_(describe_key(cell.key)), cell.call, cell.hands, cell.stats.p_rated,
                     cell.stats.ev_rated, cell.agreement)


# --- the table --------------------------------------------------------------------------

async def play_new(request: Request) -> Response:
    ask = NewGame.from_json(await body_of(request))
    s = serving(request)
    page = s.pages.get(ask.page)
    seat = check_seat(ask.seat, "--seat")

    def work(progress: Progress, workers: int) -> dict[str, Any]:
        seed = random_seed() if s.seed is None else s.seed + s.store.count_game()
        page.game, page.loaded = Game.start(s.store, page.id, s.rules, seat, seed,
                                            s.records, s.bots), True
        return page.game.state()
    return answer(GameAnswer(await compute(request, page, "the bots' turns", work)))


async def at_table(request: Request, page_id: str, what: str,
                   move: Callable[[Game, Progress, int], Any], wanted: int = 1) -> Any:
    """``move(game, progress, workers)`` run as the computation of the page named, on its
    match (:class:`GameStateError` when it has none)."""
    s = serving(request)
    page = s.pages.get(page_id)
    return await compute(request, page, what, lambda progress, workers: move(
        table_now(s, page, progress), progress, workers), wanted)


async def play_answer(request: Request) -> Response:
    ask = Move.from_json(await body_of(request))
    return answer(GameAnswer(await at_table(
        request, ask.page, "the bots' turns",
        lambda game, progress, workers: game.answer(ask.choice, ask.version))))


async def play_next(request: Request) -> Response:
    step = Step.from_json(await body_of(request))
    return answer(GameAnswer(await at_table(
        request, step.page, "the bots' turns",
        lambda game, progress, workers: game.next_hand(step.version))))


async def play_takeback(request: Request) -> Response:
    step = Step.from_json(await body_of(request))
    records = serving(request).records
    return answer(GameAnswer(await at_table(
        request, step.page, "the takeback",
        lambda game, progress, workers: game.take_back(step.version, records, progress))))


async def play_hint(request: Request) -> Response:
    ask = PageOf.from_json(await body_of(request))
    return answer(HintAnswer(await at_table(
        request, ask.page, "the hint",
        lambda game, progress, workers: game.table.hint(progress, workers),
        wanted=serving(request).cores.total)))


# --- records, analysis, puzzles, charts -------------------------------------------------

async def record_list(request: Request) -> Response:
    records = serving(request).records
    return answer(RecordsAnswer(tuple(records.names()), str(records.path)))


def with_rules(rec: HandRecord, rules: RuleSet) -> HandRecord:
    """A record's own Rules tag wins; one without is read under the server's rules."""
    return rec if rec.rules_given else dataclasses.replace(rec, rules=rules)


async def analyze_endpoint(request: Request) -> Response:
    ask = AnalyzeAsk.from_json(await body_of(request))
    s = serving(request)
    page = s.pages.get(ask.page)
    if ask.record is not None:
        rec = read_text_record(ask.record.encode("utf-8"), ask.filename or "the uploaded record")
    else:
        rec = s.records.read(ask.name)
    rec = with_rules(rec, s.rules)
    title = f"cuatrola analysis: {ask.name if isinstance(ask.name, str) else 'upload'}"

    def work(progress: Progress, workers: int) -> ReportAnswer:
        return ReportAnswer(html_report(analyze(rec, Budget(workers=workers),
                                            progress=progress), title))
    return answer(await compute(request, page, "the analysis", work, wanted=s.cores.total))


async def puzzles(request: Request) -> Response:
    ask = PageOf.from_json(await body_of(request))
    s = serving(request)
    page = s.pages.get(ask.page)
    found, skipped = [], []
    for n in s.records.names()[:MAX_PUZZLE_RECORDS]:
        try:
            found.append((with_rules(s.records.read(n), s.rules), n))
        except RecordError:
            skipped.append(n)
    if not found:
        raise RecordError(_("no saved games to find puzzles in: play a hand first"))

    def work(progress: Progress, workers: int) -> PuzzlesAnswer:
        search = find_puzzles(found, workers=workers, progress=progress)
        report = PuzzleReport(tuple(search.puzzles), search, MIN_LOSS, MARGIN)
        return PuzzlesAnswer(html_puzzles(report, "cuatrola puzzles"), len(found),
                             tuple(skipped), len(search.puzzles))
    return answer(await compute(request, page, "the puzzles", work, wanted=s.cores.total))


def _chart_shown(chart: Chart) -> dict[str, Any]:
    """A chart's JSON for the page: each cell's ``class`` in the request's language (as
    an advice's chart cell is); ``cuatrola charts --json`` keeps the English."""
    return chart.to_dict(translate=_)


async def charts(request: Request) -> Response:
    rules = serving(request).rules
    shipped = load_charts(rules)
    return answer(ChartsAnswer(rules.name, tuple(_chart_shown(c) for c in shipped.charts)))


routes = [
    Route("/", index), Route("/cards.svg", cards), Route("/api/events", events),
    Route("/api/records", record_list), Route("/api/charts", charts),
    Route("/api/messages", messages_route),
    Route("/api/page", page_endpoint, methods=["POST"]),
    Route("/api/cancel", cancel, methods=["POST"]),
    Route("/api/advise", advise_endpoint, methods=["POST"]),
    Route("/api/play/new", play_new, methods=["POST"]),
    Route("/api/play/answer", play_answer, methods=["POST"]),
    Route("/api/play/next", play_next, methods=["POST"]),
    Route("/api/play/takeback", play_takeback, methods=["POST"]),
    Route("/api/play/hint", play_hint, methods=["POST"]),
    Route("/api/analyze", analyze_endpoint, methods=["POST"]),
    Route("/api/puzzles", puzzles, methods=["POST"]),
    *anotar_routes(body_of, lambda request: serving(request).records),
    *history_routes(),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


# --- errors -----------------------------------------------------------------------------

def _refused(status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(request: Request, e: Exception) -> Response:
        return JSONResponse(ErrorAnswer(str(e)).to_json(), status)
    return handler


async def _form(request: Request, e: Exception) -> Response:
    assert isinstance(e, FormError)
    return JSONResponse(ErrorAnswer(str(e), errors=e.errors).to_json(), 400)


async def _game_state(request: Request, e: Exception) -> Response:
    assert isinstance(e, GameStateError)
    return JSONResponse(ErrorAnswer(str(e), state=e.state).to_json(), 409)


async def _cancelled(request: Request, e: Exception) -> Response:
    return answer(CancelledAnswer())


async def _too_deep(request: Request, e: Exception) -> Response:
    return JSONResponse(ErrorAnswer(_("refused: the request is nested too deep")).to_json(),
                        400)


async def _bug(request: Request, e: Exception) -> Response:
    """A bug: said in one line (and logged by the server, which goes on)."""
    return JSONResponse(ErrorAnswer(f"internal error ({type(e).__name__}: {e})").to_json(),
                        500)


#: each exception a request may raise and its answer; the most specific class wins
HANDLERS: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
    FormError: _form, GameStateError: _game_state, Busy: _refused(409),
    UnknownPage: _refused(410), CuatrolaError: _refused(400), Cancelled: _cancelled,
    RecursionError: _too_deep, Exception: _bug,
}


def allowed_hosts(hosts: tuple[str, ...]) -> list[str]:
    """The hosts as :class:`TrustedHostMiddleware` compares them (IPv6 in brackets)."""
    return [f"[{h}]" if ":" in h and not h.startswith("[") else h for h in hosts]


def make_app(rules: RuleSet, records: RecordsFolder, hosts: tuple[str, ...] | None = None,
             bots: str = "best", seed: int | None = None, cores: int | None = None,
             history: Path | None = None) -> Starlette:
    """The application: the table under ``rules`` against ``bots``, hands saved in
    ``records`` and each page's match in its games database; requests answered for the
    host names ``hosts`` (default :data:`LOOPBACK`; ``("*",)``: any).  With ``seed``,
    the n-th game started on the server (n = 0, 1, ..., counted in the database) deals
    from seed ``seed + n``, as ``cuatrola play --seed`` does; without, each game from a
    fresh seed.  ``cores``: the cores the computations share (default: all).  With
    ``history`` (a database file), each hand saved is kept in it and the "Mis partidas"
    page reads it (:mod:`.history`)."""
    store = Store(records.path)
    app = Starlette(routes=routes, exception_handlers=HANDLERS,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(
                        LOOPBACK if hosts is None else hosts)), Middleware(RequestLanguage)])
    app.state.serving = Serving(rules, records, store, Pages(store), Cores(cores), bots, seed)
    app.state.history = history
    if history is not None:
        records.on_save = feeder(history)
    return app

