"""Computing the bidding charts (``cuatrola charts --compute``) and measuring them.

A chart (:class:`~cuatrola_solver.models.charts.Chart`) is made from the advisor itself:
random deals are dealt (:func:`hand_of`, seeded by the run's seed and the hand's index,
so a hand is the same wherever it is valued), the seat's hand is given to
:func:`~cuatrola_solver.advice.bidding.advise` with a small budget (``samples`` deals,
the preset's models, as ``cuatrola advise`` uses them), and every allowed call's odds are
kept (:func:`value_hand`).  :func:`build` then groups the hands by class, coarsest level
first, each level's values cut into runs of at least ``min_hands`` hands (a value seldom
seen is merged into its neighbour), so no cell rests on a handful; each cell's call is
the one of best mean value over its hands (the played EV, the double-dummy EV without a
played-odds model, the match chance with a score; ties to the weaker call).

:func:`measure` says how good a chart is: on fresh hands (another stream of seeds than
the chart's), how often its call is the one :func:`advise` makes with its default
budget, with the Wilson 95% interval, and the value a player gives up per hand by
following the chart instead (the advisor's numbers for both calls, on the same deals),
with a 95% interval.

The hands are valued on local processes or on a Ray cluster (as the self-play lab's
boards, :func:`~cuatrola_solver.lab.selfplay.connect_ray`), in batches; the result does
not depend on where they ran.
"""

from __future__ import annotations

import datetime
import itertools
import json
import math
import os
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Mapping, NoReturn, Sequence

import numpy as np

from ..advice.bidding import advise
from ..advice.budget import Budget
from ..advice.stats import wilson
from ..errors import CuatrolaError, LabError
from ..game.auction import CALLS
from ..game.auction import parse_auction
from ..game.cards import (format_card, format_cards, mask_of, parse_card, parse_cards,
                          random_deal, suit_of)
from ..game.match import Score, check_score
from ..game.jsonvalue import JSONObject
from ..game.rules import RuleSet, get_rules, rules_spec
from ..game.view import View
from ..i18n import _
from ..models.charts import (CHARTS_VERSION, DOMAINS, LEVELS, CallStats, Cell, CellKey,
                             Chart, ChartSet, ClassKey, HandClass, Level, Measure, hand_class,
                             passed_before)
from ..models.preset import Models
from .records import json_lines, shown
from .selfplay import Z95, connect_ray

__all__ = ["ChartSpec", "ValuedHand", "to_json", "pooled", "hand_of", "value_hand",
           "value_batch", "value_hands", "build", "measure", "compute", "DEFAULT_HANDS", "DEFAULT_SAMPLES",
           "MIN_HANDS", "DEFAULT_MEASURE"]

#: random hands a chart is computed from, per seat
DEFAULT_HANDS = 10000
#: deals of each hand's advice when computing a chart
DEFAULT_SAMPLES = 300
#: the fewest hands a cell may rest on
MIN_HANDS = 20
#: fresh hands the agreement is measured on, per seat
DEFAULT_MEASURE = 300
#: hands per task
BATCH = 50
#: the stream of seeds of the chart's hands and of the measuring hands
CHART_STREAM, MEASURE_STREAM = 0, 1
#: the chance a dealt hand is kept for a chart, by its number of trumps (0, 1, 2, 3, 4+):
#: the hands of few trumps, nearly always paso, are thinned so that the bidding hands get
#: more of the search; within a number of trumps the hands stay uniform, so each cell's
#: means (a cell is within one number of trumps or groups whole ones) are not biased
KEEP = (0.1, 0.1, 0.5, 1.0, 1.0)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ChartSpec:
    """What a chart is computed for: the rules (a preset, or one with overrides), the
    seat about to speak, the calls of the seats before it, the match score (None: no
    score), the seed, and the deals of each hand's advice (None: advise's default)."""

    rules: str | dict[str, Any] = "online"
    seat: int = 1
    auction: tuple[str, ...] = ()
    score: tuple[int, int] | None = None
    seed: int = 0
    samples: int | None = DEFAULT_SAMPLES
    #: per number of trumps (0 .. 4+), the chance a dealt hand is kept (None: every hand)
    keep: tuple[float, ...] | None = KEEP

    @classmethod
    def make(cls, rules: str | Mapping[str, Any] | RuleSet = "online", seat: int = 1, auction: str | Sequence[str] | None = None,
             score: Score | tuple[int, int] | None = None, seed: int = 0,
             samples: int | None = DEFAULT_SAMPLES,
             keep: tuple[float, ...] | None = KEEP) -> "ChartSpec":
        """A checked spec: the calls must be legal for the seats before ``seat``."""
        rs = get_rules(rules)
        if isinstance(score, Score):
            score = (score.A, score.B)
        sc = None if score is None else Score(*score)
        if sc is not None:
            check_score(rs, sc)
        calls = tuple(parse_auction(auction if auction is not None
                                    else list(passed_before(seat)), seat, rs, sc).calls)
        return cls(rules_spec(rs), seat, calls, None if sc is None else (sc.A, sc.B),
                   seed, samples, keep)

    @property
    def ruleset(self) -> RuleSet:
        return get_rules(self.rules)

    @property
    def score_value(self) -> Score | None:
        return None if self.score is None else Score(*self.score)


