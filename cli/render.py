"""Rendering shared by the commands: the muestra and its triunfo in one form, a hand's
result with its points split into cards, monte and cantes, bars of a histogram, and
suits in colour on a terminal (plain text when piped or with ``NO_COLOR`` set)."""

from __future__ import annotations

import os
import re
import sys

from cuatrola_solver.game.play import SUIT_NAMES
from cuatrola_solver.i18n import N_, _, ngettext

#: ANSI colours of the Spanish suits: oros gold, copas red, espadas blue, bastos green
SUIT_COLOURS = {"o": "33", "c": "31", "e": "34", "b": "32"}
_CARD = re.compile(r"(?<![\w])([A3RCS])([oceb])(?![\w])")

HOW = {"play": N_("after five tricks"), "renuncio": N_("by the first renuncio"),
       "early_end": N_("ended early: the tricks decide it")}


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
    return _("triunfo {suit}").format(suit=SUIT_NAMES["oceb".index(suit_letter)])


def muestra_text(card: str) -> str:
    """``muestra 3b (triunfo bastos)``: the one way every command names the trump."""
    return _("muestra {card} ({trump})").format(card=card, trump=trump_text(card[-1].lower()))


def players_line(players) -> str:
    """``players: seat 1 Ana, seat 2 Luis, seat 4 Marta`` (the seats with a name)."""
    names = ", ".join(_("seat {seat} {name}").format(seat=s, name=name)
                      for s, name in enumerate(players, 1) if name)
    return _("players: {names}").format(names=names)


def _ab(d: dict, mine: str | None = None) -> str:
    """``A 3 - B 5``; seen from side ``mine``: ``your pair 5 - the other pair 3``."""
    if mine is None:
        return f"A {d['A']} - B {d['B']}"
    return _("your pair {mine} - the other pair {other}").format(
        mine=d[mine], other=d["B" if mine == "A" else "A"])


def result_lines(res: dict | None, tricks_played: int | None = None,
                 mine: str | None = None) -> list[str]:
    """The result of ``Result.to_dict()``: who scores and why (the tie-break named on a
    tie), the points split into cards, monte and each cante, and the match score.  With
    ``mine`` (the side letter of the person at the table, ``play``), the sides are said
    as "your pair" and "the other pair", which do not change from hand to hand as the
    letters do."""
    def side(letter: str) -> str:
        if mine is None:
            return _("side {letter}").format(letter=letter)
        return _("your pair") if letter == mine else _("the other pair")

    def short(letter: str) -> str:
        return letter if mine is None else side(letter)

    if res is None:
        if tricks_played is None:
            return [_("result: not decided yet")]
        return [ngettext("result: not decided yet ({n} trick played)",
                         "result: not decided yet ({n} tricks played)",
                         tricks_played or 0).format(n=tricks_played)]
    lines = [_("result: {side} scores {points} ({how})").format(
        side=side(res["winner"]), points=res["game_points"], how=_(HOW[res["ended_by"]]))]
    tie = res.get("tie_break")
    if tie is not None:
        p = res["points"]
        lines.append((_("tie: {a}-{b} on points; {side} wins it by taking the last baza "
                        "(tie_break={tie})") if tie == "last_trick" else
                      _("tie: {a}-{b} on points; {side} wins it as the side of the mano "
                        "(seat 1) (tie_break={tie})")).format(
                          a=p["A"], b=p["B"], side=side(res["winner"]), tie=tie))
    lines.append(_("points: {points};  tricks: {tricks}").format(
        points=_ab(res["points"], mine), tricks=_ab(res["tricks"], mine)))
    bd = res.get("breakdown")
    if bd is not None:
        monte = bd["monte"]
        parts = [_("cards: {points}").format(points=_ab(bd["cards"], mine))]
        if monte["A"] or monte["B"]:
            letter = "A" if monte["A"] else "B"
            parts.append(_("monte: {side} +{points} (took the last baza)").format(
                side=short(letter), points=monte[letter]))
        else:
            parts.append(_("monte: not reached (no last baza)"))
        for k in bd["cantes"]:
            parts.append((_("cante: seat {seat} sang las cuarenta in {suit} after trick "
                            "{trick}: {side} +{points}") if k["points"] == 40 else
                          _("cante: seat {seat} sang las veinte in {suit} after trick "
                            "{trick}: {side} +{points}")).format(
                seat=k["seat"], suit=SUIT_NAMES["oceb".index(k["suit"])],
                trick=k["after_trick"], side=short(k["side"]), points=k["points"]))
        if not bd["cantes"]:
            parts.append(_("cantes: none"))
        lines += ["  " + x for x in parts]
    if res.get("score_after") is not None:
        line = _("match: {before} before the hand, {after} after").format(
            before=_ab(res["score_before"], mine), after=_ab(res["score_after"], mine))
        if res.get("match_won_by"):
            line += _(": {side} wins the match").format(side=side(res["match_won_by"]))
        lines.append(line)
    return lines


#: the bars of a histogram or a sparkline, lowest to highest
BARS = "▁▂▃▄▅▆▇█"


def histogram(probs) -> str:
    """Six bars, k = 0..5 tricks, scaled to the tallest; '·' for probability 0."""
    top = max(probs) or 1.0
    return "".join("·" if p == 0 else BARS[min(len(BARS) - 1, int(p / top * len(BARS)))]
                   for p in probs)
