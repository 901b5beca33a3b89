"""Deals consistent with one seat's knowledge: exact counting, enumeration, sampling.

What a seat knows (:class:`Knowledge`): its own cards, the muestra (face up, in seat
4's hand until seat 4 plays it), who sits out, every card played so far with its
trick context, the cantes (a singer held the rey and the caballo of the suit), and
what the strict rules of play reveal about the other seats.

**Inference from a play is exact.**  A seat ``s`` that played card ``c`` to a trick
whose cards so far were ``before`` held, at that moment, the hand ``H_t`` = its
current cards plus every card it has played since (``c`` included).  Assuming the
play was no renuncio, ``c`` was in ``legal_mask(H_t, before, ...)``; by the rules of
RULES.md section 2 that is always equivalent to ``H_t & F == 0`` for one mask ``F``
(:func:`play_forbidden`), derived from the :class:`~cuatrola_solver.rules.RuleSet`
parameters (``beat_led_after_trump``, ``free_when_cannot_overtrump``), e.g.:

- not following the led suit: void in it (``F`` holds the led suit);
- following without beating the highest led card where montar applied: no higher
  card of that suit;
- void, not trumping where fallar applied: no trump;
- not over-trumping where montar el fallo applied: no trump higher than the trick's
  best trump (no trump at all when ``free_when_cannot_overtrump`` is false and the
  card is not a trump).

The cards played since are known, so ``H_t & F == 0`` splits into a check on the known
later plays and ``current_hand & F == 0``: every constraint on the hidden cards is a
*forbidden-cards mask* per seat, and the set of deals consistent with the history is
exactly the set of deals that respect these masks.  A play that was a renuncio (per
the record, or per the ``renuncios`` argument) is used for no inference at all, not
even that it broke a rule (nor that, under ``early_end``, play went on because of it).
Bids are not used (a human may bid anything); a cante is used positively only: the
cards of a cante not played since are known to be in the singer's hand.

**The deals.**  The cards outside the observer's knowledge (the *pool*) are split
among the other seats, seat ``s`` receiving ``hidden_counts[s - 1]`` of them and none
of ``forbidden[s - 1]``.  These deals are counted exactly by a small dynamic
programme over the pool's cards (:func:`count_deals`), and ranked: rank ``r`` in
``0 .. count - 1`` is turned into a deal by walking the same table
(:func:`unrank_deals`, vectorised with numpy).  Enumeration unranks ``0 .. count - 1``
(:func:`enumerate_deals`, also by slices for splitting exact work); sampling unranks
uniform random ranks, so every consistent deal is exactly equally likely
(:func:`sample_deals`, i.i.d., with replacement).  A deal is a row of four ``uint32``
masks: the *current* hands of seats 1..4 (cards already played are not in them; see
:meth:`Knowledge.dealt_hands`).

**Parallel work.**  :func:`plan_chunks` cuts ``n`` samples into chunks of a fixed size,
chunk ``j`` drawing from the ``j``-th child of the master ``SeedSequence``; the deals
depend on the seed and chunk size only, never on how many workers run the chunks
(:func:`sample_chunk`, :func:`sample_deals_seeded`).

At the start of a hand a seat 1-3 sees 14 unknown cards (5/5/4 to the others: 252,252
deals); seat 4 sees 15 (5/5/5: 756,756 deals).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
import itertools
from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Sequence

import numpy as np

from .cards import FULL_DECK, NUM_CARDS, SUIT_MASKS, cards_of, format_card, format_cards, \
    higher_in_suit, mask_of, popcount
from .errors import InconsistentDealError, quote
from .play import cante_mask
from .rules import RuleSet, get_rules

__all__ = [
    "Play", "Knowledge", "play_forbidden", "knowledge_at_start", "knowledge_from_hand",
    "knowledge_from_view",
    "count_deals", "enumerate_deals", "unrank_deals", "sample_deals", "consistent_mask",
    "Chunk", "iter_chunks", "plan_chunks", "sample_chunk", "sample_deals_seeded", "DEFAULT_CHUNK",
]

#: samples per chunk in :func:`plan_chunks` (the unit of parallel work)
DEFAULT_CHUNK = 4096

_BITS = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint32)


# --- what one play reveals --------------------------------------------------------

def play_forbidden(c: int, before: Sequence[int], trump: int,
                   beat_led_after_trump: bool, free_when_cannot_overtrump: bool) -> int:
    """The mask ``F`` such that, for any hand ``H`` holding ``c``, playing ``c`` to a trick
    whose cards so far are ``before`` is legal exactly when ``H & F == 0``.

    This is :func:`~cuatrola_solver.play.legal_mask` turned inside out (RULES.md 2).
    """
    if not before:
        return 0                                  # leading: anything goes
    led = before[0] // 5
    led_mask = SUIT_MASKS[led]
    trumps = [x for x in before if x // 5 == trump]
    trumped = led != trump and bool(trumps)
    if c // 5 == led:                             # asistir: montar, if it applied
        if trumped and not beat_led_after_trump:
            return 0
        higher = higher_in_suit(max(x for x in before if x // 5 == led))
        return 0 if higher >> c & 1 else higher
    forbidden = led_mask                          # did not follow: void in led
    if not trumped:                               # fallar applied (led != trump here)
        return forbidden if c // 5 == trump else forbidden | SUIT_MASKS[trump]
    over = higher_in_suit(max(trumps))            # montar el fallo
    if over >> c & 1:
        return forbidden
    if c // 5 == trump or free_when_cannot_overtrump:
        return forbidden | over
    return forbidden | SUIT_MASKS[trump]


# --- knowledge ------------------------------------------------------------------------

@dataclass(frozen=True)
class Play:
    """One card of the history: ``seat`` played ``card`` in trick ``trick`` (1-based),
    after the cards ``before`` of that trick.  ``inferred`` is False for a renuncio,
    which the sampler does not learn from."""

    trick: int
    seat: int
    card: int
    before: tuple[int, ...]
    inferred: bool = True


@dataclass(frozen=True)
class Knowledge:
    """What seat ``seat`` knows about the current hands.

    All masks are per seat, index ``seat - 1``:

    - ``known``: cards known to be in the seat's current hand (the observer's own
      cards; the muestra for seat 4 until it is played; unplayed cards of a cante);
    - ``hidden_counts``: how many more (unknown) cards the seat holds now;
    - ``forbidden``: cards the seat cannot hold now (exact consequences of the plays;
      always 0 for the observer);
    - ``played``: cards the seat has played in this hand.

    ``plays`` is the history the knowledge was derived from (empty at the start).
    ``not_both`` lists (seat, mask) pairs: the seat does not hold *all* the cards of the
    mask now (``forty_first``: a side that sang a 20 before the 40 could not sing the 40,
    so neither of its active seats held the trump rey and caballo together).
    """

    seat: int
    muestra: int
    trump: int
    rules: RuleSet
    active: tuple[bool, bool, bool, bool]
    known: tuple[int, int, int, int]
    hidden_counts: tuple[int, int, int, int]
    forbidden: tuple[int, int, int, int]
    played: tuple[int, int, int, int] = (0, 0, 0, 0)
    plays: tuple[Play, ...] = ()
    not_both: tuple[tuple[int, int], ...] = ()

    @property
    def hand(self) -> int:
        """The observer's current cards."""
        return self.known[self.seat - 1]

    @property
    def pool(self) -> int:
        """The cards whose holder the observer does not know."""
        taken = 0
        for m in self.known + self.played:
            taken |= m
        return FULL_DECK & ~taken

    @property
    def hand_sizes(self) -> tuple[int, int, int, int]:
        return tuple(popcount(k) + h for k, h in zip(self.known, self.hidden_counts))

    def dealt_hands(self, deals: np.ndarray) -> np.ndarray:
        """The hands as dealt (current cards plus cards played) for deals of current hands."""
        return np.asarray(deals, dtype=np.uint32) | np.array(self.played, dtype=np.uint32)

    def describe(self) -> str:
        lines = [f"seat {self.seat} holds {format_cards(cards_of(self.hand))}, "
                 f"muestra {format_card(self.muestra)}"]
        for s in range(1, 5):
            if s != self.seat:
                lines.append(f"seat {s}: known {format_cards(cards_of(self.known[s - 1]))} "
                             f"+ {self.hidden_counts[s - 1]} hidden, cannot hold "
                             f"{format_cards(cards_of(self.forbidden[s - 1] & self.pool))}")
        return "\n".join(lines)


