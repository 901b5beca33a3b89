"""What the calls reveal: a bid model and the weight it gives each hidden deal.

A seat that passed seldom holds a sure solo; a seat that bid solo holds a strong hand.
The :class:`BidModel` gives P(call | hand, seat, calls before): a softmax over the calls
legal at that moment of a linear score of a few features of the hand and of the
auction (:func:`features`).  It is fitted (:func:`fit`, numpy, L2-regularised
multinomial logistic regression) on the calls of the **advisor bidder**: on seeded
random deals each seat in turn calls what :func:`~cuatrola_solver.advisor.advise`
advises from its own cards on a small budget (:func:`advisor_calls`), as the lab's
``pimc`` players bid.  One model per preset ships in ``cuatrola_solver/data/`` with how
it was made and how well it predicts held-out calls (log-loss against the base rates).

Given the calls made so far, each deal of the hidden hands gets the weight
``prod P(call_i | hand_i, ...)`` over the calls of the seats whose hands are hidden
(:func:`call_weights`, vectorised over deals); odds become weighted means and the
intervals use the effective sample size ``(sum w)^2 / sum w^2``.
"""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Sequence

import numpy as np

from ..game.auction import Auction, CALLS
from ..game.cards import NUM_CARDS, points_of
from ..errors import CuatrolaError
from ..game.play import partner_of
from ..game.rules import RuleSet, get_rules, rules_spec

__all__ = ["BidModel", "features", "FEATURE_NAMES", "call_weights", "advisor_calls", "fit",
           "load_model", "ModelError", "effective_size"]

MODEL_VERSION = 1
_POINTS = np.array([points_of(c) for c in range(NUM_CARDS)], dtype=np.float64)
_BITS = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint32)

FEATURE_NAMES = (
    "bias", "trumps", "trump_as", "trump_tres", "trump_rey", "trump_caballo", "aces",
    "treses", "points/10", "seat1", "seat2", "seat3", "standing_solo", "standing_higher",
    "partner_bid", "bid_at_stake/5",
)


class ModelError(CuatrolaError):
    """A bid model file that is missing, corrupt, or for other rules or another version."""


def _bits(masks: np.ndarray) -> np.ndarray:
    """(n, 20) 0/1 matrix of the cards in each mask."""
    return ((np.asarray(masks, dtype=np.uint32)[:, None] & _BITS[None, :]) != 0).astype(np.float64)


def features(hands: np.ndarray, trump: int, seat: int, calls: Sequence[str],
             rules: RuleSet) -> np.ndarray:
    """The features (:data:`FEATURE_NAMES`) of seat ``seat`` holding each of ``hands``
    (dealt masks, one per row) when it speaks after ``calls``."""
    bits = _bits(hands)
    n = len(bits)
    t = trump * 5                            # cards are suit * 5 + rank: S C R 3 A
    trump_bits = bits[:, t:t + 5][:, ::-1]   # as, tres, rey, caballo, sota
    plain = [s for s in range(4) if s != trump]
    aces = sum(bits[:, s * 5 + 4] for s in plain)
    treses = sum(bits[:, s * 5 + 3] for s in plain)
    auction = _auction(calls, rules)
    highest, bidder = auction.highest, auction.bidder
    x = np.zeros((n, len(FEATURE_NAMES)))
    x[:, 0] = 1.0
    x[:, 1] = trump_bits.sum(axis=1)
    x[:, 2:6] = trump_bits[:, 0:4]
    x[:, 6] = aces
    x[:, 7] = treses
    x[:, 8] = bits @ _POINTS / 10.0
    if seat < 4:
        x[:, 8 + seat] = 1.0
    x[:, 12] = float(highest == "solo")
    x[:, 13] = float(highest not in ("paso", "solo"))
    x[:, 14] = float(bidder is not None and bidder == partner_of(seat))
    x[:, 15] = {"paso": 0, "solo": 2, "contrasolo": 4, "cuatrola": 4, "quintola": 5}[highest] / 5
    return x


def _auction(calls: Sequence[str], rules: RuleSet, score=None) -> Auction:
    """The auction after ``calls`` (checked: a refused call raises IllegalBidError)."""
    a = Auction(rules, score)
    for c in calls:
        a.call(c)
    return a


