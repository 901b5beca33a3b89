"""``cuatrola check``: the JSON contract, records from stdin, records that cannot have
happened, the points split into cards, monte and cantes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


#: the result's keys of schema 1 before the points breakdown was added (kept as they were)
RESULT_KEYS = ("winner", "game_points", "points", "tricks", "ended_by")


def test_check_json_contract():
    r = run("check", str(EXAMPLES / "records" / "online-renuncio.json"), "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    out["result"] = {k: v for k, v in out["result"].items() if k in RESULT_KEYS}
    assert out == {"schema": 1,
                   "renuncios": [{"trick": 1, "seat": 2, "card": "Ae", "obligation": "asistir",
                                  "legal": ["Sc", "Cc", "Rc", "3c"]}],
                   "result": {"winner": "A", "game_points": 2, "points": {"A": 0, "B": 24},
                              "tricks": {"A": 0, "B": 1}, "ended_by": "renuncio"}}


def test_check_json_is_the_verdicts_own_writer():
    """check --json is Check.to_dict() (with the schema), and the text is drawn from the
    same typed verdict: its renuncios and result, read by attribute."""
    from cuatrola_cli.cmd_check import check_lines
    from cuatrola_solver.analysis.check import check
    from cuatrola_solver.notation.record import read_record
    path = EXAMPLES / "records" / "online-renuncio.json"
    verdict = check(read_record(path.read_text(encoding="utf-8"), str(path)))
    assert verdict.result is not None and verdict.result.ended_by == "renuncio"
    assert [(r.trick, r.seat) for r in verdict.renuncios] == [(1, 2)]
    r = run("check", str(path), "--json")
    assert json.loads(r.stdout) == {"schema": 1, **verdict.to_dict()}
    r = run("check", str(path))
    assert r.stdout.rstrip("\n").split("\n") == check_lines(verdict)


def test_check_text_record_from_stdin():
    text = (EXAMPLES / "records" / "narro-solo.txt").read_text()
    r = run("check", "-", "--json", input=text)
    assert r.exit_code == 0
    result = json.loads(r.stdout)["result"]
    assert {k: v for k, v in result.items() if k in RESULT_KEYS} == {
        "winner": "B", "game_points": 2, "points": {"A": 55, "B": 67},
        "tricks": {"A": 2, "B": 3}, "ended_by": "play"}
    human = run("check", "-", input=text)
    assert "result: side B scores 2" in human.stdout


@pytest.mark.parametrize("record,message", [
    ('{"muestra": "Sb", "hands": ["Ao 3o Ro Co So", "Ao 3c Rc Cc Sc", "Ae 3e Re Ce Se", '
     '"Ab 3b Rb Cb Sb"]}', "'Ao' is dealt twice"),
    ('{"muestra": "Ao", "hands": ["Ao 3o Ro Co So", "Ac 3c Rc Cc Sc", "Ae 3e Re Ce Se", '
     '"Ab 3b Rb Cb Sb"]}', "not in seat 4's hand"),
    ('{"muestra": "Sb", "hands": ["Ao 3o Ro Co So", "Ac 3c Rc Cc Sc", "Ae 3e Re Ce Se", '
     '"Ab 3b Rb Cb Sb"], "tricks": [["Ac"]]}', "tricks[0][0]: card 'Ac' in trick 1 is seat 2's, but seat 1 leads trick 1"),
    ('{"muestra": "Sb", "hands": ["Ao 3o Ro Co So", "Ac 3c Rc Cc Sc", "Ae 3e Re Ce Se", '
     '"Ab 3b Rb Cb Sb"], "auction": ["solo", "solo", "paso", "paso"]}', "auction, call 2"),
    ('{"rules": "tute", "muestra": "Sb", "hands": []}', "unknown preset 'tute'"),
    ('{"rules": {"preset": "online", "tiebreak": "mano"}, "muestra": "Sb", "hands": []}',
     "unknown rule parameter 'tiebreak'"),
    ('{"muestra": "Sb", "hands": ["Ao 3o Ro Co", "Ac 3c Rc Cc Sc So", "Ae 3e Re Ce Se", '
     '"Ab 3b Rb Cb Sb"]}', "seat 1 holds 4 cards"),
])
def test_check_refuses_records_that_cannot_have_happened(record, message):
    r = run("check", "-", input=record)
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output


def test_check_missing_file():
    r = run("check", "no/such/record.txt")
    assert r.exit_code == 2 and "not found" in r.output


NARRO = EXAMPLES / "records" / "narro-solo.txt"               # a cante, a match score


BLUNDER = EXAMPLES / "analysis" / "online-blunder.txt"       # a 65-65 tie, paso


# --- check ---------------------------------------------------------------------------

def test_check_shows_cards_monte_cantes_tie_and_match():
    out = run("check", str(BLUNDER)).stdout
    assert "muestra 3b (triunfo bastos)" in out
    assert "tie: 65-65 on points; side A wins it by taking the last baza" in out
    assert "cards: A 55 - B 65" in out and "monte: A +10 (took the last baza)" in out
    out = run("check", str(NARRO)).stdout
    assert "cante: seat 3 sang las veinte in copas after trick 1: A +20" in out
    assert "match: A 3 - B 5 before the hand, A 3 - B 7 after" in out


def test_check_json_adds_the_breakdown():
    res = json.loads(run("check", str(NARRO), "--json").stdout)["result"]
    assert res["breakdown"]["cards"] == {"A": 35, "B": 57}
    assert res["breakdown"]["monte"] == {"A": 0, "B": 10}
    assert res["breakdown"]["cantes"] == [{"seat": 3, "side": "A", "suit": "c",
                                           "after_trick": 1, "points": 20}]
    assert res["score_before"] == {"A": 3, "B": 5} and res["score_after"] == {"A": 3, "B": 7}
    assert res["tie_break"] is None and res["match_won_by"] is None
