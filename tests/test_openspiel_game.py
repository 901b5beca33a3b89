"""Cuatrola as an OpenSpiel game (cuatrola_solver/bots/openspiel_game.py) and the
``openspiel-ismcts`` player.

The game is held against the rules engine and the lab's playout on many seeded random
games of every preset: at every node the legal actions are those the engine and the
seat's view give (calls, cards, cantes in the lab's singing order), and the returns are
the engine's result.  Resampling keeps the player's information and draws exactly the
deals a brute-force search over the hidden cards finds.  OpenSpiel's own random
simulation test runs on it.  The player answers from its view only, is seeded, and a bad
spec or a missing OpenSpiel is one line.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from collections import Counter

import pytest

from cuatrola_solver.bots import openspiel_game as og
from cuatrola_solver.bots.openspiel_game import (ACTION_CALL, ACTION_QUIET, ACTION_SING,
                                                 CHANCE, Setup, OpenSpielHand, deal_actions)
from cuatrola_solver.bots.players import Bidder, OpenSpielIsmctsPlayer, parse_player
from cuatrola_solver.bots.playout import play_hand, singing_order
from cuatrola_solver.errors import CuatrolaError, IllegalBidError, RulesError
from cuatrola_solver.game.auction import Auction, CALLS
from cuatrola_solver.game.cards import mask_of, random_deal
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.play import side_of
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.notation.replay import record_of, replay

try:
    import pyspiel
except ImportError:          # the openspiel extra is not installed: those tests skip
    pyspiel = None

needs_openspiel = pytest.mark.skipif(pyspiel is None, reason="OpenSpiel is not installed")
PRESET_NAMES = list(PRESETS)


def random_calls(rng: random.Random, rules, score=None) -> list[str]:
    """A random legal auction of four calls: each seat passes four times in five, else
    makes a random legal bid (about two auctions in five are all paso, where most cantes
    are sung)."""
    auction = Auction(rules, score)
    while not auction.is_complete:
        bids = [c for c in auction.legal_calls() if c != "paso"]
        auction.call(rng.choice(bids) if bids and rng.random() < 0.2 else "paso")
    return list(auction.calls)


# --- the game against the engine ------------------------------------------------------------

def engine_walk(table_node, apply, rules, fixed, score, rng: random.Random
                ) -> tuple[HandState, list]:
    """Play one random game of the OpenSpiel game (``table_node()`` is who acts and the
    legal actions, ``apply(action)`` applies one) and, beside it, the same game on a
    fresh engine :class:`HandState` as the lab's playout asks it: at each node the legal
    actions must be those of the engine and of the seat's view (calls, cards, and the
    cantes of each seat the playout would ask, in its singing order).  Returns the
    engine's hand and the actions."""
    dealt, hand, actions = [], None, []
    order_i, boundary = 0, None              # the playout's place in the singing order
    while True:
        who, legal = table_node()
        legal = list(legal)
        if who == og.TERMINAL:
            break
        if who == CHANCE:
            assert legal == sorted(set(range(20)) - set(dealt))
            a = rng.choice(legal)
            dealt.append(a)
            apply(a)
            actions.append(a)
            if len(dealt) == 20:
                hand = HandState([dealt[i:i + 5] for i in (0, 5, 10, 15)], dealt[19], rules, score)
            continue
        view = View.from_hand(hand, who)
        if hand.pos is None:                                   # the auction
            assert who == hand.auction.speaker
            calls = [fixed[who - 1]] if fixed else view.legal_calls()
            assert legal == [ACTION_CALL + CALLS.index(c) for c in calls]
            a = legal[0] if rng.random() < 0.8 else rng.choice(legal)      # paso, mostly
            hand.bid(CALLS[a - ACTION_CALL])
        else:
            at = len(hand.tricks)
            if boundary != at:
                boundary, order_i = at, 0
            order = singing_order(hand) if hand.tricks and not hand.pos.trick else []
            if ACTION_QUIET in legal:                          # a cante decision
                while order[order_i] != who:                   # seats the playout skips
                    assert not View.from_hand(hand, order[order_i]).cante_options()
                    order_i += 1
                order_i += 1
                assert legal == sorted(ACTION_SING + s for s in view.cante_options()) + [
                    ACTION_QUIET]
                a = rng.choice(legal) if rng.random() < 0.7 else legal[0]
                if a != ACTION_QUIET and hand.cante_refusal(who, a - ACTION_SING) is None:
                    hand.sing(who, a - ACTION_SING)
            else:                                              # a card
                for s in order[order_i:]:                      # nobody left to ask
                    assert not View.from_hand(hand, s).cante_options()
                order_i = len(order)
                assert who == hand.to_play
                assert legal == hand.legal_cards() == view.legal_cards()
                a = rng.choice(legal)
                hand.play(a)
        apply(a)
        actions.append(a)
    assert hand is not None and hand.is_over() and not hand.renuncios
    return hand, actions


