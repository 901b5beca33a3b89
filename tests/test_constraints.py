"""What-if constraints: parsed in the game layer, applied to a seat's knowledge by the
hidden-deal layer.

The oracle is a plain filter: every layout the seat could not tell apart (enumerated
without the constraints) kept when each constrained seat's hand -- now, or as dealt --
has the right number of cards of the set.  Exact enumeration under the constraints must
give exactly those layouts, sampling must draw only them and uniformly."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from cuatrola_solver.errors import InconsistentDealError, NotationError
from cuatrola_solver.game.cards import SUIT_MASKS, format_card, parse_card, parse_cards
from cuatrola_solver.game.constraints import Constraint, Constraints, TRUMP
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden.deals import (consistent_mask, count_deals, enumerate_deals,
                                          sample_deals)
from cuatrola_solver.hidden.inference import knowledge_of

from helpers import as_set, random_hand, start_view


# --- the text ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,seat,form,lo,hi,what", [
    ("3: void o", 3, "void", 0, 0, "o"),
    ("2: has Ao", 2, "has", 1, 1, "Ao"),
    ("2: has Ao 3o", 2, "has", 2, 2, "3o Ao"),
    ("2: not Ao", 2, "not", 0, 0, "Ao"),
    ("4: >=2 triunfo", 4, ">=", 2, 5, "triunfo"),
    ("4:>=2 triunfos", 4, ">=", 2, 5, "triunfo"),
    ("1: <=1 copas", 1, "<=", 0, 1, "c"),
    ("1: =3 e", 1, "=", 3, 3, "e"),
    ("1: ==3 b", 1, "=", 3, 3, "b"),
    (" 3 :  VOID  Oros ", 3, "void", 0, 0, "o"),
])
def test_parse_forms(text, seat, form, lo, hi, what):
    c = Constraint.parse(text)
    assert (c.seat, c.form, c.lo, c.hi, c.what) == (seat, form, lo, hi, what)
    assert Constraint.parse(str(c)) == c                   # the text reads back


def test_parse_several_and_the_trump():
    cs = Constraints.parse("3: void o; 4: >=2 triunfo;")
    assert [str(c) for c in cs] == ["3: void o", "4: >=2 triunfo"]
    assert str(cs) == "3: void o; 4: >=2 triunfo"
    assert cs.items[1].suit == TRUMP
    assert cs.items[1].mask(2) == SUIT_MASKS[2] and cs.items[0].mask(2) == SUIT_MASKS[0]
    assert not Constraints.parse("  ") and not Constraints.parse(None)
    assert [str(c) for c in cs.without(3)] == ["4: >=2 triunfo"]


@pytest.mark.parametrize("text,says", [
    ("void o", "expected a seat"),
    ("5: void o", "bad seat '5'"),
    ("x: void o", "bad seat 'x'"),
    ("3: void x", "bad suit 'x'"),
    ("3: void", "bad suit ''"),
    ("2: has", "name the cards"),
    ("2: has Zz", "bad card 'Zz'"),
    ("2: has Ao Ao", "appears twice"),
    ("4: >=6 triunfo", "at most 5 cards"),
    ("4: >2 triunfo", "expected 'void X'"),
    ("4: holds everything", "expected 'void X'"),
])
def test_parse_errors(text, says):
    with pytest.raises(NotationError, match=says):
        Constraints.parse(text)


# --- against a plain filter --------------------------------------------------------------

def _dealt(k, rows):
    return np.asarray(rows, dtype=np.uint32) | np.array(k.played, dtype=np.uint32)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.unpackbits(a.astype(">u4").view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1)


def _rows(a: np.ndarray) -> np.ndarray:
    """The layouts as a sorted array of keys (sets of big arrays, compared fast): the
    first three hands say the fourth, the cards left."""
    a = np.asarray(a, dtype=np.uint64).reshape(-1, 4)
    return np.sort(a[:, 0] | a[:, 1] << np.uint64(20) | a[:, 2] << np.uint64(40))


_ENUMERATED: dict = {}


def _enumerated(view: View) -> np.ndarray:
    key = view.key()
    if key not in _ENUMERATED:
        _ENUMERATED.clear()
        _ENUMERATED[key] = enumerate_deals(knowledge_of(view))
    return _ENUMERATED[key]


def _filter(view: View, constraints: Constraints) -> np.ndarray:
    """The keys (:func:`_rows`) of :func:`_filter_rows`."""
    return _rows(_filter_rows(view, constraints))


def _filter_rows(view: View, constraints: Constraints) -> np.ndarray:
    """The layouts of the view without constraints that meet them, by a plain check of
    each constrained seat's hand (now, or as dealt: its cards plus those it played)."""
    k = knowledge_of(view)
    rows = _enumerated(view)
    hands = _dealt(k, rows) if constraints.dealt else rows
    keep = np.ones(len(rows), dtype=bool)
    for c in constraints:
        held = _bits(hands[:, c.seat - 1] & np.uint32(c.mask(view.trump)))
        keep &= (held >= c.lo) & (held <= c.hi)
    return rows[keep]


