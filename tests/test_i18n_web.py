"""The page's language (docs/i18n.md): its messages served from the catalogs, each request
answered in the page's language, and in Chromium the page in Spanish for a Spanish
browser, with a switch that is remembered."""

from __future__ import annotations

import os
import shutil
import threading

import httpx
import pytest

from serve_helpers import origin, served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("CUATROLA_REQUIRE_CHROMIUM", "") not in ("", "0")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                                    reason="chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with served(tmp_path_factory.mktemp("records"), seed=1) as url:
        yield url


def test_the_page_messages_in_spanish(server):
    r = httpx.get(server + "api/messages", params={"lang": "es"})
    assert r.status_code == 200 and r.json()["language"] == "es"
    messages = r.json()["messages"]
    assert messages["Next hand"] == "Siguiente mano"
    assert messages["{n} baza"] == ["{n} baza", "{n} bazas"]
    assert all(messages.values())
    # only the page's own messages: none of the command line's
    assert "Machine output on stdout (schema 1)." not in messages
    english = httpx.get(server + "api/messages", params={"lang": "en"}).json()
    assert english == {"language": "en", "messages": {}}


def test_the_language_of_a_request_without_lang(server):
    spanish = httpx.get(server + "api/messages", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert spanish.json()["language"] == "es"
    # the page's switch (its cookie) wins over the browser's language
    chosen = httpx.get(server + "api/messages", headers={"Accept-Language": "es-ES",
                                                         "Cookie": "cuatrola_lang=en"})
    assert chosen.json()["language"] == "en"


def test_the_server_answers_in_the_page_language(server):
    page = httpx.post(server + "api/page", json={}, headers=origin(server)).json()["page"]
    body = {"page": page, "hand": "Ac 3c Ro Co Xo", "muestra": "So", "seat": "2"}
    for language, word in (("es-ES", "no válida"), ("en-US", "bad card")):
        r = httpx.post(server + "api/advise", json=body,
                       headers={**origin(server), "Accept-Language": language})
        assert r.status_code == 400
        assert word in r.text, r.text


@needs_chromium
def test_the_page_in_spanish_and_the_switch_remembered(server):
    """Run in a thread of its own: Playwright's sync API leaves an asyncio loop behind
    in the thread it ran in, which a later ``anyio.run`` of another test would meet."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            _page_in_spanish(server)
        except BaseException as e:      # handed to the test's own thread
            failed.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


def _page_in_spanish(server: str) -> None:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(locale="es-ES")
            page = context.new_page()
            page.goto(server)
            page.wait_for_selector("body[data-ready='1']")
            assert page.evaluate("document.documentElement.lang") == "es"
            assert page.evaluate("t('Next hand')") == "Siguiente mano"
            assert page.evaluate("tn('{n} baza', '{n} bazas', 3)") == "3 bazas"
            assert page.evaluate("formatPercent(0.7)") == "70\u00a0%"
            shown = page.evaluate("[...document.querySelectorAll('[data-t]')]"
                                  ".map(e => [e.getAttribute('data-t'), e.textContent])")
            messages = httpx.get(server + "api/messages", params={"lang": "es"}).json()["messages"]
            assert shown and all(text == messages.get(key, key) for key, text in shown)
            # the switch: English, remembered across visits, then Spanish again
            with page.expect_navigation():          # the switch reloads the page
                page.evaluate("setLanguage('en')")
            page.wait_for_selector("body[data-ready='1']")
            page.goto(server)
            page.wait_for_selector("body[data-ready='1']")
            assert page.evaluate("document.documentElement.lang") == "en"
            assert page.evaluate("t('Next hand')") == "Next hand"
            with page.expect_navigation():
                page.evaluate("setLanguage('es')")
            page.wait_for_selector("body[data-ready='1']")
            page.goto(server)
            page.wait_for_selector("body[data-ready='1']")
            assert page.evaluate("document.documentElement.lang") == "es"
        finally:
            browser.close()