def _check_seat(seat: int) -> None:
    if seat not in (1, 2, 3, 4):
        raise ValueError(f"bad seat {quote(seat)}: expected 1 to 4")


def knowledge_at_start(hand: Iterable[int] | int, muestra: int, seat: int,
                       rules: RuleSet | None = None) -> Knowledge:
    """What ``seat`` knows after the deal: its five cards and the muestra (in seat 4's
    hand).  ``hand`` is a list of cards or a mask."""
    _check_seat(seat)
    mask = hand if isinstance(hand, int) else mask_of(hand)
    if popcount(mask) != 5 or mask & ~FULL_DECK:
        raise InconsistentDealError(f"seat {seat} holds {popcount(mask)} cards "
                                    f"({format_cards(cards_of(mask & FULL_DECK))}): expected 5")
    m = 1 << muestra
    if seat == 4 and not mask & m:
        raise InconsistentDealError(f"the muestra {quote(format_card(muestra))} is not in seat 4's "
                                    f"hand ({format_cards(cards_of(mask))}): the dealer keeps it")
    if seat != 4 and mask & m:
        raise InconsistentDealError(f"the muestra {quote(format_card(muestra))} is in seat {seat}'s "
                                    f"hand: it belongs to seat 4, the dealer")
    known = [0, 0, 0, 0]
    known[seat - 1] = mask
    known[3] |= m
    hidden = tuple(0 if s == seat else 5 - popcount(known[s - 1]) for s in (1, 2, 3, 4))
    return Knowledge(seat, muestra, muestra // 5, rules or get_rules(), (True,) * 4,
                     tuple(known), hidden, (0, 0, 0, 0))


