"""The server's computations that share a card's reviews among processes (an analysis)
start them safely in a process that runs threads: after a hint (the solver's threads,
the server's own), an analysis of a saved hand still answers.  A plain fork there copies
only the calling thread, and a lock another thread held stays taken in the child for
ever: the analysis hung, the page waited, and the stuck child kept the server's port."""

from __future__ import annotations

import httpx

from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.web.app import make_app
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import running

from serve_helpers import BLUNDER, origin


def test_an_analysis_after_a_hint_answers(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    (records / BLUNDER.name).write_text(BLUNDER.read_text())
    app = make_app(get_rules("online"), RecordsFolder(records), seed=1, cores=2,
                   history=tmp_path / "history.sqlite3")
    with running(app) as url:
        def post(path: str, **body) -> httpx.Response:
            return httpx.post(url + path, json=body, headers=origin(url), timeout=60)
        page = post("api/page").json()["page"]
        assert "turn" in post("api/play/new", page=page, seat=1).json()
        assert post("api/play/hint", page=page).status_code == 200
        for _ in range(6):
            r = post("api/analyze", page=page, name=BLUNDER.name)
            assert r.status_code == 200 and "html" in r.json(), r.text[:300]
