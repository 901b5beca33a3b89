"""Seats and sides.

Seats are numbered 1 to 4 in playing order; seat 1 is the mano (first to speak and to
lead), seat 4 the dealer, who keeps the muestra.  Seats 1 and 3 are one pair, side A
(the mano's side); seats 2 and 4 the other, side B.  The numbers are those of one hand:
the next hand's seat 1 is this hand's seat 2 (docs/rules.md 7).
"""

from __future__ import annotations

from ..errors import NotationError, quote

__all__ = ["SEATS", "check_seat"]

#: the seats in playing order
SEATS = (1, 2, 3, 4)


def check_seat(seat: object, where: str = "") -> int:
    """``seat`` when it is a seat number 1 to 4, else :class:`NotationError` naming it
    (and ``where`` it was given: ``"--seat"``); the one check of a seat the user gives."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        place = f" in {where}" if where else ""
        raise NotationError(f"bad seat {quote(seat)}{place}: expected 1 to 4")
    return seat
