"""The solver benchmark (``cuatrola bench``) and seeded random deals and positions.

:func:`run_bench` times, on one core and fixed seeded deals, the three searches of
the performance table (docs/benchmark.md) for the compiled solver and the pure-Python reference:

- ``tricks3``: exact tricks of a declarer whose partner sits out (3 hands; cuatrola
  by seat 1, online rules);
- ``margin4``: exact ``paso`` margin with cantes (4 hands; online rules);
- ``makes``: one contract test, "can the declarer make it?", a zero-window search
  (solo by seat 1 on points, online rules);
- ``ddtable``: the full double-dummy table (every contract and declarer), compiled only.

Per deal it reports microseconds and nodes searched, and the speed ratio.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import time
from types import ModuleType
from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..advice.bidding import Advice, advise
from ..advice.budget import Budget
from ..advice.cardplay import Hint, hint
from ..bots.players import parse_player
from ..bots.playout import play_hand
from ..dd import reference, solver
from ..game import cards, play
from ..game.cards import mask_of
from ..game.rules import PRESETS, RuleSet, get_rules
from ..game.view import View
from ..i18n import N_, _, count, decimal, ngettext
from ..notation.replay import read_view

#: the targets, microseconds per deal (docs/benchmark.md)
TARGETS_US = {"tricks3": 10.0, "margin4": 80.0, "makes": 10.0}
TARGET_RATIO = 200.0

CASES = {
    # name: (contract, declarer, objective, description)
    "tricks3": ("cuatrola", (1,), "tricks",
                N_("exact tricks, declarer with partner out (3 hands)")),
    "margin4": ("paso", (), "margin", N_("exact paso margin with cantes (4 hands)")),
    "makes": ("solo", (1,), "makes", N_("one contract test, solo on points (zero window)")),
}
#: the full double-dummy table of a deal, every contract and declarer (solve --batch):
#: timed through solver.dd_tables, after the cases above (no reference: minutes a deal)
TABLE_CASE = "ddtable"
TARGETS_US[TABLE_CASE] = 300.0


def random_deal(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """Four hand masks (seats 1-4) and the trump suit, of :func:`cards.random_deal`."""
    hands, muestra = cards.random_deal(rng)
    return tuple(mask_of(h) for h in hands), muestra // 5


def random_deals(n: int, seed: int = 0
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
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
    pos = play.deal_position(hands, trump, contract, declarer)
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


def _clocks() -> tuple[float, float]:
    return time.thread_time(), time.perf_counter()


def _elapsed(start: tuple[float, float]) -> tuple[float, float]:
    cpu, wall = _clocks()
    return cpu - start[0], wall - start[1]


def _time_compiled(solver_mod: ModuleType, hands: npt.NDArray[np.int64],
                   trumps: npt.NDArray[np.int64], rules: RuleSet, contract: str,
                   declarer: Sequence[int], objective: str
                   ) -> tuple[tuple[float, float], int, list[int]]:
    solver_mod.set_tt_bits(None)       # fresh tables of the default sizes
    start = _clocks()
    values, nodes = solver_mod.solve_batch(hands, trumps, rules, contract, declarer,
                                           objective, workers=1, return_nodes=True)
    return _elapsed(start), nodes, [int(v) for v in values]


def _time_reference(hands: npt.NDArray[np.int64], trumps: npt.NDArray[np.int64],
                    rules: RuleSet, contract: str, declarer: Sequence[int], objective: str
                    ) -> tuple[tuple[float, float], int, list[int]]:
    start = _clocks()
    nodes = 0
    values: list[int] = []
    for h, t in zip(hands, trumps):
        pos = play.deal_position(tuple(int(x) for x in h), int(t), contract, declarer)
        v, k = reference.solve_counted(pos, rules, objective)
        assert v is not None, "every case's objective has a value"
        values.append(int(v))
        nodes += k
    return _elapsed(start), nodes, values


def _row(times: tuple[float, float], nodes: int, n: int) -> dict[str, float]:
    return {"us_per_deal": round(times[0] / n * 1e6, 2),
            "wall_us_per_deal": round(times[1] / n * 1e6, 2),
            "nodes_per_deal": round(nodes / n, 1)}


def run_bench(deals: int = 2000, seed: int = 1, include_reference: bool = True,
              reference_deals: int = 5, rules: RuleSet | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Benchmark the solver on ``deals`` seeded deals, on one core (``workers=1``).

    Times are CPU time of the searching thread (``us_per_deal``; other processes on the
    machine do not inflate it) and wall-clock time (``wall_us_per_deal``).  The
    reference, thousands of times slower, runs on the first ``reference_deals`` deals
    only, and the ratio compares CPU time per deal on those same deals.  Each compiled
    run starts with a fresh transposition table.  ``progress(message)`` is called
    before each timed run.  Returns::

        {"backend": "compiled" | "reference", "deals": n, "seed": s, "rules": name,
         "cases": {name: {"description", "contract", "declarer", "objective", "target_us",
                          "compiled": {"us_per_deal", "wall_us_per_deal", "nodes_per_deal",
                                       "meets_target"},
                          "reference": {"us_per_deal", "wall_us_per_deal",
                                        "nodes_per_deal", "deals"},
                          "ratio": speed-up on the reference deals, "meets_ratio": bool,
                          "agree": compiled values == reference values}}}
    """
    rules = rules or PRESETS["online"]
    hands, trumps = random_deals(deals, seed)
    out: dict[str, Any] = {"backend": solver.BACKEND, "deals": deals, "seed": seed, "rules": rules.name,
           "cases": {}}
    compiled = solver.BACKEND == "compiled"
    for name, (contract, declarer, objective, description) in CASES.items():
        row: dict[str, Any] = {"description": description, "contract": contract,
                     "declarer": list(declarer), "objective": objective,
                     "target_us": TARGETS_US[name]}
        say: Callable[[str], None] = progress or (lambda message: None)
        if compiled:
            say(ngettext("{case}: compiled solver, {n} deal", "{case}: compiled solver, {n} deals",
                         deals).format(case=name, n=count(deals)))
            times, nodes, _values = _time_compiled(solver, hands, trumps, rules, contract,
                                             declarer, objective)
            row["compiled"] = _row(times, nodes, deals)
            row["compiled"]["meets_target"] = row["compiled"]["us_per_deal"] <= TARGETS_US[name]
        if include_reference and reference_deals > 0:
            k = min(reference_deals, deals)
            say(ngettext("{case}: reference solver, {n} deal", "{case}: reference solver, {n} deals",
                         k).format(case=name, n=count(k)))
            times, nodes, ref_values = _time_reference(hands[:k], trumps[:k], rules, contract,
                                                       declarer, objective)
            row["reference"] = {**_row(times, nodes, k), "deals": k}
            if compiled:
                ctimes, _nodes, values = _time_compiled(solver, hands[:k], trumps[:k], rules,
                                                   contract, declarer, objective)
                row["agree"] = values == ref_values
                row["ratio"] = round(times[0] / ctimes[0], 1) if ctimes[0] > 0 else None
                row["meets_ratio"] = bool(row["ratio"] and row["ratio"] >= TARGET_RATIO)
        out["cases"][name] = row
    if compiled:
        solver.set_tt_bits(None)
        start = _clocks()
        _, nodes = solver.dd_tables(hands, trumps, rules, workers=1, return_nodes=True)
        table = _row(_elapsed(start), nodes, deals)
        out["cases"][TABLE_CASE] = {
            "description": N_("full double-dummy table: every contract and declarer"),
            "contract": "all", "declarer": [], "objective": "table",
            "target_us": TARGETS_US[TABLE_CASE],
            "compiled": {**table, "meets_target": table["us_per_deal"] <= TARGETS_US[TABLE_CASE]}}
    return out


