"""The bid model (cuatrola_solver.models.bids): what the calls reveal, the deal weights
and their use by advise/hint, the features, probabilities and fit by hand."""

from __future__ import annotations

import datetime
import json
import math
import random

import numpy as np
import pytest

from cuatrola_solver.advice import bidding, cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.errors import IllegalBidError, LabError, ModelError
from cuatrola_solver.game.auction import CALLS
from cuatrola_solver.game.cards import mask_of, parse_card, parse_cards, random_deal
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.rules import get_rules, rules_spec
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden.chunks import sample_deals_seeded
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.lab import fit_bids
from cuatrola_solver.models import bids
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.replay import read_view

from helpers import as_view, start_view

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


# --- values by hand ---------------------------------------------------------------

ONLINE = get_rules("online")
ZERO = [0.0] * len(bids.FEATURE_NAMES)


def col(name: str) -> int:
    return bids.FEATURE_NAMES.index(name)


def weights(**terms: dict[str, float]) -> dict[str, list[float]]:
    """Model weights from ``call={feature: weight}``; unnamed features weigh 0."""
    out = {}
    for call, named in terms.items():
        w = list(ZERO)
        for name, v in named.items():
            w[col(name)] = v
        out[call] = w
    return out


def masks(*hands: str) -> np.ndarray:
    return np.array([mask_of(parse_cards(h)) for h in hands])


@pytest.mark.parametrize("hand, trump, seat, calls, rules, expected", [
    # bias trumps as tres rey caballo aces treses points/10 seat1-3 solo higher partner stake/5
    ("Ro So Ac 3c 3e", 0, 1, [], ONLINE,
     [1, 2, 0, 0, 1, 0, 1, 2, 3.7, 1, 0, 0, 0, 0, 0, 0]),
    ("Co Ab Rb Cb Sb", 3, 3, ["solo", "paso"], NARRO,          # the partner's solo
     [1, 4, 1, 0, 1, 1, 0, 0, 2.3, 0, 0, 1, 1, 0, 1, 0.4]),
    ("3e Ae Ce Ao 3o", 2, 4, ["solo", "contrasolo", "paso"], NARRO,   # the partner's contrasolo
     [1, 3, 1, 1, 0, 1, 1, 1, 4.5, 0, 0, 0, 0, 1, 1, 0.8]),
    ("Sc Cc Rc So Se", 1, 2, ["quintola"], ONLINE,              # an opponent's quintola
     [1, 3, 0, 0, 1, 1, 0, 0, 1.3, 0, 1, 0, 0, 1, 0, 1.0]),
    ("3c Ao Ae Ab Sc", 1, 3, ["paso", "cuatrola"], ONLINE,      # an opponent's cuatrola
     [1, 2, 0, 1, 0, 0, 3, 0, 4.5, 0, 0, 1, 0, 1, 0, 0.8]),
    ("3c Ao Ae Ab Sc", 1, 4, ["paso", "paso", "paso"], ONLINE,  # nobody bid: no partner's bid
     [1, 2, 0, 1, 0, 0, 3, 0, 4.5, 0, 0, 0, 0, 0, 0, 0]),
    ("3c Ao Ae Ab Sc", 1, 4, ["paso", "solo", "paso"], ONLINE,
     [1, 2, 0, 1, 0, 0, 3, 0, 4.5, 0, 0, 0, 1, 0, 1, 0.4]),
])
def test_every_feature_by_hand(hand, trump, seat, calls, rules, expected):
    x = bids.features(masks(hand, hand), trump, seat, calls, rules)
    assert x.shape == (2, len(bids.FEATURE_NAMES))
    assert x[0].tolist() == pytest.approx(expected, abs=1e-12) and x[1].tolist() == x[0].tolist()


