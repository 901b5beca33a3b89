"""The play of the cards (cuatrola_solver.game.play): what a play forbids."""

from __future__ import annotations

import itertools
import random

import pytest

from cuatrola_solver.game.cards import SUIT_MASKS, mask_of, parse_card, parse_cards
from cuatrola_solver.game.play import legal_mask, play_forbidden

from helpers import card_mask


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


def test_play_forbidden_examples():
    o, c, e, b = range(4)
    # did not follow oros: void in oros; copas is trump, no trump yet: no trump either
    assert play_forbidden(parse_card("Se"), parse_cards("Ro"), c, True, True) == \
        SUIT_MASKS[o] | SUIT_MASKS[c]
    # followed with the sota under the rey (no trump): no caballo... only higher: 3, As
    assert play_forbidden(parse_card("So"), parse_cards("Ro"), c, True, True) == card_mask("3o Ao")
    # followed after a trump: montar applies only with beat_led_after_trump
    assert play_forbidden(parse_card("So"), parse_cards("Ro Sc"), c, True, True) == card_mask("3o Ao")
    assert play_forbidden(parse_card("So"), parse_cards("Ro Sc"), c, False, True) == 0
    # a lower trump under a trumped trick: void in oros, no trump above the rey de copas
    assert play_forbidden(parse_card("Sc"), parse_cards("Ro Rc"), c, False, True) == \
        SUIT_MASKS[o] | card_mask("3c Ac")
    # a plain card under a trumped trick: free -> no higher trump; not free -> no trump
    assert play_forbidden(parse_card("Sb"), parse_cards("Ro Rc"), c, False, True) == \
        SUIT_MASKS[o] | card_mask("3c Ac")
    assert play_forbidden(parse_card("Sb"), parse_cards("Ro Rc"), c, False, False) == \
        SUIT_MASKS[o] | SUIT_MASKS[c]
    # arrastre (trump led): not following is void in trumps only
    assert play_forbidden(parse_card("Sb"), parse_cards("Rc"), c, True, True) == SUIT_MASKS[c]
    assert play_forbidden(parse_card("Ao"), [], c, True, True) == 0
