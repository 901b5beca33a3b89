"""What every command shares (cuatrola_cli.common): empty and unreadable input, a bad
seat or seed said one way, output files, --rules for a record."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import one_error_line, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("command", [["check"], ["hint", "--samples", "5"],
                                     ["analyze", "--samples", "2", "--no-bids"]])
@pytest.mark.parametrize("data", ["", "\n  \n", "\ufeff"])
def test_empty_input_is_said_as_such(command, data, tmp_path, monkeypatch):
    """'check -' on empty stdin said 'missing tag [Muestra]'."""
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
    """Three wordings of one mistake; now check_seat's everywhere."""
    r = run(*args, "--seat", seat, input="")
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: bad seat {seat} in --seat: expected 1 to 4\n"


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
    """A file output goes into a
    folder that exists; a missing one is refused before any work, naming it."""
    out = tmp_path / "no" / "such" / "out"
    r = run(*[a.replace("{out}", str(out)) for a in args])
    assert r.exit_code == 2, r.output
    assert "no directory" in r.stderr and str(out.parent) in r.stderr
    assert not (tmp_path / "no").exists()


# --- a negative --seed --------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["deal", "--seed", "-1"],
    ["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "1", "--seed", "-1"],
    ["hint", "-", "--seed", "-5"],
    ["analyze", "-", "--seed", "-1"],
    ["bench", "--seed", "-1"],
])
def test_negative_seed_is_bad_input(args):
    line = one_error_line(run(*args, input=""))
    assert "'-" in line and "--seed" in line


# --- stdin closed, not UTF-8, other OS errors ------------------------

def _cli(*args: str, stdin=None, env=None, input: bytes | None = None):
    return subprocess.run([sys.executable, "-m", "cuatrola_cli.main", *args], stdin=stdin,
                          input=input, capture_output=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_closed_stdin_is_bad_input():
    # started with fd 0 closed (cuatrola check - <&-): sys.stdin is None
    r = subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "check", "-"],
                       capture_output=True, timeout=60, preexec_fn=lambda: os.close(0))
    assert r.returncode == 2, r.stderr
    assert r.stderr.decode().splitlines() == ["error: cannot read the record from stdin: stdin "
                                              "is closed"]


@pytest.mark.parametrize("stdin", [None, "closed", "ebadf"])
def test_every_reader_of_stdin_refuses_a_closed_one(monkeypatch, stdin):
    """hint, analyze and check all read '-' through read_input: in-process, the three
    ways stdin can be gone (None, a closed file, a closed descriptor)."""
    import io
    from cuatrola_cli import common

    if stdin == "closed":
        stdin = io.TextIOWrapper(io.BytesIO(b"x"))
        stdin.close()
    elif stdin == "ebadf":
        class Gone(io.RawIOBase):
            def readable(self):
                return True

            def readinto(self, b):
                raise OSError(9, "Bad file descriptor")
        stdin = io.TextIOWrapper(io.BufferedReader(Gone()))
    monkeypatch.setattr(sys, "stdin", stdin)
    with pytest.raises(Exception) as e:
        common.read_input("-")
    assert type(e.value).__name__ == "Exit" and e.value.exit_code == 2


def test_non_utf8_stdin_under_strict_encoding():
    r = _cli("check", "-", input=b"[Muestra \"3o\"]\xff\xfe", env={"PYTHONIOENCODING": "utf-8:strict"})
    assert r.returncode == 2
    assert r.stderr.decode().splitlines() == [
        "error: stdin: not UTF-8 text: byte 0xff at offset 14 cannot be read (save the file "
        "as UTF-8)"]


def test_non_utf8_file(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("[Muestra \"3o\"] ; año".encode("latin-1"))
    line = one_error_line(run("check", str(bad)))
    assert "not UTF-8" in line and "offset 18" in line


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
def test_os_error_reading_a_file():
    line = one_error_line(run("check", "/proc/self/mem"))
    assert "cannot read record file '/proc/self/mem'" in line


def test_directory_and_nul_in_file_name(tmp_path):
    assert "Is a directory" in one_error_line(run("check", str(tmp_path)))
    one_error_line(run("analyze", "a\0b"))


def test_huge_input_is_refused_not_read_whole(monkeypatch, tmp_path):
    from cuatrola_cli import common
    monkeypatch.setattr(common, "MAX_INPUT_BYTES", 100)
    big = tmp_path / "big.txt"
    big.write_text("; " + "x" * 200)
    assert "too big" in one_error_line(run("check", str(big)))


RENUNCIO = EXAMPLES / "records" / "online-renuncio.json"      # solo, renuncio in trick 1


# --- --rules with records --------------------------------------------------------------

def _without_rules(obj_text: str) -> str:
    obj = json.loads(obj_text)
    del obj["rules"]
    return json.dumps(obj)


def test_rules_option_sets_the_rules_of_a_record_without_them():
    text = _without_rules(RENUNCIO.read_text())
    plain = json.loads(run("check", "-", "--json", input=text).stdout)
    narro = json.loads(run("check", "-", "--json", "--rules", "narro", input=text).stdout)
    assert plain["result"]["game_points"] == 2          # online: the solo's value
    assert narro["result"]["game_points"] == 4          # narro: a renuncio is paid double
    r = run("check", "-", "--rules", "Narro", input=text)
    assert r.exit_code == 0 and "rules: narro" in r.stdout and "note:" not in r.stderr


def test_a_records_rules_tag_wins_over_the_option_with_a_note():
    r = run("check", str(RENUNCIO), "--json", "--rules", "narro")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["result"]["game_points"] == 2     # online's, not narro's
    assert "note: the record's Rules tag (online) is used, not --rules 'narro'" in r.stderr
    same = run("check", str(RENUNCIO), "--rules", "online")
    assert same.exit_code == 0 and "note:" not in same.stderr


def test_rules_option_bad_value_exits_2():
    r = run("check", str(RENUNCIO), "--rules", "nope")
    assert r.exit_code == 2 and "unknown preset 'nope'" in r.stderr


def test_analyze_takes_rules_for_a_record_without_them():
    text = _without_rules(RENUNCIO.read_text())
    r = run("analyze", "-", "--json", "--rules", "narro", "--samples", "20", "--seed", "1",
            "--no-bids", input=text)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["rules"] == "narro" and d["result"]["game_points"] == 4


@pytest.mark.parametrize("text", ["plain words", "the [lab] extra", "[bold]x[/bold]",
                                  "a [1] b", "[ not a tag ]", "ends in \\", "ends in \\\\",
                                  "\\[lab] escaped", "[#fff] [@click] [/]", "x [lab",
                                  "two\n\nparagraphs  [lab]\n  wrapped"])
def test_help_text_shown_as_typed_without_rich_for_plain_text(text):
    """plain_help escapes just what rich's own escape does, importing rich only then."""
    from rich.markup import escape

    from cuatrola_cli.common import plain_help
    joined = "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))
    assert plain_help(text) == escape(joined)