def hand_of(spec: ChartSpec, index: int, stream: int = CHART_STREAM) -> tuple[list[int], int, int]:
    """Hand ``index`` of a run: the seat's five cards, the muestra (the last card of a
    random deal) and the seed of its advice, from the run's seed only.  On the chart's
    stream a dealt hand is kept with the chance ``spec.keep`` gives its number of trumps
    (else another deal is drawn); the measuring stream keeps every hand."""
    keep = spec.keep if stream == CHART_STREAM else None
    for attempt in itertools.count():
        ss = np.random.SeedSequence([spec.seed, spec.seat, stream, index, attempt])
        a, b, c = ss.generate_state(3, dtype=np.uint32)
        hands, muestra = random_deal(random.Random(int(a)))
        hand = hands[spec.seat - 1]
        if keep is None:
            return hand, muestra, int(b) >> 1
        trumps = min(4, sum(1 for x in hand if x // 5 == muestra // 5))
        if c / 2.0 ** 32 < keep[trumps]:
            return hand, muestra, int(b) >> 1
    raise AssertionError  # unreachable


#: the place of each value in a valued hand's numbers of a call
_INDEX = {"p_win": 0, "p_played": 1, "ev": 2, "ev_played": 3, "p_match": 4}


@dataclass(frozen=True)
class ValuedHand:
    """Hand ``i`` of a run, as the advisor valued it: the seat's five cards ``hand`` and
    the ``muestra`` (as written), the call advised, and per allowed call (weakest first,
    as advise lists them) its numbers ``[p_win, p_played, ev, ev_played, p_match]`` (None
    where the answer has none); a line of a hands file (:meth:`to_json`)."""

    i: int
    hand: str
    muestra: str
    advice: str
    calls: dict[str, list[float | None]]

    @property
    def hand_class(self) -> HandClass:
        return hand_class(mask_of(parse_cards(self.hand)),
                          int(suit_of(parse_card(self.muestra))))

    def value(self, bid: str, value: str) -> float | None:
        """The number ``value`` (``p_win`` ... ``p_match``) of the call ``bid``."""
        return self.calls[bid][_INDEX[value]]

    def worth(self, bid: str, value: str) -> float:
        """:meth:`value` where a chart rests on it (a chart's value is valued for every
        call of its hands)."""
        v = self.value(bid, value)
        if v is None:
            raise TypeError(f"hand {self.i}: no {value} for {bid}")
        return v

    def to_json(self) -> dict[str, Any]:
        return {"i": self.i, "hand": self.hand, "muestra": self.muestra,
                "advice": self.advice, "calls": self.calls}

    @classmethod
    def from_json(cls, line: dict[str, Any]) -> "ValuedHand":
        """A line read back, once :func:`_checked_hand` has checked its fields."""
        return cls(line["i"], line["hand"], line["muestra"], line["advice"], line["calls"])


def value_hand(spec: ChartSpec, index: int, stream: int = CHART_STREAM,
               models: Models | None = None) -> ValuedHand:
    """The advice of hand ``index`` (:class:`ValuedHand`)."""
    rules = spec.ruleset
    cards, muestra, seed = hand_of(spec, index, stream)
    view = View.bidding(cards, muestra, spec.seat, list(spec.auction), rules, spec.score_value)
    a = advise(view, Budget(samples=spec.samples, seed=seed, workers=1),
               Models.of(rules) if models is None else models)
    return ValuedHand(index, format_cards(cards), format_card(muestra), a.advice,
                      {r.option.bid: [r.p_win, r.p_played, r.ev, r.ev_played, r.p_match]
                       for r in a.options if r.option.allowed})


def value_batch(spec: ChartSpec, indices: Sequence[int],
                stream: int = CHART_STREAM) -> list[ValuedHand]:
    """The hands of the given indices of a run: one task, wherever it runs."""
    return [value_hand(spec, i, stream) for i in indices]


def _task(args: tuple[ChartSpec, Sequence[int], int]) -> list[ValuedHand]:
    return value_batch(*args)


def _spec_key(spec: ChartSpec, stream: int) -> dict[str, Any]:
    key: dict[str, Any] = {"rules": spec.rules, "seat": spec.seat, "auction": list(spec.auction),
           "score": None if spec.score is None else list(spec.score), "seed": spec.seed,
           "samples": spec.samples, "stream": stream}
    if stream == CHART_STREAM and spec.keep is not None:
        key["keep"] = list(spec.keep)
    return key


def _checked_hand(line: dict[str, Any], where: str, bids: Sequence[str], seat: int) -> int:
    """The index of a valued hand read back, its fields checked (``where`` names the
    line): five cards and a muestra (among them for the dealer, seat 4, who holds it),
    the advice among the calls, each call's five numbers or nulls."""
    def bad(field: str, expected: str) -> NoReturn:
        raise LabError(_("{where}, {path}: expected {expected}, got {value}").format(
            where=where, path=field, expected=expected, value=shown(line.get(field))))
    i = line.get("i")
    if not isinstance(i, int) or isinstance(i, bool) or i < 0:
        bad("i", "the hand's index, 0 or more")
    hand, muestra_text = line.get("hand"), line.get("muestra")
    if not isinstance(hand, str) or not isinstance(muestra_text, str):
        bad("hand", "five cards and a muestra")
    try:
        cards = parse_cards(hand)
        muestra = parse_card(muestra_text)
    except CuatrolaError:
        bad("hand", "five cards and a muestra")
    if len(cards) != 5 or len(set(cards)) != 5 or (muestra in cards) != (seat == 4):
        bad("hand", "five different cards and the muestra, which only seat 4 holds")
    calls = line.get("calls")
    if (not isinstance(calls, dict) or not calls or any(b not in bids for b in calls)
            or any(not isinstance(v, list) or len(v) != 5
                   or any(x is not None and (not isinstance(x, (int, float))
                                             or isinstance(x, bool) or not math.isfinite(x))
                          for x in v) for v in calls.values())):
        bad("calls", "per allowed call its five numbers (or null)")
    if line.get("advice") not in calls:
        bad("advice", "one of the calls valued")
    return i


def _read_hands(path: str, key: dict[str, Any]) -> dict[int, ValuedHand]:
    """The valued hands of a hands file that belong to the run ``key`` (others are left
    alone: one file may hold several runs), read through the lab's reader (bounded lines,
    each a JSON object) and checked field by field.  A last line cut by an interrupted
    run is cut off the file: its hands are valued again."""
    found: dict[int, ValuedHand] = {}
    if not os.path.exists(path):
        return found
    bids = list(CALLS)
    end = 0
    for n, obj, end in json_lines(path, what="hands file", complete_only=True,
                                  kind="valued hand of a chart run", error=LabError):
        run = obj.get("run")
        if not isinstance(run, dict):
            raise LabError(_("{path}, line {line}: not a valued hand of a chart run (no 'run' "
                             "field)").format(path=path, line=n))
        if run != key:
            continue
        line = {k: v for k, v in obj.items() if k != "run"}
        where = _("{where}, line {n}").format(where=path, n=n)
        found[_checked_hand(line, where, bids, key["seat"])] = ValuedHand.from_json(line)
    if end < os.path.getsize(path):
        with open(path, "r+b") as f:
            f.truncate(end)
    return found


def value_hands(spec: ChartSpec, count: int, *, stream: int = CHART_STREAM,
                workers: int | None = None, ray: str | None = None,
                path: str | None = None, progress: Progress | None = None
                ) -> list[ValuedHand]:
    """Hands ``0 .. count - 1`` valued on ``workers`` local processes (default: all
    cores) or on the Ray cluster at ``ray``, in index order.  With ``path`` (a hands
    file) the hands are appended to it batch by batch as they are valued, and those it
    already holds for the same run are read instead of valued again: an interrupted run
    continues, and a chart can be rebuilt without any search."""
    if count < 1:
        raise LabError(_("bad number of hands {count}: expected at least 1").format(count=count))
    key = _spec_key(spec, stream)
    have = _read_hands(path, key) if path else {}
    todo = [i for i in range(count) if i not in have]
    batches = [todo[s:s + BATCH] for s in range(0, len(todo), BATCH)]
    done = count - len(todo)
    if progress:
        progress(done, count)
    f = open(path, "a", encoding="utf-8") if path and batches else None
    try:
        for lines in _run(spec, batches, stream, workers, ray):
            for line in lines:
                have[line.i] = line
                if f is not None:
                    f.write(json.dumps({"run": key, **line.to_json()}, ensure_ascii=False)
                            + "\n")
            if f is not None:
                f.flush()
            done += len(lines)
            if progress:
                progress(done, count)
    finally:
        if f is not None:
            f.close()
    return [have[i] for i in range(count)]


def _run(spec: ChartSpec, batches: list[list[int]], stream: int, workers: int | None,
         ray: str | None) -> Iterator[list[ValuedHand]]:
    """The valued hands of each batch, as the batches finish (in any order)."""
    if not batches:
        return
    if ray:
        r = connect_ray(ray)
        task = r.remote(value_batch)
        slots = max(1, int(r.cluster_resources().get("CPU", 1))) * 2
        queue = iter(batches)
        pending = [task.remote(spec, b, stream) for b in itertools.islice(queue, slots)]
        while pending:
            ready, pending = r.wait(pending, num_returns=1)
            for ref in ready:
                yield r.get(ref)
            for b in itertools.islice(queue, len(ready)):
                pending.append(task.remote(spec, b, stream))
        return
    workers = max(1, workers or os.cpu_count() or 1)
    if workers == 1 or len(batches) == 1:
        for b in batches:
            yield value_batch(spec, b, stream)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for f in as_completed([pool.submit(_task, (spec, b, stream)) for b in batches]):
            yield f.result()


# --- the chart ------------------------------------------------------------------------

def _value_name(spec: ChartSpec, lines: list[ValuedHand]) -> str:
    if spec.score is not None:
        return "p_match"
    played = any(line.value(b, "ev_played") is not None for line in lines for b in line.calls)
    return "ev_played" if played else "ev"


def _cell(key: CellKey, group: list[tuple[ClassKey, ValuedHand]], value: str,
          keep: tuple[float, ...] | None) -> Cell:
    """A cell from its hands, ``(class key, valued hand)``: each call's means, weighted by
    the inverse of the chance each hand had to be kept (uniform within a number of
    trumps, so only a cell that groups several numbers of trumps feels it)."""
    lines = [line for _, line in group]
    weights = np.array([1.0 if keep is None else 1.0 / keep[int(k[0])] for k, _ in group])
    bids = list(lines[0].calls)                   # weakest first, as advise lists them
    calls = {}
    for b in bids:
        cols = list(zip(*(line.calls[b] for line in lines)))

        def mean(j: int) -> float | None:
            vals = cols[j]
            return None if vals[0] is None else float(np.average(vals, weights=weights))

        def valued(j: int) -> float:          # p_win and ev: advise values every call
            return float(np.average(cols[j], weights=weights))
        calls[b] = CallStats(valued(0), valued(2), mean(1), mean(3), mean(4))
    best = None
    for b in bids:
        v = getattr(calls[b], value)
        if best is None or v > getattr(calls[best], value) + 1e-12:
            best = b
    assert best is not None, "a valued hand has its calls (checked when it is read)"
    advised: dict[str, int] = {}
    for line in lines:
        advised[line.advice] = advised.get(line.advice, 0) + 1
    return Cell(key, len(lines), best, calls, dict(sorted(advised.items())))


def _groups(by_value: dict[Level, list[Any]], domain: Sequence[Level],
            min_hands: int) -> list[tuple[Level, ...]]:
    """The values of one level cut into runs: each value seen is a run, a run of fewer
    than ``min_hands`` hands is merged with its smaller neighbour until none is (or one
    run is left), then the values not seen join the run before them (the first run, when
    none is before): the runs cover the domain."""
    runs = [[v] for v in domain if by_value.get(v)]

    def size(run: Sequence[Level]) -> int:
        return sum(len(by_value[v]) for v in run if v in by_value)

    while len(runs) > 1 and min(size(r) for r in runs) < min_hands:
        i = min(range(len(runs)), key=lambda j: (size(runs[j]), j))
        if i == 0:
            j = 1
        elif i == len(runs) - 1:
            j = i - 1
        else:
            j = i - 1 if size(runs[i - 1]) <= size(runs[i + 1]) else i + 1
        a, b = min(i, j), max(i, j)
        runs[a:b + 1] = [runs[a] + runs[b]]
    out = [list(r) for r in runs]
    for v in domain:
        if any(v in r for r in out):
            continue
        k = domain.index(v)
        before = [i for i, r in enumerate(out) if domain.index(r[-1]) < k]
        target = out[before[-1]] if before else out[0]
        target.append(v)
    return [tuple(sorted(r, key=domain.index)) for r in out]


def build(spec: ChartSpec, lines: list[ValuedHand], min_hands: int = MIN_HANDS,
          measured: Measure | None = None) -> Chart:
    """The chart of valued hands: the hands grouped level by level (:data:`LEVELS`),
    each level's values cut into runs of at least ``min_hands`` hands (a value seldom
    seen merged into its neighbour), so that every cell rests on at least ``min_hands``
    hands (unless the hands given are fewer) and the cells cover every class once."""
    if not lines:
        raise LabError(_("no hands to make a chart from"))
    keyed = [(line.hand_class.key, line) for line in lines]
    value = _value_name(spec, lines)
    cells: dict[CellKey, Cell] = {}

    def split(key: CellKey, group: list[tuple[ClassKey, ValuedHand]]) -> None:
        depth = len(key)
        if depth == len(LEVELS):
            cells[key] = _cell(key, group, value, spec.keep)
            return
        by_value: dict[Level, list[tuple[ClassKey, ValuedHand]]] = {}
        for k, line in group:
            by_value.setdefault(k[depth], []).append((k, line))
        for g in _groups(by_value, DOMAINS[depth], min_hands):
            split(key + (g,), [x for v in g for x in by_value.get(v, ())])

    split((), keyed)
    return Chart(spec.rules, spec.seat, spec.auction, spec.score, len(lines), value,
                 cells, min_hands, measured)


# --- how good it is ----------------------------------------------------------------------

def measure(chart: Chart, spec: ChartSpec, count: int = DEFAULT_MEASURE, *,
            workers: int | None = None, ray: str | None = None, path: str | None = None,
            progress: Progress | None = None, lines: list[ValuedHand] | None = None
            ) -> Measure:
    """The chart against :func:`advise` with its default budget on ``count`` fresh
    hands: ``agreement`` (the share of hands where the chart's call is the advice, with
    its Wilson 95% interval), ``given_up`` (the mean value per hand the advice's numbers
    say following the chart gives up, with a 95% interval), in the unit of
    ``chart.value``.  ``lines``: hands already valued (:func:`value_hands` with
    ``samples=None`` on the measuring stream)."""
    fresh = replace(spec, samples=None)
    if lines is None:
        lines = value_hands(fresh, count, stream=MEASURE_STREAM, workers=workers, ray=ray,
                            path=path, progress=progress)
    same, losses, bids, bids_same = 0, [], 0, 0
    for line in lines:
        call = chart.cell_at(line.hand_class.key).call
        same += call == line.advice
        if "paso" not in (call, line.advice):
            bids += 1
            bids_same += call == line.advice
        elif call != line.advice:
            bids += 1
        losses.append(max(0.0, line.worth(line.advice, chart.value)
                          - line.worth(call, chart.value)))
    return _summary(len(lines), same, float(np.sum(losses)),
                    float(np.sum(np.square(losses))), chart.value, bids, bids_same)


def _summary(n: int, same: int, total: float, squares: float, unit: str,
             bids: int, bids_same: int) -> Measure:
    """Agreement with its Wilson interval and the mean given up with a normal 95%
    interval, from the counts and sums (so that several can be pooled); ``bids``: the
    hands on which the chart or advise (or both) calls more than paso, ``bids_same``
    those of them on which both make the same call (the paso hands, most of them and
    easy, left out)."""
    lo, hi = wilson(same, n)
    mean = total / n
    var = (squares - n * mean * mean) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    blo, bhi = wilson(bids_same, bids) if bids else (0.0, 1.0)
    return Measure(hands=n, same=same, agreement=round(same / n, 4),
                   agreement_ci95=(round(lo, 4), round(hi, 4)),
                   given_up=round(mean, 4),
                   given_up_ci95=(round(max(0.0, mean - half), 4), round(mean + half, 4)),
                   given_up_sum=round(total, 6), given_up_squares=round(squares, 6),
                   bid_hands=bids, bid_same=bids_same,
                   bid_agreement=round(bids_same / bids, 4) if bids else None,
                   bid_agreement_ci95=(round(blo, 4), round(bhi, 4)),
                   unit=unit, advise="default budget (Budget())",
                   seed_stream=MEASURE_STREAM)


def pooled(measured: Sequence[Measure | None]) -> Measure | None:
    """The measures of several charts as one (the hands of all of them)."""
    ms = [m for m in measured if m]
    if not ms or len({m.unit for m in ms}) != 1:
        return None
    return _summary(sum(m.hands for m in ms), sum(m.same for m in ms),
                    sum(m.given_up_sum for m in ms),
                    sum(m.given_up_squares for m in ms), ms[0].unit,
                    sum(m.bid_hands or 0 for m in ms), sum(m.bid_same or 0 for m in ms))


def _json_of(m: Measure | None) -> JSONObject | None:
    return None if m is None else m.to_dict()


def to_json(chartset: ChartSet) -> str:
    """The JSON text of a chart file (as the shipped ones)."""
    return json.dumps(chartset.to_dict(), indent=1, ensure_ascii=False) + "\n"


def _labelled(progress: Callable[[str, int, int], None] | None, label: str
              ) -> Progress | None:
    """``progress`` with its first argument, the label of the step, given."""
    if progress is None:
        return None
    return lambda done, total: progress(label, done, total)


def compute(specs: Sequence[ChartSpec], hands: int = DEFAULT_HANDS, *,
            min_hands: int = MIN_HANDS, measure_hands: int = 0,
            workers: int | None = None, ray: str | None = None, path: str | None = None,
            command: str | None = None,
            progress: Callable[[str, int, int], None] | None = None) -> ChartSet:
    """The charts of ``specs`` (same rules), each from ``hands`` hands, measured on
    ``measure_hands`` fresh hands (0: not measured), with their provenance; ``path``: the
    hands file the valued hands are kept in (see :func:`value_hands`)."""
    if not specs:
        raise LabError(_("no chart to compute"))
    rules = specs[0].rules
    charts = []
    for spec in specs:
        what = f"seat {spec.seat}"
        lines = value_hands(spec, hands, workers=workers, ray=ray, path=path,
                            progress=_labelled(progress, f"chart {what}"))
        chart = build(spec, lines, min_hands)
        if measure_hands:
            chart = replace(chart, measured=measure(
                chart, spec, measure_hands, workers=workers, ray=ray, path=path,
                progress=_labelled(progress, f"measure {what}")))
        charts.append(chart)
    prov = {"command": command, "hands_per_chart": hands,
            "advise_budget": f"Budget(samples={specs[0].samples})"
                             + ("" if specs[0].samples else " (advise's default)"),
            "models": "the preset's (Models.of(rules)), as cuatrola advise uses them",
            "min_hands": min_hands, "seed": specs[0].seed,
            "kept_by_trumps": None if specs[0].keep is None else list(specs[0].keep),
            "measured_on": f"{measure_hands} fresh hands per chart, advise's default budget"
                           if measure_hands else None,
            "measured": _json_of(pooled([c.measured for c in charts])),
            "date": datetime.date.today().isoformat(), "charts_version": CHARTS_VERSION}
    return ChartSet(rules, tuple(charts), prov)
