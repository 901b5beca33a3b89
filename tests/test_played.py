"""Played odds (cuatrola_solver.models.played): the model from double-dummy P(win) to
P(win) at the table, and its use; the fit against a plain maximisation of the same
penalised likelihood, and the model's figures on small cases worked out by hand."""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import bidding, cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.errors import ModelError
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.lab import fit_played
from cuatrola_solver.lab.calibration import Prediction
from cuatrola_solver.models import played
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.replay import read_view, replay

from helpers import as_view

runner = CliRunner()
ONLINE = get_rules("online")
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


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
    model = fit_played.fit(_synthetic(4000, 0.8), ONLINE, {"command": "test"})
    a, b = model.coefficients("solo", 4)
    assert a == pytest.approx(0.8, abs=0.15) and b == pytest.approx(1.0, abs=0.15)
    assert model.p("solo", 4, 0.5) == pytest.approx(1 / (1 + np.exp(-0.8)), abs=0.04)
    assert model.p("cuatrola", 2, 0.3) == pytest.approx(0.3)      # no data: unchanged
    assert model.coefficients("solo", 1) == tuple(model.cells["solo@*"])   # the pool


def test_a_cell_with_few_hands_stays_near_its_pool():
    preds = _synthetic(3000, 0.0) + [Prediction("solo", 1, "A", 0.5, True)] * 5
    model = fit_played.fit(preds, ONLINE, {"command": "test"})
    assert model.p("solo", 1, 0.5) < 0.75


def test_played_outcomes_move_the_weight_and_keep_the_shape():
    outcomes = ((-2, 0.3), (1, 0.5), (2, 0.2))
    got = dict(played.played_outcomes(outcomes, 0.5, 1))
    assert sum(got.values()) == pytest.approx(1)
    assert got[-2] == pytest.approx(0.5) and got[1] / got[2] == pytest.approx(0.5 / 0.2)
    # a part the search never saw is the base value
    assert dict(played.played_outcomes(((-4, 1.0),), 0.25, 4)) == {-4: 0.75, 4: 0.25}


def test_advise_gives_played_odds_beside_double_dummy_and_advises_on_them():
    model = fit_played.fit(_synthetic(4000, 1.5), ONLINE, {"command": "test"})
    hand, m = parse_cards("Ao Co Ac Rb Se"), parse_card("Co")
    plain = bidding.advise(View.bidding(hand, m, 4, "paso paso paso", ONLINE, None),
                           Budget(samples=2000, seed=2), Models.NONE)
    both = bidding.advise(View.bidding(hand, m, 4, "paso paso paso", ONLINE, None),
                          Budget(samples=2000, seed=2), Models(played=model))
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
        with pytest.raises(ModelError, match=needle):
            played.load_model(ONLINE, bad)
    with pytest.raises(ModelError, match="not found"):
        played.load_model(ONLINE, tmp_path / "none.json")


def test_the_shipped_models_say_how_they_were_made():
    for preset in ("online", "app", "narro", "italiano"):
        m = played.load_model(get_rules(preset))
        prov = m.provenance
        assert prov["command"].startswith("cuatrola calibrate") and prov["hands"] >= 500
        assert prov["predictions"]["solo@4"] >= 100 and "date" in prov


def test_the_pimc_bidder_may_bid_on_played_odds_and_the_calls():
    from cuatrola_solver.bots.players import parse_player
    p = parse_player("pimc:odds=played,inference=1,bid_samples=200")
    assert repr(p) == "pimc:bid_samples=200,odds=played,inference=1"
    view = read_view("Ac 3c Ro Co Ab", "So", 2, "paso", None, ONLINE)
    plain = parse_player("pimc:bid_samples=200").call(view, 3)
    assert p.call(view, 3) in view.legal_calls() and plain in view.legal_calls()
    for bad in ("pimc:odds=magic", "pimc:inference=2"):
        with pytest.raises(Exception, match="bad value"):
            parse_player(bad)


def test_the_pimc_bidder_for_the_match_or_for_the_hand():
    """narro at 19-18 (README): for the match cuatrola, for the hand another call."""
    from cuatrola_solver.game.match import Score
    from cuatrola_solver.bots.players import parse_player
    view = read_view("Ac 3c Ro Co Ab", "So", 2, "paso", None, get_rules("narro"),
                           Score(19, 18))
    match, hand = parse_player("pimc:bid_samples=2000"), parse_player("pimc:bid_samples=2000,match=0")
    assert repr(hand) == "pimc:bid_samples=2000,match=0"
    assert match.call(view, 1) == "cuatrola" and hand.call(view, 1) != "cuatrola"


# --- cards: the played P(win) of each card (hint, analyze) -------------------------------

def _card_predictions(n: int, shift: float, trick: int, role: str, contract: str = "solo",
                      seed: int = 0) -> list[Prediction]:
    """Card predictions whose outcomes follow logit(p) + shift."""
    return [dataclasses.replace(p, contract=contract, trick=trick, role=role)
            for p in _synthetic(n, shift, seed)]


def _halving() -> played.PlayedModel:
    """A model that halves every card's logit (a card's P(win) pulled toward 50%)."""
    cells = {f"t{t}/{r}@*": [0.0, 0.5] for t in range(1, 6) for r in ("declarer", "defender")}
    return played.PlayedModel("online", cells, {})


