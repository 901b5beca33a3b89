"""``cuatrola serve`` in a browser (Playwright for Python driving Debian's Chromium, no
browser download): a whole hand played by clicking, with a hint; advice by clicking
equal to ``cuatrola advise --json``; a bad field's message beside it; an analysis with
its graph; the puzzles and the charts.  Each page's screenshot is saved in the folder
of ``CUATROLA_SCREENSHOTS`` (``docs/images`` makes the pictures of docs/serve.md), else
in a temporary folder.  Skipped without Chromium, unless ``CUATROLA_REQUIRE_CHROMIUM=1``
(as .ci/run sets it)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app as cli

from serve_helpers import BLUNDER, served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("CUATROLA_REQUIRE_CHROMIUM", "") not in ("", "0")
pytestmark = pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                                reason="chromium is not installed (.ci/run installs it)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: the longest a computation is waited for (a hand's bots, an analysis)
WAIT = 120_000
#: the server's deals: the first game (the one played by clicking) is then the same on
#: every run, one in which seat 1 plays its cards
SEED = 1


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1000, "height": 900}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    records = tmp_path_factory.mktemp("records")
    with served(records, seed=SEED) as url:
        yield url, records


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("CUATROLA_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def opened(page, server):
    url, _ = server
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a refused request (status 400, 409) is logged by the browser, not an error of the page
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    assert errors == []


def _idle(page) -> None:
    page.wait_for_selector("#progress", state="hidden", timeout=WAIT)


def _step(page) -> int:
    return int(page.get_attribute("#play-table", "data-step") or 0)


def _act(page, click, path: str) -> None:
    """Click, then wait for the table drawn again with the server's answer."""
    step = _step(page)
    with page.expect_response(f"**/api/play/{path}", timeout=WAIT):
        click()
    page.wait_for_selector(f"#play-table[data-step='{step + 1}']", timeout=WAIT)


def test_play_a_whole_hand_by_clicking_with_a_hint(opened, server, shots):
    page, (_, records) = opened, server
    _act(page, lambda: page.click("#play-new"), "new")
    assert "you 0" in page.inner_text("#play-score")
    hinted = False
    for _ in range(40):
        if page.is_visible("#play-result"):
            break
        choices = page.locator("#play-choices button")
        if choices.count():
            target = choices.first
        else:
            if not hinted:
                with page.expect_response("**/api/play/hint", timeout=WAIT):
                    page.click("#play-hint")
                page.wait_for_selector("#play-hint-out", state="visible")
                hint = page.inner_text("#play-hint-out")
                assert re.match(r"Hint \((exact|sampled): .*\): play \w\w — ", hint), hint
                hinted = True
                _idle(page)
                page.screenshot(path=str(shots / "serve-play.png"))
            target = page.locator("#play-hand .card.legal").first
        _act(page, target.click, "answer")
    assert page.is_visible("#play-result") and hinted
    result = page.inner_text("#play-result")
    assert re.search(r"Hand 1 over: (your|the other) pair scores \d", result)
    log = page.inner_text("#play-log")
    assert "contract: " in log and "trick 1 to" in log
    name = re.search(r"saved as (\S+)", result).group(1)
    assert (records / name).is_file()
    _idle(page)
    page.screenshot(path=str(shots / "serve-play-result.png"))
    # a phone-sized window: the hand still fits
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "serve-play-phone.png"), full_page=True)
    box = page.locator("#play-result").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def _cli_json(*args: str) -> dict:
    r = CliRunner().invoke(cli, ["advise", *args, "--json"])
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_advise_by_clicking_equals_the_command(opened, shots):
    page = opened
    page.click("nav button[data-tab=advise]")
    for c in ("Ac", "3c", "Ro", "Co", "Ab"):
        page.click(f"#deck .card[data-card='{c}']")
    page.click("#deck .card[data-card='So']")        # five picked: the muestra is next
    assert page.input_value("#adv-hand") == "Ac 3c Ro Co Ab"
    assert page.input_value("#adv-muestra") == "So"
    page.select_option("#adv-seat", "2")
    page.fill("#adv-auction", "paso")
    page.fill("#adv-seed", "1")
    with page.expect_response("**/api/advise", timeout=WAIT):
        page.click("#adv-go")
    page.wait_for_selector("#adv-call")
    shown = json.loads(page.get_attribute("#adv-out", "data-json"))
    assert shown == _cli_json("Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2",
                              "--auction", "paso", "--seed", "1")
    assert page.inner_text("#adv-call").startswith(f"Call {shown['advice']}: ")
    for o in shown["options"]:
        row = page.inner_text("#adv-table tr[data-bid='%s']" % o["bid"])
        assert f"{100 * o['p_played']:.1f}%" in row and f"{o['ev']:+.2f}" in row
    assert "Bidding chart: the hand falls in the cell" in page.inner_text("#adv-chart")
    _idle(page)
    page.screenshot(path=str(shots / "serve-advise.png"), full_page=True)


