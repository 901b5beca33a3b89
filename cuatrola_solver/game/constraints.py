"""What-if constraints: what a player believes about the cards another seat holds.

A :class:`Constraint` says how many cards of a set one seat holds: ``"3: void o"`` (seat 3
holds no oros), ``"2: has Ao"`` (seat 2 holds the as de oros; several cards: all of
them), ``"2: not Ao"`` (it does not; several cards: none of them), ``"4: >=2 triunfo"``
(at least two trumps; also ``<=N`` and ``=N``, of a suit letter, a suit's name or
``triunfo``).  :class:`Constraints` are several of them, joined with ``;`` in the text
(:meth:`Constraints.parse`), and say whether they are about the cards the seats hold now
(``advise``, ``hint``) or as dealt (``analyze``, which reviews the hand from its start).

They are plain data: a view carries them (:meth:`View.assuming
<cuatrola_solver.game.view.View.assuming>`) and the hidden-deal layer applies them to a
seat's knowledge (:mod:`cuatrola_solver.hidden.constrain`), so that exact enumeration and
sampling see only the layouts they allow.  Which suit ``triunfo`` is depends on the
muestra, so it is resolved there (:meth:`Constraint.mask`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterator

from ..errors import NotationError, quote
from .cards import SUIT_MASKS, SUIT_LETTERS, Suit, format_cards, mask_of, parse_cards, popcount

__all__ = ["Constraint", "Constraints", "TRUMP"]

#: the ``suit`` of a constraint on the trumps, whatever suit the muestra makes them
TRUMP = -1

_ITEM = re.compile(r"^\s*(\S+?)\s*:\s*(.*?)\s*$", re.S)
_COUNT = re.compile(r"^(>=|<=|==|=|≥|≤)\s*(\d+)\s+(\S+)$")
_TRUMP_WORDS = ("triunfo", "triunfos", "trump", "trumps")
_SUIT_WORDS = {**{s.letter: s for s in Suit}, **{s.spanish: s for s in Suit},
               **{s.spanish[:-1]: s for s in Suit}}


@dataclass(frozen=True)
class Constraint:
    """Seat ``seat`` holds between ``lo`` and ``hi`` cards of a set: the cards of
    ``cards`` (a mask), or of suit ``suit`` (``TRUMP``: the trumps).  ``form`` is how it
    reads: ``void``, ``has``, ``not``, ``>=``, ``<=`` or ``=``."""

    seat: int
    form: str
    lo: int
    hi: int
    cards: int = 0
    suit: int | None = None

    def mask(self, trump: int) -> int:
        """The set's cards, with ``trump`` the suit of the muestra."""
        if self.suit is None:
            return self.cards
        return SUIT_MASKS[trump if self.suit == TRUMP else self.suit]

    @property
    def what(self) -> str:
        """The set as it is written: ``triunfo``, a suit letter, or the cards."""
        if self.suit is None:
            return format_cards(c for c in range(20) if self.cards >> c & 1)
        return "triunfo" if self.suit == TRUMP else SUIT_LETTERS[self.suit]

    def __str__(self) -> str:
        if self.form in ("void", "has", "not"):
            return f"{self.seat}: {self.form} {self.what}"
        return f"{self.seat}: {self.form}{self.lo if self.form == '>=' else self.hi} {self.what}"

    def holds(self, hand: int, trump: int) -> bool:
        """Whether a hand (a mask of the seat's cards) satisfies it."""
        return self.lo <= popcount(hand & self.mask(trump)) <= self.hi

    @classmethod
    def parse(cls, text: str) -> "Constraint":
        """One constraint, ``"SEAT: void X"``, ``"SEAT: has CARDS"``, ``"SEAT: not
        CARDS"`` or ``"SEAT: >=N X"`` (also ``<=N``, ``=N``); X a suit (letter or name)
        or ``triunfo``.  Errors quote it and say what was expected."""
        m = _ITEM.match(text)
        if not m:
            raise NotationError(f"bad constraint {quote(text.strip())}: expected a seat, a "
                                f"colon and what it holds, e.g. '3: void o', '2: has Ao', "
                                f"'2: not Ao' or '4: >=2 triunfo'")
        seat_text, body = m.group(1), m.group(2)
        if seat_text not in ("1", "2", "3", "4"):
            raise NotationError(f"bad seat {quote(seat_text)} in the constraint "
                                f"{quote(text.strip())}: expected 1 to 4")
        seat = int(seat_text)
        words = body.split(None, 1)
        head = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        where = f"the constraint {quote(text.strip())}"
        if head == "void":
            suit = _suit(rest, where)
            return cls(seat, "void", 0, 0, suit=suit)
        if head in ("has", "not"):
            if not rest.strip():
                raise NotationError(f"{where}: name the cards after {head!r}, e.g. "
                                    f"'{seat}: {head} Ao'")
            cards = mask_of(parse_cards(rest, where))
            n = popcount(cards)
            return (cls(seat, "has", n, n, cards) if head == "has"
                    else cls(seat, "not", 0, 0, cards))
        c = _COUNT.match(body.strip())
        if c:
            op = {"≥": ">=", "≤": "<=", "==": "="}.get(c.group(1), c.group(1))
            n = int(c.group(2))
            suit = _suit(c.group(3), where)
            if n > 5:
                raise NotationError(f"{where}: a seat holds at most 5 cards, not {n}")
            lo, hi = {">=": (n, 5), "<=": (0, n), "=": (n, n)}[op]
            return cls(seat, op, lo, hi, suit=suit)
        raise NotationError(f"bad constraint {quote(text.strip())}: expected 'void X', "
                            f"'has CARDS', 'not CARDS' or '>=N X' (also <=N, =N) after the "
                            f"seat, X a suit letter (o c e b) or triunfo")


def _suit(text: str, where: str) -> int:
    word = text.strip().lower()
    if word in _TRUMP_WORDS:
        return TRUMP
    if word in _SUIT_WORDS:
        return int(_SUIT_WORDS[word])
    raise NotationError(f"bad suit {quote(text.strip())} in {where}: expected o, c, e, b "
                        f"or triunfo")


@dataclass(frozen=True)
class Constraints:
    """Several constraints, in the order given.  ``dealt``: they are about the hands as
    dealt (what ``analyze`` assumes at every card: what is left of them once cards are
    played), else about the cards the seats hold now."""

    items: tuple[Constraint, ...] = ()
    dealt: bool = False

    @classmethod
    def parse(cls, text: str | None, *, dealt: bool = False) -> "Constraints":
        """``"3: void o; 4: >=2 triunfo"``: the constraints joined with ``;`` (None or
        blank: none)."""
        if text is None or not text.strip():
            return cls((), dealt)
        parts = [p for p in text.split(";") if p.strip()]
        return cls(tuple(Constraint.parse(p) for p in parts), dealt)

    @classmethod
    def of(cls, value: "Constraints | str | None", *, dealt: bool = False) -> "Constraints":
        """``value`` as constraints: parsed when text, as it is when already parsed."""
        if isinstance(value, Constraints):
            return value
        return cls.parse(value, dealt=dealt)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self) -> Iterator[Constraint]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __str__(self) -> str:
        return "; ".join(str(c) for c in self.items)

    def without(self, seat: int) -> "Constraints":
        """The constraints about the other seats (a seat knows its own cards)."""
        return replace(self, items=tuple(c for c in self.items if c.seat != seat))

    def to_list(self) -> list[str]:
        return [str(c) for c in self.items]