def knowledge_from_hand(hand, seat: int,
                        renuncios: Iterable[tuple[int, int]] | None = None) -> Knowledge:
    """What ``seat`` knows in a :class:`~cuatrola_solver.hand.Hand` in progress: the
    knowledge of its :class:`~cuatrola_solver.view.View`, the plays in ``renuncios``
    (by default ``hand.renuncios``) taken as renuncios."""
    from .view import View
    if renuncios is None:
        renuncios = [(r.trick, r.seat) for r in hand.renuncios]
    return knowledge_from_view(View.from_hand(hand, seat), renuncios)


def knowledge_from_view(view, renuncios: Iterable[tuple[int, int]] | None = None) -> Knowledge:
    """What a :class:`~cuatrola_solver.view.View` tells about the current hands.

    ``renuncios`` lists the plays, as (trick number, seat) pairs, that were renuncios
    and so reveal nothing; by default the renuncios the view has seen.  Raises
    :class:`InconsistentDealError` when the history contradicts itself (a play assumed
    legal that the seat's later plays show was not).
    """
    seat = view.seat
    _check_seat(seat)
    rules = view.rules
    trump = view.trump
    if renuncios is None:
        renuncios = [(r.trick, r.seat) for r in view.renuncios]
    skip = {(int(t), int(s)) for t, s in renuncios}
    plays = [Play(p.trick, p.seat, p.card, p.before, (p.trick, p.seat) not in skip)
             for p in view.plays]
    played = [0, 0, 0, 0]
    for p in plays:
        played[p.seat - 1] |= 1 << p.card
    forbidden = [0, 0, 0, 0]
    for i, p in enumerate(plays):
        if not p.inferred or p.seat == seat:
            continue
        f = play_forbidden(p.card, p.before, trump, rules.beat_led_after_trump,
                           rules.free_when_cannot_overtrump)
        later = mask_of(q.card for q in plays[i + 1:] if q.seat == p.seat)
        if later & f:
            raise InconsistentDealError(
                f"trick {p.trick}: seat {p.seat} played {format_card(p.card)}, which would be "
                f"a renuncio since it still held {format_cards(cards_of(later & f))}")
        forbidden[p.seat - 1] |= f
    active = tuple(view.active) if view.auction_over else (True,) * 4
    known = [0, 0, 0, 0]
    known[seat - 1] = view.held
    if not (played[3] >> view.muestra & 1):
        known[3] |= 1 << view.muestra
    not_both: list[tuple[int, int]] = []
    sung = 0
    for k in view.cantes:
        if rules.forty_first and k.suit != trump and not sung >> trump & 1:
            # a 20 before the 40: no active seat of the side could sing the 40 then
            for mate in (k.seat, (k.seat + 1) % 4 + 1):
                if active[mate - 1] and mate != seat:
                    _no_forty(mate, k.after_trick, cante_mask(trump), plays, played,
                              known, forbidden, not_both)
        sung |= 1 << k.suit
        need = cante_mask(k.suit)
        before = mask_of(p.card for p in plays if p.trick <= k.after_trick)
        if need & before or need & ~played[k.seat - 1] & (played[0] | played[1] | played[2]
                                                           | played[3]):
            raise InconsistentDealError(f"seat {k.seat} sang {format_cards(cards_of(need))} "
                                        f"after trick {k.after_trick} without holding them")
        known[k.seat - 1] |= need & ~played[k.seat - 1]
    for s in range(4):
        if known[s] & forbidden[s]:
            raise InconsistentDealError(
                f"seat {s + 1} is known to hold {format_cards(cards_of(known[s] & forbidden[s]))}, "
                f"which its plays show it cannot hold")
    others = [known[s] for s in range(4) if s != seat - 1]
    if known[seat - 1] & (others[0] | others[1] | others[2]):
        raise InconsistentDealError("the observer's cards are known to be elsewhere")
    hidden = tuple(0 if s == seat - 1 else 5 - popcount(played[s]) - popcount(known[s])
                   for s in range(4))
    if min(hidden) < 0:
        raise InconsistentDealError("a seat is known to hold more cards than it has")
    for mate, need in not_both:
        if need & ~known[mate - 1] == 0:
            raise InconsistentDealError(f"seat {mate} is known to hold "
                                        f"{format_cards(cards_of(need))}, which the cantes "
                                        f"show it did not hold")
    return Knowledge(seat, view.muestra, trump, rules, active, tuple(known), hidden,
                     tuple(forbidden), tuple(played), tuple(plays), tuple(not_both))


