"""Fitting the played-odds model (``cuatrola calibrate --fit``).

The :class:`~cuatrola_solver.models.played.PlayedModel` maps the double-dummy P(win) of a
call (or of a card) to the played one, ``logit(p_played) = a + b * logit(p_dd)``, per
cell: a contract and the caller's seat (``"solo@4"``), or for cards a trick and role,
then contract (``"t2/defender@solo"``).  :func:`fit` fits every cell by penalised
logistic regression on the predictions of self-play records with their outcomes
(:mod:`cuatrola_solver.lab.calibration`): each group's pool (``"solo@*"``) is pulled
toward no change (``a = 0, b = 1``) with the weight of :data:`PRIOR_CONTRACT`
pseudo-predictions, each cell toward its pool with :data:`PRIOR_CELL`; a cell with fewer
than :data:`MIN_SLOPE` predictions fits its intercept only.  A contract of
:data:`~cuatrola_solver.models.played.NESTED` (quintola) is fitted after the one it implies
(cuatrola), as a shift ``d <= 0`` of that one's intercept seat by seat (the slope kept), its
pool toward no shift and each seat toward the pool: the most likely ``d`` under that
bound, so that its played P(win) is never above the other's.
"""

from __future__ import annotations

import datetime
from typing import Iterable

import numpy as np

from ..game.rules import RuleSet
from ..game.seats import SEATS
from ..game.jsonvalue import ParsedJSON
from ..models.played import MODEL_VERSION, NESTED, PlayedModel, logit, sigmoid
from .calibration import Prediction

__all__ = ["fit", "PRIOR_CELL", "PRIOR_CONTRACT", "MIN_SLOPE"]

#: strength of the pull of a cell toward its contract's fit, and of that toward no change
#: (in pseudo-hands)
PRIOR_CELL = 8.0
PRIOR_CONTRACT = 4.0
#: a cell's slope is fitted from this many predictions on (else only its intercept)
MIN_SLOPE = 200


#: predictions by cell: ``{(group, cell): [(p, won)]}``
Rows = dict[tuple[str, object], list[tuple[float, bool]]]


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
        p = sigmoid(X @ w)
        grad = (X.T @ (p - y) / len(x) + lam * (w - prior))[:free]
        hess = ((X.T * (p * (1 - p))) @ X / len(x) + lam * np.eye(2))[:free, :free]
        step = np.linalg.solve(hess, grad)
        w[:free] -= step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1])


def _fit_shift(base: np.ndarray, y: np.ndarray, prior: float, strength: float) -> float:
    """The shift ``d <= 0`` of the logits ``base`` that best fits ``y`` (outcomes), with a
    Gaussian pull of weight ``strength`` toward ``prior``: the penalised log-likelihood is
    concave in ``d``, so its maximum under the bound is the free maximum or 0."""
    d = prior
    lam = strength / max(1, len(base))
    for _ in range(50):
        p = sigmoid(base + d)
        grad = (float(np.sum(p - y)) / len(base) if len(base) else 0.0) + lam * (d - prior)
        hess = (float(np.sum(p * (1 - p))) / len(base) if len(base) else 0.0) + lam
        step = grad / hess
        d -= step
        if abs(step) < 1e-9:
            break
    return min(d, 0.0)


def _fit_nested(group: str, rows: Rows, cells: dict[str, list[float]],
                counts: dict[str, int]) -> None:
    """Cells ``"quintola@1"`` .. ``"quintola@4"`` (every seat) as shifts of the cells of the
    contract they imply, which ``cells`` already holds (see :func:`_fit_shift`)."""
    base_model = PlayedModel("", cells, {})
    coef = {s: base_model.coefficients(NESTED[group], s) for s in SEATS}

    def xy(seats: Iterable[int]) -> tuple[np.ndarray, np.ndarray]:
        rs = [(s, p, w) for s in seats for p, w in rows.get((group, s), ())]
        base = np.array([coef[s][0] + coef[s][1] * float(logit(p)) for s, p, _ in rs])
        return base, np.array([w for _, _, w in rs], dtype=np.float64)

    pooled = _fit_shift(*xy(SEATS), 0.0, PRIOR_CONTRACT)
    for s in SEATS:
        a, b = coef[s]
        cells[f"{group}@{s}"] = [round(a + _fit_shift(*xy([s]), pooled, PRIOR_CELL), 5), b]
        counts[f"{group}@{s}"] = len(rows.get((group, s), ()))


def _fit_groups(rows: Rows
                ) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Cells ``"group@cell"`` and pools ``"group@*"`` from ``{(group, cell): [(p, won)]}``:
    each pool fitted toward no change, each cell toward its pool."""
    cells: dict[str, list[float]] = {}
    counts: dict[str, int] = {}

    def xy(rs: Iterable[tuple[float, bool]]) -> tuple[np.ndarray, np.ndarray]:
        return logit([p for p, _ in rs]), np.array([w for _, w in rs], dtype=np.float64)

    for group in sorted({g for g, _ in rows} - set(NESTED)):
        pool = [r for (g, _), rs in rows.items() if g == group for r in rs]
        pooled = _fit_cell(*xy(pool), (0.0, 1.0), PRIOR_CONTRACT)
        cells[f"{group}@*"] = [round(v, 5) for v in pooled]
        counts[f"{group}@*"] = len(pool)
        for (g, cell), rs in sorted(rows.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            if g == group:
                cells[f"{g}@{cell}"] = [round(v, 5) for v in _fit_cell(*xy(rs), pooled,
                                                                      PRIOR_CELL)]
                counts[f"{g}@{cell}"] = len(rs)
    for group in sorted(NESTED):
        if any(g == group for g, _ in rows):
            _fit_nested(group, rows, cells, counts)
    return cells, counts


def fit(predictions: Iterable[Prediction], rules: RuleSet, provenance: ParsedJSON) -> PlayedModel:
    """Fit the cells from predictions (``contract``, ``seat``, ``p``, ``won``, and for a
    card's prediction its ``trick`` and ``role``): a call's under its contract and seat,
    a card's under its trick and role, then contract."""
    rows: Rows = {}
    for pr in predictions:
        key = (f"t{pr.trick}/{pr.role}", pr.contract) if pr.trick else (pr.contract, pr.seat)
        rows.setdefault(key, []).append((pr.p, pr.won))
    cells, counts = _fit_groups(rows)
    prov = dict(provenance, predictions=counts, date=datetime.date.today().isoformat(),
                model_version=MODEL_VERSION)
    return PlayedModel(rules.name, cells, prov)
