"""The seat's view: projection, records with unknown hands, live hint, players."""

from __future__ import annotations

import importlib.util
import random

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import cardplay
from cuatrola_solver.game.cards import cards_of, format_cards, mask_of, parse_cards
from cuatrola_solver.errors import RecordError
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import cante_mask
from cuatrola_solver.bots.players import PLAYERS, parse_player
from cuatrola_solver.notation.record import (read_record, record_from_obj, write_json, write_text)
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.bots.playout import play_hand, play_match
from cuatrola_solver.game.cards import random_deal
from cuatrola_solver.game.view import View

from helpers import random_game
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models
from helpers import as_view
from cuatrola_solver.notation.replay import read_view
from cuatrola_solver.notation.replay import view_of
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.notation.replay import record_of
from cuatrola_solver.game.seats import Side

runner = CliRunner()


def _hide(rec, keep):
    rec.hands = [h if s in keep else None for s, h in enumerate(rec.hands, 1)]
    return rec


def _cut(hand: HandState, cards: int) -> HandState:
    """The same hand replayed up to its first ``cards`` cards (cantes kept)."""
    rec = record_of(hand)
    flat = [c for t in rec.tricks for c in t]
    n = sum(hand.active)
    keep = flat[:cards]
    rec.tricks = [keep[i:i + n] for i in range(0, len(keep), n)]
    done = cards // n
    rec.cantes = [k for k in rec.cantes if k.after_trick <= done]
    return replay(rec)


def test_record_with_unknown_hands_round_trips():
    rng = random.Random(1)
    rec = _hide(record_of(random_game(rng, get_rules("narro"), "solo")), {2})
    text = write_text(rec)
    assert '[Seat1 "?"]' in text and read_record(text) == rec
    assert read_record(write_json(rec)) == rec
    assert '"hands": [null,' in write_json(rec)
    # a Seat tag left out is an unknown hand too
    assert read_record(text.replace('[Seat1 "?"]\n', "")).hands[0] is None


@pytest.mark.parametrize("preset", ["online", "app", "narro", "italiano"])
def test_projection_is_the_same_from_a_hand_and_a_partial_record(preset):
    rng = random.Random(hash(preset) & 0xffff)
    for contract in ("paso", "solo"):
        hand = random_game(rng, get_rules(preset), contract)
        for seat in (1, 2, 3, 4):
            view = View.from_hand(hand, seat)
            partial = _hide(record_of(hand), {seat})
            assert view_of(partial, seat) == view
            assert record_of(view) == partial or partial.auction is None
            # check on the partial record agrees with the full replay
            seen = replay(partial)
            assert seen.result() == hand.result()


def test_check_proves_renuncios_of_hidden_hands_with_the_trick():
    rng = random.Random(5)
    hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.15)
    assert hand.renuncios
    seen = replay(_hide(record_of(hand), {2}))
    r = seen.renuncios[0]
    assert (r.trick, r.seat, r.obligation, r.proved_in) == (2, 3, "asistir", 5)
    assert seen.result().ended_by == "renuncio"
    # every renuncio proven from a view is a real one
    real = {(x.trick, x.seat) for x in hand.renuncios}
    assert {(x.trick, x.seat) for x in seen.renuncios} <= real


BAD = [
    ("1. Sc Sb Rc 3c\n2. Ro Se So Sc", "seat 1 already played it in trick 1"),
    ("1. Ro", "card 'Ro' in trick 1 is seat 2's, but seat 1 leads trick 1; a trick is "
              "written from its leader"),
    ("1. Sc Sb Rc 3c Ao", "trick 1 has 5 cards: expected 4, one per seat in play"),
    ("1. Sc Ac Rc 3c", "card 'Ac' in trick 1 is not in the hand of seat 2, on turn"),
    ("1. Sc Sb Rc 3c\ncante 3 oros", "Co is seat 2's card"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So Ao\n3. Ac Rb 3e Ab\n4. Ce Ae 3b Re\n5. Co 3o Cb Cc\n6. Sc",
     "card 'Sc' in trick 6: the hand is over after trick 5"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So\n3. Ac", "trick 2 has 3 cards"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So Ao\n3. Ac Rb 3e Ab\n4. Ce Ae 3b Re\n5. Co 3o Cb Cc Sb",
     "trick 5 has 5 cards: expected 4, one per seat in play"),
]


@pytest.mark.parametrize("play, needle", BAD)
def test_check_refuses_what_cannot_have_been_seen(tmp_path, play, needle):
    f = tmp_path / "r.txt"
    f.write_text('[Muestra "Ab"]\n[Seat2 "Co Ro Sb Rb 3b"]\n\n' + play + "\n")
    res = runner.invoke(app, ["check", str(f)])
    assert res.exit_code == 2, res.output
    assert needle in res.output and str(f) in res.output


def test_a_card_after_the_hand_is_decided_is_refused():
    """italiano ends a bid contract once its tricks decide it (docs/rules.md 8.6): seat 2's
    quintola is lost at trick 1.  With every hand known a card after that is refused;
    with hands unknown it shows a renuncio nobody saw, and the hand goes on."""
    hands = ["Ac 3c Ae 3e Sb", "Ao 3o Ro Co Sc", "Rc Cc Re Ce Se", "Ab 3b Rb Cb So"]

    def rec(hands, tricks):
        return record_from_obj({"rules": "italiano", "muestra": "Ab", "hands": hands,
                                "auction": ["paso", "quintola", "paso", "paso"],
                                "tricks": tricks})
    with pytest.raises(RecordError) as e:
        replay(rec(hands, [["Ac", "Sc", "Rc"], ["3c"]]))
    assert str(e.value) == ("record, tricks[1][0]: card '3c' in trick 2: the hand was decided "
                            "after trick 1 (the quintola ends as soon as the tricks decide it)")
    seen = replay(rec(hands, [["Ac", "Sc", "Rc"]]))
    assert (seen.decided_after, seen.played_on, seen.is_over()) == (1, False, True)
    res = seen.result()
    assert (str(res.winner), res.game_points, res.ended_by) == ("A", 5, "early_end")
    seen = replay(rec(hands[:2] + [None, None], [["Ac", "Sc", "Rc"], ["3c", "Ao", "Cc"]]))
    assert (seen.decided_after, seen.played_on, seen.is_over()) == (1, True, False)
    assert seen.result().ended_by == "early_end" and seen.result().tricks == (2, 0)
    seen = replay(rec(hands[:2] + [None, None], [["Ac", "Sc", "Rc"]]))
    assert (seen.decided_after, seen.played_on, seen.is_over()) == (1, False, True)
    # played on to the end, then a sixth card: over because all five tricks are played
    five = [["Ac", "Sc", "Rc"], ["3c", "Co", "Cc"], ["Ae", "Ro", "Re"], ["3e", "3o", "Ce"],
            ["Sb", "Ao", "Se"]]
    seen = replay(rec([None, hands[1], None, None], five))
    assert (seen.decided_after, seen.played_on, seen.is_over()) == (1, True, True)
    with pytest.raises(RecordError) as e:
        replay(rec([None, hands[1], None, None], five + [["Cb"]]))
    assert str(e.value) == "record, tricks[5][0]: card 'Cb' in trick 6: the hand is over after trick 5"


