"""``cuatrola serve`` in a browser (Playwright for Python driving Debian's Chromium, no
browser download): a whole hand played by clicking, with a hint pointing in place; a
whole match played by tapping at phone size (390 x 844, touch); the focus kept in the
hand; advice by clicking equal to ``cuatrola advise --json``, marked stale when a field
changes; a bad field's message beside it; an analysis with its graph; the puzzles and the
charts.  At every page and state, at desktop size (1280 x 800) and phone size (390 x
844): no page scrolls sideways (the frames of the report and the puzzles included; at
360 and 414 px wide too), and
axe-core (``axe-playwright-python``, which bundles it) finds no violation.  Each page's
screenshot at both sizes is saved in the folder of ``CUATROLA_SCREENSHOTS``
(``docs/images`` makes the pictures of docs/serve.md), else in a temporary folder.
Skipped without Chromium, unless ``CUATROLA_REQUIRE_CHROMIUM=1`` (as .ci/run sets it)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from typer.testing import CliRunner

from cuatrola_cli.main import app as cli
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.web.app import make_app
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import running

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
#: the two sizes every page is looked at
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the narrowest and the widest phone checked for sideways scrolling
NARROWEST, WIDEST_PHONE = 360, 414
AXE = Axe()
#: the controls shown smaller than a touch target (44 x 44 px; a checkbox or a radio
#: button counts by its label)
SMALL_TARGETS = """[...document.querySelectorAll(
    'button, select, a[href], input:not([type=checkbox]):not([type=radio]), label:has(> input)')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.id || e.dataset.card || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
  .filter(([n, r]) => r.width < 44 || r.height < 44)
  .map(([n, r]) => n + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
#: what of a seat (its name, roles, backs, muestra, bazas) sticks out of the felt's sides
OFF_THE_FELT = """(() => { const f = document.querySelector('#felt').getBoundingClientRect();
  return [...document.querySelectorAll('#felt .seat, #felt .seat *')]
    .map(e => [e.closest('.seat').id + ' ' + (e.className.baseVal ?? e.className),
               e.getBoundingClientRect()])
    .filter(([n, r]) => r.width > 0 && (r.left < f.left - 1 || r.right > f.right + 1))
    .map(([n, r]) => n + ' ' + Math.round(r.left) + '..' + Math.round(r.right)); })()"""


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": DESKTOP}


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


def _watched(page, url: str) -> list[str]:
    errors = _watched_at(page, url)
    page.wait_for_selector("body[data-ready='1']")
    return errors


def _watched_at(page, url: str) -> list[str]:
    """The page at ``url`` opened, its errors and console errors gathered."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a refused request (status 400, 409) is logged by the browser, not an error of the page
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.goto(url)
    return errors


@pytest.fixture
def opened(page, server):
    errors = _watched(page, server[0])
    yield page
    assert errors == []


def _idle(page) -> None:
    page.wait_for_selector("#progress", state="hidden", timeout=WAIT)


def look(page, shots: Path | None, name: str, at: str | None = None) -> None:
    """The page as it is, at desktop then phone size: nothing scrolls sideways (the
    frames included), axe-core finds no violation (in the frames too), and a screenshot
    of each (``serve-NAME.png``, ``serve-NAME-phone.png``; ``at``: scrolled to that
    element first).  The window is left at desktop size."""
    _idle(page)
    page.wait_for_function("!document.querySelector('#felt.moving')")    # the trick laid
    for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)              # the frames redraw and tell their height
        for frame in page.frames:
            if frame is not page.main_frame and not frame.evaluate(
                    "document.body ? document.body.children.length : 0"):
                continue                        # a frame not used yet
            wide = frame.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], (name, size, frame.url, wide)
            if size is PHONE:
                small = frame.evaluate(SMALL_TARGETS)
                assert small == [], (name, frame.url, small)
            found = AXE.run(frame)
            assert found.violations_count == 0, (name, size, found.generate_report())
        if shots is not None:
            if at:
                page.locator(at).scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"serve-{name}{suffix}.png"))
    for width in NARROWEST, WIDEST_PHONE:        # the other phones: nothing sideways either
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(100)
        for frame in page.frames:
            wide = frame.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], (name, width, frame.url, wide)
    page.set_viewport_size(DESKTOP)


def _step(page) -> int:
    return int(page.get_attribute("#play-table", "data-step") or 0)


def _act(page, click, path: str) -> None:
    """Click, then wait for the table drawn again with the server's answer."""
    step = _step(page)
    with page.expect_response(f"**/api/play/{path}", timeout=WAIT):
        click()
    page.wait_for_selector(f"#play-table[data-step='{step + 1}']", timeout=WAIT)


def _seats(page) -> dict[str, str]:
    return {w: page.inner_text(f"#seat-{w}") for w in ("you", "right", "partner", "left")}


def test_play_a_whole_hand_by_clicking_with_a_hint(opened, server, shots):
    page, (_, records) = opened, server
    _act(page, lambda: page.click("#play-new"), "new")
    assert "you 0" in page.inner_text("#play-score")
    # the table: you at the bottom (seat 1, mano), the dealer on your left holds the
    # muestra, five backs at each other seat, your turn marked
    seats = _seats(page)
    assert "mano" in seats["you"] and "dealer" in seats["left"] and "muestra" in seats["left"]
    assert page.locator("#seat-partner .backs .face-card").count() == 5
    assert page.get_attribute("#seat-partner .backs", "aria-label") == "5 cards"
    assert "turn" in page.get_attribute("#seat-you", "class")
    # bidding: your cards bright (none greyed), the hint marks the advised call in place
    assert page.locator("#play-hand .card.illegal").count() == 0
    with page.expect_response("**/api/play/hint", timeout=WAIT):
        page.click("#play-hint")
    page.wait_for_selector("#play-choices button.best .num")
    advised = page.get_attribute("#play-choices button.best", "data-call")
    assert page.inner_text("#play-hint-out").startswith(f"Hint (")
    assert f": call {advised} — " in page.inner_text("#play-hint-out")
    assert re.search(r"\d+% · [+-]\d\.\d\d", page.inner_text("#play-choices button.best"))
    look(page, shots, "play-call")
    hinted, paused, skipped = False, False, None
    for _ in range(40):
        if page.is_visible("#play-result"):
            break
        choices = page.locator("#play-choices button")
        if choices.count():
            target = choices.first
        else:
            if "moving" in (page.get_attribute("#felt", "class") or ""):
                # the bots' cards come one by one, a finished trick pauses on the felt
                # (its winner's card marked) then goes: the first time it ends by itself,
                # after that a tap skips it
                if skipped is None:
                    page.wait_for_selector("#felt[data-done='1'] .slot.won", timeout=10_000)
                    assert " to " in page.inner_text("#play-caption")
                    page.wait_for_selector("#felt:not(.moving)", timeout=10_000)
                    skipped, paused = False, True
                elif not skipped:
                    page.click("#felt")
                    assert "moving" not in page.get_attribute("#felt", "class")
                    skipped = True
            if not hinted:
                with page.expect_response("**/api/play/hint", timeout=WAIT):
                    page.click("#play-hint")
                page.wait_for_selector("#play-hint-out", state="visible")
                hint = page.inner_text("#play-hint-out")
                assert re.match(r"Hint \((exact|sampled): .*\): play \w\w — ", hint), hint
                best = re.match(r".*: play (\w\w) — ", hint).group(1)
                assert page.get_attribute("#play-hand .card.best", "data-card") == best
                assert page.locator("#play-hand .card .num").count() >= 1
                hinted = True
                look(page, shots, "play")
            target = page.locator("#play-hand .card.legal").first
        _act(page, target.click, "answer")
    assert page.is_visible("#play-result") and hinted and paused and skipped
    # a screen reader hears what the others did since the last move
    said = page.text_content("#play-said")
    assert re.search(r"(seat \d|partner, seat \d) plays \w\w", said) and "trick 5 to" in said, said
    result = page.inner_text("#play-result")
    assert re.search(r"Hand 1 over: (your|the other) pair scores \d", result)
    log = page.inner_text("#play-log")
    assert "contract: " in log and "trick 1 to" in log
    # the log follows its newest line
    assert page.evaluate("(l => l.scrollTop + l.clientHeight >= l.scrollHeight - 2)"
                         "(document.getElementById('play-log'))")
    # the last trick can be looked at again
    page.click("#play-last")
    assert page.get_attribute("#play-last", "aria-pressed") == "true"
    assert page.inner_text("#play-caption").startswith("last trick: trick ")
    page.click("#play-last")
    name = re.search(r"saved as (\S+)", result).group(1)
    assert (records / name).is_file()
    look(page, shots, "play-result", at="#play-result")


#: the first game of a server dealing from this seed reaches a cante of seat 1 at its
#: third decision, the page taking the first choice each time
CANTE_SEED = 17


def test_the_cante_hint_names_the_suit_as_the_button_does(page, tmp_path, shots):
    with served(tmp_path / "records", seed=CANTE_SEED) as url:
        errors = _watched(page, url)
        _act(page, lambda: page.click("#play-new"), "new")
        for _ in range(3):
            if page.locator("#play-choices button[data-cante]").count():
                break
            target = page.locator("#play-choices button, #play-hand .card.legal").first
            _act(page, target.click, "answer")
        names = page.locator("#play-choices button[data-cante]").all_inner_texts()
        assert names[-1] == "keep quiet" and all(re.match(r"sing (oros|copas|espadas|bastos) "
                                                          r"\(\+[24]0\)", n) for n in names[:-1])
        with page.expect_response("**/api/play/hint", timeout=WAIT):
            page.click("#play-hint")
        page.wait_for_selector("#play-choices button.best .num")
        hint = page.inner_text("#play-hint-out")
        assert re.search(r": (sing (oros|copas|espadas|bastos)|keep quiet) — keep quiet \d+%, "
                         r"(oros|copas|espadas|bastos) \d+%", hint), hint
        best = page.get_attribute("#play-choices button.best", "data-cante")
        assert (best == "no") == (": keep quiet — " in hint)
        look(page, shots, "play-cante")
        assert errors == []


def test_the_focus_stays_in_the_hand_after_a_move(opened):
    page = opened
    page.focus("#play-new")
    step = _step(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#play-table[data-step='{step + 1}']", timeout=WAIT)
    for _ in range(4):
        _idle(page)
        inside = page.evaluate("(document.activeElement.closest('#play-choices, #play-hand') || {}).id")
        assert inside in ("play-choices", "play-hand"), inside
        # the ring that shows the focus: 3 px
        assert page.evaluate("getComputedStyle(document.activeElement).outlineWidth") == "3px"
        # the arrow keys move along the choices and come back
        now = "document.activeElement.textContent + document.activeElement.dataset.card"
        first = page.evaluate(now)
        choices = page.locator(f"#{inside} button:not(:disabled)").count()
        page.keyboard.press("ArrowRight")
        assert (page.evaluate(now) != first) == (choices > 1)
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(now) == first
        step = _step(page)
        with page.expect_response("**/api/play/answer", timeout=WAIT):
            page.keyboard.press("Enter")
        page.wait_for_selector(f"#play-table[data-step='{step + 1}']", timeout=WAIT)
        if page.is_visible("#play-result"):
            break


@pytest.fixture(scope="module")
def short_match(tmp_path_factory):
    """A server of matches to 3 points against the heuristic bots: a whole match in a
    few hands."""
    records = tmp_path_factory.mktemp("match")
    with served(records, rules="online,target=3", bots="heuristic", seed=SEED) as url:
        yield url


def test_a_whole_match_by_tapping_on_a_phone(browser, short_match, shots):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = _watched(page, short_match)
    page.tap("#play-new")
    page.wait_for_selector("#play-table[data-step='1']", timeout=WAIT)
    for _ in range(400):
        _idle(page)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        off = page.evaluate(OFF_THE_FELT)       # every seat whole on the felt
        assert off == [], off
        if page.is_visible("#play-result"):
            if "Match over" in page.inner_text("#play-result"):
                break
            target = page.locator("#play-next")
        elif page.locator("#play-choices button").count():
            target = page.locator("#play-choices button").first
        else:
            target = page.locator("#play-hand .card.legal").first
        # a touch target of 44 px at least
        box = target.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
        step = _step(page)
        target.tap()
        page.wait_for_selector(f"#play-table[data-step='{step + 1}']", timeout=WAIT)
    assert "Match over" in page.inner_text("#play-result")
    score = page.inner_text("#play-score")
    assert re.search(r"you (3|\d\d?) – them \d+", score)
    context.close()
    assert errors == []


def _cli_json(*args: str) -> dict:
    r = CliRunner().invoke(cli, ["advise", *args, "--json"])
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_advise_by_clicking_equals_the_command(opened, shots):
    page = opened
    page.click("nav button[data-tab=advise]")
    look(page, None, "advise-empty")
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
    chart = page.inner_text("#adv-chart")
    assert "Bidding chart: the hand falls in the cell" in chart
    called = re.search(r"the chart calls (\w+)", chart).group(1)
    # when the chart's cell and the advice differ, one sentence says why
    assert page.locator("#adv-why").count() == (called != shown["advice"])
    look(page, shots, "advise", at="#adv-call")
    # a field changed: the advice shown is marked as no longer the fields'
    page.select_option("#adv-seat", "3")
    assert "stale" in page.get_attribute("#adv-out", "class")
    assert "press Advise" in page.inner_text("#adv-out .stale-note")
    look(page, None, "advise-stale")


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
    look(page, None, "advise-errors")


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
    # the frame is as tall as the report: one page scrolls, not a frame inside it
    _idle(page)
    page.wait_for_function("document.getElementById('an-report')"
                           ".getBoundingClientRect().height > 1500", timeout=WAIT)
    look(page, shots, "analyse")
    # at phone size the graph is drawn at its width: its labels keep their size
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    box = frame.locator("#graph").bounding_box()
    view = frame.locator("#graph").get_attribute("viewBox").split()
    assert abs(float(view[2]) - box["width"]) < 45, (view, box)
    page.set_viewport_size(DESKTOP)


def test_a_saved_game_is_analysed_and_puzzles_found(opened, server, shots):
    page = opened
    page.click("nav button[data-tab=analyse]")
    page.wait_for_selector(f"#an-record option[value='{BLUNDER.name}']", state="attached")
    page.select_option("#an-record", BLUNDER.name)
    with page.expect_response("**/api/analyze", timeout=WAIT):
        page.click("#an-go")
    page.frame_locator("#an-report").locator("body[data-report='ok']").wait_for(timeout=WAIT)
    # the frame takes the report's height, then stays (it grew 4 px a round, for ever)
    height = "document.querySelector('#an-report').getBoundingClientRect().height"
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(500)
        first = page.evaluate(height)
        page.wait_for_timeout(600)
        assert page.evaluate(height) == first, (size, first, page.evaluate(height))
    page.click("nav button[data-tab=puzzles]")
    look(page, None, "puzzles-empty")
    with page.expect_response("**/api/puzzles", timeout=WAIT):
        page.click("#pz-go")
    page.wait_for_selector("#pz-page:not([hidden])")
    assert re.match(r"\d+ puzzles? in the \d+ newest saved games", page.inner_text("#pz-note"))
    look(page, shots, "puzzles")


def test_the_charts_page(opened, shots):
    page = opened
    page.click("nav button[data-tab=charts]")
    page.wait_for_selector("#ch-table tr:nth-child(5)")
    assert page.locator("#ch-which option").count() >= 4
    assert "the call of best" in page.inner_text("#ch-note")
    look(page, shots, "charts")


def test_the_tab_bar_keeps_one_row_on_a_phone(opened):
    page = opened
    page.set_viewport_size(PHONE)
    boxes = page.evaluate("[...document.querySelectorAll('nav button, header a, #lang-switch button')]"
                          ".map(b => [b.textContent, b.getBoundingClientRect().top,"
                          " b.getBoundingClientRect().height, b.getBoundingClientRect().right])")
    assert len(boxes) == 9, boxes       # the five tabs, Mis partidas, Anotar, ES and EN
    assert len({top for _, top, _, _ in boxes[:5]}) == 1, boxes
    # each on one line: as tall as a touch target (44 px), not two or three lines of text
    assert all(44 <= height < 52 and right <= PHONE["width"] for _, _, height, right in boxes), boxes
    page.set_viewport_size(DESKTOP)


def test_the_anotar_page(page, server, shots):
    errors = _watched_at(page, server[0] + "anotar")
    look(page, shots, "anotar")
    assert errors == []


#: words broken inside (a table's heading squeezed a letter or two a line)
BROKEN_WORDS = """[...document.querySelectorAll('th, td, h2, h3')].filter(e => {
  const r = document.createRange(); r.selectNodeContents(e);
  return r.getClientRects().length > e.textContent.trim().split(/\\s+/).length; })
  .map(e => e.textContent)"""


def _history_server(tmp_path_factory, *import_options: str):
    """A server whose history holds the five Sunday hands (``cuatrola history import``
    with ``import_options``); yields its URL."""
    folder = tmp_path_factory.mktemp("history")
    db = folder / "history.sqlite3"
    examples = Path(__file__).parent.parent / "examples" / "history"
    r = CliRunner().invoke(cli, ["history", "import", str(examples), *import_options,
                                 "--db", str(db)])
    assert r.exit_code == 0, r.output
    app = make_app(get_rules("online"), RecordsFolder(folder / "records"), history=db)
    with running(app) as url:
        yield url


@pytest.fixture(scope="module")
def waiting_history(tmp_path_factory):
    """A server whose history holds the five Sunday hands, not analysed yet."""
    yield from _history_server(tmp_path_factory, "--no-analyze")


def test_mis_partidas_before_the_analysis_on_a_phone(page, waiting_history, shots):
    errors = _watched_at(page, waiting_history + "history")
    page.wait_for_selector(".history-player", timeout=WAIT)
    look(page, shots, "history-waiting")
    page.set_viewport_size(PHONE)
    assert page.evaluate(BROKEN_WORDS) == []
    text = page.inner_text("main")
    # nothing analysed: no claim about the calls or the cards, no table of nothing
    assert "differed from the advice" not in text and "Accuracy" not in text, text
    assert "history analyze" in text
    assert page.evaluate("[...document.querySelectorAll('table')].filter("
                         "t => !t.querySelector('tbody tr')).length") == 0
    page.set_viewport_size(DESKTOP)
    assert errors == []


@pytest.fixture(scope="module")
def analysed_history(tmp_path_factory):
    """A server whose history holds the five Sunday hands, analysed."""
    yield from _history_server(tmp_path_factory)


def test_mis_partidas_a_hands_puzzles(page, analysed_history, shots):
    errors = _watched_at(page, analysed_history + "history")
    page.wait_for_selector(".history-player", timeout=WAIT)
    # beside each hand to look at, a button to its puzzles (sunday-1 has one: Dani's blunder)
    first = page.locator("button.history-puzzles[data-hand='1']").first
    assert first.inner_text() == "Puzzles" and "sunday-1" in first.get_attribute("aria-label")
    with page.expect_response("**/api/history/puzzles?id=1", timeout=WAIT):
        first.click()
    page.wait_for_selector("#history-puzzles-page:not([hidden])", timeout=WAIT)
    frame = page.frame_locator("#history-puzzles-page")
    frame.locator("body[data-puzzles='ok']").wait_for(timeout=WAIT)
    assert frame.locator("section").count() == 1
    # the frame is as tall as the puzzles: one page scrolls, not a frame inside it
    page.wait_for_function("document.getElementById('history-puzzles-page')"
                           ".getBoundingClientRect().height > 600", timeout=WAIT)
    look(page, shots, "history-puzzles", at="#history-puzzles")
    # a hand without a puzzle says so, no frame; the button is a button: Enter presses it
    # (a click at once after scrolling 4,600 px up the page went to the puzzles' frame,
    # an out-of-process frame whose place on the screen Chromium had not yet updated:
    # the frame logged the pointerdown and click; the same click 0.5 s later reaches the
    # button)
    none = page.locator("button.history-puzzles:not([data-hand='1'])").first
    none.focus()
    with page.expect_response(lambda r: "/api/history/puzzles?id=" in r.url, timeout=WAIT):
        page.keyboard.press("Enter")
    page.wait_for_selector("#history-puzzles-page", state="hidden", timeout=WAIT)
    assert page.inner_text("#history-puzzles-note") == "No puzzle in this hand."
    assert errors == []
