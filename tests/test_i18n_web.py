"""The page's language (docs/i18n.md): its messages served from the catalogs, each request
answered in the page's language, and in Chromium the page in Spanish for a Spanish
browser, with a switch that is remembered."""

from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path

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


def in_own_thread(check, *args) -> None:
    """Run ``check(*args)`` in a thread of its own, its failure raised here: Playwright's
    sync API leaves an asyncio loop behind in the thread it ran in, which a later
    ``anyio.run`` of another test would meet."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            check(*args)
        except BaseException as e:      # handed to the test's own thread
            failed.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


@needs_chromium
def test_the_page_in_spanish_and_the_switch_remembered(server):
    in_own_thread(_page_in_spanish, server)


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


#: English words of the pages that no Spanish text of theirs contains (whole words,
#: case kept): the tabs, the forms' labels and buttons, /history's filters, /anotar's
ENGLISH = re.compile(r"\b(Play|Advise|Analyse|Puzzles|Charts|New game|Your seat|Hint|Cancel|"
                     r"Clear|Seat|Seed|Calls so far|Saved game|Find puzzles|Chart|Player|Rules|"
                     r"Since|Show|Back to the table|everyone|Start|Undo|Save|seat|the|and|"
                     r"you|your|of|with|none|this|server|keeps|first|speak|cell|call|played)\b")
PAGES = ("", "history", "anotar")
PHONE = {"width": 390, "height": 844}


def _ready(page, path: str) -> None:
    if path == "history":
        page.wait_for_selector("#history-summary:not(:empty), #history-error:not(:empty)")
    else:
        page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#lang-switch")


def _visible_text(page, path: str, shots: Path) -> str:
    """The page's text as shown, and on / that of every tab opened in turn."""
    texts = [page.evaluate("document.body.innerText")]
    if path == "":
        for tab in page.locator("nav button[data-tab]").all():
            tab.click()
            page.wait_for_load_state("networkidle")
            if tab.get_attribute("data-tab") == "charts":      # its text comes with the chart
                page.wait_for_selector("#ch-table")
            texts.append(page.evaluate("document.body.innerText"))
            page.screenshot(path=str(shots / f"es-tab-{tab.get_attribute('data-tab')}.png"))
        # an advice: its heading, its line and its table
        page.locator("nav button[data-tab='advise']").click()
        page.fill("#adv-hand", "Ac 3c Ro Co Ab")
        page.fill("#adv-muestra", "So")
        page.locator("#adv-go").click()
        page.wait_for_selector("#adv-table", timeout=120_000)
        texts.append(page.evaluate("document.body.innerText"))
        page.screenshot(path=str(shots / "es-advice.png"), full_page=True)
        page.locator("nav button[data-tab='play']").click()
    return "\n".join(texts)


@needs_chromium
def test_every_page_in_spanish_with_its_switch(server, tmp_path):
    in_own_thread(_every_page_in_spanish, server, tmp_path)


def _every_page_in_spanish(server: str, shots: Path) -> None:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(locale="es-ES", viewport=PHONE,
                                          extra_http_headers={"Accept-Language": "es-ES"})
            page = context.new_page()
            for path in PAGES:
                page.goto(server + path)
                _ready(page, path)
                text = _visible_text(page, path, shots)
                english = sorted(set(ENGLISH.findall(text)))
                assert not english, (path, english, text)
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
                page.screenshot(path=str(shots / f"es-{path or 'table'}.png"), full_page=True)
                # the switch: two named buttons, Spanish pressed, each a 44 px target
                group = page.get_by_role("group", name="Idioma")
                es = group.get_by_role("button", name="ES (Español)")
                en = group.get_by_role("button", name="EN (English)")
                assert es.get_attribute("aria-pressed") == "true"
                assert en.get_attribute("aria-pressed") == "false"
                for button in (es, en):
                    box = button.bounding_box()
                    assert box and box["width"] >= 44 and box["height"] >= 44
                # by the keyboard: English, remembered after a reload
                en.focus()
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                _ready(page, path)
                page.reload()
                _ready(page, path)
                assert page.evaluate("document.documentElement.lang") == "en"
                shown = page.evaluate("document.body.innerText")
                assert {"": "New game", "history": "Player", "anotar": "Start"}[path] in shown
                assert page.get_by_role("group", name="Language").get_by_role(
                    "button", name="EN (English)").get_attribute("aria-pressed") == "true"
                # and back to Spanish
                with page.expect_navigation():
                    page.get_by_role("button", name="ES (Español)").click()
                _ready(page, path)
                assert page.evaluate("document.documentElement.lang") == "es"
                assert not ENGLISH.findall(page.evaluate("document.body.innerText"))
        finally:
            browser.close()
