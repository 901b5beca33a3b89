"""Deals consistent with one seat's knowledge (cuatrola_solver.hidden.deals): counts,
enumeration, slices and ranks, sampling.

The oracle throughout is the rules engine itself: a deal is consistent when replaying
the observed history on it (``HandState.from_record``) goes through, every play not flagged
as a renuncio is legal, and the observer sees exactly what it saw (OpenSpiel's
resample invariant)."""

from __future__ import annotations

import math
import random
import threading

import numpy as np
import pytest

from cuatrola_solver.game.cards import FULL_DECK, mask_of, parse_card, parse_cards, popcount
from cuatrola_solver.game.constraints import Constraints
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden import deals as deals_module
from cuatrola_solver.hidden.chunks import plan_chunks, sample_chunk, sample_deals_seeded
from cuatrola_solver.hidden.deals import (consistent_mask, count_deals, distinct_hands,
                                          enumerate_deals, sample_deals, unrank_deals)
from cuatrola_solver.hidden.inference import knowledge_of

from helpers import as_set, brute_force, hand_knowledge, random_hand, replay_ok, start_view


# --- the start of a hand -------------------------------------------------------------------

@pytest.mark.parametrize("seat,expected", [(1, 252252), (2, 252252), (3, 252252), (4, 756756)])
def test_start_counts_and_enumeration(seat, expected):
    muestra = parse_card("3o")
    mine = parse_cards("Ao 3c Rb Ce 3o" if seat == 4 else "Ao 3c Rb Ce Sb")
    k = knowledge_of(start_view(mine, muestra, seat))
    assert count_deals(k) == expected == math.comb(15 - (seat != 4), 5) * math.comb(
        10 - (seat != 4), 5)
    deals = enumerate_deals(k)
    assert deals.shape == (expected, 4) and deals.dtype == np.uint32
    assert consistent_mask(k, deals).all()
    assert (deals[:, seat - 1] == mask_of(mine)).all()
    assert (deals[:, 3] >> muestra & 1).all()
    assert (deals.astype(np.uint64).sum(axis=1) == FULL_DECK).all()   # a partition
    if seat in (1, 4):
        assert len(np.unique(deals, axis=0)) == expected


def test_slices_and_ranks():
    k = knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 2))
    full = enumerate_deals(k)
    assert (enumerate_deals(k, 1000, 5000) == full[1000:5000]).all()
    assert (enumerate_deals(k, 252000) == full[252000:]).all()
    assert len(enumerate_deals(k, 10, 5)) == 0
    assert (unrank_deals(k, [7, 3, 7]) == full[[7, 3, 7]]).all()
    with pytest.raises(ValueError):
        unrank_deals(k, [252252])


# --- the compiled walk against its numpy reference --------------------------------------

def _product_knowledges():
    """Product-form knowledges (what _unrank_product is given): the deal of every seat,
    with count constraints, and hands in progress with voids."""
    for seat in range(1, 5):
        yield knowledge_of(start_view(parse_cards("Ao 3c Rb Ce 3o" if seat == 4 else
                                                  "Ao 3c Rb Ce Sb"), parse_card("3o"), seat))
    view = View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    for text in ["3: void o", "1: >=2 e; 3: <=1 e; 4: =2 b",
                 "1: has Ae 3e; 3: >=1 triunfo; 4: <=2 b"]:
        yield knowledge_of(view.assuming(Constraints.parse(text)))
    rng = random.Random(8)
    for _ in range(30):
        yield hand_knowledge(random_hand(rng, rng.randint(0, 18), 0.15), rng.randint(1, 4))


@pytest.mark.skipif(deals_module._compiled is None, reason="the compiled unranking is not built")
def test_compiled_unranking_equals_the_numpy_walk():
    gen = np.random.default_rng(3)
    seen = 0
    for k in _product_knowledges():
        for sub, n in deals_module._branches(k):
            ranks = np.concatenate([np.arange(min(n, 5000)),
                                    gen.integers(0, n, size=2000)]).astype(np.int64)
            got = deals_module._unrank_product(sub, ranks)
            assert got.dtype == np.uint32 and got.shape == (len(ranks), 4)
            assert (got == deals_module._unrank_product_numpy(sub, ranks)).all()
            seen += 1
    assert seen >= 37


# --- brute force on hands in progress ------------------------------------------------------

def _mid_hands(seed: int, count: int, min_cards: int, renuncio_rate: float):
    rng = random.Random(seed)
    made = 0
    while made < count:
        hand = random_hand(rng, rng.randint(min_cards, 19), renuncio_rate)
        seat = rng.randint(1, 4)
        k = hand_knowledge(hand, seat)
        if popcount(k.pool) > 9:
            continue
        made += 1
        yield hand, k


