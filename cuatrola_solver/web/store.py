"""The games of ``cuatrola serve`` kept on disk: each page's match -- its page id, the
match's seed and seat, every decision of the person hand by hand, the takebacks, the
record of each finished hand -- in an SQLite database in the records folder
(:data:`DB_NAME`), so a reload, a closed tab reopened or a server killed and started
again brings the page back to the same decision (docs/serve.md, "A game that
survives").

The database is opened in WAL mode (a reader never waits for the writer, a write is one
append to the log) with ``synchronous=FULL``: each decision is on the disk when its
answer leaves the server, even after a power cut, for one ``fsync`` per decision -- a
millisecond beside the bots' turns that follow it.  Foreign keys are on, so a
decision cannot outlive its hand nor a hand its game.  The schema's version is
``PRAGMA user_version``; :data:`MIGRATIONS` brings an older file up to date in order,
each step in one transaction, and a file from a newer cuatrola is refused.

Only what the bots cannot redo is kept: a hand is dealt and its bots play from the
match's seed (:func:`~cuatrola_solver.bots.playout.hand_deal`), so the table is
rebuilt exactly by replaying the person's decisions (:mod:`.games`)."""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RecordError, quote
from ..i18n import _

__all__ = ["Store", "SavedGame", "SavedHand", "DB_NAME", "MIGRATIONS", "StoreError"]

#: a row as sqlite3 reads it, and a statement with its parameters
Row = tuple[Any, ...]
Statement = tuple[str, tuple[object, ...]]

#: the database's file name in the records folder
DB_NAME = "cuatrola-serve.sqlite3"
#: how long a write waits for another writer's lock (another server on the same folder)
BUSY_MS = 5000

#: the schema, one step per version: ``MIGRATIONS[v]`` takes a file from version v to v + 1
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE pages (id TEXT PRIMARY KEY, made REAL NOT NULL, used REAL NOT NULL);
    CREATE TABLE games (
        page TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
        rules TEXT NOT NULL, bots TEXT NOT NULL,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 4),
        seed INTEGER NOT NULL, version INTEGER NOT NULL, started REAL NOT NULL);
    CREATE TABLE hands (
        page TEXT NOT NULL REFERENCES games(page) ON DELETE CASCADE,
        k INTEGER NOT NULL CHECK (k >= 0),
        takebacks INTEGER NOT NULL DEFAULT 0,
        record TEXT, name TEXT,
        PRIMARY KEY (page, k));
    CREATE TABLE decisions (
        page TEXT NOT NULL, k INTEGER NOT NULL, n INTEGER NOT NULL CHECK (n >= 0),
        choice TEXT NOT NULL,
        PRIMARY KEY (page, k, n),
        FOREIGN KEY (page, k) REFERENCES hands(page, k) ON DELETE CASCADE);
    """,
)


class StoreError(RecordError):
    """The games database cannot be opened or does not hold what it should."""


@dataclass(frozen=True)
class SavedHand:
    """Hand ``k`` of a match as kept: the person's decisions in order, the takebacks,
    and once it is over its record (text form) and the record's name in the folder."""

    k: int
    choices: tuple[str, ...]
    takebacks: int = 0
    record: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class SavedGame:
    """A page's match as kept: its rules (the preset's spec), bots, first seat and seed,
    its version (bumped at every change) and every hand dealt, in order."""

    page: str
    rules: str
    bots: str
    seat: int
    seed: int
    version: int
    hands: tuple[SavedHand, ...]


