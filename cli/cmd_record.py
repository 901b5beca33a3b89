"""``cuatrola record``: take down a hand as it is played at a real table, one entry a line.

The entries are read as plain lines on stdin, so a pipe can drive it: the muestra, the
calls in speaking order, then the cards in playing order (several on one line are read
one by one), ``cante SEAT SUIT`` between tricks, ``undo`` to take back the last entry,
``?`` for what may be typed now, ``end`` (or the end of input) to finish.  The
conversation -- prompts on a terminal, a refused entry's one-line message, the warning
of a renuncio (accepted and kept: a real table plays on) -- goes to stderr; the record
goes to ``-o FILE`` (written atomically) or to stdout, followed by ``check``'s verdict.
Ctrl-C writes the record so far too.  The library behind it is
:mod:`cuatrola_solver.notation.hand_entry`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.i18n import _
from cuatrola_solver.notation.atomic import write_atomically
from cuatrola_solver.notation.hand_entry import (HandEntry, describe_entry, parse_hands,
                                                 parse_players)
from cuatrola_solver.notation.lines import LineTooLong, read_line
from cuatrola_solver.notation.record import read_text, write_text
from cuatrola_solver.notation.replay import replay

from .cmd_check import check_lines
from .common import RulesOption, check_writable, fail, load_rules, user_errors
from .render import colour_cards

#: the longest line read (a person types a few words a line)
MAX_ENTRY = 1000
#: the words that are not entries
WORDS = ("undo", "end", "?")


def _say(text: str) -> None:
    typer.echo(text, err=True)


def _prompt(entry: HandEntry) -> str:
    a = entry.allowed()
    if a.stage == "muestra":
        return _("muestra> ")
    if a.stage == "call":
        return _("call, seat {seat}> ").format(seat=a.seat)
    if a.stage == "card":
        return _("trick {trick}, seat {seat}> ").format(trick=entry.hand.trick_number,
                                                         seat=a.seat)
    return _("over ('end' writes the record)> ")


def take_down(entry: HandEntry, stream, interactive: bool) -> None:
    """Read entries from ``stream`` into ``entry`` until ``end`` or the end of input."""
    while True:
        if interactive:
            typer.echo(_prompt(entry), nl=False, err=True)
        try:
            line = read_line(stream, MAX_ENTRY)
        except LineTooLong:
            _say(_("error: a line of more than {n} characters: expected a few entries a "
                   "line").format(n=MAX_ENTRY))
            stream.readline()           # the rest of that line
            continue
        if not line:
            return
        words = line.split()
        i = 0
        while i < len(words):
            word = words[i].lower()
            size = 3 if word == "cante" else 1
            text = " ".join(words[i:i + size])
            i += size
            if word == "end":
                return
            if word == "?":
                for x in entry.describe_allowed():
                    _say(x)
                continue
            try:
                if word == "undo":
                    _say(_("undone: {entry}").format(entry=describe_entry(entry.undo())))
                    continue
                marks = entry.enter_text(text)
            except CuatrolaError as e:
                _say(f"error: {e}")
                break               # the rest of the line is not taken either
            for m in marks:
                _say(_("warning: {what}").format(what=m.describe()))


def finish(entry: HandEntry, out: Path | None) -> None:
    """Write the record (to ``out``, atomically, else to stdout) and check's verdict."""
    if entry.muestra is None:
        fail(_("nothing to write: no muestra was entered"))
    text = write_text(entry.record())
    if out is None:
        typer.echo(text)
    else:
        try:
            write_atomically(out, text)
        except OSError as e:
            fail(f"cannot write {str(out)!r}: {e.strerror or e}")
        _say(_("record written to {path}").format(path=out))
    try:
        rec = read_text(text, str(out or "record"))
        lines = check_lines(rec, replay(rec))
    except CuatrolaError as e:
        lines = [_("check: {why}").format(why=e)]
    typer.echo(colour_cards("\n".join(lines)))


def register(app: typer.Typer) -> None:
    @app.command("record")
    @user_errors
    def record_command(
        rules: str = RulesOption,
        hand: Optional[list[str]] = typer.Option(
            None, "--hand", metavar="SEAT=CARDS",
            help="A hand you know, e.g. '2=Co Ro Sb Rb 3b' (your own, another you saw); "
                 "give it once per seat, or not at all."),
        players: Optional[str] = typer.Option(
            None, "--players", metavar="NAMES",
            help="The players' names, seat 1 (the mano) first, the dealer last: "
                 "'Ana,Luis,Eva,Marta' (an empty name for a seat without one)."),
        out: Optional[Path] = typer.Option(
            None, "--out", "-o", metavar="FILE",
            help="Write the record to FILE (atomically) instead of stdout."),
    ) -> None:
        """Take down a hand as it is played: the muestra, the calls, the cards, typed as lines.

        One entry a line, in the order of the table (several cards on one line are read
        too): the muestra; the calls in speaking order from seat 1; the cards in playing
        order, trick by trick; 'cante SEAT SUIT' between tricks. 'undo' takes back the
        last entry, '?' shows what may be typed now, 'end' or the end of input finishes.
        A renuncio is kept, with a warning naming the obligation broken. The record is
        written (the record so far on Ctrl-C), then check's verdict."""
        if out is not None:
            check_writable(out)
        entry = HandEntry(load_rules(rules), parse_hands(hand or ()),
                          None if players is None else parse_players(players))
        try:
            take_down(entry, sys.stdin, sys.stdin.isatty())
        except KeyboardInterrupt:
            _say("")
            finish(entry, out)
            raise typer.Exit(130) from None
        finish(entry, out)
