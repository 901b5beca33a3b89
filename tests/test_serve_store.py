"""A game that survives (docs/serve.md, "A game that survives"): the games database
(web/store.py), a page's match rebuilt at the same decision after a restart, the
takeback and its count in the record, two tabs on one page, and the cores shared by
the computations (web/pages.py) without changing any answer."""

from __future__ import annotations

import sqlite3
import threading

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app as cli

from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.web.app import make_app
from cuatrola_solver.web.games import Game
from cuatrola_solver.web.pages import Cancelled, Cores, Page
from cuatrola_solver.web.play import PlayTable
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import running
from cuatrola_solver.web import store as store_module
from cuatrola_solver.web.store import DB_NAME, MIGRATIONS, Store, StoreError

from serve_helpers import origin, served

#: what a table's state holds that is the game's bookkeeping, not the table
BOOKKEEPING = ("version", "takebacks", "can_take_back", "refused")


def _post(url: str, path: str, **body) -> httpx.Response:
    return httpx.post(url + path, json=body, headers=origin(url), timeout=120)


def _choice(state: dict) -> str:
    turn = state["turn"]
    return "no" if turn["kind"] == "cante" else turn["legal"][-1]


def _play(url: str, page: str, state: dict, decisions: int) -> dict:
    """``decisions`` of the person's decisions made (the last legal one each time)."""
    for _ in range(decisions):
        r = _post(url, "api/play/answer", page=page, choice=_choice(state),
                  version=state["version"])
        assert r.status_code == 200, r.text
        state = r.json()
        assert state["refused"] is None
    return state


def _table(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in BOOKKEEPING}


def _started(url: str, seat: int = 1) -> tuple[str, dict]:
    page = _post(url, "api/page").json()["page"]
    return page, _post(url, "api/play/new", page=page, seat=seat).json()


# --- the database -----------------------------------------------------------------------

def test_the_database_is_wal_with_its_schema_version_and_foreign_keys(tmp_path):
    store = Store(tmp_path)
    assert store.schema_version == len(MIGRATIONS) == 1
    store.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    db.close()
    store = Store(tmp_path)                  # opened again: nothing to migrate
    store.add_page("p")
    with pytest.raises(sqlite3.IntegrityError):       # a decision needs its hand
        store.decide("p", 0, 0, "paso", 1)
    assert store.game("p") is None


def test_migrations_are_applied_in_order_each_whole_or_not_at_all(tmp_path, monkeypatch):
    Store(tmp_path).close()                                          # version 1
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS,
                        "ALTER TABLE pages ADD COLUMN a INTEGER; CREATE TABLE broken (",))
    with pytest.raises(StoreError):
        Store(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "a" not in [c[1] for c in db.execute("PRAGMA table_info(pages)")]
    db.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", (*MIGRATIONS,
                        "ALTER TABLE pages ADD COLUMN a INTEGER",
                        "UPDATE pages SET a = 2"))
    store = Store(tmp_path)
    assert store.schema_version == 3
    store.add_page("p")


def test_a_database_of_a_newer_cuatrola_or_not_a_database_is_one_line(tmp_path):
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match=r"cannot open the games database .*: schema "
                                         r"version 99 is newer than this cuatrola's 1$"):
        Store(tmp_path)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / DB_NAME).write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot open the games database") as e:
        Store(bad)
    assert "\n" not in str(e.value)


def test_the_count_of_games_survives_a_restart(tmp_path):
    assert [Store(tmp_path).count_game() for _ in range(3)] == [0, 1, 2]


# --- a match rebuilt --------------------------------------------------------------------

def test_a_restarted_server_gives_the_page_its_match_at_the_same_decision(tmp_path):
    with served(tmp_path, bots="heuristic", seed=5) as url:
        page, state = _started(url)
        state = _play(url, page, state, 4)
    with served(tmp_path, bots="heuristic", seed=5) as url:
        again = _post(url, "api/page", page=page).json()
        assert again["page"] == page and again["resumed"]
        assert _table(again["game"]) == _table(state)
        assert again["game"]["version"] == state["version"]
        assert again["game"]["can_take_back"]
        # it plays on from there as it would have
        assert _play(url, page, again["game"], 1)["version"] == state["version"] + 1
        # a new game after the restart deals from the next seed, not the first again
        fresh = _started(url)[1]
    with served(tmp_path / "other", bots="heuristic", seed=6) as url:
        assert _started(url)[1]["cards"] == fresh["cards"]