def _no_forty(mate: int, after: int, need: int, plays: list[Play], played: list[int],
              known: list[int], forbidden: list[int], not_both: list[tuple[int, int]]) -> None:
    """Record that ``mate`` did not hold both cards of ``need`` after trick ``after``:
    a forbidden card when one of them was played by it since, a ``not_both`` pair when
    neither was, nothing when one of them was elsewhere."""
    before = mask_of(p.card for p in plays if p.trick <= after)
    others = 0
    for s in range(4):
        if s != mate - 1:
            others |= played[s]
    if need & (before | others):
        return                       # one of the cards was not in its hand then
    rest = need & ~played[mate - 1]
    if not rest:
        raise InconsistentDealError(f"seat {mate} played {format_cards(cards_of(need))} after "
                                    f"trick {after}, so its side had the 40 and sang a 20")
    if rest != need:
        forbidden[mate - 1] |= rest
    elif (mate, need) not in not_both:
        not_both.append((mate, need))


# --- counting and ranking ---------------------------------------------------------------

@dataclass(frozen=True)
class _Table:
    """The counting table of one Knowledge.  ``counts[i, flat(caps)]`` is the number of
    ways to deal pool cards ``i..`` to the three other seats with remaining capacities
    ``caps``; each capacity is stored shifted by one so that capacity -1 is a row of
    zeros (``flat(caps) = sum((cap + 1) * stride)``)."""

    seats: tuple[int, int, int]       # the other seats, 0-based, in seat order
    cards: tuple[int, ...]            # the pool's cards, ascending
    allowed: tuple[tuple[bool, bool, bool], ...]   # may other seat j receive card i?
    counts: np.ndarray                # (n + 1, size) int64
    strides: tuple[int, int, int]
    start: int                        # flat index of the full capacities

    @property
    def total(self) -> int:
        return int(self.counts[0, self.start])


_TABLES: dict[tuple, _Table] = {}