def check_returns(returns, hand: HandState) -> None:
    result = hand.result()
    again = replay(record_of(hand)).result()            # the record reads back the same
    assert (again.winner, again.game_points) == (result.winner, result.game_points)
    assert returns == [result.game_points if side_of(s) == result.winner
                       else -result.game_points for s in (1, 2, 3, 4)]
    assert sum(returns) == 0


def _setups(preset: str, n: int, seed: int):
    """``n`` setups of the preset: every other one with its calls fixed, some with a
    match score."""
    rules = get_rules(preset)
    rng = random.Random(f"{preset}/{seed}")
    for i in range(n):
        score = Score(rng.randrange(rules.target - 1), rng.randrange(rules.target - 1)) \
            if i % 3 == 2 else None
        calls = random_calls(rng, rules, score)
        yield rules, (calls if i % 2 else None), score, rng


def _engine_games(preset: str, n: int, seed: int) -> int:
    games = 0
    for rules, calls, score, rng in _setups(preset, n, seed):
        os_hand = OpenSpielHand(og.Context(Setup(rules, tuple(calls) if calls else None, score)))
        hand, _ = engine_walk(os_hand.node, os_hand.apply, rules, calls, score, rng)
        check_returns(os_hand.returns(), hand)
        games += 1
    return games


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_games_legal_actions_and_returns_are_the_engines(preset):
    """150 random games a preset (600 in all), half with the auction played, half with
    it fixed, some with a match score: every node's legal actions, the engine's and
    the view's; the returns, the engine's result."""
    assert _engine_games(preset, 150, 1) == 150


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_games_legal_actions_and_returns_are_the_engines_many(preset):
    assert _engine_games(preset, 2000, 2) == 2000


@needs_openspiel
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_through_openspiel_the_game_is_the_engines(preset):
    """The same walk through pyspiel (load_game, apply_action, legal_actions, returns,
    clone) on 40 games a preset: what OpenSpiel's bots see."""
    for rules, calls, score, rng in _setups(preset, 40, 3):
        game = og.load_game(rules, calls, score)
        state = game.new_initial_state()

        def node():
            if state.is_terminal():
                return og.TERMINAL, ()
            return (CHANCE if state.is_chance_node() else state.current_player() + 1,
                    state.legal_actions())

        hand, actions = engine_walk(node, state.apply_action, rules, calls, score, rng)
        check_returns(state.returns(), hand)
        assert [h.action for h in state.full_history()] == actions
        assert str(state.clone()) == str(state) and state.clone().returns() == state.returns()


@needs_openspiel
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_openspiels_random_simulation_test(preset):
    """pyspiel.random_sim_test: legal actions sorted and empty for the other players,
    unique action strings, clones equal, the information state and observation of
    every player at every node, returns in range and summing to zero."""
    pyspiel.random_sim_test(og.load_game(preset), num_sims=30, serialize=False, verbose=False)
    rules = get_rules(preset)
    calls = random_calls(random.Random(preset), rules)
    pyspiel.random_sim_test(og.load_game(preset, calls), num_sims=30, serialize=False,
                            verbose=False)