def test_features_row_by_row():
    # the trumps' ranks in their columns: a sota counts as a trump and nothing else
    x = bids.features(masks("Ao Co Sc Cc Rc", "3o Ro Se Ce Re", "So Ab 3b Rb Cb"), 0, 2,
                           ["paso"], ONLINE)
    cols = [col(n) for n in ("trumps", "trump_as", "trump_tres", "trump_rey", "trump_caballo",
                             "aces", "treses")]
    assert x[:, cols].tolist() == [[2, 1, 0, 0, 1, 0, 0], [2, 0, 1, 1, 0, 0, 0],
                                   [1, 0, 0, 0, 0, 1, 1]]


def test_probabilities_by_hand():
    m = bids.BidModel("online", weights(paso={}, solo={"bias": math.log(3)},
                                             cuatrola={"trumps": math.log(2)}), {})
    x = np.zeros((2, len(ZERO)))
    x[:, col("bias")] = 1
    x[1, col("trumps")] = 1
    legal = ["paso", "solo", "cuatrola", "quintola"]         # quintola: no weights, score 0
    p = m.probabilities(x, legal)
    assert p == pytest.approx(np.array([[1, 3, 1, 1], [1, 3, 2, 1]]) / [[6], [7]], abs=1e-15)
    assert m.probabilities(x, ["cuatrola", "paso"]) == pytest.approx(
        np.array([[1 / 2, 1 / 2], [2 / 3, 1 / 3]]), abs=1e-15)
    # large scores do not overflow
    big = bids.BidModel("online", weights(paso={"bias": 799}, solo={"bias": 800}), {})
    assert big.probabilities(x[:1], ["paso", "solo"])[0].tolist() == pytest.approx(
        [1 / (1 + math.e), math.e / (1 + math.e)], abs=1e-12)


def _trumps(mask: int, trump: int) -> int:
    return bin(int(mask) >> 5 * trump & 0b11111).count("1")


def _aces(mask: int, trump: int) -> int:
    return sum(int(mask) >> (5 * s + 4) & 1 for s in range(4) if s != trump)


def test_call_weights_by_hand():
    # solo twice as likely per trump; cuatrola 3 times as likely per ace, 5 times after a solo
    m = bids.BidModel("online", weights(
        paso={}, solo={"trumps": math.log(2)},
        cuatrola={"aces": math.log(3), "standing_solo": math.log(5)}), {})
    rng = random.Random(4)
    deals = np.array([[mask_of(h) for h in random_deal(rng)[0]] for _ in range(6)])
    trump = 1
    t = [[_trumps(h, trump) for h in d] for d in deals]
    a = [[_aces(h, trump) for h in d] for d in deals]
    # seat 1 (paso solo cuatrola quintola): solo; seat 2 (paso cuatrola quintola): paso;
    # seat 3 (the same): cuatrola
    p1 = [2 ** t[i][0] / (1 + 2 ** t[i][0] + 3 ** a[i][0] + 1) for i in range(6)]
    p2 = [1 / (1 + 5 * 3 ** a[i][1] + 1) for i in range(6)]
    p3 = [5 * 3 ** a[i][2] / (1 + 5 * 3 ** a[i][2] + 1) for i in range(6)]
    calls = ["solo", "paso", "cuatrola"]

    def w(seats, calls=calls, **kw):
        return bids.call_weights(deals, trump, calls, seats, ONLINE, m, **kw).tolist()

    assert w([1, 2, 3]) == pytest.approx([p1[i] * p2[i] * p3[i] for i in range(6)], rel=1e-12)
    assert w(range(1, 4)) == w([1, 2, 3])
    assert w([1, 3]) == pytest.approx([p1[i] * p3[i] for i in range(6)], rel=1e-12)
    assert w([2]) == pytest.approx(p2, rel=1e-12)
    assert w([3, 4]) == pytest.approx(p3, rel=1e-12)       # seat 4 has not spoken
    assert w([]) == [1.0] * 6
    # a call the rules refuse (seat 2 cannot bid solo over a solo) weighs nothing
    assert w([1, 2], calls=["solo", "solo"]) == pytest.approx(p1, rel=1e-12)
    # under a cap a seat that may only pass tells nothing by passing
    app = get_rules("app")
    capped = bids.call_weights(deals, trump, ["paso"], [1], app, m, score=Score(10, 3))
    assert capped.tolist() == [1.0] * 6
    free = bids.call_weights(deals, trump, ["paso"], [1], app, m)
    assert free.tolist() == pytest.approx([1 / (1 + 2 ** t[i][0] + 3 ** a[i][0] + 1)
                                           for i in range(6)], rel=1e-12)


