"""Rendering shared by the commands: the muestra and its triunfo in one form, a hand's
result with its points split into cards, monte and cantes, bars of a histogram, and
suits in colour on a terminal (plain text when piped or with ``NO_COLOR`` set)."""

from __future__ import annotations

import os
import re
import sys
from typing import IO, Sequence

from cuatrola_solver.game.hand import PointsBreakdown, Result
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.play import SUIT_NAMES
from cuatrola_solver.game.seats import Side
from cuatrola_solver.i18n import N_, _, ngettext

#: ANSI colours of the Spanish suits: oros gold, copas red, espadas blue, bastos green
SUIT_COLOURS = {"o": "33", "c": "31", "e": "34", "b": "32"}
_CARD = re.compile(r"(?<![\w])([A3RCS])([oceb])(?![\w])")

HOW = {"play": N_("after five tricks"), "renuncio": N_("by the first renuncio"),
       "early_end": N_("ended early: the tricks decide it")}


def use_colour(stream: IO[str] | None = None) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
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


def players_line(players: Sequence[str | None]) -> str:
    """``players: seat 1 Ana, seat 2 Luis, seat 4 Marta`` (the seats with a name)."""
    names = ", ".join(_("seat {seat} {name}").format(seat=s, name=name)
                      for s, name in enumerate(players, 1) if name)
    return _("players: {names}").format(names=names)


def _ab(pair: Sequence[int], mine: Side | None = None) -> str:
    """``A 3 - B 5`` (one figure per side); seen from side ``mine``: ``your pair 5 - the
    other pair 3``."""
    if mine is None:
        return f"A {pair[0]} - B {pair[1]}"
    return _("your pair {mine} - the other pair {other}").format(
        mine=pair[mine], other=pair[mine.other])


def _score(score: Score) -> tuple[int, int]:
    return score.A, score.B


def result_lines(res: Result | None, tricks_played: int | None = None,
                 mine: Side | None = None) -> list[str]:
    """A hand's result: who scores and why (the tie-break named on a tie), the points
    split into cards, monte and each cante, and the match score.  With ``mine`` (the
    side of the person at the table, ``play``), the sides are said as "your pair" and
    "the other pair", which do not change from hand to hand as the letters do."""
    if res is None:
        if tricks_played is None:
            return [_("result: not decided yet")]
        return [ngettext("result: not decided yet ({n} trick played)",
                         "result: not decided yet ({n} tricks played)",
                         tricks_played or 0).format(n=tricks_played)]
    names = _SideNames(mine)
    lines = [_("result: {side} scores {points} ({how})").format(
        side=names.side(res.winner), points=res.game_points, how=_(HOW[res.ended_by]))]
    if res.tie_break is not None:
        lines.append((_("tie: {a}-{b} on points; {side} wins it by taking the last baza "
                        "(tie_break={tie})") if res.tie_break == "last_trick" else
                      _("tie: {a}-{b} on points; {side} wins it as the side of the mano "
                        "(seat 1) (tie_break={tie})")).format(
                          a=res.points[0], b=res.points[1], side=names.side(res.winner),
                          tie=res.tie_break))
    lines.append(_("points: {points};  tricks: {tricks}").format(
        points=_ab(res.points, mine), tricks=_ab(res.tricks, mine)))
    if res.breakdown is not None:
        lines += ["  " + x for x in _breakdown_parts(res.breakdown, names)]
    if res.score_before is not None and res.score_after is not None:
        line = _("match: {before} before the hand, {after} after").format(
            before=_ab(_score(res.score_before), mine), after=_ab(_score(res.score_after), mine))
        if res.match_won_by is not None:
            line += _(": {side} wins the match").format(side=names.side(res.match_won_by))
        lines.append(line)
    return lines


class _SideNames:
    """The sides as a result says them: ``side A``, or from side ``mine``'s chair ``your
    pair`` and ``the other pair`` (``short``: the bare letter without a chair)."""

    def __init__(self, mine: Side | None) -> None:
        self.mine = mine

    def side(self, side: Side) -> str:
        if self.mine is None:
            return _("side {letter}").format(letter=side)
        return _("your pair") if side is self.mine else _("the other pair")

    def short(self, side: Side) -> str:
        return str(side) if self.mine is None else self.side(side)


def _breakdown_parts(bd: PointsBreakdown, names: _SideNames) -> list[str]:
    """Where the points come from: the cards, the monte, each cante."""
    parts = [_("cards: {points}").format(points=_ab(bd.cards, names.mine))]
    if bd.monte[0] or bd.monte[1]:
        side = Side.A if bd.monte[0] else Side.B
        parts.append(_("monte: {side} +{points} (took the last baza)").format(
            side=names.short(side), points=bd.monte[side]))
    else:
        parts.append(_("monte: not reached (no last baza)"))
    for k in bd.cantes:
        parts.append((_("cante: seat {seat} sang las cuarenta in {suit} after trick "
                        "{trick}: {side} +{points}") if k.points == 40 else
                      _("cante: seat {seat} sang las veinte in {suit} after trick "
                        "{trick}: {side} +{points}")).format(
            seat=k.seat, suit=SUIT_NAMES[k.suit], trick=k.after_trick,
            side=names.short(k.side), points=k.points))
    if not bd.cantes:
        parts.append(_("cantes: none"))
    return parts


#: the bars of a histogram or a sparkline, lowest to highest
BARS = "▁▂▃▄▅▆▇█"


def histogram(probs: Sequence[float]) -> str:
    """Six bars, k = 0..5 tricks, scaled to the tallest; '·' for probability 0."""
    top = max(probs) or 1.0
    return "".join("·" if p == 0 else BARS[min(len(BARS) - 1, int(p / top * len(BARS)))]
                   for p in probs)
