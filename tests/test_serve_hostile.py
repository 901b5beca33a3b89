"""Hostile requests to ``cuatrola serve`` (docs/serve.md, "Limits"): bodies nested deep or
too big, fields of the wrong type, unknown page ids, moves on a finished game, on a
stale state or from two tabs at once.  Each gets a 4xx with a one-line message, never
a 500, and the saved game is intact after them all (the server restarted on the same
records folder gives it back at the same decision)."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

from cuatrola_solver.web.app import MAX_BODY

from serve_helpers import origin, served

PAGED = ("api/cancel", "api/advise", "api/play/new", "api/play/answer", "api/play/next",
         "api/play/takeback", "api/play/hint", "api/analyze", "api/puzzles")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A server with a page whose match has two decisions made; yields its URL, the page,
    its state and the records folder.  After the module, the server is started again and
    the page must be at the same decision."""
    records = tmp_path_factory.mktemp("records")
    with served(records, bots="heuristic", seed=3) as url:
        page = _post(url, "api/page").json()["page"]
        state = _post(url, "api/play/new", page=page, seat=1).json()
        for _ in range(2):
            state = _post(url, "api/play/answer", page=page, choice=_choice(state),
                          version=state["version"]).json()
        yield url, page, state, records
        now = _post(url, "api/page", page=page).json()["game"]
    with served(records, bots="heuristic", seed=3) as url:
        again = _post(url, "api/page", page=page).json()["game"]
    assert again == now


def _post(url: str, path: str, **body) -> httpx.Response:
    return httpx.post(url + path, json=body, headers=origin(url), timeout=120)


def _raw(url: str, path: str, content: bytes, **headers) -> httpx.Response:
    return httpx.post(url + path, content=content, headers={**origin(url), **headers},
                      timeout=120)


def _choice(state: dict) -> str:
    turn = state["turn"]
    return "no" if turn["kind"] == "cante" else turn["legal"][0]


def _one_line_4xx(r: httpx.Response, status: int | None = None, words: str = "") -> str:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if status is not None:
        assert r.status_code == status, (r.status_code, r.text[:300])
    data = r.json()
    message = data.get("error") or "; ".join(data["errors"].values())
    assert "\n" not in message and "Traceback" not in message and words in message, message
    return message


def test_a_body_nested_60000_deep_is_a_400(game):
    url, page, _, _ = game
    deep = b'{"page": ' + b"[" * 60_000 + b"]" * 60_000 + b"}"
    assert len(deep) <= MAX_BODY
    for path in ("api/page", *PAGED):
        _one_line_4xx(_raw(url, path, deep), 400, "nested too deep")


def test_bodies_too_big_are_400_with_or_without_a_length(game):
    url, page, _, _ = game
    big = json.dumps({"page": page, "x": "a" * (MAX_BODY + 1)}).encode()
    _one_line_4xx(_raw(url, "api/play/answer", big), 400, "more than 128 KB")

    def chunks():
        yield b'{"x": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"a" * 1000
        yield b'"}'
    r = httpx.post(url + "api/play/answer", content=chunks(), headers=origin(url))
    _one_line_4xx(r, 400, "more than 128 KB")


@pytest.mark.parametrize("field, values", [
    ("page", [3, 1.5, True, [], {}, "x" * 65, ""]),
    ("version", ["1", 1.5, True, -1, [], {}]),
    ("choice", [3, None, True, [], {}, "x" * 21, "Zz", "\u0000"]),
    ("seat", ["x", 0, 5, True, [], {}, 1.5]),
    ("name", [3, [], {}, "../x.txt", "a" * 200]),
    ("record", ["", "not a record", "[Muestra \"Zz\"]"]),
])
def test_a_field_of_the_wrong_type_or_value_is_one_line(game, field, values):
    url, page, state, _ = game
    path = {"page": "api/play/hint", "version": "api/play/answer", "choice": "api/play/answer",
            "seat": "api/play/new", "name": "api/analyze", "record": "api/analyze"}[field]
    for value in values:
        body = {"page": page, "choice": "zz", "version": state["version"], field: value}
        if field == "version":
            body["choice"] = _choice(state)
        r = _post(url, path, **body)
        if field == "choice" and r.status_code == 200:      # a wrong choice is refused
            assert r.json()["refused"] and r.json()["version"] == state["version"]
            continue
        _one_line_4xx(r)
        if field in ("version", "choice"):          # the game has not moved
            assert _post(url, "api/page", page=page).json()["game"]["version"] == \
                state["version"]