#: the solver backends (``backend`` of the result) as a person reads them
BACKENDS = {"compiled": N_("compiled"), "reference": N_("reference")}


def _general(x: float) -> str:
    """``10`` or ``0.5``: a target as Python's ``g`` writes it, in the current language."""
    text = f"{x:g}"
    return text if "e" in text else text.replace(".", decimal(0.5, 1)[1])


def _us(x: float | None, general: bool = False) -> str:
    if x is None:
        return "-"
    if general:
        return f"{_general(x)} µs"
    if x >= 1e6:
        return f"{decimal(x / 1e6, 2)} s"
    return f"{decimal(x / 1e3, 0)} ms" if x >= 1e4 else f"{decimal(x, 1)} µs"


def format_bench(result: dict[str, Any]) -> str:
    """A plain-text table of :func:`run_bench`'s result (the README's columns)."""
    from tabulate import tabulate

    cases = result["cases"].values()
    with_ref = any("reference" in row for row in cases)
    lines = [ngettext("{backend} solver, {deals} seeded deal (seed {seed}), rules {rules}, one "
                      "core; µs: CPU time per deal",
                      "{backend} solver, {deals} seeded deals (seed {seed}), rules {rules}, one "
                      "core; µs: CPU time per deal", result["deals"]).format(
        backend=_(BACKENDS.get(result["backend"], result["backend"])),
        deals=count(result["deals"]), seed=result["seed"], rules=result["rules"])]
    headers = [_("work"), _("target"), _("compiled"), _("wall"), _("nodes per deal")]
    if with_ref:
        headers += [_("reference"), _("speed-up"), _("same answers")]
    rows = []
    for row in cases:
        comp = row.get("compiled", {})
        nodes = comp.get("nodes_per_deal")
        cells = [_(row["description"]), f"≤ {_us(row['target_us'], general=True)}",
                 _us(comp.get("us_per_deal")), _us(comp.get("wall_us_per_deal")),
                 "-" if nodes is None else count(round(nodes))]
        if with_ref:
            ref = row.get("reference", {})
            agree = row.get("agree")
            k = ref.get("deals", 0)
            cells += [_us(ref.get("us_per_deal")),
                      "-" if row.get("ratio") is None else f"{count(round(row['ratio']))}×",
                      "-" if agree is None
                      else ngettext("yes ({n} deal)", "yes ({n} deals)", k).format(n=count(k))
                      if agree
                      else ngettext("NO ({n} deal)", "NO ({n} deals)", k).format(n=count(k))]
        rows.append(cells)
    lines.append(tabulate(rows, headers=headers, disable_numparse=True))
    if not with_ref:
        lines.append(_("(--reference also times the pure-Python reference solver on the "
                       "first deals and checks that both give the same answers)"))
    return "\n".join(lines)