@dataclass(frozen=True)
class BidModel:
    """P(call | features, legal calls) = softmax of ``weights[call] . x`` over the legal calls."""

    rules: str                     # the rules it was fitted for (rules_spec, as JSON text)
    weights: dict                  # call -> list of len(FEATURE_NAMES) floats
    provenance: dict

    def probabilities(self, x: np.ndarray, legal: Sequence[str]) -> np.ndarray:
        """(n, len(legal)) probabilities of each legal call."""
        w = np.array([self.weights.get(c, [0.0] * x.shape[1]) for c in legal])
        z = x @ w.T
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def to_json(self) -> str:
        return json.dumps({"version": MODEL_VERSION, "rules": json.loads(self.rules),
                           "features": list(FEATURE_NAMES), "weights": self.weights,
                           "provenance": self.provenance}, indent=1)


def _legal(rules: RuleSet, calls: Sequence[str], score=None) -> list[str]:
    return _auction(calls, rules, score).legal_calls()


def call_weights(deals: np.ndarray, trump: int, calls: Sequence[str], seats: Sequence[int],
                 rules: RuleSet, model: BidModel, score=None) -> np.ndarray:
    """The weight of each deal (rows of four dealt-hand masks, seats 1..4): the product
    over ``seats`` (the seats whose hands are hidden and who have spoken) of the model's
    probability of the call each made."""
    deals = np.asarray(deals)
    w = np.ones(len(deals))
    for i, call in enumerate(calls):
        seat = i + 1
        if seat not in seats:
            continue
        legal = _legal(rules, calls[:i], score)
        if call not in legal:
            continue            # a call the rules refuse tells the model nothing
        x = features(deals[:, seat - 1], trump, seat, calls[:i], rules)
        w *= model.probabilities(x, legal)[:, legal.index(call)]
    return w


def effective_size(w: np.ndarray) -> float:
    """(sum w)^2 / sum w^2: how many equally weighted deals the weights are worth."""
    s2 = float(np.sum(np.square(w)))
    return float(np.sum(w)) ** 2 / s2 if s2 > 0 else 0.0


# --- fitting -----------------------------------------------------------------------------

def advisor_calls(deals: int, rules: RuleSet, seed: int, samples: int = 300,
                  progress=None) -> list[dict]:
    """The advisor bidder on ``deals`` seeded random deals: every call with its context
    (dealt hand mask, trump, seat, calls before, legal calls)."""
    from ..advice.bidding import advise
    from ..advice.budget import Budget
    from ..game.cards import mask_of, random_deal
    from ..game.view import View
    from .preset import Models
    out = []
    for i in range(deals):
        rng = random.Random(f"{seed}/bids/{i}")
        hands, muestra = random_deal(rng)
        calls: list[str] = []
        for seat in (1, 2, 3, 4):
            legal = _legal(rules, calls)
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


# --- loading ------------------------------------------------------------------------------

def model_path(rules: RuleSet) -> Path:
    return Path(str(resources.files("cuatrola_solver.models") / "data" / f"bids_{rules.name}.json"))


def load_model(rules: RuleSet, path: str | Path | None = None) -> BidModel:
    """The bid model of ``rules``' preset (or the file ``path``); ModelError when it is
    missing, corrupt, or for another preset or version."""
    p = Path(path) if path is not None else model_path(rules)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"bid model {str(p)!r} not found (make it with cuatrola bidmodel "
                         f"--rules {rules.name}, or use --no-inference)") from None
    except (OSError, ValueError) as e:
        raise ModelError(f"bid model {str(p)!r} cannot be read: {e}") from None
    if not isinstance(obj, dict) or obj.get("version") != MODEL_VERSION:
        raise ModelError(f"bid model {str(p)!r} is of another version (expected "
                         f"{MODEL_VERSION}); remake it")
    if obj.get("features") != list(FEATURE_NAMES) or not isinstance(obj.get("weights"), dict):
        raise ModelError(f"bid model {str(p)!r} is corrupt: features or weights do not match")
    model_rules = get_rules(obj.get("rules")) if obj.get("rules") is not None else None
    if model_rules is None or model_rules.name != rules.name:
        raise ModelError(f"bid model {str(p)!r} is for rules "
                         f"{obj.get('rules')!r}, not {rules.name}")
    for c, ws in obj["weights"].items():
        if c not in CALLS or not isinstance(ws, list) or len(ws) != len(FEATURE_NAMES) \
                or not all(isinstance(v, (int, float)) for v in ws):
            raise ModelError(f"bid model {str(p)!r} is corrupt: bad weights for {c!r}")
    return BidModel(json.dumps(obj["rules"]), obj["weights"], obj.get("provenance", {}))
