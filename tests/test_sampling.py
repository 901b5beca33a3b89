"""Deals consistent with one seat's knowledge (cuatrola_solver.hidden).

The oracle throughout is the rules engine itself: a deal is consistent when replaying
the observed history on it (``Hand.from_record``) goes through, every play not flagged
as a renuncio is legal, and the observer sees exactly what it saw (OpenSpiel's
resample invariant).
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from cuatrola_solver.game.cards import (FULL_DECK, SUIT_MASKS, cards_of, mask_of, parse_card, parse_cards, popcount)
from cuatrola_solver.errors import CuatrolaError, InconsistentDealError
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.game.play import legal_mask
from cuatrola_solver.notation.record import HandRecord
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.hidden.knowledge import Knowledge
from cuatrola_solver.hidden.deals import (consistent_mask, count_deals, enumerate_deals, sample_deals, unrank_deals)
from cuatrola_solver.hidden.chunks import plan_chunks, sample_chunk, sample_deals_seeded
from cuatrola_solver.game.play import play_forbidden
from helpers import start_view
from helpers import hand_knowledge
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.notation.replay import record_of
from cuatrola_solver.hidden.knowledge import knowledge_of

RULE_VARIANTS = [PRESETS["online"], PRESETS["app"], PRESETS["narro"], PRESETS["italiano"],
                 PRESETS["online"].override(free_when_cannot_overtrump=False),
                 PRESETS["app"].override(free_when_cannot_overtrump=False)]
AUCTIONS = [["paso"] * 4, ["solo", "paso", "paso", "paso"], ["paso", "cuatrola", "paso", "paso"],
            ["paso", "paso", "solo", "paso"], ["solo", "contrasolo", "paso", "paso"],
            ["paso", "paso", "paso", "quintola"]]


# --- random hands in progress -----------------------------------------------------------

def random_hand(rng: random.Random, cards_to_play: int, renuncio_rate: float = 0.0) -> Hand:
    """A random deal and auction, then ``cards_to_play`` random cards (legal ones, except
    with probability ``renuncio_rate`` an illegal held card) and random allowed cantes."""
    order = list(range(20))
    rng.shuffle(order)
    hands = [order[0:5], order[5:10], order[10:15], order[15:20]]
    muestra = rng.choice(hands[3])
    hand = Hand(hands, muestra, rng.choice(RULE_VARIANTS))
    auction = rng.choice(AUCTIONS)
    try:
        for call in auction:
            hand.bid(call)
    except CuatrolaError:
        hand = Hand(hands, muestra, hand.rules)
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


def replay_ok(hand: Hand, k: Knowledge, deal_row) -> bool:
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


def brute_force(hand: Hand, k: Knowledge) -> set[tuple[int, ...]]:
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


def test_start_knowledge_errors():
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("Ao"), 1))   # muestra is seat 4's
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 4))   # seat 4 lacks it
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce"), parse_card("3o"), 2))
    with pytest.raises(ValueError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 5))


def test_slices_and_ranks():
    k = knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 2))
    full = enumerate_deals(k)
    assert (enumerate_deals(k, 1000, 5000) == full[1000:5000]).all()
    assert (enumerate_deals(k, 252000) == full[252000:]).all()
    assert len(enumerate_deals(k, 10, 5)) == 0
    assert (unrank_deals(k, [7, 3, 7]) == full[[7, 3, 7]]).all()
    with pytest.raises(ValueError):
        unrank_deals(k, [252252])


# --- what a play reveals ----------------------------------------------------------------------

def test_play_forbidden_matches_legal_mask():
    """For random tricks and hands holding the card: legal exactly when H & F == 0."""
    rng = random.Random(7)
    for _ in range(1500):
        trump = rng.randrange(4)
        beat, free = rng.random() < 0.5, rng.random() < 0.5
        cards = rng.sample(range(20), rng.randint(2, 4))
        before, c = cards[:-1], cards[-1]
        rest = [x for x in range(20) if x not in cards]
        f = play_forbidden(c, before, trump, beat, free)
        assert not f >> c & 1
        for _ in range(20):
            h = mask_of(rng.sample(rest, rng.randint(0, 4))) | 1 << c
            legal = legal_mask(h, before, trump, beat, free) >> c & 1
            assert bool(legal) == (h & f == 0)


@pytest.mark.slow
def test_play_forbidden_exhaustive():
    for trump in range(4):
        for before in itertools.chain(itertools.permutations(range(0, 20, 3), 1),
                                      itertools.permutations(range(1, 20, 4), 2)):
            for c in (x for x in range(20) if x not in before):
                rest = [x for x in range(20) if x not in before and x != c]
                for beat, free in itertools.product((False, True), repeat=2):
                    f = play_forbidden(c, before, trump, beat, free)
                    for size in range(5):
                        for others in itertools.combinations(rest, size):
                            h = mask_of(others) | 1 << c
                            legal = legal_mask(h, list(before), trump, beat, free) >> c & 1
                            assert bool(legal) == (h & f == 0)


def _card_mask(text):
    return mask_of(parse_cards(text))


def test_play_forbidden_examples():
    o, c, e, b = range(4)
    # did not follow oros: void in oros; copas is trump, no trump yet: no trump either
    assert play_forbidden(parse_card("Se"), parse_cards("Ro"), c, True, True) == \
        SUIT_MASKS[o] | SUIT_MASKS[c]
    # followed with the sota under the rey (no trump): no caballo... only higher: 3, As
    assert play_forbidden(parse_card("So"), parse_cards("Ro"), c, True, True) == _card_mask("3o Ao")
    # followed after a trump: montar applies only with beat_led_after_trump
    assert play_forbidden(parse_card("So"), parse_cards("Ro Sc"), c, True, True) == _card_mask("3o Ao")
    assert play_forbidden(parse_card("So"), parse_cards("Ro Sc"), c, False, True) == 0
    # a lower trump under a trumped trick: void in oros, no trump above the rey de copas
    assert play_forbidden(parse_card("Sc"), parse_cards("Ro Rc"), c, False, True) == \
        SUIT_MASKS[o] | _card_mask("3c Ac")
    # a plain card under a trumped trick: free -> no higher trump; not free -> no trump
    assert play_forbidden(parse_card("Sb"), parse_cards("Ro Rc"), c, False, True) == \
        SUIT_MASKS[o] | _card_mask("3c Ac")
    assert play_forbidden(parse_card("Sb"), parse_cards("Ro Rc"), c, False, False) == \
        SUIT_MASKS[o] | SUIT_MASKS[c]
    # arrastre (trump led): not following is void in trumps only
    assert play_forbidden(parse_card("Sb"), parse_cards("Rc"), c, True, True) == SUIT_MASKS[c]
    assert play_forbidden(parse_card("Ao"), [], c, True, True) == 0


def _played_hand(rules, deal_text, muestra, tricks, auction=None):
    hand = Hand([parse_cards(h) for h in deal_text.split("/")], parse_card(muestra),
                get_rules(rules))
    for call in auction or ["paso"] * 4:
        hand.bid(call)
    for c in parse_cards(tricks):
        hand.play(c)
    return hand


def test_knowledge_from_a_trick():
    # trump oros (muestra Ro with seat 4). Seat 1 leads Sc, seat 2 plays Se (void in copas,
    # no trump: reveals no oros either), seat 3 plays Cc (beats: nothing), seat 4 Ac.
    hand = _played_hand("online", "Sc Ab Rb Cb Sb / Se 3e Ae Ce 3b / Cc Rc 3c So Co / Ac Ro Ao 3o Re",
                        "Ro", "Sc Se Cc Ac")
    k = hand_knowledge(hand, 1)
    assert k.played == (_card_mask("Sc"), _card_mask("Se"), _card_mask("Cc"), _card_mask("Ac"))
    assert k.forbidden[1] == SUIT_MASKS[1] | SUIT_MASKS[0]
    assert k.forbidden[2] == 0 and k.forbidden[3] == 0
    assert k.known[3] == _card_mask("Ro") and k.hidden_counts == (0, 4, 4, 3)
    assert k.hand == _card_mask("Ab Rb Cb Sb")
    got = enumerate_deals(k)
    assert len(got) == count_deals(k) == len(brute_force(hand, k))
    assert as_set(got) == brute_force(hand, k)


def test_renuncio_is_not_used_for_inference():
    # seat 2 holds Re but plays Sb on a led espada: a renuncio; later it plays Re.
    hand = _played_hand("online", "Se Ab Rb Cb Sc / Sb Re Ae Ce 3b / Cc Rc 3c So Co / Ac Ro Ao 3o 3e",
                        "Ro", "Se Sb")
    assert [(r.trick, r.seat) for r in hand.renuncios] == [(1, 2)]
    k = hand_knowledge(hand, 1)
    assert k.forbidden[1] == 0 and (k.plays[1].trick, k.plays[1].seat) in k.ignored
    # taken as legal, the play says seat 2 is void in espadas and holds no oros
    k2 = hand_knowledge(hand, 1, renuncios=[])
    assert k2.forbidden[1] == SUIT_MASKS[2] | SUIT_MASKS[0]
    assert count_deals(k2) < count_deals(k)
    assert consistent_mask(k, enumerate_deals(k)).all()
    # seat 3 trumps with Co, seat 4 follows 3e; seat 3 leads Cc, 4 Ac, 1 Sc, and seat 2
    # (void in copas, no trump) discards the Re it held in trick 1
    for c in parse_cards("Co 3e Cc Ac Sc Re"):
        assert hand.play(c) is None
    with pytest.raises(InconsistentDealError):
        hand_knowledge(hand, 1, renuncios=[])
    k3 = hand_knowledge(hand, 3)
    assert k3.forbidden[1] & SUIT_MASKS[2] == 0            # still nothing from the renuncio
    assert k3.forbidden[1] == SUIT_MASKS[1] | SUIT_MASKS[0]  # but trick 2 shows no copas, no oros
    assert as_set(enumerate_deals(k3)) == brute_force(hand, k3)


def test_cante_reveals_cards():
    rng = random.Random(11)
    seen = 0
    for _ in range(400):
        hand = random_hand(rng, rng.randint(4, 12))
        for cante in hand.cantes:
            for seat in (1, 2, 3, 4):
                if seat == cante.seat:
                    continue
                k = hand_knowledge(hand, seat)
                need = _card_mask(["Co Ro", "Cc Rc", "Ce Re", "Cb Rb"][cante.suit])
                assert k.known[cante.seat - 1] & need == need & ~k.played[cante.seat - 1]
                seen += 1
        if seen > 20:
            break
    assert seen > 0


def test_a_twenty_before_the_forty_reveals_no_forty():
    # italiano (forty_first): seat 1 sings the 20 in bastos after trick 1, so neither seat 1
    # nor seat 3 then held both the rey and the caballo of oros (trump)
    hand = _played_hand("italiano", "Ro Ce Cb Rb Ab / 3o Sc Cc 3c Re / So Co Ac Ae Sb / "
                        "Ao Rc Se 3e 3b", "Ao", "Ce Re Ae Se")
    hand.sing(1, 3)
    hand.play(parse_card("Sb"))
    k = hand_knowledge(hand, 2)
    assert sorted(k.not_both) == [(1, _card_mask("Ro Co")), (3, _card_mask("Ro Co"))]
    deals = enumerate_deals(k)
    assert as_set(deals) == brute_force(hand, k)
    assert consistent_mask(k, deals).all()
    no_rule = hand_knowledge(_played_hand("online", "Ro Ce Cb Rb Ab / 3o Sc Cc 3c Re / "
                                               "So Co Ac Ae Sb / Ao Rc Se 3e 3b", "Ao",
                                               "Ce Re Ae Se"), 2)
    assert no_rule.not_both == ()
    # a sample over the branches is uniform enough to hit every branch
    drawn = sample_deals(k, 3000, np.random.default_rng(3))
    assert consistent_mask(k, drawn).all()
    assert len(as_set(drawn)) > 0.9 * len(deals)


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


def test_start_knowledge_agrees_with_hand_before_play():
    order = list(range(20))
    random.Random(3).shuffle(order)
    hands = [order[0:5], order[5:10], order[10:15], order[15:20]]
    hand = Hand(hands, hands[3][2])
    for seat in (1, 2, 3, 4):
        a = hand_knowledge(hand, seat)
        b = knowledge_of(start_view(hands[seat - 1], hands[3][2], seat))
        assert (a.known, a.hidden_counts, a.forbidden) == (b.known, b.hidden_counts, b.forbidden)
        assert count_deals(a) == count_deals(b)


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
