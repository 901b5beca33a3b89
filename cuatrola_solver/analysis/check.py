"""The verdict of ``cuatrola check``: a hand record replayed, its renuncios and its result.

:func:`check` replays a :class:`~cuatrola_solver.notation.record.HandRecord` with
:func:`~cuatrola_solver.notation.replay.replay` (whatever hands it gives: a renuncio of
a hand not given is found when a later card of the same seat proves it) and returns a
:class:`Check`; :meth:`Check.to_dict` is the ``check --json`` object (docs/json.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.hand import HandState, Renuncio, Result
from ..notation.record import HandRecord
from ..notation.replay import replay

__all__ = ["Check", "check"]


@dataclass(frozen=True)
class Check:
    """A record and the hand it replays to (as far as the record goes)."""

    record: HandRecord
    hand: HandState

    @property
    def renuncios(self) -> tuple[Renuncio, ...]:
        return tuple(self.hand.renuncios)

    @property
    def result(self) -> Result | None:
        """The result, None while the hand is not over."""
        return self.hand.result()

    @property
    def tricks_played(self) -> int:
        """The complete tricks of the record."""
        return len(self.hand.tricks)

    def to_dict(self) -> dict[str, Any]:
        """The ``check --json`` object (without ``schema``); ``unknown_seats`` first for a
        record that does not give every hand."""
        result = self.result
        d: dict[str, Any] = {"renuncios": [r.to_dict() for r in self.renuncios],
                             "result": result.to_dict() if result else None}
        return d if self.record.complete else {"unknown_seats": self.record.unknown_seats, **d}


def check(rec: HandRecord) -> Check:
    """Replay ``rec`` (raises :class:`~cuatrola_solver.errors.RecordError` for a record
    that cannot be replayed, saying where)."""
    return Check(rec, replay(rec))
