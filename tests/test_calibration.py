"""Calibration of predicted odds (cuatrola_solver.lab.calibration): known answers on
synthetic predictions, the command on self-play records, and the figures of small cases
worked out by hand."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.errors import CuatrolaError, RecordError
from cuatrola_solver.lab import calibration, selfplay
from cuatrola_solver.lab.calibration import (Calibration, DEFAULT_BINS, Group, Prediction,
                                             card_predictions, forced_auction, predictions,
                                             read_records, with_card_predictions)
from cuatrola_solver.lab.selfplay import LabConfig
from cuatrola_solver.models import bids
from cuatrola_solver.models.played import PlayedModel
from cuatrola_solver.notation.record import read_record, write_json
from cuatrola_solver.notation.replay import replay

runner = CliRunner()


def calibrated(n_per_bin: int = 1000, shift: float = 0.0) -> Group:
    """Predictions p + shift for events that happen at rate p exactly, p = .05 .. .95."""
    g = Group(10)
    for k in range(10):
        p = (k + 0.5) / 10
        wins = round(p * n_per_bin)
        for j in range(n_per_bin):
            g.add(p + shift, j < wins)
    return g


def test_perfectly_calibrated_predictions_have_no_error():
    d = calibrated().to_dict()
    assert d["ece"] == pytest.approx(0, abs=1e-12)
    assert d["bias"] == pytest.approx(0, abs=1e-12)
    # Brier of calibrated predictions: the mean of p(1-p)
    assert d["brier"] == pytest.approx(sum((k + .5) / 10 * (1 - (k + .5) / 10)
                                           for k in range(10)) / 10)
    for row in d["bins"]:
        assert row["mean_p"] == pytest.approx(row["observed"])
        assert row["ci95"][0] <= row["observed"] <= row["ci95"][1]


def test_a_constant_bias_shows_as_bias_and_ece():
    d = calibrated(shift=0.04).to_dict()
    assert d["bias"] == pytest.approx(0.04)
    assert d["ece"] == pytest.approx(0.04)
    assert d["brier"] > calibrated().to_dict()["brier"]
    low = calibrated(shift=-0.03).to_dict()
    assert low["bias"] == pytest.approx(-0.03)


def test_groups_by_contract_seat_side_and_overall():
    cal = Calibration()
    cal.add(Prediction("solo", 2, "B", 0.3, True))
    cal.add(Prediction("solo", 2, "B", 0.5, False))
    cal.add(Prediction("paso", 1, "A", 0.6, True))
    cal.add(Prediction("paso", 3, "A", 0.2, False))
    groups = {g["group"]: g for g in cal.to_dict()["groups"]}
    assert groups["solo, seat 2"]["n"] == 2
    assert groups["solo, seat 2"]["mean_p"] == pytest.approx(0.4)
    assert groups["solo, seat 2"]["observed"] == 0.5
    assert groups["paso, side A"]["n"] == 2 and groups["paso, seat 1"]["n"] == 1
    assert groups["seat 2"]["n"] == 2 and groups["overall"]["n"] == 4
    assert groups["overall"]["brier"] == pytest.approx((.49 + .25 + .16 + .04) / 4)


def _odds(seat: int, **p_win) -> dict:
    side = "A" if seat % 2 else "B"
    return {"seat": seat, "call": "paso", "odds": {"by": "advisor", "samples": 10,
            "advice": "paso", "options": [
                {"bid": bid, "contract": bid, "declarer": None if bid == "paso" else seat,
                 "side": side, "p_win": p, "ev": 0.0} for bid, p in p_win.items()]}}


def test_predictions_of_a_record():
    bids = [_odds(1, paso=0.4, solo=0.1), _odds(2, paso=0.7, solo=0.35),
            _odds(3, paso=0.5, solo=0.2), _odds(4, paso=0.55, solo=0.3)]
    solo = {"auction": ["paso", "solo", "paso", "paso"], "lab": {"bids": bids}}
    [p] = predictions(solo, "B")
    assert (p.contract, p.seat, p.side, p.p, p.won) == ("solo", 2, "B", 0.35, True)
    paso = {"auction": ["paso"] * 4, "lab": {"bids": bids}}
    got = predictions(paso, "A")
    assert [(q.seat, q.side, q.p, q.won) for q in got] == [
        (1, "A", 0.4, True), (2, "B", 0.7, False), (3, "A", 0.5, True), (4, "B", 0.55, False)]
    # no odds recorded: no predictions
    assert predictions({"auction": ["paso"] * 4, "lab": {"bids": [
        {"seat": s, "call": "paso", "odds": None} for s in (1, 2, 3, 4)]}}, "A") == []


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    path = tmp_path_factory.mktemp("cal") / "run.jsonl"
    config = LabConfig.make("heuristic", "random", seed=8, count=6, odds_samples=20)
    selfplay.run(config, str(path), workers=1)
    return path


def test_calibrate_command_on_selfplay_records(records, tmp_path):
    r = runner.invoke(app, ["calibrate", str(records), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["schema"] == 1 and report["records"] == 12 and report["without_odds"] == 0
    overall = next(g for g in report["groups"] if g["group"] == "overall")
    assert overall["n"] >= 12
    assert sum(b["count"] for b in overall["bins"]) == overall["n"]
    human = runner.invoke(app, ["calibrate", str(records), str(records)])
    assert human.exit_code == 0 and "overall" in human.stdout and "24 records" in human.stdout
    for name in ("rel.png", "rel.svg"):
        r = runner.invoke(app, ["calibrate", str(records), "--plot", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
        assert (tmp_path / name).stat().st_size > 1000


@pytest.mark.parametrize("bad, words", [
    ("not json at all", "line 3: not a JSON record"),
    ('{"muestra": "3o"}', "line 3"),
    ('{"muestra": "3o", "hands": ["Ao", null, null, null], "lab": {}}', "line 3"),
])
def test_a_bad_line_is_reported_with_its_file_and_line(records, tmp_path, bad, words):
    path = tmp_path / "bad.jsonl"
    head = records.read_text().splitlines()[:2]
    path.write_text("\n".join(head + [bad]) + "\n")
    r = runner.invoke(app, ["calibrate", str(path)])
    assert r.exit_code == 2
    assert f"{path}, {words}" in r.output and len(r.output.strip().splitlines()) == 1


def test_calibrate_bad_files_and_plot_names(records, tmp_path):
    for args, words in ((["nowhere.jsonl"], "not found"), ([str(tmp_path)], "directory"),
                        ([str(records), "--plot", str(tmp_path / "x.jpg")], "bad plot file")):
        r = runner.invoke(app, ["calibrate", *args])
        assert r.exit_code == 2 and words in r.output, r.output


def test_plot_of_a_small_run_says_why_a_panel_is_empty(monkeypatch):
    """A small run drew an empty reliability panel, with a legend when a group
    had enough predictions but no bin enough of them."""
    pytest.importorskip("matplotlib")
    from cuatrola_cli import cmd_calibrate
    figures = []
    monkeypatch.setattr(cmd_calibrate, "save_figure", lambda fig, path: figures.append(fig))
    cal = Calibration()
    for k in range(25):                      # 25 solo predictions over 10 bins: none has 10
        cal.add(Prediction("solo", 2, "B", (k % 10 + 0.5) / 10, k % 3 == 0))
    cmd_calibrate.plot(cal.report(), "x.png")
    left, right = figures[0].axes[:2]
    assert left.get_legend() is None and len(left.get_lines()) == 1     # the diagonal only
    assert any("play more hands" in t.get_text() for t in left.texts)
    assert right.get_legend() is not None                               # overall is drawn
    for k in range(100):                     # enough in one bin: the group is drawn
        cal.add(Prediction("solo", 2, "B", 0.55, k % 2 == 0))
    cmd_calibrate.plot(cal.report(), "x.png")
    left = figures[1].axes[0]
    assert left.get_legend() is not None and not left.texts
    assert [t.get_text() for t in left.get_legend().get_texts()][0].startswith("solo, seat 2")


# --- small cases worked out by hand ---------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# --- a group's statistics --------------------------------------------------------------

def four() -> Group:
    """0.10 lost, 0.15 won, 0.12 lost (bin [0.1, 0.2)); 0.80 lost (bin [0.8, 0.9))."""
    g = Group(10)
    for p, won in ((0.10, False), (0.15, True), (0.12, False), (0.80, False)):
        g.add(p, won)
    return g


def test_the_statistics_of_four_predictions_worked_out_by_hand():
    d = four().to_dict()
    assert d["n"] == 4
    assert d["mean_p"] == pytest.approx(1.17 / 4)                  # (.10+.15+.12+.80) / 4
    assert d["observed"] == 0.25
    assert d["bias"] == pytest.approx(0.2925 - 0.25)
    # Brier: (.1^2 + .85^2 + .12^2 + .8^2) / 4 = (.01 + .7225 + .0144 + .64) / 4
    assert d["brier"] == pytest.approx(1.3869 / 4)
    # the bins: [.1,.2): 3 predictions, mean .37/3, observed 1/3, gap .21;
    #           [.8,.9): 1 prediction, mean .8, observed 0, gap .8
    # ECE weighted by the counts: (3 * .21 + 1 * .8) / 4 = .3575;
    # the plain mean of the two gaps would be (.21 + .8) / 2 = .505
    assert d["ece"] == pytest.approx(0.3575)
    assert d["ece"] != pytest.approx(0.505)
    low, high = d["bins"]
    assert low["bin"] == [0.1, 0.2] and high["bin"] == [0.8, 0.9]
    assert (low["count"], high["count"]) == (3, 1)
    assert low["mean_p"] == pytest.approx(0.37 / 3) and high["mean_p"] == pytest.approx(0.8)
    assert low["observed"] == pytest.approx(1 / 3) and high["observed"] == 0.0
    # Wilson 95% intervals (z = 1.959964, z^2 = 3.841459), by hand:
    #   1 of 4: centre (.25 + z^2/8) / (1 + z^2/4) = .372473,
    #           half z / (1 + z^2/4) * sqrt(.25 * .75 / 4 + z^2/64) = .326885
    #   1 of 3: centre (1/3 + z^2/6) / (1 + z^2/3) = .426916, half .365424
    #   0 of 1: 0, and centre + half = 2 * (z^2/2) / (1 + z^2) = .793451
    assert d["observed_ci95"] == pytest.approx([0.045588, 0.699358], abs=1e-6)
    assert low["ci95"] == pytest.approx([0.061492, 0.792340], abs=1e-6)
    assert high["ci95"] == pytest.approx([0.0, 0.793451], abs=1e-6)
    assert list(d) == ["n", "mean_p", "observed", "observed_ci95", "bias", "brier", "ece",
                       "bins"]


def test_the_ece_is_the_count_weighted_gap_of_every_bin():
    """A second, plain computation of the expected calibration error on 40 predictions."""
    ps = [((7 * i) % 40) / 40 for i in range(40)]
    won = [(i * i) % 3 == 0 for i in range(40)]
    g = Group(4)
    for p, w in zip(ps, won):
        g.add(p, w)
    ece = 0.0
    for k in range(4):
        idx = [i for i, p in enumerate(ps) if k / 4 <= p < (k + 1) / 4]
        mean_p = sum(ps[i] for i in idx) / len(idx)
        rate = sum(won[i] for i in idx) / len(idx)
        ece += len(idx) / 40 * abs(mean_p - rate)
    assert g.ece == pytest.approx(ece)
    assert [b["count"] for b in g.to_dict()["bins"]] == [10, 10, 10, 10]


def test_an_empty_group_says_only_that_it_is_empty():
    g = Group()
    assert g.bins == DEFAULT_BINS == 10 and len(g.count) == 10
    assert g.ece is None and g.to_dict() == {"n": 0}


def test_each_prediction_lands_in_the_bin_whose_edges_hold_it():
    g = Group(10)
    for p in (0.0, 0.05, 0.1, 0.3, 0.7, 0.95, 0.999, 1.0):
        g.add(p, True)
    assert g.count == [2, 1, 0, 1, 0, 0, 0, 1, 0, 3]        # 1.0 goes to the last bin
    # a win rate on an edge (29 of 50 = .58 with 100 bins: 0.58 * 100 = 57.99999...)
    for n in (50, 100, 200):
        for w in range(n + 1):
            g = Group(100)
            g.add(w / n, True)
            [row] = g.to_dict()["bins"]
            lo, hi = row["bin"]
            assert lo <= w / n and (w / n < hi or w == n), (w, n, row["bin"])
    one = Group(1)
    for p in (0.0, 0.5, 1.0):
        one.add(p, p > 0.2)
    assert one.count == [3] and one.to_dict()["bins"][0]["bin"] == [0.0, 1.0]


# --- a calibration's groups -------------------------------------------------------------

def test_the_number_of_bins_is_checked():
    for bins in (0, 101, -3):
        with pytest.raises(CuatrolaError, match=f"bad number of bins {bins}: expected 1 to 100"):
            Calibration(bins)
    assert Calibration(1).bins == 1 and Calibration(100).bins == 100
    assert Calibration().bins == 10
    cal = Calibration(3)
    cal.add(Prediction("solo", 2, "B", 0.9, True))
    assert cal.groups[("overall",)].bins == 3 and cal.to_dict()["bins"] == 3


def every_group() -> Calibration:
    cal = Calibration(10)
    for pred in (Prediction("cuatrola", 3, "A", 0.6, True),
                 Prediction("cuatrola", 1, "A", 0.1, False),
                 Prediction("paso", 4, "B", 0.3, False),
                 Prediction("solo", 2, "B", 0.4, True),
                 Prediction("paso", 1, "A", 0.7, True),
                 Prediction("contrasolo", 2, "B", 0.5, False),
                 Prediction("quintola", 1, "A", 0.2, False),
                 Prediction("solo", 4, "B", 0.8, True),
                 Prediction("solo", 3, "A", 0.6, False, 2, "defender"),
                 Prediction("paso", 1, "A", 0.55, True, 1, "declarer"),
                 Prediction("solo", 4, "B", 0.45, True, 1, "defender")):
        cal.add(pred)
    return cal


def test_groups_come_in_order_with_their_labels():
    d = every_group().to_dict()
    assert (d["records"], d["without_odds"], d["bins"]) == (0, 0, 10)
    rows = d["groups"]
    assert [r["group"] for r in rows] == [
        "paso, side A", "paso, side B", "paso, seat 1", "paso, seat 4",
        "solo, seat 2", "solo, seat 4", "contrasolo, seat 2", "cuatrola, seat 1",
        "cuatrola, seat 3", "quintola, seat 1", "seat 1", "seat 2", "seat 3", "seat 4", "overall",
        "cards, trick 1, declarer", "cards, trick 1, defender", "cards, trick 2, defender",
        "cards, overall"]
    by = {r["group"]: r for r in rows}
    assert [r["contract"] for r in rows[:10]] == ["paso"] * 4 + [
        "solo", "solo", "contrasolo", "cuatrola", "cuatrola", "quintola"]
    assert all(r["contract"] is None for r in rows[10:])
    assert by["paso, side A"]["side"] == "A" and "seat" not in by["paso, side A"]
    assert by["paso, seat 4"]["seat"] == 4 and by["seat 3"]["seat"] == 3
    assert by["cards, trick 2, defender"]["trick"] == 2
    assert by["cards, trick 2, defender"]["role"] == "defender"
    assert all(r.get("cards") is True for r in rows[15:])
    assert not any("cards" in r for r in rows[:15])
    assert "trick" not in by["cards, overall"] and "seat" not in by["overall"]
    # the figures of each group are its own predictions'
    assert by["paso, side A"]["n"] == 1 and by["paso, side A"]["mean_p"] == pytest.approx(0.7)
    assert by["seat 2"]["n"] == 2 and by["seat 2"]["observed"] == 0.5
    assert by["seat 1"]["mean_p"] == pytest.approx(1 / 3)      # paso .7, quintola .2, cuatrola .1
    assert by["overall"]["n"] == 8 and by["overall"]["observed"] == pytest.approx(4 / 8)
    assert by["cards, overall"]["n"] == 3
    assert by["cards, overall"]["brier"] == pytest.approx((0.36 + 0.2025 + 0.3025) / 3)
    assert by["cards, trick 1, declarer"]["mean_p"] == pytest.approx(0.55)


def test_played_odds_replace_the_recorded_ones_but_the_kept_are_the_recorded():
    # solo@2: logit' = 1 + 2 logit; paso@*: logit' = -1 + logit; cards at trick 1 as
    # defender under solo: logit' = 0.5 logit
    model = PlayedModel("online", {"solo@2": [1.0, 2.0], "paso@*": [-1.0, 1.0],
                                   "t1/defender@solo": [0.0, 0.5]}, {})
    cal = Calibration(played=model)
    cal.kept = []
    preds = [Prediction("solo", 2, "B", 0.5, True), Prediction("paso", 3, "A", 0.2, False),
             Prediction("cuatrola", 4, "B", 0.3, True),
             Prediction("solo", 1, "A", 0.8, False, 1, "defender")]
    for p in preds:
        cal.add(p)
    assert cal.kept == preds
    by = {r["group"]: r for r in cal.to_dict()["groups"]}

    def sig(z):
        return 1 / (1 + math.exp(-z))
    assert by["solo, seat 2"]["mean_p"] == pytest.approx(sig(1.0))              # logit .5 = 0
    assert by["paso, seat 3"]["mean_p"] == pytest.approx(sig(-1 + math.log(0.25)))
    assert by["paso, side A"]["mean_p"] == pytest.approx(sig(-1 + math.log(0.25)))
    assert by["cuatrola, seat 4"]["mean_p"] == pytest.approx(0.3)               # no cell
    assert by["cards, trick 1, defender"]["mean_p"] == pytest.approx(sig(0.5 * math.log(4)))
    assert by["overall"]["mean_p"] == pytest.approx(
        (sig(1.0) + sig(-1 + math.log(0.25)) + 0.3) / 3)
    plain = Calibration()
    assert plain.kept is None
    plain.add(preds[0])
    assert plain.kept is None


# --- the predictions of a record --------------------------------------------------------

def _option(bid, contract, p, **extra):
    return {"bid": bid, "contract": contract, "p_win": p, "ev": 0.0, **extra}


def _bid(seat, call, *options):
    return {"seat": seat, "call": call, "odds": {"by": "advisor", "samples": 20,
                                                 "advice": call, "options": list(options)}}


def test_two_seats_bid_the_last_bidders_odds_are_read():
    # online: seat 1 solo, seat 3 cuatrola over it (as the lab records it: each seat's
    # options are the contracts they lead to if the later seats pass)
    bids = [_bid(1, "solo", _option("paso", "paso", 0.25), _option("solo", "solo", 0.45),
                 _option("cuatrola", "cuatrola", 0.1)),
            _bid(2, "paso", _option("paso", "solo", 0.6), _option("cuatrola", "cuatrola", 0.2)),
            _bid(3, "cuatrola", _option("paso", "solo", 0.4),
                 _option("cuatrola", "cuatrola", 0.35)),
            _bid(4, "paso", _option("paso", "cuatrola", 0.7))]
    obj = {"auction": ["solo", "paso", "cuatrola", "paso"], "lab": {"bids": bids}}
    assert predictions(obj, "A") == [Prediction("cuatrola", 3, "A", 0.35, True)]
    assert predictions(obj, "B") == [Prediction("cuatrola", 3, "A", 0.35, False)]
    # narro: seat 1 solo, seat 2 contrasolo against it: the contrasolo bidder's odds,
    # for its own side
    bids = [_bid(1, "solo", _option("solo", "solo", 0.55)),
            _bid(2, "contrasolo", _option("paso", "solo", 0.45),
                 _option("contrasolo", "contrasolo", 0.3, declarer=[1, 2]),
                 _option("cuatrola", "cuatrola", 0.05)),
            _bid(3, "paso", _option("paso", "contrasolo", 0.7)),
            _bid(4, "paso", _option("paso", "contrasolo", 0.3))]
    obj = {"auction": ["solo", "contrasolo", "paso", "paso"], "lab": {"bids": bids}}
    assert predictions(obj, "B") == [Prediction("contrasolo", 2, "B", 0.3, True)]
    # the last bidder's odds are unreadable: no prediction, not the first bidder's
    bids[1]["odds"] = None
    assert predictions(obj, "B") == []


def test_a_call_is_read_only_from_the_option_of_its_own_contract():
    # seat 2's paso leads to seat 1's solo: under paso (all passed) nobody reads it
    seat2 = _bid(2, "paso", _option("paso", "solo", 0.9), _option("solo", "cuatrola", 0.8),
                 _option("solo", "solo", 0.35))
    obj = {"auction": ["paso", "solo", "paso", "paso"], "lab": {"bids": [seat2]}}
    assert predictions(obj, "B") == [Prediction("solo", 2, "B", 0.35, True)]
    paso = {"auction": ["paso"] * 4, "lab": {"bids": [
        _bid(1, "paso", _option("paso", "solo", 0.9), _option("paso", "paso", 0.0)),
        _bid(2, "paso", _option("paso", "paso", 1)),
        "not a bid", {"call": "paso"},
        _bid(3, "paso", _option("paso", "paso", 1.5)),
        _bid(4, "paso", _option("paso", "paso", "0.5"))]}}
    assert predictions(paso, "B") == [Prediction("paso", 1, "A", 0.0, False),
                                      Prediction("paso", 2, "B", 1.0, True)]
    assert isinstance(predictions(paso, "B")[1].p, float)
    # no auction: all passed
    del paso["auction"]
    assert [p.seat for p in predictions(paso, "A")] == [1, 2]
    assert predictions({"auction": ["paso"] * 4}, "A") == []


def test_a_player_keeps_only_the_calls_of_the_seats_playing_it():
    bids = [_bid(s, "paso", _option("paso", "paso", s / 10)) for s in (1, 2, 3, 4)]
    obj = {"auction": ["paso"] * 4,
           "lab": {"bids": bids, "lineup": {"A": "heuristic", "B": "PIMC:samples=8"}}}
    assert [p.seat for p in predictions(obj, "A", "heuristic")] == [1, 3]
    assert [p.seat for p in predictions(obj, "A", "pimc:samples=8")] == [2, 4]
    assert predictions(obj, "A", "random") == []
    assert len(predictions(obj, "A")) == 4
    obj["lab"]["lineup"]["B"] = "no such player"
    assert [p.seat for p in predictions(obj, "A", "heuristic")] == [1, 3]
    assert predictions(obj, "A", "no such player") == []
    cal = Calibration(player="heuristic")
    cal.add_record(obj, "A")
    cal.add_record({"auction": ["paso"] * 4, "lab": {"bids": []}}, "B")
    cal.add_record(obj, "B")
    cal.add_record({"auction": ["paso"] * 4}, "A")
    d = cal.to_dict()
    assert (d["records"], d["without_odds"]) == (4, 2)
    overall = {r["group"]: r for r in d["groups"]}["overall"]
    assert overall["n"] == 4 and overall["observed"] == 0.5        # won with A, lost with B
    assert overall["mean_p"] == pytest.approx(0.2)                  # seats 1 and 3: .1, .3


def test_add_record_adds_the_cards_it_is_given():
    cal = Calibration()
    cards = [Prediction("paso", 2, "B", 0.25, False, 3, "defender")]
    cal.add_record({"auction": ["paso"] * 4}, "A", cards)
    by = {r["group"]: r for r in cal.to_dict()["groups"]}
    assert cal.records == 1 and cal.without_odds == 1
    assert set(by) == {"cards, trick 3, defender", "cards, overall"}
    assert by["cards, overall"]["brier"] == pytest.approx(0.0625)


# --- the cards of a record --------------------------------------------------------------

def _obj(name: str) -> tuple[dict, str]:
    rec = read_record((EXAMPLES / "analysis" / name).read_text())
    return json.loads(write_json(rec)), str(replay(rec).result().winner)


def test_the_cards_after_a_renuncio_are_not_predictions():
    obj, winner = _obj("online-asistir.txt")
    preds = card_predictions(obj, winner, samples=10, seed=1)
    # oros led (So): seats 2, 3 and 4 hold one oro each, no choice; Ao takes the trick.
    # Trick 2: seat 4 leads Sc (a choice), then seat 1 plays Ro holding Rc: the
    # renuncio decides the hand, nothing after it counts
    assert [(p.trick, p.seat) for p in preds] == [(1, 1), (2, 4)]
    assert all(p.contract == "paso" and p.won == (p.side == winner) for p in preds)
    assert [p.role for p in preds] == ["declarer", "defender"]
    # by default: 100 deals, seed 0
    assert card_predictions(obj, winner) == card_predictions(obj, winner, samples=100, seed=0)
    assert card_predictions(obj, winner) != card_predictions(obj, winner, samples=100, seed=1)


def _task(args):
    """A stand-in for a record's hints: what it was asked (and the process that was
    asked), as a prediction."""
    obj, winner, samples, seed, infer = args
    return [Prediction("solo", obj["n"], winner, samples / 1000, infer, seed,
                       str(os.getpid()))]


def test_card_predictions_of_records_in_order_whatever_the_workers(monkeypatch):
    """Forty records (more than the look-ahead of 8 per worker): the answers keep the
    records' order and each record's seed is seed + 100 n."""
    monkeypatch.setattr(calibration, "_card_task", _task)
    records = [({"n": n}, "AB"[n % 2]) for n in range(40)]
    for workers in (1, 2, 3):
        got = list(with_card_predictions(iter(records), samples=20, seed=7, workers=workers,
                                         infer=False))
        assert [(o, w) for o, w, _ in got] == records
        assert [dataclasses.replace(p, role="") for _, _, [p] in got] == [
            Prediction("solo", n, "AB"[n % 2], 0.02, False, 7 + 100 * n) for n in range(40)]
        pids = {p.role for _, _, [p] in got}
        assert (pids == {str(os.getpid())}) == (workers == 1)     # forked workers, or not
    [(_, _, [p])] = with_card_predictions([({"n": 0}, "A")])
    # 100 deals, inference, seed 0, in this process
    assert (p.p, p.won, p.trick, p.role) == (0.1, True, 0, str(os.getpid()))


def test_card_predictions_weigh_the_calls_with_the_preset_bid_model():
    obj, winner = _obj("italiano-failed-solo.txt")
    model = bids.load_model(read_record(
        (EXAMPLES / "analysis" / "italiano-failed-solo.txt").read_text()).rules)
    [(_, _, inferred)] = with_card_predictions([(obj, winner)], samples=30, seed=4)
    [(_, _, plain)] = with_card_predictions([(obj, winner)], samples=30, seed=4, infer=False)
    assert inferred == card_predictions(obj, winner, samples=30, seed=4, bid_model=model)
    assert plain == card_predictions(obj, winner, samples=30, seed=4)
    assert [p.p for p in inferred] != [p.p for p in plain]
    assert not forced_auction(obj) and not forced_auction({})
    assert forced_auction({"lab": {"config": {"auctions": ["solo paso paso paso"]}}})
    assert not forced_auction({"lab": {"config": {"auctions": []}}})


# --- reading records --------------------------------------------------------------------

def test_read_records_gives_each_record_with_its_winner_and_numbers_every_line():
    obj, winner = _obj("online-blunder.txt")
    line = json.dumps(obj)
    got = list(read_records("f.jsonl", [line, "", "  \n", line.encode()]))
    assert got == [(obj, winner), (obj, winner)]
    unfinished = dict(obj, tricks=obj["tricks"][:3])
    with pytest.raises(RecordError, match=r"^f\.jsonl, line 3: the hand is not finished"):
        list(read_records("f.jsonl", [line, "\n", json.dumps(unfinished)]))
    hidden = dict(obj, hands=obj["hands"][:1] + [None] * 3)
    with pytest.raises(RecordError, match=r"^f\.jsonl, line 2: the record does not give "
                                          r"every hand"):
        list(read_records("f.jsonl", ["", json.dumps(hidden)]))
    with pytest.raises(RecordError, match=r"^f\.jsonl, line 1: not a JSON record"):
        list(read_records("f.jsonl", ["[" * 100000 + "]" * 100000]))
    with pytest.raises(RecordError, match=r"^f\.jsonl, line 2: "):
        list(read_records("f.jsonl", [line, '{"muestra": "3o"}']))
