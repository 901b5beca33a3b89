"""analyze shares the cards among --workers processes: the report does not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuatrola_solver.analysis import review
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "analysis"


@pytest.mark.parametrize("name", ["online-blunder.txt", "narro-montar-el-fallo.txt"])
def test_same_report_whatever_the_workers(name, monkeypatch):
    rec = read_record((EXAMPLES / name).read_text())
    one = review.analyze(rec, Budget(samples=40, seed=3, workers=1), Models.NONE,
                         bids=False).to_dict()
    calls = []
    real = review._review_cards

    def spy(tasks, how, workers):
        calls.append(workers)
        yield from real(tasks, how, workers)

    monkeypatch.setattr(review, "_review_cards", spy)
    seen = []
    two = review.analyze(rec, Budget(samples=40, seed=3, workers=2), Models.NONE, bids=False,
                         progress=lambda done, total: seen.append((done, total))).to_dict()
    assert calls == [2]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert seen[-1][0] == seen[-1][1] == len(two["cards"])          # progress reached the end
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