def _table(k: Knowledge) -> _Table:
    pool = k.pool
    seats = tuple(s for s in range(4) if s != k.seat - 1)
    caps = tuple(k.hidden_counts[s] for s in seats)
    forb = tuple(k.forbidden[s] & pool for s in seats)
    key = (pool, seats, caps, forb)
    tab = _TABLES.get(key)
    if tab is not None:
        return tab
    cards = tuple(cards_of(pool))
    n = len(cards)
    allowed = tuple(tuple(not (f >> c & 1) for f in forb) for c in cards)
    shape = tuple(c + 2 for c in caps)
    counts = np.zeros((n + 1,) + shape, dtype=np.int64)
    if sum(caps) == n:
        counts[n][1, 1, 1] = 1
        for i in range(n - 1, -1, -1):
            nxt, cur = counts[i + 1], counts[i]
            if allowed[i][0]:
                cur[2:, 1:, 1:] += nxt[1:-1, 1:, 1:]
            if allowed[i][1]:
                cur[1:, 2:, 1:] += nxt[1:, 1:-1, 1:]
            if allowed[i][2]:
                cur[1:, 1:, 2:] += nxt[1:, 1:, 1:-1]
    strides = (shape[1] * shape[2], shape[2], 1)
    start = sum((c + 1) * st for c, st in zip(caps, strides))
    tab = _Table(seats, cards, allowed, counts.reshape(n + 1, -1), strides, start)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = tab
    return tab


def _branches(k: Knowledge) -> list[tuple[Knowledge, int]]:
    """``k`` as a disjoint union of product-form knowledges (no ``not_both``), each with
    its count: the pool cards named by ``not_both`` are placed first, in every allowed
    way (at most 3 x 3 branches: the constraints name the two trump cante cards)."""
    pool = k.pool
    entangled = 0
    for _, need in k.not_both:
        entangled |= need & pool
    if not entangled:
        return [(k, _table(k).total)]
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
        out.append((sub, _table(sub).total))
    return out


def count_deals(k: Knowledge) -> int:
    """The exact number of deals (current hands of all four seats) consistent with ``k``."""
    return sum(n for _, n in _branches(k))


def unrank_deals(k: Knowledge, ranks: np.ndarray) -> np.ndarray:
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


def _unrank_product(k: Knowledge, ranks: np.ndarray) -> np.ndarray:
    tab = _table(k)
    m = len(ranks)
    small = tab.total < 2 ** 31
    dtype = np.int32 if small else np.int64
    counts = tab.counts.astype(dtype) if small else tab.counts
    r = ranks.astype(dtype)
    idx = np.full(m, tab.start, dtype=dtype)
    hands = [np.zeros(m, dtype=np.uint32) for _ in range(3)]
    s0, s1, s2 = tab.strides
    pick0 = np.zeros(m, dtype=bool)
    pick1 = np.zeros(m, dtype=bool)
    rest = np.empty(m, dtype=bool)
    for i, c in enumerate(tab.cards):
        nxt = counts[i + 1]
        bit = _BITS[c]
        a0, a1, _ = tab.allowed[i]
        if a0:
            w0 = nxt[idx - s0]
            np.less(r, w0, out=pick0)
            np.logical_not(pick0, out=rest)
            np.subtract(r, w0, out=r, where=rest)
        else:
            pick0[:] = False
            rest[:] = True
        if a1:
            w1 = nxt[idx - s1]
            np.less(r, w1, out=pick1)
            pick1 &= rest
            rest &= ~pick1
            np.subtract(r, w1, out=r, where=rest)
        else:
            pick1[:] = False
        np.bitwise_or(hands[0], bit, out=hands[0], where=pick0)
        np.bitwise_or(hands[1], bit, out=hands[1], where=pick1)
        np.bitwise_or(hands[2], bit, out=hands[2], where=rest)
        np.subtract(idx, s0, out=idx, where=pick0)
        np.subtract(idx, s1, out=idx, where=pick1)
        np.subtract(idx, s2, out=idx, where=rest)
    out = np.zeros((m, 4), dtype=np.uint32)
    for j, s in enumerate(tab.seats):
        out[:, s] = hands[j]
    out |= np.array(k.known, dtype=np.uint32)
    return out


def enumerate_deals(k: Knowledge, start: int = 0, stop: int | None = None) -> np.ndarray:
    """Every deal consistent with ``k`` (or those of ranks ``start .. stop - 1``, to
    split exact work), as an ``(n, 4)`` array of ``uint32`` current-hand masks."""
    total = count_deals(k)
    stop = total if stop is None else min(stop, total)
    return unrank_deals(k, np.arange(max(start, 0), max(stop, start, 0), dtype=np.int64))