def test_an_unknown_page_is_410_on_every_endpoint(game):
    url, _, _, _ = game
    for path in PAGED:
        _one_line_4xx(_post(url, path, page="never-given"), 410, "reload the page")
    _one_line_4xx(httpx.get(url + "api/events", params={"page": "never-given"}), 410)
    _one_line_4xx(httpx.get(url + "api/events"), 410)


def test_a_page_without_a_game_is_told_to_start_one(game):
    url, _, _, _ = game
    page = _post(url, "api/page").json()["page"]
    for path in ("api/play/answer", "api/play/next", "api/play/takeback", "api/play/hint"):
        _one_line_4xx(_post(url, path, page=page, choice="paso"), 409, "start one")


def test_moves_in_the_wrong_phase_are_409_with_the_state(game):
    url, page, state, _ = game
    r = _post(url, "api/play/next", page=page, version=state["version"])
    _one_line_4xx(r, 409, "not over")
    assert r.json()["state"]["version"] == state["version"]


def test_two_tabs_moving_at_once_one_wins_the_other_is_refused(tmp_path):
    with served(tmp_path, bots="heuristic", seed=8) as url:
        page = _post(url, "api/page").json()["page"]
        state = _post(url, "api/play/new", page=page, seat=1).json()
        answers: list[httpx.Response] = []

        def move() -> None:
            answers.append(_post(url, "api/play/answer", page=page, choice=_choice(state),
                                 version=state["version"]))
        tabs = [threading.Thread(target=move) for _ in range(4)]
        for t in tabs:
            t.start()
        for t in tabs:
            t.join()
        codes = sorted(r.status_code for r in answers)
        assert codes.count(200) == 1 and set(codes) == {200, 409}, codes
        for r in answers:
            if r.status_code == 409:
                _one_line_4xx(r, 409)
        now = _post(url, "api/page", page=page).json()["game"]
        assert now["version"] == state["version"] + 1


def test_a_finished_match_refuses_every_move(tmp_path):
    with served(tmp_path, bots="heuristic", seed=1) as url:
        page = _post(url, "api/page").json()["page"]
        state = _post(url, "api/play/new", page=page, seat=1).json()
        for _ in range(400):
            if "result" in state:
                if state["match"]["over"]:
                    break
                state = _post(url, "api/play/next", page=page, version=state["version"]).json()
            else:
                state = _post(url, "api/play/answer", page=page, choice=_choice(state),
                              version=state["version"]).json()
        assert state["match"]["over"]
        _one_line_4xx(_post(url, "api/play/next", page=page, version=state["version"]),
                      409, "the match is over")
        _one_line_4xx(_post(url, "api/play/answer", page=page, choice="paso",
                            version=state["version"]), 409, "the match is over")
        _one_line_4xx(_post(url, "api/play/takeback", page=page, version=state["version"]),
                      409, "nothing to take back")
        _one_line_4xx(_post(url, "api/play/hint", page=page), 400, "no decision is awaited")


def test_a_page_reloaded_while_it_computes_waits_for_the_computation(tmp_path):
    with served(tmp_path, bots="heuristic", seed=8) as url:
        page = _post(url, "api/page").json()["page"]
        state = _post(url, "api/play/new", page=page, seat=1).json()
        slow = {"page": page, "hand": "Ac 3c Ro Co So", "muestra": "So", "seat": "4",
                "exact": True}
        answers: dict[str, httpx.Response] = {}
        worker = threading.Thread(target=lambda: answers.update(
            advice=_post(url, "api/advise", **slow)))
        worker.start()
        time.sleep(0.3)
        reload = threading.Thread(target=lambda: answers.update(
            page=_post(url, "api/page", page=page)))
        reload.start()
        time.sleep(0.3)
        assert "page" not in answers               # it waits: no 409
        _post(url, "api/cancel", page=page)
        worker.join(60)
        reload.join(60)
        assert answers["advice"].json() == {"cancelled": True}
        again = answers["page"].json()
        assert answers["page"].status_code == 200 and again["game"]["version"] == \
            state["version"] and again["page"] == page
