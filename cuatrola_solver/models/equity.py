"""Match equity: the chance of winning the match from a score, per preset.

A match is a chain of hands.  Each hand, one pair holds seats 1 & 3 (side A, the
*mano*'s side) and the other seats 2 & 4 (side B); the deal passes to the next seat, so
the next hand's seat 1 is this hand's seat 2 and the pairs swap labels every hand
(docs/rules.md 7).  A state of the match is therefore *my pair's score, their pair's score,
and whether my pair is side A in the next hand* (``mano``).

**Hand results** (:class:`HandResults`): how often side A or side B scores 1, 2, 4, 5...
match points in a hand, as counts.  The counts depend on who may bid what, so they are
kept per pair of *cap classes*: a pair's class is the most a bid of it may be worth
under the match caps at its score (5: any bid; 4: no quintola; 2: solo at most;
1: paso only; docs/rules.md 3, ``bid_cap``).  Without caps every hand is class ``(5, 5)``.
The counts shipped with the package (``cuatrola_solver/data/hand_results_PRESET.json``,
with their provenance) are measured by :func:`measure_hand_results`: random deals, each
seat bidding as :func:`bidding.advise` advises from its own cards on a few sampled deals
(per-hand expected points; later seats assumed to pass), the contract then played
double dummy.  Self-play records can feed the same format: one count per hand, by the
two pairs' cap classes, the side that scored and how much.

**The table** (:class:`EquityTable`): P(my pair wins the match) for every score state,
by dynamic programming over the states up to the target.  With ``win_by > 1`` the
states past the target are unbounded; once both pairs are within ``win_by`` of the
target (and the caps no longer change with the score) the chance depends only on the
lead and on who is mano, and those few states are solved as one linear system.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import numpy.typing as npt

from ..errors import CuatrolaError
from . import store
from ..game.jsonvalue import JSONObject, JSONValue, ParsedJSON
from ..game.match import Score, bid_cap_reason, match_winner
from ..game.seats import Side
from ..game.rules import CONTRACT_VALUE, RuleSet, get_rules, rules_spec

__all__ = ["CAP_CLASSES", "cap_class", "HandResults", "Source", "EquityTable", "table",
           "load_hand_results", "data_path", "simulate_matches"]

#: a pair's cap class: the most a bid of it may be worth (1: it may only pass)
CAP_CLASSES = (5, 4, 2, 1)
#: the largest target and win_by the table is computed for: its work grows with the
#: square of target + win_by (a second at 100 and 1; 100 and 100 print 4 MB of JSON),
#: the rules allow 1000 (docs/equity.md)
MAX_TABLE_POINTS = 100
#: the most match points one hand may score in the data (a renuncio paid double is 10)
MAX_HAND_POINTS = 1000
DATA_KIND = "hand_results"

Progress = Callable[[int, int], None]


def cap_class(rules: RuleSet, pair_score: int) -> int:
    """The most a bid of a pair at ``pair_score`` may be worth under ``rules``' caps."""
    values = [CONTRACT_VALUE[c] for c in rules.allowed_contracts()
              if bid_cap_reason(rules, pair_score, c) is None]
    top = max(values)
    return max(v for v in CAP_CLASSES if v <= top)


# --- hand results ------------------------------------------------------------------------

def _key(ca: int, cb: int) -> str:
    return f"{ca},{cb}"


@dataclass(frozen=True)
class Source:
    """What a hand results file says of where it comes from: the random deals measured,
    their seed, the date and the package version (``"?"`` where it does not say)."""

    deals: int | str
    seed: JSONValue
    date: str
    version: JSONValue

    @classmethod
    def of(cls, provenance: ParsedJSON) -> "Source":
        deals = provenance.get("deals", "?")
        return cls(deals if isinstance(deals, int) else str(deals),
                   provenance.get("seed", "?"), str(provenance.get("date", "?"))[:10],
                   provenance.get("version", "?"))


