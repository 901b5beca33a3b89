"""What the tests of ``cuatrola serve`` share: a server on loopback in a thread, its
records folder, and the headers of the page's own requests."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path

from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.web.app import make_app
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import running

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BLUNDER = EXAMPLES / "analysis" / "online-blunder.txt"


@contextmanager
def served(records: Path, rules: str = "online", bots: str = "best",
           seed: int | None = None):
    """A server on 127.0.0.1 (a free port) with ``records`` (one example record copied
    in); yields its URL."""
    records.mkdir(parents=True, exist_ok=True)
    shutil.copy(BLUNDER, records / BLUNDER.name)
    app = make_app(get_rules(rules), RecordsFolder(records), bots=bots, seed=seed)
    with running(app) as url:
        yield url


def origin(url: str) -> dict:
    """The headers of a request from the server's own page."""
    return {"Origin": url.rstrip("/")}
