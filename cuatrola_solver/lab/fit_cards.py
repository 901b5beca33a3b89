"""Fitting the card-play model (``cuatrola cardmodel``): the self-play players' cards, learnt.

The :class:`~cuatrola_solver.models.cardplay.CardModel` gives P(card | what the seat on
turn saw) as a softmax over its legal cards of a linear score of a few features of each
card (:func:`~cuatrola_solver.models.cardplay.features`), mixed with a share ``floor`` of
the uniform choice.  It is fitted (:func:`fit`, numpy: L2-regularised conditional
logistic regression by Newton's method) on every card the players of self-play records
chose (:func:`decisions`: a card with two legal cards or more, before the hand is
decided), as the bid model is fitted on their calls (:mod:`.fit_bids`).  The fit is
measured on held-out hands (a fifth of the hands, drawn with a seed) against the uniform
choice among the legal cards, and the floor is chosen there; the model is then refitted on
every hand, and the measure written into its provenance.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import numpy.typing as npt

from ..errors import LabError
from ..game.cards import cards_of
from ..game.jsonvalue import JSONObject, ParsedJSON
from ..game.rules import RuleSet, rules_spec
from ..i18n import _
from ..models.cardplay import (FEATURE_NAMES, MODEL_VERSION, CardModel, context_at, features,
                               probabilities)
from ..notation.record import HandRecord
from ..notation.replay import replay_cards
from .records import read_lab_records

__all__ = ["decisions", "read_decisions", "fit", "fit_measured", "CardMeasure", "FLOORS"]

#: the floors tried on the held-out hands (never 0: no deal is ruled out by one card)
FLOORS = (0.01, 0.02, 0.05, 0.1, 0.2)
#: the most cards a seat holds: the design's width
_WIDTH = 5
#: one card decision: the features of the seat's cards ``(5, F)``, which were legal, and
#: the index of the card played (see :func:`decisions`)
Decision = tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], int]


def decisions(rec: HandRecord) -> list[Decision]:
    """The card decisions of one record (every hand given, already checked, as
    :func:`~cuatrola_solver.lab.records.read_lab_records` gives them): for each card
    chosen among two legal cards or more, before the hand is decided or a renuncio,
    ``(x, legal, chosen)``: the features of the seat's cards (``(5, F)``, in canonical
    order, padded), which of them were legal, and the index of the card played."""
    rules = rec.rules
    out: list[Decision] = []
    played = 0
    for _, _, hand, card in replay_cards(rec):
        if hand.renuncios or hand.is_over():
            break
        pos = hand.play_position
        held = pos.hand(pos.to_play)
        legal = hand.legal_cards()
        if len(legal) >= 2 and card in legal:
            x, ok = features(np.array([held], dtype=np.uint32), context_at(pos, rules, played))
            mine = cards_of(held)
            xs = np.zeros((_WIDTH, len(FEATURE_NAMES)))
            ls = np.zeros(_WIDTH, dtype=bool)
            xs[:len(mine)] = x[0, mine]
            ls[:len(mine)] = ok[0, mine]
            out.append((xs, ls, mine.index(card)))
        played |= 1 << card
    return out


def read_decisions(paths: Iterable[str], rules: RuleSet
                   ) -> tuple[list[list[Decision]], list[JSONObject]]:
    """The decisions of every record of the files ``paths`` (self-play records, as
    ``selfplay --out`` writes them, read and checked by the lab's one reader), hand by
    hand in file order, and what each file is: its name, its hands, the self-play run
    that wrote it (its first record's ``lab.config``); a record of other rules is
    refused."""
    hands: list[list[Decision]] = []
    sources: list[JSONObject] = []
    for path in paths:
        before = len(hands)
        config = None
        for r in read_lab_records(str(path), require_lab=False):
            if r.record.rules != rules:
                raise LabError(_("{path}, line {line}: a record of rules {got}, not "
                                 "{rules}").format(path=path, line=r.line,
                                                   got=r.record.rules.name, rules=rules.name))
            if config is None and r.lab is not None:
                config = r.lab.get("config")
            hands.append(decisions(r.record))
        sources.append({"file": Path(str(path)).name, "hands": len(hands) - before,
                        "selfplay": config})
    return hands, sources


def _arrays(hands: list[list[Decision]]
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    rows = [d for h in hands for d in h]
    if not rows:
        return (np.zeros((0, _WIDTH, len(FEATURE_NAMES))), np.zeros((0, _WIDTH), dtype=bool),
                np.zeros(0, dtype=np.int64))
    return (np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]),
            np.array([r[2] for r in rows], dtype=np.int64))


def _fit_weights(x: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_],
                 y: npt.NDArray[np.int64], l2: float = 1e-3,
                 steps: int = 30) -> npt.NDArray[np.float64]:
    """Conditional logistic regression over the legal cards (no floor), Newton's method
    with an L2 pull toward 0 of weight ``l2`` per decision."""
    n, k, d = x.shape
    w = np.zeros(d)
    onehot = np.zeros((n, k))
    onehot[np.arange(n), y] = 1.0
    for _ in range(steps):
        p = probabilities(x, legal, w, 0.0)                  # (n, k)
        mean = np.einsum("nk,nkd->nd", p, x)                 # E[x] per decision
        grad = np.einsum("nk,nkd->d", onehot, x) - mean.sum(axis=0) - l2 * n * w
        xc = x - mean[:, None, :]
        hess = np.einsum("nk,nkd,nke->de", p, xc, xc) + l2 * n * np.eye(d)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _log_loss(x: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_],
              y: npt.NDArray[np.int64], w: npt.NDArray[np.float64], floor: float) -> float:
    p = probabilities(x, legal, w, floor)[np.arange(len(y)), y]
    return float(-np.log(p).mean())


def _uniform_loss(legal: npt.NDArray[np.bool_], y: npt.NDArray[np.int64]) -> float:
    return float(np.log(legal.sum(axis=1)).mean())


@dataclass(frozen=True)
class CardMeasure:
    """A card-play model measured on the held-out hands (rounded to 4 decimals, as its
    provenance keeps them), against the uniform choice among the legal cards; and the
    cards it was then fitted on (``cards_fitted``: every hand's)."""

    hands: int
    seed: int
    held_out_hands: int
    held_out_cards: int
    log_loss: float
    uniform_log_loss: float
    accuracy: float
    uniform_accuracy: float
    floor: float
    cards_fitted: int

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "seed": self.seed, "held_out_hands": self.held_out_hands,
                "held_out_cards": self.held_out_cards, "log_loss": self.log_loss,
                "uniform_log_loss": self.uniform_log_loss, "accuracy": self.accuracy,
                "uniform_accuracy": self.uniform_accuracy, "floor": self.floor,
                "cards_fitted": self.cards_fitted}


def fit(hands: list[list[Decision]], rules: RuleSet, provenance: ParsedJSON, seed: int = 1,
        held_out: float = 0.2) -> CardModel:
    """Fit on most of ``hands`` (the decisions of each hand, from :func:`decisions`),
    choose the floor and measure on the others (a share ``held_out`` of the hands, drawn
    with ``seed``), then refit on all."""
    return fit_measured(hands, rules, provenance, seed, held_out)[0]


def fit_measured(hands: list[list[Decision]], rules: RuleSet, provenance: ParsedJSON, seed: int = 1,
                 held_out: float = 0.2) -> tuple[CardModel, CardMeasure]:
    """:func:`fit`'s model and its measure on the held-out hands."""
    order = np.random.default_rng(seed).permutation(len(hands))
    cut = int(len(hands) * (1 - held_out))
    x, legal, y = _arrays([hands[i] for i in order[:cut]])
    tx, tlegal, ty = _arrays([hands[i] for i in order[cut:]])
    if len(y) < len(FEATURE_NAMES) or len(ty) == 0:
        raise LabError(_("too few card decisions to fit a card-play model ({fit} to fit, "
                         "{held} held out): give more self-play records").format(
            fit=len(y), held=len(ty)))
    w = _fit_weights(x, legal, y)
    losses = {f: _log_loss(tx, tlegal, ty, w, f) for f in FLOORS}
    floor = min(FLOORS, key=lambda f: (losses[f], f))
    p = probabilities(tx, tlegal, w, floor)
    ax, alegal, ay = _arrays(hands)
    measured = CardMeasure(len(hands), seed, len(hands) - cut, int(len(ty)),
                           round(losses[floor], 4), round(_uniform_loss(tlegal, ty), 4),
                           round(float(np.mean(np.argmax(p, axis=1) == ty)), 4),
                           round(float(np.mean(1.0 / tlegal.sum(axis=1))), 4), floor,
                           int(len(ay)))
    w = _fit_weights(ax, alegal, ay)
    prov = dict(provenance, **measured.to_dict(), date=datetime.date.today().isoformat(),
                model_version=MODEL_VERSION)
    model = CardModel(json.dumps(rules_spec(rules)), tuple(float(v) for v in w), floor, prov)
    return model, measured
