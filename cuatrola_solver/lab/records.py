"""Reading the lab's files back: one reader for every command that reads them.

``selfplay --resume`` (a run's own file), ``calibrate`` (any self-play records) and
``bidmodel --calls`` (the advisor's calls) read JSON lines through :func:`json_lines`:
lines of bounded length (:mod:`~cuatrola_solver.notation.lines`), blank lines skipped,
each a JSON object, every error naming the file and the line.

A record (:func:`read_lab_records`) is then checked as ``cuatrola check`` checks it:
read by :func:`~cuatrola_solver.notation.record.record_from_obj`, replayed by
:func:`~cuatrola_solver.notation.replay.replay_deal` (the whole deal, every call, card
and cante), finished.  Its ``lab`` field (docs/record-format.md, 'Extension fields') is
type-checked field by field, the field's path in the message (``run.jsonl, line 3,
lab.bids[1].seat: expected a seat, 1 to 4, got 'x'``), and held against the hand
replayed: the recorded result is the hand's, the recorded calls are its auction, the
line-up of each side and the rules are the run's.  What the record says of its run
(its board, its play, its deal from the run's seed) is checked by the reader of the
run, :func:`cuatrola_solver.lab.selfplay.resume_point`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import IO, Any, Iterable, Iterator

from ..errors import CuatrolaError, LabError, RecordError, quote
from ..game.auction import CALLS
from ..game.hand import Result
from ..game.jsonvalue import ParsedJSON
from ..game.rules import get_rules
from ..i18n import N_, _, later
from ..notation.lines import bounded_lines
from ..notation.record import HandRecord, record_from_obj
from ..notation.replay import replay_deal

__all__ = ["LabRecord", "json_lines", "read_lab_records", "check_lab", "Fields", "shown"]


@dataclass(frozen=True)
class LabRecord:
    """One record of a lab file, checked: its JSON object, the record, the result of the
    hand replayed, the checked ``lab`` field (None for a record without one), its line
    and the byte offset after it."""

    line: int
    obj: ParsedJSON
    record: HandRecord
    result: Result
    lab: ParsedJSON | None
    end: int

    @property
    def lab_field(self) -> ParsedJSON:
        """:attr:`lab` of a record read with ``require_lab`` (the default), which has it."""
        assert self.lab is not None, "a record read with require_lab has its lab field"
        return self.lab

    @property
    def winner(self) -> str:
        """The side that won the hand: "A" or "B"."""
        return str(self.result.winner)


#: the kinds of file the lab reads (:func:`json_lines`'s ``what``), translated where shown
FILE_KINDS = (N_("records file"), N_("calls file"), N_("hands file"))


def _open(path: str, what: str) -> IO[bytes]:
    """The file ``path`` opened; a :class:`LabError` naming ``what`` (one of
    :data:`FILE_KINDS`, in the current language) and the file when it cannot be."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise LabError(_("{what} {path} not found").format(what=_(what),
                                                           path=quote(str(path)))) from None
    except IsADirectoryError:
        raise LabError(_("cannot read {what} {path}: it is a directory").format(
            what=_(what), path=quote(str(path)))) from None
    except (OSError, ValueError) as e:      # no permission, EIO, a NUL in the name
        raise LabError(_("cannot read {what} {path}: {reason}").format(
            what=_(what), path=quote(str(path)),
            reason=getattr(e, 'strerror', None) or e)) from None


def json_lines(path: str, lines: Iterable[bytes | str] | None = None,
               what: str = FILE_KINDS[0], complete_only: bool = False,
               kind: str = "record", error: type[CuatrolaError] = RecordError
               ) -> Iterator[tuple[int, ParsedJSON, int]]:
    """``(line number, object, byte offset after the line)`` of every JSON object line
    of the file ``path`` (or of ``lines``, named ``path`` in the messages); blank lines
    are skipped; with ``complete_only`` a last line without its newline (cut by an
    interruption) is left out.  A line that is not a JSON object (a ``kind``) raises
    ``error``; a line longer than one can be, or a file that cannot be read,
    :class:`LabError` naming ``what`` and the file."""
    if lines is None:
        with _open(path, what) as f:
            yield from json_lines(path, (line for _, line in bounded_lines(
                f, str(path), error=LabError, what=f"a line of a {what}")), what,
                complete_only, kind, error)
        return
    offset = 0
    for n, raw in enumerate(lines, 1):
        if complete_only and not (raw.endswith(b"\n") if isinstance(raw, bytes)
                                  else raw.endswith("\n")):
            return
        offset += len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
        if not raw.strip():
            continue
        where = _("{where}, line {n}").format(where=path, n=n)
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError) as e:
            raise error(f"{where}: not a JSON {kind} ({e})") from None
        if not isinstance(obj, dict):
            raise error(f"{where}: expected a {kind} (a JSON object), got {shown(obj)}")
        yield n, obj, offset