def test_bad_input_shows_the_commands_message_beside_the_field(opened):
    page = opened
    page.click("nav button[data-tab=advise]")
    page.fill("#adv-hand", "Ac 3c Ro Co Ab")
    page.fill("#adv-muestra", "So")
    page.select_option("#adv-seat", "2")
    page.fill("#adv-auction", "paso sol")
    page.fill("#adv-score", "12-0")
    with page.expect_response("**/api/advise"):
        page.click("#adv-go")
    for field, option, value in (("auction", "--auction", "paso sol"),
                                 ("score", "--score", "12-0")):
        r = CliRunner().invoke(cli, ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat",
                                     "2", option, value])
        assert r.exit_code == 2
        assert "error: " + page.inner_text(f"#err-{field}") == r.stderr.strip()
    assert page.inner_text("#adv-out") == ""


def test_an_uploaded_record_is_analysed_with_the_graph(opened, shots):
    page = opened
    page.click("nav button[data-tab=analyse]")
    with page.expect_response("**/api/analyze", timeout=WAIT):
        page.set_input_files("#an-file", str(BLUNDER))
    page.wait_for_selector("#an-report:not([hidden])")
    frame = page.frame_locator("#an-report")
    frame.locator("body[data-report='ok']").wait_for(timeout=WAIT)
    assert frame.locator("#graph path.line-knew-A").count() == 1
    assert frame.locator("#graph circle.mistake").count() >= 1
    _idle(page)
    page.screenshot(path=str(shots / "serve-analyse.png"))


def test_a_saved_game_is_analysed_and_puzzles_found(opened, server, shots):
    page = opened
    page.click("nav button[data-tab=analyse]")
    page.wait_for_selector(f"#an-record option[value='{BLUNDER.name}']", state="attached")
    page.select_option("#an-record", BLUNDER.name)
    with page.expect_response("**/api/analyze", timeout=WAIT):
        page.click("#an-go")
    page.frame_locator("#an-report").locator("body[data-report='ok']").wait_for(timeout=WAIT)
    page.click("nav button[data-tab=puzzles]")
    with page.expect_response("**/api/puzzles", timeout=WAIT):
        page.click("#pz-go")
    page.wait_for_selector("#pz-page:not([hidden])")
    assert re.match(r"\d+ puzzles? in the \d+ newest saved games", page.inner_text("#pz-note"))
    _idle(page)
    page.screenshot(path=str(shots / "serve-puzzles.png"))


def test_the_charts_page(opened, shots):
    page = opened
    page.click("nav button[data-tab=charts]")
    page.wait_for_selector("#ch-table tr:nth-child(5)")
    assert page.locator("#ch-which option").count() >= 4
    assert "the call of best" in page.inner_text("#ch-note")
    page.screenshot(path=str(shots / "serve-charts.png"), full_page=True)