def test_effective_size_by_hand():
    es = bids.effective_size
    assert es(np.ones(10)) == 10 and es(np.full(10, 0.1)) == pytest.approx(10, rel=1e-12)
    assert es(np.array([1.0, 0, 0, 0])) == 1
    assert es(np.array([2.0, 1, 1])) == pytest.approx(16 / 6, rel=1e-12)
    assert es(np.zeros(3)) == 0.0 and es(np.array([])) == 0.0


# --- fitting by hand --------------------------------------------------------------------------

def _tiny():
    """Two rows, one feature (the bias): row 1 may pass or bid solo (it bid solo), row 2
    may pass, bid cuatrola or quintola (it passed)."""
    x = np.ones((2, 1))
    legal = np.array([[True, True, False, False, False], [True, False, False, True, True]])
    y = np.array([1, 0])
    return x, legal, y


def test_log_loss_by_hand():
    x, legal, y = _tiny()
    w = np.array([[0.0], [math.log(3)], [5.0], [0.0], [math.log(2)]])     # contrasolo illegal
    # row 1: P(solo) = 3/4; row 2: P(paso) = 1 / (1 + 1 + 2)
    assert fit_bids._log_loss(w, x, legal, y) == pytest.approx(
        -(math.log(3 / 4) + math.log(1 / 4)) / 2, abs=1e-12)
    big = w + 700.0
    assert fit_bids._log_loss(big, x, legal, y) == pytest.approx(
        fit_bids._log_loss(w, x, legal, y), abs=1e-12)
    # rows of very different scores: each is shifted by its own highest score
    x2 = np.array([[1.0, 0.0], [0.0, 1.0]])
    w2 = np.hstack([w, w - 800.0])
    assert fit_bids._log_loss(w2, x2, legal, y) == pytest.approx(
        fit_bids._log_loss(w, x, legal, y), abs=1e-12)


def test_base_rate_loss_by_hand():
    _, legal, y = _tiny()
    train = np.array([0, 0, 1, 3, 3, 3])             # counts + 1: 3, 2, 1, 4, 1
    # row 1: P(solo) = 2 / (3 + 2); row 2: P(paso) = 3 / (3 + 4 + 1)
    assert fit_bids._base_loss(legal, y, train) == pytest.approx(
        -(math.log(2 / 5) + math.log(3 / 8)) / 2, abs=1e-12)


def _one_feature(n: int = 8):
    """Paso or solo (the first two calls); 8n rows, the first half with the feature: a
    seat with it passes 1 time in 4, one without it 3 times in 4."""
    x = np.zeros((8 * n, 2))
    x[:, 0] = 1
    x[:4 * n, 1] = 1
    y = np.array([0] * n + [1] * 3 * n + [0] * 3 * n + [1] * n)
    legal = np.zeros((len(y), 5), dtype=bool)
    legal[:, :2] = True
    return x, legal, y


def _p(w, x, legal):
    z = np.where(legal, x @ w.T, -np.inf)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_the_fit_finds_the_frequencies():
    x, legal, y = _one_feature()
    w = fit_bids._fit_weights(x, legal, y, l2=0.0, steps=4000)
    p = _p(w, x, legal)
    assert p[0, 1] == pytest.approx(0.75, abs=1e-3) and p[-1, 1] == pytest.approx(0.25, abs=1e-3)
    assert not w[2:].any()                             # calls never legal keep no weight
    # the fit does not depend on the features' units
    x10 = x * [1, 10]
    w10 = fit_bids._fit_weights(x10, legal, y)
    assert _p(w10, x10, legal) == pytest.approx(_p(fit_bids._fit_weights(x, legal, y), x, legal),
                                                abs=1e-9)
    # a feature that is always 0 gets no weight (and no division by zero)
    x0 = np.hstack([x, np.zeros((len(x), 1))])
    w0 = fit_bids._fit_weights(x0, legal, y)
    assert np.isfinite(w0).all() and not w0[:, 2].any()
    # the L2 term pulls the weights to 0
    assert np.abs(fit_bids._fit_weights(x, legal, y, l2=0.1)).sum() < np.abs(
        fit_bids._fit_weights(x, legal, y, l2=0.0)).sum()


