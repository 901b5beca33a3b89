"""Each open page's state on the server (:class:`Page`), and its one computation at a
time.

A page asks for a page id once (``POST /api/page``) and names it in every request after.
Whatever takes more than a moment -- an advice, a hint, an analysis, the bots' turns --
runs in a worker thread (:meth:`Page.compute`), one at a time per page: a second one
asked while the first runs is refused (:class:`Busy`).  The library calls the
computation's ``progress(done, total)``; the page follows it on its event stream, and a
cancel makes the next ``progress`` call raise :class:`Cancelled`, which stops the
computation where it is.  At most :data:`MAX_COMPUTATIONS` run at once on the whole
server (the others wait), and at most :data:`MAX_PAGES` pages are kept: the one unused
longest is forgotten for a new one."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Callable

import anyio
import anyio.to_thread

from ..errors import CuatrolaError

if TYPE_CHECKING:
    from .play import PlayTable

__all__ = ["Page", "Pages", "Busy", "Cancelled", "UnknownPage", "MAX_PAGES",
           "MAX_COMPUTATIONS"]

#: pages kept at once (each holds at most a table and a computation)
MAX_PAGES = 64
#: computations running at once on the server (the rest wait their turn)
MAX_COMPUTATIONS = 2


class Busy(CuatrolaError):
    """A computation asked for while the page's last one still runs."""


class Cancelled(Exception):
    """The page cancelled its computation (raised from its ``progress``)."""


class UnknownPage(CuatrolaError):
    """A page id the server does not know (never given, or forgotten)."""


class Page:
    """One page: its table (:mod:`.play`) and its computation."""

    def __init__(self, page_id: str) -> None:
        self.id = page_id
        self.table: PlayTable | None = None
        self.used = time.monotonic()
        self.running: str | None = None      # what is being computed
        self.progress: tuple[int, int] = (0, 0)
        self.version = 0                     # bumped at each change the stream says
        self._cancel = threading.Event()
        self._lock = threading.Lock()

    def status(self) -> dict:
        done, total = self.progress
        return {"running": self.running, "done": done, "total": total}

    def cancel(self) -> bool:
        """Ask the running computation to stop; False when none runs."""
        if self.running is None:
            return False
        self._cancel.set()
        return True

    def _progress(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise Cancelled
        self.progress = (done, total)
        self.version += 1

    async def compute(self, what: str, work: Callable[[Callable[[int, int], None]], Any],
                      limiter: anyio.CapacityLimiter) -> Any:
        """Run ``work(progress)`` in a worker thread and return its answer; :class:`Busy`
        when a computation already runs, :class:`Cancelled` when cancelled."""
        if not self._lock.acquire(blocking=False):
            raise Busy(f"{self.running or 'a computation'} is still running on this page: "
                       f"wait for it or cancel it")
        try:
            self.running, self.progress = what, (0, 0)
            self._cancel.clear()
            self.version += 1
            return await anyio.to_thread.run_sync(work, self._progress, limiter=limiter)
        finally:
            self.running = None
            self.version += 1
            self._lock.release()


class Pages:
    """The pages the server keeps, the unused longest forgotten first."""

    def __init__(self, most: int = MAX_PAGES) -> None:
        self.most = most
        self._pages: OrderedDict[str, Page] = OrderedDict()
        self.limiter = anyio.CapacityLimiter(MAX_COMPUTATIONS)

    def new(self) -> Page:
        while len(self._pages) >= self.most:
            idle = next((k for k, p in self._pages.items() if p.running is None), None)
            if idle is None:
                raise Busy(f"the server has {self.most} pages computing: try again in a "
                           f"moment")
            del self._pages[idle]
        page = Page(secrets.token_urlsafe(16))
        self._pages[page.id] = page
        return page

    def get(self, page_id: object) -> Page:
        page = self._pages.get(page_id) if isinstance(page_id, str) else None
        if page is None:
            raise UnknownPage("this page is not known to the server (it restarted, or the "
                              "page was unused too long): reload the page")
        self._pages.move_to_end(page.id)
        page.used = time.monotonic()
        return page