def test_check_json_reports_unknown_seats_and_proof(tmp_path):
    rng = random.Random(5)
    hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.15)
    f = tmp_path / "r.json"
    f.write_text(write_json(_hide(record_of(hand), {2})))
    res = runner.invoke(app, ["check", "--json", str(f)])
    assert res.exit_code == 0, res.output
    assert '"unknown_seats": [1, 3, 4]' in res.output and '"proved_in": 5' in res.output


@pytest.mark.parametrize("preset,seed", [("online", 3), ("narro", 4), ("italiano", 6)])
def test_live_hint_equals_the_projected_full_record(preset, seed):
    rng = random.Random(seed)
    full = random_game(rng, get_rules(preset), "paso")
    hand = _cut(full, 6)
    seat = hand.to_play
    want = cardplay.hint(as_view(hand), Budget(samples=60, seed=11), Models.NONE).to_dict()
    rec = record_of(hand)
    played = write_text(rec).split("\n\n", 1)[1]
    view = read_view(format_cards(cards_of(hand.deal[seat - 1])), 
                           format_cards([rec.muestra]), seat, "paso paso paso paso", played,
                           get_rules(preset))
    assert cardplay.hint(as_view(view), Budget(samples=60, seed=11), Models.NONE).to_dict() == want
    # the cards still held are accepted for --hand too
    held = read_view(format_cards(cards_of(view.held)), format_cards([rec.muestra]),
                           seat, None, played, get_rules(preset))
    assert held == view
    # and from the command line, as JSON
    res = runner.invoke(app, ["hint", "--hand", format_cards(cards_of(view.held)),
                              "--muestra", format_cards([rec.muestra]), "--seat", str(seat),
                              "--played", played, "--rules", preset, "--samples", "60",
                              "--seed", "11", "--no-inference", "--json"])
    assert res.exit_code == 0, res.output
    assert f'"best": "{want["best"]}"' in res.output


def test_forty_first_hint_does_not_depend_on_the_partner_hand():
    """Under italiano the seat on lead may sing its 20 unless its partner holds the 40: two
    deals the seat cannot tell apart must give one hint."""
    def hint_for(hands):
        rec = record_from_obj({"rules": "italiano", "muestra": "Ro", "hands": hands,
                               "tricks": [["Rc", "Ac", "3c", "Ao"], ["Ae", "3e", "So", "Se"]]})
        return cardplay.hint(as_view(replay(rec)), Budget(samples=120, seed=2),
                             Models.NONE).to_dict()
    a = hint_for(["3o Rc Sc 3e Re", "So Ac Cc Rb Cb", "3c Ce Se 3b Sb", "Ao Co Ae Ab Ro"])
    b = hint_for(["3o Rc Sc 3e Re", "So Ac Cc Rb Cb", "3c Co Se 3b Sb", "Ao Ce Ae Ab Ro"])
    assert a == b
    assert a["cante"] == "bastos" and "partner holds the 40" in a["note"]


def test_hint_refuses_when_it_is_not_the_viewers_turn():
    res = runner.invoke(app, ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab",
                              "--seat", "2", "--played", "1. Sc Sb Rc 3c 2. Ro"])
    assert res.exit_code == 2 and "seat 3's turn" in res.output
    res = runner.invoke(app, ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab",
                              "--seat", "2", "--played", "1. Sc Sb Rc 3c 2. Xx"])
    assert res.exit_code == 2 and "--played, line 1, column 19" in res.output
    res = runner.invoke(app, ["hint", "--muestra", "Ab", "--seat", "2"])
    assert res.exit_code == 2 and "missing --hand" in res.output


def _other_deal(hand: HandState, seat: int, rng: random.Random) -> HandState:
    """The same history with the unplayed hidden cards dealt again among the other seats
    (the muestra stays with seat 4 while it is unplayed): the seat's view is unchanged."""
    rec = record_of(hand)
    played = {c for t in rec.tricks for c in t}
    played |= {c for k in rec.cantes for c in cards_of(cante_mask(k.suit))}   # sung: known
    pool, counts = [], {}
    for s, h in enumerate(rec.hands, 1):
        if s == seat:
            continue
        free = [c for c in h if c not in played and c != rec.muestra]
        pool += free
        counts[s] = free
    rng.shuffle(pool)
    for s, free in counts.items():
        kept = [c for c in rec.hands[s - 1] if c not in free]
        rec.hands[s - 1] = kept + [pool.pop() for _ in free]
    return replay(rec)


@pytest.mark.parametrize("name", ["random", "heuristic", "pimc:samples=8,bid_samples=100",
                                  "pimc:samples=8,bid_samples=100,read_calls=1,read_play=1",
                                  "alphamu:worlds=8,depth=2,bid_samples=100",
                                  pytest.param("openspiel-ismcts:sims=30,bid_samples=100",
                                               marks=pytest.mark.skipif(
                                                   importlib.util.find_spec("pyspiel") is None,
                                                   reason="OpenSpiel is not installed"))])