@pytest.mark.parametrize("seed", range(4))
def test_enumeration_equals_brute_force_mid_hand(seed):
    for hand, k in _mid_hands(seed, 12, 8, renuncio_rate=0.15):
        expected = brute_force(hand, k)
        got = enumerate_deals(k)
        assert count_deals(k) == len(got) == len(expected)
        assert as_set(got) == expected
        assert consistent_mask(k, got).all()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40))
def test_enumeration_equals_brute_force_many(seed):
    for hand, k in _mid_hands(1000 + seed, 25, 5, renuncio_rate=0.1):
        expected = brute_force(hand, k)
        assert as_set(enumerate_deals(k)) == expected


def test_samples_pass_the_resample_invariant():
    rng = random.Random(5)
    gen = np.random.default_rng(5)
    for _ in range(40):
        hand = random_hand(rng, rng.randint(0, 19), renuncio_rate=0.1)
        seat = rng.randint(1, 4)
        k = hand_knowledge(hand, seat)
        deals = sample_deals(k, 8, gen)
        assert consistent_mask(k, deals).all()
        for row in deals:
            assert replay_ok(hand, k, row)


# --- uniformity and reproducibility ---------------------------------------------------------

def _constrained_knowledge():
    """A seat-1 view after two tricks, with inferences, and a few dozen deals."""
    rng = random.Random(21)
    while True:
        hand = random_hand(rng, 8)
        k = hand_knowledge(hand, 1)
        n = count_deals(k)
        if 20 <= n <= 200 and any(f & k.pool for f in k.forbidden):
            return hand, k


def test_sampling_is_uniform():
    hand, k = _constrained_knowledge()
    all_deals = enumerate_deals(k)
    index = {row: i for i, row in enumerate(as_set(all_deals))}
    n_cells = len(index)
    draws = 200 * n_cells
    deals = sample_deals(k, draws, np.random.default_rng(1234))
    counts = np.zeros(n_cells)
    for row in deals:
        counts[index[tuple(int(x) for x in row)]] += 1
    expected = draws / n_cells
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = n_cells - 1
    assert chi2 < df + 6 * math.sqrt(2 * df)     # far beyond any plausible fluctuation
    assert counts.min() > 0


def test_same_seed_same_deals():
    k = knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 3))
    a = sample_deals(k, 1000, np.random.default_rng(99))
    b = sample_deals(k, 1000, np.random.default_rng(99))
    c = sample_deals(k, 1000, np.random.default_rng(100))
    assert (a == b).all() and not (a == c).all()
    assert (sample_deals_seeded(k, 500, 7) == sample_deals_seeded(k, 500, 7)).all()


def test_chunked_sampling_independent_of_workers():
    k = knowledge_of(start_view(parse_cards("Ao 3c Rb Ce 3o"), parse_card("3o"), 4))
    one = sample_deals_seeded(k, 2500, 42, workers=1, chunk_size=300)
    two = sample_deals_seeded(k, 2500, 42, workers=2, chunk_size=300)
    assert one.shape == (2500, 4) and (one == two).all()
    chunks = plan_chunks(2500, 42, 300)
    assert [c.size for c in chunks] == [300] * 8 + [100]
    # chunks drawn in any order, by anyone, give the same rows
    parts = {c.index: sample_chunk(k, c) for c in reversed(chunks)}
    assert (np.concatenate([parts[i] for i in range(len(chunks))]) == one).all()
    # a longer run starts with the same chunks
    more = sample_deals_seeded(k, 3000, 42, chunk_size=300)
    assert (more[:2400] == one[:2400]).all()
    assert consistent_mask(k, one).all()


@pytest.mark.parametrize("dtype", [np.uint32, np.int64])
def test_distinct_hands_is_np_unique_with_its_inverse(dtype):
    rng = np.random.default_rng(5)
    k = knowledge_of(View.bidding("Ae 3e Re Ab Sc", "Ae", 4))
    seat_hands = enumerate_deals(k)[:, 0].astype(dtype)
    for hands in (seat_hands, seat_hands[:1], seat_hands[:0], np.array([3, 3, 1], dtype),
                  rng.integers(0, FULL_DECK + 1, 5000).astype(dtype)):
        distinct, where = distinct_hands(hands)
        expected, inverse = np.unique(hands, return_inverse=True)
        assert distinct.dtype == hands.dtype and distinct.tolist() == expected.tolist()
        assert where.tolist() == inverse.reshape(-1).tolist()


def test_chunked_sampling_in_a_process_running_threads():
    """As in the web server: the same deals from processes of a fork server."""
    k = knowledge_of(start_view(parse_cards("Ao 3c Rb Ce 3o"), parse_card("3o"), 4))
    one = sample_deals_seeded(k, 900, 42, workers=1, chunk_size=300)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        two = sample_deals_seeded(k, 900, 42, workers=2, chunk_size=300)
    finally:
        stop.set()
    assert (one == two).all()