def test_card_cells_are_fitted_per_trick_and_role_beside_the_calls():
    preds = (_card_predictions(3000, 1.0, 1, "defender")
             + _card_predictions(3000, -0.7, 4, "declarer", seed=1) + _synthetic(2000, 0.0))
    model = fit_played.fit(preds, ONLINE, {"command": "test"})
    assert model.has_cards and not fit_played.fit(_synthetic(500, 0.0), ONLINE, {}).has_cards
    a, b = model.coefficients("t1/defender", "solo")
    assert a == pytest.approx(1.0, abs=0.2) and b == pytest.approx(1.0, abs=0.2)
    assert model.p_card("solo", 1, "defender", 0.5) == pytest.approx(1 / (1 + np.exp(-1)),
                                                                    abs=0.05)
    assert model.p_card("solo", 4, "declarer", 0.5) < 0.4
    # another contract at the same trick and role: the pool; no cell: unchanged
    assert model.coefficients("t1/defender", "paso") == tuple(model.cells["t1/defender@*"])
    assert model.p_card("solo", 2, "defender", 0.3) == pytest.approx(0.3)
    a, b = model.coefficients("solo", 4)                   # the calls' cells are their own
    assert a == pytest.approx(0.0, abs=0.2) and b == pytest.approx(1.0, abs=0.2)
    assert model.provenance["predictions"]["t1/defender@solo"] == 3000


def _blunder():
    from cuatrola_solver.notation.record import read_record
    return read_record((EXAMPLES / "analysis" / "online-blunder.txt").read_text())


def test_card_predictions_are_the_hints_of_the_cards_chosen():
    from cuatrola_solver.lab.calibration import card_predictions, with_card_predictions
    from cuatrola_solver.notation.replay import replay_cards
    from cuatrola_solver.game.play import side_of
    from cuatrola_solver.notation.record import write_json
    rec = _blunder()
    obj, winner = json.loads(write_json(rec)), replay(rec).result().winner
    preds = card_predictions(obj, winner, samples=30, seed=5)
    expected = []
    for n, (t, _, hand, card) in enumerate(replay_cards(rec)):
        if len(hand.legal_cards()) > 1:
            h = cardplay.hint(as_view(hand), Budget(samples=30, seed=5 + n), Models.NONE)
            seat = hand.pos.to_play
            expected.append((t, seat, next(c.p_win for c in h.cards if c.card == card),
                             ("A" if seat % 2 else "B") == winner,
                             "declarer" if side_of(seat) == hand.pos.declaring_side
                             else "defender"))
    assert [(p.trick, p.seat, p.p, p.won, p.role) for p in preds] == expected
    assert len(expected) >= 6 and {p.contract for p in preds} == {replay(rec).contract}
    one = list(with_card_predictions([(obj, winner)] * 3, samples=20, seed=1, workers=1))
    two = list(with_card_predictions([(obj, winner)] * 3, samples=20, seed=1, workers=2))
    assert one == two and one[0][2] != one[1][2]           # seeded per record, not per worker


def test_hint_rates_each_card_as_played():
    from cuatrola_solver.notation.replay import replay_cards
    hand = next(h for t, _, h, _ in replay_cards(_blunder()) if t == 2)
    plain = cardplay.hint(as_view(hand), Budget(samples=60, seed=1), Models.NONE)
    rated = cardplay.hint(as_view(hand), Budget(samples=60, seed=1), Models(played=_halving()))
    assert plain.model == "dd" and rated.model == "played"
    assert [c.card for c in plain.cards] == [c.card for c in rated.cards]
    for c in rated.cards:
        p = min(max(c.p_win, 0.01), 0.99)
        assert c.p_played == pytest.approx(1 / (1 + np.sqrt((1 - p) / p)))
    assert "p_played" in rated.to_dict()["cards"][0]
    assert "p_played" not in plain.to_dict()["cards"][0]


def test_analysis_labels_on_played_odds():
    from cuatrola_solver.analysis import review
    rec = _blunder()
    dd = review.analyze(rec, Budget(samples=60, seed=3), Models.NONE, bids=False)
    pl = review.analyze(rec, Budget(samples=60, seed=3), Models(played=_halving()), bids=False)
    assert dd.model == "dd" and pl.model == "played"
    choices = [(a, b) for a, b in zip(dd.cards, pl.cards) if a.kind == "choice"]
    assert any(a.loss >= review.SOUND for a, _ in choices)          # the blunder
    for a, b in choices:
        assert (a.p_win, a.best_p_win) == (b.p_win, b.best_p_win) and b.loss_dd == a.loss
        assert b.loss <= a.loss + 1e-9                 # halved logits: smaller gaps
        assert b.label == review.label_of(b.loss)[0]
    assert any(b.loss < a.loss - 0.02 for a, b in choices)
    d = pl.to_dict()
    assert d["model"] == "played" and {"p_played", "loss_dd"} <= set(d["cards"][0])