def read_lab_records(path: str, lines: Iterable[bytes | str] | None = None, *,
                     require_lab: bool = True, complete_only: bool = False
                     ) -> Iterator[LabRecord]:
    """The records of the lab file ``path`` (or of ``lines``, named ``path``), each
    checked (see the module's docstring): a record that ``check`` would refuse or whose
    hand is not finished raises :class:`RecordError`, a ``lab`` field of the wrong shape
    or that is not the hand's :class:`LabError`, naming the file, the line and the
    field.  ``require_lab``: a record without a ``lab`` field is refused (else it is
    read with ``lab`` None)."""
    for line, obj, end in json_lines(path, lines, complete_only=complete_only):
        where = _("{where}, line {n}").format(where=path, n=line)
        rec = record_from_obj(obj, where)
        if not rec.complete:
            raise RecordError(_("{where}: the record does not give every hand, so its result "
                                "is not known").format(where=where))
        result = replay_deal(rec).result()
        if result is None:
            raise RecordError(_("{where}: the hand is not finished: it has no result").format(
                where=where))
        lab = None
        if "lab" in obj:
            lab = check_lab(obj["lab"], where)
            _agrees(lab, rec, result, where)
        elif require_lab:
            raise LabError(_("{where}: not a record of the self-play lab (no 'lab' "
                             "field)").format(where=where))
        yield LabRecord(line, obj, rec, result, lab, end)


# --- the fields ----------------------------------------------------------------------

