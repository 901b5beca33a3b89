"""``cuatrola puzzles``: puzzles from your own hands -- the positions where the card
played lost a clear share of the win chance and one card was clearly best, judged
exactly (:mod:`cuatrola_solver.analysis.puzzles`); ``--quiz`` asks them one by one in the
terminal, ``--html`` writes a page with "show the answer", ``--out`` keeps them in a
file that ``puzzles`` reads back without searching again.

The command's steps: :func:`read_sources` (records and puzzle files), :func:`searched`
(the library's :func:`~cuatrola_solver.analysis.puzzles.find_puzzles`), the files
written (:func:`write_files`), then the renderers (:func:`puzzle_text`, :func:`quiz`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from cuatrola_solver.analysis.puzzles import (MARGIN, MAX_LAYOUTS, MIN_LOSS, SCREEN_SAMPLES,
                                              Puzzle, PuzzleReport, Search, Shown,
                                              find_puzzles, puzzles_of_file)
from cuatrola_solver.analysis.report import html_puzzles
from cuatrola_solver.bots.table import OBLIGATION_WORDS
from cuatrola_solver.errors import CuatrolaError, RecordError, quote
from cuatrola_solver.game.cards import format_card, parse_card
from cuatrola_solver.game.play import SUIT_NAMES, renuncio_obligation
from cuatrola_solver.i18n import N_, _, later, ngettext, percent
from cuatrola_solver.notation.record import HandRecord, format_rules, read_record, record_from_obj

from .common import (SCHEMA, RecordRulesOption, check_outputs, check_writable, emit_json,
                     fail, read_input, record_rules, user_errors, write_output)
from .progress import progress_bar
from .render import colour_cards, use_colour


def _json_lines(body: str, where: str, rules: str | None) -> list[tuple[HandRecord, str]]:
    """The records of JSON lines (self-play's ``--out``), each with its line."""
    records = []
    for n, line in enumerate(body.splitlines(), 1):
        if not line.strip():
            continue
        at = later("{where}, line {n}", where=where, n=n)
        try:
            one = json.loads(line)
        except ValueError as e:
            raise RecordError(_("{where}: not a JSON record ({reason})").format(
                where=at, reason=e)) from None
        records.append((record_rules(record_from_obj(one, at), rules), at))
    return records


def read_sources(paths: List[str], rules: str | None
                 ) -> tuple[list[tuple[HandRecord, str]], list[Puzzle]]:
    """The records and puzzles of the files: a record (JSON or text form), JSON lines of
    records (self-play's ``--out``), or a puzzles file written by ``--out``."""
    records: list[tuple[HandRecord, str]] = []
    puzzles: list[Puzzle] = []
    for path in paths:
        text, where = read_input(path, _("record"))
        body = text.lstrip("\ufeff")
        try:
            obj = json.loads(body)
        except ValueError:
            obj = None
        read_back = puzzles_of_file(obj, where)
        if read_back is not None:
            puzzles += read_back
        elif obj is None and body.lstrip().startswith("{") and "\n" in body.strip():
            records += _json_lines(body, where, rules)
        else:
            records.append((record_rules(read_record(text, where), rules), where))
    return records, puzzles


def _contract_text(s: Shown) -> str:
    decl = s.declarer
    if s.contract == "paso" or not decl:
        return _("paso (all four play)")
    if len(decl) == 1:
        return _("{contract} by seat {seat}").format(contract=s.contract, seat=decl[0])
    return _("{contract} by seat {seat} against seat {other}").format(
        contract=s.contract, seat=decl[0], other=decl[1])


def position_lines(p: Puzzle, colour: bool) -> list[str]:
    """The seat's view of a puzzle, for the terminal: never the hidden hands."""
    s = p.shown()

    def cs(cards: list[int]) -> str:
        return colour_cards(" ".join(format_card(c) for c in cards), colour)

    lines = [_("rules {rules}; muestra {muestra} (triunfo {trump}); contract {contract}; you "
               "are seat {seat} (side {side})").format(
                   rules=format_rules(p.view.rules), muestra=cs([s.muestra]),
                   trump=s.trump_name, contract=_contract_text(s), seat=s.seat, side=s.side)
             + (_("; match score A {a} - B {b}").format(a=s.score.A, b=s.score.B)
                if s.score else "")]
    if s.tricks:
        lines.append(_("played so far: {tricks}").format(tricks="  ".join(
            f"{t}. " + cs([c for _seat, c in trick.cards])
            + _(" (seat {seat})").format(seat=trick.winner)
            for t, trick in enumerate(s.tricks, 1))))
    if s.cantes:
        lines.append(_("cantes: {cantes}").format(cantes=", ".join(
            _("seat {seat} sang {suit} after trick {trick}").format(
                seat=k.seat, suit=SUIT_NAMES[k.suit], trick=k.after_trick)
            for k in s.cantes)))
    lines.append(_("this trick: {cards}").format(cards=", ".join(
        _("seat {seat} {card}").format(seat=seat, card=cs([c])) for seat, c in s.current)
        if s.current else _("you lead")))
    lines.append(_("you hold: {cards}").format(cards=cs(list(s.held))))
    if p.note:
        lines.append(_("note: {note}").format(note=_(p.note)))
    return lines


def puzzle_text(i: int, p: Puzzle, colour: bool, answer: bool = True) -> str:
    lines = [_("Puzzle {i}: {source}").format(i=i, source=_(p.source))]
    lines += ["  " + x for x in position_lines(p, colour)]
    lines.append("  " + _(p.question()))
    if answer:
        lines.append("  " + _("answer: {card}. {why}").format(
            card=colour_cards(format_card(p.answer), colour),
            why=colour_cards(_(p.why()), colour)))
    return "\n".join(lines)


def summary_line(search: Search | None, puzzles: list[Puzzle]) -> str:
    if search is None:
        return ngettext("{n} puzzle read back", "{n} puzzles read back",
                        len(puzzles)).format(n=len(puzzles))
    s = search
    return (ngettext("{n} record", "{n} records", s.records).format(n=s.records)
            + _(", {positions} positions with a choice ({skipped} skipped: more than the "
                "layouts an exact judgment may take), {screened} screened, {judged} judged "
                "exactly: ").format(positions=s.positions, skipped=s.skipped,
                                    screened=s.screened, judged=s.judged)
            + ngettext("{n} puzzle", "{n} puzzles", len(puzzles)).format(n=len(puzzles)))


class _End(Exception):
    pass


def _ask(prompt: str) -> str:
    typer.echo(prompt + " ", nl=False)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        typer.echo("")
        raise _End
    if not sys.stdin.isatty():
        typer.echo(line.rstrip("\n"))             # a transcript of piped input reads as typed
    return line.strip()


def _choice(p: Puzzle) -> int | None:
    """The card typed for ``p``, asked again until it is one the seat holds and may play;
    None when given up (``?``); ``_End`` on ``q`` or the end of input."""
    legal = {c.card for c in p.cards}
    while True:
        text = _ask(_("your card:"))
        if text.lower() in ("q", "quit"):
            raise _End
        if text == "?":
            return None
        try:
            choice = parse_card(text.rstrip("*"), _("(your card)"))
        except CuatrolaError as e:
            typer.echo(f"  {e}")
            continue
        if not p.view.held >> choice & 1:
            typer.echo("  " + _("you do not hold {card}").format(card=format_card(choice)))
            continue
        if choice not in legal:
            why = renuncio_obligation(p.view.held, p.view.play_position.trick, p.view.trump,
                                      choice)
            typer.echo("  " + _("{card} would be a renuncio: {obligation}").format(
                card=format_card(choice), obligation=_(OBLIGATION_WORDS.get(why, why))))
            continue
        return choice


def _verdict(p: Puzzle, choice: int | None, colour: bool) -> str:
    """Whether ``choice`` is the answer, and why."""
    if choice == p.answer:
        return "  " + _("Right. {why}").format(why=colour_cards(_(p.why()), colour))
    mine = "" if choice in (None, p.played) else (
        _("your {card} wins {p}; ").format(card=format_card(choice), p=percent(p.p(choice))))
    return "  " + _("The answer is {card}: {why}").format(
        card=colour_cards(format_card(p.answer), colour),
        why=colour_cards(mine + _(p.why()), colour))


def quiz(puzzles: list[Puzzle], colour: bool) -> tuple[int, int]:
    """Ask the puzzles one by one; (found, asked).  A card not held or not legal is
    refused with the reason and asked again; ``?`` gives the answer up, ``q`` or the
    end of input stops."""
    found = asked = 0
    typer.echo(_("Type the card you would play (as 3o or Cc); ? gives up, q stops."))
    try:
        for i, p in enumerate(puzzles, 1):
            typer.echo("")
            typer.echo(_("Puzzle {i} of {n}").format(i=i, n=len(puzzles)))
            for x in position_lines(p, colour):
                typer.echo("  " + x)
            typer.echo("  " + _(p.question()))
            choice = _choice(p)
            asked += 1
            found += choice == p.answer
            typer.echo(_verdict(p, choice, colour))
    except _End:
        pass
    typer.echo("")
    typer.echo(ngettext("You found {found} of {n} puzzle", "You found {found} of {n} puzzles",
                        asked).format(found=found, n=asked)
               + (f" ({percent(found / asked)})." if asked else "."))
    return found, asked


def searched(records: list[tuple[HandRecord, str]], no_inference: bool, model_name: str,
             min_loss: float, margin: float, screen: int, max_layouts: int,
             seed: int) -> Search | None:
    """The search of the records for puzzles (None: no record given)."""
    if not records:
        return None
    with progress_bar(_("puzzles")) as bar:
        return find_puzzles(records, inference=not no_inference,
                            played=model_name == "played", min_loss=min_loss,
                            margin=margin, screen_samples=screen,
                            max_layouts=max_layouts, seed=seed, progress=bar)


def write_files(report: PuzzleReport, out: Path | None, html: Path | None) -> None:
    """``--out`` (the puzzles as JSON, to read back) and ``--html`` (their page)."""
    if out is not None:
        write_output(out, json.dumps({"schema": SCHEMA, **report.to_dict()},
                                     ensure_ascii=False, indent=1) + "\n")
    if html is not None:
        write_output(html, html_puzzles(report, _("cuatrola puzzles")))


def show(report: PuzzleReport, do_quiz: bool) -> None:
    """The puzzles for the terminal: each with its answer, or asked one by one."""
    colour = use_colour()
    puzzles = list(report.puzzles)
    summary = summary_line(report.search, puzzles)
    if do_quiz:
        if not puzzles:
            typer.echo(summary + _(": nothing to ask."))
            return
        typer.echo(summary + ".")
        quiz(puzzles, colour)
        return
    typer.echo(summary + ".")
    for i, p in enumerate(puzzles, 1):
        typer.echo("")
        typer.echo(puzzle_text(i, p, colour))


@user_errors
def puzzles_command(
    records: List[str] = typer.Argument(
        ..., metavar="RECORDS...", help=N_("Your played hands: record files (JSON or text "
        "form, as play --save writes them), JSON lines of records (selfplay --out), or "
        "puzzle files written by --out (read back, not searched again); - for stdin.")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", help=N_(
        "Also write the puzzles to FILE (JSON), to quiz or page later without searching "
        "again.")),
    html: Optional[Path] = typer.Option(None, "--html", metavar="FILE", help=N_(
        "Also write a page with the puzzles and 'show the answer'.")),
    do_quiz: bool = typer.Option(False, "--quiz", help=N_(
        "Ask the puzzles one by one in the terminal and score the answers.")),
    min_loss: float = typer.Option(MIN_LOSS, "--min-loss", min=0.01, max=1.0, metavar="P",
                                   help=N_("The least win chance the card played must give "
                                           "away (default 0.20, a mistake).")),
    margin: float = typer.Option(MARGIN, "--margin", min=0.0, max=1.0, metavar="P", help=N_(
        "The least lead of the best card over the second best (default 0.10).")),
    max_layouts: int = typer.Option(MAX_LAYOUTS, "--max-layouts", min=1, metavar="N",
                                    help=N_("Skip positions with more layouts of the hidden "
                                            "cards than N (an exact judgment values them "
                                            "all; trick 1 has up to 252,252).")),
    screen: int = typer.Option(SCREEN_SAMPLES, "--screen", min=20, metavar="N", help=N_(
        "Deals of the sampled hint that picks the positions judged exactly.")),
    seed: int = typer.Option(0, "--seed", min=0, help=N_("Seed of the screening hints.")),
    rules: Optional[str] = RecordRulesOption,
    no_inference: bool = typer.Option(
        False, "--no-inference", help=N_("Every layout counts the same (by default each is "
        "weighted by how likely the calls were with it, as hint does).")),
    model_name: str = typer.Option(
        "dd", "--model", metavar="dd|played", help=N_("dd: double dummy, every layout "
        "solved with all cards seen (default); played: the P(win) as the hand will be "
        "played (the preset's played-odds model, for presets whose model has card cells).")),
    json_out: bool = typer.Option(False, "--json", help=N_("The puzzles as JSON on stdout.")),
) -> None:
    """Puzzles from your own hands: where the card played lost and one card was best.

    Every position of your records where a seat chose its card is screened; those
    where the card played gave away at least --min-loss of the side's win chance
    while the best card led the next by --margin, judged exactly over every layout
    the seat could not tell apart, are the puzzles: shown from the seat's own view,
    with the answer and why. --quiz asks them, --html writes a page."""
    if model_name not in ("dd", "played"):
        fail(_("bad --model {value}: expected dd or played").format(value=quote(model_name)))
    for path in (out, html):
        if path is not None:
            check_writable(path)
    check_outputs([("--out", out), ("--html", html)],
                  [(_("one of the records"), r) for r in records])
    recs, read_back = read_sources(records, rules)
    search = searched(recs, no_inference, model_name, min_loss, margin, screen, max_layouts,
                      seed)
    found = [] if search is None else search.puzzles
    report = PuzzleReport(tuple(read_back + found), search, min_loss, margin)
    write_files(report, out, html)
    if json_out:
        emit_json(report.to_dict())
    else:
        show(report, do_quiz)


def register(app: typer.Typer) -> None:
    app.command("puzzles")(puzzles_command)