@dataclass
class HandResults:
    """Counts of hand results per pair of cap classes (side A's, side B's).

    ``counts[(ca, cb)][(side, points)]``: hands in which ``side`` (0 = A, 1 = B)
    scored ``points`` match points."""

    rules: str
    counts: dict[tuple[int, int], dict[tuple[int, int], int]] = field(default_factory=dict)
    contracts: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)
    provenance: ParsedJSON = field(default_factory=dict)

    def add(self, caps: tuple[int, int], side: int, points: int, contract: str | None = None,
            n: int = 1) -> None:
        if points <= 0:
            raise ValueError(f"a hand result scores at least 1 point, not {points}")
        c = self.counts.setdefault(caps, {})
        c[(side, points)] = c.get((side, points), 0) + n
        if contract is not None:
            k = self.contracts.setdefault(caps, {})
            k[contract] = k.get(contract, 0) + n

    def hands(self, caps: tuple[int, int]) -> int:
        return sum(self.counts.get(caps, {}).values())

    @property
    def source(self) -> "Source | None":
        """Where these results come from, as their provenance says (None without one)."""
        return Source.of(self.provenance) if self.provenance else None

    def distribution(self, caps: tuple[int, int]) -> list[tuple[int, int, float]]:
        """``[(side, points, probability)]`` of one hand at these cap classes."""
        c = self.counts.get(caps)
        if not c:
            raise CuatrolaError(
                f"no hand results for cap classes A {caps[0]}, B {caps[1]} in the data of "
                f"{self.rules}: regenerate them with 'cuatrola equity --rules {self.rules} "
                f"--regenerate'")
        n = sum(c.values())
        return [(side, pts, k / n) for (side, pts), k in sorted(c.items())]

    def to_dict(self) -> JSONObject:
        tables: list[JSONObject] = []
        for caps in sorted(self.counts, key=lambda c: (-c[0], -c[1])):
            c = self.counts[caps]
            results = {name: {str(p): k for (s, p), k in sorted(c.items()) if s == side}
                       for side, name in ((0, "A"), (1, "B"))}
            row: JSONObject = {"caps": {"A": caps[0], "B": caps[1]}, "hands": sum(c.values()),
                   "results": results}
            if caps in self.contracts:
                row["contracts"] = dict(sorted(self.contracts[caps].items()))
            tables.append(row)
        return {"schema": 1, "kind": DATA_KIND, "rules": self.rules,
                "provenance": self.provenance,
                "format": "results[side][points] = hands in which that side (A: seats 1 & 3, "
                          "the mano's; B: seats 2 & 4) scored that many match points, per "
                          "pair of cap classes (the most a bid of each side may be worth)",
                "tables": tables}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "HandResults":
        """Read the JSON form, every field checked: ``CuatrolaError`` saying which field
        is not what it should be (the loader adds the file)."""
        if not isinstance(d, Mapping) or d.get("kind") != DATA_KIND or d.get("schema") != 1:
            raise CuatrolaError("not a hand-results file (expected kind 'hand_results', "
                                "schema 1)")
        if not isinstance(d.get("rules"), str):
            raise CuatrolaError("'rules': expected a preset name")
        provenance = d.get("provenance", {})
        if not isinstance(provenance, dict):
            raise CuatrolaError("'provenance': expected an object")
        tables = d.get("tables")
        if not isinstance(tables, list) or not tables:
            raise CuatrolaError("'tables': expected a list of tables, one per pair of cap "
                                "classes")
        out = cls(d["rules"], provenance=dict(provenance))
        for i, t in enumerate(tables):
            where = f"tables[{i}]"
            if not isinstance(t, dict) or not isinstance(t.get("caps"), dict) \
                    or not isinstance(t.get("results"), dict):
                raise CuatrolaError(f"{where}: expected an object with caps and results")
            caps = tuple(t["caps"].get(side) for side in ("A", "B"))
            if set(t["caps"]) != {"A", "B"} or not all(_whole(c) and c in CAP_CLASSES
                                                       for c in caps):
                raise CuatrolaError(f"{where}.caps: expected the cap classes of A and B, "
                                    f"each one of {', '.join(map(str, CAP_CLASSES))}")
            if caps in out.counts:
                raise CuatrolaError(f"{where}.caps: a second table of classes A {caps[0]}, "
                                    f"B {caps[1]}")
            if not set(t["results"]) <= {"A", "B"}:
                raise CuatrolaError(f"{where}.results: expected the sides A and B")
            hands = 0
            for side, name in ((0, "A"), (1, "B")):
                counts = t["results"].get(name, {})
                if not isinstance(counts, dict):
                    raise CuatrolaError(f"{where}.results.{name}: expected an object of "
                                        f"points -> hands")
                for pts, k in counts.items():
                    if not (pts.isascii() and pts.isdigit() and 1 <= int(pts) <= MAX_HAND_POINTS):
                        raise CuatrolaError(f"{where}.results.{name}: points {pts!r}: "
                                            f"expected 1 to {MAX_HAND_POINTS}")
                    if not _whole(k) or k < 0:
                        raise CuatrolaError(f"{where}.results.{name}[{pts!r}]: expected a "
                                            f"count of hands, 0 or more")
                    if k:
                        out.add(caps, side, int(pts), n=k)
                        hands += k
            if not hands:
                raise CuatrolaError(f"{where}: no hand counted for classes A {caps[0]}, "
                                    f"B {caps[1]}")
            if "hands" in t and t["hands"] != hands:
                raise CuatrolaError(f"{where}.hands: {t['hands']!r}, but the results count "
                                    f"{hands}")
            if "contracts" in t:
                contracts = t["contracts"]
                if not isinstance(contracts, dict) or not all(
                        c in CONTRACT_VALUE and _whole(k) and k >= 0
                        for c, k in contracts.items()):
                    raise CuatrolaError(f"{where}.contracts: expected an object of "
                                        f"contract -> hands")
                out.contracts[caps] = dict(contracts)
        return out


