"""A game that survives a ``kill -9``: ``cuatrola serve`` run as a process on a free port
with a temporary ``--records``, a few decisions played over HTTP, the process killed
with SIGKILL and the same command run again: the page's match is back at the same
decision with the same cards.  Then the same in headless Chromium (Playwright, as
tests/test_serve_browser.py): a reload, a takeback, and a kill -9 with the page
reloaded.  The time from the kill to the page's state being back is printed (pytest
-s), as docs/serve.md reports it."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx
import pytest

#: the server's deals, so the match is the same on every run
SEED = 1
#: the longest a start or a computation is waited for (seconds)
WAIT = 120

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("CUATROLA_REQUIRE_CHROMIUM", "") not in ("", "0")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as s:
        return s.getsockname()[1]


@contextmanager
def serving(records: Path, port: int) -> Iterator[subprocess.Popen]:
    """``cuatrola serve --records RECORDS --port PORT --seed 1`` as a process, once it
    answers; killed (SIGKILL) when the block ends, if still running."""
    proc = subprocess.Popen([sys.executable, "-c", "from cuatrola_cli.main import main; main()",
                             "serve", "--records", str(records), "--port", str(port),
                             "--seed", str(SEED)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        while line and "open http" not in line:
            line = proc.stdout.readline() if proc.stdout else ""
        assert f"open http://127.0.0.1:{port}/" in line, (line, proc.stderr and proc.stderr.read())
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for f in (proc.stdout, proc.stderr):
            if f:
                f.close()


def _post(url: str, path: str, **body) -> dict:
    r = httpx.post(url + path, json=body, headers={"Origin": url.rstrip("/")}, timeout=WAIT)
    assert r.status_code == 200, r.text
    return r.json()


def _choice(state: dict) -> str:
    turn = state["turn"]
    return "no" if turn["kind"] == "cante" else turn["legal"][0]


def test_a_kill_9_then_the_same_command_gives_back_the_same_decision(tmp_path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    with serving(tmp_path, port) as proc:
        page = _post(url, "api/page")["page"]
        state = _post(url, "api/play/new", page=page, seat=1)
        for _ in range(3):
            state = _post(url, "api/play/answer", page=page, choice=_choice(state),
                          version=state["version"])
        killed = time.monotonic()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    with serving(tmp_path, port):
        started = time.monotonic()
        back = _post(url, "api/page", page=page)
        took = time.monotonic()
    print(f"\nkill -9 to the page's state back: {took - killed:.2f} s (the server's start "
          f"{started - killed:.2f} s, the match rebuilt and sent {took - started:.2f} s)")
    assert back["resumed"] and back["page"] == page
    game = back["game"]
    assert (game["cards"], game["turn"], game["log"], game["version"]) == \
        (state["cards"], state["turn"], state["log"], state["version"])
    assert {k: v for k, v in game.items()} == {k: v for k, v in state.items() if k != "refused"}


# --- in the browser ---------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


def _drawn(page) -> dict:
    """The table's state the page last drew (session.js keeps it; app.js adds the
    answer's ``_status``)."""
    state = page.evaluate("window.CuatrolaSession.state")
    return state and {k: v for k, v in state.items() if k not in ("_status", "refused")}


def _after(page, click, path: str) -> dict:
    """Click, wait for the server's answer to ``path`` and the table drawn with it."""
    before = (_drawn(page) or {}).get("version")
    with page.expect_response(f"**/api/play/{path}", timeout=WAIT * 1000):
        click()
    page.wait_for_function(f"window.CuatrolaSession.state && "
                           f"window.CuatrolaSession.state.version !== {before or 'null'}",
                           timeout=WAIT * 1000)
    return _drawn(page)


def _hand(page) -> list[str]:
    return page.eval_on_selector_all("#play-hand [data-card]",
                                     "cs => cs.map(c => c.dataset.card)")


@pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                    reason="chromium is not installed (.ci/run installs it)")
def test_a_reload_and_a_kill_9_bring_the_page_back_to_its_decision(page, tmp_path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    with serving(tmp_path, port) as proc:
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        state = _after(page, lambda: page.click("#play-new"), "new")
        for _ in range(2):
            choice = _choice(state)
            target = (page.locator(f"#play-hand [data-card='{choice}']")
                      if state["turn"]["kind"] == "card" else
                      page.locator("#play-choices button").first)
            state = _after(page, target.click, "answer")
        # a takeback, then the same decision made again
        assert page.is_enabled("#play-takeback")
        back = _after(page, lambda: page.click("#play-takeback"), "takeback")
        assert back["takebacks"] == 1 and back["version"] == state["version"] + 1
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("window.CuatrolaSession.state !== null")
        assert _drawn(page) == back and _hand(page) == back["cards"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    with serving(tmp_path, port):
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("window.CuatrolaSession.state !== null")
        assert _drawn(page) == back and _hand(page) == back["cards"]
        assert re.search(r"\w", page.inner_text("#play-prompt"))
