# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled double-dummy search of cuatrola (``cuatrola_solver.dd._solver``).

Alpha-beta on 20-bit card masks with no Python object in the inner loop.  The rules
come in as data (:c:type:`Ctx`, filled from a tuple of ints built by
``cuatrola_solver.dd.solver.context_params``); the answers are those of
``cuatrola_solver.dd.reference`` (the differential tests check it).  Its types, for
type checkers, are in ``cuatrola_solver/dd/_solver.pyi``.

Search values are *future* values, added to what a side already holds, for the
additive objectives:

``K_TRICKS``  tricks of the declaring side d (cantes are irrelevant and skipped);
``K_MARGIN``  points of d minus points of the other side (cards, monte, cantes);
``K_EXT``     2 * margin, plus +1/-1 for whoever takes trick 5 when the tie goes to
              the last trick: its sign is the points result with the tie broken,
              so "does d win?" is one zero-window test;
``K_OWN``     the points of side ``own`` (cards, monte, cantes), negated when it is
              not d: a zero-window test of "can it pass 100 points" for ``over_100``;
``K_LEAF``    any function of the final state (game points with a pass bonus): not
              additive, so the accumulated points and tricks are part of the key.

Transposition table: probed at trick boundaries after the boundary's cantes; key =
the four hands, leader, trump, and whatever else the future depends on (suits sung,
cantes counts, which sides have won a trick, the accumulated state for ``K_LEAF``);
entries hold a lower and an upper bound and the best lead.  2**tt_bits entries of 32
bytes (default 2**12: 128 KiB, small enough to stay in cache), two-way buckets, reused across the deals of a batch
(a context signature invalidates them when the rules, contract or objective change).
A :class:`Solver` holds two tables, one for ``K_TRICKS`` and one for the points kinds,
so a batch asking for both per deal keeps both warm.  The last two tricks are searched
without the tables, through a small cache of their bounds of their own (``endgame``):
2**14 entries of 16 bytes, 256 KiB, which stays in the core's cache where a probe of
the large tables would wait on memory.