def _whole(value: object) -> bool:
    """A JSON whole number (not true or false)."""
    return isinstance(value, int) and not isinstance(value, bool)


def data_path(preset: str) -> Path:
    """Where the package keeps the hand results of ``preset``."""
    return store.data_path("hand_results", preset)


@lru_cache(maxsize=None)
def load_hand_results(preset: str) -> HandResults:
    """The hand results shipped with the package for ``preset``; ModelError when the file
    is missing, corrupt, or for another preset or schema."""
    obj, path = store.read("hand_results", get_rules(preset), data_path(preset))
    try:
        return HandResults.from_dict(obj)
    except (CuatrolaError, KeyError, TypeError, ValueError, AttributeError) as e:
        raise store.corrupt("hand_results", path, str(e) or type(e).__name__) from None


# --- the table -----------------------------------------------------------------------------

class EquityTable:
    """P(my pair wins the match | my score, their score, my pair is side A next hand).

    ``results`` gives, per pair of cap classes, the chance of each hand result; states
    are solved once, at construction."""

    def __init__(self, rules: RuleSet, results: HandResults):
        self.rules = rules
        self.results = results
        T, w = rules.target, rules.win_by
        if T > MAX_TABLE_POINTS or w > MAX_TABLE_POINTS:
            raise CuatrolaError(
                f"the match-equity table (of equity, and of advise with a --score) is "
                f"computed for a target and a win_by of at most {MAX_TABLE_POINTS}, its work "
                f"growing with their square: these rules play to {T}"
                + (f" by {w}" if w > 1 else "") + " (docs/equity.md)")
        self.target, self.win_by = T, w
        # past the target and near_target_from the caps no longer change with the score
        far = max(T, rules.near_target_from) + w + 10
        self._far_class = cap_class(rules, far)
        # from `stable` on, a pair's cap class no longer changes with its score
        stable = far
        while stable > 0 and cap_class(rules, stable - 1) == self._far_class:
            stable -= 1
        #: from this score on (both pairs), only the lead and the mano matter
        self.lead_from = max(T - w, stable, 0)
        self._classes = [cap_class(rules, s) for s in range(self.lead_from + w + 1)]
        self._dist: dict[tuple[int, int], list[tuple[int, int, float]]] = {}
        self._lead = self._solve_lead()
        self._values: dict[tuple[int, int, bool], float] = {}
        # the open states below lead_from have both scores under lead_from + win_by
        box = self.lead_from + w
        for total in range(2 * box - 2, -1, -1):          # successors (more points) first
            for m in range(max(0, total - box + 1), min(total, box - 1) + 1):
                t = total - m
                if self._live(m, t) and min(m, t) < self.lead_from:
                    for mano in (True, False):
                        self._values[(m, t, mano)] = self._expect(m, t, mano)

    # -- helpers
    def _cls(self, s: int) -> int:
        return self._classes[s] if s < len(self._classes) else self._far_class

    def dist(self, ca: int, cb: int) -> list[tuple[int, int, float]]:
        key = (ca, cb)
        if key not in self._dist:
            self._dist[key] = self.results.distribution(key)
        return self._dist[key]

    def _live(self, m: int, t: int) -> bool:
        return match_winner(self.rules, m, t) is None

    def _caps(self, m: int, t: int, mano: bool) -> tuple[int, int]:
        return (self._cls(m), self._cls(t)) if mano else (self._cls(t), self._cls(m))

    def _expect(self, m: int, t: int, mano: bool) -> float:
        total = 0.0
        for side, pts, p in self.dist(*self._caps(m, t, mano)):
            if (side == 0) == mano:
                total += p * self.p_win(m + pts, t, not mano)
            else:
                total += p * self.p_win(m, t + pts, not mano)
        return total

    def _solve_lead(self) -> dict[tuple[int, bool], float]:
        """The states where only the lead d (|d| < win_by) and the mano matter."""
        w = self.win_by
        leads = list(range(-w + 1, w))
        index = {(d, mano): i for i, (d, mano) in
                 enumerate((d, mano) for d in leads for mano in (True, False))}
        n = len(index)
        a = np.eye(n)
        b = np.zeros(n)
        dist = self.dist(self._far_class, self._far_class)
        for (d, mano), i in index.items():
            for side, pts, p in dist:
                nd = d + pts if (side == 0) == mano else d - pts
                if nd >= w:
                    b[i] += p
                elif nd > -w:
                    a[i, index[(nd, not mano)]] -= p
        try:
            x = np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            x = None
        if x is None or not np.all(np.isfinite(x)) or x.min() < -1e-9 or x.max() > 1 + 1e-9:
            raise CuatrolaError(
                f"these hand results never decide a match won by {w}: the lead cannot grow "
                f"to {w} (the data of {self.results.rules} is degenerate)")
        x = np.clip(x, 0.0, 1.0)
        return {key: float(x[i]) for key, i in index.items()}

    # -- the answers
    def p_win(self, mine: int, theirs: int, mano: bool) -> float:
        """P(my pair wins the match) at ``mine``-``theirs`` before a hand in which my pair
        is side A (``mano``) or side B."""
        if mine < 0 or theirs < 0:
            raise ValueError("scores are not negative")
        w = match_winner(self.rules, mine, theirs)
        if w is not None:
            return 1.0 if w is Side.A else 0.0
        if min(mine, theirs) >= self.lead_from:
            return self._lead[(mine - theirs, bool(mano))]
        return self._values[(mine, theirs, bool(mano))]

    def after_hand(self, score: Score, side: int, points: int) -> float:
        """P(``side``'s pair wins the match) after a hand at the A/B ``score`` in which
        ``side`` (0 = A, 1 = B) scores ``points`` (negative: the other side scores
        ``-points``).  The next hand ``side``'s pair is side A iff it is B now."""
        mine, theirs = score.of(side), score.of(1 - side)
        if points >= 0:
            mine += points
        else:
            theirs -= points
        return self.p_win(mine, theirs, side == 1)

    def match_chance(self, score: Score, side: int,
                     outcomes: Iterable[tuple[int, float]]) -> float:
        """P(``side``'s pair wins the match) given the chances of the hand's results
        ``[(points of side, probability)]``."""
        return sum(p * self.after_hand(score, side, g) for g, p in outcomes)

    def states(self, through: int | None = None) -> list[tuple[int, int, bool, float]]:
        """``(mine, theirs, mano, p_win)`` of every undecided state with both scores up to
        ``through`` (default: the target, or the target - 1 when ``win_by`` is 1)."""
        top = self.target + self.win_by - 2 if through is None else through
        out = []
        for m in range(top + 1):
            for t in range(top + 1):
                if self._live(m, t):
                    for mano in (True, False):
                        out.append((m, t, mano, self.p_win(m, t, mano)))
        return out

    def to_dict(self) -> JSONObject:
        """The table as ``equity --json`` writes it: the rules, the goal, the hand
        results' provenance and every undecided state (:meth:`states`)."""
        return {"rules": rules_spec(self.rules), "target": self.target,
                "win_by": self.win_by, "hand_results": self.results.provenance,
                "rows": [{"mine": m, "theirs": t, "mano": mano, "p_win": p}
                         for m, t, mano, p in self.states()]}


