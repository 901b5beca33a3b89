"""Played odds: the model from double-dummy P(win) to P(win) at the table, and its use."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import bidding, cardplay
from cuatrola_solver.models import played
from cuatrola_solver.lab.calibration import Prediction
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models
from cuatrola_solver.game.view import View
from helpers import as_view
from cuatrola_solver.lab import fit_played
from cuatrola_solver.errors import ModelError
from cuatrola_solver.notation.replay import read_view
from cuatrola_solver.notation.replay import replay

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
    from cuatrola_solver.game.hand import Hand
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
    from cuatrola_solver.game.hand import Hand
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
