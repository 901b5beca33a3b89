"""Fitting the bid model (``cuatrola bidmodel``): the advisor bidder's calls, learnt.

The :class:`~cuatrola_solver.models.bids.BidModel` gives P(call | hand, seat, calls
before) as a softmax over the legal calls of a linear score of a few features
(:func:`~cuatrola_solver.models.bids.features`).  It is fitted (:func:`fit`, numpy,
L2-regularised multinomial logistic regression) on the calls of the **advisor bidder**:
on seeded random deals each seat in turn calls what
:func:`~cuatrola_solver.advice.bidding.advise` advises from its own cards on a small
budget (:func:`advisor_calls`), as the lab's ``pimc`` players bid.  The fit is measured on
held-out deals (log-loss against the base rates) and written into the model's provenance.
"""

from __future__ import annotations

import datetime
import json
import random

import numpy as np

from ..advice.bidding import advise
from ..advice.budget import Budget
from ..errors import CuatrolaError
from ..game.auction import CALLS
from ..game.cards import mask_of, random_deal
from ..game.rules import RuleSet, rules_spec
from ..game.view import View
from ..models.bids import FEATURE_NAMES, MODEL_VERSION, BidModel, features, legal_calls
from ..models.preset import Models

__all__ = ["advisor_calls", "read_calls", "fit"]


def advisor_calls(deals: int, rules: RuleSet, seed: int, samples: int = 300,
                  progress=None) -> list[dict]:
    """The advisor bidder on ``deals`` seeded random deals: every call with its context
    (dealt hand mask, trump, seat, calls before, legal calls)."""
    out = []
    for i in range(deals):
        rng = random.Random(f"{seed}/bids/{i}")
        hands, muestra = random_deal(rng)
        calls: list[str] = []
        for seat in (1, 2, 3, 4):
            legal = legal_calls(rules, calls)
            view = View(rules, seat, mask_of(hands[seat - 1]), muestra, tuple(calls))
            advice = advise(view, Budget(samples=samples, seed=rng.getrandbits(62), workers=1),
                            Models.NONE)
            call = advice.advice if advice.advice in legal else "paso"
            out.append({"hand": mask_of(hands[seat - 1]), "trump": muestra // 5, "seat": seat,
                        "before": list(calls), "legal": legal, "call": call})
            calls.append(call)
        if progress:
            progress(i + 1, deals)
    return out


def read_calls(path, rules: RuleSet) -> list[dict]:
    """The calls kept by ``cuatrola bidmodel --calls`` (one JSON object a line)."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            try:
                r = json.loads(line)
                ok = (isinstance(r, dict) and {"hand", "trump", "seat", "before", "legal",
                                               "call"} <= set(r) and r["call"] in CALLS)
            except ValueError:
                ok = False
            if not ok:
                raise CuatrolaError(f"{path}, line {i}: not a call of cuatrola bidmodel --calls")
            rows.append(r)
    if len(rows) % 4:
        raise CuatrolaError(f"{path}: {len(rows)} calls, not four per deal")
    return rows


def _design(rows: list[dict], rules: RuleSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, legal-call mask and chosen-call index over :data:`CALLS`."""
    x = np.zeros((len(rows), len(FEATURE_NAMES)))
    groups: dict[tuple, list[int]] = {}       # one features() call per context, not per row
    for i, r in enumerate(rows):
        groups.setdefault((r["trump"], r["seat"], tuple(r["before"])), []).append(i)
    for (trump, seat, before), idx in groups.items():
        x[idx] = features(np.array([rows[i]["hand"] for i in idx]), trump, seat, before, rules)
    legal = np.array([[c in r["legal"] for c in CALLS] for r in rows])
    y = np.array([CALLS.index(r["call"]) for r in rows])
    return x, legal, y


def _log_loss(w: np.ndarray, x, legal, y) -> float:
    z = np.where(legal, x @ w.T, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def _fit_weights(x, legal, y, l2: float = 1e-3, steps: int = 3000, lr: float = 0.5) -> np.ndarray:
    """Multinomial logistic regression over the legal calls, by gradient descent."""
    n, d = x.shape
    w = np.zeros((len(CALLS), d))
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    onehot = np.zeros((n, len(CALLS)))
    onehot[np.arange(n), y] = 1.0
    for _ in range(steps):
        z = np.where(legal, xs @ w.T, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot).T @ xs / n + l2 * w
        w -= lr * grad
    return w / scale[None, :]


def _base_loss(legal, y, train_y) -> float:
    """Log-loss of the base rates (the share of each call in training, among the legal)."""
    rates = np.bincount(train_y, minlength=len(CALLS)) + 1.0
    p = np.where(legal, rates[None, :], 0.0)
    p /= p.sum(axis=1, keepdims=True)
    return float(-np.log(p[np.arange(len(y)), y]).mean())


def fit(rows: list[dict], rules: RuleSet, provenance: dict, held_out: float = 0.2) -> BidModel:
    """Fit on the first part of ``rows`` (by deal), measure on the rest, then refit on all."""
    x, legal, y = _design(rows, rules)
    deals = len(rows) // 4
    cut = 4 * int(deals * (1 - held_out))
    w = _fit_weights(x[:cut], legal[:cut], y[:cut])
    test = slice(cut, None)
    measured = {"held_out_calls": int(len(y) - cut),
                "log_loss": round(_log_loss(w, x[test], legal[test], y[test]), 4),
                "base_rate_log_loss": round(_base_loss(legal[test], y[test], y[:cut]), 4),
                "accuracy": round(float(np.mean(np.argmax(np.where(legal[test], x[test] @ w.T,
                                                                    -np.inf), axis=1)
                                                 == y[test])), 4),
                "calls_seen": {c: int(np.sum(y == i)) for i, c in enumerate(CALLS)}}
    w = _fit_weights(x, legal, y)
    weights = {c: [round(float(v), 6) for v in w[i]] for i, c in enumerate(CALLS)}
    prov = dict(provenance, **measured, date=datetime.date.today().isoformat(),
                model_version=MODEL_VERSION)
    return BidModel(json.dumps(rules_spec(rules)), weights, prov)