def sample_deals(k: Knowledge, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` deals drawn independently and uniformly from the deals consistent with
    ``k`` (with replacement), as an ``(n, 4)`` array of ``uint32`` masks."""
    total = count_deals(k)
    if total == 0:
        raise InconsistentDealError("no deal is consistent with this seat's knowledge")
    return unrank_deals(k, rng.integers(0, total, size=n, dtype=np.int64))


def consistent_mask(k: Knowledge, deals: np.ndarray) -> np.ndarray:
    """For each row of ``deals`` (current-hand masks, seats 1..4), whether it is a deal
    consistent with ``k``: known cards held, no forbidden card nor ``not_both`` pair, the right hand sizes,
    the cards outside ``k.played`` dealt exactly once."""
    d = np.asarray(deals, dtype=np.uint32).reshape(-1, 4)
    ok = np.ones(len(d), dtype=bool)
    union = np.zeros(len(d), dtype=np.uint32)
    total = 0
    counts = np.zeros(len(d), dtype=np.int64)
    for s in range(4):
        h = d[:, s]
        ok &= (h & np.uint32(k.known[s])) == np.uint32(k.known[s])
        ok &= (h & np.uint32(k.forbidden[s])) == 0
        ok &= _popcount(h) == k.hand_sizes[s]
        for seat, need in k.not_both:
            if seat == s + 1:
                ok &= (h & np.uint32(need)) != np.uint32(need)
        counts += _popcount(h)
        union |= h
        total += k.hand_sizes[s]
    played = 0
    for m in k.played:
        played |= m
    ok &= union == np.uint32(FULL_DECK & ~played)
    ok &= counts == total
    return ok


def _popcount(a: np.ndarray) -> np.ndarray:
    a = a.astype(np.uint32)
    a = a - ((a >> 1) & 0x55555555)
    a = (a & 0x33333333) + ((a >> 2) & 0x33333333)
    a = (a + (a >> 4)) & 0x0F0F0F0F
    return ((a * np.uint32(0x01010101)) >> 24).astype(np.int64)


# --- reproducible parallel sampling ---------------------------------------------------

@dataclass(frozen=True)
class Chunk:
    """A unit of sampling work: samples ``start .. start + size - 1`` of the whole run,
    drawn with ``seed`` (child ``index`` of the master SeedSequence)."""

    index: int
    start: int
    size: int
    seed: np.random.SeedSequence


def iter_chunks(n: int, seed: int | np.random.SeedSequence | None = None,
                chunk_size: int = DEFAULT_CHUNK) -> Iterator[Chunk]:
    """Cut ``n`` samples into chunks of ``chunk_size`` (the last may be shorter), one at
    a time: a caller that stops early never builds the rest, whatever ``n`` is.  Chunk
    ``j`` uses the ``j``-th child of ``SeedSequence(seed)``, so the samples depend on
    ``seed`` and ``chunk_size`` only, not on which worker draws which chunk."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    master = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    for j, start in enumerate(range(0, n, chunk_size)):
        child = np.random.SeedSequence(master.entropy, spawn_key=master.spawn_key + (j,),
                                       pool_size=master.pool_size)
        yield Chunk(j, start, min(chunk_size, n - start), child)


def plan_chunks(n: int, seed: int | np.random.SeedSequence | None = None,
                chunk_size: int = DEFAULT_CHUNK) -> list[Chunk]:
    """Every chunk of :func:`iter_chunks` as a list."""
    return list(iter_chunks(n, seed, chunk_size))


def sample_chunk(k: Knowledge, chunk: Chunk) -> np.ndarray:
    """The deals of one chunk (see :func:`plan_chunks`)."""
    return sample_deals(k, chunk.size, np.random.default_rng(chunk.seed))


def _sample_chunk_args(args):
    return sample_chunk(*args)


def sample_deals_seeded(k: Knowledge, n: int, seed: int | np.random.SeedSequence | None = None,
                        *, workers: int = 1, chunk_size: int = DEFAULT_CHUNK) -> np.ndarray:
    """``n`` uniform deals, drawn chunk by chunk (:func:`plan_chunks`) on ``workers``
    processes; the result is the same for any number of workers."""
    chunks = plan_chunks(n, seed, chunk_size)
    if not chunks:
        return np.empty((0, 4), dtype=np.uint32)
    if workers <= 1 or len(chunks) == 1:
        parts = [sample_chunk(k, c) for c in chunks]
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            parts = list(ex.map(_sample_chunk_args, [(k, c) for c in chunks]))
    return np.concatenate(parts)
