"""What the calls reveal: the bid model, the deal weights and their use by advise/hint."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import bidding, cardplay
from cuatrola_solver.models import bids
from cuatrola_solver.hidden.chunks import sample_deals_seeded

from cuatrola_solver.game.cards import mask_of, parse_card, parse_cards, random_deal
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models
from cuatrola_solver.game.view import View
from helpers import as_view
from cuatrola_solver.lab import fit_bids
from cuatrola_solver.errors import ModelError
from helpers import start_view
from cuatrola_solver.notation.replay import read_view
from cuatrola_solver.hidden.knowledge import knowledge_of

runner = CliRunner()
NARRO = get_rules("narro")


def _rows(n: int, seed: int = 0) -> list[dict]:
    """Synthetic calls of a known rule: seat bids solo (when legal) with 3+ trumps."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        hands, muestra = random_deal(rng)
        trump = muestra // 5
        calls: list[str] = []
        for seat in (1, 2, 3, 4):
            legal = bids.legal_calls(NARRO, calls)
            trumps = sum(1 for c in hands[seat - 1] if c // 5 == trump)
            call = "solo" if trumps >= 3 and "solo" in legal else "paso"
            rows.append({"hand": mask_of(hands[seat - 1]), "trump": trump, "seat": seat,
                         "before": list(calls), "legal": legal, "call": call})
            calls.append(call)
    return rows


@pytest.fixture(scope="module")
def model():
    return fit_bids.fit(_rows(600), NARRO, {"command": "test"})


def test_features_of_a_hand():
    x = bids.features(np.array([mask_of(parse_cards("Ao 3o Co Ac 3e"))]), 0, 2,
                           ["solo"], NARRO)[0]
    names = dict(zip(bids.FEATURE_NAMES, x))
    assert names["trumps"] == 3 and names["trump_as"] == 1 and names["trump_tres"] == 1
    assert names["trump_rey"] == 0 and names["aces"] == 1 and names["treses"] == 1
    assert names["points/10"] == pytest.approx((11 + 10 + 3 + 11 + 10) / 10)
    assert names["seat2"] == 1 and names["standing_solo"] == 1 and names["partner_bid"] == 0


def test_the_fit_learns_a_known_rule_and_says_how_well(model):
    p = model.provenance
    assert p["held_out_calls"] == 480 and p["log_loss"] < 0.5 * p["base_rate_log_loss"]
    assert p["accuracy"] > 0.95


def test_a_solo_bid_makes_strong_hands_likelier(model):
    k = knowledge_of(start_view(parse_cards("Ac 3c Rc Ab 3b"), parse_card("Ce"), 3, NARRO))
    deals = sample_deals_seeded(k, 4000, 1)
    w = bids.call_weights(deals, k.trump, ["solo", "paso"], [1, 2], NARRO, model)
    trumps1 = np.array([bin(int(h) & (0b11111 << 5 * k.trump)).count("1") for h in deals[:, 0]])
    assert np.average(trumps1, weights=w) > trumps1.mean() + 1
    assert 0 < bids.effective_size(w) < len(w)


def test_advise_weights_the_deals_and_reports_the_effective_size(model):
    hand, m = parse_cards("Ac 3c Rc Ab 3b"), parse_card("Ce")
    plain = bidding.advise(View.bidding(hand, m, 3, "solo paso", NARRO, None),
                           Budget(samples=3000, seed=1), Models.NONE)
    weighted = bidding.advise(View.bidding(hand, m, 3, "solo paso", NARRO, None),
                              Budget(samples=3000, seed=1), Models(bids=model))
    assert plain.effective_deals is None and "effective_deals" not in plain.to_dict()
    assert 0 < weighted.effective_deals < weighted.deals
    # the partner's solo is stronger when its bid is believed
    assert weighted.option("paso").p_win > plain.option("paso").p_win + 0.2
    lo, hi = weighted.option("paso").ci95
    assert hi - lo > plain.option("paso").ci95[1] - plain.option("paso").ci95[0]


def test_no_deal_explains_the_calls(model):
    impossible = bids.BidModel(model.rules, dict(model.weights, solo=[-1e6] + [0.0] * (
        len(bids.FEATURE_NAMES) - 1)), {})
    with pytest.raises(Exception) as e:
        bidding.advise(View.bidding(parse_cards("Ae 3e Re Ab 3b"), parse_card("Ce"), 3, "solo paso", NARRO, None),
                       Budget(samples=1000, seed=1), Models(bids=impossible))
    assert "no deal explains the calls" in str(e.value)


def test_model_files_are_checked(tmp_path, model):
    good = tmp_path / "m.json"
    good.write_text(model.to_json())
    assert bids.load_model(NARRO, good).weights == model.weights
    with pytest.raises(ModelError, match="not found"):
        bids.load_model(NARRO, tmp_path / "none.json")
    with pytest.raises(ModelError, match="not online"):
        bids.load_model(get_rules("online"), good)
    obj = json.loads(model.to_json())
    for change, needle in (({"version": 99}, "another version"),
                           ({"features": ["x"]}, "corrupt"),
                           ({"weights": {"solo": [1, 2]}}, "corrupt")):
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({**obj, **change}))
        with pytest.raises(ModelError, match=needle):
            bids.load_model(NARRO, bad)
    bad.write_text("{not json")
    with pytest.raises(ModelError, match="cannot be read"):
        bids.load_model(NARRO, bad)


def test_hint_uses_the_calls_too(model):
    view = read_view("Ae 3e Re Ab 3b", "Ce", 2, "paso paso solo paso", None, NARRO)
    plain = cardplay.hint(as_view(view), Budget(samples=400, seed=3), Models.NONE)
    weighted = cardplay.hint(as_view(view), Budget(samples=400, seed=3), Models(bids=model))
    assert plain.effective_deals is None and 0 < weighted.effective_deals < weighted.deals
    assert plain.to_dict()["cards"] != weighted.to_dict()["cards"]
