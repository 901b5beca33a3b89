"""The check, deal, rules, solve and bench commands through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"
#: the result's keys of schema 1 before the points breakdown was added (kept as they were)
RESULT_KEYS = ("winner", "game_points", "points", "tricks", "ended_by")


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


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


@pytest.mark.parametrize("command", [["check"], ["hint", "--samples", "5"],
                                     ["analyze", "--samples", "2", "--no-bids"]])
@pytest.mark.parametrize("data", ["", "\n  \n", "\ufeff"])
def test_empty_input_is_said_as_such(command, data, tmp_path, monkeypatch):
    """Issue 19: 'check -' on empty stdin said 'missing tag [Muestra]'."""
    r = run(command[0], "-", *command[1:], input=data)
    assert r.exit_code == 2 and r.stderr == "error: empty input: stdin holds no record\n"
    monkeypatch.chdir(tmp_path)
    Path("empty.txt").write_text(data, encoding="utf-8")
    r = run(command[0], "empty.txt", *command[1:])
    assert r.exit_code == 2
    assert r.stderr == "error: empty input: record file 'empty.txt' holds nothing\n"


@pytest.mark.parametrize("args", [["advise", "Ac 3c Ro Co Ab", "-m", "So"],
                                  ["hint", "--hand", "Sc 3c Se 3e Sb", "--muestra", "Rc"],
                                  ["hint", str(EXAMPLES / "advice" / "hint-trick3.txt")],
                                  ["play"]])
@pytest.mark.parametrize("seat", ["5", "0", "-1"])
def test_a_bad_seat_is_said_one_way(args, seat):
    """Issue 19: three wordings of one mistake; now check_seat's everywhere."""
    r = run(*args, "--seat", seat, input="")
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: bad seat {seat} in --seat: expected 1 to 4\n"


def test_deal_is_reproducible_and_checkable():
    a = run("deal", "--seed", "7", "--count", "3", "--json")
    b = run("deal", "--seed", "7", "--count", "3", "--json")
    assert a.exit_code == 0 and a.stdout == b.stdout
    lines = a.stdout.splitlines()
    assert len(lines) == 3 and len(set(lines)) == 3
    for line in lines:
        rec = json.loads(line)
        assert rec["schema"] == 1 and rec["muestra"] in rec["hands"][3].split()
        assert run("check", "-", "--json", input=line).exit_code == 0
    text = run("deal", "--seed", "7")
    assert text.exit_code == 0 and '[Muestra "' in text.stdout
    assert run("check", "-", input=text.stdout).exit_code == 0


def test_rules_lists_every_preset_and_parameter():
    r = run("rules", "--json")
    out = json.loads(r.stdout)
    assert set(out["presets"]) == {"online", "app", "narro", "italiano"}
    assert out["presets"]["narro"]["renuncio_penalty"] == "double"
    assert "tie_break" in out["parameters"]
    one = runner.invoke(app, ["rules", "narro,tie_break=mano"], env={"COLUMNS": "250"})
    assert one.exit_code == 0 and "tie_break changed" in one.stdout
    assert "El renuncio se paga doble" in one.stdout
    bad = run("rules", "poker")
    assert bad.exit_code == 2 and "unknown preset 'poker'" in bad.output


