"""Small builders shared by the tests."""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.game.cards import cards_of, mask_of, parse_card, parse_cards, random_deal
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import Position, first_leader
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.hidden.knowledge import Knowledge
from cuatrola_solver.notation.record import HandRecord
from cuatrola_solver.notation.replay import record_of, replay

_runner = CliRunner()


def run(*args: str, input: str | bytes | None = None, columns: int | None = None):
    """The command line, in-process (typer's CliRunner), at ``columns`` if given."""
    env = None if columns is None else {"COLUMNS": str(columns)}
    return _runner.invoke(app, list(args), input=input, env=env)


def one_error_line(r, code: int = 2) -> str:
    """The result failed with ``code`` and exactly one 'error: ...' line on stderr."""
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stderr
    return lines[0]


def masks(*hands: str) -> tuple[int, ...]:
    return tuple(mask_of(parse_cards(h)) for h in hands)


def card_mask(text: str) -> int:
    return mask_of(parse_cards(text))


def deal(text: str) -> list[list[int]]:
    return [parse_cards(h) for h in text.split("/")]


def make_hand(deal_text: str, muestra: str, rules="online", auction=None, score=None) -> HandState:
    hand = HandState(deal(deal_text), parse_card(muestra), get_rules(rules), score)
    for call in auction or ["paso"] * 4:
        hand.bid(call)
    return hand


def position(trump: str, hands: tuple[str, str, str, str], contract="paso", declarer=(),
             leader=None, trick="", **kw) -> Position:
    """A mid-hand position from text; '-' for a seat that sits out (holds nothing shown)."""
    active = tuple(h != "-" for h in hands)
    hm = tuple(0 if h == "-" else mask_of(parse_cards(h)) for h in hands)
    return Position(trump="oceb".index(trump), hands=hm, active=active, contract=contract,
                    declarer=tuple(declarer), leader=leader or first_leader(active),
                    trick=tuple(parse_cards(trick)), **kw)


AUCTIONS = {
    # contract -> auctions (declarer seat) making it, as four calls
    "paso": [["paso"] * 4],
    "solo": [["solo", "paso", "paso", "paso"], ["paso", "solo", "paso", "paso"],
             ["paso", "paso", "solo", "paso"], ["paso", "paso", "paso", "solo"]],
    "cuatrola": [["cuatrola", "paso", "paso", "paso"], ["paso", "paso", "paso", "cuatrola"]],
    "quintola": [["paso", "quintola", "paso", "paso"], ["paso", "paso", "quintola", "paso"]],
    "contrasolo": [["solo", "contrasolo", "paso", "paso"], ["solo", "paso", "paso", "contrasolo"],
                   ["paso", "solo", "contrasolo", "paso"], ["paso", "paso", "solo", "contrasolo"]],
}


def random_game(rng: random.Random, rules, contract: str, renuncio_rate: float = 0.0,
                sing_rate: float = 0.8) -> HandState:
    """A random legal hand (with an occasional renuncio when asked for)."""
    hands, muestra = random_deal(rng)
    hand = HandState(hands, muestra, rules)
    for call in rng.choice(AUCTIONS[contract]):
        hand.bid(call)
    while not hand.is_over():
        if not hand.pos.trick and hand.tricks:
            for seat in (1, 2, 3, 4):
                for suit in range(4):
                    if hand.cante_refusal(seat, suit) is None and rng.random() < sing_rate:
                        hand.sing(seat, suit)
        legal = hand.legal_cards()
        assert legal, "a legal set is never empty"
        held = cards_of(hand.pos.hands[hand.to_play - 1])
        if rng.random() < renuncio_rate and len(held) > len(legal):
            hand.play(rng.choice([c for c in held if c not in legal]))
        else:
            hand.play(rng.choice(legal))
    return hand


def as_view(source):
    """A hint's view: a View as it is, or a HandState in play seen by its seat on turn."""
    from cuatrola_solver.game.view import View
    return source if isinstance(source, View) else View.on_turn(source)


def start_view(hand, muestra: int, seat: int, rules=None):
    """The view of ``seat`` just after the deal (no call yet): its cards (a list or a
    mask) and the muestra."""
    from cuatrola_solver.game.view import View
    mask = hand if isinstance(hand, int) else mask_of(hand)
    return View(get_rules(rules), seat, mask, muestra)


def hand_knowledge(hand: HandState, seat: int, renuncios=None):
    """What ``seat`` knows in a whole hand, the plays in ``renuncios`` (by default the
    hand's own renuncios, as (trick, seat)) taken as renuncios."""
    from cuatrola_solver.game.view import View
    from cuatrola_solver.hidden.inference import knowledge_of
    if renuncios is None:
        renuncios = [(r.trick, r.seat) for r in hand.renuncios]
    return knowledge_of(View.from_hand(hand, seat), renuncios)


