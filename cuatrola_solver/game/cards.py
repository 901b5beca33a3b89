"""Cards, suits, ranks and card sets.

A card is an ``int`` from 0 to 19: ``suit * 5 + rank``, where ``rank`` counts
strength from the sota (0) to the as (4).  A set of cards is a 20-bit mask, so a
hand, a trick or the whole deck is one ``int``; within a suit a higher bit is a
stronger card.  This is the representation the compiled solver uses too.

Notation (README, "Notation"; docs/record-format.md): rank then suit, case-insensitive.  Ranks ``A 3 R C S``
(English aliases ``K`` rey, ``N`` caballo, ``J`` sota), suits ``o c e b``.
``parse_card`` / ``format_card`` and ``parse_cards`` / ``format_cards`` are pairs:
``parse(format(x)) == x``.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import TYPE_CHECKING, Iterable, Iterator

from ..errors import NotationError, quote
from ..i18n import _

if TYPE_CHECKING:
    import random


class Suit(IntEnum):
    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def spanish(self) -> str:
        return ("oros", "copas", "espadas", "bastos")[self]


class Rank(IntEnum):
    """Ranks in order of strength; the value is the strength (sota 0 .. as 4)."""

    SOTA = 0
    CABALLO = 1
    REY = 2
    TRES = 3
    AS = 4

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]


SUIT_LETTERS = "oceb"
RANK_LETTERS = "SCR3A"
RANK_POINTS = (2, 3, 4, 10, 11)
RANK_ALIASES = {"s": Rank.SOTA, "j": Rank.SOTA, "c": Rank.CABALLO, "n": Rank.CABALLO,
                "r": Rank.REY, "k": Rank.REY, "3": Rank.TRES, "a": Rank.AS}
SUIT_ALIASES = {"o": Suit.OROS, "c": Suit.COPAS, "e": Suit.ESPADAS, "b": Suit.BASTOS}

NUM_CARDS = 20
#: a card: its index 0 to 19, ``suit * 5 + rank`` (``card(Rank.AS, Suit.OROS)`` is 4);
#: a plain int, so that the engine and the solver pass cards at no cost
Card = int
#: a set of cards as an int bitmask: bit ``c`` set for card ``c`` (a seat's cards, a suit,
#: the cards played); the masks the engine, the solver and the hidden layer pass around
CardMask = int
FULL_DECK = (1 << NUM_CARDS) - 1
SUIT_MASKS = tuple(0b11111 << (5 * s) for s in range(4))
#: card points of every card, by card index
CARD_POINTS = tuple(RANK_POINTS[c % 5] for c in range(NUM_CARDS))
TOTAL_CARD_POINTS = sum(CARD_POINTS)  # 120


def card(rank: Rank | int, suit: Suit | int) -> Card:
    return int(suit) * 5 + int(rank)


def suit_of(c: Card) -> Suit:
    return Suit(c // 5)


def rank_of(c: Card) -> Rank:
    return Rank(c % 5)


def points_of(c: Card) -> int:
    return CARD_POINTS[c]


def format_card(c: Card) -> str:
    """``format_card(card(Rank.AS, Suit.OROS)) == 'Ao'``."""
    return RANK_LETTERS[c % 5] + SUIT_LETTERS[c // 5]


def _describe(where: str) -> str:
    return f" {where}" if where else ""


def parse_card(text: str, where: str = "") -> Card:
    """Read one card such as ``"3o"``, ``"Cc"``, ``"kb"``.

    ``where`` says where the token came from, for the error message.
    """
    token = text.strip()
    if len(token) == 2:
        r = RANK_ALIASES.get(token[0].lower())
        s = SUIT_ALIASES.get(token[1].lower())
        if r is not None and s is not None:
            return card(r, s)
    raise NotationError(
        _("bad card {card}{where}: expected a rank (A 3 R C S, or K N J) followed by a suit "
          "(o c e b), e.g. '3o' or 'Cc'").format(card=quote(text), where=_describe(where)))


_SEPARATORS = re.compile(r"[\s,]+")


def split_tokens(text: str) -> list[str]:
    return [t for t in _SEPARATORS.split(text.strip()) if t]


def parse_cards(text: str, where: str = "", *,
                allow_repeats: bool = False) -> list[Card]:
    """Read cards separated by spaces or commas, keeping their order."""
    cards: list[int] = []
    for i, token in enumerate(split_tokens(text), 1):
        place = (_("(card {i} of {where})").format(i=i, where=where) if where
                 else _("(card {i})").format(i=i))
        c = parse_card(token, place)
        if c in cards and not allow_repeats:
            raise NotationError(_("card {card} appears twice {place}").format(
                card=quote(token), place=place))
        cards.append(c)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(c) for c in cards)


# --- masks -------------------------------------------------------------------

def mask_of(cards: Iterable[Card]) -> CardMask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask in canonical order (oros, copas, espadas, bastos; weakest first)."""
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


def iter_cards(mask: CardMask) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: CardMask) -> int:
    return bin(mask).count("1")


def mask_points(mask: CardMask) -> int:
    return sum(CARD_POINTS[c] for c in iter_cards(mask))


def higher_in_suit(c: Card) -> CardMask:
    """Mask of the cards of ``c``'s suit that beat ``c``."""
    return SUIT_MASKS[c // 5] & ~((2 << c) - 1)


def parse_suit(text: str, where: str = "") -> Suit:
    s = SUIT_ALIASES.get(text.strip().lower()[:1]) if text.strip() else None
    if s is None or len(text.strip()) not in (1, len(s.spanish)) or (
            len(text.strip()) > 1 and text.strip().lower() != s.spanish):
        raise NotationError(_("bad suit {suit}{where}: expected o, c, e or b").format(
            suit=quote(text), where=_describe(where)))
    return s


def parse_deal(text: str, where: str | None = None) -> list[list[Card]]:
    """Read four hands separated by ``/`` (seats 1 to 4)."""
    where = _("deal") if where is None else where
    parts = text.split("/")
    if len(parts) != 4:
        raise NotationError(_("bad {where} {deal}: expected 4 hands separated by '/', got "
                              "{n}").format(where=where, deal=quote(text), n=len(parts)))
    return [parse_cards(p, _("seat {seat} in the {where}").format(seat=i, where=where))
            for i, p in enumerate(parts, 1)]


def format_deal(hands: Iterable[Iterable[Card]]) -> str:
    return " / ".join(format_cards(h) for h in hands)


def random_deal(rng: random.Random) -> tuple[list[list[Card]], Card]:
    """Shuffle the 20 cards with ``rng`` (a :class:`random.Random`) and deal five to each
    seat, 1 to 4: the four hands (each sorted) and the muestra, the last card dealt
    (seat 4's fifth).  The one maker of random deals (``deal``, the benchmark, self-play
    and the tests)."""
    order = list(range(NUM_CARDS))
    rng.shuffle(order)
    return [sorted(order[5 * i:5 * i + 5]) for i in range(4)], order[NUM_CARDS - 1]
