"""A match sheet's summary per player: renuncios and their cost, mistakes by label, the
match points lost double dummy.

Each player is followed through the match by the seat they sat at in the first hand
(the deal passes on: :func:`~cuatrola_solver.notation.match_sheet.player_at`).  The
renuncios and their cost come from each hand as ``check`` replays it (every hand); the
labels (``?!`` inaccuracies, ``?`` mistakes, ``??`` blunders) and the match points lost
double dummy from :func:`~cuatrola_solver.analysis.review.analyze` of each hand whose
whole deal is known (a hand taken down without every hand cannot be analysed, and is
counted in ``hands_unanalysed``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..advice.budget import Budget
from ..models.preset import Models
from ..notation.match_sheet import MatchSheet, player_at
from .review import Analysis, analyze

__all__ = ["PlayerSummary", "summarize_match"]


@dataclass(frozen=True)
class PlayerSummary:
    """One player over a match (``player``: their seat in the first hand)."""

    player: int
    name: str | None
    hands: int
    renuncios: int
    #: the match points the renuncios that decided a hand gave the other pair
    renuncio_cost: int
    inaccuracies: int       # ?!
    mistakes: int           # ?
    blunders: int           # ??
    #: the match points this player's cards gave away double dummy (analysed hands)
    points_lost: int
    hands_unanalysed: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name, "hands": self.hands,
                "renuncios": self.renuncios, "renuncio_cost": self.renuncio_cost,
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes,
                "blunders": self.blunders, "points_lost": self.points_lost,
                "hands_unanalysed": self.hands_unanalysed}


@dataclass
class _Tally:
    """A player's counts, added up hand by hand."""

    renuncios: int = 0
    renuncio_cost: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    points_lost: int = 0
    hands_unanalysed: int = 0


def summarize_match(sheet: MatchSheet, budget: Budget | None = None,
                    models: Models | None = None, *,
                    analyses: list[Analysis | None] | None = None) -> tuple[PlayerSummary, ...]:
    """Each player's summary (players 1 to 4 by their seats in the first hand).
    ``analyses``: each hand's analysis when already made (None for a hand not
    analysed); else each complete hand is analysed with ``budget`` and ``models``."""
    if analyses is None:
        analyses = [analyze(h.record, budget, models, bids=False) if h.record.complete else None
                    for h in sheet.hands]
    tally = {p: _Tally() for p in (1, 2, 3, 4)}
    for k, (h, a) in enumerate(zip(sheet.hands, analyses)):
        for i, r in enumerate(h.renuncios):
            t = tally[player_at(r.seat, k)]
            t.renuncios += 1
            if i == 0 and h.result.ended_by == "renuncio":
                t.renuncio_cost += h.result.game_points
        for seat in (1, 2, 3, 4):
            t = tally[player_at(seat, k)]
            if a is None:
                t.hands_unanalysed += 1
                continue
            s = {x.seat: x for x in a.summary}[seat]
            t.inaccuracies += s.inaccuracies
            t.mistakes += s.mistakes
            t.blunders += s.blunders
            t.points_lost += s.points_lost
    return tuple(PlayerSummary(p, sheet.players[p - 1], len(sheet.hands),
                               **dataclasses.asdict(tally[p]))
                 for p in (1, 2, 3, 4))
