"""The seat's view: projection, records with unknown hands, live hint, players."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver import advisor
from cuatrola_solver.cards import cards_of, format_cards, mask_of, parse_cards
from cuatrola_solver.errors import RecordError
from cuatrola_solver.hand import Hand
from cuatrola_solver.play import cante_mask
from cuatrola_solver.players import PLAYERS, parse_player
from cuatrola_solver.record import read_record, record_from_obj, write_json, write_text
from cuatrola_solver.rules import get_rules
from cuatrola_solver.selfplay import play_hand, play_match
from cuatrola_solver.cards import random_deal
from cuatrola_solver.view import View, check_seen

from helpers import random_game

runner = CliRunner()


def _hide(rec, keep):
    rec.hands = [h if s in keep else None for s, h in enumerate(rec.hands, 1)]
    return rec


def _cut(hand: Hand, cards: int) -> Hand:
    """The same hand replayed up to its first ``cards`` cards (cantes kept)."""
    rec = hand.to_record()
    flat = [c for t in rec.tricks for c in t]
    n = sum(hand.active)
    keep = flat[:cards]
    rec.tricks = [keep[i:i + n] for i in range(0, len(keep), n)]
    done = cards // n
    rec.cantes = [k for k in rec.cantes if k.after_trick <= done]
    return Hand.from_record(rec)


def test_record_with_unknown_hands_round_trips():
    rng = random.Random(1)
    rec = _hide(random_game(rng, get_rules("narro"), "solo").to_record(), {2})
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
            partial = _hide(hand.to_record(), {seat})
            assert View.from_record(partial, seat) == view
            assert view.to_record() == partial or partial.auction is None
            # check on the partial record agrees with the full replay
            seen = check_seen(partial)
            assert seen.result() == hand.result()


def test_check_proves_renuncios_of_hidden_hands_with_the_trick():
    rng = random.Random(5)
    hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.15)
    assert hand.renuncios
    seen = check_seen(_hide(hand.to_record(), {2}))
    r = seen.renuncios[0]
    assert (r.trick, r.seat, r.obligation, r.proved_in) == (2, 3, "asistir", 5)
    assert seen.result().ended_by == "renuncio"
    # every renuncio proven from a view is a real one
    real = {(x.trick, x.seat) for x in hand.renuncios}
    assert {(x.trick, x.seat) for x in seen.renuncios} <= real


BAD = [
    ("1. Sc Sb Rc 3c\n2. Ro Se So Sc", "seat 1 already played it in trick 1"),
    ("1. Ro", "it is seat 2's card (in its hand)"),
    ("1. Sc Sb Rc 3c Ao", "only 4 seats play"),
    ("1. Sc Ac Rc 3c", "trick 1, card 2 (Ac): not in the hand of seat 2"),
    ("1. Sc Sb Rc 3c\ncante 3 oros", "Co is seat 2's card"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So Ao\n3. Ac Rb 3e Ab\n4. Ce Ae 3b Re\n5. Co 3o Cb Cc\n6. Sc",
     "the hand is over: all five tricks are played"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So\n3. Ac", "trick 2 has 3 cards"),
    ("1. Sc Sb Rc 3c\n2. Ro Se So Ao\n3. Ac Rb 3e Ab\n4. Ce Ae 3b Re\n5. Co 3o Cb Cc Sb",
     "only 4 seats play"),
]


@pytest.mark.parametrize("play, needle", BAD)
def test_check_refuses_what_cannot_have_been_seen(tmp_path, play, needle):
    f = tmp_path / "r.txt"
    f.write_text('[Muestra "Ab"]\n[Seat2 "Co Ro Sb Rb 3b"]\n\n' + play + "\n")
    res = runner.invoke(app, ["check", str(f)])
    assert res.exit_code == 2, res.output
    assert needle in res.output and str(f) in res.output


def test_a_card_after_the_hand_is_decided_is_refused():
    """italiano ends a bid contract once its tricks decide it (RULES.md 8.6)."""
    rec = record_from_obj({"rules": "italiano", "muestra": "Ab",
                           "hands": [None, "Ao 3o Ro Co So", None, None],
                           "auction": ["paso", "quintola", "paso", "paso"],
                           "tricks": [["Ao", "Ac", "Sc"], ["3o", "Rc", "Cc"], ["Ro", "3c", "Ce"]]})
    with pytest.raises(RecordError):
        check_seen(rec)


def test_check_json_reports_unknown_seats_and_proof(tmp_path):
    rng = random.Random(5)
    hand = random_game(rng, get_rules("online"), "paso", renuncio_rate=0.15)
    f = tmp_path / "r.json"
    f.write_text(write_json(_hide(hand.to_record(), {2})))
    res = runner.invoke(app, ["check", "--json", str(f)])
    assert res.exit_code == 0, res.output
    assert '"unknown_seats": [1, 3, 4]' in res.output and '"proved_in": 5' in res.output


@pytest.mark.parametrize("preset,seed", [("online", 3), ("narro", 4), ("italiano", 6)])
def test_live_hint_equals_the_projected_full_record(preset, seed):
    rng = random.Random(seed)
    full = random_game(rng, get_rules(preset), "paso")
    hand = _cut(full, 6)
    seat = hand.to_play
    want = advisor.hint(hand, samples=60, seed=11).to_dict()
    rec = hand.to_record()
    played = write_text(rec).split("\n\n", 1)[1]
    view = View.from_input(format_cards(cards_of(hand.deal[seat - 1])), 
                           format_cards([rec.muestra]), seat, "paso paso paso paso", played,
                           get_rules(preset))
    assert advisor.hint(view, samples=60, seed=11).to_dict() == want
    # the cards still held are accepted for --hand too
    held = View.from_input(format_cards(cards_of(view.held)), format_cards([rec.muestra]),
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
    """Issue 8's example: under italiano the seat on lead may sing its 20 unless its
    partner holds the 40; two deals the seat cannot tell apart must give one hint."""
    def hint_for(hands):
        rec = record_from_obj({"rules": "italiano", "muestra": "Ro", "hands": hands,
                               "tricks": [["Rc", "Ac", "3c", "Ao"], ["Ae", "3e", "So", "Se"]]})
        return advisor.hint(Hand.from_record(rec), samples=120, seed=2).to_dict()
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


def _other_deal(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same history with the unplayed hidden cards dealt again among the other seats
    (the muestra stays with seat 4 while it is unplayed): the seat's view is unchanged."""
    rec = hand.to_record()
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
    return Hand.from_record(rec)