@needs_openspiel
def test_the_game_type_and_parameters():
    og.openspiel()                       # registers python_cuatrola with pyspiel
    game = pyspiel.load_game("python_cuatrola", {"rules": "narro,tie_break=mano",
                                                 "calls": "paso solo contrasolo paso",
                                                 "score": "3-5"})
    t = game.get_type()
    assert (t.short_name, game.num_players(), game.num_distinct_actions()) == (
        "python_cuatrola", 4, 30)
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.max_chance_outcomes()) == (-5, 5, 20)
    assert game.setup == Setup(get_rules("narro,tie_break=mano"),
                               ("paso", "solo", "contrasolo", "paso"), Score(3, 5))
    # a rule set with overrides goes through the parameters and back
    rules = get_rules("online,monte=0,cantes_in=paso")
    assert og.load_game(rules).setup.rules == rules
    with pytest.raises(RulesError, match="unknown preset 'tute'"):
        Setup.read({"rules": "tute"})
    with pytest.raises(RulesError, match="bad rules '{preset: narro}': not a JSON object"):
        Setup.read({"rules": "{preset: narro}"})
    assert Setup.read({"rules": '{"preset": "narro", "monte": 0}'}).rules == get_rules(
        "narro,monte=0")
    with pytest.raises(IllegalBidError, match="seat 2 may not call 'solo'"):
        Setup.read({"calls": "cuatrola solo paso paso"})
    with pytest.raises(CuatrolaError, match="bad calls 'paso paso': expected 4"):
        Setup.read({"calls": "paso paso"})


@needs_openspiel
def test_the_information_state_is_the_seats_view():
    """Seat 2's information state names its cards and every action, each cante
    decision as the others saw it; its observation, what it sees now."""
    game = og.load_game("online", ["paso"] * 4)
    state = game.new_initial_state()
    hands = [mask_of(h) for h in ([0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14],
                                  [15, 16, 17, 18, 19])]
    for a in deal_actions(hands, 19):
        state.apply_action(a)
    for a in [ACTION_CALL] * 4:
        state.apply_action(a)
    assert state.information_state_string(1) == "seat 2: Sc Cc Rc 3c Ac; muestra Ab|" \
        "1:paso 2:paso 3:paso 4:paso"
    assert state.information_state_string(3).startswith("seat 4: Sb Cb Rb 3b Ab; muestra Ab|")
    assert state.observation_string(1) == ("seat 2: Sc Cc Rc 3c Ac; muestra Ab; paso; "
                                           "trick 1: ; tricks 0-0, points 0-0; sung -")
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2, 3, 4]


# --- resampling ---------------------------------------------------------------------------

def _brute_force_deals(state, seat: int) -> set[tuple[int, ...]]:
    """Every deal (four dealt masks) of the cards ``seat`` has not seen -- each other
    seat keeping the cards it played, the dealer the muestra -- whose replay of the
    history, each action as the seat saw it, is legal and gives the seat's information
    state: the deals resampling may give."""
    os_hand = state._os_hand
    muestra = os_hand.muestra()
    others = [s for s in (1, 2, 3, 4) if s != seat]
    fixed = {s: {a for who, a, _, _, _ in os_hand.events if who == s and a < ACTION_CALL}
             for s in others}
    if seat != 4:
        fixed[4].add(muestra)
    seen = set(os_hand.dealt_to(seat)).union(*fixed.values())
    free = [c for c in range(20) if c not in seen]
    need = [5 - len(fixed[s]) for s in others]
    want = os_hand.info_string(seat)
    found = set()
    for first in itertools.combinations(free, need[0]):
        rest = [c for c in free if c not in first]
        for second in itertools.combinations(rest, need[1]):
            third = [c for c in rest if c not in second]
            hands = {seat: mask_of(os_hand.dealt_to(seat))}
            for s, extra in zip(others, (first, second, third)):
                hands[s] = mask_of(fixed[s] | set(extra))
            deal = tuple(hands[s] for s in (1, 2, 3, 4))
            t = OpenSpielHand(os_hand.context)
            try:
                for a in deal_actions(deal, muestra) + [
                        action if who == seat else public
                        for who, action, public, _, _ in os_hand.events]:
                    t.apply(a)
            except ValueError:
                continue
            if t.info_string(seat) == want:
                found.add(deal)
    return found


def _deal_of(state) -> tuple[int, ...]:
    d = state._os_hand.dealt
    return tuple(mask_of(d[i:i + 5]) for i in (0, 5, 10, 15))


@needs_openspiel
@pytest.mark.parametrize("preset, contract, cards", [
    ("online", "paso", 13), ("narro", "solo", 9), ("italiano", "paso", 14),
    ("app", "cuatrola", 8)])
