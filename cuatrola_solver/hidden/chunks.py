"""Reproducible parallel sampling: the same deals whatever the number of workers.

:func:`plan_chunks` cuts ``n`` samples into chunks of a fixed size, chunk ``j`` drawing
from the ``j``-th child of the master ``SeedSequence``; the deals depend on the seed and
chunk size only, never on how many workers run the chunks (:func:`sample_chunk`,
:func:`sample_deals_seeded`).
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .deals import sample_deals
from .knowledge import Deals, Knowledge

__all__ = ["Chunk", "iter_chunks", "plan_chunks", "sample_chunk", "sample_deals_seeded",
           "DEFAULT_CHUNK"]

#: samples per chunk in :func:`plan_chunks` (the unit of parallel work)
DEFAULT_CHUNK = 4096

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


def sample_chunk(k: Knowledge, chunk: Chunk) -> Deals:
    """The deals of one chunk (see :func:`plan_chunks`)."""
    return sample_deals(k, chunk.size, np.random.default_rng(chunk.seed))


def _sample_chunk_args(args: tuple[Knowledge, Chunk]) -> Deals:
    return sample_chunk(*args)


def sample_deals_seeded(k: Knowledge, n: int, seed: int | np.random.SeedSequence | None = None,
                        *, workers: int = 1, chunk_size: int = DEFAULT_CHUNK) -> Deals:
    """``n`` uniform deals, drawn chunk by chunk (:func:`plan_chunks`) on ``workers``
    processes; the result is the same for any number of workers."""
    chunks = plan_chunks(n, seed, chunk_size)
    if not chunks:
        return np.empty((0, 4), dtype=np.uint32)
    if workers <= 1 or len(chunks) == 1:
        parts = [sample_chunk(k, c) for c in chunks]
    else:
        # a fork in a process running other threads (the web server) can copy a lock
        # one of them held, taken for ever in the child: there, a fork server's children
        start = "fork" if threading.active_count() == 1 else "forkserver"
        with ProcessPoolExecutor(max_workers=workers,
                                 mp_context=multiprocessing.get_context(start)) as ex:
            parts = list(ex.map(_sample_chunk_args, [(k, c) for c in chunks]))
    return np.concatenate(parts)