def test_solve_table_json_contract():
    r = run("solve", DEAL, "--muestra", "Ab", "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["schema"] == 1 and out["rules"] == "online" and out["trump"] == "b"
    rows = out["results"]
    assert [(x["contract"], x["declarer"]) for x in rows[:2]] == [("paso", None), ("solo", 1)]
    assert len(rows) == 1 + 4 * 3
    for row in rows:
        assert set(row) == {"contract", "declarer", "side", "tricks", "margin", "makes",
                            "game_points"}
        assert (row["margin"] is None) == (row["contract"] in ("cuatrola", "quintola"))
        assert (row["game_points"] > 0) == row["makes"]
    narro = json.loads(run("solve", DEAL, "--muestra", "Ab", "--rules", "narro", "--json").stdout)
    pairs = [x["declarer"] for x in narro["results"] if x["contract"] == "contrasolo"]
    assert pairs == [[1, 2], [1, 4], [2, 3], [3, 4]]
    human = run("solve", DEAL, "--muestra", "Ab")
    assert human.exit_code == 0 and "quintola" in human.stdout


def test_solve_batch_lines():
    deals = run("deal", "--seed", "3", "--count", "2", "--json", "--rules", "app").stdout
    r = run("solve", "--batch", "-", input=deals)
    assert r.exit_code == 0
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 2 and all(x["rules"] == "app" and x["schema"] == 1 for x in lines)
    single = json.loads(deals.splitlines()[0])
    table = run("solve", " / ".join(single["hands"]), "--muestra", single["muestra"],
                "--rules", "app", "--json")
    assert json.loads(table.stdout) == lines[0]


@pytest.mark.parametrize("args,message", [
    ((DEAL.replace("Ab", "Xb"), "--muestra", "Ab"), "bad card 'Xb' (card 5 of seat 4"),
    ((DEAL, "--muestra", "So"), "muestra 'So' is not in seat 4's hand"),
    ((DEAL.replace("Sb", "3b"), "--muestra", "Ab"), "'3b' is dealt twice"),
    (("3o 3c Re Cb 3b / Co Cc Se 3e Sb", "--muestra", "Ab"), "expected 4 hands"),
    ((DEAL,), "--muestra"),
])
def test_solve_bad_input_exits_2(args, message):
    r = run("solve", *args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_solve_batch_bad_line_names_it():
    r = run("solve", "--batch", "-", input='{"muestra": "Sb", "hands": []}\n')
    assert r.exit_code == 2 and "line 1" in r.output


def test_bench_json_small():
    r = run("bench", "--deals", "20", "--reference-deals", "0", "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["schema"] == 1 and set(out["cases"]) == {"tricks3", "margin4", "makes", "ddtable"}
    for case in out["cases"].values():
        assert case["compiled"]["us_per_deal"] > 0 and case["compiled"]["nodes_per_deal"] > 0


@pytest.mark.parametrize("args", [
    ["analyze", str(EXAMPLES / "analysis" / "online-blunder.txt"), "--samples", "5",
     "--no-bids", "--annotate", "{out}"],
    ["analyze", str(EXAMPLES / "analysis" / "online-blunder.txt"), "--samples", "5",
     "--no-bids", "--html", "{out}"],
    ["selfplay", "--a", "random", "--b", "random", "--hands", "1", "--odds-samples", "0",
     "--out", "{out}"],
    ["calibrate", str(EXAMPLES / "records" / "online-renuncio.json"), "--plot", "{out}.png"],
    ["equity", "--plot", "{out}.png"],
])
def test_an_output_file_in_a_missing_folder_is_refused(args, tmp_path):
    """Issue 19 (docs/commands.md, 'What every command shares'): a file output goes into a
    folder that exists; a missing one is refused before any work, naming it."""
    out = tmp_path / "no" / "such" / "out"
    r = run(*[a.replace("{out}", str(out)) for a in args])
    assert r.exit_code == 2, r.output
    assert "no directory" in r.stderr and str(out.parent) in r.stderr
    assert not (tmp_path / "no").exists()


def test_play_save_makes_a_missing_folder_and_says_so(tmp_path):
    folder = tmp_path / "games" / "today"
    r = run("play", "--bots", "random", "--seed", "1", "--save", str(folder), input="")
    assert r.exit_code == 0 and folder.is_dir()
    assert f"made the folder {folder} for the records" in r.stdout
    r = run("play", "--bots", "random", "--seed", "1", "--save", str(folder), input="")
    assert "made the folder" not in r.stdout            # only when it was made
    afile = tmp_path / "a-file"
    afile.write_text("x")
    r = run("play", "--save", str(afile), input="")
    assert r.exit_code == 2 and "it is a file, not a folder" in r.stderr