def test_fit_measures_on_the_last_deals_then_refits_on_all():
    rows = _rows(10, seed=3)
    rs = NARRO
    model = fit_bids.fit(rows, rs, {"command": "by hand", "deals": 10}, held_out=0.3)
    x, legal, y = fit_bids._design(rows, rs)
    cut = 28                                        # 7 deals of 10 (by deal: 4 calls each)
    w = fit_bids._fit_weights(x[:cut], legal[:cut], y[:cut])
    p = model.provenance
    assert p["held_out_calls"] == 12
    assert p["log_loss"] == round(fit_bids._log_loss(w, x[cut:], legal[cut:], y[cut:]), 4)
    counts = [sum(1 for r in rows[:cut] if r["call"] == c) + 1 for c in CALLS]
    base = -np.mean([math.log(counts[CALLS.index(r["call"])]
                              / sum(counts[CALLS.index(c)] for c in r["legal"]))
                     for r in rows[cut:]])
    assert p["base_rate_log_loss"] == round(base, 4)
    right = [max(r["legal"], key=lambda c: float(x[i] @ w[CALLS.index(c)])) == r["call"]
             for i, r in enumerate(rows) if i >= cut]
    assert p["accuracy"] == round(sum(right) / len(right), 4)
    assert p["calls_seen"] == {c: sum(1 for r in rows if r["call"] == c) for c in CALLS}
    assert (p["command"], p["deals"], p["model_version"]) == ("by hand", 10, 1)
    assert p["date"] == datetime.date.today().isoformat()
    full = fit_bids._fit_weights(x, legal, y)
    assert model.weights == {c: [round(float(v), 6) for v in full[i]] for i, c in enumerate(CALLS)}
    assert json.loads(model.rules) == rules_spec(rs)
    assert fit_bids.fit(rows, rs, {}).provenance["held_out_calls"] == 8      # 20% by default


def test_read_calls(tmp_path):
    rows = _rows(fit_bids.MIN_DEALS)
    good = tmp_path / "calls.jsonl"
    good.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert fit_bids.read_calls(good, NARRO) == rows
    short = tmp_path / "short.jsonl"
    short.write_text("".join(json.dumps(r) + "\n" for r in rows[:7]))
    with pytest.raises(LabError) as e:
        fit_bids.read_calls(short, NARRO)
    assert str(e.value) == f"{short}: the last deal has 3 calls, not four (one per seat)"
    short.write_text("".join(json.dumps(r) + "\n" for r in rows[:-4]))
    with pytest.raises(LabError) as e:
        fit_bids.read_calls(short, NARRO)
    assert str(e.value) == (f"{short}: {fit_bids.MIN_DEALS - 1} deals: a fit takes "
                            f"{fit_bids.MIN_DEALS} deals at least (four calls each, as "
                            f"bidmodel --calls keeps them)")
    missing = {k: v for k, v in rows[1].items() if k != "legal"}
    bad = tmp_path / "bad.jsonl"
    for bad_line, message in (
            ("{not json", ": not a JSON call (Expecting property name"),
            (json.dumps(missing), ", the call: expected the field legal"),
            (json.dumps({**rows[1], "call": "doble"}),
             ", call: expected one of paso, solo, contrasolo, cuatrola, quintola, got 'doble'"),
            (json.dumps([rows[1]]), ': expected a call (a JSON object), got [{"hand": ')):
        bad.write_text(json.dumps(rows[0]) + "\n" + bad_line + "\n")
        with pytest.raises(LabError) as e:
            fit_bids.read_calls(bad, NARRO)
        assert str(e.value).startswith(f"{bad}, line 2{message}"), str(e.value)