def _random_constraint(rng: random.Random, seat: int) -> str:
    other = rng.choice([s for s in (1, 2, 3, 4) if s != seat])
    what = rng.choice(["o", "c", "e", "b", "triunfo"])
    form = rng.random()
    if form < 0.2:
        return f"{other}: void {what}"
    if form < 0.6:
        op = rng.choice([">=", "<=", "="])
        return f"{other}: {op}{rng.randint(0, 3)} {what}"
    cards = " ".join(format_card(c) for c in rng.sample(range(20), rng.choice([1, 1, 2])))
    return f"{other}: {rng.choice(['has', 'not'])} {cards}"


def _check(view: View, constraints: Constraints) -> bool:
    """Enumeration, count and the consistency check under the constraints against the
    plain filter; False when no layout is left (the error must then be raised)."""
    expected = _filter(view, constraints)
    try:
        k = knowledge_of(view.assuming(constraints))
    except InconsistentDealError as e:
        assert not len(expected), f"{constraints}: {e}"
        assert "constraint" in str(e)
        return False
    got = enumerate_deals(k)
    assert count_deals(k) == len(got) == len(expected), str(constraints)
    keys = _rows(got)
    assert np.array_equal(keys, expected), str(constraints)
    assert len(np.unique(keys)) == len(got)               # each layout once
    assert consistent_mask(k, got).all()
    return True


def test_the_worked_examples_at_the_deal():
    view = View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    for text in ["3: void o", "1: has Ae", "1: not Ae", "4: >=2 triunfo",
                 "3: void o; 4: >=2 triunfo", "4: =1 o", "1: >=2 e; 3: <=1 e; 4: =2 b",
                 "1: has Ae 3e; 3: >=1 triunfo; 4: <=2 b"]:
        assert _check(view, Constraints.parse(text))


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow),
                                  pytest.param(2, marks=pytest.mark.slow)])
def test_random_constraints_at_the_deal(seed):
    rng = random.Random(seed)
    for _ in range(6):
        seat = rng.randint(1, 4)
        cards = rng.sample(range(20), 5)
        muestra = rng.choice(cards) if seat == 4 else rng.choice(
            [c for c in range(20) if c not in cards])
        view = start_view(cards, muestra, seat)
        text = "; ".join(_random_constraint(rng, seat) for _ in range(rng.randint(1, 3)))
        _check(view, Constraints.parse(text))


@pytest.mark.parametrize("seed", range(4))
def test_random_constraints_in_play(seed):
    """Mid-hand views (forbidden cards from the plays, cantes, the muestra), constraints
    now and as dealt."""
    rng = random.Random(100 + seed)
    left = 0
    for _ in range(12):
        hand = random_hand(rng, rng.randint(2, 12))
        seat = rng.randint(1, 4)
        view = View.from_hand(hand, seat)
        text = "; ".join(_random_constraint(rng, seat) for _ in range(rng.randint(1, 3)))
        for dealt in (False, True):
            left += _check(view, Constraints.parse(text, dealt=dealt))
    assert left > 6                            # most sets leave layouts


def test_sampling_meets_them_uniformly():
    view = View.from_hand(random_hand(random.Random(8), 9), 1)
    cs = Constraints.parse("3: >=1 triunfo; 2: <=1 o")
    k = knowledge_of(view.assuming(cs))
    assert k.counts                           # a count the masks cannot say
    every = enumerate_deals(k)
    index = {row: i for i, row in enumerate(as_set(every))}
    assert 20 <= len(index) <= 3000
    draws = 60 * len(index)
    rows = sample_deals(k, draws, np.random.default_rng(3))
    assert consistent_mask(k, rows).all()
    counts = np.zeros(len(index))
    for row in rows:
        counts[index[tuple(int(x) for x in row)]] += 1
    expected = draws / len(index)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = len(index) - 1
    assert chi2 < df + 6 * math.sqrt(2 * df)


