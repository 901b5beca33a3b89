"""Lines read with a bound on their length.

Every reader of lines -- a batch of records on stdin (``solve --batch``), the lab's
files of records (``selfplay --resume``, ``calibrate``), the calls of ``bidmodel
--calls``, the entries typed at ``play`` -- reads through :func:`bounded_lines` or
:func:`read_line`, so an endless stream without a newline (``< /dev/zero``) is refused
after ``limit`` bytes instead of filling the memory.
"""

from __future__ import annotations

from typing import IO, Iterator, overload

from ..errors import CuatrolaError, RecordError

__all__ = ["MAX_LINE_BYTES", "LineTooLong", "read_line", "bounded_lines"]

#: the longest line of a JSON-lines file (a record with its lab field is a few kB)
MAX_LINE_BYTES = 1 << 20


class LineTooLong(Exception):
    """A line longer than the limit: the caller says what it expected there."""


@overload
def read_line(stream: IO[str], limit: int) -> str: ...
@overload
def read_line(stream: IO[bytes], limit: int) -> bytes: ...


def read_line(stream: IO[str] | IO[bytes], limit: int) -> bytes | str:
    """One line of ``stream`` (bytes or text, with its newline; empty at the end),
    reading at most ``limit`` characters of it; :class:`LineTooLong` when the line goes
    on past them."""
    line: bytes | str = stream.readline(limit + 1)
    ended = line.endswith(b"\n") if isinstance(line, bytes) else line.endswith("\n")
    if len(line) > limit and not ended:
        raise LineTooLong()
    return line


def bounded_lines(stream: IO[str] | IO[bytes], name: str, limit: int = MAX_LINE_BYTES,
                  error: type[CuatrolaError] = RecordError,
                  what: str = "a record") -> Iterator[tuple[int, bytes | str]]:
    """``(line number, line)`` of every line of ``stream``, each with its newline (the
    last may have none); a line longer than ``limit`` raises ``error`` naming ``name``
    and the line, a read error too."""
    n = 0
    while True:
        try:
            line = read_line(stream, limit)
        except LineTooLong:
            raise error(f"{name}, line {n + 1}: longer than {limit:,} bytes, so not "
                        f"{what} (is it the right file?)") from None
        except OSError as e:
            raise error(f"cannot read {name}: {e.strerror or e}") from None
        if not line:
            return
        n += 1
        yield n, line