def test_model_files_are_checked_field_by_field(tmp_path, model):
    obj = json.loads(model.to_json())
    assert obj == {"version": 1, "rules": "narro", "features": list(bids.FEATURE_NAMES),
                   "weights": model.weights, "provenance": model.provenance}
    path = tmp_path / "m.json"

    def load(o):
        path.write_text(json.dumps(o))
        return bids.load_model(NARRO, path)

    back = load(obj)
    assert (back.rules, back.weights, back.provenance) == (model.rules, model.weights,
                                                           model.provenance)
    assert load({k: v for k, v in obj.items() if k != "provenance"}).provenance == {}
    w = obj["weights"]
    for change, needle in (({"weights": {**w, "doble": w["solo"]}}, "bad weights for 'doble'"),
                           ({"weights": {**w, "solo": w["solo"][:-1] + ["x"]}},
                            "bad weights for 'solo'"),
                           ({"weights": {**w, "paso": 3}}, "bad weights for 'paso'"),
                           ({"weights": [w["solo"]]}, "features or weights do not match"),
                           ({"rules": None}, "is for rules None, not narro"),
                           ({"rules": "online"}, "is for rules 'online', not narro")):
        with pytest.raises(ModelError, match=needle):
            load({**obj, **change})
    for top in ([obj], {k: v for k, v in obj.items() if k != "version"}):
        with pytest.raises(ModelError, match="another version"):
            load(top)


def test_the_advisor_bidder_by_hand():
    # two deals of narro in which seat 1 bids (a quintola, a solo); two sampled deals per
    # advice, so that the advice depends on its seed
    seen = []
    rows = fit_bids.advisor_calls(2, NARRO, seed=39, samples=2,
                                   progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 2), (2, 2)] and len(rows) == 8
    for i in range(2):
        rng = random.Random(f"39/bids/{i}")
        hands, muestra = random_deal(rng)
        calls = []
        for seat, r in zip((1, 2, 3, 4), rows[4 * i:4 * i + 4]):
            legal = bids.legal_calls(NARRO, calls)
            view = View.bidding(hands[seat - 1], muestra, seat, list(calls), NARRO)
            a = bidding.advise(view, Budget(samples=2, seed=rng.getrandbits(62), workers=1),
                               Models.NONE)
            assert r == {"hand": mask_of(hands[seat - 1]), "trump": muestra // 5, "seat": seat,
                         "before": list(calls), "legal": legal, "call": a.advice}
            calls.append(a.advice)
    assert [r["call"] for r in rows] == ["quintola"] + ["paso"] * 3 + ["solo"] + ["paso"] * 3


def test_the_default_fit_is_the_regularised_optimum():
    # at the fitted weights the gradient of mean log-loss + 1e-3 / 2 |w|^2 is 0 (the features
    # are 0/1 here, so the fit's scaling changes nothing)
    x, legal, y = _one_feature()
    w = fit_bids._fit_weights(x, legal, y)
    onehot = np.eye(5)[y]
    grad = (_p(w, x, legal) - onehot).T @ x / len(y) + 1e-3 * w
    assert np.abs(grad).max() < 1e-9
    assert _p(w, x, legal)[0, 1] == pytest.approx(0.7478, abs=1e-4)     # shrunk from 3/4


