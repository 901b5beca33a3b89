"""``cuatrola advise``: output, JSON contract, the table's header, bad input (exit 2)."""

from __future__ import annotations

import json
import re

import pytest

from helpers import run

HAND = "Ao 3o Ro Co So"


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


def test_advise_table_headers_and_the_dealer_header():
    r = run("advise", "Ac 3c Ro Co So", "--muestra", "So", "--seat", "4", "--samples", "300",
            "--seed", "1", columns=200)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    about = next(x for x in lines if x.startswith("seat 4, "))
    assert "later seats pass" not in about                   # nobody speaks after the dealer
    k = next(i for i, x in enumerate(lines) if x.startswith("call "))
    header, dashes = lines[k], lines[k + 1]
    names = re.split(r"\s{2,}", header.strip())
    assert len(names) >= 7 and names[-1] == "note"
    assert any(x.rstrip().endswith("<- advice") for x in lines[k + 2:])
    assert len(dashes.split()) == len(names)                 # no dashed column without a name
    seat2 = run("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--samples",
                "300", "--seed", "1", columns=100).stdout
    assert "later seats pass" in next(x for x in seat2.splitlines() if x.startswith("seat 2, "))