def test_players_see_only_their_view(name):
    player = parse_player(name)
    rng = random.Random(7)
    checked = 0
    for game in range(3):
        full = random_game(rng, get_rules("online"), "paso")
        for cards in (0, 5, 9, 14):
            hand = _cut(full, cards)
            seat = hand.to_play
            other = next(o for o in (_other_deal(hand, seat, rng) for _ in range(50))
                         if o.deal != hand.deal)
            v1, v2 = View.from_hand(hand, seat), View.from_hand(other, seat)
            assert v1 == v2
            assert player.card(v1, 5) == player.card(v2, 5)
            checked += 1
    # calls too
    deal = random_deal(random.Random(3))
    h1 = HandState(*deal, get_rules("online"))
    v = View.from_hand(h1, 1)
    assert player.call(v, 1) in v.legal_calls()
    assert checked == 12


@pytest.mark.parametrize("preset", ["online", "narro", "italiano", "app"])
def test_play_hand_gives_a_record_check_reads(preset):
    players = [parse_player(n) for n in ("heuristic", "random", "heuristic", "random")]
    for seed in range(4):
        rec = play_hand(random_deal(random.Random(seed)), players, preset, seed=seed)
        hand = replay(rec)
        assert hand.result() is not None and not hand.renuncios
        assert rec == play_hand(random_deal(random.Random(seed)), players, preset, seed=seed)


def test_play_match_reaches_the_target_with_the_deal_rotating():
    players = [parse_player("heuristic")] * 4
    recs = play_match(players, "online", seed=2)
    rules = get_rules("online")
    pair = [0, 0]
    for k, rec in enumerate(recs):
        a_pair = k % 2                      # pairs swap the A/B labels hand by hand
        assert (rec.score.A, rec.score.B) == (pair[a_pair], pair[1 - a_pair])
        r = replay(rec).result()
        pair[a_pair if r.winner is Side.A else 1 - a_pair] += r.game_points
    assert max(pair) >= rules.target and all(
        p < rules.target for p in (recs[-1].score.A, recs[-1].score.B))
    assert recs == play_match(players, "online", seed=2)


def test_player_names_and_options():
    assert set(PLAYERS) == {"random", "heuristic", "pimc", "alphamu", "openspiel-ismcts"}
    assert repr(parse_player("pimc:samples=80")) == "pimc:samples=80"
    for bad in ("nobody", "pimc:samples=0", "pimc:depth=3", "heuristic:samples=3",
                "pimc:bid=oracle", "pimc:samples=x"):
        with pytest.raises(Exception) as e:
            parse_player(bad)
        assert bad.split(":")[0] in str(e.value) or "samples" in str(e.value)