def test_model_file_messages(tmp_path, model):
    missing = tmp_path / "none.json"
    with pytest.raises(ModelError) as e:
        bids.load_model(NARRO, missing)
    assert str(e.value) == (f"bid model {str(missing)!r} not found (make it with cuatrola "
                            f"bidmodel --rules narro -o FILE, or use --no-inference)")
    path = tmp_path / "m.json"
    obj = json.loads(model.to_json())
    for change, message in (
            ({"version": 2}, "is of another version (expected 1); make it with cuatrola "
                             "bidmodel --rules narro -o FILE, or use --no-inference"),
            ({"features": []}, "is corrupt: features or weights do not match"),
            ({"weights": {"solo": [1]}}, "is corrupt: bad weights for 'solo'"),
            ({"rules": "app"}, "is for rules 'app', not narro")):
        path.write_text(json.dumps({**obj, **change}))
        with pytest.raises(ModelError) as e:
            bids.load_model(NARRO, path)
        assert str(e.value) == f"bid model {str(path)!r} {message}"
    with pytest.raises(ModelError) as e:
        bids.load_model(NARRO, tmp_path)                  # a folder
    assert str(e.value).startswith(f"bid model {str(tmp_path)!r} cannot be read: ")
    path.write_text("{not json")
    with pytest.raises(ModelError) as e:
        bids.load_model(NARRO, path)
    assert str(e.value).startswith(f"bid model {str(path)!r} cannot be read: Expecting")
    # a model that names no rules is for none, not for the default preset
    path.write_text(json.dumps({**obj, "rules": None}))
    with pytest.raises(ModelError) as e:
        bids.load_model(ONLINE, path)
    assert str(e.value) == f"bid model {str(path)!r} is for rules None, not online"
    assert bids.model_path(NARRO).name == "bids_narro.json"
    assert bids.load_model(NARRO).rules == json.dumps("narro")       # the shipped one


@pytest.mark.parametrize("preset", ["online", "app", "narro", "italiano"])
def test_the_shipped_models_are_what_to_json_writes(preset):
    rules = get_rules(preset)
    text = bids.model_path(rules).read_text(encoding="utf-8")
    assert bids.load_model(rules).to_json() + "\n" == text     # as cuatrola bidmodel


def test_a_huge_step_does_not_overflow_the_fit():
    # one feature that separates the calls: with a huge learning rate the scores grow far
    # past exp's range, and the fit stays finite only with each row shifted by its highest
    x, legal, _ = _one_feature()
    y = np.array([1] * (len(x) // 2) + [0] * (len(x) // 2))
    with np.errstate(over="raise", invalid="raise"):
        w = fit_bids._fit_weights(x, legal, y, l2=0.0, steps=3, lr=1e4)
    assert np.isfinite(w).all()
    p = _p(w, x, legal)
    assert p[0, 1] == pytest.approx(1)                   # the feature says solo


def test_probabilities_of_far_apart_hands_stay_exact():
    # each hand's scores are shifted by its own highest before exp(): two hands 2000 apart
    # (one would underflow to 0/0 against the other's highest) get their own softmax
    m = bids.BidModel("{}", {"paso": [0.0], "solo": [1.0], "cuatrola": [2.0]}, {})
    x = np.array([[1000.0], [-1000.0], [1.0]])
    e = np.exp([0.0, 1.0, 2.0])
    assert m.probabilities(x, ["paso", "solo", "cuatrola"]) == pytest.approx(
        np.array([[math.exp(-2000), math.exp(-1000), 1.0],
                  [1.0, math.exp(-1000), math.exp(-2000)], e / e.sum()]), rel=1e-12, abs=0)


def test_calls_after_a_refused_call_cannot_be_weighed():
    # a refused call weighs nothing, but the calls after it are of an auction that cannot
    # have been: the seat that made it is named
    d = np.array([[0b11111, 0b11111 << 5, 0b11111 << 10, 0b11111 << 15]])
    m = bids.BidModel("{}", {c: [0.0] * len(bids.FEATURE_NAMES) for c in CALLS}, {})
    assert bids.call_weights(d, 3, ["solo", "solo"], [1, 2], NARRO, m).tolist() == [0.25]
    with pytest.raises(IllegalBidError) as e:
        bids.call_weights(d, 3, ["solo", "solo", "paso"], [1, 2, 3], NARRO, m)
    assert str(e.value) == ("seat 2 may not call 'solo': a bid must be stronger than the "
                            "standing solo")
