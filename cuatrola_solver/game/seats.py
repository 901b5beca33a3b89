"""Seats and sides.

Seats are numbered 1 to 4 in playing order; seat 1 is the mano (first to speak and to
lead), seat 4 the dealer, who keeps the muestra.  Seats 1 and 3 are one pair, side A
(the mano's side); seats 2 and 4 the other, side B.  The numbers are those of one hand:
the next hand's seat 1 is this hand's seat 2 (docs/rules.md 7).
"""

from __future__ import annotations

from enum import IntEnum

from ..errors import NotationError, quote
from ..i18n import _

__all__ = ["Seat", "SEATS", "Side", "check_seat"]

#: a seat: its number 1 to 4 in playing order (a plain int, as records write it)
Seat = int
#: the seats in playing order
SEATS: tuple[Seat, ...] = (1, 2, 3, 4)


class Side(IntEnum):
    """A side of one hand: A (seats 1 and 3, the mano's) or B (seats 2 and 4).

    It indexes the pairs of a position (``pos.tricks[side]``) and reads as its letter
    (``f"side {side}"`` is ``"side A"``); records and JSON write the letter."""

    A = 0
    B = 1

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @property
    def other(self) -> "Side":
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The seats of this side, in playing order."""
        return (1, 3) if self is Side.A else (2, 4)

    @classmethod
    def of(cls, seat: Seat) -> "Side":
        """The side of ``seat``."""
        return cls((seat - 1) & 1)

    @classmethod
    def parse(cls, text: str) -> "Side":
        """``"A"`` or ``"B"`` (as records write them)."""
        try:
            return cls[text]
        except (KeyError, TypeError):
            raise NotationError(_("bad side {side}: expected A or B").format(
                side=quote(text))) from None


def check_seat(seat: object, where: str = "") -> Seat:
    """``seat`` when it is a seat number 1 to 4, else :class:`NotationError` naming it
    (and ``where`` it was given: ``"--seat"``); the one check of a seat the user gives."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        place = _(" in {where}").format(where=where) if where else ""
        raise NotationError(_("bad seat {seat}{place}: expected 1 to 4").format(
            seat=quote(seat), place=place))
    return seat
