"""What happened in the hand at the table, for the page's log (:class:`~.play.PlayTable`):
each event a typed value, written for the page by its ``to_json()`` (the keys the page's
script reads: ``kind``, ``seat``, ``who`` and the event's own)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

__all__ = ["CallEvent", "CanteEvent", "CardEvent", "TrickEvent", "ContractEvent", "Event"]


@dataclass(frozen=True)
class CallEvent:
    """``seat`` (``who`` to the person) made the call ``call``."""

    seat: int
    who: str
    call: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "call", "seat": self.seat, "who": self.who, "call": self.call}


@dataclass(frozen=True)
class CanteEvent:
    """``seat`` sang the suit ``suit`` (its letter; ``name`` its name) for ``points``."""

    seat: int
    who: str
    suit: str
    name: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "cante", "seat": self.seat, "who": self.who, "suit": self.suit,
                "name": self.name, "points": self.points}


@dataclass(frozen=True)
class CardEvent:
    """``seat`` played ``card`` (its code); ``forced``: the person's only legal card."""

    seat: int
    who: str
    card: str
    forced: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": "card", "seat": self.seat, "who": self.who, "card": self.card,
                "forced": self.forced}


@dataclass(frozen=True)
class TrickEvent:
    """Trick number ``trick`` was taken by ``seat``; ``yours``: by the person's side."""

    trick: int
    seat: int
    who: str
    yours: bool

    def to_json(self) -> dict[str, Any]:
        return {"kind": "trick", "trick": self.trick, "seat": self.seat, "who": self.who,
                "yours": self.yours}


@dataclass(frozen=True)
class ContractEvent:
    """The auction is over: ``contract``, played by the seats ``declarer_seats``
    (``declarer``: each as the person is told it)."""

    contract: str
    declarer: tuple[str, ...]
    declarer_seats: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "contract", "contract": self.contract,
                "declarer": list(self.declarer), "declarer_seats": list(self.declarer_seats)}


#: an event of the hand's log
Event = Union[CallEvent, CanteEvent, CardEvent, TrickEvent, ContractEvent]
