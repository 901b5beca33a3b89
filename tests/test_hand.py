"""The rules engine (cuatrola_solver.game.hand) on random games (OpenSpiel style) and a
perft table; a hand's points split into cards, monte and cantes, the tie-break and the
match score."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cuatrola_solver.errors import IllegalPlayError, InconsistentDealError, RecordError
from cuatrola_solver.game.cards import TOTAL_CARD_POINTS, mask_points, parse_card
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import Position, legal_mask, play_card
from cuatrola_solver.game.rules import PRESETS, get_rules
from cuatrola_solver.game.seats import Side
from cuatrola_solver.notation.record import read_record, record_from_obj
from cuatrola_solver.notation.replay import record_of, replay

from helpers import deal, make_hand, random_game

CONTRACTS = {name: [c for c in ("paso", "solo", "cuatrola", "quintola", "contrasolo")
                    if c in r.allowed_contracts()] for name, r in PRESETS.items()}


def replayed(hand: HandState) -> HandState:
    return replay(record_from_obj(record_of(hand).to_json_obj()))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_games_invariants(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"invariants-{preset}")
    for contract in CONTRACTS[preset]:
        for _ in range(250):
            hand = random_game(rng, rules, contract)   # asserts legal sets are never empty
            res = hand.result()
            assert res is not None and res.ended_by in ("play", "early_end")
            pos = hand.pos
            assert sum(res.tricks) == len(hand.tricks)
            cantes = sum(40 if k.suit == hand.trump else 20 for k in hand.cantes)
            played = sum(mask_points(sum(1 << c for _, c in t)) for t in hand.tricks)
            if res.ended_by == "play":
                assert sum(res.tricks) == 5
                out = [hand.deal[s] for s in range(4) if not hand.active[s]]
                # 120 card points (less the cards of seats that sit out) + 10 de monte
                assert sum(res.points) == TOTAL_CARD_POINTS - sum(map(mask_points, out)) + 10 + cantes
            else:
                assert contract != "paso" and sum(res.points) == played + cantes
            assert not any(pos.hands[s] for s in range(4) if hand.active[s]) or res.ended_by != "play"
            if contract in ("cuatrola", "quintola"):
                assert not hand.cantes
            again = replayed(hand)
            assert again.result() == res and again.renuncios == hand.renuncios


@pytest.mark.parametrize("preset", list(PRESETS))
def test_random_games_with_renuncios(preset):
    rules = PRESETS[preset]
    rng = random.Random(f"renuncios-{preset}")
    seen = set()
    for contract in CONTRACTS[preset]:
        for _ in range(150):
            hand = random_game(rng, rules, contract, renuncio_rate=0.15)
            res = hand.result()
            if hand.renuncios:
                first = hand.renuncios[0]
                seen.add(first.obligation)
                assert res.ended_by == "renuncio"
                assert res.winner is Side.of(first.seat).other
                factor = 2 if rules.renuncio_penalty == "double" else 1
                assert res.game_points == factor * {"paso": 1, "solo": 2, "contrasolo": 4,
                                                    "cuatrola": 4, "quintola": 5}[contract]
                for r in hand.renuncios:
                    assert r.card not in r.legal and r.legal
            assert replayed(hand).renuncios == hand.renuncios
    assert {"asistir", "montar", "fallar"} <= seen


def perft(pos: Position, rules, depth_tricks: int = 5) -> int:
    """Number of complete legal play sequences from ``pos`` (cantes aside)."""
    if pos.tricks_played == depth_tricks:
        return 1
    seat = pos.to_play
    m = legal_mask(pos.hands[seat - 1], pos.trick, pos.trump,
                   rules.beat_led_after_trump, rules.free_when_cannot_overtrump)
    total = 0
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        total += perft(play_card(pos, c, rules.monte), rules, depth_tricks)
    return total


PERFT_DEALS = [
    ("Ro Cc Rc Ce Re / So 3c Ae Sb Ab / Co Se 3e Cb 3b / 3o Ao Sc Ac Rb", "Ao"),
    ("Co Cc Ae Cb Rb / 3o Sc Rc Ac Re / So Ao Se Ce 3e / Ro 3c Sb 3b Ab", "Ro"),
    ("Ao 3c Ac Se Cb / So Sc Cc Ce 3e / Ro Rc Ae Rb 3b / Co 3o Re Sb Ab", "Re"),
    ("Ro Ao Ce Ae Rb / Co Sc 3c 3e Cb / So Ac Re 3b Ab / 3o Cc Rc Se Sb", "3o"),
    ("3o Cc Se Re Ab / 3c 3e Sb Cb Rb / Co Ro Rc Ac Ce / So Ao Sc Ae 3b", "Ae"),
]
#: (deal index, seat 1 solo with seat 3 out?, beat_led_after_trump) -> play sequences
PERFT = {
    (0, False, True): 26016, (0, False, False): 28448, (0, True, True): 2304, (0, True, False): 2408,
    (1, False, True): 26240, (1, False, False): 29392, (1, True, True): 1784, (1, True, False): 2040,
    (2, False, True): 4848, (2, False, False): 6144, (2, True, True): 3040, (2, True, False): 3544,
    (3, False, True): 9780, (3, False, False): 10064, (3, True, True): 1368, (3, True, False): 1440,
    (4, False, True): 12408, (4, False, False): 12996, (4, True, True): 1524, (4, True, False): 1704,
}


def naive_legal(held: list[int], trick: list[int], trump: int, rules) -> list[int]:
    """Legal cards written card by card from docs/rules.md section 2, independently of
    play.legal_mask, so that the perft numbers check one against the other."""
    if not trick:
        return list(held)
    led = trick[0] // 5
    strength = lambda c: c % 5  # noqa: E731
    trumps_in_trick = [c for c in trick if c // 5 == trump]
    led_in_trick = [c for c in trick if c // 5 == led]
    mine_led = [c for c in held if c // 5 == led]
    mine_trumps = [c for c in held if c // 5 == trump]
    if mine_led:
        must_beat = not (led != trump and trumps_in_trick) or rules.beat_led_after_trump
        best = max(strength(c) for c in led_in_trick)
        beaters = [c for c in mine_led if strength(c) > best]
        return beaters if must_beat and beaters else mine_led
    if not mine_trumps:
        return list(held)
    if led == trump or not trumps_in_trick:
        return mine_trumps
    best = max(strength(c) for c in trumps_in_trick)
    over = [c for c in mine_trumps if strength(c) > best]
    if over:
        return over
    return list(held) if rules.free_when_cannot_overtrump else mine_trumps


def naive_perft(pos: Position, rules) -> int:
    if pos.tricks_played == 5:
        return 1
    held = [c for c in range(20) if pos.hands[pos.to_play - 1] >> c & 1]
    return sum(naive_perft(play_card(pos, c, rules.monte), rules)
               for c in naive_legal(held, list(pos.trick), pos.trump, rules))


def start(deal_text: str, muestra: str, rules, solo: bool) -> Position:
    hand = make_hand(deal_text, muestra, rules,
                     ["solo", "paso", "paso", "paso"] if solo else None)
    return hand.pos


@pytest.mark.parametrize("index", range(len(PERFT_DEALS)))
@pytest.mark.parametrize("solo", [False, True])
@pytest.mark.parametrize("beat", [True, False])
def test_perft(index, solo, beat):
    rules = get_rules(f"online,beat_led_after_trump={beat}")
    deal_text, muestra = PERFT_DEALS[index]
    assert perft(start(deal_text, muestra, rules, solo), rules) == PERFT[(index, solo, beat)]


@pytest.mark.parametrize("index", range(len(PERFT_DEALS)))
@pytest.mark.parametrize("solo", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_perft_naive_twin(index, solo):
    deal_text, muestra = PERFT_DEALS[index]
    for beat in (True, False):
        rules = get_rules(f"online,beat_led_after_trump={beat}")
        assert naive_perft(start(deal_text, muestra, rules, solo), rules) == PERFT[(index, solo, beat)]


def test_bad_deals_and_plays():
    with pytest.raises(InconsistentDealError, match="twice"):
        HandState(deal("Ao 3o Ro Co So / Ao 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"),
             parse_card("Sb"))
    with pytest.raises(InconsistentDealError, match="muestra 'Ao' is not in seat 4"):
        HandState(deal("Ao 3o Ro Co So / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"),
             parse_card("Ao"))
    with pytest.raises(InconsistentDealError, match="4 cards"):
        HandState(deal("Ao 3o Ro Co / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"),
             parse_card("Sb"))
    hand = make_hand("Ao 3o Ro Co So / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb", "Sb")
    with pytest.raises(IllegalPlayError, match="'Ac' in trick 1 is seat 2's, but seat 1 leads"):
        hand.play(parse_card("Ac"))
    fresh = HandState(deal("Ao 3o Ro Co So / Ac 3c Rc Cc Sc / Ae 3e Re Ce Se / Ab 3b Rb Cb Sb"),
                 parse_card("Sb"))
    with pytest.raises(IllegalPlayError, match="auction is not over"):
        fresh.play(parse_card("Ao"))


def test_record_errors_say_where():
    base = {"rules": "online", "muestra": "Sb",
            "hands": ["Ao 3o Ro Co So", "Ac 3c Rc Cc Sc", "Ae 3e Re Ce Se", "Ab 3b Rb Cb Sb"]}
    with pytest.raises(RecordError, match=r"tricks\[0\]\[1\]: card 'Ae' in trick 1 is seat 3's"):
        replay(record_from_obj({**base, "tricks": [["Ao", "Ae"]]}))
    with pytest.raises(RecordError, match="auction, call 2"):
        replay(record_from_obj({**base, "auction": ["solo", "solo", "paso", "paso"]}))
    with pytest.raises(RecordError, match="3 calls"):
        replay(record_from_obj({**base, "auction": ["paso", "paso", "paso"]}))
    with pytest.raises(RecordError, match="0 calls"):
        replay(record_from_obj({**base, "auction": []}))
    with pytest.raises(RecordError, match="may not sing copas after trick 1"):
        replay(record_from_obj({**base, "tricks": [["Ao", "Sc", "Se", "Sb"]],
                                          "cantes": [{"after_trick": 1, "seat": 1, "suit": "c"}]}))
    with pytest.raises(RecordError, match="unknown preset"):
        record_from_obj({**base, "rules": "poker"})
    # the last trick may be begun with no card yet (docs/record-format.md: "3.")
    assert replay(record_from_obj({**base, "tricks": [["Ao", "Sc", "Se", "Sb"], []]})).to_play == 4
    with pytest.raises(RecordError, match="trick 1 has 0 cards"):
        replay(record_from_obj({**base, "tricks": [[], ["Ao"]]}))
    with pytest.raises(RecordError, match="trick 1 has 3 cards"):
        replay(record_from_obj({**base, "tricks": [["Ao", "Sc", "Se"], ["Sb"]]}))


# --- a hand's points split into cards, monte and cantes; the tie-break and the match score ---

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


BLUNDER = EXAMPLES / "analysis" / "online-blunder.txt"       # a 65-65 tie, paso


NARRO = EXAMPLES / "records" / "narro-solo.txt"               # a cante, a match score


def hand_of(path: Path) -> HandState:
    return replay(read_record(path.read_text(), str(path)))


# --- the library ---------------------------------------------------------------------

def test_breakdown_adds_up_to_the_points_and_names_the_tie_break():
    hand = hand_of(BLUNDER)
    res = hand.result()
    bd = res.breakdown
    assert bd.cards == (55, 65) and bd.monte == (10, 0) and bd.cantes == ()
    assert bd.total == res.points == (65, 65)
    assert bd.trick_winners == (2, 2, 2, 3, 3)
    assert sum(bd.cards) == 120                    # every card point of the deck
    assert res.tie_break == "last_trick" and res.winner is Side.A   # seat 3 took the last baza
    assert res.score_after is None                 # the record has no score


def test_breakdown_of_a_cante_and_the_match_score_after():
    res = hand_of(NARRO).result()
    (k,) = res.breakdown.cantes
    assert (k.seat, str(k.side), "oceb"[k.suit], k.after_trick, k.points) == (3, "A", "c", 1, 20)
    assert res.breakdown.total == res.points
    assert res.tie_break is None
    assert (res.score_before.A, res.score_before.B) == (3, 5)
    assert (res.score_after.A, res.score_after.B) == (3, 7)   # side B scores the 2 of the solo
    assert res.match_won_by is None


def test_a_tie_under_mano_is_named_mano():
    rec = read_record(BLUNDER.read_text())
    rec.rules = get_rules("online,tie_break=mano")
    res = replay(rec).result()
    assert res.points == (65, 65) and res.tie_break == "mano" and res.winner is Side.A


def test_match_won_by_the_hand():
    rec = read_record(NARRO.read_text())
    from cuatrola_solver.game.match import Score
    rec.score = Score(3, 19)                       # narro: to 21 by 2; B gets 2 -> 21-3
    res = replay(rec).result()
    assert res.match_won_by is Side.B and res.score_after.B == 21