Static bounds: at trick boundaries from trick 3 on, ``K_EXT`` fails high or low when
all the points still to come (cards, monte, open cantes) cannot change the outcome.
Game points and the win are settled from thresholds where the rules allow it (a side
taking every trick wins).  Given T, the most tricks d can take, each side is held to a
number of tricks (d to T by the other side's play for tricks, the other side to 5 - T
by d's), and a bound on the points that many tricks can hold may settle the win either
way, or whether a side can pass 100 points, without a search: see ``value_of``,
``held_loses`` and ``held_under_101``.
"""

from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t, uint8_t, uintptr_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef enum:
    K_TRICKS = 0
    K_MARGIN = 1
    K_EXT = 2
    K_LEAF = 3
    K_OWN = 4

# objectives of the public API
cdef enum:
    O_TRICKS = 0
    O_MARGIN = 1
    O_MAKES = 2
    O_GAME = 3

cdef enum:
    LEAF_MAKES = 0
    LEAF_GAME = 1

cdef enum:
    BONUS_NONE = 0
    BONUS_OVER_100 = 1
    BONUS_CARBUNCO = 2

cdef enum:
    INF = 30000

#: the caballo of every suit (bit 5 * suit + 1); SUNG_CABALLOS[sung]: those of the sung suits
cdef uint32_t CABALLOS = 0x10842
cdef uint32_t SUNG_CABALLOS[16]
for _s in range(16):
    SUNG_CABALLOS[_s] = sum(2 << (5 * _x) for _x in range(4) if _s >> _x & 1)
cdef int CARD_POINTS[20]
for _c in range(20):
    CARD_POINTS[_c] = (2, 3, 4, 10, 11)[_c % 5]
#: SUIT_OF[c], RANK_OF[c]: c // 5 and c % 5 by table (the search's hottest arithmetic);
#: LEAD_BASE[c]: the lead ordering's score of c (see order_moves), trumps aside
cdef int SUIT_OF[20]
cdef int RANK_OF[20]
cdef int LEAD_BASE[20]
for _c in range(20):
    SUIT_OF[_c] = _c // 5
    RANK_OF[_c] = _c % 5
    LEAD_BASE[_c] = (_c % 5) * 4 + CARD_POINTS[_c] // 4
#: COMPRESS[r][m]: the cards m of one suit (5-bit mask) within the cards r of that suit
#: still in play, by rank among those (bit j: the j-th lowest of r); EXPAND[r][j]: the
#: rank of the j-th lowest card of r (the tricks table's relative ranks, see
#: ``boundary_key``)
cdef uint8_t COMPRESS[32][32]
cdef uint8_t EXPAND[32][5]
for _r in range(32):
    _ranks = [_x for _x in range(5) if _r >> _x & 1]
    for _m in range(32):
        COMPRESS[_r][_m] = sum(1 << _j for _j, _x in enumerate(_ranks) if _m >> _x & 1)
    for _j in range(5):
        EXPAND[_r][_j] = _ranks[_j] if _j < len(_ranks) else 0
#: SUIT_POINTS[m]: the card points of the cards of one suit in the 5-bit mask m
cdef int SUIT_POINTS[32]
for _m in range(32):
    SUIT_POINTS[_m] = sum((2, 3, 4, 10, 11)[_x] for _x in range(5) if _m >> _x & 1)

#: number of ints in a context tuple (see ``cuatrola_solver.dd.solver.context_params``)
N_PARAMS = 20


cdef struct Entry:
    uint64_t k0
    uint64_t k1
    int16_t lo
    int16_t hi
    uint32_t gen
    int8_t best
    uint8_t depth
    uint8_t pad[6]


cdef struct EgEntry:
    uint64_t key           # the eight cards of the last two tricks, the leader, the trump
    int16_t lo
    int16_t hi
    uint32_t tag           # generation << 4 | kind << 1 | own (K_OWN)


cdef struct EgCache:
    EgEntry* e             # 2**EG_BITS entries, one way
    uint32_t gen
    uint64_t sig


cdef struct TT:
    Entry* e               # 64-byte aligned: a bucket of two entries is one cache line
    void* raw              # what calloc gave
    uint64_t mask          # number of entries - 1 (a power of two)
    uint32_t gen
    uint64_t sig


cdef struct Ctx:
    # rules of play
    int trump
    int beat
    int freec
    int active[4]
    int nxt[4]
    int nact
    # the contract
    int d
    int points_contract
    int goal
    int value
    int is_paso
    int bonus
    int tie_last
    int monte
    # cantes
    int cantes_count
    int cante_any
    int cante_after
    int max_cantes
    int forty_first
    # the current search
    int kind
    int leaf_kind
    int cantes_on
    int equiv
    int own             # K_OWN: the side whose points count
    long long nodes
    uint64_t sig        # the signature of the rules and contract (ctx_sig), set by run
    int killer[5][4]    # per trick and place in it: the last card that cut off
    TT* tt              # the table of the current search: one of
    TT* tt_main         #   the points kinds'
    TT* tt_tricks       #   K_TRICKS' (kept apart: a batch alternates the two per deal)
    EgCache* eg         # the last two tricks' bounds (``endgame``)


cdef struct St:
    uint32_t h[4]
    int leader
    int turn
    int tn              # tricks played: the current trick's row in the arrays below
    int cards_[5][4]
    int tlen
    int tricks[2]
    int points[2]
    int sung
    int cantes[2]
    # the current trick after k cards, k = 1..tlen: highest card of the led suit,
    # highest trump (-1: none), the winning card and its seat, the card points in it
    int hl_[5][5]
    int ht_[5][5]
    int wc_[5][5]
    int ws_[5][5]
    int tp_[5][5]


cdef struct Trick:
    # the current trick as the search plays it (passed down the calls, not kept in St):
    # the cards in it, how many, the suit led, the highest card of that suit, the
    # highest trump (-1: none), the winning card and its seat, the card points in it
    uint32_t cards
    int k
    int led
    int hl
    int ht
    int wc
    int ws
    int pts


cdef struct Left:
    # at a trick boundary of a points search: what is still to be taken
    int cards          # the card points in the hands, and the monte
    int sing[2]        # the points of the cantes still open to each side (0 when
                       # cantes do not count)


# --- rule primitives -----------------------------------------------------------

cdef inline uint32_t suit_mask(int s) noexcept nogil:
    return (<uint32_t>0x1F) << (5 * s)


cdef inline uint32_t above(int c) noexcept nogil:
    """The cards of c's suit that beat c."""
    return suit_mask(c // 5) & ~((<uint32_t>2 << c) - 1)


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil
    int __builtin_clz(unsigned int x) nogil
    int __builtin_popcount(unsigned int x) nogil


cdef inline int popcount(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)


cdef inline int lowbit(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)


# --- transposition table ---------------------------------------------------------

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory for a table of n bytes.  A large table is aligned to 2 MiB and, on
       Linux, asked for in huge pages: a probe lands anywhere in it, and with 4 KiB pages
       nearly every probe of a 32 MiB table also misses the TLB. */
    static void* cuatrola_table_alloc(size_t n) {
        void* p = NULL;
        size_t huge = (size_t)2 << 20;
        if (n >= huge) {
            if (posix_memalign(&p, huge, n) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
            madvise(p, n, MADV_HUGEPAGE);
    #endif
            memset(p, 0, n);
            return p;
        }
        return calloc(1, n);
    }
    """
    void* cuatrola_table_alloc(size_t n) nogil


cdef int tt_init(TT* tt, int bits) noexcept nogil:
    if bits < 4:
        bits = 4
    # two entries more than the table: room to align it to 64 bytes
    tt.raw = cuatrola_table_alloc((((<uint64_t>1) << bits) + 2) * sizeof(Entry))
    if tt.raw == NULL:
        return -1
    tt.e = <Entry*>((<uintptr_t>tt.raw + 63) & ~(<uintptr_t>63))
    tt.mask = ((<uint64_t>1) << bits) - 1
    tt.gen = 1
    tt.sig = 0
    return 0


cdef void tt_free(TT* tt) noexcept nogil:
    if tt.raw != NULL:
        free(tt.raw)
        tt.raw = NULL
        tt.e = NULL


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define cuatrola_prefetch(p) __builtin_prefetch((p), 0, 3)
    #else
    #define cuatrola_prefetch(p) ((void)(p))
    #endif
    """
    void cuatrola_prefetch(void* p) nogil


cdef inline uint64_t tt_index(TT* tt, uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t h = k0 * <uint64_t>0x9E3779B97F4A7C15 ^ (k1 + (k0 >> 29)) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 31
    return (h & tt.mask) & ~(<uint64_t>1)


cdef inline Entry* tt_find(TT* tt, uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t i = tt_index(tt, k0, k1)
    cdef Entry* e = &tt.e[i]
    if e.gen == tt.gen and e.k0 == k0 and e.k1 == k1:
        return e
    e = &tt.e[i + 1]
    if e.gen == tt.gen and e.k0 == k0 and e.k1 == k1:
        return e
    return NULL


cdef inline void tt_store(TT* tt, uint64_t k0, uint64_t k1, int lo, int hi, int best,
                          int depth) noexcept nogil:
    cdef uint64_t i = tt_index(tt, k0, k1)
    cdef Entry* e = &tt.e[i]
    cdef Entry* f = &tt.e[i + 1]
    if e.gen == tt.gen and e.k0 == k0 and e.k1 == k1:
        pass
    elif f.gen == tt.gen and f.k0 == k0 and f.k1 == k1:
        e = f
    elif e.gen != tt.gen or e.depth <= depth:
        # slot 0 keeps the deeper entry; the one it displaces moves to slot 1
        f[0] = e[0]
        e.gen = 0
    else:
        e = f
    if e.gen == tt.gen and e.k0 == k0 and e.k1 == k1:
        if lo < e.lo:
            lo = e.lo
        if hi > e.hi:
            hi = e.hi
        if lo > hi:          # cannot happen with exact keys; keep the new bound
            lo = hi
    e.k0 = k0
    e.k1 = k1
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi
    e.best = <int8_t>best
    e.depth = <uint8_t>depth
    e.gen = tt.gen


cdef inline bint settles(int lo, int hi, int* alpha, int* beta, int* v) noexcept nogil:
    """Stored bounds [lo, hi] of a position's value against the window (alpha, beta):
    True with ``v`` set when they settle it, else False with the window narrowed to
    them."""
    if lo >= beta[0]:
        v[0] = lo
        return True
    if hi <= alpha[0]:
        v[0] = hi
        return True
    if lo == hi:
        v[0] = lo
        return True
    if lo > alpha[0]:
        alpha[0] = lo
    if hi < beta[0]:
        beta[0] = hi
    return False


# --- the search ------------------------------------------------------------------

cdef inline uint32_t pairs(uint32_t h) noexcept nogil:
    """The caballo bits of the suits whose caballo and rey are both in h."""
    return h & (h >> 1) & CABALLOS


cdef inline int cante_options(Ctx* cx, St* st, int s) noexcept nogil:
    """4-bit mask of the suits side s may sing at this boundary."""
    cdef int opts = 0
    cdef uint32_t m
    if cx.cante_any:
        if st.tricks[s] == 0:
            return 0
    elif (st.leader & 1) != s:
        return 0
    if cx.max_cantes and st.cantes[s] >= cx.max_cantes:
        return 0
    m = (pairs(st.h[s]) | pairs(st.h[s + 2])) & ~SUNG_CABALLOS[st.sung]
    while m:
        opts |= 1 << (lowbit(m) // 5)
        m &= m - 1
    if cx.forty_first and (opts >> cx.trump) & 1:
        opts = 1 << cx.trump
    return opts


cdef int leaf(Ctx* cx, St* st) noexcept nogil:
    cdef int d = cx.d, o = 1 - cx.d, win, m, winner, v
    if cx.kind != K_LEAF:
        return 0
    if cx.points_contract:
        m = st.points[d] - st.points[o]
        if m != 0:
            win = m > 0
        elif cx.tie_last:
            win = (st.leader & 1) == d
        else:
            win = d == 0
    else:
        win = st.tricks[d] >= cx.goal
    if cx.leaf_kind == LEAF_MAKES:
        return win
    winner = d if win else o
    v = cx.value
    if cx.is_paso:
        if cx.bonus == BONUS_CARBUNCO and st.tricks[winner] == 5:
            v = 2
        elif cx.bonus == BONUS_OVER_100 and st.points[winner] > 100:
            v = 2
    return v if win else -v


cdef inline uint32_t relative(uint32_t h, uint32_t rem) noexcept nogil:
    """The cards h (within the cards rem still in play) by their rank among rem, suit by
    suit: what the tricks of a position depend on (which cards have gone does not
    matter, only which of those left beat which)."""
    return (<uint32_t>COMPRESS[rem & 31][h & 31]) \
        | ((<uint32_t>COMPRESS[(rem >> 5) & 31][(h >> 5) & 31]) << 5) \
        | ((<uint32_t>COMPRESS[(rem >> 10) & 31][(h >> 10) & 31]) << 10) \
        | ((<uint32_t>COMPRESS[rem >> 15][h >> 15]) << 15)


cdef inline int relative_card(int c, uint32_t rem) noexcept nogil:
    """Card c as its suit and its rank among the cards rem still in play."""
    cdef int s = SUIT_OF[c]
    return 5 * s + popcount((rem >> (5 * s)) & ((1 << RANK_OF[c]) - 1))


cdef inline int absolute_card(int c, uint32_t rem) noexcept nogil:
    """The inverse of ``relative_card``."""
    cdef int s = SUIT_OF[c]
    return 5 * s + EXPAND[(rem >> (5 * s)) & 31][RANK_OF[c]]


cdef inline void boundary_key(Ctx* cx, St* st, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The table key of a boundary.  For K_TRICKS the hands are taken by relative rank
    (``relative``): positions that differ only in which cards have been played share
    their entry, within a deal and across the deals of a batch (DDS does the same)."""
    cdef uint64_t extra = 0
    cdef int c0, c1
    cdef uint32_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2], h3 = st.h[3], rem
    if cx.kind == K_TRICKS:
        rem = h0 | h1 | h2 | h3
        h0 = relative(h0, rem)
        h1 = relative(h1, rem)
        h2 = relative(h2, rem)
        h3 = relative(h3, rem)
    k0[0] = (<uint64_t>h0) | ((<uint64_t>h1) << 20) | ((<uint64_t>h2) << 40) \
        | ((<uint64_t>st.leader) << 60) | ((<uint64_t>cx.trump) << 62)
    if cx.cantes_on:
        c0 = st.cantes[0]
        c1 = st.cantes[1]
        if cx.max_cantes:
            if c0 > cx.max_cantes:
                c0 = cx.max_cantes
            if c1 > cx.max_cantes:
                c1 = cx.max_cantes
        else:
            c0 = c1 = 0
        extra = (<uint64_t>st.sung) | ((<uint64_t>(c0 & 7)) << 4) | ((<uint64_t>(c1 & 7)) << 7)
        if cx.cante_any:
            extra |= (<uint64_t>(st.tricks[0] > 0)) << 10 | (<uint64_t>(st.tricks[1] > 0)) << 11
    if cx.kind == K_LEAF:
        extra |= ((<uint64_t>(st.points[0] & 1023)) << 12) | ((<uint64_t>(st.points[1] & 1023)) << 22) \
            | ((<uint64_t>st.tricks[0]) << 32) | ((<uint64_t>st.tricks[1]) << 35) \
            | ((<uint64_t>cx.leaf_kind) << 42)
    # what is searched: the kind, and for K_OWN the side whose points count
    extra |= ((<uint64_t>cx.kind) << 38) | ((<uint64_t>(cx.own if cx.kind == K_OWN else 0)) << 41)
    k1[0] = (<uint64_t>h3) | (extra << 20)


cdef inline void push_card(Ctx* cx, St* st, int seat, int c) noexcept nogil:
    """Add card c of ``seat`` to the trick, updating the trick information."""
    cdef int k = st.tlen, s = SUIT_OF[c], t = st.tn, w
    cdef int* hl = st.hl_[t]
    cdef int* ht = st.ht_[t]
    cdef int* wc = st.wc_[t]
    cdef int* ws = st.ws_[t]
    cdef int* tp = st.tp_[t]
    st.cards_[t][k] = c
    if k == 0:
        hl[1] = c
        ht[1] = c if s == cx.trump else -1
        wc[1] = c
        ws[1] = seat
        tp[1] = CARD_POINTS[c]
    else:
        hl[k + 1] = c if (s == SUIT_OF[st.cards_[t][0]] and c > hl[k]) else hl[k]
        ht[k + 1] = c if (s == cx.trump and c > ht[k]) else ht[k]
        w = wc[k]
        if (s == SUIT_OF[w] and c > w) or (s == cx.trump and SUIT_OF[w] != cx.trump):
            wc[k + 1] = c
            ws[k + 1] = seat
        else:
            wc[k + 1] = w
            ws[k + 1] = ws[k]
        tp[k + 1] = tp[k] + CARD_POINTS[c]
    st.tlen = k + 1


cdef inline uint32_t legal_in(Ctx* cx, uint32_t hand, int led, int hl, int ht) noexcept nogil:
    """The cards of ``hand`` that may follow a trick led in suit ``led`` whose highest
    card of that suit is ``hl`` and highest trump ``ht`` (-1: none): ``c_legal``."""
    cdef int trumped = led != cx.trump and ht >= 0
    cdef uint32_t follow = hand & suit_mask(led), higher, trumps
    if follow:
        if trumped and not cx.beat:
            return follow
        higher = follow & above(hl)
        return higher if higher else follow
    trumps = hand & suit_mask(cx.trump)
    if not trumps:
        return hand
    if not trumped:
        return trumps
    higher = trumps & above(ht)
    if higher:
        return higher
    return hand if cx.freec else trumps


cdef inline uint32_t legal_now(Ctx* cx, St* st, uint32_t hand) noexcept nogil:
    """``c_legal`` from the trick information."""
    cdef int k = st.tlen
    if k == 0:
        return hand
    return legal_in(cx, hand, SUIT_OF[st.cards_[st.tn][0]], st.hl_[st.tn][k], st.ht_[st.tn][k])


cdef inline uint32_t equivalence_prune(St* st, int seat, uint32_t legal,
                                      uint32_t in_trick) noexcept nogil:
    """For the tricks objective: cards of one suit with no live card of another hand (or
    of the trick, ``in_trick``) between them are equivalent; keep the highest of each
    run."""
    cdef uint32_t others = in_trick, between, m = 0, rest
    cdef int c, prev = -1
    others |= (st.h[0] | st.h[1] | st.h[2] | st.h[3]) & ~st.h[seat]
    rest = legal
    while rest:
        c = 31 - __builtin_clz(rest)          # from the highest card down
        rest &= ~((<uint32_t>1) << c)
        if prev >= 0 and prev // 5 == c // 5:
            between = ((<uint32_t>1 << prev) - 1) & ~((<uint32_t>2 << c) - 1)
            if not (others & between):
                prev = c
                continue
        m |= (<uint32_t>1) << c
        prev = c
    return m


cdef int order_moves(Ctx* cx, St* st, Trick* tr, int seat, uint32_t legal, int ttbest,
                     int* moves) noexcept nogil:
    """Fill ``moves`` with the cards to search, best guesses first; return how many.

    The table's best lead first, then (points kinds) the killer card, then high cards of the plain suits; following, a card that takes the trick from the other
    side (lowest such first), else (partner winning) points to the partner, else the
    cheapest card.
    """
    cdef int n = 0, i, j, c, s, score[5], tmp, wc = 0, mine = 0, wins, tricks_kind, killer
    cdef uint32_t m
    if legal and not (legal & (legal - 1)):
        # a forced card: nothing to order
        moves[0] = lowbit(legal)
        return 1
    if cx.equiv:
        legal = equivalence_prune(st, seat, legal, tr.cards)
    tricks_kind = cx.kind == K_TRICKS
    # the killer card (last cut-off at this place of this trick) helps the points kinds
    killer = -1 if tricks_kind else cx.killer[st.tn][tr.k]
    if tr.k:
        wc = tr.wc
        mine = (tr.ws & 1) == (seat & 1)
    m = legal
    while m:
        c = lowbit(m)
        m &= m - 1
        if c == ttbest:
            score[n] = 1000
        elif c == killer:
            score[n] = 150
        elif tr.k == 0:
            # leads: high cards first, trumps last
            score[n] = LEAD_BASE[c] - (SUIT_OF[c] == cx.trump) * 30
        else:
            if SUIT_OF[c] == SUIT_OF[wc]:
                wins = c > wc
            else:
                wins = SUIT_OF[c] == cx.trump
            if mine:
                score[n] = -RANK_OF[c] + (0 if tricks_kind else CARD_POINTS[c])
            elif wins:
                score[n] = 100 - RANK_OF[c] - (SUIT_OF[c] == cx.trump) * 10
            else:
                score[n] = -RANK_OF[c] - CARD_POINTS[c]
        moves[n] = c
        n += 1
    # insertion sort, highest score first
    for i in range(1, n):
        tmp = moves[i]
        s = score[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            score[j + 1] = score[j]
            moves[j + 1] = moves[j]
            j -= 1
        score[j + 1] = s
        moves[j + 1] = tmp
    return n


cdef inline int trick_value(Ctx* cx, int ws, int pts, int last) noexcept nogil:
    """What a trick taken by side ``ws`` holding ``pts`` points (the monte included for
    the last trick) adds to the value of the current search kind."""
    cdef int sign = 1 if ws == cx.d else -1
    if cx.kind == K_TRICKS:
        return 1 if ws == cx.d else 0
    if cx.kind == K_MARGIN:
        return sign * pts
    if cx.kind == K_EXT:
        return 2 * sign * pts + (sign if last and cx.tie_last else 0)
    if cx.kind == K_OWN:
        return sign * pts if ws == cx.own else 0
    return 0


cdef inline void add_card(Ctx* cx, Trick* tr, Trick* nt, int seat, int c) noexcept nogil:
    """``nt``: the trick ``tr`` with card c of ``seat`` added."""
    cdef int s = SUIT_OF[c]
    nt.cards = tr.cards | ((<uint32_t>1) << c)
    nt.k = tr.k + 1
    nt.pts = tr.pts + CARD_POINTS[c]
    if tr.k == 0:
        nt.led = s
        nt.hl = c
        nt.ht = c if s == cx.trump else -1
        nt.wc = c
        nt.ws = seat
        return
    nt.led = tr.led
    nt.hl = c if (s == tr.led and c > tr.hl) else tr.hl
    nt.ht = c if (s == cx.trump and c > tr.ht) else tr.ht
    if (s == SUIT_OF[tr.wc] and c > tr.wc) or (s == cx.trump and SUIT_OF[tr.wc] != cx.trump):
        nt.wc = c
        nt.ws = seat
    else:
        nt.wc = tr.wc
        nt.ws = tr.ws


cdef int finish_trick(Ctx* cx, St* st, Trick* tr, int alpha, int beta) noexcept nogil:
    """The trick ``tr`` is complete: score it and search on from the next boundary."""
    cdef int w = tr.ws, ws = w & 1, pts = tr.pts, t, contrib, v
    cdef int leader = st.leader, turn = st.turn, tlen = st.tlen
    t = st.tricks[0] + st.tricks[1] + 1
    if t == 5:
        pts += cx.monte
    contrib = trick_value(cx, ws, pts, t == 5)
    st.tricks[ws] += 1
    st.points[ws] += pts
    st.leader = w
    st.turn = w
    st.tlen = 0
    st.tn += 1
    if t == 5:
        v = contrib + leaf(cx, st)
    else:
        v = contrib + search_boundary(cx, st, alpha - contrib, beta - contrib, 0)
    st.tn -= 1
    st.tlen = tlen
    st.leader = leader
    st.turn = turn
    st.tricks[ws] -= 1
    st.points[ws] -= pts
    return v


cdef int play_card(Ctx* cx, St* st, Trick* tr, int seat, int alpha, int beta, int ttbest,
                   int* bm) noexcept nogil:
    """``seat`` plays a card to the trick ``tr``; ``bm`` (if not NULL) receives the best
    card."""
    cdef int n, i, c, v, best, maxing, bestc = -1
    cdef int moves[5]
    cdef uint32_t bit, legal = st.h[seat]
    cdef Trick nt
    cx.nodes += 1
    if tr.k:
        legal = legal_in(cx, legal, tr.led, tr.hl, tr.ht)
    n = order_moves(cx, st, tr, seat, legal, ttbest, moves)
    maxing = (seat & 1) == cx.d
    best = -INF if maxing else INF
    for i in range(n):
        c = moves[i]
        bit = (<uint32_t>1) << c
        st.h[seat] ^= bit
        add_card(cx, tr, &nt, seat, c)
        if nt.k == cx.nact:
            v = finish_trick(cx, st, &nt, alpha, beta)
        else:
            v = play_card(cx, st, &nt, cx.nxt[seat], alpha, beta, -1, NULL)
        st.h[seat] ^= bit
        if maxing:
            if v > best:
                best = v
                bestc = c
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                bestc = c
                if best < beta:
                    beta = best
        if alpha >= beta:
            cx.killer[st.tn][tr.k] = c
            break
    if bm != NULL:
        bm[0] = bestc
    return best


cdef int search_trick(Ctx* cx, St* st, int alpha, int beta, int ttbest,
                      int* bm) noexcept nogil:
    """The seat ``st.turn`` plays a card to the current trick (``st.tlen`` cards in it);
    ``bm`` (if not NULL) receives the best card."""
    cdef Trick tr
    cdef int k = st.tlen, t = st.tn, i
    tr.k = k
    tr.cards = 0
    tr.pts = 0
    tr.led = tr.hl = tr.ht = tr.wc = tr.ws = -1
    if k:
        for i in range(k):
            tr.cards |= (<uint32_t>1) << st.cards_[t][i]
        tr.led = SUIT_OF[st.cards_[t][0]]
        tr.hl = st.hl_[t][k]
        tr.ht = st.ht_[t][k]
        tr.wc = st.wc_[t][k]
        tr.ws = st.ws_[t][k]
        tr.pts = st.tp_[t][k]
    return play_card(cx, st, &tr, st.turn, alpha, beta, ttbest, bm)


cdef inline void left_at(Ctx* cx, St* st, Left* lf) noexcept nogil:
    """At a trick boundary: the card points left and each side's open cantes (a pair
    one of its seats holds, in a suit not sung), where cantes count.  The most side s
    can still add is ``lf.cards + lf.sing[s]``."""
    lf.cards = cx.monte + card_points(st.h[0] | st.h[1] | st.h[2] | st.h[3])
    lf.sing[0] = lf.sing[1] = 0
    if cx.cantes_count:
        lf.sing[0] = open_cantes(cx, st, 0)
        lf.sing[1] = open_cantes(cx, st, 1)


cdef inline int card_points(uint32_t u) noexcept nogil:
    return SUIT_POINTS[u & 31] + SUIT_POINTS[(u >> 5) & 31] + SUIT_POINTS[(u >> 10) & 31] \
        + SUIT_POINTS[u >> 15]


cdef inline int open_cantes(Ctx* cx, St* st, int s) noexcept nogil:
    """The points of the cantes side s may still sing: a pair one of its seats holds,
    in a suit not sung."""
    cdef uint32_t m = (pairs(st.h[s]) | pairs(st.h[s + 2])) & ~SUNG_CABALLOS[st.sung]
    cdef int pts = 0, c
    while m:
        c = lowbit(m)
        m &= m - 1
        pts += 40 if c // 5 == cx.trump else 20
    return pts


cdef inline int beats(Ctx* cx, int c, int w) noexcept nogil:
    """Whether card c, played after w, takes the trick from it."""
    return (SUIT_OF[c] == SUIT_OF[w] and c > w) or (SUIT_OF[c] == cx.trump and SUIT_OF[w] != cx.trump)


cdef inline int last_trick(Ctx* cx, St* st, int leader) noexcept nogil:
    """The value the last trick adds (every active seat holds one card, ``leader`` leads):
    no choice is left, nor any cante (it takes two cards)."""
    cdef int k = leader, i, c, w = lowbit(st.h[leader]), ws = leader
    cdef int p = CARD_POINTS[w] + cx.monte
    for i in range(1, cx.nact):
        k = cx.nxt[k]
        c = lowbit(st.h[k])
        p += CARD_POINTS[c]
        if beats(cx, c, w):
            w = c
            ws = k
    return trick_value(cx, ws & 1, p, 1)


cdef int endgame_card(Ctx* cx, St* st, int* seats, int k, int led, int hl, int ht, int wc,
                      int ws, int pts, int alpha, int beta) noexcept nogil:
    """Trick 4 with two cards in every hand: seat ``seats[k]`` plays (the trick so far
    led in ``led``, its highest card of that suit ``hl``, highest trump ``ht``, winning
    card ``wc`` of seat ``ws``, ``pts`` card points); then trick 5 has no choice left.
    Fail-soft alpha-beta over the at most 2 ** nact card sequences."""
    cdef int seat = seats[k], c, s, v, best, maxing, nhl, nht, nwc, nws
    cdef uint32_t m, bit
    m = st.h[seat] if k == 0 else legal_in(cx, st.h[seat], led, hl, ht)
    maxing = (seat & 1) == cx.d
    best = -INF if maxing else INF
    while m:
        c = lowbit(m)
        m &= m - 1
        s = SUIT_OF[c]
        if k == 0:
            led = s
            nhl = c
            nht = c if s == cx.trump else -1
            nwc = c
            nws = seat
        else:
            nhl = c if (s == led and c > hl) else hl
            nht = c if (s == cx.trump and c > ht) else ht
            if beats(cx, c, wc):
                nwc = c
                nws = seat
            else:
                nwc = wc
                nws = ws
        bit = (<uint32_t>1) << c
        st.h[seat] ^= bit
        if k + 1 == cx.nact:
            v = trick_value(cx, nws & 1, pts + CARD_POINTS[c], 0) + last_trick(cx, st, nws)
        else:
            v = endgame_card(cx, st, seats, k + 1, led, nhl, nht, nwc, nws,
                             pts + CARD_POINTS[c], alpha, beta)
        st.h[seat] ^= bit
        if maxing:
            if v > best:
                best = v
                if best > alpha:
                    alpha = best
        else:
            if v < best:
                best = v
                if best < beta:
                    beta = best
        if alpha >= beta:
            break
    return best


#: the endgame cache holds 2**EG_BITS entries (16 bytes each)
DEF EG_BITS = 14


cdef int eg_init(EgCache* eg) noexcept nogil:
    eg.e = <EgEntry*>calloc((<size_t>1) << EG_BITS, sizeof(EgEntry))
    eg.gen = 1
    eg.sig = 0
    return 0 if eg.e != NULL else -1


cdef inline void eg_context(EgCache* eg, uint64_t sig) noexcept nogil:
    """A search of the rules and contract ``sig``: the entries of another are stale."""
    if sig != eg.sig:
        eg.sig = sig
        eg.gen += 1
        if eg.gen >= (<uint32_t>1) << 28:      # the tag's generation would wrap: clear
            memset(eg.e, 0, ((<size_t>1) << EG_BITS) * sizeof(EgEntry))
            eg.gen = 1


cdef int endgame(Ctx* cx, St* st, int alpha, int beta) noexcept nogil:
    """The last two tricks of an additive kind from the boundary before trick 4, its
    cantes done: their value depends on the eight cards, the leader and the kind alone.
    The bounds found are kept in the endgame cache (``cx.eg``), which answers when they
    settle the window; else searched directly (the large tables are not probed here: a
    probe waiting on memory costs more than the search)."""
    cdef int seats[4], i, s = st.leader, v, a0, b0
    cdef uint32_t rem = st.h[0] | st.h[1] | st.h[2] | st.h[3]
    # every card left, and its seat in two bits: seats 2 and 4 (index 1, 3) in the
    # second field, seats 3 and 4 in the third
    cdef uint64_t key = (<uint64_t>rem) | ((<uint64_t>(st.h[1] | st.h[3])) << 20) \
        | ((<uint64_t>(st.h[2] | st.h[3])) << 40) | ((<uint64_t>st.leader) << 60) \
        | ((<uint64_t>cx.trump) << 62)
    cdef uint32_t tag = (cx.eg.gen << 4) | (<uint32_t>cx.kind << 1) \
        | <uint32_t>(cx.own if cx.kind == K_OWN else 0)
    cdef uint64_t h = key * <uint64_t>0x9E3779B97F4A7C15 ^ (<uint64_t>tag) * <uint64_t>0xC2B2AE3D27D4EB4F
    cdef EgEntry* e = &cx.eg.e[(h ^ (h >> 31)) >> (64 - EG_BITS)]
    if e.tag == tag and e.key == key:
        if settles(e.lo, e.hi, &alpha, &beta, &v):
            return v
    else:
        e.key = key
        e.tag = tag
        e.lo = -INF
        e.hi = INF
    a0 = alpha
    b0 = beta
    for i in range(cx.nact):
        seats[i] = s
        s = cx.nxt[s]
    cx.nodes += 1
    v = endgame_card(cx, st, seats, 0, -1, -1, -1, -1, -1, 0, alpha, beta)
    if v <= a0:
        if v < e.hi:
            e.hi = <int16_t>v
    elif v >= b0:
        if v > e.lo:
            e.lo = <int16_t>v
    else:
        e.lo = e.hi = <int16_t>v
    return v


cdef inline void tricks_key(Ctx* cx, St* st, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """At a trick boundary of a points search: the key of the position in the tricks
    table (whose entry the tricks search of the same deal, just before, fills)."""
    cdef int kind = cx.kind, con = cx.cantes_on
    cx.kind = K_TRICKS
    cx.cantes_on = 0
    boundary_key(cx, st, k0, k1)
    cx.kind = kind
    cx.cantes_on = con


cdef void held_bounds(Ctx* cx, St* st, Left* lf, Entry* e, int* lo_v, int* hi_v) noexcept nogil:
    """At a trick boundary of a points search (``K_MARGIN``, ``K_EXT``, ``K_OWN``): bounds
    on its future value from the tricks table's entry ``e`` of this position: d's future
    tricks lie in [lo, hi], so the other side's play for tricks holds d to hi more and
    d's holds the other side to the rest less lo, and what that many tricks can hold
    (``margin_held``, ``cards_held``) bounds the points."""
    cdef int kind = cx.kind, d = cx.d, o = 1 - cx.d, base, own, other
    cdef int left = 5 - st.tricks[0] - st.tricks[1], hi_d, hi_o, most, least
    hi_d = e.hi if e.hi < left else left               # more tricks d may take
    hi_o = left - (e.lo if e.lo > 0 else 0)            # more tricks the other side may
    base = st.points[d] - st.points[o]
    if kind == K_OWN:
        own = cx.own
        other = 1 - own
        # own adds at most what its tricks hold and its cantes, at least what the
        # other side's tricks leave of the cards
        most = cards_held(cx, st, hi_d if own == d else hi_o) + lf.sing[own]
        least = lf.cards - cards_held(cx, st, hi_o if own == d else hi_d)
        if least < 0:
            least = 0
        if own == d:
            lo_v[0] = least
            hi_v[0] = most
        else:
            lo_v[0] = -most
            hi_v[0] = -least
        return
    # d's final margin is at most margin_held(d, hi_d), at least -margin_held(o, hi_o)
    hi_v[0] = margin_held(cx, st, lf, d, hi_d) - base
    lo_v[0] = -margin_held(cx, st, lf, o, hi_o) - base
    if kind == K_EXT:
        hi_v[0] = 2 * hi_v[0] + 1
        lo_v[0] = 2 * lo_v[0] - 1


cdef int search_boundary(Ctx* cx, St* st, int alpha, int beta, int bs) noexcept nogil:
    """A trick boundary: the cantes (side of the leader first), then the lead.

    ``bs``: bit s set when side s has already sung at this boundary.
    """
    cdef int t = st.tricks[0] + st.tricks[1], k, s, opts, suit, p, contrib, v, best, maxing, i
    cdef int ttbest = -1, a0, b0, depth, bestc = -1, lo_b, hi_b, w, ws, c
    cdef bint read_tricks
    cdef uint64_t k0 = 0, k1 = 0, tk0 = 0, tk1 = 0
    cdef Entry* e
    cdef Entry* te = NULL
    cdef Left lf
    cdef Trick tr
    if t == 5:
        return leaf(cx, st)
    if cx.kind == K_TRICKS:
        # the future lies in [0, 5 - t]: cut when the window is outside (for the points
        # kinds the same bounds are too loose and only slow MTD(f) down)
        if 5 - t <= alpha:
            return 5 - t
        if beta <= 0:
            return 0
    if t == 4:
        # the last trick: every seat holds one card, so no choice is left, and no
        # cante either (it takes two cards): scored here without playing it out
        cx.nodes += 1
        k = st.leader
        w = lowbit(st.h[k])
        ws = k
        p = CARD_POINTS[w] + cx.monte
        for i in range(1, cx.nact):
            k = cx.nxt[k]
            c = lowbit(st.h[k])
            p += CARD_POINTS[c]
            if (SUIT_OF[c] == SUIT_OF[w] and c > w) or (SUIT_OF[c] == cx.trump and SUIT_OF[w] != cx.trump):
                w = c
                ws = k
        s = ws & 1
        contrib = trick_value(cx, s, p, 1)
        if cx.kind != K_LEAF:
            return contrib
        k = st.leader
        st.tricks[s] += 1
        st.points[s] += p
        st.leader = ws
        v = contrib + leaf(cx, st)
        st.leader = k
        st.tricks[s] -= 1
        st.points[s] -= p
        return v
    # the keys of the table probes below, computed now and their lines fetched, so that
    # the two probes' misses overlap each other and the bounds in between (the state
    # does not change before them: a cante is searched in a boundary of its own)
    # (the tricks table is read by the points kinds, when it holds this contract's entries)
    read_tricks = t <= 2 and cx.kind != K_TRICKS and cx.tt_tricks.sig == cx.sig
    if t <= 2 or cx.kind == K_LEAF:
        boundary_key(cx, st, &k0, &k1)
        cuatrola_prefetch(&cx.tt.e[tt_index(cx.tt, k0, k1)])
        if read_tricks:
            tricks_key(cx, st, &tk0, &tk1)
            cuatrola_prefetch(&cx.tt_tricks.e[tt_index(cx.tt_tricks, tk0, tk1)])
    if cx.kind != K_TRICKS:
        left_at(cx, st, &lf)
    if cx.kind == K_EXT and t >= 2:
        # static bounds: the future lies within +-2 * (the points the side may still
        # add) +- 1 (the last trick)
        lo_b = -2 * (lf.cards + lf.sing[1 - cx.d]) - 1
        if lo_b >= beta:
            return lo_b
        hi_b = 2 * (lf.cards + lf.sing[cx.d]) + 1
        if hi_b <= alpha:
            return hi_b
    elif cx.kind == K_OWN:
        # the future lies between 0 and all the points the side may still add
        hi_b = lf.cards + lf.sing[cx.own]
        if cx.own == cx.d:
            if hi_b <= alpha:
                return hi_b
            if 0 >= beta:
                return 0
        else:
            if -hi_b >= beta:
                return -hi_b
            if 0 <= alpha:
                return 0
    elif cx.kind == K_LEAF and cx.bonus == BONUS_OVER_100 and cx.leaf_kind == LEAF_GAME:
        # a side that cannot pass 100 points cannot win the bonus
        if st.points[cx.d] + lf.cards + lf.sing[cx.d] <= 100 and cx.value <= alpha:
            return cx.value
        if st.points[1 - cx.d] + lf.cards + lf.sing[1 - cx.d] <= 100 and -cx.value >= beta:
            return -cx.value
    if read_tricks:
        te = tt_find(cx.tt_tricks, tk0, tk1)
        if te != NULL and cx.kind != K_LEAF:
            held_bounds(cx, st, &lf, te, &lo_b, &hi_b)
            if hi_b <= alpha:
                return hi_b
            if lo_b >= beta:
                return lo_b
    if cx.cantes_on and t >= 1 and (cx.cante_after >> t) & 1 and lf.sing[0] + lf.sing[1]:
        for k in range(2):
            s = (st.leader & 1) ^ k
            if (bs >> s) & 1:
                continue
            opts = cante_options(cx, st, s)
            if not opts:
                continue
            maxing = s == cx.d
            best = -INF if maxing else INF
            for i in range(4):
                suit = (cx.trump + i) & 3          # the 40 first
                if not (opts >> suit) & 1:
                    continue
                p = 40 if suit == cx.trump else 20
                if cx.kind == K_MARGIN:
                    contrib = p if maxing else -p
                elif cx.kind == K_EXT:
                    contrib = 2 * p if maxing else -2 * p
                elif cx.kind == K_OWN and s == cx.own:
                    contrib = p if maxing else -p
                else:
                    contrib = 0
                st.points[s] += p
                st.sung |= 1 << suit
                st.cantes[s] += 1
                v = contrib + search_boundary(cx, st, alpha - contrib, beta - contrib,
                                              bs | (1 << s))
                st.points[s] -= p
                st.sung &= ~(1 << suit)
                st.cantes[s] -= 1
                if maxing:
                    if v > best:
                        best = v
                        if best > alpha:
                            alpha = best
                else:
                    if v < best:
                        best = v
                        if best < beta:
                            beta = best
                if alpha >= beta:
                    break
            return best
    if t == 3 and cx.kind != K_LEAF:
        return endgame(cx, st, alpha, beta)
    e = tt_find(cx.tt, k0, k1)
    if e != NULL:
        if settles(e.lo, e.hi, &alpha, &beta, &v):
            return v
        ttbest = e.best
        if cx.kind == K_TRICKS and ttbest >= 0:
            ttbest = absolute_card(ttbest, st.h[0] | st.h[1] | st.h[2] | st.h[3])
    if ttbest < 0 and te != NULL and te.best >= 0:
        # the best lead for tricks is a good first guess for the points
        ttbest = absolute_card(te.best, st.h[0] | st.h[1] | st.h[2] | st.h[3])
    a0 = alpha
    b0 = beta
    tr.k = 0
    tr.cards = 0
    tr.pts = 0
    v = play_card(cx, st, &tr, st.leader, alpha, beta, ttbest, &bestc)
    depth = 5 - t
    if cx.kind == K_TRICKS and bestc >= 0:
        bestc = relative_card(bestc, st.h[0] | st.h[1] | st.h[2] | st.h[3])
    if v <= a0:
        tt_store(cx.tt, k0, k1, -INF, v, bestc, depth)
    elif v >= b0:
        tt_store(cx.tt, k0, k1, v, INF, bestc, depth)
    else:
        tt_store(cx.tt, k0, k1, v, v, bestc, depth)
    return v


# --- objectives on a whole position ---------------------------------------------------

cdef inline uint64_t ctx_sig(Ctx* cx) noexcept nogil:
    cdef uint64_t h = 1469598103934665603
    cdef int vals[24]
    cdef int i
    vals[0] = 0; vals[1] = 0; vals[2] = cx.cantes_count; vals[3] = cx.d
    vals[4] = cx.beat; vals[5] = cx.freec
    vals[6] = cx.active[0] | cx.active[1] << 1 | cx.active[2] << 2 | cx.active[3] << 3
    vals[7] = cx.points_contract; vals[8] = cx.goal; vals[9] = cx.value
    vals[10] = cx.is_paso; vals[11] = cx.bonus; vals[12] = cx.tie_last; vals[13] = cx.monte
    vals[14] = cx.cante_any; vals[15] = cx.cante_after; vals[16] = cx.max_cantes
    vals[17] = cx.forty_first; vals[18] = 0; vals[19] = 0
    for i in range(20):
        h = (h ^ <uint64_t>(vals[i] + 7)) * <uint64_t>1099511628211
    return h


cdef int run(Ctx* cx, St* st, int bs, int kind, int alpha, int beta) noexcept nogil:
    """Search one kind from the position ``st``: the future value, fail-soft."""
    cdef uint64_t sig
    cx.kind = kind
    cx.cantes_on = cx.cantes_count and kind != K_TRICKS
    cx.equiv = kind == K_TRICKS
    cx.tt = cx.tt_tricks if kind == K_TRICKS else cx.tt_main
    sig = ctx_sig(cx)
    cx.sig = sig
    if sig != cx.tt.sig:
        cx.tt.gen += 1
        cx.tt.sig = sig
    eg_context(cx.eg, sig)
    if st.tlen:
        return search_trick(cx, st, alpha, beta, -1, NULL)
    return search_boundary(cx, st, alpha, beta, bs)


cdef int margin_guess(Ctx* cx, St* st) noexcept nogil:
    """A first guess of the future margin for MTD(f): the card points each side holds,
    trumps counting 5 more.  Only the speed depends on it (5x fewer nodes than 0)."""
    cdef int i, c, held[2]
    cdef uint32_t m
    held[0] = held[1] = 0
    for i in range(4):
        m = st.h[i]
        while m:
            c = lowbit(m)
            m &= m - 1
            held[i & 1] += CARD_POINTS[c] + 5 * (c // 5 == cx.trump)
    return held[cx.d] - held[1 - cx.d]


cdef int mtdf(Ctx* cx, St* st, int bs, int kind, int guess) noexcept nogil:
    """The exact value by zero-window tests converging on it (MTD(f))."""
    cdef int lo = -INF, hi = INF, g = guess, beta
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = run(cx, st, bs, kind, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


cdef int value_of(Ctx* cx, St* st, int bs, int objective, int* tricks_out) noexcept nogil:
    """The value of a position for one objective of the public API; ``tricks_out`` (if
    not NULL) also receives the most tricks d can take, and that count then settles the
    win whenever it can.

    Margin on a contract decided on tricks has no value: the caller handles it.
    """
    cdef int d = cx.d, o = 1 - cx.d, T = -1, win, bonus
    bonus = objective == O_GAME and cx.is_paso and cx.bonus != BONUS_NONE
    if objective == O_TRICKS or tricks_out != NULL or (bonus and cx.bonus == BONUS_CARBUNCO):
        T = st.tricks[d] + run(cx, st, bs, K_TRICKS, -1, 6)
        if tricks_out != NULL:
            tricks_out[0] = T
        if objective == O_TRICKS:
            return T
    if objective == O_MARGIN:
        return st.points[d] - st.points[o] + mtdf(cx, st, bs, K_MARGIN, margin_guess(cx, st))
    if bonus and not (cx.bonus == BONUS_CARBUNCO or (cx.bonus == BONUS_OVER_100 and cx.value < 2)):
        cx.leaf_kind = LEAF_GAME
        return run(cx, st, bs, K_LEAF, -3, 3)
    win = -1
    if T < 0:
        pass
    elif not cx.points_contract:
        win = T >= cx.goal
    elif T == 5:
        # all five tricks: the other side never leads after trick 1 nor holds a trick,
        # so it sings nothing and holds no point
        win = 1
    elif T == 0 and st.points[d] == 0:
        # the same for d: the other side takes every point
        win = 0
    elif st.tlen == 0 and held_loses(cx, st, d, T - st.tricks[d]):
        win = 0
    elif st.tlen == 0 and held_loses(cx, st, o, 5 - T - st.tricks[o]):
        # d, playing for tricks, holds the other side to 5 - T: too few points to win
        win = 1
    if (win < 0 and objective == O_GAME and cx.is_paso and cx.bonus == BONUS_OVER_100
            and passing_100_wins(cx, st)):
        # the over_100 bonus folded into the win: a side that can pass 100 points wins
        # with the bonus, so one test of the likely winner (by the cards held) settles
        # both when it passes; else the win test and the other side's bonus test follow
        win = d if margin_guess(cx, st) >= 0 else o
        if passes_100(cx, st, bs, win, T):
            return 2 if win == d else -2
        win = -1
    if win < 0:
        win = wins(cx, st, bs)
    if objective == O_MAKES:
        return win
    return game_of(cx, st, bs, win, T)


cdef int game_of(Ctx* cx, St* st, int bs, int win, int T) noexcept nogil:
    """The game points of a position once the win is known; ``T``, the most tricks d
    can take (-1: not known), is needed for ``carbunco`` and spares ``over_100`` some
    searches.  A ``pass_bonus`` may take one more search, the others none."""
    cdef int d = cx.d, o = 1 - cx.d
    if not (cx.is_paso and cx.bonus != BONUS_NONE):
        return cx.value if win else -cx.value
    if cx.bonus == BONUS_CARBUNCO:
        # game points from thresholds d can force or not: all five tricks (a win, see
        # above), the win, one trick (else the other side takes all five and wins)
        if T == 5:
            return 2
        return cx.value if win else (-cx.value if T >= 1 else -2)
    # over_100: one zero-window test of the bonus (the winner passing 100 points)
    if passing_100_wins(cx, st):
        # passing 100 points wins whatever else happens: test the points alone
        if win:
            return 2 if passes_100(cx, st, bs, d, T) else cx.value
        return -2 if passes_100(cx, st, bs, o, T) else -cx.value
    cx.leaf_kind = LEAF_GAME
    if win:
        return 2 if run(cx, st, bs, K_LEAF, cx.value, 2) >= 2 else cx.value
    return -cx.value if run(cx, st, bs, K_LEAF, -2, -cx.value) >= -cx.value else -2


cdef int passes_100(Ctx* cx, St* st, int bs, int s, int tricks_d) noexcept nogil:
    """Can side s end with more than 100 points against the other side's best play?
    One zero-window test of s's points (``K_OWN``), unless ``tricks_d`` (the most
    tricks d can take; -1: not known) settles it at a trick boundary: s held to the
    tricks the other side's play for tricks leaves it cannot pass 100, or the other
    side held to its tricks leaves s more than 100 whatever else happens."""
    cdef int T, k_s, k_o
    if tricks_d >= 0 and st.tlen == 0:
        k_s = tricks_d - st.tricks[cx.d] if s == cx.d else 5 - tricks_d - st.tricks[s]
        k_o = 5 - k_s - st.tricks[0] - st.tricks[1]
        if held_under_101(cx, st, s, k_s):
            return 0
        if cards_held(cx, st, k_o) < st.points[s] + cx.monte \
                + card_points(st.h[0] | st.h[1] | st.h[2] | st.h[3]) - 100:
            return 1
    cx.own = s
    if s == cx.d:
        T = 101 - st.points[s]
        return T <= 0 or run(cx, st, bs, K_OWN, T - 1, T) >= T
    T = st.points[s] - 100              # the other side holds s to 100 iff -(s's future) >= T
    return T > 0 or run(cx, st, bs, K_OWN, T - 1, T) < T


cdef inline int best_cards(uint32_t h, int k) noexcept nogil:
    """The card points of the k best cards of hand h (all of them when it holds k or
    fewer)."""
    cdef int r, n, most = 0
    cdef uint32_t ranks
    if k <= 0:
        return 0
    if k == 1:
        # the best rank held in any suit
        ranks = (h | (h >> 5) | (h >> 10) | (h >> 15)) & 31
        return CARD_POINTS[31 - __builtin_clz(ranks)] if ranks else 0
    if k >= popcount(h):
        return card_points(h)
    r = 4
    while k > 0:
        n = popcount(h & (<uint32_t>0x08421 << r))
        if n > k:
            n = k
        most += n * CARD_POINTS[r]
        k -= n
        r -= 1
    return most


cdef int cards_held(Ctx* cx, St* st, int k) noexcept nogil:
    """At a trick boundary: the most card points a side can still take when it takes at
    most k more tricks.  Each trick it takes holds one card of every seat: at most every
    seat's k best cards, and the monte (if it takes a trick at all)."""
    if k <= 0:
        return 0
    return cx.monte + best_cards(st.h[0], k) + best_cards(st.h[1], k) \
        + best_cards(st.h[2], k) + best_cards(st.h[3], k)


cdef inline int margin_held(Ctx* cx, St* st, Left* lf, int s, int k) noexcept nogil:
    """At a trick boundary: the most side s's final margin (its points minus the other
    side's) can be when it takes at most k more tricks: its points and all it can add
    (``cards_held``, its open cantes) against the other side's points and every other
    card point (``lf``: what is left)."""
    return st.points[s] - st.points[1 - s] + 2 * cards_held(cx, st, k) + lf.sing[s] - lf.cards


cdef int held_loses(Ctx* cx, St* st, int s, int k) noexcept nogil:
    """At a trick boundary of a points contract: True if side s loses whenever it takes
    at most k more tricks (then the other side's play that holds it there beats it)."""
    cdef Left lf
    left_at(cx, st, &lf)
    return margin_held(cx, st, &lf, s, k) < 0


cdef int held_under_101(Ctx* cx, St* st, int s, int k) noexcept nogil:
    """At a trick boundary: True if side s cannot end with more than 100 points when it
    takes at most k more tricks: it adds at most ``cards_held`` and the cantes still open
    to it (even with no trick more: a side that took the last one may sing now)."""
    cdef int most = st.points[s] + cards_held(cx, st, k)
    if cx.cantes_count:
        most += open_cantes(cx, st, s)
    return most <= 100


cdef int passing_100_wins(Ctx* cx, St* st) noexcept nogil:
    """True if a side ending with more than 100 points wins whatever else happens: the
    points both sides may end with (held, left in play, every open cante) are fewer
    than 202, so the other side ends with fewer than 101."""
    cdef int total = st.points[0] + st.points[1] + cx.monte \
        + card_points(st.h[0] | st.h[1] | st.h[2] | st.h[3])
    if st.tlen:
        total += st.tp_[st.tn][st.tlen]
    if cx.cantes_count:
        total += open_cantes(cx, st, 0) + open_cantes(cx, st, 1)
    return total < 202


cdef int wins(Ctx* cx, St* st, int bs) noexcept nogil:
    """Does the declaring side win?  One zero-window test."""
    cdef int d = cx.d, o = 1 - cx.d, base, T, win
    if cx.points_contract:
        base = 2 * (st.points[d] - st.points[o])
        if not cx.tie_last:
            base += 1 if d == 0 else -1
        T = 1 - base                 # win iff base + future >= 1
        if st.tricks[0] + st.tricks[1] == 5:
            win = base + (0 if not cx.tie_last else (1 if (st.leader & 1) == d else -1)) > 0
        else:
            win = run(cx, st, bs, K_EXT, T - 1, T) >= T
    else:
        T = cx.goal - st.tricks[d]
        win = T <= 0 or run(cx, st, bs, K_TRICKS, T - 1, T) >= T
    return win


# --- the double-dummy table -----------------------------------------------------------

cdef inline int margin_from_tricks(Ctx* cx, int T) noexcept nogil:
    """A first guess of the margin from the deal for MTD(f), given T, the most tricks d
    can take: a least-squares line over random deals (mean error about 14 points,
    against about 45 for ``margin_guess``).  Only the speed depends on it."""
    if cx.nact == 4:
        return 55 * T - 136
    if cx.nact == 3:
        return 40 * T - 110
    return 29 * T - 71


cdef void row_values(Ctx* cx, St* st, int T, int* out) noexcept nogil:
    """The four figures of one row of the double-dummy table, from the first lead, in
    as few searches as exactness allows: ``out`` = tricks, margin (0 for a contract
    decided on tricks), makes, game points.

    ``T``: the most tricks d can take when already known (another row with the same
    players: the tricks search reads no contract parameter), else -1.  On tricks the
    tricks settle the rest.  On points the margin M does: M > 0 wins, M < 0 loses, and
    M = 0 wins on the tie break (under ``last_trick`` one zero-window test of whether d
    can tie *and* take trick 5).  A pass bonus may take one more search
    (``game_of``), unless M settles it (``over_100``: M > 100 means d passes 100
    points, M < -100 that the other side does).
    """
    cdef int M, win
    if T < 0:
        T = run(cx, st, 0, K_TRICKS, -1, 6)
    out[0] = T
    if not cx.points_contract:
        win = T >= cx.goal
        out[1] = 0
        out[2] = win
        out[3] = cx.value if win else -cx.value
        return
    M = mtdf(cx, st, 0, K_MARGIN, margin_from_tricks(cx, T))
    if M > 0:
        win = 1
    elif M < 0:
        win = 0
    elif cx.tie_last:
        win = wins(cx, st, 0)
    else:
        win = cx.d == 0
    out[1] = M
    out[2] = win
    if cx.is_paso and cx.bonus == BONUS_OVER_100 and (M > 100 or M < -100):
        out[3] = 2 if win else -2
    else:
        out[3] = game_of(cx, st, 0, win, T)


cdef void hint_values(Ctx* cx, St* st, int bs, int guess, int* out) noexcept nogil:
    """Tricks, margin (0 for a contract decided on tricks) and makes of the position, in
    as few searches as exactness allows: the margin M settles makes (M > 0 wins, M < 0
    loses, M = 0 goes to the tie break: one zero-window test under ``last_trick``).
    ``guess``: a first guess of M for MTD(f) (the previous layout's; -INF: none); only
    the speed depends on it."""
    cdef int d = cx.d, o = 1 - cx.d, T, M, win
    T = st.tricks[d] + run(cx, st, bs, K_TRICKS, -1, 6)
    out[0] = T
    if not cx.points_contract:
        out[1] = 0
        out[2] = T >= cx.goal
        return
    if guess == -INF:
        guess = st.points[d] - st.points[o] + margin_guess(cx, st)
    M = st.points[d] - st.points[o] + mtdf(cx, st, bs, K_MARGIN,
                                           guess - st.points[d] + st.points[o])
    if M > 0:
        win = 1
    elif M < 0:
        win = 0
    elif cx.tie_last:
        win = wins(cx, st, bs)
    else:
        win = d == 0
    out[1] = M
    out[2] = win


#: most rows of a table (17 in presets with contrasolo)
DEF MAX_ROWS = 32


# --- Python interface ------------------------------------------------------------------

cdef int fill_ctx(Ctx* cx, tuple p) except -1:
    """Rules and contract from the int tuple of ``solver.context_params``."""
    cdef int i, j
    if len(p) != N_PARAMS or not any(p[2:6]):
        raise ValueError(f"expected {N_PARAMS} rule parameters with an active seat, got {p!r}")
    cx.beat = p[0]
    cx.freec = p[1]
    for i in range(4):
        cx.active[i] = p[2 + i]
    cx.nact = 0
    for i in range(4):
        cx.nact += cx.active[i]
        j = (i + 1) % 4
        while not p[2 + j]:
            j = (j + 1) % 4
        cx.nxt[i] = j
    cx.d = p[6]
    cx.points_contract = p[7]
    cx.goal = p[8]
    cx.value = p[9]
    cx.is_paso = p[10]
    cx.bonus = p[11]
    cx.tie_last = p[12]
    cx.monte = p[13]
    cx.cantes_count = p[14]
    cx.cante_any = p[15]
    cx.cante_after = p[16]
    cx.max_cantes = p[17] if p[17] < 4 else 0
    cx.forty_first = p[18]
    cx.trump = p[19]
    cx.nodes = 0
    memset(cx.killer, -1, sizeof(cx.killer))
    cx.kind = K_TRICKS
    cx.leaf_kind = LEAF_MAKES
    cx.own = 0
    return 0


cdef int fill_state(St* st, Ctx* cx, tuple s) except -1:
    """State from ``(hands, leader, trick, tricks, points, sung, cantes)``; returns the
    boundary-sung bits."""
    cdef int i
    hands, leader, trick, tricks, points, sung, cantes, bsung = s
    for i in range(4):
        st.h[i] = hands[i] if cx.active[i] else 0
    st.leader = leader - 1
    st.tlen = 0
    st.tn = tricks[0] + tricks[1]
    st.turn = st.leader
    for i in range(len(trick)):
        push_card(cx, st, st.turn, trick[i])
        st.turn = cx.nxt[st.turn]
    for i in range(2):
        st.tricks[i] = tricks[i]
        st.points[i] = points[i]
        st.cantes[i] = cantes[i]
    st.sung = sung
    return (1 if bsung[0] else 0) | (2 if bsung[1] else 0)


cdef inline void deal_state(Ctx* cx, St* st, const cnp.int64_t* hands, int trump) noexcept nogil:
    """The position of a deal at the first lead: the four hands (seats 1-4; those of
    seats sitting out are dropped) and the trump."""
    cdef int j
    cx.trump = trump
    for j in range(4):
        st.h[j] = <uint32_t>hands[j] if cx.active[j] else 0
    st.leader = cx.nxt[3]
    st.turn = st.leader
    st.tlen = 0
    st.tn = 0
    st.tricks[0] = st.tricks[1] = 0
    st.points[0] = st.points[1] = 0
    st.cantes[0] = st.cantes[1] = 0
    st.sung = 0


cdef class Solver:
    """A search context owning two transposition tables of 32-byte entries: the points
    kinds' (``2**tt_bits`` entries) and the tricks' (``2**tricks_bits``, default the
    same).  Not thread-safe: use one per thread."""

    cdef TT tt
    cdef TT tt_tricks
    cdef EgCache eg
    cdef public long long nodes
    cdef readonly int tt_bits
    cdef readonly int tricks_bits

    def __cinit__(self, int tt_bits=12, int tricks_bits=-1):
        if tricks_bits < 0:
            tricks_bits = tt_bits
        if (tt_init(&self.tt, tt_bits) != 0 or tt_init(&self.tt_tricks, tricks_bits) != 0
                or eg_init(&self.eg) != 0):
            raise MemoryError("cannot allocate the transposition tables")
        self.tt_bits = max(tt_bits, 4)
        self.tricks_bits = max(tricks_bits, 4)
        self.nodes = 0

    def __dealloc__(self):
        tt_free(&self.tt)
        tt_free(&self.tt_tricks)
        free(self.eg.e)
        self.eg.e = NULL

    cdef void attach(self, Ctx* cx) noexcept:
        """Give the context ``cx`` this solver's tables."""
        cx.tt = cx.tt_main = &self.tt
        cx.tt_tricks = &self.tt_tricks
        cx.eg = &self.eg

    def value(self, tuple params, tuple state, int objective):
        """The value of one position: ``params`` from ``context_params``, ``state`` as
        ``(hands, leader, trick, tricks, points, sung, cantes, boundary_sung)``,
        ``objective`` 0 tricks, 1 margin, 2 makes, 3 game points."""
        cdef Ctx cx
        cdef St st
        cdef int bs, v
        fill_ctx(&cx, params)
        self.attach(&cx)
        bs = fill_state(&st, &cx, state)
        with nogil:
            v = value_of(&cx, &st, bs, objective, NULL)
        self.nodes += cx.nodes
        return v

    def batch_from(self, tuple params, tuple state, cnp.int64_t[:, ::1] hands, int objective,
                   cnp.int32_t[::1] out, Py_ssize_t start, Py_ssize_t stop):
        """The value of the position ``state`` (as for ``value``; its hands unused) with
        the four hands of each row ``start..stop`` of ``hands`` (seats 1-4; those of seats
        sitting out are dropped), into ``out``: the layouts of one seat's view searched
        with the tables kept warm.  The GIL is released for the whole loop.  Returns the
        nodes searched."""
        cdef Ctx cx
        cdef St st0, st
        cdef Py_ssize_t i
        cdef int j, bs
        if start < 0 or stop > hands.shape[0] or stop > out.shape[0]:
            raise ValueError("layouts out of range")
        fill_ctx(&cx, params)
        self.attach(&cx)
        bs = fill_state(&st0, &cx, state)
        with nogil:
            for i in range(start, stop):
                st = st0
                for j in range(4):
                    st.h[j] = <uint32_t>hands[i, j] if cx.active[j] else 0
                out[i] = value_of(&cx, &st, bs, objective, NULL)
        self.nodes += cx.nodes
        return cx.nodes

    def figures_from(self, tuple params, tuple state, cnp.int64_t[:, ::1] hands,
                     cnp.int32_t[:, ::1] out, Py_ssize_t start, Py_ssize_t stop):
        """As ``batch_from``, the three figures of a hint into ``out[i]`` = tricks,
        margin (0 for a contract decided on tricks), makes (see ``hint_values``).
        Returns the nodes searched."""
        cdef Ctx cx
        cdef St st0, st
        cdef Py_ssize_t i
        cdef int j, bs, guess = -INF
        if start < 0 or stop > hands.shape[0] or stop > out.shape[0] or out.shape[1] != 3:
            raise ValueError("layouts out of range, or out is not (n, 3)")
        fill_ctx(&cx, params)
        self.attach(&cx)
        bs = fill_state(&st0, &cx, state)
        with nogil:
            for i in range(start, stop):
                st = st0
                for j in range(4):
                    st.h[j] = <uint32_t>hands[i, j] if cx.active[j] else 0
                hint_values(&cx, &st, bs, guess, <int*>&out[i, 0])
                guess = out[i, 1]
        self.nodes += cx.nodes
        return cx.nodes

    def batch(self, tuple params, cnp.int64_t[:, ::1] hands, cnp.int64_t[::1] trumps,
              int objective, cnp.int32_t[::1] out, Py_ssize_t start, Py_ssize_t stop,
              cnp.int32_t[::1] tricks_out=None):
        """Solve deals ``start..stop`` from the first lead (no cards played) into ``out``,
        and (if given) the most tricks of the declaring side into ``tricks_out``; the
        GIL is released for the whole loop.  Returns the nodes searched."""
        cdef Ctx cx
        cdef St st
        cdef Py_ssize_t i
        cdef int T
        cdef bint want_tricks = tricks_out is not None
        fill_ctx(&cx, params)
        self.attach(&cx)
        with nogil:
            for i in range(start, stop):
                deal_state(&cx, &st, &hands[i, 0], <int>trumps[i])
                if want_tricks:
                    out[i] = value_of(&cx, &st, 0, objective, &T)
                    tricks_out[i] = T
                else:
                    out[i] = value_of(&cx, &st, 0, objective, NULL)
        self.nodes += cx.nodes
        return cx.nodes


    def table(self, tuple rows, cnp.int64_t[:, ::1] hands, cnp.int64_t[::1] trumps,
              cnp.int32_t[:, :, ::1] out, Py_ssize_t start, Py_ssize_t stop):
        """The double-dummy tables of deals ``start..stop`` into ``out[i, r]`` = tricks,
        margin, makes, game points of row r (see ``row_values``).  ``rows``: per row
        ``(params, same)``, ``params`` from ``context_params`` and ``same`` the index of
        an earlier row with the same players (its tricks are this row's), or -1.  The
        GIL is released for the whole loop.  Returns the nodes searched."""
        cdef Ctx cxs[MAX_ROWS]
        cdef int same[MAX_ROWS]
        cdef Ctx* cx
        cdef St st
        cdef Py_ssize_t i
        cdef int r, nrows = len(rows), T
        cdef long long nodes = 0
        if nrows > MAX_ROWS or out.shape[1] != nrows or out.shape[2] != 4:
            raise ValueError(f"a table has at most {MAX_ROWS} rows and out is (n, rows, 4)")
        if start < 0 or stop > hands.shape[0] or stop > out.shape[0] or stop > trumps.shape[0]:
            raise ValueError("deals out of range")
        for r in range(nrows):
            params, s = rows[r]
            if not -1 <= s < r:
                raise ValueError(f"row {r} shares the tricks of row {s}")
            fill_ctx(&cxs[r], params)
            self.attach(&cxs[r])
            same[r] = s
        with nogil:
            for i in range(start, stop):
                for r in range(nrows):
                    cx = &cxs[r]
                    deal_state(cx, &st, &hands[i, 0], <int>trumps[i])
                    T = out[i, same[r], 0] if same[r] >= 0 else -1
                    row_values(cx, &st, T, <int*>&out[i, r, 0])
            for r in range(nrows):
                nodes += cxs[r].nodes
        self.nodes += nodes
        return nodes


cdef St _trick_state(Ctx* cx, trick_cards, int trump, int lo, int hi) except *:
    cdef St st
    cdef int i, n = len(trick_cards)
    if n < lo or n > hi:
        raise ValueError(f"a trick here has {lo} to {hi} cards")
    cx.trump = trump
    st.tlen = 0
    st.tn = 0
    for i in range(n):
        push_card(cx, &st, i, trick_cards[i])   # "seat" i: the index in the trick
    return st


def legal_mask(int hand, trick_cards, int trump, bint beat_led_after_trump,
               bint free_when_cannot_overtrump):
    """The cards of ``hand`` that may be played to ``trick_cards`` (as
    ``cuatrola_solver.game.play.legal_mask``), computed by the search's own code."""
    cdef Ctx cx
    cx.beat = beat_led_after_trump
    cx.freec = free_when_cannot_overtrump
    cdef St st = _trick_state(&cx, trick_cards, trump, 0, 3)
    return legal_now(&cx, &st, <uint32_t>hand)


def trick_winner_index(trick_cards, int trump):
    """Index in ``trick_cards`` of the winning card (as ``play.trick_winner_index``),
    computed by the search's own code."""
    cdef Ctx cx
    cdef St st = _trick_state(&cx, trick_cards, trump, 1, 4)
    return st.ws_[st.tn][st.tlen]