def test_a_renuncio_is_lost_as_played_too():
    from cuatrola_solver.analysis import review
    from cuatrola_solver.notation.record import read_record
    rec = read_record((EXAMPLES / "analysis" / "online-asistir.txt").read_text())
    pl = review.analyze(rec, Budget(samples=30, seed=3), Models(played=_halving()), bids=False)
    renuncio = next(c for c in pl.cards if c.kind == "renuncio")
    assert renuncio.p_played == 0.0 and renuncio.label == "renuncio"


def test_cli_hint_and_analyze_rate_cards_as_played(tmp_path):
    hint = ["hint", str(EXAMPLES / "advice" / "hint-trick3.txt"), "--samples", "40",
            "--seed", "1", "--json"]
    out = json.loads(runner.invoke(app, hint).output)
    assert out["model"] == "played" and all("p_played" in c for c in out["cards"])
    dd = json.loads(runner.invoke(app, hint + ["--model", "dd"]).output)
    assert dd["model"] == "dd" and "p_played" not in dd["cards"][0]
    text = runner.invoke(app, hint[:-1]).output
    assert "at the table" in text and "P(win) played" in text
    analyze = ["analyze", str(EXAMPLES / "analysis" / "online-blunder.txt"), "--samples", "30",
               "--seed", "1", "--no-bids"]
    rep = json.loads(runner.invoke(app, analyze + ["--json"]).output)
    assert rep["model"] == "played" and rep["cards"][0]["p_played"] is not None
    assert "as the hand will be played" in runner.invoke(app, analyze).output
    for cmd in (hint, analyze):
        res = runner.invoke(app, cmd + ["--model", "oracle"])
        assert res.exit_code == 2 and "oracle" in res.output


def test_cli_calibrate_cards_and_fit_card_cells(tmp_path):
    from cuatrola_solver.notation.record import write_json
    rec = _blunder()
    records = tmp_path / "r.jsonl"
    records.write_text((write_json(rec) + "\n") * 2)
    res = runner.invoke(app, ["calibrate", str(records), "--cards", "--card-samples", "20",
                              "--json"])
    assert res.exit_code == 0, res.output
    groups = {g["group"]: g for g in json.loads(res.output)["groups"]}
    assert groups["cards, overall"]["n"] >= 12
    model = tmp_path / "m.json"
    res = runner.invoke(app, ["calibrate", str(records), "--cards", "--card-samples", "20",
                              "--fit", "-o", str(model)])
    assert res.exit_code == 0, res.output
    assert played.load_model(ONLINE, model).has_cards
    plain = tmp_path / "plain.json"
    plain.write_text(fit_played.fit(_synthetic(300, 0.0), ONLINE, {}).to_json())
    res = runner.invoke(app, ["calibrate", str(records), "--cards", "--model", str(plain)])
    assert res.exit_code == 2 and "no card cells" in res.output


def test_card_predictions_weigh_the_calls_unless_they_were_forced():
    from cuatrola_solver.models import bids
    from cuatrola_solver.lab.calibration import card_predictions, forced_auction
    from cuatrola_solver.notation.record import read_record, write_json
    rec = read_record((EXAMPLES / "analysis" / "italiano-failed-solo.txt").read_text())
    obj, winner = json.loads(write_json(rec)), replay(rec).result().winner
    model = bids.load_model(rec.rules)
    plain = card_predictions(obj, winner, samples=60, seed=2)
    weighed = card_predictions(obj, winner, samples=60, seed=2, bid_model=model)
    assert not forced_auction(obj) and [p.p for p in plain] != [p.p for p in weighed]
    obj["lab"] = {"config": {"auctions": [" ".join(rec.auction)]}}     # calls forced
    assert forced_auction(obj)
    assert card_predictions(obj, winner, samples=60, seed=2, bid_model=model) == plain


def test_a_model_without_card_cells_leaves_the_cards_double_dummy(monkeypatch):
    from cuatrola_solver.analysis import review
    from cuatrola_solver.notation.replay import replay_cards
    plain = fit_played.fit(_synthetic(300, 0.0), ONLINE, {"command": "test"})
    hand = next(h for t, _, h, _ in replay_cards(_blunder()) if t == 2)
    h = cardplay.hint(as_view(hand), Budget(samples=40, seed=1), Models(played=plain))
    assert h.model == "dd" and all(c.p_played is None for c in h.cards)
    a = review.analyze(_blunder(), Budget(samples=30, seed=1), Models(played=plain))
    assert a.model == "dd" and all(c.p_played is None for c in a.cards)
    assert all(o.p_played is not None for b in a.bids for o in b.answer.options if o.option.allowed)
    from cuatrola_solver.models import preset
    monkeypatch.setattr(preset, "_played_model", lambda rules: plain)
    out = runner.invoke(app, ["hint", str(EXAMPLES / "advice" / "hint-trick3.txt"),
                              "--samples", "40", "--seed", "1"]).output
    assert "cards rated double dummy" in out and "P(win) played" not in out