class Store:
    """The games database of the records folder ``folder`` (made and brought up to date
    when opened).  One connection, used by one thread at a time (a lock): every write is
    a few rows."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / DB_NAME
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise sqlite3.DatabaseError(f"journal mode {mode}, not wal")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.Error as e:
            raise StoreError(_("cannot open the games database {path}: {why}").format(
                path=quote(str(self.path)), why=e)) from None

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise sqlite3.DatabaseError(_("schema version {found} is newer than this "
                                          "cuatrola's {known}").format(
                                              found=version, known=len(MIGRATIONS)))
        for v in range(version, len(MIGRATIONS)):
            self._db.execute("BEGIN IMMEDIATE")     # (executescript would commit first)
            try:
                for statement in MIGRATIONS[v].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {v + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _write(self, *statements: Statement) -> list[Row]:
        """Run ``statements`` in one transaction; the rows the last one returns
        (:class:`StoreError` when the database cannot be written: locked by another
        server too long, the disk full)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                raise self._unwritable(e) from None
            try:
                for sql, args in statements:
                    rows = self._db.execute(sql, args).fetchall()
                self._db.execute("COMMIT")
                return rows
            except BaseException as e:
                self._db.execute("ROLLBACK")
                if isinstance(e, sqlite3.OperationalError):
                    raise self._unwritable(e) from None
                raise

    def _unwritable(self, e: sqlite3.Error) -> StoreError:
        return StoreError(_("cannot write the games database {path}: {why}").format(
            path=quote(str(self.path)), why=e))

    def _rows(self, sql: str, args: tuple[object, ...] = ()) -> list[Row]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @property
    def schema_version(self) -> int:
        return int(self._rows("PRAGMA user_version")[0][0])

    # --- pages and the count of games started -----------------------------------------

    def add_page(self, page: str) -> None:
        now = time.time()
        self._write(("INSERT INTO pages (id, made, used) VALUES (?, ?, ?)", (page, now, now)))

    def has_page(self, page: str) -> bool:
        return bool(self._rows("SELECT 1 FROM pages WHERE id = ?", (page,)))

    def count_game(self) -> int:
        """The number of games started before this one on the server (0, 1, ...), kept
        across restarts so ``--seed`` deals the n-th game from seed + n."""
        rows = self._write(("INSERT INTO counters (name, value) VALUES ('games', 1) "
                            "ON CONFLICT (name) DO UPDATE SET value = value + 1 "
                            "RETURNING value", ()))
        return int(rows[0][0]) - 1

    # --- a page's match -----------------------------------------------------------------

    def start_game(self, page: str, rules: str, bots: str, seat: int, seed: int,
                   version: int) -> None:
        """A new match on ``page`` (its last one, if any, forgotten), its first hand dealt."""
        now = time.time()
        self._write(("DELETE FROM games WHERE page = ?", (page,)),
                    ("INSERT INTO games (page, rules, bots, seat, seed, version, started) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)", (page, rules, bots, seat, seed, version,
                                                      now)),
                    ("INSERT INTO hands (page, k) VALUES (?, 0)", (page,)),
                    ("UPDATE pages SET used = ? WHERE id = ?", (now, page)))

    def deal(self, page: str, k: int, version: int) -> None:
        """Hand ``k`` of the page's match dealt."""
        self._write(("INSERT INTO hands (page, k) VALUES (?, ?)", (page, k)),
                    *self._versioned(page, version))

    def decide(self, page: str, k: int, n: int, choice: str, version: int,
               record: str | None = None, name: str | None = None) -> None:
        """The person's ``n``-th decision (0-based) of hand ``k``; with ``record``, the
        hand is over and its record is saved as ``name`` in the folder."""
        writes: list[Statement] = [
            ("INSERT INTO decisions (page, k, n, choice) VALUES (?, ?, ?, ?)",
             (page, k, n, choice))]
        if record is not None:
            writes.append(("UPDATE hands SET record = ?, name = ? WHERE page = ? AND k = ?",
                           (record, name, page, k)))
        self._write(*writes, *self._versioned(page, version))

    def finish(self, page: str, k: int, record: str, name: str, version: int) -> None:
        """Hand ``k`` over before the person's first decision: its record, saved as
        ``name``."""
        self._write(("UPDATE hands SET record = ?, name = ? WHERE page = ? AND k = ?",
                     (record, name, page, k)), *self._versioned(page, version))

    def take_back(self, page: str, k: int, n: int, version: int) -> None:
        """The ``n``-th decision of hand ``k`` taken back (the last one), counted."""
        self._write(("DELETE FROM decisions WHERE page = ? AND k = ? AND n = ?", (page, k, n)),
                    ("UPDATE hands SET takebacks = takebacks + 1 WHERE page = ? AND k = ?",
                     (page, k)),
                    *self._versioned(page, version))

    @staticmethod
    def _versioned(page: str, version: int) -> list[Statement]:
        return [("UPDATE games SET version = ? WHERE page = ?", (version, page)),
                ("UPDATE pages SET used = ? WHERE id = ?", (time.time(), page))]

    def version(self, page: str) -> int:
        """The version of the page's match (0 when it has none)."""
        rows = self._rows("SELECT version FROM games WHERE page = ?", (page,))
        return rows[0][0] if rows else 0

    def game(self, page: str) -> SavedGame | None:
        """The page's match as kept, None when it has none."""
        with self._lock:
            row = self._db.execute("SELECT rules, bots, seat, seed, version FROM games "
                                   "WHERE page = ?", (page,)).fetchone()
            if row is None:
                return None
            hands = self._db.execute("SELECT k, takebacks, record, name FROM hands "
                                     "WHERE page = ? ORDER BY k", (page,)).fetchall()
            decisions = self._db.execute("SELECT k, n, choice FROM decisions WHERE page = ? "
                                         "ORDER BY k, n", (page,)).fetchall()
        choices: dict[int, list[str]] = {}
        for k, n, choice in decisions:
            if n != len(choices.setdefault(k, [])):
                raise StoreError(_("the games database {path}: decision {n} of hand {hand} "
                                   "of page {page} follows a gap").format(
                                       path=quote(str(self.path)), n=n, hand=k + 1,
                                       page=quote(page)))
            choices[k].append(choice)
        if [h[0] for h in hands] != list(range(len(hands))) or not hands:
            raise StoreError(_("the games database {path}: the hands of page {page} are "
                               "not 1 to {n}").format(path=quote(str(self.path)),
                                                      page=quote(page), n=len(hands)))
        rules, bots, seat, seed, version = row
        return SavedGame(page, rules, bots, seat, seed, version,
                         tuple(SavedHand(k, tuple(choices.get(k, ())), t, rec, name)
                               for k, t, rec, name in hands))
