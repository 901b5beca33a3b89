"""Calibration of predicted odds: known answers on synthetic predictions, and the
command on self-play records."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.calibration import Calibration, Group, Prediction, predictions
from cuatrola_solver.lab.selfplay import LabConfig

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
    """Issue 19: a small run drew an empty reliability panel, with a legend when a group
    had enough predictions but no bin enough of them."""
    pytest.importorskip("matplotlib")
    from cuatrola_cli import cmd_calibrate
    figures = []
    monkeypatch.setattr(cmd_calibrate, "save_figure", lambda fig, path: figures.append(fig))
    cal = Calibration()
    for k in range(25):                      # 25 solo predictions over 10 bins: none has 10
        cal.add(Prediction("solo", 2, "B", (k % 10 + 0.5) / 10, k % 3 == 0))
    cmd_calibrate.plot(cal.to_dict(), "x.png")
    left, right = figures[0].axes[:2]
    assert left.get_legend() is None and len(left.get_lines()) == 1     # the diagonal only
    assert any("play more hands" in t.get_text() for t in left.texts)
    assert right.get_legend() is not None                               # overall is drawn
    for k in range(100):                     # enough in one bin: the group is drawn
        cal.add(Prediction("solo", 2, "B", 0.55, k % 2 == 0))
    cmd_calibrate.plot(cal.to_dict(), "x.png")
    left = figures[1].axes[0]
    assert left.get_legend() is not None and not left.texts
    assert [t.get_text() for t in left.get_legend().get_texts()][0].startswith("solo, seat 2")
