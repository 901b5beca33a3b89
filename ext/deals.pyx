# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled unranking of deals (``cuatrola_solver.hidden._deals``).

The same walk of a counting table as ``cuatrola_solver.hidden.deals``'s numpy version
(its reference: the tests compare the two), one rank at a time in C instead of one card
at a time over every rank in numpy: 756,756 deals in about 55 ms instead of 290 ms."""

from libc.stdint cimport int64_t, uint32_t


def unrank_product(const int64_t[:, ::1] counts, const int64_t[:, ::1] offsets,
                   const unsigned char[:, ::1] allowed, const uint32_t[::1] bits,
                   int64_t start, const int64_t[::1] ranks, const int64_t[::1] seats,
                   const uint32_t[::1] known, uint32_t[:, ::1] out):
    """Fill ``out[q]`` (four hand masks, seats 1..4) with the deal of rank ``ranks[q]``
    of one product-form knowledge: its counting table ``counts`` (``(n + 1, size)``), the
    steps ``offsets[i][j]`` of the flat index when pool card ``i`` (of bit ``bits[i]``)
    goes to other seat ``j``, whether it may (``allowed[i][j]``, j = 0, 1: the third
    other seat takes what the first two do not), the flat index ``start`` of the full
    capacities, the other seats (0-based) and the cards each seat is known to hold."""
    cdef Py_ssize_t q, i, j, n = bits.shape[0], m = ranks.shape[0]
    cdef int64_t r, idx, w
    cdef uint32_t h[3]
    with nogil:
        for q in range(m):
            r = ranks[q]
            idx = start
            h[0] = h[1] = h[2] = 0
            for i in range(n):
                # the first other seat whose completions still hold the rank
                j = 0
                while j < 2:
                    if allowed[i, j]:
                        w = counts[i + 1, idx + offsets[i, j]]
                        if r < w:
                            break
                        r -= w
                    j += 1
                h[j] |= bits[i]
                idx += offsets[i, j]
            for j in range(4):
                out[q, j] = known[j]
            for j in range(3):
                out[q, seats[j]] |= h[j]
