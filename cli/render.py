"""Rendering shared by the commands: the muestra and its triunfo in one form, a hand's
result with its points split into cards, monte and cantes, and suits in colour on a
terminal (plain text when piped or with ``NO_COLOR`` set)."""

from __future__ import annotations

import os
import re
import sys

from cuatrola_solver.game.play import SUIT_NAMES
from cuatrola_solver.i18n import _

#: ANSI colours of the Spanish suits: oros gold, copas red, espadas blue, bastos green
SUIT_COLOURS = {"o": "33", "c": "31", "e": "34", "b": "32"}
_CARD = re.compile(r"(?<![\w])([A3RCS])([oceb])(?![\w])")

HOW = {"play": "after five tricks", "renuncio": "by the first renuncio",
       "early_end": "ended early: the tricks decide it"}


def use_colour(stream=None) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def colour_cards(text: str, enabled: bool | None = None) -> str:
    """``text`` with every card (``3o``, ``Cc``...) in its suit's colour when enabled."""
    if enabled is None:
        enabled = use_colour()
    if not enabled:
        return text
    return _CARD.sub(lambda m: f"\x1b[{SUIT_COLOURS[m.group(2)]}m{m.group(0)}\x1b[0m", text)


def trump_text(suit_letter: str) -> str:
    """``triunfo bastos``."""
    return f"triunfo {SUIT_NAMES['oceb'.index(suit_letter)]}"


def muestra_text(card: str) -> str:
    """``muestra 3b (triunfo bastos)``: the one way every command names the trump."""
    return f"muestra {card} ({trump_text(card[-1].lower())})"


def players_line(players) -> str:
    """``players: seat 1 Ana, seat 2 Luis, seat 4 Marta`` (the seats with a name)."""
    names = ", ".join(_("seat {seat} {name}").format(seat=s, name=name)
                      for s, name in enumerate(players, 1) if name)
    return _("players: {names}").format(names=names)


def _ab(d: dict, mine: str | None = None) -> str:
    """``A 3 - B 5``; seen from side ``mine``: ``your pair 5 - the other pair 3``."""
    if mine is None:
        return f"A {d['A']} - B {d['B']}"
    return f"your pair {d[mine]} - the other pair {d['B' if mine == 'A' else 'A']}"


def result_lines(res: dict | None, tricks_played: int | None = None,
                 mine: str | None = None) -> list[str]:
    """The result of ``Result.to_dict()``: who scores and why (the tie-break named on a
    tie), the points split into cards, monte and each cante, and the match score.  With
    ``mine`` (the side letter of the person at the table, ``play``), the sides are said
    as "your pair" and "the other pair", which do not change from hand to hand as the
    letters do."""
    def side(letter: str) -> str:
        if mine is None:
            return f"side {letter}"
        return "your pair" if letter == mine else "the other pair"

    def short(letter: str) -> str:
        return letter if mine is None else side(letter)

    if res is None and tricks_played is None:
        return ["result: not decided yet"]
    if res is None:
        return [f"result: not decided yet ({tricks_played} "
                f"trick{'s' if tricks_played != 1 else ''} played)"]
    lines = [f"result: {side(res['winner'])} scores {res['game_points']} "
             f"({HOW[res['ended_by']]})"]
    tie = res.get("tie_break")
    if tie is not None:
        p = res["points"]
        lines.append(f"tie: {p['A']}-{p['B']} on points; {side(res['winner'])} wins it "
                     + ("by taking the last baza" if tie == "last_trick"
                        else "as the side of the mano (seat 1)") + f" (tie_break={tie})")
    lines.append(f"points: {_ab(res['points'], mine)};  tricks: {_ab(res['tricks'], mine)}")
    bd = res.get("breakdown")
    if bd is not None:
        monte = bd["monte"]
        parts = [f"cards: {_ab(bd['cards'], mine)}"]
        if monte["A"] or monte["B"]:
            letter = "A" if monte["A"] else "B"
            parts.append(f"monte: {short(letter)} +{monte[letter]} (took the last baza)")
        else:
            parts.append("monte: not reached (no last baza)")
        for k in bd["cantes"]:
            what = "las cuarenta" if k["points"] == 40 else "las veinte"
            parts.append(f"cante: seat {k['seat']} sang {what} in "
                         f"{SUIT_NAMES['oceb'.index(k['suit'])]} after trick "
                         f"{k['after_trick']}: {short(k['side'])} +{k['points']}")
        if not bd["cantes"]:
            parts.append("cantes: none")
        lines += ["  " + x for x in parts]
    if res.get("score_after") is not None:
        line = (f"match: {_ab(res['score_before'], mine)} before the hand, "
                f"{_ab(res['score_after'], mine)} after")
        if res.get("match_won_by"):
            line += f": {side(res['match_won_by'])} wins the match"
        lines.append(line)
    return lines
