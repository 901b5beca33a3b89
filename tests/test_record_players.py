"""Players' names in records: the Player tags of the text form, ``players`` in JSON, both
left out when no name is given (so records without names stay byte-identical)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuatrola_solver.errors import RecordError
from cuatrola_solver.notation.record import (MAX_PLAYER_NAME, read_json, read_record, read_text,
                                             write_json, write_text)

from helpers import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RECORD = (EXAMPLES / "records" / "narro-solo.txt").read_text()


def named(text: str, *tags: str) -> str:
    return "\n".join(tags) + "\n" + text


def test_names_round_trip_in_both_forms():
    rec = read_text(named(RECORD, '[Player1 "Ana"]', '[player4 "Marta \\"la Rubia\\""]'))
    assert rec.players == ("Ana", None, None, 'Marta "la Rubia"')
    text = write_text(rec)
    assert '[Player1 "Ana"]\n[Player4 "Marta \\"la Rubia\\""]\n' in text
    assert "Player2" not in text
    assert read_text(text) == rec and write_text(read_text(text)) == text
    obj = json.loads(write_json(rec))
    assert obj["players"] == ["Ana", None, None, 'Marta "la Rubia"']
    back = read_json(write_json(rec))       # JSON has no place for the comment
    assert back.players == rec.players and back.to_json_obj() == rec.to_json_obj()


def test_a_record_without_names_is_written_as_before():
    rec = read_record(RECORD)
    assert rec.players == (None, None, None, None)
    assert "players" not in write_json(rec) and "Player" not in write_text(rec)
    original = json.loads(write_json(rec))
    assert json.loads(write_json(read_text(named(RECORD, '[Player2 ""]')))) == original


@pytest.mark.parametrize("text, needle", [
    (named(RECORD, '[Player1 "' + "x" * (MAX_PLAYER_NAME + 1) + '"]'),
     f"at most {MAX_PLAYER_NAME} characters"),
    (named(RECORD, '[Player1 "Ana"]', '[Player1 "Eva"]'), "duplicate tag [Player1]"),
    (named(RECORD, '[Player5 "Ana"]'), "unknown tag [Player5]"),
    (named(RECORD, '[Player1 "A\tna"]'), "bad player's name"),
])
def test_bad_names_are_refused_saying_where(text, needle):
    with pytest.raises(RecordError, match="line") as e:
        read_text(text)
    assert needle in str(e.value)


@pytest.mark.parametrize("players, needle", [
    (["Ana"], "expected a list of 4"),
    ([1, None, None, None], "players[0] (seat 1)"),
    (["x" * (MAX_PLAYER_NAME + 1), None, None, None], "at most"),
])
def test_bad_json_names_name_the_field(players, needle):
    obj = json.loads(write_json(read_record(RECORD)))
    obj["players"] = players
    with pytest.raises(RecordError) as e:
        read_json(json.dumps(obj))
    assert needle in str(e.value)


def test_check_shows_the_names():
    text = named(RECORD, '[Player1 "Ana"]', '[Player3 "Luis"]')
    r = run("check", "-", input=text)
    assert r.exit_code == 0, r.stderr
    assert "players: seat 1 Ana, seat 3 Luis" in r.stdout.splitlines()
    plain = run("check", "-", input=RECORD)
    assert "players" not in plain.stdout
    assert run("check", "-", "--json", input=text).stdout == \
        run("check", "-", "--json", input=RECORD).stdout


def test_analyze_and_its_report_show_the_names(tmp_path):
    text = named(RECORD, '[Player1 "Ana"]', '[Player4 "Marta"]')
    html = tmp_path / "report.html"
    r = run("analyze", "-", "--samples", "10", "--seed", "1", "--html", str(html), input=text)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "  seat 1 (Ana): So Se Ae Cb 3b" in lines and "  seat 2: Ro 3o Ac Ce Rb" in lines
    assert "Seat 1 — Ana, side A" in html.read_text()
    out = json.loads(run("analyze", "-", "--samples", "10", "--seed", "1", "--json",
                         input=text).stdout)
    assert out["players"] == ["Ana", None, None, "Marta"]
    plain = json.loads(run("analyze", "-", "--samples", "10", "--seed", "1", "--json",
                           input=RECORD).stdout)
    assert "players" not in plain
