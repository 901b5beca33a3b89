"""The history in ``cuatrola serve``: a hand played at the table is kept in the history
with the person at the table as "you"; the "Mis partidas" page and its API."""

from __future__ import annotations

import json

import httpx
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app as cli
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.history.database import open_database
from cuatrola_solver.history.figures import figures
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.web.app import make_app
from cuatrola_solver.web.history import feeder
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import running

from serve_helpers import BLUNDER, origin


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    db = tmp_path_factory.mktemp("web-history") / "history.sqlite3"
    app = make_app(get_rules("online"), RecordsFolder(folder), bots="heuristic", seed=3,
                   history=db)
    with running(app) as url:
        yield url, folder, db


def test_a_hand_played_at_the_table_is_kept_with_you_at_your_seat(served):
    url, folder, db = served
    page = httpx.post(url + "api/page", json={}, headers=origin(url), timeout=60).json()["page"]
    state = httpx.post(url + "api/play/new", json={"page": page, "seat": 2},
                       headers=origin(url), timeout=60).json()
    while "result" not in state:
        turn = state["turn"]
        choice = turn["legal"][0] if turn["kind"] != "cante" else "no"
        state = httpx.post(url + "api/play/answer", json={"page": page, "choice": choice},
                           headers=origin(url), timeout=60).json()
    name = state["records"][0]
    with open_database(db) as h:
        rows = h.query("SELECT h.record, s.seat FROM hands h JOIN seats s ON s.hand_id = h.id "
                       "WHERE s.player = 'you'")
        assert [seat for _, seat in rows] == [2]
        assert read_record(rows[0][0]) == read_record((folder / name).read_text())
        you = figures(h).players[0]
    assert (you.name, you.hands, you.analysed) == ("you", 1, 0)

    r = httpx.get(url + "api/history", timeout=60)
    assert r.status_code == 200
    obj = r.json()
    assert obj["schema"] == 1 and obj["waiting"] == 1 and obj["database"] == str(db)
    assert [p["name"] for p in obj["players"]] == ["you"]
    hand = httpx.get(url + "api/history/hand?id=1", timeout=60).json()
    assert read_record(hand["record"]) == read_record((folder / name).read_text())
    page_html = httpx.get(url + "history", timeout=60)
    assert page_html.status_code == 200 and "/static/history.js" in page_html.text
    assert httpx.get(url + "static/history.js", timeout=60).status_code == 200


@pytest.mark.parametrize("query, said", [
    ("api/history?since=yesterday", "bad date 'yesterday'"),
    ("api/history/hand?id=x", "bad hand id 'x'"),
    ("api/history/hand?id=999", "no hand 999"),
    ("api/history/puzzles?id=x", "bad hand id 'x'"),
    ("api/history/puzzles?id=-1", "bad hand id '-1'"),
    ("api/history/puzzles?id=999", "no hand 999"),
    ("api/history/puzzles", "bad hand id ''"),
])
def test_bad_requests_get_one_line(served, query, said):
    url, _, _ = served
    r = httpx.get(url + query, timeout=60)
    assert r.status_code == 400 and said in r.json()["error"]


def test_a_history_that_cannot_be_written_never_stops_the_table(tmp_path, capsys):
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database " * 100)
    folder = RecordsFolder(tmp_path / "records")
    folder.on_save = feeder(bad)
    rec = read_record(BLUNDER.read_text())
    assert folder.save(rec, "hand.txt", 1) == "hand.txt"
    err = capsys.readouterr().err
    assert "was not kept" in err and "cuatrola history rebuild" in err


@pytest.fixture(scope="module")
def blunder_history(tmp_path_factory):
    """A server whose history holds one hand, the example with a blunder (a puzzle)."""
    folder = tmp_path_factory.mktemp("blunder-history")
    db = folder / "history.sqlite3"
    r = CliRunner().invoke(cli, ["history", "import", str(BLUNDER), "--no-analyze", "--db", str(db)])
    assert r.exit_code == 0, r.output
    app = make_app(get_rules("online"), RecordsFolder(folder / "records"), history=db)
    with running(app) as url:
        yield url, folder


def test_a_hands_puzzles_are_those_of_cuatrola_puzzles(blunder_history):
    url, folder = blunder_history
    r = httpx.get(url + "api/history/puzzles?id=1", timeout=120)
    assert r.status_code == 200
    got = r.json()
    page, out = folder / "puzzles.html", folder / "puzzles.json"
    c = CliRunner().invoke(cli, ["puzzles", str(BLUNDER), "--html", str(page), "--out", str(out)])
    assert c.exit_code == 0, c.output
    wanted = json.loads(out.read_text())["puzzles"]
    assert got["id"] == 1 and got["count"] == len(wanted) >= 1
    assert got["html"] == page.read_text()
    # seeded: the same every time
    assert httpx.get(url + "api/history/puzzles?id=1", timeout=120).json() == got


def test_no_history_no_puzzles(tmp_path):
    app = make_app(get_rules("online"), RecordsFolder(tmp_path / "records"), history=None)
    with running(app) as url:
        r = httpx.get(url + "api/history/puzzles?id=1", timeout=60)
    assert r.status_code == 400 and "keeps no history" in r.json()["error"]
