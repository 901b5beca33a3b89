"""The double-dummy solver's Python face.

The compiled search ``cuatrola_solver.dd._solver`` (``ext/solver.pyx``) runs when it is
importable; otherwise the pure-Python :mod:`reference` runs and one message on stderr
says so.  ``CUATROLA_PUREPYTHON=1`` forces the reference.  :data:`BACKEND` names the
backend in use (``"compiled"`` or ``"reference"``).

Verbs (values measured for the declaring side, see :mod:`reference`):

- :func:`solve` -- the value of one position for one objective;
- :func:`solve_cards` -- ``{card: value}`` for every legal card (DDS ``SolveBoard``);
- :func:`analyse_play` -- the value after each card (or cante) of a sequence;
- :func:`solve_batch` -- many deals in one call, numpy in and out, over several cores;
- :func:`dd_tables` -- the double-dummy tables of many deals (numpy, several cores);
- :func:`dd_table` -- every contract and declarer of a deal, as ``solve --json`` rows;
- :class:`Evaluator` -- many positions of one contract, one after another, with the
  per-call work (the rules as data) done once: what a search over many deals calls.

Objectives: ``tricks``, ``margin``, ``makes``, ``game_points`` (docs/rules.md 8.9).
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Hashable, Iterable, Literal, Sequence, Union,
                    overload)

import numpy as np
import numpy.typing as npt

from ..errors import RulesError
from ..game import play
from ..game.play import deal_position
from ..game.rules import CONTRACT_VALUE, RuleSet
from . import reference
from ..game.jsonvalue import JSONObject
from ..i18n import _
from .objectives import OBJECTIVES, Value, final_value, points_based
from .reference import Item

if TYPE_CHECKING:
    from ._solver import Params, Solver, State

__all__ = ["BACKEND", "OBJECTIVES", "solve", "solve_cards", "analyse_play", "solve_batch",
           "dd_table", "dd_tables", "table_rows", "table_entries", "TableRow",
           "shown_declarer", "TABLE_FIGURES", "deal_position",
           "context_params", "set_tt_bits", "contract_rows", "solve_layouts",
           "card_figures", "HINT_FIGURES", "Evaluator", "search_order", "in_own_order"]

#: ``progress(done, total)``: called as the deals of a batch are searched
Progress = Callable[[int, int], None]
#: an int32 array of values, one per deal (or per deal and figure)
Values = npt.NDArray[np.int32]
#: ``call(engine, lo, hi)`` of :func:`_in_threads`: the nodes searched
Chunk = Callable[["Solver", int, int], int]
#: what :func:`solve_batch` returns: the values, then the tricks and the nodes if asked
Batch = Values | tuple[Values, int] | tuple[Values, Values] | tuple[Values, Values, int]

_OBJECTIVE_CODE = {name: i for i, name in enumerate(OBJECTIVES)}
_BONUS_CODE = {"none": 0, "over_100": 1, "carbunco": 2}

#: the largest monte the compiled search holds (its values, doubled margins included,
#: stay within the 16 bits of its table's bounds)
MAX_MONTE = 10000

#: default transposition table size: 2**DEFAULT_TT_BITS entries of 32 bytes per thread
DEFAULT_TT_BITS = 12
#: a batch of at least BATCH_DEALS deals searches with larger tables, kept warm from one
#: deal to the next: the points kinds' 2**BATCH_TT_BITS entries (32 MiB a thread), the
#: tricks' 2**BATCH_TRICKS_BITS (16 MiB).  Consecutive layouts of an advice share most
#: of their later tricks: online seat 2's exact solo, 252,252 layouts, 68.9M -> 13.9M
#: nodes.  The points searches of a deal read its tricks search's entries (bounds and
#: first leads), so a larger tricks table pays: the italiano dealer's paso, 756,756
#: layouts, 71.8M nodes with 2**16 entries, 61.0M with 2**19 (CPU 0.90x).
BATCH_DEALS = 4096
BATCH_TT_BITS = 20
BATCH_TRICKS_BITS = 19
#: a smaller batch in a ``slot`` of its own (solve_batch) keeps tables of 2**SLOT_TT_BITS
#: entries from one call to the next: a sampled advice, its rounds of 1,000 deals a
#: contract in turn, each contract in its slot (the default advice: 5.4M -> 4.3M nodes)
SLOT_TT_BITS = 14

_compiled: Any = None    # the compiled module, when it is used
if os.environ.get("CUATROLA_PUREPYTHON", "") not in ("", "0"):
    BACKEND = "reference"
    print("cuatrola-solver: CUATROLA_PUREPYTHON is set: using the pure-Python reference "
          "solver", file=sys.stderr)
else:
    try:
        from . import _solver as _compiled
        BACKEND = "compiled"
    except ImportError as exc:                    # pragma: no cover - depends on the build
        _compiled = None
        BACKEND = "reference"
        from .install_check import compiled_missing_message
        print(compiled_missing_message(exc), file=sys.stderr)

_local = threading.local()
#: the table size set by set_tt_bits (None: the defaults above)
_tt_bits: int | None = None


def set_tt_bits(bits: int | None) -> None:
    """Size of the transposition tables of each thread: ``2**bits`` entries (32 bytes
    each) for every search, batches included; None: the defaults."""
    global _tt_bits
    _tt_bits = None if bits is None else int(bits)
    _local.__dict__.pop("solvers", None)
    with _pool_lock:
        _pool.clear()


def _sizes(n: int = 1, slot: Hashable = None) -> tuple[int, int]:
    """The table sizes (points kinds, tricks) of a call over ``n`` deals (a call in a
    ``slot`` of its own keeps its tables from one call to the next: they may be larger)."""
    if _tt_bits is not None:
        b = max(_tt_bits, 4)
        return b, b
    if n >= BATCH_DEALS:
        return BATCH_TT_BITS, BATCH_TRICKS_BITS
    if slot is not None:
        return SLOT_TT_BITS, SLOT_TT_BITS
    return DEFAULT_TT_BITS, DEFAULT_TT_BITS


def _engine(sizes: tuple[int, int] | None = None, slot: Hashable = None) -> Solver:
    """This thread's search context of those table sizes in ``slot`` (one per size and
    slot, kept warm)."""
    sizes = sizes or _sizes()
    solvers: dict[tuple[tuple[int, int], Hashable], Solver]
    solvers = _local.__dict__.setdefault("solvers", {})
    s = solvers.get((sizes, slot))
    if s is None:
        s = solvers[(sizes, slot)] = _compiled.Solver(*sizes)
    return s


#: idle search contexts of solve_batch's worker threads, kept warm between calls:
#: (slot, context)
_pool: list[tuple[Hashable, Solver]] = []
_pool_lock = threading.Lock()


def _borrow(sizes: tuple[int, int] | None = None, slot: Hashable = None) -> Solver:
    sizes = sizes or _sizes()
    with _pool_lock:
        for i, (k, s) in enumerate(_pool):
            if k == slot and (s.tt_bits, s.tricks_bits) == sizes:
                return _pool.pop(i)[1]
    new: Solver = _compiled.Solver(*sizes)
    return new


def _give_back(s: Solver, slot: Hashable = None) -> None:
    with _pool_lock:
        _pool.append((slot, s))


# --- rules as data -------------------------------------------------------------------

def context_params(rules: RuleSet, contract: str, declarer: Sequence[int],
                   active: Sequence[bool], trump: int) -> tuple[int, ...]:
    """The rules and the contract as the tuple of ints the compiled search reads
    (order: see ``fill_ctx`` in ``ext/solver.pyx``)."""
    pts = points_based(contract, rules)
    after = 0
    for t in rules.cante_after_tricks:
        after |= 1 << t
    if not 0 <= rules.monte <= MAX_MONTE:
        raise RulesError(_("monte={monte} is outside what the solver handles (0 to {max_monte})")
                          .format(monte=rules.monte, max_monte=MAX_MONTE))
    if not 0 <= rules.max_cantes_per_side < 2 ** 31:
        raise RulesError(_("max_cantes_per_side={max_cantes_per_side} is outside what the "
                           "solver handles (0 and up)")
                          .format(max_cantes_per_side=rules.max_cantes_per_side))
    return (int(rules.beat_led_after_trump), int(rules.free_when_cannot_overtrump),
            *(int(a) for a in active),
            play.declaring_side(declarer),
            int(pts), play.tricks_goal(contract, rules) or 0, CONTRACT_VALUE[contract],
            int(contract == "paso"), _BONUS_CODE[rules.pass_bonus],
            int(rules.tie_break == "last_trick"), rules.monte,
            int(rules.cantes_count(contract)), int(rules.cante_by == "any_trick_won"),
            after, rules.max_cantes_per_side, int(rules.forty_first), trump)


def _state(pos: play.Position) -> State:
    return (pos.hands, pos.leader, pos.trick, pos.tricks, pos.points, pos.sung,
            pos.cantes, pos.boundary_sung)


def _check(objective: str) -> int:
    if objective not in _OBJECTIVE_CODE:
        raise ValueError(f"bad objective {objective!r}: expected one of {', '.join(OBJECTIVES)}")
    return _OBJECTIVE_CODE[objective]


def _convert(objective: str, v: int) -> Value:
    return bool(v) if objective == "makes" else int(v)


# --- the verbs -------------------------------------------------------------------------

def solve(pos: play.Position, rules: RuleSet, objective: str = "tricks") -> Value | None:
    """The double-dummy value of ``pos`` for ``objective``, measured for
    ``pos.declaring_side``: an int (tricks, margin, game points) or a bool (makes);
    None for ``margin`` of a contract decided on tricks."""
    code = _check(objective)
    if objective == "margin" and not points_based(pos.contract, rules):
        return None
    if pos.is_over:
        return final_value(pos, rules, objective)
    if _compiled is None:
        return reference.solve(pos, rules, objective)
    params = context_params(rules, pos.contract, pos.declarer, pos.active, pos.trump)
    return _convert(objective, _engine().value(params, _state(pos), code))


class Evaluator:
    """The value of many positions of one contract (the same rules, contract, declarer
    and trump), one call each: ``evaluator(pos)`` is :func:`solve` ``(pos, rules,
    objective)`` as an int (makes: 0 or 1), with the rules as data built once and the
    position read field by field, so that a search calling it thousands of times a card
    spends its time searching.  Not for ``margin`` of a contract decided on tricks."""

    def __init__(self, rules: RuleSet, contract: str, declarer: Sequence[int],
                 active: Sequence[bool], trump: int, objective: str = "makes") -> None:
        self.rules = rules
        self.objective = objective
        self.code = _check(objective)
        if objective == "margin" and not points_based(contract, rules):
            raise ValueError("margin has no value in a contract decided on tricks")
        self.params = context_params(rules, contract, tuple(declarer), tuple(active), trump)
        self._contract, self._declarer = contract, tuple(declarer)
        self._active, self._trump = tuple(bool(a) for a in active), trump

    def __call__(self, pos: play.Position) -> int:
        if pos.tricks[0] + pos.tricks[1] == 5:
            return int(final_value(pos, self.rules, self.objective))
        if _compiled is None:
            return int(reference.solve(pos, self.rules, self.objective) or 0)
        return _engine().value(self.params, (pos.hands, pos.leader, pos.trick, pos.tricks,
                                             pos.points, pos.sung, pos.cantes,
                                             pos.boundary_sung), self.code)

    def state(self, hands: Sequence[int], leader: int, trick: tuple[int, ...],
              tricks: tuple[int, ...], points: tuple[int, ...], sung: int,
              cantes: tuple[int, ...], boundary_sung: tuple[bool, ...]) -> int:
        """The value of the position given by its fields (as :class:`play.Position`'s,
        of a hand not over), without building one."""
        if _compiled is None:
            return int(reference.solve(play.Position(
                self._trump, tuple(hands), self._active, self._contract, self._declarer,
                leader, trick, tricks, points, sung, cantes, boundary_sung), self.rules,
                self.objective) or 0)
        return _engine().value(self.params, (hands, leader, trick, tricks, points, sung,
                                             cantes, boundary_sung), self.code)


def solve_cards(pos: play.Position, rules: RuleSet,
                objective: str = "tricks") -> dict[int, Value | None]:
    """``{card: value}`` for every legal card of the seat on turn (like DDS
    ``SolveBoard`` with all solutions).  The card is played *now*: cantes still
    pending at this trick boundary are forgone -- apply :func:`play.sing` first to
    value the cards after a cante."""
    _check(objective)
    return {c: solve(play.play_card(pos, c, rules.monte), rules, objective)
            for c in reference.legal_cards(pos, rules)} if not pos.is_over else {}


def analyse_play(pos: play.Position, rules: RuleSet, objective: str,
                 cards: Iterable[Item]) -> list[Value | None]:
    """The value after each item of a played sequence: a card (int), or a cante
    given as ``(side, suit)``.  Raises ValueError on an illegal item."""
    _check(objective)
    return reference.analyse_play(pos, rules, objective, cards, solve_fn=solve)


@overload
def solve_batch(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet, contract: str,
                declarer: Sequence[int] = (), objective: str = "tricks",
                workers: int | None = None, return_nodes: Literal[False] = False,
                with_tricks: Literal[False] = False, slot: Hashable = None,
                progress: Progress | None = None) -> Values: ...
@overload
def solve_batch(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet, contract: str,
                declarer: Sequence[int] = (), objective: str = "tricks",
                workers: int | None = None, *, return_nodes: Literal[True],
                with_tricks: Literal[False] = False, slot: Hashable = None,
                progress: Progress | None = None) -> tuple[Values, int]: ...
@overload
def solve_batch(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet, contract: str,
                declarer: Sequence[int] = (), objective: str = "tricks",
                workers: int | None = None, return_nodes: Literal[False] = False, *,
                with_tricks: Literal[True], slot: Hashable = None,
                progress: Progress | None = None) -> tuple[Values, Values]: ...
@overload
def solve_batch(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet, contract: str,
                declarer: Sequence[int] = (), objective: str = "tricks",
                workers: int | None = None, *, return_nodes: Literal[True],
                with_tricks: Literal[True], slot: Hashable = None,
                progress: Progress | None = None) -> tuple[Values, Values, int]: ...


def solve_batch(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet, contract: str,
                declarer: Sequence[int] = (), objective: str = "tricks",
                workers: int | None = None, return_nodes: bool = False,
                with_tricks: bool = False, slot: Hashable = None,
                progress: Progress | None = None) -> Batch:
    """Solve many deals from their first lead in one call.

    ``hands``: int array ``(n, 4)`` of the four hands' masks (seats 1-4); ``trumps``:
    int array ``(n,)``.  Returns an int32 array ``(n,)`` (makes: 0/1; margin of a
    tricks contract: all 0 -- do not ask).  ``workers`` threads (default: all cores)
    each search a slice with the GIL released; the results do not depend on
    ``workers``.  ``with_tricks``: return ``(values, tricks)``, the second the most
    tricks of the declaring side (the compiled search then settles makes and game
    points from it when it can: a side with every trick wins, one with none loses).
    With ``return_nodes`` returns ``(..., nodes)``.  ``slot`` (any hashable name, e.g.
    the contract and declarer): calls in the same slot search with contexts of their own,
    whose tables stay warm from one call to the next whatever other calls search in
    between (only the speed depends on it).  ``progress(done, n)`` is called as the
    deals are searched (in the calling thread); an exception it raises stops the search
    and is raised again.
    """
    code = _check(objective)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    trumps = np.ascontiguousarray(trumps, dtype=np.int64)
    if hands.ndim != 2 or hands.shape[1] != 4 or trumps.shape != (hands.shape[0],):
        raise ValueError("hands must be (n, 4) and trumps (n,)")
    n = hands.shape[0]
    out = np.zeros(n, dtype=np.int32)
    tricks = np.zeros(n, dtype=np.int32) if with_tricks else None

    def result(nodes: int) -> Batch:
        if tricks is None:
            return (out, nodes) if return_nodes else out
        return (out, tricks, nodes) if return_nodes else (out, tricks)

    declarer = tuple(declarer)
    if objective == "margin" and not points_based(contract, rules):
        if with_tricks:
            tricks, nodes = solve_batch(hands, trumps, rules, contract, declarer, "tricks",
                                        workers, return_nodes=True, slot=slot,
                                        progress=progress)
            return result(nodes)
        return result(0)
    active = play.active_seats(declarer)
    if _compiled is None:
        nodes = 0
        for i in range(n):
            pos = deal_position(tuple(int(h) for h in hands[i]), int(trumps[i]), contract,
                                declarer)
            v, k = reference.solve_counted(pos, rules, objective)
            out[i] = int(v or 0)
            nodes += k
            if tricks is not None:
                t, k = reference.solve_counted(pos, rules, "tricks")
                tricks[i] = int(t or 0)
                nodes += k
            if progress is not None:
                progress(i + 1, n)
        return result(nodes)
    params = context_params(rules, contract, declarer, active, 0)
    return result(_in_threads(
        n, workers, 64, 4096,
        lambda s, lo, hi: s.batch(params, hands, trumps, code, out, lo, hi, tricks), slot,
        progress))


#: the fewest layouts card_figures puts in search_order first (below, the sort costs
#: more than it saves)
ORDERED_FROM = 512


def order_cards(trump: int) -> list[int]:
    """The cards :func:`search_order` sorts the layouts by, the most telling first: the
    trumps from the highest down, then the other suits' cards by rank (the aces, the
    treses, ...)."""
    return sorted(range(20), key=lambda c: (c // 5 != trump, -(c % 5), c // 5))


@functools.lru_cache(maxsize=4)
def _order_tables(trump: int) -> npt.NDArray[np.uint64]:
    """``(2, 1024)`` uint64: the weight of each card of :func:`order_cards` (``4**k`` for
    the k-th from the last) summed over the cards of a hand's low ten bits, and of its
    high ten."""
    weight = np.zeros(20, dtype=np.uint64)
    for k, c in enumerate(reversed(order_cards(trump))):
        weight[c] = np.uint64(4) ** np.uint64(k)
    bits = (np.arange(1024)[:, None] >> np.arange(10)) & 1
    return np.stack([(bits * weight[:10]).sum(axis=1), (bits * weight[10:]).sum(axis=1)]
                    ).astype(np.uint64)


def search_order(hands: npt.ArrayLike, trump: int) -> npt.NDArray[np.intp]:
    """An order in which to search many layouts (rows of four hand masks) so that
    neighbours share more of their later tricks and positions, and the tables kept warm
    from one layout to the next find more of them: by who holds each card of
    :func:`order_cards`, the first varying slowest (a 40-bit key: seat 1 counts 0, seat
    2 one, seat 3 two, seat 4 three; ties keep their order).  Only the speed depends on
    it: the italiano dealer's paso, 756,756 layouts, 61.0M nodes in the order of the
    eight first cards alone, 56.6M in this one (sorted in 0.06 s)."""
    hands = np.asarray(hands)
    table = _order_tables(trump)
    key = np.zeros(len(hands), dtype=np.uint64)
    low = np.uint32(1023)
    for seat in (1, 2, 3):
        h = hands[:, seat].astype(np.uint32)
        part = table[0][h & low] + table[1][h >> np.uint32(10)]
        key += part * np.uint64(seat)
    return np.argsort(key, kind="stable")


def in_own_order(found: Values, order: npt.NDArray[np.intp]) -> Values:
    """The rows of ``found``, found for ``layouts[order]`` (``order`` from
    :func:`search_order`), back in the order of ``layouts``."""
    out = np.empty_like(found)
    out[order] = found
    return out


def solve_layouts(pos: play.Position, hands: npt.ArrayLike, rules: RuleSet,
                  objective: str = "tricks", workers: int | None = 1) -> Values:
    """The value of ``pos`` for ``objective`` with each row of ``hands`` (``(n, 4)``
    masks, seats 1-4) as its four hands, everything else as in ``pos``: an int32 array
    ``(n,)`` (makes 0/1), equal to :func:`solve` of each layout.  Not for ``margin`` of a
    contract decided on tricks (it has none)."""
    code = _check(objective)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if hands.ndim != 2 or hands.shape[1] != 4:
        raise ValueError("hands must be (n, 4)")
    if objective == "margin" and not points_based(pos.contract, rules):
        raise ValueError("a contract decided on tricks has no margin")
    n = hands.shape[0]
    out = np.zeros(n, dtype=np.int32)
    if pos.is_over:
        out[:] = int(final_value(pos, rules, objective))
    elif _compiled is None:
        for i in range(n):
            layout = pos.with_changes(hands=tuple(int(h) for h in hands[i]))
            out[i] = int(reference.solve(layout, rules, objective) or 0)
    else:
        params = context_params(rules, pos.contract, pos.declarer, pos.active, pos.trump)
        state = _state(pos)
        _in_threads(n, workers, 64, 4096,
                    lambda s, lo, hi: s.batch_from(params, state, hands, code, out, lo, hi))
    return out


#: the figures of :func:`card_figures`: the last axis of its arrays
HINT_FIGURES = ("tricks", "margin", "makes")


def card_figures(pos: play.Position, hands: npt.ArrayLike, rules: RuleSet,
                 workers: int | None = 1) -> dict[int, Values]:
    """``{card: int32 array (n, 3)}``: for every card the seat on turn may play, the
    tricks, margin (0 for a contract decided on tricks) and makes (0/1) of the
    declaring side after it, with each row of ``hands`` (``(n, 4)`` masks, seats 1-4) as
    the four hands: :func:`solve_cards` of each layout for the three objectives, in one
    pass (the margin settles makes) with the tables warm from one layout to the next,
    :data:`ORDERED_FROM` layouts or more searched in :func:`search_order` (the bench's
    trick-2 hint, 34,650 layouts: 0.43 -> 0.35 s on one core)."""
    if pos.is_over:
        return {}
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if hands.ndim != 2 or hands.shape[1] != 4:
        raise ValueError("hands must be (n, 4)")
    seat = pos.to_play
    pts = points_based(pos.contract, rules)
    order = None
    if len(hands) >= ORDERED_FROM:
        order = search_order(hands, pos.trump)
        hands = np.take(hands, order, axis=0)
    out = {}
    for c in reference.legal_cards(pos, rules):
        after = play.play_card(pos, c, rules.monte)
        rows = hands.copy()
        rows[:, seat - 1] &= ~(1 << c)
        figures = np.zeros((len(rows), 3), dtype=np.int32)
        if after.is_over or _compiled is None:
            for j, o in enumerate(HINT_FIGURES):
                if o != "margin" or pts:
                    figures[:, j] = solve_layouts(after, rows, rules, o, workers)
        else:
            params = context_params(rules, after.contract, after.declarer, after.active,
                                    after.trump)
            state = _state(after)
            _in_threads(len(rows), workers, 64, 4096,
                        lambda s, lo, hi: s.figures_from(params, state, rows, figures, lo, hi))
        out[c] = figures
    if order is not None:                       # back to the order of ``hands``
        out = {c: in_own_order(a, order) for c, a in out.items()}
    return out


def _in_threads(n: int, workers: int | None, least: int, most: int, call: Chunk,
                slot: Hashable = None, progress: Progress | None = None) -> int:
    """Run ``call(engine, lo, hi)`` over the deals ``0..n`` on ``workers`` threads (default:
    all cores), each with its own search context (of ``slot``); returns the sum of what
    the calls return (nodes).

    Each thread searches a span of consecutive deals of its own, front to back in chunks
    of ``least`` to ``most`` deals, so that its tables stay warm from one deal to the
    next (neighbours in :func:`search_order` share their later tricks).  A thread whose
    span is done takes the back half of the span with most left: none idles while
    another has work.  ``progress(done, n)`` is called in the calling thread as chunks
    are done; an exception it raises (a cancel) stops every thread at the end of its
    chunk and is raised again here.  Only the speed depends on ``workers``."""
    workers = max(1, min(workers or os.cpu_count() or 1, n or 1))
    sizes = _sizes(n, slot)
    if n >= BATCH_DEALS:
        slot = None                 # warm from its own deals: no tables kept per slot
    size = max(least, min(most, n // (8 * workers)))
    if workers == 1:
        engine = _engine(sizes, slot)
        if progress is None:
            return call(engine, 0, n)
        nodes = 0
        for lo in range(0, n, size):
            nodes += call(engine, lo, min(lo + size, n))
            progress(min(lo + size, n), n)
        return nodes
    spans = [[n * k // workers, n * (k + 1) // workers] for k in range(workers)]
    changed = threading.Condition()
    counts = [0] * workers
    done = [0]
    errors: list[BaseException] = []
    running = [workers]

    def next_chunk(k: int) -> tuple[int, int] | None:
        """The next chunk of thread k (``changed`` held): from its span, else from the
        back half of the largest span left."""
        lo, hi = spans[k]
        if lo >= hi:
            victim = max(spans, key=lambda span: span[1] - span[0])
            lo, hi = victim
            if lo >= hi:
                return None
            cut = lo if hi - lo <= size else (lo + hi) // 2
            victim[1] = cut
            spans[k] = [cut, hi]
            lo = cut
        spans[k][0] = min(lo + size, hi)
        return lo, spans[k][0]

    def work(k: int) -> None:
        s = _borrow(sizes, slot)
        try:
            while True:
                with changed:
                    chunk = None if errors else next_chunk(k)
                if chunk is None:
                    break
                nodes = call(s, *chunk)
                with changed:
                    counts[k] += nodes
                    done[0] += chunk[1] - chunk[0]
                    changed.notify()
        except BaseException as e:          # raised again in the calling thread
            with changed:
                errors.append(e)
        finally:
            _give_back(s, slot)
            with changed:
                running[0] -= 1
                changed.notify()

    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(workers)]
    for t in threads:
        t.start()
    reported = 0
    try:
        while True:
            with changed:
                while running[0] and done[0] == reported:
                    changed.wait()
                now, alive = done[0], running[0]
            if progress is not None and now != reported and not errors:
                progress(now, n)
            reported = now
            if not alive:
                break
    except BaseException as e:              # a cancel: the threads stop after their chunk
        with changed:
            errors.append(e)
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return sum(counts)


def contract_rows(rules: RuleSet) -> list[tuple[str, tuple[int, ...]]]:
    """``(contract, declarer)`` pairs of a double-dummy table, in table order."""
    rows: list[tuple[str, tuple[int, ...]]] = [("paso", ())]
    for contract in rules.allowed_contracts():
        if contract == "paso":
            continue
        if contract == "contrasolo":
            rows += [(contract, pair) for pair in ((1, 2), (1, 4), (2, 3), (3, 4))]
        else:
            rows += [(contract, (seat,)) for seat in (1, 2, 3, 4)]
    return rows


#: the figures of a table row: the last axis of :func:`dd_tables`
TABLE_FIGURES = ("tricks", "margin", "makes", "game_points")


@functools.lru_cache(maxsize=64)
def table_plan(rules: RuleSet) -> tuple[tuple[Params, int], ...]:
    """Per row of the table ``(params, same)``: the context of ``Solver.table`` and the
    index of an earlier row with the same players (whose tricks are this row's), or -1.
    Raises RulesError for rules the compiled search cannot take."""
    plan: list[tuple[Params, int]] = []
    first: dict[tuple[int, ...], int] = {}
    for r, (contract, declarer) in enumerate(contract_rows(rules)):
        params = context_params(rules, contract, declarer, play.active_seats(declarer), 0)
        plan.append((params, first.get(declarer, -1)))
        first.setdefault(declarer, r)
    return tuple(plan)


def _reference_table(hands: Sequence[int], trump: int, rules: RuleSet) -> list[list[int]]:
    rows = []
    for contract, declarer in contract_rows(rules):
        pos = deal_position(tuple(hands), trump, contract, declarer)
        rows.append([int(reference.solve(pos, rules, o) or 0) for o in TABLE_FIGURES])
    return rows


@overload
def dd_tables(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet,
              workers: int | None = None, return_nodes: Literal[False] = False) -> Values: ...
@overload
def dd_tables(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet,
              workers: int | None = None, *, return_nodes: Literal[True]
              ) -> tuple[Values, int]: ...


def dd_tables(hands: npt.ArrayLike, trumps: npt.ArrayLike, rules: RuleSet,
              workers: int | None = None, return_nodes: bool = False
              ) -> Values | tuple[Values, int]:
    """The double-dummy tables of many deals in one call: an int32 array ``(n, rows, 4)``,
    rows as :func:`contract_rows`, figures as :data:`TABLE_FIGURES` (margin 0 where the
    contract is decided on tricks: see :func:`table_rows`; makes 0/1).

    Each row takes as few searches as exactness allows: the tricks once per set of
    players (they read no contract parameter), then on tricks nothing more, on points
    the margin, which settles the win (the tie break may take one zero-window test)
    and, but for a pass bonus, the game points.  ``hands`` ``(n, 4)`` and ``trumps``
    ``(n,)`` as in :func:`solve_batch`; ``workers`` threads (default: all cores), the
    results independent of it.  With ``return_nodes`` returns ``(tables, nodes)``.
    """
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    trumps = np.ascontiguousarray(trumps, dtype=np.int64)
    if hands.ndim != 2 or hands.shape[1] != 4 or trumps.shape != (hands.shape[0],):
        raise ValueError("hands must be (n, 4) and trumps (n,)")
    n = hands.shape[0]
    nrows = len(contract_rows(rules))
    out = np.zeros((n, nrows, len(TABLE_FIGURES)), dtype=np.int32)
    if _compiled is None:
        for i in range(n):
            out[i] = _reference_table(tuple(int(h) for h in hands[i]), int(trumps[i]), rules)
        nodes = 0
    else:
        plan = table_plan(rules)
        nodes = _in_threads(n, workers, 1, 256,
                            lambda s, lo, hi: s.table(plan, hands, trumps, out, lo, hi))
    return (out, nodes) if return_nodes else out


#: a row of the table as shown: contract, declarer, side, whether it has a margin
RowHead = tuple[str, Union[int, list[int], None], str, bool]


def shown_declarer(declarer: Sequence[int]) -> int | list[int] | None:
    """The declarer as ``solve --json`` (and every answer that names one) shows it:
    None for paso, the seat, or ``[solo bidder, contrasolo bidder]``."""
    return None if not declarer else list(declarer) if len(declarer) == 2 else declarer[0]


@functools.lru_cache(maxsize=64)
def _row_heads(rules: RuleSet) -> tuple[RowHead, ...]:
    """Per row: contract, declarer as shown, side, whether it has a margin."""
    return tuple((contract, shown_declarer(declarer), str(play.declaring_side(declarer)),
                  points_based(contract, rules))
                 for contract, declarer in contract_rows(rules))


def table_rows(table: Values, rules: RuleSet) -> list[JSONObject]:
    """One deal's table from :func:`dd_tables` (``(rows, 4)``) as the ``results`` of
    ``solve --json`` (docs/json.md): one dict per contract and declarer.  The one
    writer of those rows (:class:`TableRow` is the same row for a reader)."""
    return [{"contract": contract, "declarer": list(shown) if isinstance(shown, list) else shown,
             "side": side, "tricks": tricks, "margin": margin if has_margin else None,
             "makes": bool(makes), "game_points": game}
            for (contract, shown, side, has_margin), (tricks, margin, makes, game)
            in zip(_row_heads(rules), table.tolist())]


@dataclass(frozen=True)
class TableRow:
    """One contract and declarer of a double-dummy table, as :func:`table_rows` writes
    it: the declaring side's tricks, points margin (None on tricks), whether it makes,
    and its game points."""

    contract: str
    declarer: tuple[int, ...]
    side: str
    tricks: int
    margin: int | None
    makes: bool
    game_points: int


def table_entries(table: Values, rules: RuleSet) -> tuple[TableRow, ...]:
    """One deal's table from :func:`dd_tables` (``(rows, 4)``) as typed rows, in the
    order of :func:`table_rows`."""
    return tuple(TableRow(contract, declarer, side, tricks, margin if has_margin else None,
                          bool(makes), game)
                 for (contract, declarer), (_c, _s, side, has_margin),
                 (tricks, margin, makes, game)
                 in zip(contract_rows(rules), _row_heads(rules), table.tolist()))


def dd_table(hands: Sequence[int], trump: int, rules: RuleSet) -> list[JSONObject]:
    """The double-dummy table of a deal: one dict per contract and declarer, as the
    ``results`` of ``solve --json`` (docs/json.md)."""
    table = dd_tables(np.array([hands], dtype=np.int64), np.array([trump], dtype=np.int64),
                      rules, workers=1)
    return table_rows(table[0], rules)
