"""Double-dummy tables of a stream of records (``cuatrola solve --batch``).

:func:`solve_lines` reads JSON lines (record objects: ``rules``, ``muestra``, ``hands``)
one at a time and yields, in input order, each line's table as the object of
``solve --json`` or the error that makes the line bad.  It holds a bounded number of
lines at a time (memory flat in the input size) and yields each chunk of lines as
soon as it is solved:

- the calling thread parses lines and shapes results (Python, under the GIL);
- ``workers`` threads solve chunks of deals (:func:`solver.dd_tables`, the GIL
  released), several chunks in flight, results handed back in input order.

Results do not depend on ``workers`` or the chunk size.
"""

from __future__ import annotations

import functools
import json
import queue
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence, Union

import numpy as np

from . import solver
from ..game.cards import SUIT_LETTERS
from ..errors import CuatrolaError
from ..game.hand import check_deal
from ..game.jsonvalue import JSONObject
from ..notation.record import record_from_obj
from ..game.rules import RuleSet, rules_spec

#: lines per chunk: the unit of work of a thread and of output
CHUNK_LINES = 64
#: what the reading thread hands on: a numbered line, the end of the input (an object of
#: its own), or the exception that ended it
_Read = Union[tuple[int, Union[bytes, str]], object]


@dataclass(frozen=True)
class LineResult:
    """One non-blank input line: its number (from 1) and either its table (the object
    of ``solve --json``, schema included) or the one-line message of its error, which
    names the input and the line."""

    line: int
    report: JSONObject | None = None
    error: str | None = None


@dataclass(frozen=True)
class _Job:
    line: int
    hands: tuple[int, ...]  # one per seat
    trump: int
    rules: RuleSet


@dataclass(frozen=True)
class SolveTable:
    """The double-dummy table of one deal (``cuatrola solve``): its rules, the trump
    suit, and the ``(rows, 4)`` figures of :func:`solver.dd_tables`, read as typed rows
    (:attr:`rows`) or written as the ``solve --json`` object (:meth:`to_dict`)."""

    rules: RuleSet
    trump: int
    table: solver.Values

    @property
    def rows(self) -> tuple[solver.TableRow, ...]:
        """Every contract and declarer, in table order."""
        return solver.table_entries(self.table, self.rules)

    def to_dict(self) -> JSONObject:
        """The ``solve --json`` object (docs/json.md; without ``schema``)."""
        return {"rules": _spec(self.rules), "trump": SUIT_LETTERS[self.trump],
                "results": solver.table_rows(self.table, self.rules)}


def solve_table(hands: Sequence[Iterable[int] | None], muestra: int,
                rules: RuleSet) -> SolveTable:
    """The double-dummy table of one deal, after checking it."""
    masks = check_deal(hands, muestra)
    trump = muestra // 5
    tables = solver.dd_tables(np.array([masks], dtype=np.int64),
                              np.array([trump], dtype=np.int64), rules, workers=1)
    return SolveTable(rules, trump, tables[0])


#: the record form of a rule set (``rules_spec`` takes some 150 us: once per rule set)
_spec = functools.lru_cache(maxsize=64)(rules_spec)


