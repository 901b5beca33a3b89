"""The solver benchmark (``cuatrola bench``) and seeded random deals and positions.

:func:`run_bench` times, on one core and fixed seeded deals, the three searches of
DESIGN.md's performance table for the compiled solver and the pure-Python reference:

- ``tricks3``: exact tricks of a declarer whose partner sits out (3 hands; cuatrola
  by seat 1, online rules);
- ``margin4``: exact ``paso`` margin with cantes (4 hands; online rules);
- ``makes``: one contract test, "can the declarer make it?", a zero-window search
  (solo by seat 1 on points, online rules).

Per deal it reports microseconds and nodes searched, and the speed ratio.
"""

from __future__ import annotations

import random
import time
from typing import Sequence

import numpy as np

from . import play, reference
from .rules import PRESETS, RuleSet

#: DESIGN.md targets, microseconds per deal
TARGETS_US = {"tricks3": 10.0, "margin4": 80.0, "makes": 10.0}
TARGET_RATIO = 200.0

CASES = {
    # name: (contract, declarer, objective, description)
    "tricks3": ("cuatrola", (1,), "tricks", "exact tricks, declarer with partner out (3 hands)"),
    "margin4": ("paso", (), "margin", "exact paso margin with cantes (4 hands)"),
    "makes": ("solo", (1,), "makes", "one contract test, solo on points (zero window)"),
}


def random_deal(rng: random.Random) -> tuple[tuple[int, int, int, int], int]:
    """Four hand masks (seats 1-4) and the trump suit (the suit of seat 4's last card)."""
    order = list(range(20))
    rng.shuffle(order)
    hands = tuple(sum(1 << c for c in order[5 * i:5 * i + 5]) for i in range(4))
    return hands, order[19] // 5


def random_deals(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` seeded deals as arrays: hands ``(n, 4)`` int64, trumps ``(n,)`` int64."""
    rng = random.Random(seed)
    hands = np.zeros((n, 4), dtype=np.int64)
    trumps = np.zeros(n, dtype=np.int64)
    for i in range(n):
        h, t = random_deal(rng)
        hands[i] = h
        trumps[i] = t
    return hands, trumps


def random_position(rng: random.Random, rules: RuleSet, contract: str,
                    declarer: Sequence[int] = (), plays: int = 0,
                    sing_rate: float = 0.8) -> play.Position:
    """A seeded random position: a deal, then ``plays`` random steps of legal play.

    A step is a card, or at a trick boundary (with probability ``sing_rate``) one of
    the cantes open to a side.  Stops early at the end of the hand.
    """
    hands, trump = random_deal(rng)
    pos = reference.deal_position(hands, trump, contract, declarer)
    for _ in range(plays):
        if pos.is_over:
            break
        pending = reference.pending_cante(pos, rules) if not pos.trick else None
        if pending is not None and rng.random() < sing_rate:
            side, suits = pending
            pos = play.sing(pos, side, rng.choice(suits))
            continue
        pos = play.play_card(pos, rng.choice(reference.legal_cards(pos, rules)), rules.monte)
    return pos


def _time_compiled(solver_mod, hands, trumps, rules, contract, declarer, objective):
    start = time.perf_counter()
    values, nodes = solver_mod.solve_batch(hands, trumps, rules, contract, declarer,
                                           objective, workers=1, return_nodes=True)
    return time.perf_counter() - start, nodes, values


def _time_reference(hands, trumps, rules, contract, declarer, objective):
    start = time.perf_counter()
    nodes = 0
    values = []
    for h, t in zip(hands, trumps):
        pos = reference.deal_position(tuple(int(x) for x in h), int(t), contract, declarer)
        v, k = reference.solve_counted(pos, rules, objective)
        values.append(int(v))
        nodes += k
    return time.perf_counter() - start, nodes, values


def run_bench(deals: int = 2000, seed: int = 1, include_reference: bool = True,
              reference_deals: int = 20, rules: RuleSet | None = None) -> dict:
    """Benchmark the solver on ``deals`` seeded deals (one core).

    The reference, much slower, runs on the first ``reference_deals`` deals only; the
    ratio compares microseconds per deal on those same deals (the compiled solver is
    timed on them separately, with a fresh table).  Returns a dict::

        {"backend": ..., "deals": n, "seed": s, "rules": name,
         "cases": {name: {"description", "contract", "objective", "target_us",
                          "compiled": {"us_per_deal", "nodes_per_deal", "meets_target"},
                          "reference": {"us_per_deal", "nodes_per_deal", "deals"},
                          "ratio": compiled speed-up on the reference deals}}}
    """
    from . import solver

    rules = rules or PRESETS["online"]
    hands, trumps = random_deals(deals, seed)
    out = {"backend": solver.BACKEND, "deals": deals, "seed": seed, "rules": rules.name,
           "cases": {}}
    for name, (contract, declarer, objective, description) in CASES.items():
        row: dict = {"description": description, "contract": contract,
                     "declarer": list(declarer), "objective": objective,
                     "target_us": TARGETS_US[name]}
        if solver.BACKEND == "compiled":
            solver.set_tt_bits(solver.DEFAULT_TT_BITS)   # a fresh table
            secs, nodes, _ = _time_compiled(solver, hands, trumps, rules, contract,
                                            declarer, objective)
            us = secs / deals * 1e6
            row["compiled"] = {"us_per_deal": round(us, 3),
                               "nodes_per_deal": round(nodes / deals, 1),
                               "meets_target": us <= TARGETS_US[name]}
        if include_reference and reference_deals > 0:
            k = min(reference_deals, deals)
            secs, nodes, ref_values = _time_reference(hands[:k], trumps[:k], rules, contract,
                                                      declarer, objective)
            ref_us = secs / k * 1e6
            row["reference"] = {"us_per_deal": round(ref_us, 1),
                                "nodes_per_deal": round(nodes / k, 1), "deals": k}
            if solver.BACKEND == "compiled":
                solver.set_tt_bits(solver.DEFAULT_TT_BITS)
                csecs, _, values = _time_compiled(solver, hands[:k], trumps[:k], rules,
                                                  contract, declarer, objective)
                if [int(v) for v in values] != ref_values:
                    row["mismatch"] = True
                c_us = csecs / k * 1e6
                row["ratio"] = round(ref_us / c_us, 1) if c_us > 0 else None
                row["meets_ratio"] = bool(row["ratio"] and row["ratio"] >= TARGET_RATIO)
        out["cases"][name] = row
    return out


def format_bench(result: dict) -> str:
    """A plain-text table of :func:`run_bench`'s result."""
    lines = [f"backend {result['backend']}, {result['deals']} deals, seed {result['seed']}, "
             f"rules {result['rules']}, one core"]
    lines.append(f"{'case':<9} {'target us':>9} {'compiled us':>11} {'nodes':>8} "
                 f"{'reference us':>12} {'ratio':>8}")
    for name, row in result["cases"].items():
        comp = row.get("compiled", {})
        ref = row.get("reference", {})
        lines.append(f"{name:<9} {row['target_us']:>9} {comp.get('us_per_deal', '-'):>11} "
                     f"{comp.get('nodes_per_deal', '-'):>8} {ref.get('us_per_deal', '-'):>12} "
                     f"{row.get('ratio', '-'):>8}")
    return "\n".join(lines)


if __name__ == "__main__":          # python -m cuatrola_solver.bench
    import sys
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(format_bench(run_bench(deals=n)))
