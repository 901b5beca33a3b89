"""What a seat knows (cuatrola_solver.hidden.knowledge): the knowledge at the start of
a hand and what each play and cante reveals."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cuatrola_solver.errors import InconsistentDealError
from cuatrola_solver.game.cards import SUIT_MASKS, parse_card, parse_cards
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.hidden.deals import (consistent_mask, count_deals, enumerate_deals,
                                          sample_deals)
from cuatrola_solver.hidden.inference import knowledge_of

from helpers import as_set, brute_force, card_mask, hand_knowledge, random_hand, start_view


def test_start_knowledge_errors():
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("Ao"), 1))   # muestra is seat 4's
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 4))   # seat 4 lacks it
    with pytest.raises(InconsistentDealError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce"), parse_card("3o"), 2))
    with pytest.raises(ValueError):
        knowledge_of(start_view(parse_cards("Ao 3c Rb Ce Sb"), parse_card("3o"), 5))


def _played_hand(rules, deal_text, muestra, tricks, auction=None):
    hand = HandState([parse_cards(h) for h in deal_text.split("/")], parse_card(muestra),
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
    assert k.played == (card_mask("Sc"), card_mask("Se"), card_mask("Cc"), card_mask("Ac"))
    assert k.forbidden[1] == SUIT_MASKS[1] | SUIT_MASKS[0]
    assert k.forbidden[2] == 0 and k.forbidden[3] == 0
    assert k.known[3] == card_mask("Ro") and k.hidden_counts == (0, 4, 4, 3)
    assert k.hand == card_mask("Ab Rb Cb Sb")
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
                need = card_mask(["Co Ro", "Cc Rc", "Ce Re", "Cb Rb"][cante.suit])
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
    assert sorted(k.not_both) == [(1, card_mask("Ro Co")), (3, card_mask("Ro Co"))]
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


def test_start_knowledge_agrees_with_hand_before_play():
    order = list(range(20))
    random.Random(3).shuffle(order)
    hands = [order[0:5], order[5:10], order[10:15], order[15:20]]
    hand = HandState(hands, hands[3][2])
    for seat in (1, 2, 3, 4):
        a = hand_knowledge(hand, seat)
        b = knowledge_of(start_view(hands[seat - 1], hands[3][2], seat))
        assert (a.known, a.hidden_counts, a.forbidden) == (b.known, b.hidden_counts, b.forbidden)
        assert count_deals(a) == count_deals(b)
