"""Bidding charts: which call a hand should make, by a class of hand a player can remember.

As poker's preflop charts do for starting hands, a :class:`Chart` tells, for one seat
about to speak after given calls, which call the advisor makes on average for each
**class** of hand, with the numbers behind it.  A hand's class (:func:`hand_class`) is
four things a player sees at a glance, from the coarsest to the finest:

1. ``trumps``: how many trumps it holds (0, 1, 2, 3, or 4 and more: ``4``);
2. ``tops``: which of the as and the tres of trumps are among them (``""``, ``"3"``,
   ``"A"``, ``"A3"``);
3. ``aces``: how many aces of the other suits (0, 1, or 2 and more: ``2``);
4. ``voids``: in how many of the other suits it holds no card (0, 1, or 2 and more: ``2``).

A chart's **cell** groups classes: at each level a run of neighbouring values
(:data:`DOMAINS` gives their order), so that no cell rests on a handful of hands
(:mod:`cuatrola_solver.lab.charts` merges a value seldom seen into its neighbour); the
cells cover every class once.  Per cell and call: the mean P(win) (double dummy, and as
played with the preset's played-odds model), the mean expected match points, the chance
of winning the match with a score; ``call`` is the call of best mean value
(:attr:`Chart.value`: the played EV when there is a played-odds model, the double-dummy
EV without, the match chance with a score), ``advised`` how often the advisor itself
chose each call on the cell's hands.

The lab computes charts from the advisor over many random deals
(:mod:`cuatrola_solver.lab.charts`); one file per preset ships in
``cuatrola_solver/models/data/charts_PRESET.json`` with how it was made and how well it
agrees with the advisor on fresh hands (:attr:`Chart.measured`).  Using a chart needs no
search: :meth:`Chart.cell_of` is a lookup.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from ..errors import ModelError
from ..game.cards import SUIT_MASKS, CardMask, popcount
from ..game.jsonvalue import JSONObject, ParsedJSON
from ..game.match import Score
from ..game.rules import RuleSet
from ..i18n import _, later
from .store import corrupt, data_path, read

__all__ = ["HandClass", "Cell", "CallStats", "Measure", "Chart", "ChartSet", "hand_class",
           "load_charts", "charts_path", "LEVELS", "DOMAINS", "ROWS", "COLUMNS",
           "CHARTS_VERSION", "describe_key", "possible", "group_label", "Situation",
           "passed_before", "seat_after", "situation_asked", "SHIPPED_SITUATIONS"]

CHARTS_VERSION = 1
#: the levels of a class, coarsest first
LEVELS = ("trumps", "tops", "aces", "voids")
#: the values of each level, in order (a cell's group at a level is a run of them)
#: a value of a level: a count, or for ``tops`` the top trumps held ("", "3", "A", "A3")
Level = Union[int, str]
#: a hand's class: one value per level (:attr:`HandClass.key`)
ClassKey = tuple[Level, ...]
#: a cell's classes: per level a run of values
CellKey = tuple[tuple[Level, ...], ...]
DOMAINS: tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...]] = (
    (0, 1, 2, 3, 4), ("", "3", "A", "A3"), (0, 1, 2), (0, 1, 2))
_AS, _TRES = 4, 3


@dataclass(frozen=True)
class HandClass:
    """The class of a hand (see the module's docstring)."""

    trumps: int
    tops: str
    aces: int
    voids: int

    @property
    def key(self) -> ClassKey:
        return (self.trumps, self.tops, self.aces, self.voids)


def hand_class(hand: CardMask, trump: int) -> HandClass:
    """The class of the five cards ``hand`` (a mask) with ``trump`` the suit of the
    muestra."""
    trumps = hand & SUIT_MASKS[trump]
    tops = ("A" if trumps >> (trump * 5 + _AS) & 1 else "") + (
        "3" if trumps >> (trump * 5 + _TRES) & 1 else "")
    plain = [s for s in range(4) if s != trump]
    aces = sum(1 for s in plain if hand >> (s * 5 + _AS) & 1)
    voids = sum(1 for s in plain if not hand & SUIT_MASKS[s])
    return HandClass(min(popcount(trumps), 4), tops, min(aces, 2), min(voids, 2))


@lru_cache(maxsize=1)
def _possible() -> frozenset[ClassKey]:
    return frozenset(hand_class(sum(1 << c for c in cards), 0).key
                     for cards in itertools.combinations(range(20), 5))


def possible(key: Sequence[Level]) -> bool:
    """Whether some hand has the class ``key`` (four trumps leave one other card: at most
    one outside ace, two voids at least)."""
    return tuple(key) in _possible()


#: the columns of a chart's grid: (aces, voids)
COLUMNS: tuple[tuple[int, int], ...] = tuple((a, v) for a in DOMAINS[2] for v in DOMAINS[3])
#: the rows of a chart's grid: (trumps, tops) as a hand can hold them (four trumps hold
#: the as or the tres)
ROWS: tuple[tuple[int, str], ...] = tuple(
    (n, t) for n in DOMAINS[0] for t in DOMAINS[1]
    if any(possible((n, t) + c) for c in COLUMNS))

_TOPS: dict[tuple[Level, ...], str] = {("",): later("no as or tres"), ("3",): later("the tres, no as"),
         ("A",): later("the as, no tres"), ("A3",): later("the as and the tres"),
         ("", "3"): later("no as"), ("3", "A"): later("the as or the tres"),
         ("A", "A3"): later("the as"), ("", "3", "A"): later("not both as and tres"),
         ("3", "A", "A3"): later("the as or the tres")}


def _run(group: Sequence[Level], domain: Sequence[Level]) -> str:
    """A run of counts: ``2``, ``0-1``, ``3+``, the last value of the domain being "and
    more" (``4+``)."""
    lo, hi = group[0], group[-1]
    if hi == domain[-1]:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def group_label(level: int, group: Sequence[Level]) -> str:
    """A group of one level for people: ``"2 triunfos"``, ``"the as"``, ``"1 outside
    ace"``, ``"a void"``; empty for the whole level (any)."""
    group = tuple(group)
    domain = DOMAINS[level]
    if group == domain:
        return ""
    if level == 1:
        return _TOPS.get(group, " or ".join(str(g) or "neither" for g in group))
    if level == 3 and group == (1, 2):
        return later("a void")
    if group == (0,):
        return (later("no triunfo"), "", later("no outside ace"), later("no void"))[level]
    n = _run(group, domain)
    if n == "1":
        return (later("{n} triunfo", n=n), "", later("{n} outside ace", n=n),
                later("{n} void", n=n))[level]
    return (later("{n} triunfos", n=n), "", later("{n} outside aces", n=n),
            later("{n} voids", n=n))[level]


def describe_key(key: Sequence[Sequence[Level]]) -> str:
    """A cell's classes for people: ``"2 triunfos · the as · 1 outside ace · a void"``
    (in English, as the charts' JSON keeps it; ``_()`` of it is in the current language)."""
    parts = [group_label(i, g) for i, g in enumerate(key)
             if not (i == 1 and tuple(key[0]) == (0,))]    # no trump: no as or tres either
    parts = [p for p in parts if p]
    if not parts:
        return later("every hand")
    template = " · ".join("{p%d}" % i for i in range(len(parts)))
    values = {"p%d" % i: p for i, p in enumerate(parts)}
    return later(template, **values)


@dataclass(frozen=True)
class CallStats:
    """One call's means over a cell's hands."""

    p_win: float
    ev: float
    p_played: float | None = None
    ev_played: float | None = None
    p_match: float | None = None

    @property
    def ev_rated(self) -> float:
        return self.ev_played if self.ev_played is not None else self.ev

    @property
    def p_rated(self) -> float:
        return self.p_played if self.p_played is not None else self.p_win

    def to_dict(self) -> dict[str, float]:
        d = {"p_win": round(self.p_win, 4), "ev": round(self.ev, 4)}
        for name in ("p_played", "ev_played", "p_match"):
            v = getattr(self, name)
            if v is not None:
                d[name] = round(v, 4)
        return d


@dataclass(frozen=True)
class Measure:
    """How well a chart agrees with the advisor on ``hands`` fresh hands (see
    :func:`cuatrola_solver.lab.charts.measure`): the chart made advise's call on ``same``
    of them (``agreement``, with its Wilson 95% interval); following the chart gave up
    ``given_up`` per hand in the unit of the chart's value (``unit``), with a normal 95%
    interval (``given_up_sum`` and ``given_up_squares`` let measures be pooled); on the
    ``bid_hands`` where the chart or advise bids, the same call on ``bid_same``
    (``bid_agreement``: None when there were none; the four ``bid_`` fields None in
    files measured before them)."""

    hands: int
    same: int
    agreement: float
    agreement_ci95: tuple[float, float]
    given_up: float
    given_up_ci95: tuple[float, float]
    given_up_sum: float
    given_up_squares: float
    unit: str
    advise: str
    seed_stream: int
    bid_hands: int | None = None
    bid_same: int | None = None
    bid_agreement: float | None = None
    bid_agreement_ci95: tuple[float, float] | None = None

    def to_dict(self) -> JSONObject:
        bids: JSONObject = {} if self.bid_hands is None else {
            "bid_hands": self.bid_hands, "bid_same": self.bid_same,
            "bid_agreement": self.bid_agreement,
            "bid_agreement_ci95": None if self.bid_agreement_ci95 is None
            else list(self.bid_agreement_ci95)}
        return {"hands": self.hands, "same": self.same, "agreement": self.agreement,
                "agreement_ci95": list(self.agreement_ci95), "given_up": self.given_up,
                "given_up_ci95": list(self.given_up_ci95), "given_up_sum": self.given_up_sum,
                "given_up_squares": self.given_up_squares, **bids, "unit": self.unit,
                "advise": self.advise, "seed_stream": self.seed_stream}

    @classmethod
    def from_dict(cls, d: ParsedJSON) -> "Measure":
        """A measure read back (its numbers as written, so that it is written again the
        same); KeyError, TypeError or ValueError when it is not one."""
        bids = d.get("bid_hands") is not None
        return cls(_number(d["hands"], int), _number(d["same"], int),
                   _number(d["agreement"]), _pair(d["agreement_ci95"]),
                   _number(d["given_up"]), _pair(d["given_up_ci95"]),
                   _number(d["given_up_sum"]), _number(d["given_up_squares"]),
                   str(d["unit"]), str(d["advise"]), _number(d["seed_stream"], int),
                   _number(d["bid_hands"], int) if bids else None,
                   _number(d["bid_same"], int) if bids else None,
                   None if not bids or d["bid_agreement"] is None
                   else _number(d["bid_agreement"]),
                   _pair(d["bid_agreement_ci95"]) if bids else None)


def _number(v: Any, kind: type = float) -> Any:
    """``v`` as read when it is a number of ``kind`` (an int is a float too), else
    TypeError."""
    if isinstance(v, bool) or not isinstance(v, (int,) if kind is int else (int, float)):
        raise TypeError(f"not a number: {v!r}")
    return v


def _pair(v: Any) -> tuple[float, float]:
    lo, hi = v
    return _number(lo), _number(hi)


@dataclass(frozen=True)
class Cell:
    """One cell of a chart: its classes ``key`` (per level of :data:`LEVELS` a run of
    values), the number of hands it rests on, the chart's ``call`` and each allowed
    call's means; ``advised``: on how many of its hands the advisor chose each call."""

    key: CellKey
    hands: int
    call: str
    calls: dict[str, CallStats]
    advised: dict[str, int] = field(default_factory=dict)

    @property
    def stats(self) -> CallStats:
        return self.calls[self.call]

    @property
    def agreement(self) -> float:
        """The share of the cell's hands on which the advisor chose the cell's call."""
        return self.advised.get(self.call, 0) / self.hands if self.hands else 0.0

    @property
    def label(self) -> str:
        return describe_key(self.key)

    def holds(self, key: Sequence[Level]) -> bool:
        """Whether the class ``key`` (a :attr:`HandClass.key`) is one of the cell's."""
        return all(v in g for v, g in zip(key, self.key))

    def to_dict(self, translate: Callable[[str], str] = str) -> JSONObject:
        """The cell's JSON; ``translate``: what its ``class`` (the English of
        :attr:`label`) is shown through (the web page's language)."""
        return {"key": [list(g) for g in self.key], "class": translate(self.label),
                "hands": self.hands,
                "call": self.call, "advised": dict(self.advised),
                "calls": {b: s.to_dict() for b, s in self.calls.items()}}


@dataclass(frozen=True)
class Chart:
    """The chart of one seat about to speak after ``auction`` (the calls of the seats
    before it), at ``score`` (None: no score), under the rules of preset ``rules``.

    ``cells`` are keyed by their class prefix; ``value`` says what the call of a cell is
    chosen on (``ev_played``, ``ev`` or ``p_match``); ``measured`` is how well the chart
    agrees with the advisor on fresh hands (see :mod:`cuatrola_solver.lab.charts`)."""

    rules: Any
    seat: int
    auction: tuple[str, ...]
    score: tuple[int, int] | None
    hands: int
    value: str
    cells: dict[CellKey, Cell]
    min_hands: int
    measured: Measure | None = None

    def cell_of(self, hand: CardMask, trump: int) -> Cell:
        """The cell a hand (mask of five cards) falls in."""
        return self.cell_at(hand_class(hand, trump).key)

    def cell_at(self, key: Sequence[Level]) -> Cell:
        """The cell of a class (a :attr:`HandClass.key`)."""
        for cell in self.cells.values():
            if cell.holds(key):
                return cell
        raise ModelError(_("the chart of seat {seat} has no cell for {value} (a corrupt chart)")
                          .format(seat=self.seat, value=describe_key(tuple((v,) for v in key))))

    def matches(self, seat: int, auction: Sequence[str], score: Sequence[int] | None) -> bool:
        return (self.seat == seat and tuple(auction) == self.auction
                and (None if score is None else tuple(score)) == self.score)

    def to_dict(self, translate: Callable[[str], str] = str) -> JSONObject:
        """The chart's JSON; ``translate`` as :meth:`Cell.to_dict`'s."""
        return {"seat": self.seat, "auction": list(self.auction),
                "score": None if self.score is None else list(self.score),
                "hands": self.hands, "value": self.value, "min_hands": self.min_hands,
                "cells": [c.to_dict(translate) for c in sorted(self.cells.values(),
                                                               key=lambda c: sort_key(c.key))],
                **({"measured": self.measured.to_dict()} if self.measured is not None
                   else {})}

    @classmethod
    def from_dict(cls, rules: Any, d: ParsedJSON) -> "Chart":
        cells: dict[CellKey, Cell] = {}
        for c in d["cells"]:
            key = _key_of(c["key"])
            calls = {b: CallStats(**{k: float(v) for k, v in s.items()})
                     for b, s in c["calls"].items()}
            if c["call"] not in calls or int(c["hands"]) < 1:
                raise ValueError(f"bad cell {c['key']}")
            cells[key] = Cell(key, int(c["hands"]), c["call"], calls,
                              {b: int(n) for b, n in c.get("advised", {}).items()})
        score = d.get("score")
        measured = d.get("measured")
        return cls(rules, int(d["seat"]), tuple(d["auction"]),
                   None if score is None else (int(score[0]), int(score[1])),
                   int(d["hands"]), d["value"], cells, int(d["min_hands"]),
                   None if measured is None else Measure.from_dict(measured))


def _key_of(raw: Sequence[Sequence[Level]]) -> CellKey:
    """A cell's key read back: four runs of values of the levels' domains."""
    if len(raw) != len(LEVELS):
        raise ValueError("bad key")
    key: list[tuple[Level, ...]] = []
    for group, domain in zip(raw, DOMAINS):
        g = tuple(group)
        if not g or any(v not in domain for v in g):
            raise ValueError("bad key")
        at = [domain.index(v) for v in g]
        if at != list(range(at[0], at[0] + len(at))):
            raise ValueError("bad key: not a run of values")
        key.append(g)
    return tuple(key)


def sort_key(key: CellKey) -> tuple[int, ...]:
    """The order of cells: by their first class, in the levels' order."""
    return tuple(DOMAINS[i].index(g[0]) for i, g in enumerate(key))


@dataclass(frozen=True)
class ChartSet:
    """The charts of one preset's file, with how they were made."""

    rules: Any
    charts: tuple[Chart, ...]
    provenance: ParsedJSON
    path: Path | None = None

    def find(self, seat: int, auction: Sequence[str] = (),
             score: Sequence[int] | None = None) -> Chart | None:
        for c in self.charts:
            if c.matches(seat, auction, score):
                return c
        return None

    @property
    def advise_budget(self) -> str:
        """The budget of the advice the hands were valued with, as the provenance says it
        (``?`` when it does not)."""
        return str(self.provenance.get("advise_budget", "?"))

    def how_made(self) -> str:
        """The provenance's plain values in one line: ``command: ...; seed: 0; ...``."""
        return "; ".join(f"{k}: {v}" for k, v in self.provenance.items()
                         if v is not None and not isinstance(v, dict))

    def to_dict(self) -> JSONObject:
        return {"version": CHARTS_VERSION, "rules": self.rules,
                "classes": list(LEVELS),
                "charts": [c.to_dict() for c in self.charts],
                "provenance": self.provenance}


#: whom a chart is for: the seat about to speak, the calls of the seats before it, and
#: the match score as (A, B) (None: the chart of the hand alone)
Situation = tuple[int, tuple[str, ...], Optional[tuple[int, int]]]


def passed_before(seat: int) -> tuple[str, ...]:
    """The calls before ``seat`` when none are given: every seat before it passed (the
    auctions of the shipped charts)."""
    return ("paso",) * (seat - 1)


def seat_after(calls: str) -> int:
    """The seat about to speak after ``calls`` (one call a seat from seat 1, written as
    text: ``"paso, solo"`` -> 3)."""
    return len(calls.replace(",", " ").split()) + 1


def situation_asked(seat: int | None, calls: Sequence[str] | None,
                    score: Score | None) -> Situation | None:
    """The chart asked for: ``seat`` (default 1) after ``calls`` (default: every seat
    before it passed) at ``score``; None when neither a seat nor a score is given (then
    every chart is asked for)."""
    if seat is None and score is None:
        return None
    seat = seat or 1
    return (seat, tuple(calls) if calls is not None else passed_before(seat),
            None if score is None else (score.A, score.B))


#: the situations of the shipped charts: every seat, all passed before it, no score
SHIPPED_SITUATIONS: tuple[Situation, ...] = tuple((s, passed_before(s), None)
                                                  for s in (1, 2, 3, 4))


def charts_path(rules: RuleSet) -> Path:
    return data_path("charts", rules.name)


def load_charts(rules: RuleSet, path: str | Path | None = None) -> ChartSet:
    """The bidding charts of ``rules``' preset (or of the file ``path``); ModelError when
    the file is missing, corrupt, or for another preset or version."""
    obj, p = read("charts", rules, charts_path(rules) if path is None else path)
    try:
        charts = tuple(Chart.from_dict(obj["rules"], d) for d in obj["charts"])
    except (KeyError, TypeError, ValueError) as e:
        raise corrupt("charts", p, f"bad chart ({e})") from None
    for c in charts:
        counts = [sum(cell.holds(k) for cell in c.cells.values()) for k in _possible()]
        if any(n != 1 for n in counts):
            raise corrupt("charts", p, f"the cells of seat {c.seat}'s chart do not cover "
                                       f"every class once")
    if not all(all(math.isfinite(v) for s in c.cells.values() for cs in s.calls.values()
                   for v in cs.to_dict().values()) for c in charts):
        raise corrupt("charts", p, "a value that is not a number")
    return ChartSet(obj["rules"], charts, obj.get("provenance", {}), p)

