"""The statistics of weighted odds (cuatrola_solver.advice.stats): the sums of
stats.Tally, the odds, intervals and effective number of deals that advise and hint report
with a bid model, checked on hand-made weights and against plain weighted means over the
same deals; the Wilson interval."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from cuatrola_solver.advice import bidding, cardplay, stats
from cuatrola_solver.advice.budget import Budget, ROUND
from cuatrola_solver.dd import solver
from cuatrola_solver.game.cards import parse_card, parse_cards, random_deal
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import side_of
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden import deals as hidden_deals
from cuatrola_solver.hidden.chunks import iter_chunks, sample_chunk
from cuatrola_solver.hidden.deals import enumerate_deals
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.models import bids
from cuatrola_solver.models.preset import Models

from helpers import as_view, start_view

ONLINE = get_rules("online")
ZERO = [0.0] * len(bids.FEATURE_NAMES)


def model(rules) -> bids.BidModel:
    """A made-up bid model: solo twice as likely per trump, cuatrola per ace."""
    names = bids.FEATURE_NAMES
    solo, cuatrola = list(ZERO), list(ZERO)
    solo[names.index("trumps")] = math.log(2)
    solo[names.index("bias")] = -2.0
    cuatrola[names.index("aces")] = math.log(2)
    cuatrola[names.index("bias")] = -3.0
    return bids.BidModel(rules.name, {"paso": list(ZERO), "solo": solo,
                                           "cuatrola": cuatrola}, {})


# --- the sums, by hand -----------------------------------------------------------------------

def test_tally_sums_by_hand():
    t = stats.Tally()
    assert (t.n, t.w, t.w2, t.wins, t.gp, t.effective) == (0, 0.0, 0.0, 0.0, 0.0, 0.0)
    t.add(np.array([True, False, True]), np.array([2, -2, 2]), np.array([3, 1, 5]),
          np.array([0.5, 1.0, 2.0]))
    assert (t.n, t.w, t.w2, t.wins, t.gp) == (3, 3.5, 5.25, 2.5, 3.0)
    assert t.tricks.tolist() == [0, 1, 0, 0.5, 0, 2] and t.outcomes == {2: 2.5, -2: 1.0}
    assert t.effective == pytest.approx(3.5 ** 2 / 5.25, rel=1e-15)
    t.add(np.array([False, True]), np.array([-4, 1]), np.array([0, 3]))     # weights 1
    assert (t.n, t.w, t.w2, t.wins, t.gp) == (5, 5.5, 7.25, 3.5, 0.0)
    assert t.tricks.tolist() == [1, 1, 0, 1.5, 0, 2]
    assert t.outcomes == {2: 2.5, -2: 1.0, -4: 1.0, 1: 1.0}
    t.add(np.array([], dtype=bool), np.array([], dtype=int), np.array([], dtype=int))
    assert t.n == 5 and t.outcomes == {2: 2.5, -2: 1.0, -4: 1.0, 1: 1.0}
    # ten equal weights are worth ten deals, whatever the weight
    for w in (1.0, 0.1, 7.0):
        ten = stats.Tally()
        ten.add(np.ones(10, dtype=bool), np.ones(10, dtype=int), np.full(10, 3),
                np.full(10, w))
        assert ten.effective == pytest.approx(10, rel=1e-12)
    one = stats.Tally()
    one.add(np.ones(4, dtype=bool), np.ones(4, dtype=int), np.full(4, 3),
            np.array([1.0, 0, 0, 0]))
    assert one.effective == 1


def _tally(makes, gp, tricks, weights=None) -> stats.Tally:
    t = stats.Tally()
    t.add(np.array(makes, dtype=bool), np.array(gp), np.array(tricks),
          None if weights is None else np.array(weights, dtype=float))
    return t


def test_results_by_hand():
    # seat 2 after seat 1's solo: paso defends it (the solver measures side A: flipped),
    # cuatrola and quintola are seat 2's own
    options = bidding.bid_options(ONLINE, 2, ["solo"])
    keys = {o.bid: o.key for o in options}
    w = [0.25, 0.5, 1.0, 0.25]                 # probabilities: the sum (2) is not the count
    tallies = {keys["paso"]: _tally([True, False, False, True], [3, -2, -1, 2], [4, 1, 2, 3], w),
               keys["cuatrola"]: _tally([False, True, False, False], [-4, 4, -4, -4],
                                        [2, 4, 3, 0], w),
               keys["quintola"]: _tally([False] * 4, [-5] * 4, [2, 4, 3, 0], w)}
    res = {r.option.bid: r for r in bidding._results(options, tallies, False, 2)}
    assert res["solo"].p_win is None and not res["solo"].option.allowed
    p = res["paso"]
    n_eff = 2.0 ** 2 / 1.375
    assert p.p_win == pytest.approx(3 / 4, rel=1e-15)            # seat 2 wins deals 2 and 3
    assert p.wins == pytest.approx(1.5, rel=1e-15) and p.ev_sum == pytest.approx(0.75, rel=1e-15)
    assert p.ev == pytest.approx(0.375, rel=1e-15)
    assert p.ci95 == pytest.approx(stats.wilson(0.75 * n_eff, n_eff), rel=1e-15)
    assert p.ci95 != pytest.approx(stats.wilson(3, 4))
    # tricks of the declaring side (solo by seat 1: the option's side)
    assert p.tricks == pytest.approx((0, 0.25, 0.5, 0.125, 0.125, 0), abs=1e-15)
    assert np.array(p.outcomes) == pytest.approx(
        np.array(((-3, 0.125), (-2, 0.125), (1, 0.5), (2, 0.25))), abs=1e-15)
    c = res["cuatrola"]
    assert (c.p_win, c.ev) == pytest.approx((1 / 4, -2), rel=1e-15)
    assert np.array(c.outcomes) == pytest.approx(np.array(((-4, 3 / 4), (4, 1 / 4))),
                                                  abs=1e-15)
    assert res["quintola"].p_win == 0 and res["quintola"].ci95[0] == 0
    # exact: the interval is the point
    ex = {r.option.bid: r for r in bidding._results(options, tallies, True, 2)}
    assert ex["paso"].ci95 == (ex["paso"].p_win, ex["paso"].p_win)


def test_results_unweighted_are_whole_numbers():
    # seat 2 with nobody bid: paso is measured for side A by the solver, reported for
    # side B (seat 2's): wins, points and tricks turned round
    options = bidding.bid_options(ONLINE, 2, ["paso"])
    key = options[0].key
    tallies = {o.key: _tally([True, False, False], [1, -2, -1], [3, 1, 2]) for o in options}
    r = bidding._results(options, tallies, False, 2)[0]
    assert r.option.bid == "paso" and r.option.side == 1 and r.option.solver_side == 0
    assert (r.wins, r.ev_sum) == (2, 2) and type(r.wins) is int and type(r.ev_sum) is int
    assert r.p_win == 2 / 3 and r.ev == 2 / 3 and r.ci95 == stats.wilson(2, 3)
    assert r.tricks == pytest.approx((0, 0, 1 / 3, 1 / 3, 1 / 3, 0), abs=1e-15)   # 5 - tricks
    assert np.array(r.outcomes) == pytest.approx(
        np.array(((-1, 1 / 3), (1, 1 / 3), (2, 1 / 3))), abs=1e-15)
    assert key == ("paso", ())


def test_makes_as_numbers():
    # the solver's makes as 0/1 numbers count as wins, not as indices
    t = _tally([1, 0, 0, 1, 1], [2, -2, -2, 2, 2], [3, 2, 1, 3, 4])
    t01 = stats.Tally()
    t01.add(np.array([1, 0, 0, 1, 1], dtype=np.int32), np.array([2, -2, -2, 2, 2]),
            np.array([3, 2, 1, 3, 4]))
    assert (t01.wins, t01.gp, t01.tricks.tolist()) == (t.wins, t.gp, t.tricks.tolist()) == (
        3.0, 2.0, [0, 1, 1, 2, 1, 0])


# --- advise with a bid model: a plain weighted mean over the same deals --------------------------

def plain(options, deals, trump, rules, w, seat) -> dict:
    """Per allowed option: P(win), EV, tricks and outcomes of seat ``seat``'s side as
    weighted means over ``deals``."""
    out = {}
    mine = side_of(seat)
    for o in options:
        if not o.allowed:
            continue
        makes, gp, tricks = bidding._solve_round(deals, trump, rules, [o.key], 1)[o.key]
        same = o.solver_side == mine
        won = makes if same else ~makes
        points = gp if same else -gp
        counted = tricks if o.side == o.solver_side else 5 - tricks
        total = w.sum()
        out[o.bid] = (float(w[won].sum() / total), float(np.dot(w, points) / total),
                      [float(w[counted == k].sum() / total) for k in range(6)],
                      sorted((int(g), float(w[points == g].sum() / total))
                             for g in np.unique(points)))
    return out


def check(advice, expected, w):
    ess = w.sum() ** 2 / np.square(w).sum()
    assert advice.effective_deals == pytest.approx(ess, rel=1e-12)
    assert advice.to_dict()["effective_deals"] == round(advice.effective_deals, 1)
    for r in advice.options:
        if not r.option.allowed:
            continue
        p, ev, tricks, outcomes = expected[r.option.bid]
        assert r.p_win == pytest.approx(p, rel=1e-12, abs=1e-15), r.option.bid
        assert r.ev == pytest.approx(ev, rel=1e-12, abs=1e-15), r.option.bid
        assert list(r.tricks) == pytest.approx(tricks, rel=1e-12, abs=1e-15)
        assert [g for g, _ in r.outcomes] == [g for g, _ in outcomes]
        assert [q for _, q in r.outcomes] == pytest.approx([q for _, q in outcomes], rel=1e-12)
    return ess


@pytest.mark.parametrize("seat, calls, hand", [
    (2, ["paso"], "Ac 3c Rc Ab 3b"), (2, ["solo"], "Ac 3c Rc Ab 3b"),
    (3, ["solo", "paso"], "Ac 3c Rc Ab 3b"), (4, ["paso", "cuatrola", "paso"], "Ce 3c Rc Ab 3b")])
def test_weighted_exact_advice_is_the_weighted_mean(monkeypatch, seat, calls, hand):
    hand, muestra = parse_cards(hand), parse_card("Ce")
    k = knowledge_of(start_view(hand, muestra, seat, ONLINE))
    for module in (bidding, hidden_deals):                               # the first 1500
        monkeypatch.setattr(module, "count_deals", lambda _k: 1500)
    monkeypatch.setattr(bidding, "EXACT_SLICE", 1000)                       # in two slices
    m = model(ONLINE)
    a = bidding.advise(View.bidding(hand, muestra, seat, calls, ONLINE),
                       Budget(exact=True, workers=1), Models(bids=m))
    deals = enumerate_deals(k, 0, 1500)
    w = bids.call_weights(deals, k.trump, calls, range(1, seat), ONLINE, m)
    assert a.deals == 1500 and len(set(np.round(w, 12))) > 3
    check(a, plain(bidding.bid_options(ONLINE, seat, calls), deals, k.trump, ONLINE, w, seat), w)
    for r in a.options:
        if r.option.allowed:
            assert r.ci95 == (r.p_win, r.p_win)


def test_weighted_sampled_advice_is_the_weighted_mean():
    hand, muestra = parse_cards("Ao 3o Rb Cb 3e"), parse_card("Sb")
    seat, calls = 3, ["solo", "paso"]
    m = model(ONLINE)
    a = bidding.advise(View.bidding(hand, muestra, seat, calls, ONLINE),
                       Budget(samples=700, seed=12, workers=1), Models(bids=m))
    k = knowledge_of(start_view(hand, muestra, seat, ONLINE))
    (chunk,) = iter_chunks(700, 12, ROUND)
    deals = sample_chunk(k, chunk)
    w = bids.call_weights(deals, k.trump, calls, [1, 2], ONLINE, m)
    ess = check(a, plain(bidding.bid_options(ONLINE, seat, calls), deals, k.trump, ONLINE, w,
                         seat), w)
    assert a.deals == 700 and ess < 600
    for r in a.options:
        if r.option.allowed:
            assert r.ci95 == pytest.approx(stats.wilson(r.p_win * ess, ess), rel=1e-12)
            # wider than as many equally weighted deals would give
            lo, hi = r.ci95
            plo, phi = stats.wilson(round(r.p_win * 700), 700)
            assert hi - lo > phi - plo or r.p_win in (0, 1)


# --- hint with a bid model ----------------------------------------------------------------------

def mid_hand(seed: int, rules, calls, cards_played: int) -> HandState:
    rng = random.Random(seed)
    hands, muestra = random_deal(rng)
    h = HandState(hands, muestra, rules)
    for c in calls:
        h.bid(c)
    for _ in range(cards_played):
        h.play(rng.choice(h.legal_cards()))
    return h


@pytest.mark.parametrize("seed, calls, played", [
    (2, ["solo", "paso", "paso", "paso"], 8), (5, ["paso", "paso", "paso", "paso"], 9)])
def test_weighted_exact_hint_is_the_weighted_mean(seed, calls, played):
    h = mid_hand(seed, ONLINE, calls, played)
    m = model(ONLINE)
    got = cardplay.hint(as_view(h), Budget(exact=True), Models(bids=m))
    assert got.cante is None, "pick a position without a pending cante of the seat on turn"
    view = View.from_hand(h, h.to_play)
    k = knowledge_of(view)
    deals = enumerate_deals(k)
    seat = view.seat
    w = bids.call_weights(k.dealt_hands(deals), view.trump, list(view.calls),
                               [s for s in (1, 2, 3, 4) if s != seat], ONLINE, m)
    assert len(set(np.round(w, 12))) > 1
    base = view.position
    d = base.declaring_side
    mine = side_of(seat)
    measured = mine if base.contract == "paso" else d
    sums: dict[int, list[float]] = {}
    for wi, row in zip(w, deals):
        pos = base.with_changes(hands=tuple(int(x) for x in row))
        tricks, makes = solver.solve_cards(pos, ONLINE, "tricks"), solver.solve_cards(pos, ONLINE,
                                                                                      "makes")
        for c in tricks:
            s = sums.setdefault(c, [0.0, 0.0])
            s[0] += wi * (tricks[c] if measured == d else 5 - tricks[c])
            s[1] += wi * (makes[c] if mine == d else 1 - makes[c])
    total = w.sum()
    assert got.deals == len(deals)
    assert got.effective_deals == pytest.approx(total ** 2 / np.square(w).sum(), rel=1e-12)
    assert got.to_dict()["effective_deals"] == round(got.effective_deals, 1)
    assert {c.card for c in got.cards} == set(sums)
    for c in got.cards:
        assert c.tricks == pytest.approx(sums[c.card][0] / total, rel=1e-12)
        assert c.p_win == pytest.approx(sums[c.card][1] / total, rel=1e-12, abs=1e-15)


def test_wilson():
    lo, hi = stats.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert stats.wilson(0, 100)[0] == 0.0 and stats.wilson(100, 100)[1] == 1.0