def test_hint_at_a_boundary_for_a_seat_that_may_sing_but_not_lead():
    """online: a side that has won any trick may sing; seat 3 holds the 20 in oros while
    seat 1 (its partner, who won trick 2) is to lead."""
    args = ["hint", "--hand", "So Co Ro Cc 3e", "--muestra", "Rc", "--seat", "3",
            "--played", "1. Sc 3c Cc Ac 2. Re Ae Ce 3e", "--seed", "1", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    import json
    out = json.loads(res.output)
    assert out["cards"] == [] and out["best"] is None and out["cante"] == "oros"
    assert "before seat 1 leads" in out["note"]
    # and the pimc player sings it too
    view = read_view("So Co Ro Cc 3e", "Rc", 3, None, "1. Sc 3c Cc Ac 2. Re Ae Ce 3e",
                           get_rules("online"))
    assert parse_player("pimc:samples=30").sing(view, 1) == 0


# --- the seat's view, value by value ---------------------------------------------

import dataclasses  # noqa: E402

from cuatrola_solver.game.cards import parse_card
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.hand import Cante
from cuatrola_solver.notation.record import read_json
from cuatrola_solver.errors import (CuatrolaError, IllegalPlayError, InconsistentDealError,
                                    NotationError)
from cuatrola_solver.game.constraints import Constraints


def Seen(rules, muestra, known, calls, tricks, cantes, score=None, complete_auction=True):
    """A hand replayed with the hands in ``known`` (masks or None), as a record built in
    code named "record" would be: the one replay, from the seen side."""
    hands = [None if k is None else cards_of(k) for k in known]
    try:
        hand = HandState(hands, muestra, rules, score)
    except InconsistentDealError as e:
        raise RecordError(f"record: {e}") from None
    return hand.replay(calls, tricks, cantes, at=lambda *part: "record: ",
                       complete_auction=complete_auction)

SEAT2 = "Co Ro Sb Rb 3b"          # seat 2's hand in the records below; the muestra Ab


def _rec(tricks, rules="online", auction=None, cantes=None, hands=None):
    obj = {"rules": rules, "muestra": "Ab", "hands": hands or [None, SEAT2, None, None],
           "tricks": tricks}
    if auction:
        obj["auction"] = auction
    if cantes:
        obj["cantes"] = cantes
    return record_from_obj(obj)


def _view(hand, muestra, seat, played="", auction=None, rules="online", score=None):
    return read_view(hand, muestra, seat, auction, played or None, rules, score)


def test_cante_options_offer_the_40_first_then_by_suit():
    # bastos are trumps: the 40 before the 20 in oros
    v = _view("Rb Cb Ro Co Ac", "Sb", 1, "1. Ac Sc Cc Rc")
    assert v.cante_options() == [3, 0]
    # two 20s, copas and bastos (oros trumps): by suit
    v = _view("Rc Cc Rb Cb Ae", "So", 1, "1. Ae Se Ce Re")
    assert v.cante_options() == [1, 3]
    # none during the auction, within a trick, or before the side has won a trick
    assert _view("Rb Cb Ro Co Ac", "Sb", 1, auction="paso").cante_options() == []
    assert _view("Rb Cb Ro Co Ac", "Sb", 1, "1. Ac Sc Cc Rc 2. Ro").cante_options() == []
    assert _view("Rb Cb Ro Co Sc", "Sb", 1, "1. Sc Ac Cc Rc").cante_options() == []
    # a pair one of whose cards is played is gone
    v = _view("Rb Cb Ro Co Ac", "Sb", 1, "1. Ac Sc Cc Rc 2. Co Ao So 3o")
    assert v.cante_options() == [3]


def test_cante_options_under_forty_first_are_the_seats_own():
    """italiano: the 40 before any 20.  The seat that holds both is offered the 40 only;
    a seat with a 20 alone is offered it (its partner's cards it does not see)."""
    v = _view("Rb Cb Ro Co Ac", "Sb", 1, "1. Ac Sc Cc Rc", rules="italiano")
    assert v.cante_options() == [3]
    v = _view("Ro Co Ac Ae Se", "Sb", 1, "1. Ac Sc Cc Rc", rules="italiano")
    assert v.cante_options() == [0]


def test_a_renuncio_gives_the_hand_to_the_other_side_for_the_contract_value():
    for rules, auction, tricks, value in [
            ("online", None, [["So", "Sb", "Ao", "3o"]], 1),
            ("narro", None, [["So", "Sb", "Ao", "3o"]], 2),                # paid double
            ("online", ["paso", "solo", "paso", "paso"], [["So", "Sb", "Ao"]], 2),
            ("narro", ["paso", "solo", "paso", "paso"], [["So", "Sb", "Ao"]], 4),
            ("narro", ["solo", "contrasolo", "paso", "paso"], [["So", "Sb"]], 8)]:
        seen = replay(_rec(tricks, rules, auction))
        r = seen.renuncios[0]
        assert (r.trick, r.seat, r.obligation, r.legal, r.proved_in) == (
            1, 2, "asistir", tuple(parse_cards("Co Ro")), None)
        res = seen.result()
        assert (str(res.winner), res.game_points, res.ended_by) == ("A", value, "renuncio"), rules
        assert res.tricks == (0, 1)            # seat 2's sota of trumps took the trick


def test_a_renuncio_of_a_hidden_hand_is_proved_by_its_later_card():
    """Seat 3 threw an espada on the as of copas, then played the rey of copas: it held
    one.  Seat 2 (known) then did not follow oros.  In order of play: seat 3's first, so
    side B wins the hand."""
    seen = replay(_rec([["Ac", "Sb", "Se", "Ab"], ["So", "Ao", "Rb", "Rc"]]))
    assert [r.to_dict() for r in seen.renuncios] == [
        {"trick": 1, "seat": 3, "card": "Se", "obligation": "asistir", "legal": ["Rc"],
         "proved_in": 2},
        {"trick": 2, "seat": 2, "card": "Rb", "obligation": "asistir", "legal": ["Co", "Ro"]}]
    assert [r.describe() for r in seen.renuncios] == [
        "trick 1: seat 3 played Se against asistir: it held Rc, as its card in trick 2 proves",
        "trick 2: seat 2 played Rb against asistir (legal: Co Ro)"]
    res = seen.result()
    assert (str(res.winner), res.game_points, res.ended_by) == ("B", 1, "renuncio")
    v = view_of(_rec([["Ac", "Sb", "Se", "Ab"], ["So", "Ao", "Rb", "Rc"]]), 2)
    assert v.renuncios == seen.renuncios and v.is_over()
    # a later card that does not break the obligation proves nothing
    seen = replay(_rec([["Ac", "Sb", "Se", "Ab"], ["So", "Ao", "Ro", "Ae"]]))
    assert seen.renuncios == [] and seen.result() is None and not seen.is_over()


def test_a_renuncio_against_fallar_and_montar_is_proved_too():
    # seat 3 threw an espada on the as of oros, then trumped the sota of copas: it had a
    # trump to play in trick 1 (fallar)
    seen = replay(_rec([["Ao", "Ro", "Se", "So"], ["Sc", "Sb", "Cb", "3c"]]))
    r = seen.renuncios[0]
    assert (r.trick, r.seat, r.obligation, r.proved_in) == (1, 3, "fallar", 2)
    assert r.legal == (parse_card("Cb"),)
    # seat 3 played the sota of copas under the caballo, then the as: it could montar
    seen = replay(_rec([["Cc", "Sb", "Sc", "Rc"], ["Co", "Ac", "So", "Ao"]]))
    r = seen.renuncios[0]
    assert (r.trick, r.seat, r.obligation, r.proved_in) == (1, 3, "montar", 2)
    assert r.legal == (parse_card("Ac"),)
    # seat 3 threw an espada over seat 2's trump, then over-trumped in trick 2
    seen = replay(_rec([["Sc", "Sb", "Se", "Cc"], ["Co", "Cb"]]))
    assert [r.describe() for r in seen.renuncios] == [
        "trick 1: seat 3 played Se against montar el fallo: it held Cb, as its card in trick "
        "2 proves"]


@pytest.mark.parametrize("form", ["text", "json"])
def test_a_cante_after_trick_0_is_refused_where_it_is_written(form, tmp_path):
    if form == "text":
        text = ('[Muestra "Ab"]\n[Seat2 "Co Ro Sb Rb 3b"]\n\ncante 2 oros after 0\n'
                '1. Sc Sb Rc 3c\n')
        rec, where = read_record(text, "r.txt"), "r.txt, line 4, column 1"
    else:
        text = ('{"muestra": "Ab", "hands": [null, "Co Ro Sb Rb 3b", null, null], '
                '"tricks": [["Sc", "Sb", "Rc", "3c"]], '
                '"cantes": [{"after_trick": 0, "seat": 2, "suit": "o"}]}')
        rec, where = read_json(text, "r.json"), "r.json, cantes[0]"
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert str(e.value) == (f"{where}: cante of seat 2 after trick 0: cantes are declared "
                            f"after tricks 1 to 4")


def test_cantes_out_of_their_place_are_refused_with_it():
    rec = read_json('{"muestra": "Ab", "hands": [null, "Co Ro Sb Rb 3b", null, null], '
                    '"tricks": [["Sc", "Sb", "Rc", "3c"]], "cantes": ['
                    '{"after_trick": 1, "seat": 2, "suit": "o"}, '
                    '{"after_trick": 5, "seat": 1, "suit": "c"}]}', "r.json")
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: cante of seat 1 after "
                                          r"trick 5: cantes are declared after tricks 1 to 4$"):
        replay(rec)
    rec.cantes[1] = Cante(3, 1, 1)
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: cante of seat 1 after "
                                          r"trick 3, but the record has only 1 complete "
                                          r"trick$"):
        replay(rec)
    rec.cantes[1] = Cante(1, 3, 0)                  # oros: seat 2 holds the pair
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: seat 3 may not sing oros "
                                          r"after trick 1: Co is seat 2's card \(in its "
                                          r"hand\)$"):
        replay(rec)
    rec.cantes[1] = Cante(1, 1, 1)                  # copas: seat 3 played the rey
    with pytest.raises(RecordError, match=r"cantes\[1\]: seat 1 may not sing copas after "
                                          r"trick 1: seat 3 played Rc in trick 1$"):
        replay(rec)
    seen = replay(dataclasses.replace(rec, cantes=rec.cantes[:1]))
    assert seen.cantes == [Cante(1, 2, 0)] and seen.pos.points == (0, 18 + 20)
    rec.cantes = [Cante(1, 4, 2)]                   # side B won trick 1: seat 4 may sing
    seen = replay(rec)
    assert seen.cantes == [Cante(1, 4, 2)] and seen.pos.points == (0, 18 + 20)
    rec.cantes = [Cante(1, 1, 2)]                   # side A has not won a trick
    with pytest.raises(RecordError, match=r"cantes\[0\]: seat 1 may not sing espadas after "
                                          r"trick 1: side A has not won a trick yet$"):
        replay(rec)


