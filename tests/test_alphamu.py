"""αμ: the search of one card per information set, against what it must equal
where there is nothing to fuse (one world: double dummy; depth 1: PIMC) and the bound it
must respect (never above PIMC's value of the same card); the player's spec, legality and
view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cuatrola_solver.advice import cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.bots.alphamu import choose, reduce_front, worlds_of
from cuatrola_solver.bots.players import AlphaMuPlayer, parse_player
from cuatrola_solver.bots.playout import play_hand
from cuatrola_solver.dd.solver import solve
from cuatrola_solver.game.cards import random_deal
from cuatrola_solver.game.play import play_card
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.replay import record_of, replay, view_of

from helpers import random_game

ONLINE = get_rules("online")


def cut(hand, cards: int):
    """The hand replayed up to its first ``cards`` cards (cantes kept), and the view of
    the seat on turn."""
    rec = record_of(hand)
    n = sum(hand.active)
    flat = [c for t in rec.tricks for c in t][:cards]
    rec.tricks = [flat[i:i + n] for i in range(0, len(flat), n)]
    rec.cantes = [k for k in rec.cantes if k.after_trick <= cards // n]
    h = replay(rec)
    return h, view_of(rec, h.to_play)


def test_reduce_front_keeps_the_vectors_no_other_contains():
    assert sorted(reduce_front([0b011, 0b001, 0b110, 0b011, 0b100])) == [0b011, 0b110]
    assert reduce_front([0, 0]) == [0]
    assert reduce_front([0b111, 0b101, 0]) == [0b111]
    assert reduce_front([]) == []


@pytest.mark.parametrize("cards", [4, 6, 8, 10])
def test_one_world_is_double_dummy(cards):
    """Over the true deal alone there is nothing to tell apart: looking to the end, each
    card wins exactly when the double-dummy solver says the seat's side makes it (a
    contract where cantes do not count, so the search's own singing plays no part)."""
    rng = random.Random(cards)
    checked = 0
    for _ in range(40):
        if checked == 6:
            break
        hand, view = cut(random_game(rng, ONLINE, "cuatrola"), cards)   # three seats play
        if hand.is_over() or len(view.legal_cards()) < 2:
            continue
        pos = hand.pos
        got = choose(view, [pos.hands], [1.0], depth=5)
        mine = pos.declaring_side == (view.seat - 1) % 2
        for c in view.legal_cards():
            after = play_card(pos, c, ONLINE.monte)
            wins = bool(solve(after, ONLINE, "makes")) == mine
            assert got.pimc[c] == float(wins)
            if c in got.scores:
                assert got.scores[c] == float(wins)
        assert got.pimc[got.card] == max(got.pimc.values())
        checked += 1
    assert checked >= 4


def test_depth_one_is_pimc_over_the_same_worlds():
    """With depth 1 each card's value is PIMC's win count over the worlds: hint's P(win)
    over every consistent deal, times their number."""
    rng = random.Random(2)
    checked = 0
    for k in range(12):
        hand, view = cut(random_game(rng, ONLINE, ("paso", "solo", "cuatrola")[k % 3]),
                         9 + k % 4)
        if hand.is_over() or len(view.legal_cards()) < 2 or view.cante_options():
            continue
        worlds, weights, exact = worlds_of(view, 10_000, 1)
        assert exact and np.all(weights == 1)
        got = choose(view, worlds, weights, depth=1)
        want = cardplay.hint(view, Budget(exact=True), Models.NONE)
        assert want.deals == len(worlds)
        for c in want.cards:
            assert got.pimc[c.card] == pytest.approx(c.p_win * len(worlds))
        assert got.pimc[got.card] == pytest.approx(want.cards[0].p_win * len(worlds))
        checked += 1
    assert checked >= 5


def test_with_one_choice_left_alphamu_is_pimc():
    """A seat holding two cards chooses once: its next card is forced, so there is no
    strategy to fuse and αμ, looking to the end over many worlds, values each card as
    PIMC does (the other seats still answer world by world)."""
    rng = random.Random(8)
    checked = 0
    for k in range(60):
        if checked == 10:
            break
        game = random_game(rng, ONLINE, ("paso", "solo", "cuatrola")[k % 3])
        n = sum(game.active)
        hand, view = cut(game, 3 * n + k % n)
        if hand.is_over() or len(view.legal_cards()) < 2 or bin(view.held).count("1") != 2:
            continue
        worlds, weights, _ = worlds_of(view, 200, k)
        got = choose(view, worlds, weights, depth=4)
        assert got.scores and all(got.scores[c] == pytest.approx(got.pimc[c])
                                  for c in got.scores)
        checked += 1
    assert checked == 10


