"""Played odds: from the double-dummy P(win) to the chance as the hand will be played.

Double-dummy odds assume every card is seen; at the table each seat sees its own.
Measured in self-play (:mod:`cuatrola_solver.lab.selfplay`, four ``pimc`` players), a solo from
seats 2 to 4 wins more often than double dummy says (the defenders cannot see each
other's cards) and side A's paso less.  A :class:`PlayedModel` maps the double-dummy
P(win) of a call to the played one, per contract and seat of the caller (``paso``: the
advising seat, measured for its side), by logistic recalibration::

    logit(p_played) = a + b * logit(p_dd)

fitted by the lab (:mod:`cuatrola_solver.lab.fit_played`) on the predictions of
self-play records with their outcomes, each cell shrunk toward the pooled fit of its
contract, and that toward no change (``a = 0, b = 1``), so that a cell with few hands
stays close to what the others say.  One model per preset ships in
``cuatrola_solver/models/data/played_PRESET.json`` with how it was made; using it needs
numpy only.

The same map, fitted on the hints of the cards played in self-play
(:func:`cuatrola_solver.lab.calibration.card_predictions`), gives the played P(win) of each
card of a hint and of an analysis, per trick and role of the seat's side (``declarer``:
the declaring side, side A under paso; ``defender``: the other), with cells
``"t2/defender@solo"`` shrunk toward the trick and role's pool ``"t2/defender@*"``
(for ``online`` the slopes go from about 0.8 at trick 1, odds pulled toward 50%, to
about 1.2 at trick 4).  A model without card cells leaves the cards double dummy.

A call that needs every trick is won only where the call of four tricks by the same seat
would be, so its played P(win) is never above the other's (:data:`NESTED`): its cells keep
the slope of the four-trick contract's cell of the same seat and an intercept no higher
(the fit is constrained so, :mod:`cuatrola_solver.lab.fit_played`; a model file that breaks
the order is refused), a seat with no cell of its own takes the four-trick contract's map,
and since its double-dummy P(win) is never above the other's either, the order holds for
every hand by construction.

The expected points follow the probability: the outcome distribution of the search
(game points of each result) keeps its shape among won and among lost hands, and the
weight of the two parts moves to the played P(win) (:func:`played_outcomes`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from ..game.jsonvalue import ParsedJSON
from ..game.rules import TRICKS_GOAL, RuleSet
from ..game.seats import SEATS
from .store import corrupt, data_path, read

__all__ = ["PlayedModel", "load_model", "model_path", "played_outcomes", "card_role",
           "logit", "sigmoid", "MODEL_VERSION", "NESTED"]

MODEL_VERSION = 1
#: predictions are clipped to [EPS, 1 - EPS] before the logit
EPS = 0.01
#: a contract decided on tricks -> the one that needs fewer, which the same caller wins
#: whenever it wins this one (quintola -> cuatrola): its played map is never above that one's
NESTED = {c: b for c in TRICKS_GOAL for b in TRICKS_GOAL
          if TRICKS_GOAL[b] == TRICKS_GOAL[c] - 1}


def logit(p: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``log(p / (1 - p))`` of ``p`` clipped to ``[EPS, 1 - EPS]``."""
    q = np.clip(np.asarray(p, dtype=np.float64), EPS, 1 - EPS)
    out: npt.NDArray[np.float64] = np.log(q / (1 - q))
    return out


def card_role(side: int, declaring_side: int) -> str:
    """The role of a card cell: ``declarer`` when the seat's ``side`` is the declaring
    side (side A under paso), else ``defender``."""
    return "declarer" if side == declaring_side else "defender"