def _json_problem(e: Exception) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"not valid JSON ({e.msg}, column {e.colno})"
    if isinstance(e, RecursionError):
        return "not valid JSON here (nested too deeply)"
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 text (byte {e.object[e.start]:#04x} at column {e.start + 1})"
    # e.g. an integer of more digits than Python converts
    return f"not valid JSON here ({str(e).split(':')[0]})"


def parse_line(raw: bytes | str, line: int, where: str, default_rules: RuleSet) -> _Job:
    """The deal of line number ``line``; raises CuatrolaError naming ``where`` (the
    input and the line)."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise CuatrolaError(f"{where}: {_json_problem(e)}") from None
    if isinstance(obj, dict) and "rules" not in obj:
        obj = {**obj, "rules": _spec(default_rules)}
    try:
        rec = record_from_obj(obj, where)
        masks = check_deal(rec.hands, rec.muestra)
        if solver.BACKEND == "compiled":
            solver.table_plan(rec.rules)        # rules the search cannot take: this line
    except CuatrolaError as e:
        raise CuatrolaError(_placed(str(e), where)) from None
    except RecursionError:
        raise CuatrolaError(f"{where}: the record is nested too deeply") from None
    return _Job(line, masks, rec.muestra // 5, rec.rules)


def _placed(message: str, where: str) -> str:
    """The message with the input and line in front, unless it already names them
    (a file's name alone in the text is not enough: the line would be lost)."""
    return message if where in message else f"{where}: {message}"


def _solve_chunk(jobs: list[_Job]) -> dict[int, solver.Values]:
    """The tables of a chunk's deals, one engine call per rule set, on this thread."""
    by_rules: dict[RuleSet, list[_Job]] = {}
    for job in jobs:
        by_rules.setdefault(job.rules, []).append(job)
    tables: dict[int, solver.Values] = {}
    for rules, group in by_rules.items():
        hands = np.array([j.hands for j in group], dtype=np.int64)
        trumps = np.array([j.trump for j in group], dtype=np.int64)
        for job, table in zip(group, solver.dd_tables(hands, trumps, rules, workers=1)):
            tables[job.line] = table
    return tables


def solve_lines(lines: Iterable[bytes | str], name: str, default_rules: RuleSet,
                workers: int = 1, chunk: int = CHUNK_LINES,
                gap: float = 0.02) -> Iterator[list[LineResult]]:
    """The tables of the JSON lines ``lines`` (a trailing newline is fine), a list of
    results per chunk of lines, in input order; blank lines give none.  ``name`` names
    the input in messages (``name, line N: ...``); a line without ``rules`` uses
    ``default_rules``.  A bad line is one result with its error, and the stream goes
    on: the caller decides whether to stop.

    A thread reads ``lines`` a bounded number ahead.  A chunk is ``chunk`` lines, or
    fewer when the input pauses for ``gap`` seconds (a slow producer still sees each
    line's table soon after writing it).  An exception raised by ``lines`` is raised
    here after the tables of the lines before it."""
    pool = ThreadPoolExecutor(workers, "cuatrola-table") if workers > 1 else None
    pending: deque[tuple[list[_Job | LineResult], Future[dict[int, solver.Values]]]] = deque()
    inbox: queue.Queue[_Read] = queue.Queue(maxsize=2 * chunk)
    stop = threading.Event()
    end = object()

    def read() -> None:
        def put(item: _Read) -> bool:
            while not stop.is_set():
                try:
                    inbox.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    pass
            return False

        try:
            for n, raw in enumerate(lines, 1):
                if n == 1:          # a byte order mark
                    raw = (raw.removeprefix(b"\xef\xbb\xbf") if isinstance(raw, bytes)
                           else raw.removeprefix("\ufeff"))
                if raw.strip() and not put((n, raw)):
                    return
            put(end)
        except BaseException as e:          # raised in the consuming thread
            put(e)

    def parsed(batch: list[tuple[int, bytes | str]]) -> list[_Job | LineResult]:
        items: list[_Job | LineResult] = []
        for n, raw in batch:
            try:
                items.append(parse_line(raw, n, f"{name}, line {n}", default_rules))
            except CuatrolaError as e:
                items.append(LineResult(n, error=str(e)))
        return items

    def shaped(items: list[_Job | LineResult],
               tables: dict[int, solver.Values]) -> list[LineResult]:
        out = []
        for job in items:
            if isinstance(job, LineResult):
                out.append(job)
                continue
            table = SolveTable(job.rules, job.trump, tables[job.line])
            out.append(LineResult(job.line, report={"schema": 1, **table.to_dict()}))
        return out

    reader = threading.Thread(target=read, name="cuatrola-read", daemon=True)
    reader.start()
    last = None                 # the end of the input, or the exception that ended it
    try:
        while last is None or pending:
            batch: list[tuple[int, bytes | str]] = []
            while last is None and len(batch) < chunk:
                try:
                    item = inbox.get(timeout=gap if batch or pending else None)
                except queue.Empty:
                    break
                if isinstance(item, tuple):
                    batch.append(item)
                else:
                    last = item
            if batch:
                items = parsed(batch)
                jobs = [j for j in items if isinstance(j, _Job)]
                if pool is None:
                    yield shaped(items, _solve_chunk(jobs))
                else:
                    pending.append((items, pool.submit(_solve_chunk, jobs)))
            # hand back every chunk that is done; wait for the oldest when two chunks a
            # thread are in flight, or at the end of the input
            while pending and (pending[0][1].done() or len(pending) > 2 * workers
                               or last is not None):
                items, future = pending.popleft()
                yield shaped(items, future.result())
        if isinstance(last, BaseException):
            raise last
    finally:
        stop.set()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
