"""The Anotar endpoints of ``cuatrola serve`` without a browser: the state of the entries
sent, a refused entry's one-line 400, hostile bodies (wrong types, too many entries,
another origin) each a 4xx, never a 500; the record saved atomically into the folder."""

from __future__ import annotations

import httpx
import pytest

from cuatrola_solver.notation.record import read_text

from serve_helpers import origin, served
from test_hand_entry import UNSEEN

ENTRIES = ["Ab", "paso", "paso", "paso", "paso", "Sc", "Sb", "Rc", "3c", "cante 2 oros",
           "Ro", "Se", "So", "Ao", "Ac", "Rb", "3e", "Ab", "Ce", "Ae", "3b", "Re", "Co", "3o",
           "Cb", "Cc"]
HANDS = [None, "Co Ro Sb Rb 3b", None, None]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    records = tmp_path_factory.mktemp("records")
    with served(records) as url:
        yield url, records


def post(url: str, path: str, headers: dict | None = None, **body) -> httpx.Response:
    return httpx.post(url + path, json=body, headers=origin(url) if headers is None else headers,
                      timeout=60)


def test_the_state_of_the_entries_and_the_record_saved(server):
    url, records = server
    d = post(url, "api/anotar/state", rules="online", hands=HANDS, entries=ENTRIES[:-1],
             entry="Cc").json()
    assert d["stage"] == "over" and d["record"] == UNSEEN
    assert [m["obligation"] for m in d["marks"]] == ["asistir"]
    assert d["new_marks"] == []                     # it was made known by 3o, not Cc
    before = post(url, "api/anotar/state", rules="online", hands=HANDS,
                  entries=ENTRIES[:-3], entry="3o").json()
    assert [m["trick"] for m in before["new_marks"]] == [2]
    assert before["result"]["ended_by"] == "renuncio"
    saved = post(url, "api/anotar/save", rules="online", hands=HANDS, entries=ENTRIES).json()
    assert read_text((records / saved["name"]).read_text()) == read_text(UNSEEN)
    assert not [p for p in records.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("body, needle", [
    ({"entries": ["Ab", "paso", "paso", "paso", "paso"], "entry": "Ab"},
     "the muestra, which the dealer keeps"),
    ({"entries": ["Ab", "paso", "Sc"]}, "entry 3 ('Sc')"),
    ({"entries": "Ab"}, "bad entries"),
    ({"entries": ["Ab"] * 65}, "at most 64 entries"),
    ({"hands": ["Co"]}, "bad hands"),
    ({"hands": ["Co Ro Sb Rb 3b", "Co Ro Sb Rb 3b", None, None]}, "dealt twice"),
    ({"players": [1, 2, 3, 4]}, "bad players"),
    ({"rules": "nope"}, "nope"),
    ({"entry": ["Ab"]}, "bad entry"),
])
def test_bad_bodies_get_a_one_line_400(server, body, needle):
    url, _ = server
    r = post(url, "api/anotar/state", **body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert needle in error and "\n" not in error


def test_another_origin_is_refused(server):
    url, _ = server
    r = post(url, "api/anotar/save", headers={"Origin": "http://evil.example"},
             entries=ENTRIES, hands=HANDS)
    assert r.status_code == 400 and "another origin" in r.json()["error"]
    assert httpx.get(url + "anotar").status_code == 200
