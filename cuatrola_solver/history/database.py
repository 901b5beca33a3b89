"""The one SQLite database of a player's history: where it lives, how it is opened, its
schema and the migrations that bring an older file up to it.

The file is SQLite through the standard library.  It says it is ours by its
``PRAGMA application_id`` (:data:`APPLICATION_ID`) and its schema by ``PRAGMA
user_version``: :data:`MIGRATIONS` lists the steps from an empty file, each applied in
order in one transaction, so a file of any older schema is brought up to date when it
is opened and a file of a newer one is refused.  Every connection runs in WAL mode with
foreign keys on and a busy timeout (:data:`BUSY_TIMEOUT_MS`), so two processes writing
at once (the server feeding a hand, an import) wait their turn instead of failing.

A file that is not one of ours, or is corrupt, raises :class:`HistoryError` in one line
that says how to make it again (``cuatrola history rebuild``).  The default file is
``history.sqlite3`` in the user's data folder (:func:`default_path`, by
``platformdirs``); every command takes another with ``--db FILE``.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import platformdirs

from ..errors import HistoryError, quote

__all__ = ["APPLICATION_ID", "MIGRATIONS", "SCHEMA_VERSION", "BUSY_TIMEOUT_MS", "Database",
           "default_path", "open_database", "REBUILD", "PATH_LIMIT",
           "ENVIRONMENT"]

#: ``PRAGMA application_id`` of our files: "Cuat" in ASCII
APPLICATION_ID = 0x43756174
#: the most characters of a path an error message quotes
PATH_LIMIT = 200
#: how long a connection waits for another process's write before giving up
BUSY_TIMEOUT_MS = 60_000
#: what to do with a file that cannot be read
REBUILD = ("make it again from the records with 'cuatrola history rebuild RECORDS "
           "--db FILE'")

#: the schema, one step per version: step ``i`` takes a file from version ``i`` to
#: ``i + 1`` (statements end with ``;`` and a new line).  A step is never edited once
#: released: a change is a new step.
MIGRATIONS: tuple[str, ...] = (
    # 1: the hands as imported, who sat where, what check finds in them
    """
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,          -- sha256 of the record's canonical JSON form
        record TEXT NOT NULL,               -- the record, in the canonical text form
        source TEXT NOT NULL,               -- where it was first read
        played TEXT NOT NULL,               -- the day it was played (YYYY-MM-DD, UTC)
        rules TEXT NOT NULL,                -- the Rules tag's form
        preset TEXT NOT NULL,
        complete INTEGER NOT NULL,          -- 1 when every hand is known
        contract TEXT,
        winner TEXT,                        -- 'A' or 'B', NULL while undecided
        game_points INTEGER,
        match_won_by TEXT                   -- the side the hand wins the match for
    );
    CREATE INDEX hands_played ON hands (played, id);
    CREATE TABLE seats (
        hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 4),
        player TEXT,                        -- the name of the Player tag; NULL: unnamed
        PRIMARY KEY (hand_id, seat)
    );
    CREATE INDEX seats_player ON seats (player);
    CREATE TABLE renuncios (
        hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        trick INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        card TEXT NOT NULL,
        obligation TEXT NOT NULL,
        cost INTEGER NOT NULL,              -- match points it gave the other side
        PRIMARY KEY (hand_id, trick, seat)
    );
    CREATE TABLE cantes_missed (
        hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        suit TEXT NOT NULL,
        after_trick INTEGER NOT NULL,       -- the first boundary it could be sung at
        PRIMARY KEY (hand_id, seat, suit)
    );
    """,
    # 2: each hand's analysis, kept with the version that made it
    """
    CREATE TABLE analyses (
        hand_id INTEGER PRIMARY KEY REFERENCES hands (id) ON DELETE CASCADE,
        version TEXT NOT NULL,              -- the package and models that made it
        samples INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        model TEXT,                         -- 'dd' or 'played': what the labels rate
        error TEXT                          -- why the hand cannot be analysed, or NULL
    );
    CREATE TABLE seat_play (
        hand_id INTEGER NOT NULL REFERENCES analyses (hand_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        choices INTEGER NOT NULL,
        sound INTEGER NOT NULL,             -- choices losing less than 10% (accuracy)
        inaccuracies INTEGER NOT NULL,
        mistakes INTEGER NOT NULL,
        blunders INTEGER NOT NULL,
        renuncios INTEGER NOT NULL,
        win_chance_lost REAL NOT NULL,
        points_lost INTEGER NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    CREATE TABLE cards (
        hand_id INTEGER NOT NULL REFERENCES analyses (hand_id) ON DELETE CASCADE,
        trick INTEGER NOT NULL,
        position INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        card TEXT NOT NULL,
        kind TEXT NOT NULL,                 -- choice | forced | renuncio | after_renuncio
        situation TEXT NOT NULL,            -- opening_lead | leading | following | ...
        symbol TEXT,                        -- ?! ? ?? (renuncio: ??)
        loss REAL,
        PRIMARY KEY (hand_id, trick, position)
    );
    CREATE TABLE bids (
        hand_id INTEGER NOT NULL REFERENCES analyses (hand_id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        call TEXT NOT NULL,
        advice TEXT NOT NULL,
        ev_call REAL NOT NULL,
        ev_advice REAL NOT NULL,
        ev_loss REAL NOT NULL,
        PRIMARY KEY (hand_id, seat)
    );
    """,
    # 3: two names of one player merged: later imports map the old name to the new
    """
    CREATE TABLE merges (
        old TEXT PRIMARY KEY,
        new TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


#: the environment variable that names another default file (the tests set it, so that
#: nothing they run writes into the user's folder)
ENVIRONMENT = "CUATROLA_HISTORY_DB"


def default_path() -> Path:
    """``history.sqlite3`` in the user's data folder (``platformdirs.user_data_dir``:
    ``~/.local/share/cuatrola`` on Linux), or the file :data:`ENVIRONMENT` names."""
    named = os.environ.get(ENVIRONMENT)
    if named:
        return Path(named)
    return Path(platformdirs.user_data_dir("cuatrola", appauthor=False)) / "history.sqlite3"


def _unreadable(path: Path, why: str) -> HistoryError:
    return HistoryError(f"the history database {quote(str(path), PATH_LIMIT)} {why}: {REBUILD}")


class Database:
    """An open history database: :attr:`conn` in autocommit mode; :meth:`write` is one
    transaction that takes the write lock at once (``BEGIN IMMEDIATE``)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction, committed at the end of the block, rolled back on an error."""
        with self.reading():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """Any SQLite error inside the block is this file's: one line, how to rebuild."""
        try:
            yield self.conn
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise HistoryError(f"the history database "
                                   f"{quote(str(self.path), PATH_LIMIT)} is busy: "
                                   f"another process has held it for "
                                   f"{BUSY_TIMEOUT_MS // 1000} s ({e})") from None
            raise _unreadable(self.path, f"cannot be read ({e})") from None
        except sqlite3.DatabaseError as e:
            if "not a database" in str(e):
                raise _unreadable(self.path, "is not a history database of cuatrola") from None
            raise _unreadable(self.path, f"is corrupt ({e})") from None

    def query(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self.reading():
            return self.conn.execute(sql, args).fetchall()

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_database(path: str | Path | None = None, *, migrations: tuple[str, ...] = MIGRATIONS
                  ) -> Database:
    """The database at ``path`` (default :func:`default_path`), made when missing and
    brought up to the latest schema (``migrations``: the steps to apply, all of them but
    in the tests).  Raises :class:`HistoryError` for a file that is not ours, is corrupt,
    or is of a newer schema."""
    path = Path(path) if path is not None else default_path()
    if path.is_dir():
        raise HistoryError(f"the history database {quote(str(path), PATH_LIMIT)} is a "
                           f"folder: give a file, e.g. --db {path / 'history.sqlite3'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None)
    except (OSError, sqlite3.Error) as e:
        raise HistoryError(f"cannot open the history database {quote(str(path), PATH_LIMIT)}: "
                           f"{getattr(e, 'strerror', None) or e}") from None
    db = Database(path, conn)
    try:
        with db.reading():
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA foreign_keys = ON")
            _migrate(db, migrations)
            conn.execute("PRAGMA journal_mode = WAL")
    except BaseException:
        conn.close()
        raise
    return db


def _version(conn: sqlite3.Connection) -> tuple[int, int, bool]:
    """``(application_id, user_version, has tables)``."""
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return app, version, tables > 0


def _migrate(db: Database, migrations: tuple[str, ...]) -> None:
    """Apply the steps the file lacks, each in its own transaction (the version read
    again under the write lock: two processes opening a new file at once apply each step
    once)."""
    conn = db.conn
    app, version, tables = _version(conn)
    _check_ours(db, app, version, tables, len(migrations))
    while version < len(migrations):
        conn.execute("BEGIN IMMEDIATE")
        try:
            app, version, tables = _version(conn)
            _check_ours(db, app, version, tables, len(migrations))
            if version < len(migrations):
                for statement in migrations[version].split(";\n"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        app, version, tables = _version(conn)


def _check_ours(db: Database, app: int, version: int, tables: bool, latest: int) -> None:
    if app == 0 and version == 0 and not tables:
        return                                  # a new, empty file: ours from now on
    if app != APPLICATION_ID:
        raise _unreadable(db.path, "is not a history database of cuatrola")
    if version > latest:
        raise HistoryError(f"the history database {quote(str(db.path), PATH_LIMIT)} has schema "
                           f"{version}, newer than this cuatrola's {latest}: upgrade "
                           f"cuatrola-solver, or {REBUILD}")