def test_a_count_under_a_twenty_before_the_forty():
    """forty_first's not-both pairs (a 20 sung before the 40: neither seat of the side
    held the trump rey and caballo) with constraints on the same trumps."""
    hand = HandState([parse_cards(h) for h in "Ro Ce Cb Rb Ab / 3o Sc Cc 3c Re / So Co Ac Ae Sb / "
                 "Ao Rc Se 3e 3b".split("/")], parse_card("Ao"), get_rules("italiano"))
    hand.pass_all()
    for c in parse_cards("Ce Re Ae Se"):
        hand.play(c)
    hand.sing(1, 3)
    hand.play(parse_card("Sb"))
    view = View.from_hand(hand, 2)
    assert knowledge_of(view).not_both
    for text in ["3: >=1 triunfo", "1: =1 triunfo", "1: has Co", "3: has Ro", "1: <=1 o",
                 "3: >=2 o; 1: void o", "1: has Ro Co"]:
        for dealt in (False, True):
            _check(view, Constraints.parse(text, dealt=dealt))
    with pytest.raises(InconsistentDealError, match="'1: has Co Ro'"):
        knowledge_of(view.assuming("1: has Ro Co"))


# --- what cannot hold ---------------------------------------------------------------------

@pytest.mark.parametrize("text,says", [
    ("1: has Ac", "Ac is in your hand"),
    ("1: has So", "So is known to be in seat 4's hand \\(the muestra\\)"),
    ("4: void o", "seat 4 is known to hold So \\(the muestra\\)"),
    ("3: >=6 o", "at most 5"),
    ("1: >=4 c", "seat 1 can hold at most 3"),
    ("3: void o; 1: void o; 4: <=1 o", "together with '3: void o', '1: void o'"),
    # a card placed or ruled out by an earlier constraint is said to be, not a cante's
    ("1: has Ao; 3: has Ao", "Ao is known to be in seat 1's hand \\(by the constraint "
                             "'1: has Ao'\\)$"),
    ("3: has Ao; 3: not Ao", "seat 3 is known to hold Ao \\(by the constraint '3: has Ao'\\)$"),
    ("3: not Ao; 3: has Ao", "cannot hold: the constraint '3: not Ao' rules out Ao$"),
    ("3: void o; 3: has Ao", "cannot hold: the constraint '3: void o' rules out Ao$"),
])
def test_what_cannot_hold(text, says):
    view = View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    with pytest.raises((InconsistentDealError, NotationError), match=says):
        knowledge_of(view.assuming(text))


def test_played_cards_and_the_hands_as_dealt():
    view = View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    hand = random_hand(random.Random(4), 8)
    seat = 1
    v = View.from_hand(hand, seat)
    k = knowledge_of(v)
    other = next(p.seat for p in v.plays if p.seat != seat)
    shown = [p.card for p in v.plays if p.seat == other]
    card = format_card(shown[0])
    with pytest.raises(InconsistentDealError, match=f"{card} has been played"):
        knowledge_of(v.assuming(f"{other}: has {card}"))
    # as dealt: the card it played was in its hand, so 'has' holds, 'not' cannot
    assert count_deals(knowledge_of(v.assuming(Constraints.parse(f"{other}: has {card}",
                                                                  dealt=True)))) == count_deals(k)
    with pytest.raises(InconsistentDealError, match=f"seat {other} has played {card}"):
        knowledge_of(v.assuming(Constraints.parse(f"{other}: not {card}", dealt=True)))
    assert view.key() != view.assuming("3: void o").key()


def test_the_seat_itself_is_refused():
    view = View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    with pytest.raises(InconsistentDealError, match="about seat 2, whose cards you hold"):
        knowledge_of(view.assuming("2: void o"))


def test_too_many_counts_at_once():
    view = start_view(parse_cards("Ac 3c Ro Co Ab"), parse_card("So"), 1)
    text = "; ".join(f"{s}: >=1 {x}" for s in (2, 3) for x in "oceb")
    with pytest.raises(NotationError, match="too many count constraints"):
        count_deals(knowledge_of(view.assuming(text)))


# --- the answers under constraints --------------------------------------------------------