def test_resampling_draws_exactly_the_deals_the_player_cannot_tell_apart(preset, contract,
                                                                           cards):
    """Late in a hand, for each seat: the deals a brute-force search over the unseen
    cards finds consistent with the seat's information, and 400 resamples: every one
    of them is one of those deals, and each of those deals is drawn about as often."""
    rules = get_rules(preset)
    calls = {"paso": ["paso"] * 4, "solo": ["paso", "solo", "paso", "paso"],
             "cuatrola": ["cuatrola", "paso", "paso", "paso"]}[contract]
    game = og.load_game(rules, calls)
    rng = random.Random(cards)
    state = game.new_initial_state()
    while len([e for e in state._os_hand.events if e[1] < ACTION_CALL]) < cards:
        state.apply_action(rng.choice(state.legal_actions()))
    draw = random.Random(5).random
    for seat in (1, 2, 3, 4):
        support = _brute_force_deals(state, seat)
        assert _deal_of(state) in support
        got = Counter(_deal_of(state.resample_from_infostate(seat - 1, draw))
                      for _ in range(400))
        assert set(got) <= support
        if len(support) <= 8:
            assert set(got) == support
            assert min(got.values()) > 400 / len(support) / 3


@needs_openspiel
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_resampling_keeps_each_players_information(preset):
    """At every node of 20 random games, for every player: the resampled state has its
    information state and the current player, its cards, the cards played and the
    cantes; the others' hands are dealt again (and do differ, often)."""
    rules = get_rules(preset)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for rules, calls, score, rng in _setups(preset, 20, 4):
        state = og.load_game(rules, calls, score).new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and rng.random() < 0.3:
                for p in range(4):
                    other = state.resample_from_infostate(p, sampler)
                    assert other.information_state_string(p) == state.information_state_string(p)
                    assert other.current_player() == state.current_player()
                    assert other.legal_actions() == state.legal_actions() or \
                        state.current_player() != p
                    a, b = state._os_hand, other._os_hand
                    assert sorted(a.dealt_to(p + 1)) == sorted(b.dealt_to(p + 1))
                    assert a.muestra() == b.muestra()
                    assert [e[2] for e in a.events] == [e[2] for e in b.events]
                    changed += a.dealt != b.dealt
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 100


@needs_openspiel
def test_a_20_refused_for_the_partners_40_is_seen_by_its_singer_only():
    """italiano (forty_first): seat 1 won trick 1 and asks to sing its 20 in copas while
    its partner holds the 40 in trumps: the engine refuses it, the others see seat 1
    keep quiet, seat 3 is asked next with the 40.  Resampled for seat 1, the partner
    always holds the 40 (the deals where it does not are drawn and refused); for seat 2,
    seat 1 need not hold the 20."""
    from cuatrola_solver.game.cards import parse_cards
    game = og.load_game("italiano", ["paso"] * 4)
    state = game.new_initial_state()
    deal = ["Ae Rc Cc So Co", "Se Sc 3c Ro 3o", "Ce Rb Cb Ac Ao", "Re 3e Sb 3b Ab"]
    for a in deal_actions([mask_of(parse_cards(h)) for h in deal], parse_cards("Ab")[0]):
        state.apply_action(a)
    for a in [ACTION_CALL] * 4 + parse_cards("Ae Se Ce Re"):
        state.apply_action(a)
    copas, bastos = 1, 3
    assert state.current_player() == 0 and state.legal_actions() == [ACTION_SING + copas,
                                                                      ACTION_QUIET]
    state.apply_action(ACTION_SING + copas)
    assert state.information_state_string(0).endswith("1:sings-copas-refused")
    assert state.information_state_string(1).endswith("1:quiet")
    assert state.current_player() == 2 and state.legal_actions() == [ACTION_SING + bastos,
                                                                      ACTION_QUIET]
    assert state._os_hand.hand.cantes == []
    draw = random.Random(3).random
    forty = mask_of(parse_cards("Rb Cb"))
    for _ in range(30):
        mine = state.resample_from_infostate(0, draw)
        assert _deal_of(mine)[2] & forty == forty
    twenty = mask_of(parse_cards("Rc Cc"))
    seen = {_deal_of(state.resample_from_infostate(1, draw))[0] & twenty == twenty
            for _ in range(30)}
    assert seen == {False, True}