def sigmoid(z: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``1 / (1 + exp(-z))``; an overflow of ``exp`` gives the limit, 0, quietly."""
    with np.errstate(over="ignore"):
        out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-np.asarray(z, dtype=np.float64)))
    return out


def _recalibrated(a: float, b: float, p_dd: float) -> float:
    """``sigmoid(a + b logit(p_dd))``: with huge (finite) coefficients the sum
    overflows to an infinity, whose sigmoid is 0 or 1 -- quietly, not four lines of
    RuntimeWarning on a successful command."""
    with np.errstate(over="ignore"):
        return float(sigmoid(a + b * logit(p_dd)))


@dataclass(frozen=True)
class PlayedModel:
    """Per cell (``"solo@4"``, ``"paso@1"``, and ``"solo@*"`` for a contract's pool; for
    cards ``"t1/declarer@solo"`` and ``"t1/declarer@*"``) the pair ``(a, b)`` of
    ``logit(p_played) = a + b logit(p_dd)``."""

    rules: str
    cells: Mapping[str, Sequence[float]]   # cell -> [a, b]
    provenance: ParsedJSON

    def coefficients(self, group: str, cell: int | str) -> tuple[float, float]:
        """``(a, b)`` of the cell, else of its group's pool, else no change; a contract of
        :data:`NESTED` with no cell for the seat takes the map of the one it implies."""
        if group in NESTED:
            key = f"{group}@{cell}"
            if key not in self.cells:
                return self.coefficients(NESTED[group], cell)
            a, b = self.cells[key]
            return a, b
        for key in (f"{group}@{cell}", f"{group}@*"):
            if key in self.cells:
                a, b = self.cells[key]
                return a, b
        return (0.0, 1.0)

    def out_of_order(self) -> str | None:
        """The first seat's cell that would put a contract of :data:`NESTED` above the one
        it implies (another slope, or a higher intercept), as a phrase; None when ordered."""
        for group, base in NESTED.items():
            for seat in SEATS:
                (a, b), (a0, b0) = self.coefficients(group, seat), self.coefficients(base, seat)
                if b != b0 or a > a0:
                    return (f"{group}@{seat} ({a:g}, {b:g}) would give more than "
                            f"{base}@{seat} ({a0:g}, {b0:g}): a {group} needs the slope of "
                            f"the {base} of its seat and an intercept no higher")
        return None

    def p(self, contract: str, seat: int, p_dd: float) -> float:
        """The played P(win) of a call whose double-dummy P(win) is ``p_dd``."""
        a, b = self.coefficients(contract, seat)
        return _recalibrated(a, b, p_dd)

    @property
    def has_cards(self) -> bool:
        """Whether the model was fitted on cards too (``calibrate --fit --cards N``)."""
        return any(key.startswith("t") for key in self.cells)

    def p_card(self, contract: str, trick: int, role: str, p_dd: float) -> float:
        """The played P(win) of the seat's side after a card whose double-dummy P(win)
        (over the deals its seat cannot tell apart) is ``p_dd``; ``role``: ``declarer``
        or ``defender`` (the seat's side against the declaring side)."""
        a, b = self.coefficients(f"t{trick}/{role}", contract)
        return _recalibrated(a, b, p_dd)

    def to_json(self) -> str:
        return json.dumps({"version": MODEL_VERSION, "rules": self.rules,
                           "form": "logit(p_played) = a + b * logit(clip(p_dd, 0.01, 0.99))",
                           "cells": self.cells, "provenance": self.provenance}, indent=1)


def played_outcomes(outcomes: Sequence[tuple[int, float]], p_played: float,
                    value: int) -> tuple[tuple[int, float], ...]:
    """The outcome distribution ``(game points, probability)`` of the search with the
    won and the lost parts rescaled to ``p_played``; a part the search never saw (it
    said 0 or 1) is the contract's base ``value`` won or lost."""
    won = [(g, q) for g, q in outcomes if g > 0]
    lost = [(g, q) for g, q in outcomes if g <= 0]
    p_won = sum(q for _, q in won)
    p_lost = sum(q for _, q in lost)
    out = [(g, q * p_played / p_won) for g, q in won] if p_won > 0 else [(value, p_played)]
    out += ([(g, q * (1 - p_played) / p_lost) for g, q in lost] if p_lost > 0
            else [(-value, 1 - p_played)])
    return tuple(sorted((g, q) for g, q in out if q > 0))


def model_path(rules: RuleSet) -> Path:
    """Where the package keeps the played-odds model of ``rules``' preset."""
    return data_path("played", rules.name)


def load_model(rules: RuleSet, path: str | Path | None = None) -> PlayedModel:
    """The played-odds model of ``rules``' preset (or the file ``path``); ModelError when
    it is missing, corrupt, or for another preset or version."""
    obj, p = read("played", rules, model_path(rules) if path is None else path)
    cells = obj.get("cells")
    if not isinstance(cells, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in v)
            for v in cells.values()):
        raise corrupt("played", p, "bad cells")
    model = PlayedModel(obj["rules"], cells, obj.get("provenance", {}))
    why = model.out_of_order()
    if why:
        raise corrupt("played", p, why)
    return model
