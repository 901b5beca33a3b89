"""Sampling plans (cuatrola_solver.hidden.chunks): bounded and lazy."""

from __future__ import annotations

from cuatrola_solver.advice import budget
from cuatrola_solver.hidden.chunks import iter_chunks, plan_chunks


# --- sampling plans are bounded -----------------------------------------------

def test_iter_chunks_is_lazy():
    chunks = iter_chunks(10 ** 15, 1, budget.ROUND)
    first = [next(chunks) for _ in range(3)]
    assert [c.start for c in first] == [0, 1000, 2000]
    assert [c.start for c in plan_chunks(2500, 1, 1000)] == [0, 1000, 2000]
    # the same chunks as the whole plan: results do not depend on laziness
    whole = plan_chunks(3000, 1, 1000)
    assert [c.seed.spawn_key for c in first] == [c.seed.spawn_key for c in whole]
