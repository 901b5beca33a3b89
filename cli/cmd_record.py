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
from typing import IO, Optional

import typer

from cuatrola_solver.analysis.check import check
from cuatrola_solver.analysis.match_summary import summarize_match
from cuatrola_solver.errors import CuatrolaError, quote
from cuatrola_solver.i18n import N_, _, ngettext
from cuatrola_solver.notation.atomic import write_atomically
from cuatrola_solver.notation.hand_entry import (HandEntry, describe_entry, parse_hands,
                                                 parse_players)
from cuatrola_solver.notation.lines import LineTooLong, read_line
from cuatrola_solver.notation.match_sheet import MatchSheet
from cuatrola_solver.notation.record import format_rules, read_text, write_text

from .cmd_check import check_lines
from .common import check_writable, fail, load_rules, user_errors
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
    assert a.seat is not None or a.stage == "over", "a seat speaks or plays"
    name = entry.players[a.seat - 1] if a.seat is not None else None
    who = _("seat {seat}").format(seat=a.seat) + (f" ({name})" if name else "")
    if a.stage == "call":
        return _("call, {who}> ").format(who=who)
    if a.stage == "card":
        return _("trick {trick}, {who}> ").format(trick=entry.hand.trick_number, who=who)
    return _("over ('end' writes the record)> ")


def _skip_line(stream: IO[str]) -> None:
    """Read on to the end of a line too long, a bounded piece at a time."""
    while True:
        piece = stream.readline(MAX_ENTRY)
        if not piece or piece.endswith("\n"):
            return


def take_down(entry: HandEntry, stream: IO[str], interactive: bool) -> None:
    """Read entries from ``stream`` into ``entry`` until ``end`` or the end of input."""
    while True:
        if interactive:
            typer.echo(_prompt(entry), nl=False, err=True)
        try:
            line = read_line(stream, MAX_ENTRY)
        except LineTooLong:
            _say(_("error: a line of more than {n} characters: expected a few entries a "
                   "line").format(n=MAX_ENTRY))
            _skip_line(stream)
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
            if interactive and word != "cante":
                _said_trick(entry)


def _said_trick(entry: HandEntry) -> None:
    """On a terminal, after the last card of a trick: who took it."""
    hand = entry.hand
    if not hand.auction.is_complete or hand.current or not hand.tricks:
        return
    breakdown = hand.points_breakdown()
    seat = breakdown.trick_winners[-1]
    name = entry.players[seat - 1]
    _say(_("trick {t}: seat {seat}{name} takes it").format(
        t=len(hand.tricks), seat=seat, name=f" ({name})" if name else ""))


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
        lines = check_lines(check(rec))
    except CuatrolaError as e:
        lines = [_("check: {why}").format(why=e)]
    typer.echo(colour_cards("\n".join(lines)))


def open_sheet(path: Path, rules: str | None, players: str | None) -> MatchSheet:
    """The match sheet at ``path``, or a new one of ``rules`` and ``players`` when there
    is none; refused when the match is over or the options contradict the sheet."""
    if not path.exists():
        check_writable(path)
        return MatchSheet(load_rules(rules or "online"),
                          None if players is None else parse_players(players))
    try:
        sheet = MatchSheet.load(path)
    except OSError as e:
        fail(f"cannot read the match sheet {str(path)!r}: {e.strerror or e}")
    check_writable(path)
    if rules is not None and load_rules(rules) != sheet.rules:
        fail(_("--rules {rules}: the match sheet {path} is played under {sheet}").format(
            rules=quote(rules), path=quote(str(path)), sheet=format_rules(sheet.rules)))
    if players is not None and parse_players(players) != sheet.players:
        fail(_("--players {names}: the match sheet {path} has its players (their seats in "
               "its first hand)").format(names=quote(players), path=quote(str(path))))
    if sheet.over:
        fail(_("the match of {path} is over: {pair} won it").format(
            path=quote(str(path)), pair=sheet.pair_name(sheet.winner or 0)))
    return sheet