def test_a_contrasolo_is_mapped_by_the_contrasolo_bidder_s_cell():
    """The fit keys a contrasolo by its last bidder (the contrasolo's), for that bidder's
    side: the advice reads the same cell, for the same side."""
    from cuatrola_solver.models.played import PlayedModel
    narro = get_rules("narro")
    # only seat 2's contrasolo cell moves the odds: +2 on the logit of seat 2's side
    model = PlayedModel("narro", {"contrasolo@2": [2.0, 1.0]}, {})
    view = View.bidding("Ac 3c Rc Ce Sb", "3o", 2, "solo", narro)
    plain = bidding.advise(view, Budget(samples=2000, seed=4), Models.NONE)
    mapped = bidding.advise(view, Budget(samples=2000, seed=4), Models(played=model))
    p = plain.option("contrasolo").p_win            # seat 2's side's, the caller's
    assert 0.01 < p < 0.99
    want = 1 / (1 + math.exp(-(2.0 + math.log(p / (1 - p)))))
    assert mapped.option("contrasolo").p_played == pytest.approx(want)
    # paso leaves seat 1's solo standing: no cell of it, so no change
    assert mapped.option("paso").p_played == pytest.approx(plain.option("paso").p_win)


# --- the fit and the model's figures by value -----------------------------------------

def logit(p: float) -> float:
    """The model's logit: of p clipped to [0.01, 0.99]."""
    p = min(max(p, 0.01), 0.99)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def golden(f, lo: float, hi: float, tol: float = 1e-10) -> float:
    """The maximum of a unimodal f on [lo, hi], by golden-section search (no gradient)."""
    r = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = f(c), f(d)
    while b - a > tol:
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = f(d)
    return (a + b) / 2


def penalised(x, y, prior, strength):
    """The log-likelihood of logit(P(won)) = a + b x, minus strength/2 |(a, b) - prior|^2."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)

    def f(a, b):
        z = a + b * x
        ll = -(y * np.logaddexp(0, -z) + (1 - y) * np.logaddexp(0, z)).sum()
        return ll - strength / 2 * ((a - prior[0]) ** 2 + (b - prior[1]) ** 2)
    return f


def best_intercept(x, y, prior, strength) -> float:
    """The slope held at the prior's, the best intercept."""
    f = penalised(x, y, prior, strength)
    return golden(lambda a: f(a, prior[1]), -10, 10)


def best_pair(x, y, prior, strength) -> tuple[float, float]:
    """The best (a, b): the best intercept for each slope, the best slope of those."""
    f = penalised(x, y, prior, strength)

    def a_of(b):
        return golden(lambda a: f(a, b), -10, 10)
    b = golden(lambda b: f(a_of(b), b), -10, 10)
    return a_of(b), b


