"""Builds the example records of this folder with the rules engine (``HandState``): seeded
random deals, every card played double-dummy best for the seat on turn, cantes sung
whenever a side may (the 40 first), except for the one fault each record is about.

    python examples/analysis/make_examples.py      # writes *.txt here, then run
    cuatrola analyze X.txt --seed 1 > X.analysis.txt
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import copy

import cuatrola_solver as cs
from cuatrola_solver import HandState

HERE = Path(__file__).parent


def random_deal(rng: random.Random) -> tuple[list[list[int]], int]:
    order = list(range(20))
    rng.shuffle(order)
    hands = [sorted(order[5 * i:5 * i + 5]) for i in range(4)]
    return hands, hands[3][rng.randrange(5)]


def card_values(hand: HandState) -> dict[int, dict]:
    """Every legal card's double-dummy makes, game points and tricks, for the side of the
    seat on turn."""
    pos = hand.pos
    per = {obj: cs.solve_cards(pos, hand.rules, obj) for obj in ("makes", "game_points",
                                                                 "tricks")}
    mine = (pos.to_play - 1) & 1 == pos.declaring_side
    return {c: {"makes": per["makes"][c] if mine else not per["makes"][c],
                "game_points": per["game_points"][c] * (1 if mine else -1),
                "tricks": per["tricks"][c] if mine else 5 - per["tricks"][c]}
            for c in per["makes"]}


def best_card(hand: HandState) -> int:
    values = card_values(hand)
    return max(values, key=lambda c: (values[c]["makes"], values[c]["game_points"],
                                      values[c]["tricks"], -c))


def sing_all(hand: HandState) -> None:
    """After a trick: each side that may sing does (the trick winner's side first), the
    40 before a 20, the lower suit first, sung by the seat that holds it."""
    pos = hand.pos
    if pos.trick or pos.is_over or hand.is_over():
        return
    first = (pos.leader - 1) & 1
    for side in (first, 1 - first):
        options = [(seat, suit) for suit in range(4) for seat in (1, 2, 3, 4)
                   if (seat - 1) & 1 == side and hand.cante_refusal(seat, suit) is None]
        if options:
            seat, suit = max(options, key=lambda o: (40 if o[1] == hand.trump else 20, -o[1]))
            hand.sing(seat, suit)


def play_out(hand: HandState, fault=None, stop_after_renuncio: int = 2) -> None:
    """Play to the end; ``fault(hand)`` may return a card to play instead of the best."""
    extra = None
    while not hand.is_over():
        c = fault(hand) if fault and not hand.renuncios else None
        hand.play(best_card(hand) if c is None else c)
        if hand.renuncios:
            extra = stop_after_renuncio if extra is None else extra - 1
            if extra <= 0:
                return
        sing_all(hand)


def renuncio_fault(kind: str, not_before: int = 1):
    def fault(hand: HandState):
        if hand.trick_number < not_before:
            return None
        pos = hand.pos
        legal = set(hand.legal_cards())
        for c in range(20):
            if pos.hands[pos.to_play - 1] >> c & 1 and c not in legal:
                trial = copy.deepcopy(hand)
                if trial.play(c).obligation == kind:
                    return c
        return None
    return fault


def blunder_fault(hand: HandState):
    """From trick 2: the first legal card that throws away a hand won double dummy and
    loses at least 30% winning chances on what the seat knows."""
    if hand.trick_number < 2 or getattr(hand, "_blundered", False):
        return None
    values = card_values(hand)
    if not any(v["makes"] for v in values.values()):
        return None
    losing = [c for c, v in values.items() if not v["makes"]]
    if not losing:
        return None
    h = cs.hint(cs.View.on_turn(hand), cs.Budget(samples=300, seed=7), cs.Models.NONE)
    p = {x.card: x.p_win for x in h.cards}
    best = max(p.values())
    c = min(losing, key=lambda c: p[c])
    if best - p[c] >= 0.4:
        hand._blundered = True
        return c
    return None


def new_hand(rng, rules, auction=None):
    hands, muestra = random_deal(rng)
    hand = HandState(hands, muestra, rules)
    for call in auction or ["paso"] * 4:
        hand.bid(call)
    return hand


def save(name: str, hand: HandState, comment: str) -> None:
    rec = cs.record_of(hand)
    rec.comment = comment
    (HERE / f"{name}.txt").write_text(cs.write_text(rec), encoding="utf-8")
    print(f"{name}: contract {hand.contract}, renuncios "
          f"{[r.obligation for r in hand.renuncios]}, result {hand.result()}", file=sys.stderr)


def with_renuncio(name, preset, kind, comment, seed0, auction=None, not_before=2):
    rules = cs.get_rules(preset)
    for seed in range(seed0, seed0 + 500):
        hand = new_hand(random.Random(seed), rules, auction)
        play_out(hand, renuncio_fault(kind, not_before))
        if hand.renuncios and hand.renuncios[0].obligation == kind:
            return save(name, hand, comment)
    raise SystemExit(f"{name}: no deal found")


def main() -> None:
    with_renuncio("online-asistir", "online", "asistir",
                  "A normal hand; in trick 2 seat on turn keeps its suit and discards: "
                  "renuncio (asistir).", 100)
    with_renuncio("online-montar", "online", "montar",
                  "A normal hand: a follower does not beat the highest card of the suit "
                  "led although it could (montar; online keeps the duty even after a trump).",
                  200, not_before=3)
    with_renuncio("app-fallar", "app", "fallar",
                  "A normal hand under the app's rules: void in the suit led, holding a "
                  "trump, a seat discards instead of trumping (fallar).", 300)
    with_renuncio("narro-montar-el-fallo", "narro", "montar_el_fallo",
                  "Narro: a seat void in the suit led, a trump already in the trick, "
                  "holding a higher trump, does not overtrump (montar el fallo); narro "
                  "doubles the penalty.", 400)
    # a costly blunder, online
    rules = cs.get_rules("online")
    for seed in range(500, 1000):
        hand = new_hand(random.Random(seed), rules)
        play_out(hand, blunder_fault)
        if getattr(hand, "_blundered", False):
            save("online-blunder", hand, "A normal hand: one card throws away a hand that "
                 "was won, double dummy and on what the player knew.")
            break
    # a failed solo, italiano (solo on tricks: 3 needed)
    rules = cs.get_rules("italiano")
    for seed in range(1000, 2000):
        rng = random.Random(seed)
        hands, muestra = random_deal(rng)
        seat = 1 + seed % 4
        row = next(r for r in cs.dd_table(
            tuple(sum(1 << c for c in h) for h in hands), muestra // 5, rules)
            if r["contract"] == "solo" and r["declarer"] == seat)
        if row["makes"]:
            continue
        view = cs.View.bidding(hands[seat - 1], muestra, seat, rules=rules)
        adv = cs.advise(view, cs.Budget(samples=1000, seed=1), cs.Models.NONE)
        if adv.option("solo").p_win < 0.6:
            continue
        auction = ["paso"] * 4
        auction[seat - 1] = "solo"
        hand = HandState(hands, muestra, rules)
        for call in auction:
            hand.bid(call)
        play_out(hand)
        save("italiano-failed-solo", hand, f"Italiano: seat {seat} goes solo (3 tricks "
             f"needed) with good odds on its own cards, but the deal is against it: the "
             f"solo fails double dummy. Italiano ends a bid contract as soon as the tricks decide it (early_end).")
        break
    # a cuatrola that was there to be made, app: everyone passed
    rules = cs.get_rules("app")
    for seed in range(2000, 4000):
        hand = new_hand(random.Random(seed), rules)
        rows = cs.dd_table(hand.deal, hand.trump, rules)
        made = [r for r in rows if r["contract"] == "cuatrola" and r["makes"]]
        if not made:
            continue
        play_out(hand)
        save("app-missed-cuatrola", hand, f"App rules: everybody passes, but seat "
             f"{made[0]['declarer']} could have made a cuatrola (4 tricks alone) on this "
             f"deal.")
        break


if __name__ == "__main__":
    main()
