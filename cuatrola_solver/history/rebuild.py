"""The database made again from the records: ``cuatrola history rebuild RECORDS``.

The records stay the interchange format: the hands are imported into a new file beside
the database (``FILE.rebuild``), as an import does, then that file replaces the
database.  What the records do not hold is carried over from the old file when it can
still be read: the merges of names, and the analyses of the hands that are in both,
with the version that made them (so a rebuild analyses only what is new; ``cuatrola
history analyze --again`` remakes those of another version).  A file that cannot
be read at all (not ours, corrupt) is replaced whole.  Two rebuilds of the same records
give the same content: the hands are numbered in the order found
(:func:`~.importing.find_records`), each analysis is seeded by its hand's key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..errors import HistoryError, quote
from .database import PATH_LIMIT, Database, open_database
from .importing import ImportResult, import_paths

__all__ = ["rebuild", "ANALYSIS_TABLES"]

#: the tables of an analysis, each keyed by hand_id, in the order they are copied
ANALYSIS_TABLES = ("analyses", "seat_play", "cards", "bids")


def _columns(db: Database, table: str) -> list[str]:
    return [r[1] for r in db.query(f"PRAGMA table_info({table})")]


def _carry_over(old: Database, new: Database) -> None:
    """The merges and the analyses (same hand key, same version) of ``old`` into ``new``."""
    ids = {key: i for key, i in new.query("SELECT hash, id FROM hands")}
    old_ids = {i: key for i, key in old.query("SELECT id, hash FROM hands")}
    moved = {i: ids[key] for i, key in old_ids.items() if key in ids}
    with new.write() as conn:
        conn.executemany("INSERT OR REPLACE INTO merges (old, new) VALUES (?, ?)",
                         old.query("SELECT old, new FROM merges ORDER BY old"))
        for table in ANALYSIS_TABLES:
            cols = _columns(new, table)
            rows = old.query(f"SELECT {', '.join(cols)} FROM {table} ORDER BY rowid")
            at = cols.index("hand_id")
            kept = [tuple(moved[v] if k == at else v for k, v in enumerate(r))
                    for r in rows if r[at] in moved]
            conn.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                             f"({', '.join('?' * len(cols))})", kept)
        # a name merged in the old file is merged in the new one too
        for old_name, new_name in conn.execute("SELECT old, new FROM merges").fetchall():
            conn.execute("UPDATE seats SET player = ? WHERE player = ?", (new_name, old_name))


def _remove(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def rebuild(path: str | Path, records: Iterable[str | Path]) -> ImportResult:
    """Make the database at ``path`` again from the records of ``records`` (files,
    folders), keeping what the old file holds that the records do not; returns the
    import's count.  The analysis of the hands left is for the caller to run
    (:func:`~.stored.analyse_pending`)."""
    path = Path(path)
    fresh = Path(f"{path}.rebuild")
    _remove(fresh)
    new = open_database(fresh)
    try:
        result = import_paths(new, records)
        if path.exists():
            try:
                with open_database(path) as old:
                    _carry_over(old, new)
            except HistoryError:
                pass                        # nothing to keep from a file we cannot read
    except BaseException:
        new.close()
        _remove(fresh)
        raise
    new.close()                             # the last connection: the WAL is folded in
    try:
        _remove(path)
        os.replace(fresh, path)
    except OSError as e:
        raise HistoryError(f"cannot replace the history database {quote(str(path), PATH_LIMIT)}: "
                           f"{e.strerror or e}") from None
    return result
