"""``cuatrola serve`` without a browser: the limits of docs/serve.md (origin, body size,
no change by GET, records by name only, one computation per page, cancel), the records
written atomically, the command's options."""

from __future__ import annotations

import dataclasses
import json
import re
import socket
import threading
import time

import httpx
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app as cli
from cuatrola_solver.web.app import MAX_BODY
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.web.loadtest import main as load_test
from cuatrola_solver.web import records as records_module
from cuatrola_solver.web.records import RecordsFolder

from serve_helpers import BLUNDER, origin, served


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    records = tmp_path_factory.mktemp("records")
    with served(records, bots="heuristic") as url:
        yield url, records


def _page(url: str) -> str:
    return httpx.post(url + "api/page", json={}, headers=origin(url)).json()["page"]


def test_a_write_from_another_origin_or_none_is_refused(server):
    url, _ = server
    for headers in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"}):
        r = httpx.post(url + "api/page", json={}, headers=headers)
        assert r.status_code == 400 and r.json()["error"].startswith("refused: a change asked "
                                                                     "from another origin")


def test_a_host_that_is_not_this_machine_is_refused(server):
    url, _ = server
    r = httpx.get(url, headers={"Host": "rebound.example:8765"})
    assert r.status_code == 400


def test_bodies_are_bounded_and_json_objects(server):
    url, _ = server
    big = b'{"x": "' + b"a" * (MAX_BODY + 10) + b'"}'
    r = httpx.post(url + "api/page", content=big, headers=origin(url))
    assert r.status_code == 400 and "more than 128 KB" in r.json()["error"]
    for body in (b"[1]", b"nope"):
        r = httpx.post(url + "api/page", content=body, headers=origin(url))
        assert r.status_code == 400 and r.json()["error"].startswith("refused: the request body")


def test_no_get_changes_anything(server):
    url, _ = server
    for path in ("api/page", "api/advise", "api/play/new", "api/cancel"):
        assert httpx.get(url + path).status_code == 405


def test_an_unknown_page_is_told_to_reload(server):
    url, _ = server
    r = httpx.post(url + "api/advise", json={"page": "nope"}, headers=origin(url))
    assert r.status_code == 410 and "reload the page" in r.json()["error"]


def test_records_are_read_by_name_only(server):
    url, records = server
    page = _page(url)
    for name in ("../../etc/passwd", "/etc/passwd", "..", "a/b.txt", "x.py", 3):
        r = httpx.post(url + "api/analyze", json={"page": page, "name": name},
                       headers=origin(url))
        assert r.status_code == 400 and "bad record name" in r.json()["error"], name
    r = httpx.post(url + "api/analyze", json={"page": page, "name": "missing.txt"},
                   headers=origin(url))
    assert r.json()["error"] == "no record 'missing.txt' in the records folder"
    assert BLUNDER.name in httpx.get(url + "api/records").json()["records"]


def test_the_advise_form_says_each_bad_field_as_the_command_does(server):
    url, _ = server
    page = _page(url)
    body = {"page": page, "hand": "Ac 3c Ro Co Ab", "muestra": "So", "seat": "2",
            "auction": "paso sol", "score": "3-x"}
    r = httpx.post(url + "api/advise", json=body, headers=origin(url))
    assert r.status_code == 400
    errors = r.json()["errors"]
    runner = CliRunner()
    cli_score = runner.invoke(cli, ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2",
                                    "--score", "3-x"])
    assert cli_score.exit_code == 2
    assert "error: " + errors["score"] == cli_score.stderr.strip()
    del body["score"]
    errors = httpx.post(url + "api/advise", json=body, headers=origin(url)).json()["errors"]
    cli_calls = runner.invoke(cli, ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2",
                                    "--auction", "paso sol"])
    assert "error: " + errors["auction"] == cli_calls.stderr.strip()