def sample(n: int, a: float, b: float, seed: int) -> list[tuple[float, bool]]:
    """(p, won) with p spread over (0.03, 0.97) and logit P(won) = a + b logit(p)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p = rng.uniform(0.03, 0.97)
        out.append((p, rng.random() < sigmoid(a + b * logit(p))))
    return out


def xy(rows):
    return (np.array([logit(p) for p, _ in rows]), np.array([float(w) for _, w in rows]))


# --- one cell ---------------------------------------------------------------------------

def test_a_cell_is_the_maximum_of_its_penalised_likelihood():
    x, y = xy(sample(300, 0.5, 1.6, seed=1))
    a, b = fit_played._fit_cell(x, y, (0.3, 0.8), 8.0)
    ea, eb = best_pair(x, y, (0.3, 0.8), 8.0)
    assert a == pytest.approx(ea, abs=1e-6) and b == pytest.approx(eb, abs=1e-6)
    assert a == pytest.approx(0.5, abs=0.4) and b == pytest.approx(1.6, abs=0.4)
    # a strong pull: near the prior; in whole numbers, the same
    a, b = fit_played._fit_cell(x, y, (0, 1), 1e6)
    assert (a, b) == pytest.approx((0, 1), abs=1e-3)
    assert fit_played._fit_cell(x, y, (0, 1), 4.0) == pytest.approx(
        best_pair(x, y, (0, 1), 4.0), abs=1e-6)


def test_a_cell_of_predictions_at_the_extremes():
    """Most predictions at 1-2% or 98-99% with outcomes nearly decided: the likelihood
    is flat there (p (1 - p) near 0) and the pull toward the prior carries the curvature."""
    rng = random.Random(7)
    rows = []
    for _ in range(300):
        p = rng.choice([0.01, 0.02, 0.98, 0.99, 0.5, 0.3, 0.7])
        rows.append((p, rng.random() < sigmoid(0.3 + 2.5 * logit(p))))
    x, y = xy(rows)
    assert fit_played._fit_cell(x, y, (0.0, 1.0), 8.0) == pytest.approx(
        best_pair(x, y, (0.0, 1.0), 8.0), abs=1e-6)


def test_below_the_minimum_sample_the_slope_stays_the_priors():
    """On 199 predictions spread over many values, with a slope of 2 in the data: only
    the intercept is fitted; from 200 (MIN_SLOPE) the slope too."""
    rows = sample(200, -0.4, 2.0, seed=2)
    x, y = xy(rows[:199])
    a, b = fit_played._fit_cell(x, y, (0.2, 0.9), 8.0)
    assert b == 0.9
    assert a == pytest.approx(best_intercept(x, y, (0.2, 0.9), 8.0), abs=1e-6)
    x, y = xy(rows)
    a, b = fit_played._fit_cell(x, y, (0.2, 0.9), 8.0)
    ea, eb = best_pair(x, y, (0.2, 0.9), 8.0)
    assert a == pytest.approx(ea, abs=1e-6) and b == pytest.approx(eb, abs=1e-6)
    assert b > 1.4                                   # the data's slope, not the prior's
    assert fit_played.MIN_SLOPE == 200


def test_a_cell_of_one_prediction_is_pulled_with_the_whole_strength():
    x, y = np.array([logit(0.7)]), np.array([1.0])
    a, b = fit_played._fit_cell(x, y, (0.2, 1.1), 8.0)
    assert b == 1.1
    assert a == pytest.approx(best_intercept(x, y, (0.2, 1.1), 8.0), abs=1e-6)
    # by hand: sigmoid(a + 1.1 logit .7) - 1 + 8 (a - .2) = 0; at a = .2, sigmoid(1.132)
    # = .7562, so a = .2 + .2438 / (8 + .7562 * .2438) = .2298 (one Newton step)
    assert a == pytest.approx(0.2298, abs=1e-4)


# --- pools and cells --------------------------------------------------------------------

def test_a_small_cell_is_pulled_toward_its_pool_not_toward_no_change():
    """solo@4: 2000 predictions whose true map is logit' = 0.9 + 1.3 logit; solo@1: six
    predictions, three won and three lost at 50%.  The pool (both seats) is fitted toward
    no change with 4 pseudo-hands, each cell toward the pool with 8."""
    seat4 = sample(2000, 0.9, 1.3, seed=3)
    seat1 = [(0.5, True), (0.5, False)] * 3
    preds = ([Prediction("solo", 4, "B", p, w) for p, w in seat4]
             + [Prediction("solo", 1, "A", p, w) for p, w in seat1])
    model = fit_played.fit(preds, ONLINE, {"command": "test"})
    pool = best_pair(*xy(seat4 + seat1), (0.0, 1.0), 4.0)
    assert model.cells["solo@*"] == pytest.approx(pool, abs=2e-5)
    cell4 = best_pair(*xy(seat4), pool, 8.0)
    assert model.cells["solo@4"] == pytest.approx(cell4, abs=2e-5)
    assert model.cells["solo@4"] == pytest.approx([0.9, 1.3], abs=0.2)
    cell1 = best_intercept(*xy(seat1), pool, 8.0)
    assert model.cells["solo@1"] == pytest.approx([cell1, pool[1]], abs=2e-5)
    # on its own the cell says a = 0 (as many won as lost at 50%); pulled toward the
    # pool it keeps most of the pool's a, toward no change it would stay at 0
    assert 0.5 * pool[0] < model.cells["solo@1"][0] < pool[0]
    assert best_intercept(*xy(seat1), (0.0, 1.0), 8.0) == pytest.approx(0, abs=1e-6)
    assert model.p("solo", 1, 0.5) == pytest.approx(sigmoid(cell1), abs=1e-4)
    # five decimals kept
    for v in model.cells.values():
        assert all(c == round(c, 5) for c in v)
    assert model.provenance["predictions"] == {"solo@*": 2006, "solo@1": 6, "solo@4": 2000}


def test_calls_and_cards_have_pools_of_their_own():
    calls = sample(250, 1.0, 1.0, seed=4)
    cards = sample(250, -1.0, 1.0, seed=5)
    paso_cards = sample(30, 0.0, 1.0, seed=6)
    preds = ([Prediction("solo", 2, "B", p, w) for p, w in calls]
             + [Prediction("solo", 3, "A", p, w, 2, "defender") for p, w in cards]
             + [Prediction("paso", 1, "A", p, w, 2, "defender") for p, w in paso_cards]
             + [Prediction("paso", 1, "A", 0.3, True, 2, "declarer")])
    model = fit_played.fit(preds, ONLINE, {})
    solo = best_pair(*xy(calls), (0.0, 1.0), 4.0)
    assert model.cells["solo@*"] == pytest.approx(solo, abs=2e-5)
    pool = best_pair(*xy(cards + paso_cards), (0.0, 1.0), 4.0)
    assert model.cells["t2/defender@*"] == pytest.approx(pool, abs=2e-5)
    assert model.cells["t2/defender@solo"] == pytest.approx(best_pair(*xy(cards), pool, 8.0),
                                                            abs=2e-5)
    assert model.cells["t2/defender@paso"] == pytest.approx(
        [best_intercept(*xy(paso_cards), pool, 8.0), pool[1]], abs=2e-5)
    for v in model.cells.values():
        assert all(c == round(c, 5) for c in v)                       # five decimals kept
    assert list(model.cells) == ["solo@*", "solo@2", "t2/declarer@*", "t2/declarer@paso",
                                   "t2/defender@*", "t2/defender@paso", "t2/defender@solo"]
    assert list(model.provenance["predictions"].items()) == list({
        "solo@*": 250, "solo@2": 250, "t2/declarer@*": 1, "t2/declarer@paso": 1,
        "t2/defender@*": 280, "t2/defender@paso": 30, "t2/defender@solo": 250}.items())
    assert model.coefficients("t2/defender", "paso") == tuple(model.cells["t2/defender@paso"])
    assert model.p_card("paso", 2, "defender", 0.4) == pytest.approx(
        sigmoid(model.cells["t2/defender@paso"][0]
                + model.cells["t2/defender@paso"][1] * logit(0.4)))


def test_fit_says_how_it_was_made():
    preds = [Prediction("paso", s, "AB"[s % 2 == 0], 0.5, s < 3) for s in (1, 2, 3, 4)]
    model = fit_played.fit(preds, get_rules("narro"), {"command": "cuatrola calibrate x",
                                                   "hands": 4})
    assert model.rules == "narro"
    assert model.provenance == {
        "command": "cuatrola calibrate x", "hands": 4,
        "predictions": {"paso@*": 4, "paso@1": 1, "paso@2": 1, "paso@3": 1, "paso@4": 1},
        "date": datetime.date.today().isoformat(), "model_version": 1}
    assert not model.has_cards


# --- using a model ----------------------------------------------------------------------

MODEL = played.PlayedModel("online", {"solo@4": [0.5, 2.0], "solo@*": [-1.0, 1.0],
                                      "t3/declarer@*": [0.25, 0.5]}, {"hands": 9})


def test_a_model_maps_the_odds_by_cell_then_pool_then_unchanged():
    assert MODEL.coefficients("solo", 4) == (0.5, 2.0)
    assert MODEL.coefficients("solo", 2) == (-1.0, 1.0)
    assert MODEL.coefficients("paso", 2) == (0.0, 1.0)
    assert MODEL.p("solo", 4, 0.6) == pytest.approx(sigmoid(0.5 + 2 * math.log(1.5)))
    assert MODEL.p("solo", 2, 0.5) == pytest.approx(sigmoid(-1))
    assert MODEL.p("paso", 1, 0.3) == pytest.approx(0.3)
    # clipped to [0.01, 0.99] before the logit
    assert MODEL.p("paso", 1, 0.0) == pytest.approx(0.01)
    assert MODEL.p("paso", 1, 1.0) == pytest.approx(0.99)
    assert MODEL.p("solo", 4, 1.0) == pytest.approx(sigmoid(0.5 + 2 * math.log(99)))
    assert isinstance(MODEL.p("solo", 4, 0.6), float)
    assert MODEL.p_card("solo", 3, "declarer", 0.8) == pytest.approx(
        sigmoid(0.25 + 0.5 * math.log(4)))
    assert MODEL.p_card("solo", 3, "defender", 0.8) == pytest.approx(0.8)
    assert MODEL.p_card("solo", 2, "declarer", 0.8) == pytest.approx(0.8)
    assert isinstance(MODEL.p_card("solo", 3, "declarer", 0.8), float)
    assert MODEL.has_cards
    assert not played.PlayedModel("online", {"solo@*": [0, 1], "quintola@2": [0, 1]},
                                  {}).has_cards


def test_a_model_is_written_as_it_is_read(tmp_path):
    text = MODEL.to_json()
    assert text == (
        '{\n "version": 1,\n "rules": "online",\n'
        ' "form": "logit(p_played) = a + b * logit(clip(p_dd, 0.01, 0.99))",\n'
        ' "cells": {\n  "solo@4": [\n   0.5,\n   2.0\n  ],\n  "solo@*": [\n   -1.0,\n   1.0\n'
        '  ],\n  "t3/declarer@*": [\n   0.25,\n   0.5\n  ]\n },\n'
        ' "provenance": {\n  "hands": 9\n }\n}')
    path = tmp_path / "m.json"
    path.write_text(text)
    assert played.load_model(ONLINE, path) == MODEL
    assert played.load_model(ONLINE, str(path)) == MODEL


def test_the_preset_model_is_found_by_its_rules_name():
    path = played.model_path(ONLINE)
    assert path.name == "played_online.json" and path.parent.name == "data"
    assert path.parent.parent.name == "models" and path.is_file()
    assert played.load_model(ONLINE).cells == json.loads(path.read_text())["cells"]


REMEDY = "fit one with cuatrola calibrate --fit RECORDS -o FILE, or use --model dd"


@pytest.mark.parametrize("obj, words", [
    ([], "is of another version (expected 1); " + REMEDY),
    ({"rules": "online", "cells": {}}, "is of another version (expected 1); " + REMEDY),
    ({"version": 2, "rules": "online", "cells": {}},
     "is of another version (expected 1); " + REMEDY),
    ({"version": 1, "cells": {}}, "is for rules None, not online"),
    ({"version": 1, "rules": "narro", "cells": {}}, "is for rules 'narro', not online"),
    ({"version": 1, "rules": "online"}, "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": [[0, 1]]}, "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0, 1, 2]}}, "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0]}}, "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0, 1], "x": "ab"}},
     "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0, "1"]}}, "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0, float("nan")]}},
     "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [float("inf"), 1]}},
     "is corrupt: bad cells"),
    ({"version": 1, "rules": "online", "cells": {"solo@*": [0, None]}}, "is corrupt: bad cells"),
])
def test_a_bad_model_file_says_what_is_wrong(tmp_path, obj, words):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(obj))
    with pytest.raises(ModelError) as e:
        played.load_model(ONLINE, path)
    assert str(e.value) == f"played-odds model {str(path)!r} {words}"


def test_a_good_model_file_may_leave_out_its_provenance(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"version": 1, "rules": "online",
                                "cells": {"solo@*": [0, 1.5], "solo@2": [-0.5, 1]}}))
    m = played.load_model(ONLINE, path)
    assert m == played.PlayedModel("online", {"solo@*": [0, 1.5], "solo@2": [-0.5, 1]}, {})
    missing = tmp_path / "none.json"
    with pytest.raises(ModelError) as e:
        played.load_model(ONLINE, missing)
    assert str(e.value) == (f"played-odds model {str(missing)!r} not found (fit one with "
                            "cuatrola calibrate --fit RECORDS -o FILE, or use --model dd)")
    with pytest.raises(ModelError) as e:
        played.load_model(ONLINE, tmp_path)                        # a directory
    assert str(e.value).startswith(f"played-odds model {str(tmp_path)!r} cannot be read: ")


# --- the outcomes as played -------------------------------------------------------------

def same(got, expected) -> bool:
    return ([g for g, _ in got] == [g for g, _ in expected]
            and [q for _, q in got] == pytest.approx([q for _, q in expected]))


def test_played_outcomes_when_the_search_never_saw_a_loss_or_a_win():
    # won only: 2 points 70%, 4 points 30%; played 60%: the won part is scaled to .6,
    # the lost .4 is the contract's value lost
    assert same(played.played_outcomes(((2, 0.7), (4, 0.3)), 0.6, 2),
                ((-2, 0.4), (2, 0.42), (4, 0.18)))
    # lost only
    assert same(played.played_outcomes(((-4, 0.5), (-2, 0.5)), 0.3, 2),
                ((-4, 0.35), (-2, 0.35), (2, 0.3)))
    # both seen: each part keeps its shape; 0 points is a loss
    assert same(played.played_outcomes(((-1, 0.2), (0, 0.2), (1, 0.4), (3, 0.2)), 0.9, 1),
                ((-1, 0.05), (0, 0.05), (1, 0.6), (3, 0.3)))
    # given in any order, sorted by points
    assert same(played.played_outcomes(((3, 0.2), (-1, 0.4), (1, 0.4)), 0.5, 1),
                ((-1, 0.5), (1, 0.5 * 0.4 / 0.6), (3, 0.5 * 0.2 / 0.6)))
    # certain: the other part is left out
    assert played.played_outcomes(((-1, 0.5), (1, 0.5)), 1.0, 1) == ((1, 1.0),)
    assert played.played_outcomes(((-1, 0.5), (1, 0.5)), 0.0, 1) == ((-1, 1.0),)
    assert played.played_outcomes(((2, 1.0),), 1.0, 2) == ((2, 1.0),)
    assert played.played_outcomes(((-5, 1.0),), 0.0, 5) == ((-5, 1.0),)


# --- a call of every trick never above the call of four -----------------------

def test_the_call_of_every_trick_implies_the_call_of_four():
    assert played.NESTED == {"quintola": "cuatrola"}


def test_a_quintola_with_no_cell_of_its_seat_takes_the_cuatrolas():
    model = played.PlayedModel("online", {"cuatrola@*": [0.5, 1.0], "cuatrola@1": [-0.2, 1.0],
                                          "quintola@*": [3.0, 1.0], "quintola@3": [0.1, 1.0]},
                               {})
    assert model.coefficients("quintola", 1) == (-0.2, 1.0)     # not its own pool's 3.0
    assert model.coefficients("quintola", 2) == (0.5, 1.0)
    assert model.coefficients("quintola", 3) == (0.1, 1.0)
    assert model.out_of_order() is None
    # a model without the contracts at all: no change for both
    assert played.PlayedModel("online", {}, {}).coefficients("quintola", 4) == (0.0, 1.0)


@pytest.mark.parametrize("cells, words", [
    ({"cuatrola@1": [-0.2, 1.0], "quintola@1": [0.1, 1.0]},
     "quintola@1 (0.1, 1) would give more than cuatrola@1 (-0.2, 1)"),
    ({"cuatrola@*": [0.3, 0.8], "quintola@4": [0.3, 1.0]},
     "quintola@4 (0.3, 1) would give more than cuatrola@4 (0.3, 0.8)"),
    ({"quintola@2": [0.01, 1.0]}, "quintola@2 (0.01, 1) would give more than cuatrola@2 (0, 1)"),
])
def test_a_model_with_a_quintola_above_the_cuatrola_is_refused(tmp_path, cells, words):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"version": 1, "rules": "online", "cells": cells}))
    with pytest.raises(ModelError) as e:
        played.load_model(ONLINE, path)
    assert str(e.value) == (
        f"played-odds model {str(path)!r} is corrupt: {words}: a quintola needs the slope of "
        f"the cuatrola of its seat and an intercept no higher")


def best_shift(base, y, prior, strength) -> float:
    """The best shift d <= 0 of the logits base, by golden section (no gradient)."""
    base, y = np.asarray(base, dtype=float), np.asarray(y, dtype=float)

    def f(d):
        z = base + d
        ll = -(y * np.logaddexp(0, -z) + (1 - y) * np.logaddexp(0, z)).sum()
        return ll - strength / 2 * (d - prior) ** 2
    return golden(f, -10, 0)


def test_a_shift_is_the_best_under_its_bound():
    rng = random.Random(19)
    base = np.array([rng.uniform(-3, 2) for _ in range(40)])
    lost = np.array([float(rng.random() < sigmoid(z - 1.0)) for z in base])   # worse: d < 0
    d = fit_played._fit_shift(base, lost, 0.0, 4.0)
    assert d < -0.2 and d == pytest.approx(best_shift(base, lost, 0.0, 4.0), abs=1e-6)
    won = np.array([float(rng.random() < sigmoid(z + 2.0)) for z in base])    # better: bound
    assert fit_played._fit_shift(base, won, 0.0, 4.0) == 0.0
    assert best_shift(base, won, 0.0, 4.0) == pytest.approx(0.0, abs=1e-6)
    # no predictions: the prior (or the bound)
    assert fit_played._fit_shift(np.array([]), np.array([]), -0.7, 8.0) == -0.7
    assert fit_played._fit_shift(np.array([]), np.array([]), 0.5, 8.0) == 0.0


def test_the_fit_keeps_every_quintola_at_or_below_the_cuatrola_of_its_seat():
    rng = random.Random(5)
    preds = []
    for seat in (1, 2, 3, 4):
        for p, won in sample(60, -0.5, 1.0, seed=seat):
            preds.append(Prediction("cuatrola", seat, "AB"[(seat - 1) % 2], p, won))
    # quintolas that win far more often than their odds (seat 1) and far less (seat 4)
    preds += [Prediction("quintola", 1, "A", rng.uniform(0.05, 0.3), True) for _ in range(20)]
    preds += [Prediction("quintola", 4, "B", rng.uniform(0.3, 0.9), False) for _ in range(20)]
    model = fit_played.fit(preds, ONLINE, {})
    assert model.out_of_order() is None
    assert {k for k in model.cells if k.startswith("quintola")} == {
        "quintola@1", "quintola@2", "quintola@3", "quintola@4"}
    assert model.provenance["predictions"]["quintola@1"] == 20
    assert model.provenance["predictions"]["quintola@2"] == 0
    for seat in (1, 2, 3, 4):
        (a, b), (a0, b0) = model.coefficients("quintola", seat), model.coefficients("cuatrola", seat)
        assert b == b0 and a <= a0
    assert model.coefficients("quintola", 1)[0] == model.coefficients("cuatrola", 1)[0]
    # seat 4's shift is the best one toward the pool's, the pool's toward none
    a4, b4 = model.coefficients("cuatrola", 4)
    q4 = [pr for pr in preds if pr.contract == "quintola" and pr.seat == 4]
    q1 = [pr for pr in preds if pr.contract == "quintola" and pr.seat == 1]
    a1, b1 = model.coefficients("cuatrola", 1)
    pool = best_shift([a1 + b1 * logit(pr.p) for pr in q1] + [a4 + b4 * logit(pr.p) for pr in q4],
                      [1.0] * 20 + [0.0] * 20, 0.0, fit_played.PRIOR_CONTRACT)
    assert pool < 0
    d4 = best_shift([a4 + b4 * logit(pr.p) for pr in q4], [0.0] * 20, pool,
                    fit_played.PRIOR_CELL)
    assert model.coefficients("quintola", 4)[0] == pytest.approx(a4 + d4, abs=2e-5)
    assert model.coefficients("quintola", 2)[0] == pytest.approx(
        model.coefficients("cuatrola", 2)[0] + pool, abs=2e-5)
    # and so for every hand: a quintola's odds are never above the cuatrola's
    for _ in range(500):
        seat, p4 = rng.choice((1, 2, 3, 4)), rng.random()
        p5 = p4 * rng.random()
        assert model.p("quintola", seat, p5) <= model.p("cuatrola", seat, p4)


def test_every_shipped_model_keeps_the_order():
    from cuatrola_solver.game.rules import PRESETS
    for rules in PRESETS.values():
        assert played.load_model(rules).out_of_order() is None


def test_advise_never_puts_a_quintola_above_the_cuatrola_of_the_same_caller():
    """On random hands of every seat, with the shipped online model: the played (and the
    double-dummy) P(win) of a quintola at most the cuatrola's by the same seat."""
    import cuatrola_solver as cs
    from cuatrola_solver.game.cards import format_card, random_deal
    rng = random.Random(1902)
    compared = 0
    for _ in range(24):
        hands, muestra = random_deal(rng)
        seat = rng.choice((1, 2, 3, 4))
        auction = " ".join(["paso"] * (seat - 1))
        view = cs.View.bidding(" ".join(format_card(c) for c in hands[seat - 1]),
                               format_card(muestra), seat=seat, auction=auction or None)
        advice = cs.advise(view, cs.Budget(samples=60, seed=rng.randrange(10 ** 6)))
        by = {(r.option.contract, r.option.declarer): r for r in advice.options
              if r.option.allowed}
        for (contract, declarer), r in by.items():
            if contract == "quintola" and ("cuatrola", declarer) in by:
                four = by[("cuatrola", declarer)]
                assert r.p_win <= four.p_win and r.p_played <= four.p_played + 1e-12
                compared += 1
    assert compared >= 20
