"""The bid advisor (cuatrola_solver.advice.bidding): options per auction and score,
agreement with a per-deal brute force, seeding, early stopping, exact vs sampled, the
weighted mean under a bid model, huge sample sizes."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from cuatrola_solver.advice import bidding, budget, stats
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.dd import solver
from cuatrola_solver.errors import CuatrolaError, InconsistentDealError, NotationError
from cuatrola_solver.game import play
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.play import side_of
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden.chunks import plan_chunks, sample_chunk
from cuatrola_solver.hidden.deals import enumerate_deals, sample_deals
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.models.preset import Models

from helpers import start_view

ONLINE = get_rules("online")


def opts(rules, seat, calls=None, score=None):
    return {o.bid: o for o in bidding.bid_options(get_rules(rules), seat, calls, score)}


# --- options per auction and score ---------------------------------------------------

def test_options_nobody_bid():
    o = opts("online", 1)
    assert list(o) == ["paso", "solo", "cuatrola", "quintola"]      # no contrasolo online
    assert all(x.allowed for x in o.values())
    assert (o["paso"].contract, o["paso"].declarer, o["paso"].defending) == ("paso", (), False)
    assert (o["solo"].contract, o["solo"].declarer) == ("solo", (1,))
    # paso is measured for the advising seat's side (docs/rules.md 8.10)
    p = opts("online", 2)["paso"]
    assert (p.side, p.defending) == (1, False)


def test_options_after_opponent_solo():
    o = opts("online", 2, "solo")
    assert (o["paso"].contract, o["paso"].declarer, o["paso"].defending) == ("solo", (1,), True)
    assert not o["solo"].allowed and "stronger" in o["solo"].reason
    assert o["cuatrola"].declarer == (2,) and not o["cuatrola"].defending


def test_options_partner_take_over_and_contrasolo():
    o = opts("narro", 3, "solo paso")
    assert (o["paso"].contract, o["paso"].declarer, o["paso"].defending) == ("solo", (1,), False)
    assert o["solo"].allowed and o["solo"].declarer == (3,)          # take-over
    assert not o["contrasolo"].allowed                              # partner of the solo bidder
    o = opts("narro", 2, ["solo"])
    assert o["contrasolo"].allowed and o["contrasolo"].declarer == (1, 2)
    assert o["contrasolo"].defending          # measured for the solo bidder's side (8.1)
    o = opts("narro", 4, "solo contrasolo paso")
    assert o["contrasolo"].allowed and o["contrasolo"].declarer == (1, 4)
    assert o["paso"].contract == "contrasolo" and o["paso"].declarer == (1, 2)
    assert not opts("online", 3, "solo paso")["solo"].allowed       # no take-over online


def test_options_bid_caps():
    o = opts("app", 1, score=Score(10, 3))
    assert o["paso"].allowed
    assert [b for b, x in o.items() if not x.allowed] == ["solo", "cuatrola", "quintola"]
    assert "target of 11" in o["cuatrola"].reason
    o = opts("app", 2, "paso", Score(10, 3))                        # side B has 3
    assert all(x.allowed for x in o.values())
    o = opts("italiano", 1, score=Score(18, 0))
    assert o["solo"].allowed and not o["quintola"].allowed


@pytest.mark.parametrize("seat, calls, words", [
    (1, "paso", ["1 call given", "nobody speaks before seat 1", "expected 0"]),
    (3, "paso", ["1 call given", "seats 1 and 2 speak before seat 3", "expected 2"]),
    (2, "paso paso", ["2 calls given", "only seat 1 speaks before seat 2"]),
    (3, "solo solo", ["call 2", "'solo'", "stronger"]),
    (2, "bogus", ["'bogus'", "call 1"]),
    (3, "paso contrasolo", ["call 2", "not played"]),
    (5, None, ["seat 5"]),
])
def test_bad_auctions(seat, calls, words):
    with pytest.raises(CuatrolaError) as e:
        bidding.bid_options(ONLINE, seat, calls)
    for w in words:
        assert w in str(e.value)


def test_bad_hands():
    with pytest.raises(InconsistentDealError, match="4 cards"):
        bidding.advise(View.bidding(parse_cards("Ao 3o Ro Co"), parse_card("3c"), 1),
                       Budget(samples=10), Models.NONE)
    with pytest.raises(InconsistentDealError, match="belongs to seat 4"):
        bidding.advise(View.bidding(parse_cards("Ao 3o Ro Co 3c"), parse_card("3c"), 1),
                       Budget(samples=10), Models.NONE)
    with pytest.raises(InconsistentDealError, match="not in seat 4"):
        bidding.advise(View.bidding(parse_cards("Ao 3o Ro Co So"), parse_card("3c"), 4),
                       Budget(samples=10), Models.NONE)
    with pytest.raises(NotationError, match="repeats"):
        bidding.advise(View.bidding([0, 0, 1, 2, 3], parse_card("3c"), 1), Budget(samples=10),
                       Models.NONE)


def test_choice_ties_go_to_the_weaker_call():
    o = bidding.bid_options(ONLINE, 1)
    rs = [bidding.OptionResult(x, 0.5, (0.5, 0.5), 1.0, None, 1, ev) for x, ev in
          zip(o, (3, 5, 5, 4))]
    assert bidding._choose(rs) == "solo"
    rs[1] = bidding.OptionResult(bidding.Option("solo", False, "no"))
    assert bidding._choose(rs) == "cuatrola"


# --- agreement with a per-deal brute force ---------------------------------------------

def brute(rules, seat, deals, trump, option):
    """(wins, ev sum, trick counts) of seat's side, one solver.solve per deal and objective
    (makes asked directly, not derived)."""
    wins = ev = 0
    counts = [0] * 6
    mine = side_of(seat)
    for row in deals:
        pos = play.deal_position(tuple(int(h) for h in row), trump, option.contract,
                                   option.declarer)
        d = pos.declaring_side
        mk = solver.solve(pos, rules, "makes")
        gp = solver.solve(pos, rules, "game_points")
        t = solver.solve(pos, rules, "tricks")
        wins += mk if d == mine else 1 - mk
        ev += gp if d == mine else -gp
        counts[t if option.side == d else 5 - t] += 1
    return wins, ev, counts


CASES = [  # rules, seat, hand, muestra, auction
    ("online", 1, "Ao 3o Ro Co So", "3c", None),
    ("online", 2, "Ac 3o Rc Cb So", "3e", "paso"),
    ("narro", 2, "Ac 3o Rc Cb So", "3c", "solo"),
    ("narro", 3, "Ab 3b Rc Ce So", "Sb", "solo paso"),
    ("italiano", 4, "Ac 3c Rc Ce Sb", "Sb", "paso paso paso"),
    ("app", 3, "Ae 3o Rc Ce Sb", "Ao", "paso cuatrola"),
]


@pytest.mark.parametrize("rules, seat, hand, muestra, auction", CASES)
def test_sampled_advice_matches_brute_force(rules, seat, hand, muestra, auction):
    rs = get_rules(rules)
    n = 150
    a = bidding.advise(View.bidding(parse_cards(hand), parse_card(muestra), seat, auction, rs, None),
                       Budget(samples=n, seed=7, workers=2), Models.NONE)
    assert a.deals == n and a.seed == 7
    k = knowledge_of(start_view(parse_cards(hand), parse_card(muestra), seat, rs))
    deals = sample_chunk(k, plan_chunks(n, 7, budget.ROUND)[0])
    for r in a.options:
        if not r.option.allowed:
            assert r.p_win is None and r.option.reason
            continue
        wins, ev, counts = brute(rs, seat, deals, k.trump, r.option)
        assert r.wins == wins and r.ev_sum == ev
        assert r.p_win == wins / n and r.ev == ev / n
        assert r.tricks == tuple(c / n for c in counts)
        assert r.ci95 == stats.wilson(wins, n)
    best = max((r for r in a.options if r.option.allowed), key=lambda r: r.ev_sum)
    assert a.option(a.advice).ev_sum == best.ev_sum


@pytest.mark.parametrize("workers", [1, 2])
def test_an_exception_from_progress_cancels_an_exact_advice(workers):
    """How a caller (the web table's Cancel) stops an exact advice: its ``progress``
    raises; the exception comes out of advise once the chunks being searched end, long
    before every layout is done, and the next advice is whole and right."""
    view = View.bidding("Ac 3o Rc Cb So", "3c", 2, rules=get_rules("narro"))

    class Cancel(Exception):
        pass

    seen = []

    def cancel(done, total):
        seen.append(done)
        if done * 10 >= total:
            raise Cancel

    with pytest.raises(Cancel):
        bidding.advise(view, Budget(exact=True, workers=workers), Models.NONE,
                       progress=cancel)
    assert seen[-1] < 252252 // 2              # the first call past a tenth raised
    whole = bidding.advise(view, Budget(exact=True, workers=workers), Models.NONE)
    assert whole.deals == 252252 and whole.exact


def test_exact_mode_counts_every_deal(monkeypatch):
    """Exact mode on a truncated enumeration (the first 2500 deals, summed in slices of
    1000) equals the brute force over the same deals, as exact fractions; the progress
    counts the layouts searched, each contract an equal share, up to every layout."""
    rs = get_rules("narro")
    hand, muestra, seat = parse_cards("Ac 3o Rc Cb So"), parse_card("3c"), 2
    k = knowledge_of(start_view(hand, muestra, seat, rs))
    import cuatrola_solver.hidden.deals as deals_module
    monkeypatch.setattr(bidding, "count_deals", lambda _k: 2500)
    monkeypatch.setattr(deals_module, "count_deals", lambda _k: 2500)
    monkeypatch.setattr(bidding, "EXACT_SLICE", 1000)
    seen = []
    a = bidding.advise(View.bidding(hand, muestra, seat, "solo", rs, None),
                       Budget(exact=True, workers=2), Models.NONE, progress=lambda done,
                       total: seen.append((done, total)))
    keys = {r.option.key for r in a.options if r.option.allowed}
    assert {total for _, total in seen} == {2500}
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    assert {2500 * (i + 1) // len(keys) for i in range(len(keys))} <= {d for d, _ in seen}
    assert seen[-1] == (2500, 2500)
    assert a.exact and a.deals == 2500 and a.seed is None
    deals = enumerate_deals(k, 0, 2500)
    for r in a.options:
        if not r.option.allowed:
            continue
        t = stats.Tally()
        key = (r.option.contract, r.option.declarer)
        t.add(*bidding._solve_round(deals, k.trump, rs, [key], 1)[key])
        flip = r.option.solver_side != side_of(seat)
        wins = t.n - t.wins if flip else t.wins
        ev = -t.gp if flip else t.gp
        assert r.p_win == wins / 2500 and r.ci95 == (r.p_win, r.p_win)
        assert r.ev == ev / 2500
        assert sum(r.tricks) == pytest.approx(1)


def test_makes_is_derived_exactly():
    """makes == game_points > 0 (points) and tricks >= goal (tricks), with the tricks of
    one declarer shared by its contracts: checked against the solver's own makes, game
    points and tricks on every contract of several rule sets."""
    rng = np.random.default_rng(3)
    for name in ("online", "narro", "italiano", "app"):
        rs = get_rules(name)
        k = knowledge_of(start_view(parse_cards("Ac 3o Rc Cb So"), parse_card("3c"), 2, rs))
        deals = sample_deals(k, 60, rng)
        trumps = np.full(len(deals), k.trump)
        rows = solver.contract_rows(rs)
        solved = bidding._solve_round(deals, k.trump, rs, rows, 2)
        for contract, decl in rows:
            makes, gp, tricks = solved[(contract, decl)]
            ref = solver.solve_batch(deals.astype(np.int64), trumps, rs, contract, decl,
                                     "tricks", 1)
            assert np.array_equal(tricks, ref), (name, contract, decl)
            ref = solver.solve_batch(deals.astype(np.int64), trumps, rs, contract, decl,
                                     "makes", 1)
            assert np.array_equal(makes.astype(np.int32), ref), (name, contract, decl)
            ref = solver.solve_batch(deals.astype(np.int64), trumps, rs, contract, decl,
                                     "game_points", 1)
            assert np.array_equal(gp, ref), (name, contract, decl)


# --- seeding and stopping ----------------------------------------------------------------

def test_seed_reproducible_and_independent_of_workers():
    view = View.bidding(parse_cards("Ac 3o Rc Cb So"), parse_card("3e"), 2, "paso")
    one = bidding.advise(view, Budget(samples=2500, seed=11, workers=1), Models.NONE).to_dict()
    two = bidding.advise(view, Budget(samples=2500, seed=11, workers=2), Models.NONE).to_dict()
    assert one == two
    other = bidding.advise(view, Budget(samples=2500, seed=12, workers=2), Models.NONE).to_dict()
    assert other["options"] != one["options"]


def test_fresh_seed_is_reported_and_replays():
    view = View.bidding(parse_cards("Ac 3o Rc Cb So"), parse_card("3e"), 2, "paso")
    a = bidding.advise(view, Budget(samples=500), Models.NONE)
    assert isinstance(a.seed, int)
    assert bidding.advise(view, Budget(samples=500, seed=a.seed), Models.NONE).to_dict() \
        == a.to_dict()


def test_early_stop():
    view = View.bidding(parse_cards("Ao 3o Ro Co So"), parse_card("3c"), 1)
    a = bidding.advise(view, Budget(samples=20000, seed=1, workers=2), Models.NONE)
    assert a.deals % budget.ROUND == 0 and 2 * budget.ROUND <= a.deals < 20000
    assert all((r.ci95[1] - r.ci95[0]) / 2 <= 0.01 for r in a.options if r.option.allowed)
    b = bidding.advise(view, Budget(samples=3000, seed=1, workers=2, tolerance=1e-9),
                       Models.NONE)
    assert b.deals == 3000


def test_json_shape():
    a = bidding.advise(View.bidding(parse_cards("Ao 3o Ro Co So"), parse_card("3c"), 1),
                       Budget(samples=200, seed=1), Models.NONE)
    d = a.to_dict()
    for key in ("rules", "seat", "hand", "muestra", "exact", "deals", "seed", "options",
                "advice"):
        assert key in d
    assert d["hand"] == "Ao 3o Ro Co So" and d["muestra"] == "3c" and d["rules"] == "online"
    for o in d["options"]:
        assert {"bid", "allowed", "p_win", "ci95", "ev", "tricks"} <= set(o)
        assert len(o["tricks"]) == 6 and sum(o["tricks"]) == pytest.approx(1)
        assert o["ci95"][0] <= o["p_win"] <= o["ci95"][1]


@pytest.mark.parametrize("score", [None, Score(19, 20)])
def test_typed_figures_are_the_json_figures(score):
    """What the human answer reads from the Advice (the advised option, the yardstick of
    played odds, the declarer and side as shown, the match, the effective deals) is what
    its JSON says."""
    rules = get_rules("narro")
    view = View.bidding("Ac 3c Ro Co Ab", "So", 2, "paso", rules, score)
    a = bidding.advise(view, Budget(samples=300, seed=1), Models.of(rules))
    d = a.to_dict()
    assert a.played == (d["model"] == "played") and a.played
    assert a.for_match == ("advice_per_hand" in d) == (score is not None)
    assert a.best.option.bid == d["advice"]
    assert a.effective_deals_shown is not None
    assert a.effective_deals_shown == d["effective_deals"]
    for r, o in zip(a.options, d["options"], strict=True):
        if not o["allowed"]:
            assert r.p_rated is None and r.ev_rated is None
            continue
        assert (r.p_rated, r.ev_rated) == (o["p_played"], o["ev_played"])
        assert (r.option.shown_declarer, r.option.side_name) == (o["declarer"], o["side"])


# --- exhaustive (slow) ---------------------------------------------------------------------

@pytest.mark.slow
def test_exact_and_sampled_agree():
    hand, muestra = parse_cards("Ao 3o Ro Co So"), parse_card("3c")
    ex = bidding.advise(View.bidding(hand, muestra, 1), Budget(exact=True), Models.NONE)
    assert ex.deals == 252252
    sm = bidding.advise(View.bidding(hand, muestra, 1), Budget(seed=5), Models.NONE)
    for e, s in zip(ex.options, sm.options):
        lo, hi = s.ci95
        assert lo - 1e-9 <= e.p_win <= hi + 1e-9 or abs(e.p_win - s.p_win) < 0.015
        assert abs(e.ev - s.ev) < 0.1


def test_advise_with_huge_samples_stops_and_stays_small():
    cards = parse_cards("Ac 3c Ro Co Ab")
    tracemalloc.start()
    a = bidding.advise(View.bidding(cards, parse_card("So"), 2),
                       Budget(samples=10 ** 12, seed=1, workers=1), Models.NONE)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert a.deals <= budget.SETTLED
    assert peak < 50 << 20
    same = bidding.advise(View.bidding(cards, parse_card("So"), 2),
                          Budget(samples=budget.SETTLED, seed=1, workers=1), Models.NONE)
    assert same.to_dict() == a.to_dict() | {"deals": same.deals}