def test_one_computation_per_page_and_a_cancel_stops_it(server):
    url, _ = server
    page = _page(url)
    body = {"page": page, "hand": "Ac 3c Ro Co So", "muestra": "So", "seat": "4",
            "exact": True}
    answers = {}

    def exact():
        answers["exact"] = httpx.post(url + "api/advise", json=body, headers=origin(url),
                                      timeout=60)
    worker = threading.Thread(target=exact)
    worker.start()
    time.sleep(0.3)
    # a second computation of the same page is refused while the first runs
    second = httpx.post(url + "api/advise", json={**body, "exact": False},
                        headers=origin(url), timeout=60)
    assert second.status_code == 409 and "still running on this page" in second.json()["error"]
    assert httpx.post(url + "api/cancel", json={"page": page}, headers=origin(url)).json() == \
        {"cancelled": True}
    worker.join(60)
    assert answers["exact"].json() == {"cancelled": True}
    # the page may compute again
    again = httpx.post(url + "api/advise", json={**body, "exact": False, "seed": 1},
                       headers=origin(url), timeout=60)
    assert again.status_code == 200 and again.json()["advice"]["seat"] == 4


def test_the_event_stream_says_the_progress(server):
    url, _ = server
    page = _page(url)
    with httpx.stream("GET", url + "api/events", params={"page": page}, timeout=10) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        first = next(line for line in r.iter_lines() if line.startswith("data: "))
    assert json.loads(first[6:]) == {"running": None, "done": 0, "total": 0}


def test_a_hand_played_is_saved_whole(server):
    url, records = server
    page = _page(url)
    state = httpx.post(url + "api/play/new", json={"page": page, "seat": 3},
                       headers=origin(url), timeout=60).json()
    assert state["seat"] == 3 and state["turn"]["kind"] == "call"
    while "result" not in state:
        turn = state["turn"]
        choice = turn["legal"][0] if turn["kind"] != "cante" else "no"
        state = httpx.post(url + "api/play/answer", json={"page": page, "choice": choice},
                           headers=origin(url), timeout=60).json()
        assert state["refused"] is None
    name = state["records"][0]
    rec = read_record((records / name).read_text())
    assert len(rec.tricks) == 5 or state["result"]["ended_by"] != "play"
    assert not list(records.glob(".tmp-*"))


def _games(url: str, games: int) -> list[tuple[list[str], str]]:
    """Seat 1's cards and the muestra in each of ``games`` games started on one page."""
    page = _page(url)
    states = [httpx.post(url + "api/play/new", json={"page": page, "seat": 1},
                         headers=origin(url), timeout=60).json() for _ in range(games)]
    return [(st["cards"], st["muestra"]) for st in states]


def test_a_seed_deals_the_same_games_in_turn(tmp_path):
    with served(tmp_path / "a", bots="heuristic", seed=7) as url:
        a = _games(url, 2)
    with served(tmp_path / "b", bots="heuristic", seed=7) as url:
        b = _games(url, 2)
    with served(tmp_path / "c", bots="heuristic", seed=8) as url:
        c = _games(url, 1)
    assert a == b and a[0] != a[1]
    assert c[0] == a[1]                 # the second game of seed 7 is seed 8's first


def test_records_are_written_by_replace(tmp_path, monkeypatch):
    folder = RecordsFolder(tmp_path / "r")
    assert folder.made
    rec = read_record(BLUNDER.read_text())
    folder.save(rec, "a.txt")
    # a write that fails midway leaves the old record and no temporary file
    def broken(*args):
        raise OSError("disk full")
    monkeypatch.setattr(records_module.os, "replace", broken)
    folder.save(rec, "a.txt")           # the same text again: left as it is, not written
    with pytest.raises(OSError):
        folder.save(dataclasses.replace(rec, comment="changed"), "a.txt")
    assert read_record((tmp_path / "r" / "a.txt").read_text()) == rec
    assert [p.name for p in (tmp_path / "r").iterdir()] == ["a.txt"]


def test_serve_refuses_a_records_path_that_is_a_file_and_a_taken_port(tmp_path):
    runner = CliRunner()
    f = tmp_path / "f"
    f.write_text("x")
    r = runner.invoke(cli, ["serve", "--records", str(f), "--port", "0"])
    assert r.exit_code == 2 and "it is a file, not a folder" in r.stderr
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    r = runner.invoke(cli, ["serve", "--records", str(tmp_path / "r"), "--port", str(port)])
    taken.close()
    assert r.exit_code == 2 and r.stderr.startswith(f"error: cannot serve on 127.0.0.1:{port}")


def test_the_load_test_plays_its_pages_without_error(capsys):
    assert load_test(["--pages", "2", "--hands", "1", "--bots", "heuristic", "--seconds", "300"]) == 0
    out = capsys.readouterr().out
    assert "2 hands played" in out and ", 0 errors" in out
    assert re.search(r"hint +\d+ requests +p50 +\d+ ms +p95 +\d+ ms", out)