def test_a_card_known_elsewhere_is_refused_saying_how_it_is_known():
    # the muestra is the dealer's, a sung card the singer's, a known hand's card its own
    with pytest.raises(RecordError, match=r"^record, tricks\[0\]\[0\]: card 'Ab' in trick 1 is "
                                          r"seat 4's \(the muestra, which the dealer keeps\), "
                                          r"but seat 1 leads trick 1; a trick is written from "
                                          r"its leader, in playing order$"):
        replay(_rec([["Ab"]]))
    with pytest.raises(RecordError, match=r"card 'Re' in trick 2 is seat 3's \(sung by it "
                                          r"after trick 1\), but seat 4 plays next in trick 2 "):
        replay(_rec([["So", "Co", "Ao", "3o"], ["Sc", "Re"]],
                        cantes=[{"after_trick": 1, "seat": 3, "suit": "e"}]))
    with pytest.raises(RecordError, match=r"card 'Co' in trick 1 is seat 2's, but seat 1 leads "
                                          r"trick 1;"):
        replay(_rec([["Co"]]))
    # the dealer plays it like any of its cards
    assert replay(_rec([["Sc", "3b", "Rc", "Ab"]])).plays[-1].seat == 4


def test_the_deal_and_the_auction_are_checked_as_seen():
    r = get_rules("online")
    ab = parse_card("Ab")
    bad = [
        ([None, mask_of(parse_cards("Co Ro Sb Rb")), None, None], None,
         "record: seat 2 holds 4 cards (Co Ro Sb Rb): expected 5"),
        ([mask_of(parse_cards("Co Ro Sb Rb 3b")), mask_of(parse_cards("Co Ao Ac Rc 3c")),
          None, None], None, "record: card 'Co' is dealt twice: to seat 1 and to seat 2"),
        ([mask_of(parse_cards("Ab Ro Sb Rb 3b")), None, None, None], None,
         "record: the muestra 'Ab' is in seat 1's hand: it belongs to seat 4, the dealer"),
        ([None, None, None, mask_of(parse_cards("Co Ro Sb Rb 3b"))], None,
         "record: the muestra 'Ab' is not in seat 4's hand (Co Ro Sb Rb 3b): the dealer "
         "keeps it"),
        ([None] * 4, ["paso"] * 3,
         "record: the auction has 3 calls: expected 4 (one per seat) or none (all passed)"),
        ([None] * 4, ["paso", "paso", "quintola", "solo"],
         "record: auction, call 4 ('solo'): seat 4 may not call 'solo': a bid must be "
         "stronger than the standing quintola"),
    ]
    for known, calls, message in bad:
        with pytest.raises(RecordError) as e:
            Seen(r, ab, known, calls, [], [])
        assert str(e.value) == message
    with pytest.raises(RecordError) as e:
        Seen(r, ab, [None] * 4, ["paso"], [[parse_card("Ac")]], [], complete_auction=False)
    assert str(e.value) == "record: cards are played, but the auction has only 1 call of 4"
    seen = Seen(r, ab, [None, mask_of(parse_cards(SEAT2)), None, None], None, [], [])
    assert seen.auction.is_complete and seen.pos.hands == (0, mask_of(parse_cards(SEAT2)), 0, 0)
    assert Seen(r, ab, [None] * 4, ["paso"], [], [], complete_auction=False).pos is None


