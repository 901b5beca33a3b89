"""``cuatrola puzzles``: puzzles from your own hands -- the positions where the card
played lost a clear share of the win chance and one card was clearly best, judged
exactly (:mod:`cuatrola_solver.analysis.puzzles`); ``--quiz`` asks them one by one in the
terminal, ``--html`` writes a page with "show the answer", ``--out`` keeps them in a
file that ``puzzles`` reads back without searching again."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from cuatrola_solver.analysis.puzzles import (MARGIN, MAX_LAYOUTS, MIN_LOSS, SCREEN_SAMPLES,
                                              Puzzle, Search, find_puzzles)
from cuatrola_solver.analysis.report import html_puzzles
from cuatrola_solver.bots.table import OBLIGATION_WORDS
from cuatrola_solver.errors import CuatrolaError, RecordError, quote
from cuatrola_solver.game.cards import format_card, parse_card
from cuatrola_solver.game.play import SUIT_NAMES, renuncio_obligation
from cuatrola_solver.notation.record import format_rules, read_record, record_from_obj

from .cmd_advise import progress_bar
from .common import (SCHEMA, RecordRulesOption, check_outputs, check_writable, emit_json,
                     fail, model_option, read_input, record_rules, user_errors,
                     write_output)
from .render import colour_cards, use_colour


def read_sources(paths: List[str], rules: str | None):
    """The records and puzzles of the files: a record (JSON or text form), JSON lines of
    records (self-play's ``--out``), or a puzzles file written by ``--out``."""
    records, puzzles = [], []
    for path in paths:
        text, where = read_input(path, "record")
        body = text.lstrip("\ufeff")
        try:
            obj = json.loads(body)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "puzzles" in obj:
            items = obj["puzzles"]
            if not isinstance(items, list):
                fail(f"{where}: 'puzzles' is not a list of puzzles")
            puzzles += [Puzzle.from_dict(d, f"{where}, puzzle {i}") if isinstance(d, dict)
                        else fail(f"{where}, puzzle {i}: not a puzzle")
                        for i, d in enumerate(items, 1)]
            continue
        if obj is None and body.lstrip().startswith("{") and "\n" in body.strip():
            for n, line in enumerate(body.splitlines(), 1):
                if not line.strip():
                    continue
                at = f"{where}, line {n}"
                try:
                    one = json.loads(line)
                except ValueError as e:
                    raise RecordError(f"{at}: not a JSON record ({e})") from None
                records.append((record_rules(record_from_obj(one, at), rules), at))
            continue
        records.append((record_rules(read_record(text, where), rules), where))
    return records, puzzles


def position_lines(p: Puzzle, colour: bool) -> list[str]:
    """The seat's view of a puzzle, for the terminal: never the hidden hands."""
    d = p.shown()

    def cs(cards) -> str:
        return colour_cards(" ".join(cards), colour)

    decl = d["declarer"]
    who = ("paso (all four play)" if d["contract"] == "paso" or not decl else
           f"{d['contract']} by seat {' against seat '.join(map(str, decl))}")
    score = d["score"]
    lines = [f"rules {format_rules(p.view.rules)}; muestra {cs([d['muestra']])} (triunfo "
             f"{d['trump']}); contract {who}; you are seat {d['seat']} (side {d['side']})"
             + (f"; match score A {score['A']} - B {score['B']}" if score else "")]
    if d["tricks"]:
        lines.append("played so far: " + "  ".join(
            f"{t}. " + cs([c for _, c in trick["cards"]]) + f" (seat {trick['winner']})"
            for t, trick in enumerate(d["tricks"], 1)))
    if d["cantes"]:
        lines.append("cantes: " + ", ".join(
            f"seat {k['seat']} sang {SUIT_NAMES['oceb'.index(k['suit'])]} after trick "
            f"{k['after_trick']}" for k in d["cantes"]))
    lines.append("this trick: " + (", ".join(f"seat {s} {cs([c])}" for s, c in d["current"])
                                   if d["current"] else "you lead"))
    lines.append(f"you hold: {cs(d['held'])}")
    if p.note:
        lines.append(f"note: {p.note}")
    return lines


def puzzle_text(i: int, p: Puzzle, colour: bool, answer: bool = True) -> str:
    lines = [f"Puzzle {i}: {p.source}"] + ["  " + x for x in position_lines(p, colour)]
    lines.append("  " + p.question())
    if answer:
        lines.append(f"  answer: {colour_cards(format_card(p.answer), colour)}. "
                     + colour_cards(p.why(), colour))
    return "\n".join(lines)


def summary_line(search: Search | None, puzzles: list[Puzzle]) -> str:
    if search is None:
        return f"{len(puzzles)} puzzle{'s' if len(puzzles) != 1 else ''} read back"
    s = search
    return (f"{s.records} record{'s' if s.records != 1 else ''}, {s.positions} positions with "
            f"a choice ({s.skipped} skipped: more than the layouts an exact judgment may "
            f"take), {s.screened} screened, {s.judged} judged exactly: {len(puzzles)} "
            f"puzzle{'s' if len(puzzles) != 1 else ''}")


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


def quiz(puzzles: list[Puzzle], colour: bool) -> tuple[int, int]:
    """Ask the puzzles one by one; (found, asked).  A card not held or not legal is
    refused with the reason and asked again; ``?`` gives the answer up, ``q`` or the
    end of input stops."""
    found = asked = 0
    typer.echo("Type the card you would play (as 3o or Cc); ? gives up, q stops.")
    try:
        for i, p in enumerate(puzzles, 1):
            typer.echo("")
            typer.echo(f"Puzzle {i} of {len(puzzles)}")
            for x in position_lines(p, colour):
                typer.echo("  " + x)
            typer.echo("  " + p.question())
            legal = {c.card for c in p.cards}
            while True:
                text = _ask("your card:")
                if text.lower() in ("q", "quit"):
                    raise _End
                if text == "?":
                    choice = None
                    break
                try:
                    choice = parse_card(text.rstrip("*"), "(your card)")
                except CuatrolaError as e:
                    typer.echo(f"  {e}")
                    continue
                if not p.view.held >> choice & 1:
                    typer.echo(f"  you do not hold {format_card(choice)}")
                    continue
                if choice not in legal:
                    why = renuncio_obligation(p.view.held, p.view.play_position.trick, p.view.trump,
                                              choice)
                    typer.echo(f"  {format_card(choice)} would be a renuncio: "
                               f"{OBLIGATION_WORDS.get(why, why)}")
                    continue
                break
            asked += 1
            if choice == p.answer:
                found += 1
                typer.echo(f"  Right. {colour_cards(p.why(), colour)}")
            else:
                mine = "" if choice in (None, p.played) else (
                    f"your {format_card(choice)} wins {100 * p.p(choice):.0f}%; ")
                typer.echo(f"  The answer is {colour_cards(format_card(p.answer), colour)}: "
                           + colour_cards(mine + p.why(), colour))
    except _End:
        pass
    typer.echo("")
    typer.echo(f"You found {found} of {asked} puzzle{'s' if asked != 1 else ''}"
               + (f" ({100 * found / asked:.0f}%)." if asked else "."))
    return found, asked


def register(app: typer.Typer) -> None:
    @app.command("puzzles")
    @user_errors
    def puzzles_command(
        records: List[str] = typer.Argument(
            ..., metavar="RECORDS...", help="Your played hands: record files (JSON or text "
            "form, as play --save writes them), JSON lines of records (selfplay --out), or "
            "puzzle files written by --out (read back, not searched again); - for stdin."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", help="Also "
                                           "write the puzzles to FILE (JSON), to quiz or page "
                                           "later without searching again."),
        html: Optional[Path] = typer.Option(None, "--html", metavar="FILE", help="Also write "
                                            "a page with the puzzles and 'show the answer'."),
        do_quiz: bool = typer.Option(False, "--quiz", help="Ask the puzzles one by one in the "
                                     "terminal and score the answers."),
        min_loss: float = typer.Option(MIN_LOSS, "--min-loss", min=0.01, max=1.0,
                                       metavar="P", help="The least win chance the card "
                                       "played must give away (default 0.20, a mistake)."),
        margin: float = typer.Option(MARGIN, "--margin", min=0.0, max=1.0, metavar="P",
                                     help="The least lead of the best card over the second "
                                     "best (default 0.10)."),
        max_layouts: int = typer.Option(MAX_LAYOUTS, "--max-layouts", min=1, metavar="N",
                                        help="Skip positions with more layouts of the hidden "
                                        "cards than N (an exact judgment values them all; "
                                        "trick 1 has up to 252,252)."),
        screen: int = typer.Option(SCREEN_SAMPLES, "--screen", min=20, metavar="N",
                                   help="Deals of the sampled hint that picks the positions "
                                   "judged exactly."),
        seed: int = typer.Option(0, "--seed", min=0, help="Seed of the screening hints."),
        rules: Optional[str] = RecordRulesOption,
        no_inference: bool = typer.Option(
            False, "--no-inference", help="Every layout counts the same (by default each is "
            "weighted by how likely the calls were with it, as hint does)."),
        model_name: str = typer.Option(
            "dd", "--model", metavar="dd|played", help="dd: double dummy, every layout "
            "solved with all cards seen (default); played: the P(win) as the hand will be "
            "played (the preset's played-odds model, for presets whose model has card cells)."),
        json_out: bool = typer.Option(False, "--json", help="The puzzles as JSON on stdout."),
    ) -> None:
        """Puzzles from your own hands: where the card played lost and one card was best.

        Every position of your records where a seat chose its card is screened; those
        where the card played gave away at least --min-loss of the side's win chance
        while the best card led the next by --margin, judged exactly over every layout
        the seat could not tell apart, are the puzzles: shown from the seat's own view,
        with the answer and why. --quiz asks them, --html writes a page."""
        if model_name not in ("dd", "played"):
            fail(f"bad --model {quote(model_name)}: expected dd or played")
        for path in (out, html):
            if path is not None:
                check_writable(path)
        check_outputs([("--out", out), ("--html", html)],
                      [("one of the records", r) for r in records])
        recs, puzzles = read_sources(records, rules)
        search = None
        if recs:
            with progress_bar("puzzles") as bar:
                search = find_puzzles(recs, inference=not no_inference,
                                      played=model_name == "played", min_loss=min_loss,
                                      margin=margin, screen_samples=screen,
                                      max_layouts=max_layouts, seed=seed, progress=bar)
            puzzles = puzzles + search.puzzles
        report = {"puzzles": [p.to_dict() for p in puzzles],
                  **({} if search is None else {"search": search.to_dict()}),
                  "min_loss": min_loss, "margin": margin}
        if out is not None:
            write_output(out, json.dumps({"schema": SCHEMA, **report}, ensure_ascii=False,
                                         indent=1) + "\n")
        if html is not None:
            write_output(html, html_puzzles(report, "cuatrola puzzles"))
        if json_out:
            emit_json(report)
            return
        colour = use_colour()
        if do_quiz:
            if not puzzles:
                typer.echo(summary_line(search, puzzles) + ": nothing to ask.")
                return
            typer.echo(summary_line(search, puzzles) + ".")
            quiz(puzzles, colour)
            return
        typer.echo(summary_line(search, puzzles) + ".")
        for i, p in enumerate(puzzles, 1):
            typer.echo("")
            typer.echo(puzzle_text(i, p, colour))