# random hands in progress: the rule variants and auctions they are drawn from
MID_HAND_RULES = [PRESETS["online"], PRESETS["app"], PRESETS["narro"], PRESETS["italiano"],
                  PRESETS["online"].override(free_when_cannot_overtrump=False),
                  PRESETS["app"].override(free_when_cannot_overtrump=False)]
MID_HAND_AUCTIONS = [["paso"] * 4, ["solo", "paso", "paso", "paso"], ["paso", "cuatrola", "paso", "paso"],
                     ["paso", "paso", "solo", "paso"], ["solo", "contrasolo", "paso", "paso"],
                     ["paso", "paso", "paso", "quintola"]]


def random_hand(rng: random.Random, cards_to_play: int, renuncio_rate: float = 0.0) -> HandState:
    """A random deal and auction, then ``cards_to_play`` random cards (legal ones, except
    with probability ``renuncio_rate`` an illegal held card) and random allowed cantes."""
    order = list(range(20))
    rng.shuffle(order)
    hands = [order[0:5], order[5:10], order[10:15], order[15:20]]
    muestra = rng.choice(hands[3])
    hand = HandState(hands, muestra, rng.choice(MID_HAND_RULES))
    auction = rng.choice(MID_HAND_AUCTIONS)
    try:
        for call in auction:
            hand.bid(call)
    except CuatrolaError:
        hand = HandState(hands, muestra, hand.rules)
        hand.pass_all()
    for _ in range(cards_to_play):
        if hand.is_over():
            break
        if not hand.current:
            for seat in rng.sample([1, 2, 3, 4], 4):
                for suit in range(4):
                    if hand.cante_refusal(seat, suit) is None and rng.random() < 0.7:
                        hand.sing(seat, suit)
        legal = hand.legal_cards()
        held = cards_of(hand.pos.hands[hand.to_play - 1])
        illegal = [c for c in held if c not in legal]
        hand.play(rng.choice(illegal) if illegal and rng.random() < renuncio_rate
                  else rng.choice(legal))
    return hand


# --- the oracle of hidden deals: replaying the observed history on each ---------------

def replay_ok(hand: HandState, k: Knowledge, deal_row) -> bool:
    """The resample invariant: the observed history replayed on the deal (current hands
    ``deal_row``) is possible, breaks no rule except at flagged renuncios, and the
    observer sees the same cards."""
    dealt = [int(h) | p for h, p in zip(deal_row, k.played)]
    if dealt[k.seat - 1] != hand.deal[k.seat - 1]:
        return False
    rec = record_of(hand)
    # early_end off: in a world where a flagged renuncio was legal, an early_end hand would
    # have stopped; the sampler learns nothing from renuncios, not even that one happened
    rec2 = HandRecord(rules=rec.rules.override(early_end=False), muestra=rec.muestra, hands=[cards_of(m) for m in dealt],
                      auction=rec.auction, tricks=rec.tricks, cantes=rec.cantes, score=rec.score)
    try:
        again = replay(rec2)
    except CuatrolaError:
        return False
    flagged = k.ignored
    if not {(r.trick, r.seat) for r in again.renuncios} <= flagged:
        return False
    current = again.pos.hands if again.pos is not None else again.deal
    return tuple(int(x) for x in deal_row) == tuple(current)


def brute_force(hand: HandState, k: Knowledge) -> set[tuple[int, ...]]:
    """Every assignment of the unknown cards to the other seats that passes replay_ok."""
    pool = cards_of(k.pool)
    others = [s for s in (1, 2, 3, 4) if s != k.seat]
    sizes = [k.hidden_counts[s - 1] for s in others]
    found = set()
    for first in itertools.combinations(pool, sizes[0]):
        rest = [c for c in pool if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            row = list(k.known)
            for s, part in zip(others, (first, second, third)):
                row[s - 1] |= mask_of(part)
            if replay_ok(hand, k, row):
                found.add(tuple(row))
    return found


def as_set(deals: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(x) for x in row) for row in deals}


# --- headless Chromium, for the HTML pages --------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(*args: str, url: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--enable-logging=stderr", "--v=0", *args, url],
            capture_output=True, text=True, timeout=120)


def page_dom(page: Path, ready: str) -> str:
    """The DOM of the HTML file ``page`` once headless Chromium has run its script, which
    must have set ``data-READY="ok"`` on the body with nothing said on the console."""
    p = chromium("--dump-dom", url=page.as_uri())
    assert re.search(rf'<body[^>]*data-{ready}="ok"', p.stdout), "the page's script did not finish"
    console = [x for x in p.stderr.splitlines() if "CONSOLE" in x]
    assert console == [], console
    return p.stdout