def test_an_exact_hint_under_constraints_is_the_mean_over_the_filtered_layouts():
    from cuatrola_solver.advice.budget import Budget
    from cuatrola_solver.advice.cardplay import hint
    from cuatrola_solver.dd import solver
    from cuatrola_solver.game.play import side_of
    from cuatrola_solver.models.preset import Models
    rng = random.Random(31)
    checked = 0
    while checked < 3:
        hand = random_hand(rng, rng.randint(6, 10))
        if hand.is_over() or hand.renuncios:
            continue
        view = View.on_turn(hand)
        if len(view.legal_cards()) < 2:
            continue
        other = next(s for s in (1, 2, 3, 4) if s != view.seat and view.active[s - 1])
        cs = Constraints.parse(f"{other}: >=1 triunfo; {other}: <=2 o")
        try:
            h = hint(view.assuming(cs), Budget(exact=True), Models.NONE)
        except InconsistentDealError:
            continue
        rows = _filter_rows(view, cs)
        base = view.position
        mine, d = side_of(view.seat), base.declaring_side
        wins: dict[int, float] = {}
        for row in rows:
            mk = solver.solve_cards(base.with_changes(hands=tuple(int(x) for x in row)),
                                    view.rules, "makes")
            for c, m in mk.items():
                wins[c] = wins.get(c, 0) + (m if mine == d else 1 - m)
        assert h.exact and h.deals == len(rows) and h.layouts == (len(rows), count_deals(
            knowledge_of(view)))
        for c in h.cards:
            assert c.p_win == pytest.approx(wins[c.card] / len(rows))
        assert h.to_dict()["constraints"] == [str(c) for c in cs]
        checked += 1


def test_the_commands_name_the_constraints_and_refuse_an_impossible_set():
    from typer.testing import CliRunner
    from cuatrola_cli.main import app
    runner = CliRunner()
    args = ["advise", "Ac 3c Ro Co Ab", "-m", "So", "-s", "2", "-a", "paso", "-n", "2000",
            "--seed", "1"]
    r = runner.invoke(app, args + ["--constrain", "3: void o", "-C", "4: >=2 triunfo"])
    assert r.exit_code == 0, r.stderr
    assert "assuming 3: void o; 4: >=2 triunfo: 72,072 of the 252,252 layouts remain" \
        in r.stdout
    r = runner.invoke(app, args + ["--constrain", "3: void o; 1: void o; 4: <=1 o"])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("error: no layout of the hidden cards is left with the "
                                "constraint '4: <=1 o' together with '3: void o', '1: void o':"
                                " the cards left cannot be dealt that way")
    r = runner.invoke(app, args + ["--constrain", "3: holds o"])
    assert r.exit_code == 2 and "bad constraint '3: holds o'" in r.stderr
    played = ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc", "--seat", "2",
              "--played", "1. Rb Sb 3b Rc 2. Ao Ac", "--exact", "--model", "dd", "--json"]
    h = json.loads(runner.invoke(app, played + ["--constrain", "4: void e"]).stdout)
    assert (h["layouts"], h["layouts_unconstrained"], h["deals"]) == (140, 420, 140)
    r = runner.invoke(app, played + ["--constrain", "1: has Ac"])
    assert r.exit_code == 2 and "Ac has been played" in r.stderr


def test_analyze_takes_them_as_the_hands_as_dealt():
    from pathlib import Path
    from cuatrola_solver.advice.budget import Budget
    from cuatrola_solver.analysis.review import analyze
    from cuatrola_solver.models.preset import Models
    from cuatrola_solver.notation.record import read_record
    rec = read_record((Path(__file__).resolve().parent.parent / "examples" / "analysis"
                       / "online-blunder.txt").read_text())
    a = analyze(rec, Budget(samples=30, seed=1, workers=1), Models.NONE, bids=False,
                constraints="2: >=1 e")             # seat 2 was dealt Re: it holds
    d = a.to_dict()
    assert d["constraints"] == ["2: >=1 e"]
    assert [x and x["seat"] for x in d["layouts"]] == [1, None, 3, 4]
    # seat 2's own cards are valued without it, every other seat's view with it
    plain = analyze(rec, Budget(samples=30, seed=1, workers=1), Models.NONE, bids=False)
    for c, p in zip(a.cards, plain.cards):
        if c.seat == 2:
            assert (c.p_win, c.deals) == (p.p_win, p.deals)
    assert any((c.p_win, c.deals) != (p.p_win, p.deals) for c, p in zip(a.cards, plain.cards)
               if c.seat != 2 and c.kind == "choice")
    with pytest.raises(InconsistentDealError, match="trick 1, seat 3's card Cb: the "
                       "constraint '2: void b' \\(on the hands as dealt\\) does not hold"):
        analyze(rec, Budget(samples=30, seed=1, workers=1), Models.NONE, bids=False,
                constraints="2: void b")
