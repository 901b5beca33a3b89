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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from ..advice.bidding import advise
from ..advice.budget import Budget
from ..errors import CuatrolaError, LabError, quote
from ..game.auction import CALLS
from ..game.cards import NUM_CARDS, cards_of, format_cards, mask_of, popcount, random_deal, suit_of
from ..game.jsonvalue import ParsedJSON
from ..game.rules import RuleSet, rules_spec
from ..game.view import View
from ..i18n import N_, _, ngettext
from ..models.bids import FEATURE_NAMES, MODEL_VERSION, BidModel, features, legal_calls
from ..models.preset import Models
from .records import Fields, json_lines

__all__ = ["advisor_calls", "read_calls", "fit", "fit_measured", "BidMeasure"]


def advisor_calls(deals: int, rules: RuleSet, seed: int, samples: int = 300,
                  progress: Callable[[int, int], None] | None = None) -> list[ParsedJSON]:
    """The advisor bidder on ``deals`` seeded random deals: every call with its context
    (dealt hand mask, trump, seat, calls before, legal calls)."""
    out: list[ParsedJSON] = []
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


#: the fewest deals a fit takes (as ``bidmodel --deals``): a fifth of them is held out
MIN_DEALS = 50


def read_calls(path: str | Path, rules: RuleSet) -> list[ParsedJSON]:
    """The calls kept by ``cuatrola bidmodel --calls`` (one JSON object a line, four a
    deal, as :func:`advisor_calls` gives them), each checked field by field and against
    the deal and the rules: a hand of five cards, the seats in order, the calls before
    those of the deal, the legal calls those of the rules after them, the call one of
    them, the four hands apart, the muestra's suit in seat 4's hand.  Anything else, an
    empty file or fewer than :data:`MIN_DEALS` deals raises :class:`LabError` naming
    the file and line."""
    rows: list[ParsedJSON] = []
    deal: list[ParsedJSON] = []
    for n, obj, _line in json_lines(str(path), what=N_("calls file"), kind="call",
                                   error=LabError):
        deal.append(_checked_call(obj, _("{where}, line {n}").format(where=path, n=n), rules, deal))
        if len(deal) == 4:
            rows += deal
            deal = []
    if deal:
        raise LabError(ngettext("{path}: the last deal has {n} call, not four (one per seat)",
                                "{path}: the last deal has {n} calls, not four (one per seat)",
                                len(deal)).format(path=path, n=len(deal)))
    if len(rows) < 4 * MIN_DEALS:
        found = len(rows) // 4
        if not rows:
            raise LabError(_("{path}: no calls: a fit takes {min} deals at least (four calls "
                             "each, as bidmodel --calls keeps them)").format(path=path,
                                                                           min=MIN_DEALS))
        raise LabError(ngettext("{path}: {n} deal: a fit takes {min} deals at least (four calls "
                                "each, as bidmodel --calls keeps them)",
                                "{path}: {n} deals: a fit takes {min} deals at least (four calls "
                                "each, as bidmodel --calls keeps them)",
                                found).format(path=path, n=found, min=MIN_DEALS))
    return rows


def _checked_call(obj: ParsedJSON, where: str, rules: RuleSet, deal: list[ParsedJSON]
                  ) -> ParsedJSON:
    """One call of a calls file, checked against the calls of its deal before it."""
    f = Fields(where)
    f.obj(obj, "the call", ("hand", "trump", "seat", "before", "legal", "call"))
    hand = f.integer(obj["hand"], "hand", 0, (1 << NUM_CARDS) - 1,
                     N_("a hand: a mask of 5 of the 20 cards"))
    if popcount(hand) != 5:
        raise LabError(_("{where}, hand: {n} cards ({cards}): expected a hand of 5").format(
            where=where, n=popcount(hand), cards=format_cards(cards_of(hand))))
    trump = f.integer(obj["trump"], "trump", 0, 3, N_("the trump suit, 0 to 3"))
    seat = f.seat(obj["seat"], "seat")
    before = [f.call(c, f"before[{i}]") for i, c in
              enumerate(f.items(obj["before"], "before", N_("calls")))]
    legal = [f.call(c, f"legal[{i}]") for i, c in
             enumerate(f.items(obj["legal"], "legal", N_("calls")))]
    call = f.call(obj["call"], "call")
    if seat != len(deal) + 1:
        raise LabError(_("{where}: a call of seat {seat} where seat {expected}'s was expected "
                         "(four calls a deal, seats 1 to 4)").format(
            where=where, seat=seat, expected=len(deal) + 1))
    if before != [r["call"] for r in deal]:
        raise LabError(_("{where}, before: {before} here, but the deal's calls before seat "
                         "{seat} are {calls}").format(
            where=where, before=' '.join(before) or _("no call"), seat=seat,
            calls=' '.join(r['call'] for r in deal) or _("none")))
    if deal and trump != deal[0]["trump"]:
        raise LabError(_("{where}, trump: {trump} here, {first} in the deal's first call").format(
            where=where, trump=trump, first=deal[0]['trump']))
    if any(hand & r["hand"] for r in deal):
        raise LabError(_("{where}, hand: a card of it is in another seat's hand of the "
                         "deal").format(where=where))
    if seat == 4 and not any(suit_of(c) == trump for c in cards_of(hand)):
        raise LabError(_("{where}, hand: seat 4, the dealer, holds the muestra, but has no card "
                         "of the trump suit").format(where=where))
    if legal != legal_calls(rules, before):
        raise LabError(_("{where}, legal: {legal} here, but after {before} the rules of {rules} "
                         "allow {allowed}").format(
            where=where, legal=' '.join(legal) or _("none"),
            before=' '.join(before) or _("no call"), rules=rules.name,
            allowed=' '.join(legal_calls(rules, before))))
    if call not in legal:
        raise LabError(_("{where}, call: {call} is not one of the legal calls ({legal})").format(
            where=where, call=quote(call), legal=' '.join(legal)))
    return obj


