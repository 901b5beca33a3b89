"""The deals consistent with a seat's knowledge: exact counting, enumeration, sampling.

The cards outside the observer's knowledge (the *pool*) are split among the other seats,
seat ``s`` receiving ``hidden_counts[s - 1]`` of them and none of ``forbidden[s - 1]``
(:class:`~cuatrola_solver.hidden.knowledge.Knowledge`).  These deals are counted exactly
by a small dynamic programme over the pool's cards (:func:`count_deals`), and ranked:
rank ``r`` in ``0 .. count - 1`` is turned into a deal by walking the same table
(:func:`unrank_deals`: compiled, ``ext/deals.pyx``, or vectorised with numpy, its
reference, when the extension is not built or ``CUATROLA_PUREPYTHON`` is set).
Enumeration unranks ``0 .. count - 1`` (:func:`enumerate_deals`, also by slices for
splitting exact work); sampling unranks uniform random ranks, so every consistent deal
is exactly equally likely (:func:`sample_deals`, i.i.d., with replacement).  A deal is
a row of four ``uint32`` masks: the *current* hands of seats 1..4 (cards already played
are not in them; see :meth:`Knowledge.dealt_hands`).

At the start of a hand a seat 1-3 sees 14 unknown cards (5/5/4 to the others: 252,252
deals); seat 4 sees 15 (5/5/5: 756,756 deals).
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass, replace
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from ..errors import InconsistentDealError, NotationError
from ..game.cards import FULL_DECK, NUM_CARDS, cards_of, popcount
from .knowledge import Deals, Knowledge


__all__ = ["count_deals", "enumerate_deals", "unrank_deals", "sample_deals", "card_counts",
           "distinct_hands", "consistent_mask"]

_BITS = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint32)

_compiled = None
if os.environ.get("CUATROLA_PUREPYTHON", "") in ("", "0"):
    try:
        from . import _deals as _compiled         # type: ignore[attr-defined, no-redef]
    except ImportError:                           # pragma: no cover - depends on the build
        _compiled = None

# --- counting and ranking ---------------------------------------------------------------

@dataclass(frozen=True)
class _CountingTable:
    """The counting table of one Knowledge.  ``counts[i, flat(state)]`` is the number of
    ways to deal pool cards ``i..`` to the three other seats from ``state``: their
    remaining capacities, each stored shifted by one so that capacity -1 is a row of
    zeros, then, for each count constraint (:func:`_count_dims`), how many cards of its
    set its seat has received so far.  ``offsets[i][j]`` is the step of the flat index
    when card ``i`` goes to other seat ``j``."""

    seats: tuple[int, ...]            # the three other seats, 0-based, in seat order
    cards: tuple[int, ...]            # the pool's cards, ascending
    allowed: tuple[tuple[bool, ...], ...]   # may other seat j (of 3) receive card i?
    counts: npt.NDArray[np.int64]     # (n + 1, size)
    offsets: tuple[tuple[int, ...], ...]    # per card, one per other seat
    start: int                        # flat index of the full capacities, nothing counted

    @property
    def total(self) -> int:
        return int(self.counts[0, self.start])


#: a counting table's key: the pool, the other seats, their capacities, their forbidden
#: cards and the dimensions of the count constraints
_TableKey = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...],
                  Union[tuple[tuple[int, int, int, int], ...], None]]
_COUNTING_TABLES: dict[_TableKey, _CountingTable] = {}
#: the most cells of one counting table (count constraints multiply its size)
MAX_TABLE_CELLS = 1 << 24


def _count_dims(k: Knowledge, seats: tuple[int, ...], caps: tuple[int, ...],
                forb: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...] | None:
    """The count constraints of ``k`` as the table counts them: ``(j, mask, lo, hi)``,
    other seat ``j`` receiving between ``lo`` and ``hi`` of the pool cards ``mask`` (the
    ones it may hold).  Cards it is already known to hold are taken off the bounds;
    constraints that every deal meets are left out.  None: no deal can meet them."""
    pool = k.pool
    out = []
    for seat, mask, lo, hi in k.counts:
        j = seats.index(seat - 1)
        have = popcount(k.known[seat - 1] & mask)
        free = mask & pool & ~forb[j]
        lo, hi = max(0, lo - have), hi - have
        n = popcount(free)
        if hi < lo or lo > min(n, caps[j]):
            return None
        if lo == 0 and hi >= n:
            continue
        out.append((j, free, lo, min(hi, n)))
    return tuple(sorted(out))


def _counting_table(k: Knowledge) -> _CountingTable:
    pool = k.pool
    seats = tuple(s for s in range(4) if s != k.seat - 1)
    caps = tuple(k.hidden_counts[s] for s in seats)
    forb = tuple(k.forbidden[s] & pool for s in seats)
    dims_c = _count_dims(k, seats, caps, forb) if k.counts else ()
    key = (pool, seats, caps, forb, dims_c)
    tab = _COUNTING_TABLES.get(key)
    if tab is not None:
        return tab
    cards = tuple(cards_of(pool))
    n = len(cards)
    allowed = tuple(tuple(not (f >> c & 1) for f in forb) for c in cards)
    counted = dims_c or ()
    shape = tuple(c + 2 for c in caps) + tuple(popcount(m) + 1 for _, m, _, _ in counted)
    if (n + 1) * math.prod(shape) > MAX_TABLE_CELLS:
        raise NotationError(f"too many count constraints at once ({len(counted)}): give "
                            f"at most three")
    counts = np.zeros((n + 1,) + shape, dtype=np.int64)
    if sum(caps) == n and dims_c is not None:
        base = np.zeros(shape[3:], dtype=np.int64)
        accept = [np.arange(popcount(m) + 1) for _, m, _, _ in counted]
        ok = np.ones(shape[3:], dtype=bool)
        for d, (_, _, lo, hi) in enumerate(counted):
            ax = [1] * len(counted)
            ax[d] = -1
            ok &= ((accept[d] >= lo) & (accept[d] <= hi)).reshape(ax)
        base[ok] = 1
        counts[n][1, 1, 1] = base
        for i in range(n - 1, -1, -1):
            nxt, cur = counts[i + 1], counts[i]
            for j in range(3):
                if not allowed[i][j]:
                    continue
                dst = [slice(1, None)] * 3
                src = [slice(1, None)] * 3
                dst[j], src[j] = slice(2, None), slice(1, -1)
                for jj, m, _, _ in counted:
                    hit = jj == j and m >> cards[i] & 1
                    dst.append(slice(0, -1) if hit else slice(None))
                    src.append(slice(1, None) if hit else slice(None))
                cur[tuple(dst)] += nxt[tuple(src)]
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    offsets = tuple(tuple(-strides[j] + sum(strides[3 + d] for d, (jj, m, _, _)
                                            in enumerate(counted)
                                            if jj == j and m >> c & 1)
                          for j in range(3)) for c in cards)
    start = sum((c + 1) * st for c, st in zip(caps, strides))
    tab = _CountingTable(seats, cards, allowed, counts.reshape(n + 1, -1), offsets, start)
    if len(_COUNTING_TABLES) > 256:
        _COUNTING_TABLES.clear()
    _COUNTING_TABLES[key] = tab
    return tab


def _branches(k: Knowledge) -> list[tuple[Knowledge, int]]:
    """``k`` as a disjoint union of product-form knowledges (no ``not_both``), each with
    its count: the pool cards named by ``not_both`` are placed first, in every allowed
    way (at most 3 x 3 branches: the constraints name the two trump cante cards)."""
    pool = k.pool
    if any(need & ~k.known[s - 1] == 0 for s, need in k.not_both):
        return []                    # a constraint placed both cards with the seat
    entangled = 0
    for _, need in k.not_both:
        entangled |= need & pool
    if not entangled:
        return [(k, _counting_table(k).total)]
    others = [s for s in range(4) if s != k.seat - 1]
    cards = cards_of(entangled)
    out = []
    for seats in itertools.product(others, repeat=len(cards)):
        known = list(k.known)
        hidden = list(k.hidden_counts)
        ok = True
        for c, s in zip(cards, seats):
            if k.forbidden[s] >> c & 1 or hidden[s] == 0:
                ok = False
                break
            known[s] |= 1 << c
            hidden[s] -= 1
        if not ok or any(need & ~known[s - 1] == 0 for s, need in k.not_both):
            continue
        sub = replace(k, known=tuple(known), hidden_counts=tuple(hidden), not_both=())
        out.append((sub, _counting_table(sub).total))
    return out


def count_deals(k: Knowledge) -> int:
    """The exact number of deals (current hands of all four seats) consistent with ``k``."""
    return sum(n for _, n in _branches(k))


def unrank_deals(k: Knowledge, ranks: npt.ArrayLike) -> Deals:
    """The deals of the given ranks (each in ``0 .. count_deals(k) - 1``), as an
    ``(len(ranks), 4)`` array of ``uint32`` current-hand masks, seats 1..4.

    Rank order: branch by branch (:func:`_branches`), then the pool's cards are dealt
    in ascending order, each to the first of the other seats (in seat order) whose
    completions still contain the rank."""
    r = np.array(ranks, dtype=np.int64).reshape(-1)
    branches = _branches(k)
    total = sum(n for _, n in branches)
    if len(r) and (r.min() < 0 or r.max() >= total):
        raise ValueError(f"deal ranks must be in 0..{total - 1}")
    if len(branches) == 1:
        return _unrank_product(branches[0][0], r)
    out = np.empty((len(r), 4), dtype=np.uint32)
    lo = 0
    for sub, n in branches:
        sel = (r >= lo) & (r < lo + n)
        if sel.any():
            out[sel] = _unrank_product(sub, r[sel] - lo)
        lo += n
    return out


def _unrank_product(k: Knowledge, ranks: npt.NDArray[np.int64]) -> Deals:
    """The deals of ``ranks`` of a product-form knowledge (no ``not_both``)."""
    if _compiled is None:
        return _unrank_product_numpy(k, ranks)
    tab = _counting_table(k)
    out = np.empty((len(ranks), 4), dtype=np.uint32)
    _compiled.unrank_product(
        tab.counts, np.array(tab.offsets, dtype=np.int64).reshape(-1, 3),
        np.array(tab.allowed, dtype=np.uint8).reshape(-1, 3),
        _BITS[list(tab.cards)], tab.start, np.ascontiguousarray(ranks, dtype=np.int64),
        np.array(tab.seats, dtype=np.int64), np.array(k.known, dtype=np.uint32), out)
    return out


def _unrank_product_numpy(k: Knowledge, ranks: npt.NDArray[np.int64]) -> Deals:
    """:func:`_unrank_product` card by card over every rank at once: the reference of
    the compiled walk."""
    tab = _counting_table(k)
    m = len(ranks)
    small = tab.total < 2 ** 31
    dtype = np.int32 if small else np.int64
    counts = tab.counts.astype(dtype) if small else tab.counts
    r = ranks.astype(dtype)
    idx = np.full(m, tab.start, dtype=dtype)
    hands = [np.zeros(m, dtype=np.uint32) for _ in range(3)]
    pick0 = np.zeros(m, dtype=bool)
    pick1 = np.zeros(m, dtype=bool)
    rest = np.empty(m, dtype=bool)
    for i, c in enumerate(tab.cards):
        nxt = counts[i + 1]
        bit = _BITS[c]
        a0, a1, _ = tab.allowed[i]
        o0, o1, o2 = tab.offsets[i]
        if a0:
            w0 = nxt[idx + o0]
            np.less(r, w0, out=pick0)
            np.logical_not(pick0, out=rest)
            np.subtract(r, w0, out=r, where=rest)
        else:
            pick0[:] = False
            rest[:] = True
        if a1:
            w1 = nxt[idx + o1]
            np.less(r, w1, out=pick1)
            pick1 &= rest
            rest &= ~pick1
            np.subtract(r, w1, out=r, where=rest)
        else:
            pick1[:] = False
        np.bitwise_or(hands[0], bit, out=hands[0], where=pick0)
        np.bitwise_or(hands[1], bit, out=hands[1], where=pick1)
        np.bitwise_or(hands[2], bit, out=hands[2], where=rest)
        np.add(idx, o0, out=idx, where=pick0)
        np.add(idx, o1, out=idx, where=pick1)
        np.add(idx, o2, out=idx, where=rest)
    out = np.zeros((m, 4), dtype=np.uint32)
    for j, s in enumerate(tab.seats):
        out[:, s] = hands[j]
    out |= np.array(k.known, dtype=np.uint32)
    return out


def enumerate_deals(k: Knowledge, start: int = 0, stop: int | None = None) -> Deals:
    """Every deal consistent with ``k`` (or those of ranks ``start .. stop - 1``, to
    split exact work), as an ``(n, 4)`` array of ``uint32`` current-hand masks."""
    total = count_deals(k)
    stop = total if stop is None else min(stop, total)
    return unrank_deals(k, np.arange(max(start, 0), max(stop, start, 0), dtype=np.int64))


def sample_deals(k: Knowledge, n: int, rng: np.random.Generator) -> Deals:
    """``n`` deals drawn independently and uniformly from the deals consistent with
    ``k`` (with replacement), as an ``(n, 4)`` array of ``uint32`` masks."""
    total = count_deals(k)
    if total == 0:
        raise InconsistentDealError("no deal is consistent with this seat's knowledge")
    return unrank_deals(k, rng.integers(0, total, size=n, dtype=np.int64))


def consistent_mask(k: Knowledge, deals: Deals) -> npt.NDArray[np.bool_]:
    """For each row of ``deals`` (current-hand masks, seats 1..4), whether it is a deal
    consistent with ``k``: known cards held, no forbidden card nor ``not_both`` pair, the
    count constraints met, the right hand sizes, the cards outside ``k.played`` dealt
    exactly once."""
    d = np.asarray(deals, dtype=np.uint32).reshape(-1, 4)
    ok = np.ones(len(d), dtype=bool)
    union = np.zeros(len(d), dtype=np.uint32)
    total = 0
    counts = np.zeros(len(d), dtype=np.int64)
    for s in range(4):
        h = d[:, s]
        ok &= (h & np.uint32(k.known[s])) == np.uint32(k.known[s])
        ok &= (h & np.uint32(k.forbidden[s])) == 0
        ok &= card_counts(h) == k.hand_sizes[s]
        for seat, need in k.not_both:
            if seat == s + 1:
                ok &= (h & np.uint32(need)) != np.uint32(need)
        for seat, mask, lo, hi in k.counts:
            if seat == s + 1:
                held = card_counts(h & np.uint32(mask))
                ok &= (held >= lo) & (held <= hi)
        counts += card_counts(h)
        union |= h
        total += k.hand_sizes[s]
    played = 0
    for m in k.played:
        played |= m
    ok &= union == np.uint32(FULL_DECK & ~played)
    ok &= counts == total
    return ok


def distinct_hands(hands: npt.ArrayLike
                   ) -> tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.int32]]:
    """``np.unique(hands, return_inverse=True)`` for an array of card masks: the distinct
    masks in increasing order (of ``hands``' type) and, for each element, the index of
    its own among them.  One pass over a table of every mask (one byte each) instead of
    a sort: a seat's hands in 131,072 of the dealer's layouts in 1.1 ms, where the sort
    takes 13 ms."""
    hands = np.asarray(hands)
    if hands.size == 0:
        return hands.copy(), np.zeros(0, dtype=np.int32)
    seen = np.zeros(1 << NUM_CARDS, dtype=bool)
    seen[hands] = True
    distinct = np.flatnonzero(seen)
    slot = np.empty(1 << NUM_CARDS, dtype=np.int32)    # read only where a hand is
    slot[distinct] = np.arange(len(distinct), dtype=np.int32)
    return distinct.astype(hands.dtype), slot[hands]


def card_counts(masks: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
    """The number of cards in each mask of ``masks`` (bit counts, elementwise)."""
    a: npt.NDArray[np.integer[Any]] = masks.astype(np.uint32)  # numpy types uint32 - int as signed
    a = a - ((a >> 1) & 0x55555555)
    a = (a & 0x33333333) + ((a >> 2) & 0x33333333)
    a = (a + (a >> 4)) & 0x0F0F0F0F
    counts: npt.NDArray[np.int64] = ((a * np.uint32(0x01010101)) >> 24).astype(np.int64)
    return counts
