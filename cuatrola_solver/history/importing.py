"""The fast part of an import: records found, read, checked and kept, each hand once.

:func:`find_records` walks what it is given -- record files in the text or JSON form,
JSON lines (``.jsonl``, or a file whose lines are each a JSON record: ``cuatrola deal
--json``, a self-play run), match sheets (``cuatrola record --match``: each hand with
its score and names), folders recursively (files ending ``.txt``, ``.json``,
``.jsonl``, ``.ndjson``; names starting with a dot skipped) -- in a fixed order (sorted
paths, a file's records in its order), so that two imports of the same folder number
the hands alike.  Each record is read and checked (:func:`~.facts.facts_of`); a bad one
is reported (:class:`Skipped`) and the import goes on.

:func:`add_hand` keeps one hand: a hand whose key is already in is recognised and left
as it is (the import is idempotent).  A hand is dated by the day its file was last
written (UTC), or the day it is fed, for the browser table's.  Names are mapped through
the merges (``cuatrola history merge``).
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..errors import CuatrolaError, HistoryError, quote
from ..lab.records import json_lines
from ..notation.match_sheet import MatchSheet
from ..notation.record import HandRecord, read_record, record_from_obj
from .database import PATH_LIMIT, Database
from .facts import HandFacts, facts_of

__all__ = ["Found", "Skipped", "ImportResult", "find_records", "add_hand", "import_paths",
           "merged_name", "SUFFIXES", "day_of"]

#: the files a folder is searched for
SUFFIXES = (".txt", ".json", ".jsonl", ".ndjson")
#: the JSON lines files
LINES_SUFFIXES = (".jsonl", ".ndjson")
#: the largest record file read whole (a record is a few hundred bytes)
MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class Found:
    """A record read: where (``file`` or ``file, line N``), the day of its file."""

    where: str
    record: HandRecord
    played: str


@dataclass(frozen=True)
class Skipped:
    """What could not be read, and why (the error's one line)."""

    where: str
    why: str


@dataclass(frozen=True)
class ImportResult:
    """An import's count: hands added, hands already in, what was skipped."""

    added: int
    known: int
    skipped: tuple[Skipped, ...]


def day_of(timestamp: float) -> str:
    """The UTC day of a POSIX time, ``YYYY-MM-DD``."""
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).date().isoformat()


def _files(path: Path) -> list[Path]:
    if not path.exists():
        raise HistoryError(f"no file or folder {quote(str(path), PATH_LIMIT)} to import")
    if not path.is_dir():
        return [path]
    found = []
    for folder, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(folder) / n for n in names
                  if not n.startswith(".") and n.lower().endswith(SUFFIXES)]
    return sorted(found)


def _is_json_lines(path: Path, text: str) -> bool:
    if path.suffix.lower() in LINES_SUFFIXES:
        return True
    lines = [x for x in text.splitlines() if x.strip()]
    if len(lines) < 2 or not lines[0].lstrip("\ufeff").lstrip().startswith("{"):
        return False
    try:
        return isinstance(json.loads(lines[0].lstrip("\ufeff")), dict)
    except ValueError:
        return False


def _read_file(path: Path) -> Iterator[Found | Skipped]:
    where = str(path)
    try:
        played = day_of(path.stat().st_mtime)
        if path.stat().st_size > MAX_FILE_BYTES and path.suffix.lower() not in LINES_SUFFIXES:
            yield Skipped(where, f"more than {MAX_FILE_BYTES >> 20} MB: not a record")
            return
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        yield Skipped(where, f"cannot be read: {getattr(e, 'strerror', None) or e}")
        return
    if _is_json_lines(path, text):
        try:
            for line, obj, _ in json_lines(where, text.splitlines(keepends=True)):
                at = f"{where}, line {line}"
                try:
                    yield Found(at, record_from_obj(obj, at), played)
                except CuatrolaError as e:
                    yield Skipped(at, str(e))
        except CuatrolaError as e:
            yield Skipped(where, str(e))
        return
    try:
        if _is_match_sheet(text):
            for i, hand in enumerate(MatchSheet.from_json(text, where).hands, 1):
                yield Found(f"{where}, hand {i}", hand.record, played)
        else:
            yield Found(where, read_record(text, where), played)
    except CuatrolaError as e:
        yield Skipped(where, str(e))