def test_alphamu_never_values_a_card_above_pimc_and_sometimes_below():
    """Choosing one card for worlds it cannot tell apart can only lose against choosing
    per world: every card's αμ score is at most its PIMC score; over many positions some
    are below (the fusion PIMC counts on)."""
    rng = random.Random(11)
    below = checked = 0
    for k in range(40):
        hand, view = cut(random_game(rng, ONLINE, ("paso", "solo")[k % 2]), 4 + k % 6)
        if hand.is_over() or len(view.legal_cards()) < 2:
            continue
        worlds, weights, _ = worlds_of(view, 30, k)
        got = choose(view, worlds, weights, depth=3)
        for c, s in got.scores.items():
            assert s <= got.pimc[c] + 1e-9
            below += s < got.pimc[c] - 1e-9
        assert got.card in view.legal_cards()
        assert got.worlds == len(worlds) and 0 < got.effective <= len(worlds) + 1e-9
        checked += 1
    assert checked >= 25 and below >= 1


def test_worlds_are_every_deal_when_few_else_a_seeded_draw():
    hand, view = cut(random_game(random.Random(5), ONLINE, "paso"), 12)
    every, w, exact = worlds_of(view, 10_000, 1)
    assert exact and len(every) == len({tuple(h) for h in every})
    few, w2, exact2 = worlds_of(view, 3, 7)
    assert not exact2 and w2.sum() == 3 and set(few) <= set(every)
    assert worlds_of(view, 3, 7)[0] == few
    # weighed by the calls and the play: never more weight than the draws
    _, w3, _ = worlds_of(view, 40, 7, Models.of("online", played=False))
    assert np.all(w3 >= 0) and w3.sum() <= 40


def test_the_player_spec_and_its_defaults():
    p = parse_player("alphamu:worlds=12,depth=3")
    assert isinstance(p, AlphaMuPlayer) and (p.worlds, p.depth) == (12, 3)
    assert repr(p) == "alphamu:worlds=12,depth=3"
    assert parse_player(repr(p)) == p
    assert repr(parse_player("alphamu")) == "alphamu:worlds=40,depth=2"
    late = parse_player("alphamu:full_from=3,worlds=100")
    assert repr(late) == "alphamu:worlds=100,depth=2,full_from=3" and late.full_from == 3
    assert parse_player("alphamu:bid=heuristic").reading(ONLINE) == Models.NONE
    q = parse_player("alphamu:read_play=1,read_calls=1,bid=heuristic")
    assert repr(q) == "alphamu:worlds=40,depth=2,read_calls=1,read_play=1,bid=heuristic"
    assert q.reading(ONLINE) == Models(Models.of("online").bids, None, Models.of("online").cards)
    assert parse_player(repr(q)) == q
    for bad, text in [("alphamu:depth=0", "expected 1 to 100000"),
                      ("alphamu:read_play=2", "expected 0 or 1"),
                      ("alphamu:width=3", "bad option")]:
        with pytest.raises(Exception) as e:
            parse_player(bad)
        assert text in str(e.value)


@pytest.mark.parametrize("preset", ["online", "narro", "app", "italiano"])
def test_the_player_plays_legal_cards_on_every_preset(preset):
    """play_hand refuses an illegal card; the hands end with a result."""
    player = parse_player("alphamu:worlds=10,depth=2,bid=heuristic")
    for seed in range(3):
        rec = play_hand(random_deal(random.Random(seed)), [player] * 4, preset, seed=seed)
        h = replay(rec)
        assert h.result() is not None and not h.renuncios


def test_late_in_the_hand_the_player_looks_to_the_end(monkeypatch):
    """full_from=T: from trick T on, the search's depth is the rest of the hand."""
    from cuatrola_solver.bots import players as module
    depths = []
    real = module.choose

    def spy(view, hands, weights, depth):
        depths.append((view.trick_number, depth))
        return real(view, hands, weights, depth)

    monkeypatch.setattr(module, "choose", spy)
    player = parse_player("alphamu:worlds=10,full_from=3,bid=heuristic")
    play_hand(random_deal(random.Random(6)), [player] * 4, "online", seed=1)
    assert depths and all(d == (5 if t >= 3 else 2) for t, d in depths)
    assert {t for t, _ in depths} >= {1, 3}


def test_the_player_is_seeded():
    player = parse_player("alphamu:worlds=10,depth=2,bid=heuristic")
    deal = random_deal(random.Random(4))
    assert play_hand(deal, [player] * 4, "online", seed=3) == \
        play_hand(deal, [player] * 4, "online", seed=3)