@lru_cache(maxsize=32)
def table(rules: RuleSet | str | None = None) -> EquityTable:
    """The equity table of ``rules``, from the hand results of its preset."""
    rules = get_rules(rules)
    return EquityTable(rules, load_hand_results(rules.name))


# --- checking the table: matches played directly from the hand results -------------------

def simulate_matches(rules: RuleSet, results: HandResults, mine: int, theirs: int, mano: bool,
                     n: int, seed: int) -> int:
    """Play ``n`` matches from ``mine``-``theirs`` (my pair side A in the first hand iff
    ``mano``), every hand drawn from ``results``; return how many my pair wins."""
    rng = np.random.default_rng(seed)
    wins = 0
    cache: dict[tuple[int, int], tuple[npt.NDArray[np.int64], npt.NDArray[np.int64],
                                       npt.NDArray[np.float64]]] = {}

    def draw(caps: tuple[int, int]) -> tuple[int, int]:
        if caps not in cache:
            d = results.distribution(caps)
            cache[caps] = (np.array([s for s, _, _ in d]), np.array([p for _, p, _ in d]),
                           np.cumsum([q for _, _, q in d]))
        sides, pts, cum = cache[caps]
        i = min(int(np.searchsorted(cum, rng.random(), side="right")), len(cum) - 1)
        return int(sides[i]), int(pts[i])

    for _ in range(n):
        m, t, a = mine, theirs, mano
        while True:
            w = match_winner(rules, m, t)
            if w is not None:
                wins += w is Side.A
                break
            caps = (cap_class(rules, m), cap_class(rules, t)) if a else \
                (cap_class(rules, t), cap_class(rules, m))
            side, pts = draw(caps)
            if (side == 0) == a:
                m += pts
            else:
                t += pts
            a = not a
    return wins
