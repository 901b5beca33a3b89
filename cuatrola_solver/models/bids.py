"""What the calls reveal: a bid model and the weight it gives each hidden deal.

A seat that passed seldom holds a sure solo; a seat that bid solo holds a strong hand.
The :class:`BidModel` gives P(call | hand, seat, calls before): a softmax over the calls
legal at that moment of a linear score of a few features of the hand and of the
auction (:func:`features`).  It is fitted by the lab
(:mod:`cuatrola_solver.lab.fit_bids`) on the calls of the **advisor bidder**.  One model
per preset ships in ``cuatrola_solver/models/data/`` with how it was made and how well it
predicts held-out calls (log-loss against the base rates).

Given the calls made so far, each deal of the hidden hands gets the weight
``prod P(call_i | hand_i, ...)`` over the calls of the seats whose hands are hidden
(:func:`call_weights`, vectorised over deals); odds become weighted means and the
intervals use the effective sample size ``(sum w)^2 / sum w^2``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from ..game.auction import CALLS, Auction
from ..game.cards import NUM_CARDS, points_of
from ..game.jsonvalue import ParsedJSON
from ..game.match import Score
from ..game.play import partner_of
from ..game.rules import RuleSet
from ..hidden.deals import distinct_hands
from ..hidden.knowledge import Deals, Weights
from .store import corrupt, data_path, read

__all__ = ["BidModel", "features", "FEATURE_NAMES", "call_weights", "legal_calls",
           "load_model", "model_path", "effective_size", "MODEL_VERSION"]

MODEL_VERSION = 1
_POINTS = np.array([points_of(c) for c in range(NUM_CARDS)], dtype=np.float64)
_BITS = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint32)

FEATURE_NAMES = (
    "bias", "trumps", "trump_as", "trump_tres", "trump_rey", "trump_caballo", "aces",
    "treses", "points/10", "seat1", "seat2", "seat3", "standing_solo", "standing_higher",
    "partner_bid", "bid_at_stake/5",
)


def _bits(masks: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """(n, 20) 0/1 matrix of the cards in each mask."""
    bits: npt.NDArray[np.float64] = (
        (np.asarray(masks, dtype=np.uint32)[:, None] & _BITS[None, :]) != 0).astype(np.float64)
    return bits


def features(hands: npt.ArrayLike, trump: int, seat: int, calls: Sequence[str],
             rules: RuleSet) -> npt.NDArray[np.float64]:
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


def _auction(calls: Sequence[str], rules: RuleSet, score: Score | None = None) -> Auction:
    """The auction after ``calls`` (checked: a refused call raises IllegalBidError)."""
    a = Auction(rules, score)
    for c in calls:
        a.call(c)
    return a


@dataclass(frozen=True)
class BidModel:
    """P(call | features, legal calls) = softmax of ``weights[call] . x`` over the legal calls."""

    rules: str                     # the rules it was fitted for (rules_spec, as JSON text)
    weights: Mapping[str, Sequence[float]]     # call -> len(FEATURE_NAMES) floats
    provenance: ParsedJSON

    def probabilities(self, x: npt.NDArray[np.float64],
                      legal: Sequence[str]) -> npt.NDArray[np.float64]:
        """(n, len(legal)) probabilities of each legal call."""
        w = np.array([self.weights.get(c, [0.0] * x.shape[1]) for c in legal])
        z = x @ w.T
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return p

    def to_json(self) -> str:
        return json.dumps({"version": MODEL_VERSION, "rules": json.loads(self.rules),
                           "features": list(FEATURE_NAMES), "weights": self.weights,
                           "provenance": self.provenance}, indent=1)


def legal_calls(rules: RuleSet, calls: Sequence[str], score: Score | None = None) -> list[str]:
    """The calls legal after ``calls`` (a bid model weighs only those)."""
    return _auction(calls, rules, score).legal_calls()


def call_weights(deals: Deals, trump: int, calls: Sequence[str], seats: Sequence[int],
                 rules: RuleSet, model: BidModel, score: Score | None = None) -> Weights:
    """The weight of each deal (rows of four dealt-hand masks, seats 1..4): the product
    over ``seats`` (the seats whose hands are hidden and who have spoken) of the model's
    probability of the call each made."""
    deals = np.asarray(deals)
    w = np.ones(len(deals))
    for i, call in enumerate(calls):
        seat = i + 1
        if seat not in seats:
            continue
        legal = legal_calls(rules, calls[:i], score)
        if call not in legal:
            continue            # a call the rules refuse tells the model nothing
        # a seat's call depends on its own hand only: the model is evaluated once per
        # distinct hand (a few thousand among the layouts of an exact advice)
        hands, where = distinct_hands(deals[:, seat - 1])
        x = features(hands, trump, seat, calls[:i], rules)
        w *= model.probabilities(x, legal)[:, legal.index(call)][where]
    return w


def effective_size(w: Weights) -> float:
    """(sum w)^2 / sum w^2: how many equally weighted deals the weights are worth."""
    s2 = float(np.sum(np.square(w)))
    return float(np.sum(w)) ** 2 / s2 if s2 > 0 else 0.0


# --- loading ------------------------------------------------------------------------------

def model_path(rules: RuleSet) -> Path:
    """Where the package keeps the bid model of ``rules``' preset."""
    return data_path("bids", rules.name)


def load_model(rules: RuleSet, path: str | Path | None = None) -> BidModel:
    """The bid model of ``rules``' preset (or the file ``path``); ModelError when it is
    missing, corrupt, or for another preset or version."""
    obj, p = read("bids", rules, model_path(rules) if path is None else path)
    if obj.get("features") != list(FEATURE_NAMES) or not isinstance(obj.get("weights"), dict):
        raise corrupt("bids", p, "features or weights do not match")
    for c, ws in obj["weights"].items():
        if c not in CALLS or not isinstance(ws, list) or len(ws) != len(FEATURE_NAMES) \
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and math.isfinite(v) for v in ws):
            raise corrupt("bids", p, f"bad weights for {c!r}")
    return BidModel(json.dumps(obj["rules"]), obj["weights"], obj.get("provenance", {}))