def _is_match_sheet(text: str) -> bool:
    """A match sheet (``cuatrola record --match``): a JSON object whose ``hands`` are
    records (a record's ``hands`` are four texts or nulls)."""
    if not text.lstrip("\ufeff").lstrip().startswith("{"):
        return False
    try:
        obj = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return False
    hands = obj.get("hands") if isinstance(obj, dict) else None
    return isinstance(hands, list) and any(isinstance(h, dict) for h in hands)


def find_records(paths: Iterable[str | Path]) -> Iterator[Found | Skipped]:
    """Every record of ``paths`` (files, folders), in a fixed order; what cannot be read
    as a :class:`Skipped`.  A path that does not exist raises :class:`HistoryError`."""
    files = [f for p in paths for f in _files(Path(p))]
    for f in files:
        yield from _read_file(f)


def merged_name(conn: sqlite3.Connection, name: str | None) -> str | None:
    """``name`` after the merges (a chain of them followed to its end)."""
    seen = set()
    while name is not None and name not in seen:
        seen.add(name)
        row = conn.execute("SELECT new FROM merges WHERE old = ?", (name,)).fetchone()
        if row is None:
            break
        name = row[0]
    return name


def add_hand(conn: sqlite3.Connection, facts: HandFacts, source: str, played: str) -> bool:
    """Keep one hand, inside the caller's transaction; False when its key is already in."""
    if conn.execute("SELECT 1 FROM hands WHERE hash = ?", (facts.key,)).fetchone():
        return False
    cur = conn.execute(
        "INSERT INTO hands (hash, record, source, played, rules, preset, complete, contract,"
        " winner, game_points, match_won_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (facts.key, facts.text, source, played, facts.rules, facts.preset,
         int(facts.complete), facts.contract, facts.winner, facts.game_points,
         facts.match_won_by))
    hand_id = cur.lastrowid
    conn.executemany("INSERT INTO seats (hand_id, seat, player) VALUES (?, ?, ?)",
                     [(hand_id, s, merged_name(conn, p))
                      for s, p in enumerate(facts.players, 1)])
    conn.executemany("INSERT INTO renuncios (hand_id, trick, seat, card, obligation, cost)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     [(hand_id, r.trick, r.seat, r.card, r.obligation, r.cost)
                      for r in facts.renuncios])
    conn.executemany("INSERT INTO cantes_missed (hand_id, seat, suit, after_trick)"
                     " VALUES (?, ?, ?, ?)",
                     [(hand_id, k.seat, k.suit, k.after_trick) for k in facts.cantes_missed])
    return True


#: hands kept per transaction of an import
BATCH = 200


def import_paths(db: Database, paths: Iterable[str | Path]) -> ImportResult:
    """Read every record of ``paths`` and keep the hands not yet in, :data:`BATCH` to a
    transaction (an import stopped midway keeps the batches committed)."""
    added = known = 0
    skipped: list[Skipped] = []
    batch: list[tuple[HandFacts, str, str]] = []

    def flush() -> None:
        nonlocal added, known
        with db.write() as conn:
            for facts, source, played in batch:
                if add_hand(conn, facts, source, played):
                    added += 1
                else:
                    known += 1
        batch.clear()

    for item in find_records(paths):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        try:
            facts = facts_of(item.record)
        except CuatrolaError as e:
            skipped.append(Skipped(item.where, str(e)))
            continue
        batch.append((facts, item.where, item.played))
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    return ImportResult(added, known, tuple(skipped))