def test_the_view_from_the_seats_own_input():
    # the cards still held, completed by the ones the seat played
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc")
    assert v.hand == mask_of(parse_cards("Ro Co Ac Ae Rc"))
    assert v.held == mask_of(parse_cards("Ro Co Ac"))
    assert v.calls == ("paso",) * 4 and v.trick_number == 2 and v.to_play == 3
    assert _view("Ro Co Ac Ae Rc", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc") == v
    assert _view("Ro Co Ac Ae Rc", "Sb", 1).calls == ("paso",) * 4     # the opening lead
    assert _view("Ro Co Ac Ae Rc", "Sb", 3, auction="paso,solo").calls == ("paso", "solo")
    for args, message in [
            (("Ro Co Ae Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc"),
             "--hand: Ae is played in --played, so it is no longer held"),
            (("Ro Co Ac Ab", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc"),
             "--hand 'Ro Co Ac Ab': seat 1 holds 4 cards and played 2: expected 5 in all"),
            (("Ro Co Ac", "Sb", 5), "bad seat 5 in --seat: expected 1 to 4"),
            (("Ro Co Ac Sc Se", "Sb", 1, "1. Ae", "paso paso"),
             "seat 1's view: cards are played, but the auction has only 2 calls of 4")]:
        with pytest.raises(CuatrolaError) as e:
            _view(*args)
        assert str(e.value) == message
    with pytest.raises(NotationError, match="bad seat 0: expected 1 to 4"):
        View(get_rules("online"), 0, mask_of(parse_cards("Ro Co Ac Sc Se")), parse_card("Sb"))
    with pytest.raises(RecordError, match="the record does not give seat 1's hand, so it "
                                          "cannot be seen from seat 1"):
        view_of(_rec([]), 1)
    assert view_of(_rec([]), 2).calls == ("paso",) * 4


def test_what_the_view_says_on_turn_and_off_turn():
    v = _view(SEAT2, "Ab", 2, auction="paso")
    assert (v.speaker, v.to_play, v.position, v.auction_over) == (2, None, None, False)
    assert v.legal_calls() == ["paso", "solo", "cuatrola", "quintola"]
    assert v.legal_cards() == [] and v.cante_options() == [] and v.result() is None
    assert _view(SEAT2, "Ab", 3, auction="paso").legal_calls() == []
    v = _view(SEAT2, "Ab", 2, "1. Sc", auction="paso solo paso paso")
    assert (v.contract, v.declarer, v.active) == ("solo", (2,), (True, True, True, False))
    assert (v.side, v.trump, v.speaker, v.to_play, v.auction_over) == (1, 3, None, 2, True)
    assert v.legal_cards() == parse_cards("Sb Rb 3b") and v.legal_calls() == []
    assert not v.is_over()
    v = _view(SEAT2, "Ab", 2, "1. Sc Sb")
    assert v.to_play == 3 and v.legal_cards() == []


def test_a_hand_decided_early_is_over_for_the_view():
    """italiano ends a quintola at its first lost trick; the view sees it."""
    v = _view("Ao 3o Ro Co Sc", "Ab", 2, "1. Ac Sc Rc", auction="paso quintola paso paso",
              rules="italiano")
    assert v.is_over() and v.to_play is None and v.legal_cards() == []
    res = v.result()
    assert (str(res.winner), res.game_points, res.ended_by) == ("A", 5, "early_end")


def test_the_key_holds_everything_and_the_seed_follows_it():
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc")
    fields = v.key().split("|")
    assert fields[0] == repr(get_rules("online"))
    assert fields[1:] == ["1", str(v.hand), str(parse_card("Sb")), "paso paso paso paso",
                          "14 10 11 12/7 5", "1.1.0", "None"]
    # the cantes in the order of their tricks, whatever the record's order
    def sung(order):
        return view_of(record_from_obj({
            "muestra": "Sb", "hands": ["Ro Co Rc Cc Ae", None, None, None],
            "tricks": [["Ae", "Se", "Ce", "Re"], ["Ro", "So", "3o", "Ao"]],
            "cantes": [{"after_trick": 2, "seat": 1, "suit": "c"},
                       {"after_trick": 1, "seat": 1, "suit": "o"}][::order]}), 1)
    a, b = sung(1), sung(-1)
    assert a != b and a.key() == b.key() and a.key().split("|")[-2] == "1.1.0;2.1.1"
    # equal views, equal seeds; another base or another view, another seed
    same = _view("Ro Co Ac Ae Rc", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc")
    assert same.seed(5) == v.seed(5) and v.seed(5) != v.seed(6)
    assert 0 <= v.seed(5) < 2 ** 63
    others = [_view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc"),
              _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc",
                    rules="narro"),
              _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc",
                    score=Score(3, 5)),
              _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc")]
    assert len({o.key() for o in others} | {v.key()}) == 5
    assert len({o.seed(5) for o in others} | {v.seed(5)}) == 5
    assert others[2].key().endswith("|3-5")


def test_describe_says_the_seat_its_cards_and_the_contract():
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc")
    assert v.describe() == ("seat 1 (side A), holds Co Ro Ac; muestra Sb (triunfo bastos)\n"
                            "contract paso")
    assert _view(SEAT2, "Ab", 2, auction="paso").describe() == (
        "seat 2 (side B), holds Co Ro Sb Rb 3b; muestra Ab (triunfo bastos)")
    assert _view(SEAT2, "Ab", 2, auction="paso solo paso paso").describe().endswith(
        "\ncontract solo by seat 2")
    assert _view(SEAT2, "Ab", 2, auction="solo contrasolo paso paso", rules="narro"
                 ).describe().endswith("\ncontract contrasolo by seat 1 against seat 2")


def test_to_record_leaves_the_other_hands_unknown():
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc")
    rec = record_of(v)
    assert mask_of(rec.hands[0]) == v.hand and rec.hands[1:] == [None, None, None]
    assert (rec.auction, rec.tricks) == (["paso"] * 4, [parse_cards("Ae Se Ce Re"),
                                                       parse_cards("Rc Sc")])
    assert rec.cantes == [Cante(1, 1, 0)] and view_of(rec, 1) == v
    # the match score goes both ways
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc", score=Score(3, 5))
    assert record_of(v).score == Score(3, 5) and view_of(record_of(v), 1) == v
    assert view_of(record_of(v), 1).score == Score(3, 5)
    assert record_of(_view("Ro Co Ac Ae Rc", "Sb", 1, auction="")).auction == ["paso"] * 4


def test_a_renuncio_proved_twice_names_the_first_proof_and_every_card_held():
    seen = replay(_rec([["Ac", "Sb", "Se", "Ab"], ["So", "Ao", "Ro", "Rc"],
                            ["3e", "Rb", "Cc"]]))
    assert [r.to_dict() for r in seen.renuncios] == [
        {"trick": 1, "seat": 3, "card": "Se", "obligation": "asistir", "legal": ["Cc", "Rc"],
         "proved_in": 2}]


def test_the_plays_as_seen_and_the_tricks_checked():
    seen = replay(_rec([["Sc", "Sb", "Rc", "Cc"]]))
    sc, sb, rc, cc = parse_cards("Sc Sb Rc Cc")
    assert [(p.trick, p.seat, p.card, p.before) for p in seen.plays] == [
        (1, 1, sc, ()), (1, 2, sb, (sc,)), (1, 3, rc, (sc, sb)), (1, 4, cc, (sc, sb, rc))]
    assert len(seen.tricks) == 1 and seen.pos.leader == 2 and seen.pos.tricks == (0, 1)
    with pytest.raises(RecordError) as e:
        replay(_rec([["Sc", "Sb", "Rc"], ["Ao"]]))
    assert str(e.value) == ("record, tricks[0]: trick 1 has 3 cards: expected 4, one per seat "
                            "in play (only the last trick of a record may be incomplete)")
    # a solo: three seats play, seat 3 sitting out (solo by seat 1) leaves seat 2 after 1
    seen = replay(_rec([["Sc", "Sb", "Rc"]], auction=["solo", "paso", "paso", "paso"]))
    assert [p.seat for p in seen.plays] == [1, 2, 4] and seen.pos.leader == 2
    # a seat that sits out leads nothing: solo by seat 3 (seat 1 out) and seat 2 leads
    v = _view("Sc Ac Ae Se Ce", "Ab", 3, auction="paso paso solo paso")
    assert (v.to_play, v.active) == (2, (False, True, True, True))
    assert Seen(get_rules("online"), parse_card("Ab"), [None] * 4, ["paso"], [], [],
                complete_auction=False).tricks == []


def test_cantes_refused_by_the_rules_say_why():
    with pytest.raises(RecordError) as e:        # seat 2 (known) holds Rb but not Cb
        replay(_rec([["Sc", "Sb", "Rc", "Cc"]],
                        cantes=[{"after_trick": 1, "seat": 2, "suit": "b"}]))
    assert str(e.value) == ("record, cantes[0]: seat 2 may not sing bastos after trick 1: seat 2 "
                            "does not hold the rey and the caballo of bastos")
    with pytest.raises(RecordError) as e:        # hidden seat 3 sits out seat 1's solo
        replay(_rec([["Sc", "Sb", "Rc"]], auction=["solo", "paso", "paso", "paso"],
                        cantes=[{"after_trick": 1, "seat": 3, "suit": "c"}]))
    assert str(e.value).endswith("seat 3 may not sing copas after trick 1: seat 3 sits out this "
                                 "hand")
    with pytest.raises(RecordError) as e:        # a cante before the auction is over
        Seen(get_rules("online"), parse_card("Ab"), [None] * 4, ["paso"], [],
             [Cante(1, 1, 1)], complete_auction=False)
    assert str(e.value) == "record: a cante is recorded, but the auction has only 1 call of 4"


def test_a_record_built_in_code_is_named_by_its_caller():
    from cuatrola_solver.notation.record import HandRecord
    rec = HandRecord(rules=get_rules("online"), muestra=parse_card("Ab"),
                     hands=[None, parse_cards(SEAT2), None, None], auction=None,
                     tricks=[[parse_card("Ab")]], cantes=[], score=None)
    with pytest.raises(RecordError) as e:
        replay(dataclasses.replace(rec, source="game.txt"))
    assert str(e.value) == ("game.txt: card 'Ab' in trick 1 is seat 4's (the muestra, which the "
                            "dealer keeps), but seat 1 leads trick 1; a trick is written from "
                            "its leader, in playing order")
    with pytest.raises(RecordError) as e:
        replay(rec)
    assert str(e.value).startswith("card 'Ab' in trick 1 is seat 4's")


def test_a_renuncio_result_carries_the_match_score():
    rec = _rec([["So", "Sb", "Ao", "3o"]])
    rec.score = Score(3, 5)
    res = replay(rec).result()
    assert (str(res.winner), res.game_points, res.score_before, res.score_after) == (
        "A", 1, Score(3, 5), Score(4, 5))
    assert Seen(get_rules("online"), parse_card("Ab"), [None] * 4, ["paso"], [], [],
                complete_auction=False).result() is None


def test_the_legal_cards_follow_the_rules_of_montar():
    """A trick trumped: online still asks to beat the led suit's best card, app not."""
    assert _view("Ac Sc Ae Se Ce", "Ab", 3, "1. Cc Sb", rules="online").legal_cards() == \
        parse_cards("Ac")
    assert _view("Ac Sc Ae Se Ce", "Ab", 3, "1. Cc Sb", rules="app").legal_cards() == \
        parse_cards("Sc Ac")


def test_bad_input_of_the_view_names_the_option():
    from cuatrola_solver.errors import NotationError
    for args, message in [
            (("Xx Co Ac", "Sb", 1), "bad card 'Xx' (card 1 of --hand)"),
            (("Ro Co Ac Sc Se", "Zz", 1), "bad card 'Zz' (--muestra)"),
            (("Ro Co Ac Sc Se", "Sb", 1, "", "paso,bogus"), "bad bid 'bogus' (call 2 in "
                                                             "--auction)")]:
        with pytest.raises(NotationError) as e:
            _view(*args)
        assert str(e.value).startswith(message)
    # the plays are read (to complete a short hand) as --played
    with pytest.raises(RecordError) as e:
        _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Rc")
    assert str(e.value) == "--played: card 'Rc' in trick 2: seat 1 already played it in trick 2"
    with pytest.raises(RecordError) as e:
        _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc", "paso paso")
    assert str(e.value) == "--played: cards are played, but the auction has only 2 calls of 4"


def test_the_seed_is_the_hash_of_the_base_and_the_key():
    import hashlib
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re cante 1 oros 2. Rc Sc")
    for base in (0, 7, 2 ** 40):
        digest = hashlib.blake2b(f"{base}|{v.key()}".encode(), digest_size=8).digest()
        assert v.seed(base) == int.from_bytes(digest, "little") >> 1


def test_cards_refused_in_the_play_say_where():
    with pytest.raises(RecordError) as e:
        replay(_rec([["Sc", "Sb", "Rc", "3c"], ["Ro", "So", "Cc", "Sc"]]))
    assert str(e.value) == ("record, tricks[1][3]: card 'Sc' in trick 2: seat 1 already played "
                            "it in trick 1")
    with pytest.raises(RecordError) as e:
        replay(_rec([["Sc", "Ac"]]))
    assert str(e.value) == ("record, tricks[0][1]: card 'Ac' in trick 1 is not in the hand of "
                            "seat 2, on turn (holds Co Ro Sb Rb 3b)")


def test_a_known_hands_renuncios_follow_the_rules_of_montar_and_fallar():
    seat3 = [None, None, "Ao Co Sc Se Ce", None]
    # the rey of oros led and trumped: online still asks seat 3 to beat it with its as
    seen = replay(_rec([["Ro", "Sb", "Co"]], "online", hands=seat3))
    assert [r.to_dict() for r in seen.renuncios] == [
        {"trick": 1, "seat": 3, "card": "Co", "obligation": "montar", "legal": ["Ao"]}]
    assert replay(_rec([["Ro", "Sb", "Co"]], "app", hands=seat3)).renuncios == []
    seat3 = [None, None, "Ao Co Sc Cb Ro", None]
    # void in espadas, the caballo of trumps over seat 2's sota: montar el fallo
    seen = replay(_rec([["Re", "Sb", "Sc"]], hands=seat3))
    assert [(r.obligation, r.legal) for r in seen.renuncios] == [
        ("montar_el_fallo", (parse_card("Cb"),))]
    # under seat 2's tres it cannot over-trump, and is free (online)
    assert replay(_rec([["Re", "3b", "Sc"]], hands=seat3)).renuncios == []


def test_a_hidden_hand_free_to_discard_is_not_proved_wrong_by_a_lower_trump():
    # seat 3 could not over-trump the tres of bastos: its sota of copas was free, its
    # caballo of bastos later proves nothing
    assert replay(_rec([["Re", "3b", "Sc", "Ce"], ["Ro", "Cb"]])).renuncios == []
    # the as of oros thrown on the as of copas, then the rey of copas: it held that one
    seen = replay(_rec([["Ac", "Sb", "Ao", "Cc"], ["Co", "Rc"]]))
    assert [r.to_dict() for r in seen.renuncios] == [
        {"trick": 1, "seat": 3, "card": "Ao", "obligation": "asistir", "legal": ["Rc"],
         "proved_in": 2}]


def test_the_score_reaches_the_auction_and_the_view():
    """app: no bid may pass the target (11): at 9-0 seat 1 may bid solo at most."""
    assert View.bidding("Ao 3o Ro Co Sc", "So", 1, rules="app").legal_calls() == [
        "paso", "solo", "cuatrola", "quintola"]
    assert View.bidding("Ao 3o Ro Co Sc", "So", 1, rules="app",
                        score=Score(9, 0)).legal_calls() == ["paso", "solo"]
    hand = HandState([parse_cards(h) for h in ("Ac 3c Ae 3e Sb", "Ao 3o Ro Co Sc",
                                          "Rc Cc Re Ce Se", "Ab 3b Rb Cb So")],
                parse_card("Ab"), get_rules("online"), Score(3, 5))
    assert View.from_hand(hand, 2).score == Score(3, 5)


def test_no_cante_once_the_hand_is_decided():
    """italiano with cantes in every contract: seat 1 won trick 1, which decided seat 2's
    quintola; its 20 in oros is not offered (without early_end it is)."""
    rules = "italiano,cantes_in=paso solo cuatrola quintola"
    v = _view("Ac Ro Co 3e Sb", "Ab", 1, "1. Ac Sc Rc", "paso quintola paso paso",
              get_rules(rules))
    assert v.is_over() and v.cante_options() == []
    v = _view("Ac Ro Co 3e Sb", "Ab", 1, "1. Ac Sc Rc", "paso quintola paso paso",
              get_rules(rules + ",early_end=false"))
    assert v.cante_options() == [0]


def test_auction_and_trick_errors_say_where_and_cantes_go_in_trick_order():
    with pytest.raises(RecordError) as e:
        replay(_rec([], auction=["paso", "paso", "quintola", "solo"]))
    assert str(e.value) == ("record, auction[3]: auction, call 4 ('solo'): seat 4 may not call "
                            "'solo': a bid must be stronger than the standing quintola")
    with pytest.raises(RecordError) as e:
        replay(_rec([["Sc", "Sb", "Rc", "3c", "Ao"]]))
    assert str(e.value) == ("record, tricks[0][4]: trick 1 has 5 cards: expected 4, one per seat "
                            "in play; card 5 ('Ao') belongs to the next trick, which begins "
                            "with its number ('2.')")
    # two cantes out of place: the one of the earlier trick is named, wherever it is written
    with pytest.raises(RecordError) as e:
        replay(_rec([["Sc", "Sb", "Rc", "3c"]],
                        cantes=[{"after_trick": 5, "seat": 1, "suit": "c"},
                                {"after_trick": 0, "seat": 1, "suit": "c"}]))
    assert str(e.value).startswith("record, cantes[1]: cante of seat 1 after trick 0: ")
    # after trick 4 is the last place for a cante
    four = [["Sc", "Sb", "Rc", "3c"], ["Ro", "Ao", "So", "3o"], ["Ae", "3e", "Se", "3b"],
            ["Co", "Ac", "Cc", "Cb"]]
    seen = replay(_rec(four, cantes=[{"after_trick": 4, "seat": 4, "suit": "e"}]))
    assert seen.cantes == [Cante(4, 4, 2)] and seen.pos.points == (47, 51 + 20)


def test_on_turn_refuses_a_hand_with_no_card_to_play():
    rng = random.Random(17)
    hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.3)
    while not hand.renuncios:
        hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.3)
    first = hand.renuncios[0]
    order = [seat for seat, _ in hand.tricks[first.trick - 1]]
    cards = 4 * (first.trick - 1) + order.index(first.seat) + 1      # up to the renuncio
    decided = _cut(hand, cards)
    assert not decided.is_over() and decided.renuncios[0] == first
    fresh = HandState([cards_of(h) for h in hand.deal], hand.muestra, hand.rules)
    for h, message in [
            (fresh, "the auction is not over: there is no card to play yet"),
            (hand, "the hand is over: there is no card to play"),
            (decided, "the hand is already decided by the first renuncio, " + first.describe())]:
        with pytest.raises(IllegalPlayError) as e:
            View.on_turn(h)
        assert str(e.value) == message


def test_the_key_of_a_view_with_constraints():
    v = _view("Ro Co Ac", "Sb", 1, "1. Ae Se Ce Re 2. Rc Sc")
    now = Constraints.parse("3: void o; 4: >=2 triunfo")
    dealt = Constraints.parse("3: void o", dealt=True)
    assert v.assuming(now).key() == v.key() + "|3: void o; 4: >=2 triunfo"
    assert v.assuming(dealt).key() == v.key() + "|dealt 3: void o"
    assert v.assuming("").key() == v.key() and not v.key().endswith("|")
    # the same constraints: the view itself, its replayed hand kept
    w = v.assuming(now)
    assert w.assuming("3: void o; 4: >=2 triunfo") is w and v.assuming(None) is v
