"""Played odds: from the double-dummy P(win) to the chance as the hand will be played.

Double-dummy odds assume every card is seen; at the table each seat sees its own.
Measured in self-play (:mod:`cuatrola_solver.lab`, four ``pimc`` players), a solo from
seats 2 to 4 wins more often than double dummy says (the defenders cannot see each
other's cards) and side A's paso less.  A :class:`PlayedModel` maps the double-dummy
P(win) of a call to the played one, per contract and seat of the caller (``paso``: the
advising seat, measured for its side), by logistic recalibration::

    logit(p_played) = a + b * logit(p_dd)

fitted (:func:`fit`) on the predictions of self-play records with their outcomes
(:func:`cuatrola_solver.calibration.predictions`), each cell shrunk toward the pooled
fit of its contract, and that toward no change (``a = 0, b = 1``), so that a cell with
few hands stays close to what the others say.  One model per preset ships in
``cuatrola_solver/data/played_PRESET.json`` with how it was made; using it needs numpy
only.

The same map, fitted on the hints of the cards played in self-play
(:func:`cuatrola_solver.calibration.card_predictions`), gives the played P(win) of each
card of a hint and of an analysis, per trick and role of the seat's side (``declarer``:
the declaring side, side A under paso; ``defender``: the other), with cells
``"t2/defender@solo"`` shrunk toward the trick and role's pool ``"t2/defender@*"``
(for ``online`` the slopes go from about 0.8 at trick 1, odds pulled toward 50%, to
about 1.2 at trick 4).  A model without card cells leaves the cards double dummy.

The expected points follow the probability: the outcome distribution of the search
(game points of each result) keeps its shape among won and among lost hands, and the
weight of the two parts moves to the played P(win) (:func:`played_outcomes`).
"""

from __future__ import annotations

import datetime
import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..errors import CuatrolaError
from ..game.rules import RuleSet

__all__ = ["PlayedModel", "fit", "load_model", "model_path", "played_outcomes",
           "PlayedModelError", "MODEL_VERSION"]

MODEL_VERSION = 1
#: predictions are clipped to [EPS, 1 - EPS] before the logit
EPS = 0.01
#: strength of the pull of a cell toward its contract's fit, and of that toward no change
#: (in pseudo-hands)
PRIOR_CELL = 8.0
PRIOR_CONTRACT = 4.0
#: a cell's slope is fitted from this many predictions on (else only its intercept)
MIN_SLOPE = 200


class PlayedModelError(CuatrolaError):
    """A played-odds model file that is missing, corrupt, or for other rules or version."""


def _logit(p):
    p = np.clip(np.asarray(p, dtype=np.float64), EPS, 1 - EPS)
    return np.log(p / (1 - p))


def card_role(side: int, declaring_side: int) -> str:
    """The role of a card cell: ``declarer`` when the seat's ``side`` is the declaring
    side (side A under paso), else ``defender``."""
    return "declarer" if side == declaring_side else "defender"


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@dataclass(frozen=True)
class PlayedModel:
    """Per cell (``"solo@4"``, ``"paso@1"``, and ``"solo@*"`` for a contract's pool; for
    cards ``"t1/declarer@solo"`` and ``"t1/declarer@*"``) the pair ``(a, b)`` of
    ``logit(p_played) = a + b logit(p_dd)``."""

    rules: str
    cells: dict
    provenance: dict

    def coefficients(self, group: str, cell) -> tuple[float, float]:
        """``(a, b)`` of the cell, else of its group's pool, else no change."""
        for key in (f"{group}@{cell}", f"{group}@*"):
            if key in self.cells:
                return tuple(self.cells[key])
        return (0.0, 1.0)

    def p(self, contract: str, seat: int, p_dd: float) -> float:
        """The played P(win) of a call whose double-dummy P(win) is ``p_dd``."""
        a, b = self.coefficients(contract, seat)
        return float(_sigmoid(a + b * _logit(p_dd)))

    @property
    def has_cards(self) -> bool:
        """Whether the model was fitted on cards too (``calibrate --fit --cards N``)."""
        return any(key.startswith("t") for key in self.cells)

    def p_card(self, contract: str, trick: int, role: str, p_dd: float) -> float:
        """The played P(win) of the seat's side after a card whose double-dummy P(win)
        (over the deals its seat cannot tell apart) is ``p_dd``; ``role``: ``declarer``
        or ``defender`` (the seat's side against the declaring side)."""
        a, b = self.coefficients(f"t{trick}/{role}", contract)
        return float(_sigmoid(a + b * _logit(p_dd)))

    def to_json(self) -> str:
        return json.dumps({"version": MODEL_VERSION, "rules": self.rules,
                           "form": "logit(p_played) = a + b * logit(clip(p_dd, 0.01, 0.99))",
                           "cells": self.cells, "provenance": self.provenance}, indent=1)