def shown(value: Any) -> str:
    """A JSON value as the file has it, for a message: a text quoted (and cut, as
    :func:`~cuatrola_solver.errors.quote` cuts it), anything else in JSON (``null``,
    ``true``, ``[1]``), cut after 80 characters."""
    if isinstance(value, str):
        return quote(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 80 else text[:80] + f"… ({len(text):,} characters)"


class Fields:
    """Type checks of the fields of one JSON line, each error naming the line and the
    field's path: ``Fields("run.jsonl, line 3").seat(v, "lab.bids[0].seat")``."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, path: str, expected: str, value: Any = None, got: bool = True) -> LabError:
        """The error of the field ``path``: ``expected`` is a message (``N_`` or
        :func:`~cuatrola_solver.i18n.later`), written in the current language."""
        if got:
            return LabError(_("{where}, {path}: expected {expected}, got {value}").format(
                where=self.where, path=path, expected=_(expected), value=shown(value)))
        return LabError(_("{where}, {path}: expected {expected}").format(
            where=self.where, path=path, expected=_(expected)))

    def obj(self, value: Any, path: str, required: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> ParsedJSON:
        if not isinstance(value, dict):
            raise self.fail(path, later("an object with {fields}", fields=", ".join(required)),
                            value)
        missing = ", ".join(k for k in required if k not in value)
        if missing:
            raise self.fail(path, (later("the fields {fields}", fields=missing) if "," in missing
                                   else later("the field {fields}", fields=missing)), got=False)
        unknown = [k for k in value if k not in required and k not in optional]
        if unknown:
            raise LabError(_("{where}, {path}: unknown field {field} (expected {fields})").format(
                where=self.where, path=path, field=quote(unknown[0]),
                fields=', '.join(required + optional)))
        return value

    def items(self, value: Any, path: str, what: str) -> list[Any]:
        """``value``, a list of ``what`` (a message)."""
        if not isinstance(value, list):
            raise self.fail(path, later("a list of {what}", what=later(what)), value)
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int | None = None,
            what: str | None = None) -> int:
        if (not isinstance(value, int) or isinstance(value, bool) or value < lo
                or (hi is not None and value > hi)):
            raise self.fail(path, what or (later("a whole number, {lo} to {hi}", lo=lo, hi=hi)
                                           if hi is not None else
                                           later("a whole number, {lo} or more", lo=lo)), value)
        return value

    def number(self, value: Any, path: str, lo: float | None = None,
               hi: float | None = None) -> float:
        if (not isinstance(value, (int, float)) or isinstance(value, bool)
                or not math.isfinite(value) or (lo is not None and value < lo)
                or (hi is not None and value > hi)):
            raise self.fail(path, later("a number, {lo} to {hi}", lo=lo, hi=hi)
                            if lo is not None and hi is not None else N_("a number"), value)
        return value

    def text(self, value: Any, path: str, choices: tuple[str, ...] | None = None,
            what: str = N_("a text")) -> str:
        if not isinstance(value, str) or (choices is not None and value not in choices):
            raise self.fail(path, what if choices is None else
                            later("one of {choices}", choices=", ".join(choices)), value)
        return value

    def seat(self, value: Any, path: str) -> int:
        return self.integer(value, path, 1, 4, N_("a seat, 1 to 4"))

    def side(self, value: Any, path: str) -> str:
        return self.text(value, path, ("A", "B"))

    def call(self, value: Any, path: str) -> str:
        return self.text(value, path, CALLS)


CONFIG_FIELDS = ("a", "b", "rules", "seed", "mode", "odds_samples", "auctions")
LAB_FIELDS = ("config", "deal", "play", "lineup", "seed", "bids", "result")
OPTION_FIELDS = ("bid", "contract", "declarer", "side", "p_win", "ev")


def check_lab(lab: Any, where: str) -> ParsedJSON:
    """The ``lab`` field of a record, every field type-checked (its path in the
    message); returns it."""
    f = Fields(where)
    checked = f.obj(lab, "lab", LAB_FIELDS, ("hand", "last"))
    config = f.obj(lab["config"], "lab.config", CONFIG_FIELDS)
    for k in ("a", "b"):
        f.text(config[k], f"lab.config.{k}", what=N_("a player spec"))
    if not isinstance(config["rules"], (str, dict)):
        raise f.fail("lab.config.rules", N_("a preset, or an object of overrides"),
                     config["rules"])
    try:
        get_rules(config["rules"])
    except CuatrolaError as e:
        raise LabError(_("{where}, lab.config.rules: {reason}").format(where=where,
                                                                       reason=e)) from None
    f.integer(config["seed"], "lab.config.seed", 0)
    f.text(config["mode"], "lab.config.mode", ("hands", "matches"))
    f.integer(config["odds_samples"], "lab.config.odds_samples", 0)
    for i, a in enumerate(f.items(config["auctions"], "lab.config.auctions", N_("auctions"))):
        f.text(a, f"lab.config.auctions[{i}]", what=N_("four calls, as 'paso solo paso paso'"))
    f.integer(lab["deal"], "lab.deal", 0)
    f.integer(lab["play"], "lab.play", 0, 1, N_("play 0 or 1"))
    lineup = f.obj(lab["lineup"], "lab.lineup", ("A", "B"))
    for side in ("A", "B"):
        f.text(lineup[side], f"lab.lineup.{side}", what=N_("a player spec"))
    f.integer(lab["seed"], "lab.seed", 0)
    if "hand" in lab:
        f.integer(lab["hand"], "lab.hand", 0)
    if "last" in lab and lab["last"] is not True:
        raise f.fail("lab.last", N_("true (the last hand of a match) or no field"), lab["last"])
    for i, b in enumerate(f.items(lab["bids"], "lab.bids", N_("bid decisions"))):
        path = f"lab.bids[{i}]"
        f.obj(b, path, ("seat", "call", "odds"))
        f.seat(b["seat"], f"{path}.seat")
        f.call(b["call"], f"{path}.call")
        if b["odds"] is not None:
            _check_odds(f, b["odds"], f"{path}.odds")
    result = f.obj(lab["result"], "lab.result", ("winner", "game_points"))
    f.side(result["winner"], "lab.result.winner")
    f.integer(result["game_points"], "lab.result.game_points", 1)
    return checked


def _check_odds(f: Fields, odds: Any, path: str) -> None:
    f.obj(odds, path, ("by", "samples", "advice", "options"))
    f.text(odds["by"], f"{path}.by", ("bidder", "advisor"))
    f.integer(odds["samples"], f"{path}.samples", 0)
    f.call(odds["advice"], f"{path}.advice")
    for j, o in enumerate(f.items(odds["options"], f"{path}.options", N_("options"))):
        p = f"{path}.options[{j}]"
        f.obj(o, p, OPTION_FIELDS, ("p_match",))
        f.call(o["bid"], f"{p}.bid")
        f.call(o["contract"], f"{p}.contract")
        d, contract = o["declarer"], o["contract"]
        if contract == "contrasolo":        # the solo bidder and the contrasolo bidder
            if not isinstance(d, list) or len(d) != 2:
                raise f.fail(f"{p}.declarer", N_("the two seats of a contrasolo"), d)
            for k, s in enumerate(d):
                f.seat(s, f"{p}.declarer[{k}]")
        elif contract == "paso":
            if d is not None:
                raise f.fail(f"{p}.declarer", N_("null (no declarer in paso)"), d)
        else:
            f.seat(d, f"{p}.declarer")
        f.side(o["side"], f"{p}.side")
        f.number(o["p_win"], f"{p}.p_win", 0, 1)
        f.number(o["ev"], f"{p}.ev")
        if "p_match" in o:
            f.number(o["p_match"], f"{p}.p_match", 0, 1)
    bids = [o["bid"] for o in odds["options"]]
    if odds["advice"] not in bids:
        raise LabError(_("{where}, {path}.advice: {advice} is not one of the options "
                         "({options})").format(where=f.where, path=path,
                                               advice=quote(odds['advice']),
                                               options=', '.join(bids) or _("none")))


def _agrees(lab: ParsedJSON, rec: HandRecord, result: Result, where: str) -> None:
    """The ``lab`` field against the hand replayed: the same result, the same calls,
    the run's rules, the line-ups where the run seats them."""
    recorded = lab["result"]
    if (recorded["winner"], recorded["game_points"]) != (str(result.winner),
                                                          result.game_points):
        raise LabError(_("{where}, lab.result: side {side} scores {points} here, but the hand "
                         "replayed is won by side {winner} for {won}: the result is not the "
                         "hand's").format(where=where, side=recorded['winner'],
                                          points=recorded['game_points'], winner=result.winner,
                                          won=result.game_points))
    calls = rec.auction if rec.auction is not None else ["paso"] * 4
    bids = lab["bids"]
    if len(bids) != 4:
        raise LabError(_("{where}, lab.bids: {n} bid decisions: expected 4, one per "
                         "seat").format(where=where, n=len(bids)))
    for i, (b, call) in enumerate(zip(bids, calls)):
        if b["seat"] != i + 1 or b["call"] != call:
            raise LabError(_("{where}, lab.bids[{i}]: seat {seat} calls {call} here, but call "
                             "{n} of the auction is seat {n}'s {auction}").format(
                where=where, i=i, seat=b['seat'], call=quote(b['call']), n=i + 1,
                auction=quote(call)))
    config = lab["config"]
    if get_rules(config["rules"]) != rec.rules:
        raise LabError(_("{where}, lab.config.rules: the run's rules are not the "
                         "record's").format(where=where))
    matches = config["mode"] == "matches"
    if matches != ("hand" in lab) or (not matches and "last" in lab):
        raise LabError((_("{where}, lab: a record of a run of {mode} numbers its hand "
                          "(lab.hand)") if matches
                        else _("{where}, lab: a record of a run of {mode} has no lab.hand nor "
                               "lab.last")).format(where=where, mode=config['mode']))
    if lab["play"] == 1 and config["a"] == config["b"]:
        raise LabError(_("{where}, lab.play: 1, but a run with the same line-up on both sides "
                         "plays each board once (play 0)").format(where=where))
    a_side = "A" if (lab["play"] + lab.get("hand", 0)) % 2 == 0 else "B"
    wanted = ({"A": config["a"], "B": config["b"]} if a_side == "A"
              else {"A": config["b"], "B": config["a"]})
    if lab["lineup"] != wanted:
        raise LabError(_("{where}, lab.lineup: {lineup} here, but in this play the run seats "
                         "{wanted}").format(where=where, lineup=shown(lab['lineup']),
                                            wanted=shown(wanted)))
    if config["auctions"]:
        forced = config["auctions"][lab["deal"] % len(config["auctions"])].split()
        if forced != list(calls):
            raise LabError(_("{where}: the auction {auction} is not the one the run forces on "
                             "board {board} ({forced})").format(
                where=where, auction=repr(' '.join(calls)), board=lab['deal'],
                forced=repr(' '.join(forced))))