if __name__ == "__main__":          # python -m cuatrola_solver.lab.bench
    import sys
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(format_bench(run_bench(deals=n)))


def run_players_bench(hands: int = 20, seed: int = 1, rules: RuleSet | str = "online",
                      player: str = "pimc") -> dict[str, Any]:
    """A player's speed (``player``, a spec as ``selfplay`` reads it, ``pimc`` by
    default): CPU time of each card decision with a choice over the card decisions of
    ``hands`` seeded hands of four such players, and of each whole hand's play (after an
    all-pass auction, so bidding is not counted).  ``wait``: what a person in ``cuatrola
    play`` waits, as seat 1, from one of his cards to his next question (the three
    bots' cards in between)."""
    rules = get_rules(rules)
    bot = parse_player(player)
    decisions: list[float] = []

    class Timed:
        name = "timed"

        def call(self, view: View, s: int) -> str:
            return "paso"

        def sing(self, view: View, s: int) -> int | None:
            return bot.sing(view, s)

        def card(self, view: View, s: int) -> int:
            start = time.thread_time()
            if view.seat == 1:
                if person[0] is not None:
                    waits.append(start - person[0])
            c = bot.card(view, s)
            if len(view.legal_cards()) > 1:
                decisions.append(time.thread_time() - start)
            if view.seat == 1:
                person[0] = time.thread_time()   # seat 1 answers: the bots take over
            return c

    hand_times: list[float] = []
    waits: list[float] = []
    rng = random.Random(seed)
    for k in range(hands):
        person: list[float | None] = [None]
        deal = cards.random_deal(rng)
        start = time.thread_time()
        play_hand(deal, [Timed()] * 4, rules, seed=k)
        hand_times.append(time.thread_time() - start)
    decisions.sort()
    hand_times.sort()
    return {"player": repr(bot), "hands": hands, "decisions": len(decisions),
            "decision_median_ms": 1000 * decisions[len(decisions) // 2],
            "decision_p90_ms": 1000 * decisions[int(len(decisions) * 0.9)],
            "hand_median_s": hand_times[len(hand_times) // 2],
            "hand_max_s": hand_times[-1],
            "wait_median_ms": 1000 * sorted(waits)[len(waits) // 2],
            "wait_max_ms": 1000 * max(waits)}


def format_players_bench(p: dict[str, Any]) -> str:
    """A line of :func:`run_players_bench`'s result."""
    return ngettext("{player}: {hands} seeded hand of four such players, one core, CPU time: "
                    "card decision median {median} ms (90th percentile {p90} ms, {decisions} "
                    "decisions with a choice); a hand's play median {hand} s (longest "
                    "{longest} s); in cuatrola play, seat 1 waits for the bots' cards {wait} ms "
                    "(median, at most {wait_max} ms)",
                    "{player}: {hands} seeded hands of four such players, one core, CPU time: "
                    "card decision median {median} ms (90th percentile {p90} ms, {decisions} "
                    "decisions with a choice); a hand's play median {hand} s (longest "
                    "{longest} s); in cuatrola play, seat 1 waits for the bots' cards {wait} ms "
                    "(median, at most {wait_max} ms)", p["hands"]).format(
        player=p["player"], hands=count(p["hands"]), median=decimal(p["decision_median_ms"], 1),
        p90=decimal(p["decision_p90_ms"], 1), decisions=p["decisions"],
        hand=decimal(p["hand_median_s"], 3), longest=decimal(p["hand_max_s"], 3),
        wait=decimal(p["wait_median_ms"], 0), wait_max=decimal(p["wait_max_ms"], 0))


# --- the answers a player waits for, and how long each may take -----------------------

#: the hand of the advice cases: seats 1-3 with muestra Ce, the dealer (seat 4) holding
#: the muestra Ae; the seats before have passed
ADVICE_HAND = "Ae 3e Re Ab Sc"
#: the hint case: seat 2 of examples/analysis/online-blunder.txt leading trick 2 (34,650
#: layouts)
HINT_CASE = ("Ao 3c Ac Re Ab", "3b", 2, "1. Sb Ab Cb 3b", "online")
#: whole-process commands and their targets in seconds (wall, on an idle core): Typer's
#: checking of option values through Pydantic costs a command about 0.1 s (docs/benchmark.md)
STARTUP_CASES = {
    "cuatrola --help": (["--help"], 0.3),
    "cuatrola rules": (["rules"], 0.3),
    "cuatrola advise (default, sampled)": (
        ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--auction", "paso",
         "--seed", "1"], 0.8),
}
ANSWER_TARGETS = {"advise": 2.0, "hint": 0.5, "analyze": 2.0}


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU of every thread of the process) seconds of ``fn()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _timed_command(args: Sequence[str], repeat: int) -> tuple[float, float]:
    """The least (wall, CPU) seconds of ``repeat`` runs of ``cuatrola ARGS`` as a new
    process (start-up included)."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cuatrola_cli.main", *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = (min(best[0], wall), min(best[1], cpu))
    return best


def run_answers_bench(workers: int | None = None, presets: Sequence[str] | None = None,
                      seats: Sequence[int] = (1, 2, 3, 4),
                      hint_case: tuple[str, str, int, str, str] | None = HINT_CASE,
                      startup: bool = True, repeat: int = 3, examples: Sequence[str] = (),
                      progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """The answers a player waits for, timed (wall and CPU seconds of all threads):
    ``advise --exact`` of :data:`ADVICE_HAND` for every preset and seat (the preset's
    models, as the command; ``workers`` threads, default all cores; ``presets`` None:
    all), ``hint --exact`` of ``hint_case`` (:data:`HINT_CASE`, at trick 2; None: none),
    and with ``startup`` the whole-process commands of
    :data:`STARTUP_CASES` (least of ``repeat`` runs) and ``analyze`` of each record of
    ``examples``.  Each advice and the hint start from fresh tables, as the command does
    in a new process (none is warm from the case before).  One dict per case:
    ``case``, ``target_s``, ``wall_s``, ``cpu_s``, ``meets_target`` (wall)."""
    say: Callable[[str], None] = progress or (lambda message: None)
    rows: list[dict[str, Any]] = []

    def row(case: str, target: float, times: tuple[float, float], **extra: int) -> None:
        wall = round(times[0], 3)   # the row judged on the figure it reports
        rows.append({"case": case, "target_s": target, "wall_s": wall,
                     "cpu_s": round(times[1], 3), "meets_target": wall <= target, **extra})

    for preset in list(PRESETS) if presets is None else presets:
        rules = get_rules(preset)
        for seat in seats:
            view = View.bidding(ADVICE_HAND, "Ae" if seat == 4 else "Ce", seat, rules=rules)
            say(_("advise --exact, {preset}, seat {seat}").format(preset=preset, seat=seat))
            solver.set_tt_bits(None)      # fresh tables, as the command has in a new process
            result: list[Advice] = []
            times = _timed(lambda: result.append(
                advise(view, Budget(exact=True, workers=workers))))
            row(f"advise --exact --rules {preset} --seat {seat}", ANSWER_TARGETS["advise"],
                times, deals=result[0].deals)
    if hint_case is not None:
        hand, muestra, seat, played, preset = hint_case
        view = read_view(hand, muestra, seat, played=played, rules=preset)
        say("hint --exact")
        solver.set_tt_bits(None)
        hints: list[Hint] = []
        times = _timed(lambda: hints.append(hint(view, Budget(exact=True, workers=workers))))
        row(f"hint --exact, trick {hints[0].trick}, seat {seat}", ANSWER_TARGETS["hint"],
            times, deals=hints[0].deals)
    if startup:
        for case, (args, target) in STARTUP_CASES.items():
            say(case)
            row(case + " (whole process)", target, _timed_command(args, repeat))
    for path in examples:
        say(f"analyze {path}")
        row(f"cuatrola analyze {path} --seed 1 (whole process)", ANSWER_TARGETS["analyze"],
            _timed_command(["analyze", str(path), "--seed", "1"], 1))
    return rows


def format_answers_bench(rows: list[dict[str, Any]]) -> str:
    """A plain-text table of :func:`run_answers_bench`'s rows."""
    from tabulate import tabulate
    table = [[r["case"], f"≤ {_general(r['target_s'])} s", f"{decimal(r['wall_s'])} s",
              f"{decimal(r['cpu_s'])} s", _("yes") if r["meets_target"] else _("no")]
             for r in rows]
    drawn: str = tabulate(table, headers=[_("answer"), _("target"), _("wall"), "CPU", _("within")],
                          disable_numparse=True)
    return _("the answers a player waits for; wall and CPU seconds (every thread)") + "\n" + drawn
