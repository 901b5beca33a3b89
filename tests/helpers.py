"""Small builders shared by the tests."""

from __future__ import annotations

import random

from cuatrola_solver.game.cards import cards_of, mask_of, parse_card, parse_cards, random_deal
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.game.play import Position, first_leader
from cuatrola_solver.game.rules import get_rules


def masks(*hands: str) -> tuple[int, ...]:
    return tuple(mask_of(parse_cards(h)) for h in hands)


def deal(text: str) -> list[list[int]]:
    return [parse_cards(h) for h in text.split("/")]


def make_hand(deal_text: str, muestra: str, rules="online", auction=None, score=None) -> Hand:
    hand = Hand(deal(deal_text), parse_card(muestra), get_rules(rules), score)
    for call in auction or ["paso"] * 4:
        hand.bid(call)
    return hand


def position(trump: str, hands: tuple[str, str, str, str], contract="paso", declarer=(),
             leader=None, trick="", **kw) -> Position:
    """A mid-hand position from text; '-' for a seat that sits out (holds nothing shown)."""
    active = tuple(h != "-" for h in hands)
    hm = tuple(0 if h == "-" else mask_of(parse_cards(h)) for h in hands)
    return Position(trump="oceb".index(trump), hands=hm, active=active, contract=contract,
                    declarer=tuple(declarer), leader=leader or first_leader(active),
                    trick=tuple(parse_cards(trick)), **kw)


AUCTIONS = {
    # contract -> auctions (declarer seat) making it, as four calls
    "paso": [["paso"] * 4],
    "solo": [["solo", "paso", "paso", "paso"], ["paso", "solo", "paso", "paso"],
             ["paso", "paso", "solo", "paso"], ["paso", "paso", "paso", "solo"]],
    "cuatrola": [["cuatrola", "paso", "paso", "paso"], ["paso", "paso", "paso", "cuatrola"]],
    "quintola": [["paso", "quintola", "paso", "paso"], ["paso", "paso", "quintola", "paso"]],
    "contrasolo": [["solo", "contrasolo", "paso", "paso"], ["solo", "paso", "paso", "contrasolo"],
                   ["paso", "solo", "contrasolo", "paso"], ["paso", "paso", "solo", "contrasolo"]],
}


def random_game(rng: random.Random, rules, contract: str, renuncio_rate: float = 0.0,
                sing_rate: float = 0.8) -> Hand:
    """A random legal hand (with an occasional renuncio when asked for)."""
    hands, muestra = random_deal(rng)
    hand = Hand(hands, muestra, rules)
    for call in rng.choice(AUCTIONS[contract]):
        hand.bid(call)
    while not hand.is_over():
        if not hand.pos.trick and hand.tricks:
            for seat in (1, 2, 3, 4):
                for suit in range(4):
                    if hand.cante_refusal(seat, suit) is None and rng.random() < sing_rate:
                        hand.sing(seat, suit)
        legal = hand.legal_cards()
        assert legal, "a legal set is never empty"
        held = cards_of(hand.pos.hands[hand.to_play - 1])
        if rng.random() < renuncio_rate and len(held) > len(legal):
            hand.play(rng.choice([c for c in held if c not in legal]))
        else:
            hand.play(rng.choice(legal))
    return hand


def as_view(source):
    """A hint's view: a View as it is, or a Hand in play seen by its seat on turn."""
    from cuatrola_solver.game.view import View
    return source if isinstance(source, View) else View.on_turn(source)


def start_view(hand, muestra: int, seat: int, rules=None):
    """The view of ``seat`` just after the deal (no call yet): its cards (a list or a
    mask) and the muestra."""
    from cuatrola_solver.game.view import View
    mask = hand if isinstance(hand, int) else mask_of(hand)
    return View(get_rules(rules), seat, mask, muestra)


def hand_knowledge(hand: Hand, seat: int, renuncios=None):
    """What ``seat`` knows in a whole hand, the plays in ``renuncios`` (by default the
    hand's own renuncios, as (trick, seat)) taken as renuncios."""
    from cuatrola_solver.game.view import View
    from cuatrola_solver.hidden.knowledge import knowledge_of
    if renuncios is None:
        renuncios = [(r.trick, r.seat) for r in hand.renuncios]
    return knowledge_of(View.from_hand(hand, seat), renuncios)