@needs_openspiel
def test_resampling_during_the_deal_keeps_the_players_cards():
    game = og.load_game("online")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    draw = random.Random(1).random
    for p in range(4):
        other = state.resample_from_infostate(p, draw)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.is_chance_node() and len(other.history()) == 8


# --- the player -----------------------------------------------------------------------------

@needs_openspiel
def test_a_view_replays_to_a_state_with_the_seats_information():
    """state_from_view: at a seat's card and at its cante, a state whose information
    for that seat says what its view says, whatever deal of the hidden cards it drew."""
    checked = {"card": 0, "sing": 0}
    for seed in range(40):
        rng = random.Random(seed)
        preset = PRESET_NAMES[seed % 4]
        views = []

        class Spy:
            def call(self, view, s):
                return "paso" if seed % 2 else random.Random(s).choice(view.legal_calls())

            def sing(self, view, s):
                views.append(("sing", view))
                return view.cante_options()[0]

            def card(self, view, s):
                views.append(("card", view))
                return random.Random(view.seed(s)).choice(view.legal_cards())

        play_hand(random_deal(rng), [Spy()] * 4, preset, seed=seed)
        for question, view in [v for i, v in enumerate(views) if v[0] == "sing" or i % 3 == 0]:
            states = [og.state_from_view(view, question, random.Random(k).random)
                      for k in range(2)]
            for state in states:
                assert state.current_player() == view.seat - 1
                legal = state.legal_actions()
                if question == "card":
                    assert legal == view.legal_cards()
                else:
                    assert legal == sorted(ACTION_SING + s for s in view.cante_options()) + [
                        ACTION_QUIET]
                assert View.from_hand(state._os_hand.hand, view.seat) == view
            assert states[0].information_state_string() == states[1].information_state_string()
            checked[question] += 1
    assert checked["card"] > 100 and checked["sing"] > 3


@needs_openspiel
def test_the_player_is_seeded_and_plays_legal_cards_on_every_preset():
    player = parse_player("openspiel-ismcts:sims=10,bid=heuristic")
    for preset in PRESET_NAMES:
        deal = random_deal(random.Random(preset))
        rec = play_hand(deal, [player] * 4, preset, seed=3)
        h = replay(rec)
        assert h.result() is not None and not h.renuncios
        assert play_hand(deal, [player] * 4, preset, seed=3) == rec
    # another seed, another search: some card differs over a few hands
    deal = random_deal(random.Random(8))
    assert len({tuple(tuple(t) for t in play_hand(deal, [player] * 4, "online", seed=s).tricks)
                for s in range(4)}) > 1