def test_a_match_rebuilt_after_finished_hands_counts_them_and_their_records(tmp_path):
    with served(tmp_path, bots="heuristic", seed=2) as url:
        page, state = _started(url, seat=2)
        for _ in range(2):
            while "result" not in state:
                state = _play(url, page, state, 1)
            state = _post(url, "api/play/next", page=page, version=state["version"]).json()
        state = _play(url, page, state, 1)
    with served(tmp_path, bots="heuristic", seed=2) as url:
        again = _post(url, "api/page", page=page).json()["game"]
    assert _table(again) == _table(state)
    assert again["hand"] == 3 and len(again["records"]) == 2


def test_an_unknown_page_id_gets_a_new_page(tmp_path):
    with served(tmp_path, bots="heuristic") as url:
        r = _post(url, "api/page", page="never-given").json()
        assert r["page"] != "never-given" and not r["resumed"] and r["game"] is None


# --- takeback ---------------------------------------------------------------------------

def test_takebacks_go_back_decision_by_decision_to_the_start_of_the_hand(tmp_path):
    with served(tmp_path, bots="heuristic", seed=4) as url:
        page, state = _started(url)
        states = [state]
        for _ in range(4):
            states.append(_play(url, page, states[-1], 1))
        now = states[-1]
        for n, before in enumerate(reversed(states[:-1]), 1):
            r = _post(url, "api/play/takeback", page=page, version=now["version"])
            assert r.status_code == 200, r.text
            now = r.json()
            assert _table(now) == _table(before) and now["takebacks"] == n
        assert not now["can_take_back"]
        r = _post(url, "api/play/takeback", page=page, version=now["version"])
        assert r.status_code == 409 and r.json()["error"].startswith("nothing to take back")
        # the hand played to its end is saved with its takebacks
        while "result" not in now:
            now = _play(url, page, now, 1)
        assert not now["can_take_back"]
        r = _post(url, "api/play/takeback", page=page, version=now["version"])
        assert r.status_code == 409 and "its record saved" in r.json()["error"]
    text = (tmp_path / now["records"][0]).read_text()
    assert '[Takebacks "4"]' in text and read_record(text).takebacks == 4


def test_a_hand_played_straight_has_no_takebacks_tag(tmp_path):
    with served(tmp_path, bots="heuristic", seed=4) as url:
        page, state = _started(url)
        while "result" not in state:
            state = _play(url, page, state, 1)
    assert "Takebacks" not in (tmp_path / state["records"][0]).read_text()


# --- two tabs ---------------------------------------------------------------------------

def test_two_tabs_on_one_page_see_one_game_and_a_stale_move_is_refused(tmp_path):
    with served(tmp_path, bots="heuristic", seed=6) as url:
        page, state = _started(url)
        second = _post(url, "api/page", page=page).json()["game"]      # the second tab
        assert second == state
        moved = _play(url, page, state, 1)                          # the first tab moves
        r = _post(url, "api/play/answer", page=page, choice=_choice(second),
                  version=second["version"])
        assert r.status_code == 409 and "old state of the game" in r.json()["error"]
        assert _table(r.json()["state"]) == _table(moved)
        for path in ("api/play/takeback", "api/play/next"):
            r = _post(url, path, page=page, version=second["version"])
            assert r.status_code == 409 and r.json()["state"]["version"] == moved["version"]
        assert _post(url, "api/page", page=page).json()["game"]["version"] == moved["version"]
        # a new game in one tab: a move on the last game's state is stale in the other
        fresh = _post(url, "api/play/new", page=page, seat=2).json()
        assert fresh["version"] == moved["version"] + 1
        r = _post(url, "api/play/answer", page=page, choice=_choice(moved),
                  version=moved["version"])
        assert r.status_code == 409 and r.json()["state"]["seat"] == 2


# --- the cores --------------------------------------------------------------------------

def _run(main):
    """``anyio.run(main)`` in a thread of its own (Playwright's tests, run before in the
    same process, leave an event loop running in this one)."""
    result = []
    thread = threading.Thread(target=lambda: result.append(anyio.run(main)))
    thread.start()
    thread.join(60)
    return result[0]


