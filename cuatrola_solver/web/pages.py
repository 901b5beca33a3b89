"""Each open page's state on the server (:class:`Page`), its one computation at a time,
and the server's cores shared among the computations (:class:`Cores`).

A page asks for its page id (``POST /api/page``, naming the id its browser kept, if
any) and names it in every request after.  Pages are kept in the games database
(:mod:`.store`): one the server has forgotten (restarted, or unused too long) is found
there again and its match rebuilt.  Whatever takes more than a moment -- an advice, a
hint, an analysis, the bots' turns -- runs in a worker thread (:meth:`Page.compute`),
one at a time per page: a second one asked while the first runs is refused
(:class:`Busy`).  The library calls the computation's ``progress(done, total)``; the
page follows it on its event stream, and a cancel makes the next ``progress`` call
raise :class:`Cancelled`, which stops the computation where it is.

The cores: a computation waits its turn (first asked, first served) for at least one
free core, then takes as many of the free ones as it can use, shared evenly with those
still waiting behind it (:meth:`Cores.take`); alone, it has every core, as the commands
do.  At most :data:`MAX_PAGES` pages are kept in memory: the one unused longest is
forgotten for a new one (its match stays in the database)."""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any, Callable

import anyio
import anyio.to_thread

from ..errors import CuatrolaError
from ..i18n import _
from .store import Store

if TYPE_CHECKING:
    from .games import Game

__all__ = ["Page", "Pages", "Cores", "Busy", "Cancelled", "UnknownPage", "MAX_PAGES"]

#: pages kept in memory at once (each holds at most a table and a computation)
MAX_PAGES = 64

Progress = Callable[[int, int], None]


class Busy(CuatrolaError):
    """A computation asked for while the page's last one still runs."""


class Cancelled(Exception):
    """The page cancelled its computation (raised from its ``progress``)."""


class UnknownPage(CuatrolaError):
    """A page id the server does not know (never given, or its database removed)."""


class _Waiter:
    __slots__ = ("wanted", "granted", "event")

    def __init__(self, wanted: int) -> None:
        self.wanted, self.granted, self.event = wanted, 0, anyio.Event()


class Cores:
    """``total`` cores shared by the computations: first asked, first served; a
    computation gets at least one core, and of the free ones as many as it can use
    (``wanted``) up to an even share with the computations waiting behind it."""

    def __init__(self, total: int | None = None) -> None:
        self.total = max(1, total or os.cpu_count() or 1)
        self.free = self.total
        self._queue: deque[_Waiter] = deque()

    async def take(self, wanted: int) -> int:
        """Wait for cores; returns how many were taken (give them back with :meth:`give`)."""
        waiter = _Waiter(max(1, wanted))
        self._queue.append(waiter)
        self._grant()
        try:
            await waiter.event.wait()
        except BaseException:                   # cancelled while waiting
            if waiter in self._queue:
                self._queue.remove(waiter)
            else:
                self.give(waiter.granted)
            raise
        return waiter.granted

    def give(self, n: int) -> None:
        self.free += n
        self._grant()

    def _grant(self) -> None:
        while self._queue and self.free > 0:
            waiter = self._queue.popleft()
            share = self.free // (1 + len(self._queue))
            waiter.granted = max(1, min(waiter.wanted, share))
            self.free -= waiter.granted
            waiter.event.set()


class Page:
    """One page: its match (:mod:`.games`, loaded from the database on first use) and its
    computation."""

    def __init__(self, page_id: str) -> None:
        self.id = page_id
        self.game: Game | None = None
        #: whether :attr:`game` was looked for in the database (it is, once per page)
        self.loaded = False
        self.used = time.monotonic()
        self.running: str | None = None      # what is being computed
        self.progress: tuple[int, int] = (0, 0)
        self.version = 0                     # bumped at each change the stream says
        self._cancel = threading.Event()
        self._lock = threading.Lock()

    def status(self) -> dict[str, Any]:
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

    async def compute(self, what: str, work: Callable[[Progress, int], Any], cores: Cores,
                      wanted: int = 1) -> Any:
        """Run ``work(progress, workers)`` in a worker thread on ``workers`` cores taken
        from ``cores`` (at most ``wanted``) and return its answer; :class:`Busy` when a
        computation already runs, :class:`Cancelled` when cancelled."""
        if not self._lock.acquire(blocking=False):
            raise Busy(f"{self.running or 'a computation'} is still running on this page: "
                       f"wait for it or cancel it")
        try:
            self.running, self.progress = what, (0, 0)
            self._cancel.clear()
            self.version += 1
            workers = await cores.take(wanted)
            try:
                return await anyio.to_thread.run_sync(
                    lambda: work(self._progress, workers))
            finally:
                cores.give(workers)
        finally:
            self.running = None
            self.version += 1
            self._lock.release()


class Pages:
    """The pages the server keeps in memory, the unused longest forgotten first; every
    page is also in ``store``."""

    def __init__(self, store: Store, most: int = MAX_PAGES) -> None:
        self.store, self.most = store, most
        self._pages: OrderedDict[str, Page] = OrderedDict()

    def _keep(self, page: Page) -> Page:
        while len(self._pages) >= self.most:
            idle = next((k for k, p in self._pages.items() if p.running is None), None)
            if idle is None:
                raise Busy(f"the server has {self.most} pages computing: try again in a "
                           f"moment")
            del self._pages[idle]
        self._pages[page.id] = page
        return page

    def new(self) -> Page:
        page = self._keep(Page(secrets.token_urlsafe(16)))
        self.store.add_page(page.id)
        return page

    def find(self, page_id: str) -> Page | None:
        """The page of that id, in memory or in the database; None when unknown."""
        page = self._pages.get(page_id)
        if page is None:
            if not self.store.has_page(page_id):
                return None
            page = self._keep(Page(page_id))
        self._pages.move_to_end(page.id)
        page.used = time.monotonic()
        return page

    def get(self, page_id: str) -> Page:
        page = self.find(page_id)
        if page is None:
            raise UnknownPage(_("this page is not known to the server (its games database "
                                "was removed): reload the page"))
        return page