@pytest.mark.parametrize("name", ["random", "heuristic", "pimc:samples=8,bid_samples=100"])
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
    h1 = Hand(*deal, get_rules("online"))
    v = View.from_hand(h1, 1)
    assert player.call(v, 1) in v.legal_calls()
    assert checked == 12


@pytest.mark.parametrize("preset", ["online", "narro", "italiano", "app"])
def test_play_hand_gives_a_record_check_reads(preset):
    players = [parse_player(n) for n in ("heuristic", "random", "heuristic", "random")]
    for seed in range(4):
        rec = play_hand(random_deal(random.Random(seed)), players, preset, seed=seed)
        hand = Hand.from_record(rec)
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
        r = Hand.from_record(rec).result()
        pair[a_pair if r.winner == "A" else 1 - a_pair] += r.game_points
    assert max(pair) >= rules.target and all(
        p < rules.target for p in (recs[-1].score.A, recs[-1].score.B))
    assert recs == play_match(players, "online", seed=2)


def test_player_names_and_options():
    assert set(PLAYERS) == {"random", "heuristic", "pimc"}
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
    view = View.from_input("So Co Ro Cc 3e", "Rc", 3, None, "1. Sc 3c Cc Ac 2. Re Ae Ce 3e",
                           get_rules("online"))
    assert parse_player("pimc:samples=30").sing(view, 1) == 0


# --- the seat's view, value by value (issue 17) ---------------------------------------------

import dataclasses  # noqa: E402

from cuatrola_solver.cards import parse_card  # noqa: E402
from cuatrola_solver.match import Score  # noqa: E402
from cuatrola_solver.record import Cante, read_json  # noqa: E402
from cuatrola_solver.view import Seen  # noqa: E402

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
    return View.from_input(hand, muestra, seat, auction, played or None, rules, score)


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
        check_seen(rec)
    assert str(e.value) == (f"{where}: cante of seat 2 after trick 0: cantes are declared "
                            f"after tricks 1 to 4")


def test_cantes_out_of_their_place_are_refused_with_it():
    rec = read_json('{"muestra": "Ab", "hands": [null, "Co Ro Sb Rb 3b", null, null], '
                    '"tricks": [["Sc", "Sb", "Rc", "3c"]], "cantes": ['
                    '{"after_trick": 1, "seat": 2, "suit": "o"}, '
                    '{"after_trick": 5, "seat": 1, "suit": "c"}]}', "r.json")
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: cante of seat 1 after "
                                          r"trick 5: cantes are declared after tricks 1 to 4$"):
        check_seen(rec)
    rec.cantes[1] = Cante(3, 1, 1)
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: cante of seat 1 after "
                                          r"trick 3, but the record has only 1 complete "
                                          r"trick$"):
        check_seen(rec)
    rec.cantes[1] = Cante(1, 3, 0)                  # oros: seat 2 holds the pair
    with pytest.raises(RecordError, match=r"^r\.json, cantes\[1\]: cante of seat 3 \(oros\) "
                                          r"after trick 1: Co is seat 2's card \(in its "
                                          r"hand\)$"):
        check_seen(rec)
    rec.cantes[1] = Cante(1, 1, 1)                  # copas: seat 3 played the rey
    with pytest.raises(RecordError, match=r"cantes\[1\]: cante of seat 1 \(copas\) after "
                                          r"trick 1: seat 3 played Rc in trick 1$"):
        check_seen(rec)
    seen = check_seen(dataclasses.replace(rec, cantes=rec.cantes[:1]))
    assert seen.cantes_sung == [Cante(1, 2, 0)] and seen.pos.points == (0, 18 + 20)
    rec.cantes = [Cante(1, 4, 2)]                   # side B won trick 1: seat 4 may sing
    seen = check_seen(rec)
    assert seen.cantes_sung == [Cante(1, 4, 2)] and seen.pos.points == (0, 18 + 20)
    rec.cantes = [Cante(1, 1, 2)]                   # side A has not won a trick
    with pytest.raises(RecordError, match=r"cantes\[0\]: cante of seat 1 \(espadas\) after "
                                          r"trick 1: side A has not won a trick yet$"):
        check_seen(rec)