@needs_openspiel
def test_a_board_is_the_same_in_another_process():
    """The lab's records of a board with the player: the same in a spawned worker
    process (another hash seed, a fresh OpenSpiel) as here."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from cuatrola_solver.lab.selfplay import LabConfig, run_batch
    config = LabConfig.make("openspiel-ismcts:sims=15,bid=heuristic", "heuristic",
                            seed=5, count=2, odds_samples=0)
    here = run_batch(config, 0, 2)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = pool.submit(run_batch, config, 0, 2).result()
    assert here == there and len(here) == 4


@needs_openspiel
def test_the_player_sings_through_the_search():
    """Seat 1 won trick 1 holding the rey and caballo of copas: asked, it sings or keeps
    quiet as the search says, the same for the same seed."""
    from cuatrola_solver.notation.replay import read_view
    view = read_view("Rc Cc Ae Sb Ab", "So", 1, "paso paso paso paso", "1. Ae Se Ce Re", "online")
    assert view.cante_options() == [1]
    player = OpenSpielIsmctsPlayer(sims=60, bidder=Bidder(bid="heuristic"))
    got = [player.sing(view, s) for s in range(3)]
    assert set(got) <= {None, 1} and got == [player.sing(view, s) for s in range(3)]
    assert 1 in got                    # 20 points for nothing: the search sees it


def test_the_player_spec_and_its_defaults():
    if pyspiel is None:
        pytest.skip("OpenSpiel is not installed")
    p = parse_player("openspiel-ismcts")
    assert repr(p) == "openspiel-ismcts:sims=500,uct_c=2"
    q = parse_player("openspiel-ismcts:sims=80,uct_c=0.7,rollouts=2,bid=heuristic")
    assert (q.sims, q.uct_c, q.rollouts, q.bidder.bid) == (80, 0.7, 2, "heuristic")
    assert repr(q) == "openspiel-ismcts:sims=80,uct_c=0.7,rollouts=2,bid=heuristic"
    assert parse_player(repr(q)) == q


@pytest.mark.parametrize("spec, message", [
    ("openspiel-ismcts:sims=0", "bad value '0' for sims of player 'openspiel-ismcts:sims=0': "
                                "expected 1 to 100000"),
    ("openspiel-ismcts:uct_c=0", "bad value '0' for uct_c of player "
                                 "'openspiel-ismcts:uct_c=0': expected a number above 0, at "
                                 "most 100"),
    ("openspiel-ismcts:uct_c=nan", "expected a number above 0, at most 100"),
    ("openspiel-ismcts:uct_c=inf", "expected a number above 0, at most 100"),
    ("openspiel-ismcts:uct_c=x", "bad value 'x' for uct_c of player 'openspiel-ismcts:uct_c=x'"),
    ("openspiel-ismcts:worlds=3", "bad option 'worlds=3' of player 'openspiel-ismcts:worlds=3': "
                                  "expected sims=..., uct_c=..., rollouts=..., bid=..."),
])
def test_bad_specs_of_the_player_say_what_is_expected(spec, message):
    with pytest.raises(CuatrolaError) as e:
        parse_player(spec)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_without_openspiel_asking_for_the_player_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)      # import pyspiel fails
    monkeypatch.setattr(og, "_LOADED", {})
    with pytest.raises(CuatrolaError) as e:
        parse_player("openspiel-ismcts:sims=10")
    assert str(e.value) == og.MISSING
    parse_player("pimc")                                    # the others do not need it


def test_without_openspiel_the_command_says_so_in_one_line():
    code = ("import sys; sys.modules['pyspiel'] = None; from cuatrola_cli.main import main; "
            "sys.argv = ['cuatrola', 'selfplay', '--a', 'openspiel-ismcts', '--b', 'pimc', "
            "'--hands', '1']; main()")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert r.returncode == 2
    assert r.stderr.strip() == f"error: {og.MISSING}"
    assert r.stdout == ""


# --- the engine's copy ------------------------------------------------------------------------

def _random_steps(hand: HandState, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random calls, cantes and legal cards played into ``hand``."""
    for _ in range(steps):
        if hand.pos is None:
            hand.bid(rng.choice(hand.legal_calls()))
            continue
        if hand.is_over():
            return
        if hand.tricks and not hand.pos.trick and rng.random() < 0.5:
            sing = [(s, suit) for s in (1, 2, 3, 4) for suit in range(4)
                    if hand.cante_refusal(s, suit) is None]
            if sing:
                hand.sing(*rng.choice(sing))
                continue
        hand.play(rng.choice(hand.legal_cards()))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_hands_copy_plays_on_alone(preset):
    """HandState.copy at random points of random hands (the auction too): the copy plays on
    to the end as a replay of its own history does, and the original, left as it was,
    plays on to its own end."""
    rules = get_rules(preset)
    rng = random.Random(preset)
    for _ in range(40):
        hand = HandState(*random_deal(rng), rules)
        _random_steps(hand, rng, rng.randrange(0, 30))
        snapshot = (list(hand.auction.calls), hand.pos, list(hand.plays), list(hand.cantes),
                    [list(t) for t in hand.tricks], list(hand.current))
        copy = hand.copy()
        _random_steps(copy, rng, 60)
        assert copy.is_over()
        assert (list(hand.auction.calls), hand.pos, list(hand.plays), list(hand.cantes),
                [list(t) for t in hand.tricks], list(hand.current)) == snapshot
        again = replay(record_of(copy))
        assert again.result() == copy.result() and again.cantes == copy.cantes
        _random_steps(hand, rng, 60)
        assert replay(record_of(hand)).result() == hand.result()


def test_a_hands_copy_shares_no_mutable_part():
    hand = HandState(*random_deal(random.Random(1)), get_rules("online"))
    hand.pass_all()
    hand.play(hand.legal_cards()[0])
    copy = hand.copy()
    for name, value in vars(hand).items():
        if isinstance(value, (list, dict, set, Auction)):
            assert getattr(copy, name) is not value, name
        assert getattr(copy, name) == value or isinstance(value, Auction), name
    assert copy.auction.calls == hand.auction.calls
