"""Anotar in the browser (``/anotar`` of ``cuatrola serve``) at phone size with touch, in
headless Chromium: a hand tapped gives the record ``cuatrola record`` gives for the same
hand piped in, its renuncio marked when a later card proves it; undo; a refused tap
changes nothing; five tricks take at most 30 taps after the calls.  Skipped without
Chromium, unless ``CUATROLA_REQUIRE_CHROMIUM=1``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import test_serve_browser as browser_tests
from serve_helpers import served

pytestmark = browser_tests.pytestmark
WAIT = 30_000

#: the example of docs/record-format.md: only seat 2's hand known; seat 3's Se of trick 2
#: is a renuncio its 3o of trick 5 proves
HAND2 = "Co Ro Sb Rb 3b"
NAMES = ("Ana", "Luis", "", "Marta")
CALLS = ["paso"] * 4
TRICKS = ["Sc Sb Rc 3c", "Ro Se So Ao", "Ac Rb 3e Ab", "Ce Ae 3b Re", "Co 3o Cb Cc"]
CANTE_AFTER_1 = "cante 2 oros"


browser_type_launch_args = browser_tests.browser_type_launch_args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 390, "height": 844},
            "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    records = tmp_path_factory.mktemp("records")
    with served(records) as url:
        yield url, records


@pytest.fixture
def anotar(page, server):
    url, _ = server
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.goto(url.rstrip("/") + "/anotar")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    assert errors == []


def entries(page) -> int:
    return int(page.get_attribute("body", "data-entries") or 0)


def tap(page, selector: str, taken: bool = True) -> None:
    """Tap, and wait for the server's answer drawn (one entry more, or an error)."""
    before = entries(page)
    with page.expect_response("**/api/anotar/state", timeout=WAIT):
        page.tap(selector)
    if taken:
        page.wait_for_selector(f"body[data-entries='{before + 1}']", timeout=WAIT)


def start(page, hands=("", HAND2, "", "")) -> None:
    for seat, name in enumerate(NAMES, 1):
        page.fill(f"#an-name-{seat}", name)
    page.tap("details summary")          # the known hands fold out
    for seat, hand in enumerate(hands, 1):
        page.fill(f"#an-hand-{seat}", hand)
    with page.expect_response("**/api/anotar/state", timeout=WAIT):
        page.tap("#an-start")
    page.wait_for_selector("#take:not([hidden])")


def piped_record() -> str:
    lines = ["Ab", *CALLS, TRICKS[0], CANTE_AFTER_1, *TRICKS[1:]]
    p = subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "record", "--hand",
                        f"2={HAND2}", "--players", ",".join(NAMES)],
                       input="\n".join(lines) + "\n", capture_output=True, text=True,
                       timeout=60, env=dict(os.environ, NO_COLOR="1"))
    assert p.returncode == 0, p.stderr
    return p.stdout[:p.stdout.index("\ncontract:")]


def test_a_hand_tapped_gives_the_record_of_the_command_and_its_renuncio(anotar, server):
    page = anotar
    _, records = server
    start(page)
    tap(page, "#an-deck [data-card='Ab']")
    for call in CALLS:
        tap(page, f"#an-calls [data-entry='{call}']")
    taps = 0
    for t, trick in enumerate(TRICKS, 1):
        for card in trick.split():
            if card == "3o":
                assert page.locator("#an-marks .renuncio").count() == 0
            tap(page, f"#an-deck [data-card='{card}']")
            taps += 1
            # a card played is gone from the deck
            assert "gone" in (page.get_attribute(f"#an-deck [data-card='{card}']", "class") or "")
        if t == 1:
            tap(page, f"#an-cantes [data-entry='{CANTE_AFTER_1}']")
            taps += 1
        if t == 2:
            page.screenshot(path=str(records.parent / "anotar-trick-3.png"), full_page=True)
    assert taps <= 30
    marks = page.locator("#an-marks .renuncio")
    assert marks.count() == 1
    assert "trick 2: seat 3 played Se against asistir: it held 3o, as its card in trick 5 " \
           "proves" in marks.inner_text()
    assert "side B scores 1" in marks.inner_text()
    assert "Side B scores 1 (by the first renuncio)" in page.inner_text("#an-result")
    with page.expect_response("**/api/anotar/save", timeout=WAIT):
        page.tap("#an-save")
    page.wait_for_selector("#an-analyse:not([hidden])")
    name = page.inner_text("#an-saved").split("Saved as ")[1].rstrip(".")
    assert (records / name).read_text() == piped_record()
    page.screenshot(path=str(records.parent / "anotar.png"), full_page=True)


