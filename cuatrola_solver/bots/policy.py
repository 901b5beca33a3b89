"""What a player is: a :class:`Player` answers a call, a cante and a card, each from one
seat's :class:`~cuatrola_solver.game.view.View` and a seed (what the hands of
:mod:`~cuatrola_solver.bots.playout` ask); a :class:`Policy`, one of the named players
of :mod:`~cuatrola_solver.bots.players`, has a name too."""

from __future__ import annotations

from typing import Protocol

from ..game.cards import Card
from ..game.view import View

__all__ = ["Player", "Policy"]


class Player(Protocol):
    """``call(view, seed)`` during the auction, ``sing(view, seed)`` at a trick boundary
    where the seat may sing (a suit, or None to keep quiet), ``card(view, seed)`` when it
    is the seat's turn to play."""

    def call(self, view: View, seed: int) -> str: ...

    def sing(self, view: View, seed: int) -> int | None: ...

    def card(self, view: View, seed: int) -> Card: ...


class Policy(Player, Protocol):
    """A named player (``random``, ``pimc``, ...)."""

    name: str
