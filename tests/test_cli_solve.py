"""``cuatrola solve``: the table's JSON, bad input, and ``--batch``: the same tables as
one deal at a time whatever the workers, streaming, and one line on stderr for each bad
line."""

from __future__ import annotations

import itertools
import json
import queue
import re
import subprocess
import sys
import threading

import pytest

from cuatrola_solver.dd import batch
from cuatrola_solver.game.rules import PRESETS

from helpers import one_error_line, run

CLI = [sys.executable, "-c", "from cuatrola_cli.main import main; main()"]


def deals(count: int, seed: int = 3, rules: str = "online") -> list[str]:
    r = run("deal", "--seed", str(seed), "--count", str(count), "--json", "--rules", rules)
    assert r.exit_code == 0
    return r.stdout.splitlines()


GOOD = deals(6)
BAD_HANDS = '{"muestra": "Sb", "hands": []}'


def solved(line: str) -> dict:
    obj = json.loads(line)
    r = run("solve", " / ".join(obj["hands"]), "--muestra", obj["muestra"], "--rules",
            json.dumps(obj["rules"]) if isinstance(obj["rules"], dict) else obj["rules"],
            "--json")
    assert r.exit_code == 0
    return json.loads(r.stdout)


def stderr_lines(r) -> list[str]:
    return [x for x in r.stderr.splitlines() if x]


# --- the tables ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", list(PRESETS))
def test_batch_equals_single_deals_whatever_the_workers(preset):
    lines = deals(3, seed=len(preset), rules=preset)
    want = [solved(x) for x in lines]
    for workers in ("1", "2", "3"):
        r = run("solve", "--batch", "-", "--workers", workers, input="\n".join(lines) + "\n")
        assert r.exit_code == 0 and r.stderr == ""
        assert [json.loads(x) for x in r.stdout.splitlines()] == want


def test_lines_in_input_order_across_chunks_and_threads():
    """Many small chunks in flight on several threads, mixed rules: the order and the
    values are those of one thread and one chunk."""
    lines = deals(30, seed=5) + deals(30, seed=6, rules="narro")
    lines = [x for pair in zip(lines[:30], lines[30:]) for x in pair]
    one = [r for chunk in batch.solve_lines(lines, "x", PRESETS["online"], 1, 1000)
           for r in chunk]
    many = [r for chunk in batch.solve_lines(lines, "x", PRESETS["online"], 3, 4)
            for r in chunk]
    assert [r.line for r in one] == list(range(1, 61)) and one == many
    assert {r.report["rules"] for r in one} == {"online", "narro"}


def test_streams_lazily():
    """An endless input still gives its first chunk: lines are read as they are solved,
    a bounded number ahead."""
    read = []

    def endless():
        for n in itertools.count(1):
            read.append(n)
            yield GOOD[n % len(GOOD)]

    stream = batch.solve_lines(endless(), "x", PRESETS["online"], workers=2, chunk=8)
    first = next(stream)
    assert [r.line for r in first] == list(range(1, 9)) and first[0].report
    # two chunks queued, at most 2 * workers + 1 in flight, one being gathered
    assert len(read) <= 8 * (2 + 2 * 2 + 1 + 1) + 1
    stream.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_output_appears_while_the_input_is_still_open(workers):
    """A slow producer: three lines, then a pause with stdin open.  Their tables come
    out before the input ends (a chunk is cut short when the input pauses)."""
    proc = subprocess.Popen([*CLI, "solve", "--batch", "-", "--workers", workers],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(("\n".join(GOOD[:3]) + "\n").encode())
        proc.stdin.flush()
        lines: queue.Queue = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout],
                                  daemon=True)
        reader.start()
        got = [json.loads(lines.get(timeout=60)) for _ in range(3)]
        assert proc.poll() is None and got == [solved(g) for g in GOOD[:3]]
    finally:
        proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    reader.join(timeout=60)
    assert lines.empty()


def test_an_input_error_comes_after_the_lines_before_it():
    def lines():
        yield from GOOD[:3]
        raise OSError("the disk is gone")

    got = []
    with pytest.raises(OSError, match="disk"):
        for chunk in batch.solve_lines(lines(), "x", PRESETS["online"], workers=2, chunk=2):
            got += chunk
    assert [r.report for r in got] == [solved(g) for g in GOOD[:3]]


