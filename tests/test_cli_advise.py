"""``cuatrola advise`` and ``cuatrola hint``: output, JSON contract, bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.cards import parse_card
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.notation.record import write_json, write_text

from helpers import deal
from cuatrola_solver.notation.replay import record_of

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HAND = "Ao 3o Ro Co So"


def run(*args: str):
    return runner.invoke(app, list(args))


def advise_json(*args: str) -> dict:
    r = run("advise", *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_advise_json_contract():
    d = advise_json(HAND, "--muestra", "3c", "--seat", "1", "--samples", "300", "--seed", "4")
    assert d["schema"] == 1 and d["rules"] == "online" and d["seat"] == 1
    assert d["hand"] == HAND and d["muestra"] == "3c"
    assert d["exact"] is False and d["deals"] == 300 and d["seed"] == 4
    assert [o["bid"] for o in d["options"]] == ["paso", "solo", "cuatrola", "quintola"]
    for o in d["options"]:
        assert {"bid", "allowed", "p_win", "ci95", "ev", "tricks"} <= set(o)
    assert d["advice"] in {o["bid"] for o in d["options"] if o["allowed"]}
    again = advise_json(HAND, "--muestra", "3c", "--seat", "1", "--samples", "300",
                        "--seed", "4", "--workers", "1")
    assert again == d


def test_advise_refused_calls_listed_with_reason():
    d = advise_json("Ac 3o Rc Cb So", "-m", "3c", "-s", "3", "--auction", "paso solo",
                    "--rules", "app", "--score", "10-3", "-n", "200", "--seed", "1")
    by = {o["bid"]: o for o in d["options"]}
    assert by["paso"]["allowed"] and by["paso"]["contract"] == "solo"
    assert by["paso"]["declarer"] == 2
    for bid in ("solo", "cuatrola", "quintola"):
        assert not by[bid]["allowed"] and by[bid]["reason"] and by[bid]["p_win"] is None
    assert d["advice"] == "paso" and d["score"] == {"A": 10, "B": 3}
    assert d["auction"] == ["paso", "solo"]


def test_advise_contrasolo_json():
    d = advise_json("Ac 3o Rc Cb So", "-m", "3c", "-s", "2", "-a", "solo", "-r", "narro",
                    "-n", "200", "--seed", "2")
    by = {o["bid"]: o for o in d["options"]}
    assert by["contrasolo"]["allowed"] and by["contrasolo"]["declarer"] == [1, 2]


def test_advise_human_output():
    r = run("advise", HAND, "--muestra", "3c", "--seat", "1", "--samples", "300",
            "--seed", "4")
    assert r.exit_code == 0, r.output
    first = r.stdout.splitlines()[0]
    assert first.split(":")[0] in {"Call paso", "Call solo", "Call cuatrola", "Call quintola"}
    assert "points per hand on average" in first
    assert "seed 4" in r.stdout and "95% interval" in r.stdout and "<- advice" in r.stdout


@pytest.mark.parametrize("args, words", [
    ([HAND.replace("Ro", "Xz"), "-m", "3c", "-s", "1"], ["'Xz'", "card 3"]),
    (["Ao 3o Ro Co", "-m", "3c", "-s", "1"], ["4 cards", "expected 5"]),
    (["Ao 3o Ro Co Ao", "-m", "3c", "-s", "1"], ["'Ao'", "twice"]),
    ([HAND, "-m", "3c", "-s", "5"], ["seat 5"]),
    ([HAND, "-m", "3c", "-s", "0"], ["seat 0"]),
    ([HAND, "-m", "3c", "-s", "4"], ["muestra", "seat 4"]),
    (["Ao 3o Ro Co 3c", "-m", "3c", "-s", "1"], ["muestra", "belongs to seat 4"]),
    ([HAND, "-m", "9z", "-s", "1"], ["'9z'", "--muestra"]),
    ([HAND, "-m", "3c", "-s", "2", "-a", "paso paso"], ["2 calls", "expected 1"]),
    ([HAND, "-m", "3c", "-s", "3", "-a", "solo solo"], ["call 2", "'solo'", "stronger"]),
    ([HAND, "-m", "3c", "-s", "2", "-a", "sol"], ["'sol'"]),
    ([HAND, "-m", "3c", "-s", "1", "--score", "3:5"], ["'3:5'", "--score"]),
    ([HAND, "-m", "3c", "-s", "1", "--samples", "10", "--exact"], ["--exact"]),
    ([HAND, "-m", "3c", "-s", "1", "--rules", "nope"], ["'nope'"]),
])
def test_advise_bad_input_exits_2(args, words):
    r = run("advise", *args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    for w in words:
        assert w in r.output, (w, r.output)


# --- hint -------------------------------------------------------------------------------

def record_file(tmp_path, cards: str, form: str = "json"):
    h = Hand(deal("Ao Ro Co Ac Ae / 3c Rc 3e Re Ab / 3o Sc Ce Se 3b / So Cc Rb Cb Sb"),
             parse_card("So"))
    h.pass_all()
    for c in cards.split():
        h.play(parse_card(c))
    path = tmp_path / ("hand.json" if form == "json" else "hand.txt")
    path.write_text(write_json(record_of(h)) if form == "json" else write_text(record_of(h)))
    return str(path)


def test_hint_json(tmp_path):
    path = record_file(tmp_path, "Ac 3c Sc Cc Ao 3e 3o")
    r = run("hint", path, "--json", "--samples", "200", "--seed", "1")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["schema"] == 1 and d["seat"] == 4 and d["trick"] == 2
    assert {"card", "tricks", "margin", "p_win"} <= set(d["cards"][0])
    assert d["best"] == d["cards"][0]["card"]
    assert {c["card"] for c in d["cards"]} == {"So"}          # seat 4 must follow oros
    exact = json.loads(run("hint", path, "--json", "--exact").stdout)
    assert exact["exact"] is True and exact["seed"] is None


def test_hint_human_with_cante(tmp_path):
    path = record_file(tmp_path, "Ac 3c Sc Cc", form="text")
    r = run("hint", path, "--samples", "100", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("seat 1, trick 2: play ")
    assert "sing the 40 in oros" in r.stdout


def test_hint_bad_input(tmp_path):
    done = record_file(tmp_path, "Ac 3c Sc Cc Ao 3e 3o So Ae Re Ce Cb Co Rc Se Sb Ro Ab 3b Rb")
    r = run("hint", done)
    assert r.exit_code == 2 and "over" in r.output
    r = run("hint", str(tmp_path / "missing.json"))
    assert r.exit_code == 2 and "not found" in r.output
    r = run("hint", done, "--exact", "--samples", "5")
    assert r.exit_code == 2


def test_hint_after_a_renuncio_says_the_hand_is_decided():
    result = runner.invoke(app, ["hint", str(EXAMPLES / "records" / "online-renuncio.json")])
    assert result.exit_code == 2
    assert "decided by the first renuncio" in result.output and "asistir" in result.output
