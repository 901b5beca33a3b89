"""The records folder of ``cuatrola serve --records DIR``: every hand played at the
table is written there as it ends, atomically (a temporary file, then ``os.replace``),
so a server stopped at any moment leaves whole records only (the hand in progress is
kept by :mod:`.store`).  Records are read back by their name alone: a name that is not a plain
file name of the folder (no ``/``, no ``..``) is refused before the disk is touched."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Callable

from ..errors import RecordError, quote
from ..notation.record import HandRecord, read_record, write_text

__all__ = ["RecordsFolder", "read_text_record", "MAX_RECORD_BYTES", "MAX_LISTED"]

#: the largest record read (a record is a few hundred bytes)
MAX_RECORD_BYTES = 64 << 10
#: the most records listed, newest first
MAX_LISTED = 200
#: a record's name: a plain file name of the folder
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}\.(txt|json)")


class RecordsFolder:
    """The folder ``path`` (made when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        self.made = not self.path.exists()
        if self.path.exists() and not self.path.is_dir():
            raise RecordError(f"cannot keep records in {quote(str(path))}: it is a file, "
                              f"not a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise RecordError(f"cannot make the records folder {quote(str(path))}: "
                              f"{e.strerror or e}") from None

    #: called with each record saved, its path and the seat of the person at the table
    #: (``cuatrola serve`` feeds the history with it); None: nothing is called
    on_save: Callable[[HandRecord, Path, int | None], None] | None = None

    def save(self, rec: HandRecord, name: str, seat: int | None = None) -> str:
        """Write ``rec`` in the text form as ``name``, atomically, then tell
        :attr:`on_save` (``seat``: the person's at the table); returns the name.  A
        record of that name with the same text already there is left as it is (a game
        rebuilt after a restart plays its last hand again)."""
        self._check(name)
        text = write_text(rec)
        try:
            if (self.path / name).read_text(encoding="utf-8") == text:
                return name
        except (OSError, UnicodeDecodeError):
            pass
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".txt", dir=self.path)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        if self.on_save is not None:
            self.on_save(rec, self.path / name, seat)
        return name

    def names(self) -> list[str]:
        """The records' names, newest first (at most :data:`MAX_LISTED`)."""
        found = []
        for entry in os.scandir(self.path):
            if NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                found.append((entry.stat().st_mtime, entry.name))
        return [n for _, n in sorted(found, reverse=True)[:MAX_LISTED]]

    def read(self, name: object) -> HandRecord:
        """The record of that name (RecordError when there is none or it is bad)."""
        name = self._check(name)
        if name not in self.names():
            raise RecordError(f"no record {quote(name)} in the records folder")
        with open(self.path / name, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
        return read_text_record(data, name)

    @staticmethod
    def _check(name: object) -> str:
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise RecordError(f"bad record name {quote(name)}: expected a file name of the "
                              f"records folder, as the list shows them")
        return name


def read_text_record(data: bytes, name: str) -> HandRecord:
    """A record sent or read as bytes: at most :data:`MAX_RECORD_BYTES`, UTF-8, either
    form."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"record {quote(name)} is too big: more than "
                          f"{MAX_RECORD_BYTES >> 10} KB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{name}: not UTF-8 text: byte 0x{data[e.start]:02x} at offset "
                          f"{e.start} cannot be read (save the file as UTF-8)") from None
    if not text.lstrip("\ufeff").strip():
        raise RecordError(f"empty input: record {quote(name)} holds nothing")
    return read_record(text, name)
