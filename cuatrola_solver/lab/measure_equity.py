"""Measuring the hand results behind match equity (``cuatrola equity --regenerate``).

:func:`measure_hand_results` plays seeded random deals for every pair of cap classes:
each seat bids the call of highest expected match points its cap class allows, as
:func:`~cuatrola_solver.advice.bidding.advise` values it on a few sampled deals, and the
contract is played double dummy on the actual deal.  The counts
(:class:`~cuatrola_solver.models.equity.HandResults`) and how they were made are what
:func:`write_hand_results` writes, and what the equity table reads.
"""

from __future__ import annotations

import datetime as _dt
import json
import random
from pathlib import Path

import numpy as np

from .. import __version__
from ..advice.bidding import advise
from ..advice.budget import Budget
from ..dd import solver
from ..errors import CuatrolaError
from ..game.auction import CALLS, Auction
from ..game.play import declaring_side, side_of, tricks_goal
from ..game.rules import CONTRACT_VALUE, RuleSet, get_rules
from ..game.view import View
from ..i18n import _
from ..models.equity import CAP_CLASSES, HandResults, Progress
from ..models.preset import Models

__all__ = ["measure_hand_results", "write_hand_results"]


def _random_deal(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Four hand masks (seats 1-4) and the muestra (the last card, seat 4's)."""
    order = list(range(20))
    rng.shuffle(order)
    return tuple(sum(1 << c for c in order[5 * i:5 * i + 5]) for i in range(4)), order[19]


def measure_hand_results(rules: RuleSet | str, deals: int, seed: int, samples: int = 32,
                         command: str | None = None,
                         progress: Progress | None = None) -> HandResults:
    """Hand results over ``deals`` seeded random deals, for every pair of cap classes.

    Bidding: each seat in turn takes the call of highest expected match points that
    its cap class allows, valued as :func:`bidding.advise` values it (later seats
    assumed to pass) over ``samples`` deals consistent with its own cards; the contract
    is then played double dummy on the actual deal.  One valuation per seat and calls
    before it is shared by every pair of cap classes."""
    rules = get_rules(rules)
    if deals < 1:
        raise CuatrolaError(_("bad number of deals {deals}: expected at least 1").format(
            deals=deals))
    if samples < 1:
        raise CuatrolaError(_("bad number of samples {samples}: expected at least 1").format(
            samples=samples))
    if seed < 0:
        raise CuatrolaError(_("bad seed {seed}: expected 0 or more").format(seed=seed))
    rng = random.Random(seed)
    combos = [(ca, cb) for ca in CAP_CLASSES for cb in CAP_CLASSES]
    played: dict[tuple[str, tuple[int, ...]], list[tuple[int, tuple[int, int]]]] = {}
    all_hands = np.zeros((deals, 4), dtype=np.int64)
    trumps = np.zeros(deals, dtype=np.int64)
    for i in range(deals):
        hands, muestra = _random_deal(rng)
        all_hands[i] = hands
        trumps[i] = muestra // 5
        values: dict[tuple[int, tuple[str, ...]], list[tuple[str, float]]] = {}
        for caps in combos:
            auction = Auction(rules)
            while not auction.is_complete:
                seat = auction.speaker
                assert seat is not None, "an auction not complete has a seat to speak"
                key = (seat, tuple(auction.calls))
                if key not in values:
                    s = int(np.random.SeedSequence(
                        [seed, i, seat] + [CALLS.index(c) for c in auction.calls]
                    ).generate_state(1)[0])
                    view = View(rules, seat, hands[seat - 1], muestra, tuple(auction.calls))
                    adv = advise(view, Budget(samples=samples, seed=s, workers=1), Models.NONE)
                    values[key] = [(r.option.bid, r.ev_sum) for r in adv.options
                                   if r.option.allowed]
                top = caps[side_of(seat)]
                best = None
                for bid, ev in values[key]:          # weakest first: ties keep the weaker
                    if CONTRACT_VALUE[bid] <= top:
                        if best is None or ev > best[1]:
                            best = (bid, ev)
                assert best is not None, "paso is always allowed"
                auction.call(best[0])
            played.setdefault((auction.contract, tuple(auction.declarer)), []).append((i, caps))
        if progress:
            progress(i + 1, deals)
    out = HandResults(rules.name)
    for (contract, declarer), where in sorted(played.items()):
        idx = np.array(sorted({i for i, _ in where}), dtype=np.int64)
        goal = tricks_goal(contract, rules)
        if goal is not None:
            t = solver.solve_batch(all_hands[idx], trumps[idx], rules, contract, declarer,
                                   "tricks", 1)
            v = CONTRACT_VALUE[contract]
            gp = np.where(t >= goal, v, -v)
        else:
            gp = solver.solve_batch(all_hands[idx], trumps[idx], rules, contract, declarer,
                                    "game_points", 1)
        by_deal = dict(zip(idx.tolist(), gp.tolist()))
        d = declaring_side(declarer)
        for i, caps in where:
            g = by_deal[i]
            side = d if g > 0 else 1 - d
            out.add(caps, side, abs(g), contract)
    out.provenance = {
        "command": command or (f"cuatrola equity --rules {rules.name} --regenerate "
                               f"--deals {deals} --seed {seed} --samples {samples}"),
        "method": "seeded random deals; each seat bids the call of highest expected match "
                  f"points allowed by its cap class (advisor, {samples} sampled deals per "
                  "call, later seats assumed to pass); the contract played double dummy",
        "deals": deals, "seed": seed, "samples": samples,
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "version": __version__}
    return out


def write_hand_results(results: HandResults, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results.to_dict(), indent=1) + "\n", encoding="utf-8")