def test_rules_default_and_blank_lines():
    obj = json.loads(GOOD[0])
    del obj["rules"]
    text = "\n  \n" + json.dumps(obj) + "\r\n\n"
    r = run("solve", "--batch", "-", "--rules", "app", input=text)
    assert r.exit_code == 0
    (out,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert out["rules"] == "app" and out == solved(json.dumps({**obj, "rules": "app"}))


# --- bad lines -----------------------------------------------------------------------------

def test_first_bad_line_stops_after_the_good_lines_before_it():
    text = "\n".join([GOOD[0], GOOD[1], BAD_HANDS, GOOD[2]]) + "\n"
    r = run("solve", "--batch", "-", input=text)
    assert r.exit_code == 2
    assert [json.loads(x) for x in r.stdout.splitlines()] == [solved(GOOD[0]), solved(GOOD[1])]
    (err,) = stderr_lines(r)
    assert err.startswith("error: stdin, line 3") and "Traceback" not in r.output


def test_keep_going_reports_every_bad_line_and_keeps_the_good_ones():
    text = "\n".join([BAD_HANDS, GOOD[0], "{not json", GOOD[1], "[1, 2]", GOOD[2]]) + "\n"
    r = run("solve", "--batch", "-", "--keep-going", "--workers", "2", input=text)
    assert r.exit_code == 2
    assert [json.loads(x) for x in r.stdout.splitlines()] == [solved(g) for g in GOOD[:3]]
    errs = stderr_lines(r)
    assert [re.match(r"error: stdin, line (\d+)[:,] ", e)[1] for e in errs] == ["1", "3", "5"]
    assert "not valid JSON" in errs[1]
    good = run("solve", "--batch", "-", "--keep-going", input="\n".join(GOOD[:2]))
    assert good.exit_code == 0 and len(good.stdout.splitlines()) == 2


def test_file_and_line_even_when_the_message_names_the_file(tmp_path, monkeypatch):
    """A file called 'hands': the message 'field 'hands': ...' contains its name, and
    the line must still be given."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hands").write_text(GOOD[0] + "\n" + BAD_HANDS + "\n")
    r = run("solve", "--batch", "hands")
    assert r.exit_code == 2
    (err,) = stderr_lines(r)
    assert err.startswith("error: hands, line 2, field 'hands': ")
    assert len(r.stdout.splitlines()) == 1


@pytest.mark.parametrize("line,says", [
    ('{"muestra": "Ab", "hands": [' + "1" * 5000 + "]}", "4300 digits"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"muestra": "Ab", "hands": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"muestra": "Ab", "hands": 1e999999}', "field 'hands'"),
    (GOOD[0].replace('"rules": "online"', '"rules": {"preset": "online", "monte": 2147483648}'),
     "bad value 2147483648 for monte"),
])
def test_hostile_lines_give_one_line(line, says):
    for keep in ((), ("--keep-going",)):
        r = run("solve", "--batch", "-", *keep, input=GOOD[0] + "\n" + line + "\n" + GOOD[1])
        assert r.exit_code == 2 and "Traceback" not in r.output
        (err,) = stderr_lines(r)
        assert re.match("error: stdin, line 2[:,] ", err) and says in err and len(err) < 300
        assert len(r.stdout.splitlines()) == (2 if keep else 1)


def test_not_utf8_line():
    r = run("solve", "--batch", "-", "--keep-going",
            input=GOOD[0].encode() + b"\n" + b'{"muestra": "\xff"}\n' + GOOD[1].encode())
    assert r.exit_code == 2 and len(r.stdout.splitlines()) == 2
    (err,) = stderr_lines(r)
    assert err.startswith("error: stdin, line 2: not UTF-8")


@pytest.mark.parametrize("sep,good", [
    ("\r", True), ("\u2028", True), ("\x85", True), ("\x0c", False), ("\x1c", False)])
def test_lines_split_on_newline_only(sep, good):
    """A bare CR between tokens (JSON whitespace), U+2028 or NEL at the end of a card
    (space around a card is fine): a good line; a raw form feed or file separator (not
    allowed in JSON): one bad line.  Never a line break, so the numbers hold."""
    obj = json.loads(GOOD[0])
    text, muestra = json.dumps(obj), f'"muestra": "{obj["muestra"]}'
    line2 = text.replace('"hands": ', '"hands":' + sep) if sep == "\r" \
        else text.replace(muestra, muestra + sep)
    assert sep in line2
    r = run("solve", "--batch", "-", "--keep-going",
            input="\n".join([GOOD[1], line2, GOOD[2]]) + "\n")
    outs = [json.loads(x) for x in r.stdout.splitlines()]
    if good:
        assert r.exit_code == 0 and outs == [solved(g) for g in (GOOD[1], GOOD[0], GOOD[2])]
    else:
        assert r.exit_code == 2 and outs == [solved(GOOD[1]), solved(GOOD[2])]
        (err,) = stderr_lines(r)
        assert err.startswith("error: stdin, line 2: not valid JSON")


def test_byte_order_mark_is_skipped():
    r = run("solve", "--batch", "-", input=b"\xef\xbb\xbf" + GOOD[0].encode())
    assert r.exit_code == 0 and json.loads(r.stdout) == solved(GOOD[0])


@pytest.mark.parametrize("args,says", [
    (("--batch", "no-such-file.jsonl"), "not found"),
    (("--batch", "."), "cannot read"),
    (("--batch", "/proc/self/mem"), "cannot read /proc/self/mem"),    # EIO on reading
    (("--keep-going",), "--keep-going goes with --batch"),
])
def test_bad_options_exit_2(args, says):
    r = run("solve", *args)
    assert r.exit_code == 2 and says in r.stderr and len(stderr_lines(r)) == 1


# --- the process: closed stdin, broken pipe -------------------------------------------

def test_closed_stdin_exits_2():
    done = subprocess.run(["bash", "-c", 'exec "$@" <&-', "-", *CLI, "solve", "--batch", "-"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "stdin" in done.stderr and "Traceback" not in done.stderr


def test_broken_pipe_exits_quietly(tmp_path):
    """``cuatrola solve --batch big.jsonl | head -1``: exit 0, nothing on stderr."""
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(GOOD * 100) + "\n")          # ~900 KB of output, > a pipe
    for workers in ("1", "2"):
        proc = subprocess.Popen([*CLI, "solve", "--batch", str(big), "--workers", workers],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == 0 and err == b""
        assert json.loads(first)["schema"] == 1


DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"


@pytest.mark.parametrize("rules", ["online,monte=2147483648", "online,monte=99999999999999999999",
                                   "online,target=0"])
def test_solver_commands_refuse_out_of_range_rules(rules):
    line = one_error_line(run("solve", DEAL, "--muestra", "Ab", "--rules", rules))
    assert "expected a whole number" in line


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