def test_undo_and_refused_taps_change_nothing(anotar):
    page = anotar
    start(page)
    tap(page, "#an-deck [data-card='Ab']")
    for call in CALLS:
        tap(page, f"#an-calls [data-entry='{call}']")
    record = page.text_content("#an-record")
    # the muestra is the dealer's: not offered to seat 1, and refused if asked for
    assert page.is_disabled("#an-deck [data-card='Ab']")
    tap(page, "#an-deck [data-card='Sc']")
    assert "1. Sc" in page.text_content("#an-record")
    with page.expect_response("**/api/anotar/state", timeout=WAIT):
        page.tap("#an-undo")
    page.wait_for_selector("body[data-entries='5']")
    assert page.text_content("#an-record") == record
    # undo back to the start and tap again: the same record
    for n in (4, 3, 2, 1, 0):
        with page.expect_response("**/api/anotar/state", timeout=WAIT):
            page.tap("#an-undo")
        page.wait_for_selector(f"body[data-entries='{n}']")
    assert page.get_attribute("body", "data-stage") == "muestra"
    tap(page, "#an-deck [data-card='Ab']")
    for call in CALLS:
        tap(page, f"#an-calls [data-entry='{call}']")
    assert page.text_content("#an-record") == record
    # a card the server refuses (sent as the page would): its message, nothing changes
    answer = page.evaluate("""() => fetch('/api/anotar/state', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({rules: 'online', hands: [null, 'Co Ro Sb Rb 3b', null, null],
                              players: [null, null, null, null],
                              entries: ['Ab', 'paso', 'paso', 'paso', 'paso'], entry: 'Ab'})})
        .then(r => r.json().then(d => [r.status, d.error]))""")
    assert answer[0] == 400 and "the muestra, which the dealer keeps" in answer[1]
    assert entries(page) == 5 and page.text_content("#an-record") == record


def test_a_whole_deal_tapped_is_saved_and_analysed(anotar):
    page = anotar
    start(page, hands=("So Se Ae Cb 3b", "Ro 3o Ac Ce Rb", "Ao Sc Cc Rc Ab", "Co 3c Re 3e Sb"))
    tap(page, "#an-deck [data-card='Re']")
    for call in ("paso", "paso", "solo", "paso"):
        tap(page, f"#an-calls [data-entry='{call}']")
    tap(page, "#an-deck [data-card='Ro']")
    # seat 3 is known: its one legal card is marked, the others may still be tapped
    assert "legal" in (page.get_attribute("#an-deck [data-card='Ao']", "class") or "")
    assert page.is_enabled("#an-deck [data-card='Sc']")
    assert page.is_disabled("#an-deck [data-card='Co']")      # seat 4's: not seat 3's
    for card in "Ao Co Cc 3c Ac Rb Ab Sb Sc 3e Ce Re 3o Rc".split():
        tap(page, f"#an-deck [data-card='{card}']")
    assert page.get_attribute("body", "data-stage") == "over"
    assert "Side B scores" in page.inner_text("#an-result")
    with page.expect_response("**/api/anotar/save", timeout=WAIT):
        page.tap("#an-save")
    page.wait_for_selector("#an-analyse:not([hidden])")
    with page.expect_response("**/api/analyze", timeout=120_000):
        page.tap("#an-analyse")
    page.wait_for_selector("#an-report:not([hidden])", timeout=120_000)
    report = page.get_attribute("#an-report", "srcdoc") or ""
    assert "Seat 1 — Ana, side A" in report and "<h1>" in report