def match_lines(sheet: MatchSheet) -> list[str]:
    """The running score after the last hand, who won the match, the players' summary."""
    a, b = sheet.points
    lines = [_("match after hand {k}: {p1} {a} - {p2} {b} (to {target})").format(
        k=len(sheet.hands), p1=sheet.pair_name(0), a=a, p2=sheet.pair_name(1), b=b,
        target=sheet.rules.target)]
    if sheet.winner is None:
        dealer = sheet.seat_players()[3]
        if dealer:
            lines.append(_("next hand: {name} deals").format(name=dealer))
        return lines
    lines.append(_("{pair} wins the match").format(pair=sheet.pair_name(sheet.winner)))
    for s in summarize_match(sheet):
        who = s.name or _("player {n}").format(n=s.player)
        renuncios = ngettext("{n} renuncio (cost {cost})", "{n} renuncios (cost {cost})",
                             s.renuncios).format(n=s.renuncios, cost=s.renuncio_cost)
        line = _("  {who}: {renuncios}, {i} ?!, {m} ?, {b} ??, {lost} match points lost "
                 "double dummy").format(who=who, renuncios=renuncios, i=s.inaccuracies,
                                        m=s.mistakes, b=s.blunders, lost=s.points_lost)
        if s.hands_unanalysed:
            line += ngettext(" ({n} hand not analysed: not every hand known)",
                             " ({n} hands not analysed: not every hand known)",
                             s.hands_unanalysed).format(n=s.hands_unanalysed)
        lines.append(line)
    return lines


def _entry(rules: Optional[str], hand: Optional[list[str]], players: Optional[str],
           sheet: MatchSheet | None) -> HandEntry:
    """The hand to take down: of the match sheet (its rules, score and players' seats)
    or of the options."""
    if sheet is not None:
        return HandEntry(sheet.rules, parse_hands(hand or ()), sheet.seat_players(),
                         score=sheet.score)
    return HandEntry(load_rules(rules or "online"), parse_hands(hand or ()),
                     None if players is None else parse_players(players))


def _add_to_sheet(sheet: MatchSheet, entry: HandEntry, path: Path) -> None:
    """The hand added to the match sheet, the sheet saved, the running score said."""
    try:
        sheet.add(entry.record())
    except CuatrolaError as e:
        fail(_("the hand is not added to the match sheet: {why}").format(why=e))
    try:
        sheet.save(path)
    except OSError as e:
        fail(f"cannot write the match sheet {str(path)!r}: {e.strerror or e}")
    typer.echo("\n".join(match_lines(sheet)))


@user_errors
def record_command(
    rules: Optional[str] = typer.Option(
        None, "--rules", "-r", metavar="PRESET",
        help=N_("Preset (online, app, narro, italiano), optionally with overrides: "
                "'narro,tie_break=mano' (default online; with --match, the sheet's).")),
    hand: Optional[list[str]] = typer.Option(
        None, "--hand", metavar="SEAT=CARDS",
        help=N_("A hand you know, e.g. '2=Co Ro Sb Rb 3b' (your own, another you saw); "
                "give it once per seat, or not at all.")),
    players: Optional[str] = typer.Option(
        None, "--players", metavar="NAMES",
        help=N_("The players' names, seat 1 (the mano) first, the dealer last: "
                "'Ana,Luis,Eva,Marta' (an empty name for a seat without one).")),
    out: Optional[Path] = typer.Option(
        None, "--out", "-o", metavar="FILE",
        help=N_("Write the record to FILE (atomically) instead of stdout.")),
    match: Optional[Path] = typer.Option(
        None, "--match", metavar="SHEET",
        help=N_("Add the hand to the match sheet SHEET (a JSON file, made on the first "
                "hand with --rules and --players): the score before the hand and the "
                "names in their seats come from it; then the running score, and at the "
                "end of the match who won and each player's summary.")),
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
    sheet = None if match is None else open_sheet(match, rules, players)
    entry = _entry(rules, hand, players, sheet)
    try:
        take_down(entry, sys.stdin, sys.stdin.isatty())
    except KeyboardInterrupt:
        _say("")
        finish(entry, out)
        raise typer.Exit(130) from None
    finish(entry, out)
    if sheet is not None and match is not None:
        _add_to_sheet(sheet, entry, match)


def register(app: typer.Typer) -> None:
    app.command("record")(record_command)
