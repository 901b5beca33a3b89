"""Hands fed into the history as they end: the browser table's (``cuatrola serve``).

:func:`feed` keeps one finished hand (no analysis: ``cuatrola history analyze`` or the
next import makes it), dated today, with the person at the table named :data:`~.facts.YOU`
when the record names nobody at that seat.  It opens the database for that one write,
so the server and an import write in turn (the database's busy timeout)."""

from __future__ import annotations

import datetime
from pathlib import Path

from ..notation.record import HandRecord
from .database import open_database
from .facts import YOU, facts_of, names_of
from .importing import add_hand

__all__ = ["feed"]


def feed(path: str | Path | None, rec: HandRecord, source: str, seat: int | None = None
         ) -> bool:
    """Keep ``rec`` (read from ``source``) in the database at ``path`` (None: the
    default one); ``seat``: the seat of the person at the table.  False when the hand
    was already in.  Raises :class:`~cuatrola_solver.errors.HistoryError` for a
    database that cannot be written, ``RecordError`` for a record that cannot be
    replayed."""
    players = list(names_of(rec))
    if seat is not None and players[seat - 1] is None:
        players[seat - 1] = YOU
    facts = facts_of(rec, tuple(players))
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    with open_database(path) as db, db.write() as conn:
        return add_hand(conn, facts, source, today)
