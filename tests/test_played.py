"""Played odds: the model from double-dummy P(win) to P(win) at the table, and its use."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver import advisor, played
from cuatrola_solver.calibration import Prediction
from cuatrola_solver.cards import parse_card, parse_cards
from cuatrola_solver.rules import get_rules

runner = CliRunner()
ONLINE = get_rules("online")


def _synthetic(n: int, shift: float, seed: int = 0) -> list[Prediction]:
    """Predictions of solo by seat 4 whose outcomes follow logit(p) + shift."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p = rng.uniform(0.05, 0.95)
        q = 1 / (1 + np.exp(-(np.log(p / (1 - p)) + shift)))
        out.append(Prediction("solo", 4, "B", p, rng.random() < q))
    return out


def test_fit_finds_a_known_shift_and_leaves_unseen_cells_alone():
    model = played.fit(_synthetic(4000, 0.8), ONLINE, {"command": "test"})
    a, b = model.coefficients("solo", 4)
    assert a == pytest.approx(0.8, abs=0.15) and b == pytest.approx(1.0, abs=0.15)
    assert model.p("solo", 4, 0.5) == pytest.approx(1 / (1 + np.exp(-0.8)), abs=0.04)
    assert model.p("cuatrola", 2, 0.3) == pytest.approx(0.3)      # no data: unchanged
    assert model.coefficients("solo", 1) == tuple(model.cells["solo@*"])   # the pool


def test_a_cell_with_few_hands_stays_near_its_pool():
    preds = _synthetic(3000, 0.0) + [Prediction("solo", 1, "A", 0.5, True)] * 5
    model = played.fit(preds, ONLINE, {"command": "test"})
    assert model.p("solo", 1, 0.5) < 0.75


def test_played_outcomes_move_the_weight_and_keep_the_shape():
    outcomes = ((-2, 0.3), (1, 0.5), (2, 0.2))
    got = dict(played.played_outcomes(outcomes, 0.5, 1))
    assert sum(got.values()) == pytest.approx(1)
    assert got[-2] == pytest.approx(0.5) and got[1] / got[2] == pytest.approx(0.5 / 0.2)
    # a part the search never saw is the base value
    assert dict(played.played_outcomes(((-4, 1.0),), 0.25, 4)) == {-4: 0.75, 4: 0.25}


def test_advise_gives_played_odds_beside_double_dummy_and_advises_on_them():
    model = played.fit(_synthetic(4000, 1.5), ONLINE, {"command": "test"})
    hand, m = parse_cards("Ao Co Ac Rb Se"), parse_card("Co")
    plain = advisor.advise(hand, m, 4, "paso paso paso", None, ONLINE, samples=2000, seed=2)
    both = advisor.advise(hand, m, 4, "paso paso paso", None, ONLINE, samples=2000, seed=2,
                          played_model=model)
    assert plain.model == "dd" and both.model == "played"
    for a, b in zip(plain.options, both.options):
        assert (a.p_win, a.ev) == (b.p_win, b.ev)            # double dummy unchanged
    solo = both.option("solo")
    assert solo.p_played > solo.p_win + 0.05 and solo.ev_played > solo.ev
    best = max((o for o in both.options if o.option.allowed), key=lambda o: o.ev_played)
    assert both.advice == best.option.bid and both.advice_dd == plain.advice
    d = both.to_dict()
    assert d["model"] == "played" and "p_played" in d["options"][0]
    assert "p_played" not in plain.to_dict()["options"][0]


def test_cli_model_option_and_bad_files(tmp_path):
    base = ["advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "1", "--seed", "1",
            "--samples", "2000", "--json"]
    out = json.loads(runner.invoke(app, base).output)
    assert out["model"] == "played" and out["options"][1]["p_played"] is not None
    dd = json.loads(runner.invoke(app, base + ["--model", "dd"]).output)
    assert dd["model"] == "dd" and "p_played" not in dd["options"][1]
    res = runner.invoke(app, base + ["--model", "oracle"])
    assert res.exit_code == 2 and "oracle" in res.output
    bad = tmp_path / "m.json"
    for content, needle in (("{", "cannot be read"), ('{"version": 9}', "another version"),
                            ('{"version": 1, "rules": "narro", "cells": {}}', "not online"),
                            ('{"version": 1, "rules": "online", "cells": {"x": [1]}}',
                             "corrupt")):
        bad.write_text(content)
        with pytest.raises(played.PlayedModelError, match=needle):
            played.load_model(ONLINE, bad)
    with pytest.raises(played.PlayedModelError, match="not found"):
        played.load_model(ONLINE, tmp_path / "none.json")


def test_the_shipped_models_say_how_they_were_made():
    for preset in ("online", "app", "narro", "italiano"):
        m = played.load_model(get_rules(preset))
        prov = m.provenance
        assert prov["command"].startswith("cuatrola calibrate") and prov["hands"] >= 500
        assert prov["predictions"]["solo@4"] >= 100 and "date" in prov


def test_the_pimc_bidder_may_bid_on_played_odds_and_the_calls():
    from cuatrola_solver.players import parse_player
    from cuatrola_solver.view import View
    p = parse_player("pimc:odds=played,inference=1,bid_samples=200")
    assert repr(p) == "pimc:bid_samples=200,odds=played,inference=1"
    view = View.from_input("Ac 3c Ro Co Ab", "So", 2, "paso", None, ONLINE)
    plain = parse_player("pimc:bid_samples=200").call(view, 3)
    assert p.call(view, 3) in view.legal_calls() and plain in view.legal_calls()
    for bad in ("pimc:odds=magic", "pimc:inference=2"):
        with pytest.raises(Exception, match="bad value"):
            parse_player(bad)


def test_the_pimc_bidder_for_the_match_or_for_the_hand():
    """narro at 19-18 (README): for the match cuatrola, for the hand another call."""
    from cuatrola_solver.match import Score
    from cuatrola_solver.players import parse_player
    from cuatrola_solver.view import View
    view = View.from_input("Ac 3c Ro Co Ab", "So", 2, "paso", None, get_rules("narro"),
                           Score(19, 18))
    match, hand = parse_player("pimc:bid_samples=2000"), parse_player("pimc:bid_samples=2000,match=0")
    assert repr(hand) == "pimc:bid_samples=2000,match=0"
    assert match.call(view, 1) == "cuatrola" and hand.call(view, 1) != "cuatrola"