def _design(rows: list[ParsedJSON], rules: RuleSet
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Features, legal-call mask and chosen-call index over :data:`CALLS`."""
    x = np.zeros((len(rows), len(FEATURE_NAMES)))
    # one features() call per context, not per row
    groups: dict[tuple[int, int, tuple[str, ...]], list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault((r["trump"], r["seat"], tuple(r["before"])), []).append(i)
    for (trump, seat, before), idx in groups.items():
        x[idx] = features(np.array([rows[i]["hand"] for i in idx]), trump, seat, before, rules)
    legal = np.array([[c in r["legal"] for c in CALLS] for r in rows])
    y = np.array([CALLS.index(r["call"]) for r in rows])
    return x, legal, y


def _log_loss(w: npt.NDArray[np.float64], x: npt.NDArray[np.float64],
              legal: npt.NDArray[np.bool_], y: npt.NDArray[np.int64]) -> float:
    z = np.where(legal, x @ w.T, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def _fit_weights(x: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_],
                 y: npt.NDArray[np.int64], l2: float = 1e-3, steps: int = 3000,
                 lr: float = 0.5) -> npt.NDArray[np.float64]:
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
    unscaled: npt.NDArray[np.float64] = w / scale[None, :]
    return unscaled


def _base_loss(legal: npt.NDArray[np.bool_], y: npt.NDArray[np.int64],
               train_y: npt.NDArray[np.int64]) -> float:
    """Log-loss of the base rates (the share of each call in training, among the legal)."""
    rates = np.bincount(train_y, minlength=len(CALLS)) + 1.0
    p = np.where(legal, rates[None, :], 0.0)
    p /= p.sum(axis=1, keepdims=True)
    return float(-np.log(p[np.arange(len(y)), y]).mean())


@dataclass(frozen=True)
class BidMeasure:
    """A bid model measured on the held-out deals (rounded to 4 decimals, as its
    provenance keeps them): the calls held out, the log-loss of the model and of the
    base rates, the accuracy, and how often each call was seen."""

    held_out_calls: int
    log_loss: float
    base_rate_log_loss: float
    accuracy: float
    calls_seen: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"held_out_calls": self.held_out_calls, "log_loss": self.log_loss,
                "base_rate_log_loss": self.base_rate_log_loss, "accuracy": self.accuracy,
                "calls_seen": dict(self.calls_seen)}


def fit(rows: list[ParsedJSON], rules: RuleSet, provenance: ParsedJSON,
        held_out: float = 0.2) -> BidModel:
    """Fit on the first part of ``rows`` (by deal), measure on the rest, then refit on all
    (two deals at least: one to fit, one to measure)."""
    return fit_measured(rows, rules, provenance, held_out)[0]


def fit_measured(rows: list[ParsedJSON], rules: RuleSet, provenance: ParsedJSON,
                 held_out: float = 0.2) -> tuple[BidModel, BidMeasure]:
    """:func:`fit`'s model and its measure on the held-out deals."""
    deals = len(rows) // 4
    if deals < 2 or len(rows) % 4:
        raise CuatrolaError(_("a bid model is fitted on two deals at least, four calls each: "
                              "got {n} calls").format(n=len(rows)))
    x, legal, y = _design(rows, rules)
    cut = 4 * int(deals * (1 - held_out))
    w = _fit_weights(x[:cut], legal[:cut], y[:cut])
    test = slice(cut, None)
    measured = BidMeasure(
        int(len(y) - cut), round(_log_loss(w, x[test], legal[test], y[test]), 4),
        round(_base_loss(legal[test], y[test], y[:cut]), 4),
        round(float(np.mean(np.argmax(np.where(legal[test], x[test] @ w.T, -np.inf), axis=1)
                            == y[test])), 4),
        {c: int(np.sum(y == i)) for i, c in enumerate(CALLS)})
    w = _fit_weights(x, legal, y)
    weights = {c: [round(float(v), 6) for v in w[i]] for i, c in enumerate(CALLS)}
    prov = dict(provenance, **measured.to_dict(), date=datetime.date.today().isoformat(),
                model_version=MODEL_VERSION)
    return BidModel(json.dumps(rules_spec(rules)), weights, prov), measured
