"""The hint of the person's decision at the table (:meth:`~.play.PlayTable.hint`), as
``cuatrola play --hints`` gives it: typed values, each written for the page by its
``to_json()`` (the keys the page's script reads)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

__all__ = ["CallHint", "CardsHint", "CanteHint", "TableHint"]


@dataclass(frozen=True)
class CallHint:
    """The call advised, and per allowed call (``(call, P(win), EV)``, as played when
    the preset has a played-odds model, else double dummy)."""

    advice: str
    exact: bool
    deals: int
    options: tuple[tuple[str, float | None, float | None], ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "call", "advice": self.advice, "exact": self.exact, "deals": self.deals,
                "options": [{"bid": b, "p": p, "ev": ev} for b, p, ev in self.options]}


@dataclass(frozen=True)
class CardsHint:
    """The best card and each legal card's P(win) (``(card code, P(win))``)."""

    best: str
    exact: bool
    deals: int
    cards: tuple[tuple[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "card", "best": self.best, "exact": self.exact, "deals": self.deals,
                "cards": [{"card": c, "p": p} for c, p in self.cards]}


@dataclass(frozen=True)
class CanteHint:
    """Whether to sing: the best choice (a suit's letter, or ``no``) and each choice's
    P(win) (``(choice, P(win))``) over ``deals`` sampled deals."""

    best: str
    deals: int
    options: tuple[tuple[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "cante", "best": self.best, "exact": False, "deals": self.deals,
                "options": [{"suit": s, "p": p} for s, p in self.options]}


#: a hint of the table
TableHint = Union[CallHint, CardsHint, CanteHint]