def _fit_cell(x: np.ndarray, y: np.ndarray, prior: tuple[float, float],
              strength: float) -> tuple[float, float]:
    """Logistic regression of ``y`` on ``x`` (one feature and an intercept), with a
    Gaussian pull of weight ``strength`` toward ``prior``, by Newton's method.  With
    fewer than :data:`MIN_SLOPE` predictions only the intercept is fitted (the slope
    stays the prior's): a few bids, all of one kind, say little about the odds of others."""
    w = np.array(prior, dtype=np.float64)
    free = 2 if len(x) >= MIN_SLOPE else 1
    X = np.column_stack([np.ones_like(x), x])
    lam = strength / max(1, len(x))
    for _ in range(50):
        p = _sigmoid(X @ w)
        grad = (X.T @ (p - y) / len(x) + lam * (w - prior))[:free]
        hess = ((X.T * (p * (1 - p))) @ X / len(x) + lam * np.eye(2))[:free, :free]
        step = np.linalg.solve(hess, grad)
        w[:free] -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


def _fit_groups(rows: dict[tuple[str, object], list[tuple[float, bool]]]
                ) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Cells ``"group@cell"`` and pools ``"group@*"`` from ``{(group, cell): [(p, won)]}``:
    each pool fitted toward no change, each cell toward its pool."""
    cells: dict[str, list[float]] = {}
    counts: dict[str, int] = {}

    def xy(rs):
        return _logit([p for p, _ in rs]), np.array([w for _, w in rs], dtype=np.float64)

    for group in sorted({g for g, _ in rows}):
        pool = [r for (g, _), rs in rows.items() if g == group for r in rs]
        pooled = _fit_cell(*xy(pool), (0.0, 1.0), PRIOR_CONTRACT)
        cells[f"{group}@*"] = [round(v, 5) for v in pooled]
        counts[f"{group}@*"] = len(pool)
        for (g, cell), rs in sorted(rows.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            if g == group:
                cells[f"{g}@{cell}"] = [round(v, 5) for v in _fit_cell(*xy(rs), pooled,
                                                                      PRIOR_CELL)]
                counts[f"{g}@{cell}"] = len(rs)
    return cells, counts


def fit(predictions: Iterable, rules: RuleSet, provenance: dict) -> PlayedModel:
    """Fit the cells from predictions (``contract``, ``seat``, ``p``, ``won``, and for a
    card's prediction its ``trick`` and ``role``): a call's under its contract and seat,
    a card's under its trick and role, then contract."""
    rows: dict[tuple[str, object], list[tuple[float, bool]]] = {}
    for pr in predictions:
        key = (f"t{pr.trick}/{pr.role}", pr.contract) if pr.trick else (pr.contract, pr.seat)
        rows.setdefault(key, []).append((pr.p, pr.won))
    cells, counts = _fit_groups(rows)
    prov = dict(provenance, predictions=counts, date=datetime.date.today().isoformat(),
                model_version=MODEL_VERSION)
    return PlayedModel(rules.name, cells, prov)


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
    return Path(str(resources.files("cuatrola_solver.models") / "data" / f"played_{rules.name}.json"))


def load_model(rules: RuleSet, path: str | Path | None = None) -> PlayedModel:
    """The played-odds model of ``rules``' preset (or the file ``path``)."""
    p = Path(path) if path is not None else model_path(rules)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlayedModelError(f"played-odds model {str(p)!r} not found (fit one with "
                               f"cuatrola calibrate --fit RECORDS -o FILE, or use --model dd)"
                               ) from None
    except (OSError, ValueError) as e:
        raise PlayedModelError(f"played-odds model {str(p)!r} cannot be read: {e}") from None
    if not isinstance(obj, dict) or obj.get("version") != MODEL_VERSION:
        raise PlayedModelError(f"played-odds model {str(p)!r} is of another version "
                               f"(expected {MODEL_VERSION}); fit it again")
    if obj.get("rules") != rules.name:
        raise PlayedModelError(f"played-odds model {str(p)!r} is for rules "
                               f"{obj.get('rules')!r}, not {rules.name}")
    cells = obj.get("cells")
    if not isinstance(cells, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float))
                                                        and math.isfinite(x) for x in v)
            for v in cells.values()):
        raise PlayedModelError(f"played-odds model {str(p)!r} is corrupt: bad cells")
    return PlayedModel(obj["rules"], cells, obj.get("provenance", {}))