def test_the_cores_go_first_come_first_served_shared_with_those_waiting():
    async def main() -> list:
        cores = Cores(4)
        taken = [await cores.take(8)]            # alone: every core
        assert cores.free == 0
        got: dict[int, int] = {}

        async def wait(i: int, wanted: int) -> None:
            got[i] = await cores.take(wanted)
        async with anyio.create_task_group() as tg:
            for i, wanted in enumerate((8, 1, 8)):
                tg.start_soon(wait, i, wanted)
                while len(cores._queue) <= i:    # queued in this order
                    await anyio.sleep(0.001)
            cores.give(taken[0])                 # 4 free, 3 waiting: 1, then 1, then 2
        return [got[i] for i in range(3)]
    assert _run(main) == [1, 1, 2]


def test_a_computation_alone_gets_every_core_it_can_use():
    async def main() -> tuple[int, int, int]:
        cores = Cores(3)
        page = Page("p")
        alone = await page.compute("x", lambda progress, workers: workers, cores, wanted=8)
        one = await page.compute("x", lambda progress, workers: workers, cores)
        return alone, one, cores.free
    assert _run(main) == (3, 1, 3)


def test_a_hint_is_the_same_on_one_core_or_many(tmp_path):
    table = PlayTable(get_rules("online"), 1, 9, RecordsFolder(tmp_path), "heuristic")
    table.deal()
    assert table.hint(workers=1) == table.hint(workers=2)


def test_the_advice_is_the_same_on_a_server_of_one_core_or_two(tmp_path):
    answers = []
    for cores in (1, 2):
        app = make_app(get_rules("online"), RecordsFolder(tmp_path / str(cores)), cores=cores)
        with running(app) as url:
            page = _post(url, "api/page").json()["page"]
            answers.append(_post(url, "api/advise", page=page, hand="Ac 3c Ro Co Ab",
                                 muestra="So", seat="2", auction="paso", seed="1").json())
    assert answers[0] == answers[1] and answers[0]["advice"]["seat"] == 2


def test_the_game_replays_its_decisions_exactly(tmp_path):
    store = Store(tmp_path)
    store.add_page("p")
    game = Game.start(store, "p", get_rules("online"), 3, 11, RecordsFolder(tmp_path), "best")
    for _ in range(3):
        turn = game.table.table.turn
        assert turn is not None
        state = game.answer(_choice(game.state()), game.version)
    again = Game.restore(store, "p", RecordsFolder(tmp_path))
    assert again is not None and again.state() == {k: v for k, v in state.items()
                                                   if k != "refused"}


def test_make_app_opens_the_database_of_the_records_folder(tmp_path):
    make_app(get_rules("online"), RecordsFolder(tmp_path))
    assert (tmp_path / DB_NAME).is_file()


def test_serve_with_a_database_that_is_not_one_is_one_line_before_it_listens(tmp_path):
    (tmp_path / DB_NAME).write_bytes(b"garbage" * 1000)
    r = CliRunner().invoke(cli, ["serve", "--records", str(tmp_path), "--port", "0"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("error: cannot open the games database") and \
        r.stderr.count("\n") == 1


def _game(tmp_path, decisions: int) -> tuple[Store, Game]:
    store = Store(tmp_path)
    store.add_page("p")
    game = Game.start(store, "p", get_rules("online"), 1, 4, RecordsFolder(tmp_path),
                      "heuristic")
    for _ in range(decisions):
        game.answer(_choice(game.state()), game.version)
    return store, game


def test_a_takeback_cancelled_while_the_hand_is_replayed_changes_nothing(tmp_path):
    store, game = _game(tmp_path, 3)
    before, saved = game.state(), store.game("p")

    def cancelled(done: int, total: int) -> None:
        raise Cancelled
    with pytest.raises(Cancelled):
        game.take_back(game.version, RecordsFolder(tmp_path), cancelled)
    assert game.state() == before and store.game("p") == saved
    after = game.take_back(game.version, RecordsFolder(tmp_path))
    assert after["takebacks"] == 1 and store.game("p").hands[0].takebacks == 1


def test_a_write_that_fails_leaves_the_page_to_rebuild_from_the_database(tmp_path, monkeypatch):
    with served(tmp_path, bots="heuristic", seed=4) as url:
        page, state = _started(url)
        state = _play(url, page, state, 1)

        def full(*args, **kwargs):
            raise StoreError("cannot write the games database: database or disk is full")
        monkeypatch.setattr(Store, "decide", full)
        r = _post(url, "api/play/answer", page=page, choice=_choice(state),
                  version=state["version"])
        assert r.status_code == 400 and "disk is full" in r.json()["error"]
        monkeypatch.undo()
        again = _post(url, "api/page", page=page).json()["game"]
        assert _table(again) == _table(state) and again["version"] == state["version"]
