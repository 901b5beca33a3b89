"""``cuatrola record`` driven through a pipe (a subprocess, as a person's terminal or a
script drives it): the same record as written by hand, check's verdict, undo, refused
entries, renuncios in known and unknown hands, the record so far at the end of input."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from cuatrola_solver.notation.record import read_text

from helpers import run
from test_hand_entry import FULL, UNSEEN

FULL_ARGS = ["-r", "narro,tie_break=mano", "--hand", "1=So Se Ae Cb 3b",
             "--hand", "2=Ro 3o Ac Ce Rb", "--hand", "3=Ao Sc Cc Rc Ab",
             "--hand", "4=Co 3c Re 3e Sb", "--players", "Ana,,Eva,"]
FULL_INPUT = "Re\npaso\npaso\nsolo\npaso\nRo Ao Co\ncante 3 copas\nCc 3c Ac\nRb Ab Sb\n" \
             "Sc 3e Ce\nRe 3o Rc\n"
UNSEEN_ARGS = ["--hand", "2=Co Ro Sb Rb 3b"]
UNSEEN_INPUT = "Ab\npaso paso paso paso\nSc Sb Rc 3c\ncante 2 oros\nRo Se So Ao\n" \
               "Ac Rb 3e Ab\nCe Ae 3b Re\nCo 3o Cb Cc\nend\n"


def record(args, text: str, **kw) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "record", *args],
                          input=text, capture_output=True, text=True, env=env, timeout=60,
                          **kw)


def check(text: str) -> str:
    r = run("check", "-", input=text)
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_a_hand_piped_gives_the_record_written_by_hand_and_its_check(tmp_path):
    out = tmp_path / "hand.txt"
    p = record([*FULL_ARGS, "-o", str(out)], FULL_INPUT)
    assert p.returncode == 0, p.stderr
    assert out.read_text() == FULL
    assert p.stdout == check(FULL)
    assert p.stderr == f"record written to {out}\n"
    # without -o the record is printed, then a blank line, then the verdict
    p = record(FULL_ARGS, FULL_INPUT)
    assert p.stdout == FULL + "\n" + check(FULL)


def test_a_renuncio_in_an_unknown_hand_is_warned_when_proved_and_agrees_with_check(tmp_path):
    out = tmp_path / "hand.txt"
    p = record([*UNSEEN_ARGS, "-o", str(out)], UNSEEN_INPUT)
    assert p.returncode == 0, p.stderr
    assert out.read_text() == UNSEEN
    assert p.stdout == check(UNSEEN)
    warnings = [x for x in p.stderr.splitlines() if x.startswith("warning:")]
    assert warnings == ["warning: renuncio: trick 2: seat 3 played Se against asistir: it held "
                        "3o, as its card in trick 5 proves; the hand ends: side B scores 1 "
                        "(the paso's value, online rules)"]
    assert "renuncio: trick 2: seat 3 played Se against asistir" in p.stdout


def test_a_renuncio_in_a_known_hand_is_warned_at_once_and_kept():
    lines = FULL_INPUT.replace("Ro Ao Co\ncante 3 copas\nCc 3c Ac",
                               "Ro Sc Co\nundo\nundo\nAo Co\ncante 3 copas\nCc 3c Ac")
    p = record(FULL_ARGS, lines)
    assert p.returncode == 0, p.stderr
    assert "warning: renuncio: trick 1: seat 3 played Sc against asistir (legal: Ao); the " \
           "hand ends: side B scores 4 (twice the solo's value, narro rules)" in p.stderr
    assert p.stdout == FULL + "\n" + check(FULL)        # undone, then entered right
    kept = record(FULL_ARGS, "Re\npaso paso solo paso\nRo Sc Co\n")
    rec = read_text(kept.stdout.split("\n\ncontract:")[0])
    assert rec.tricks[0] == read_text(FULL).tricks[0][:1] + [rec.tricks[0][1]] + \
        read_text(FULL).tricks[0][2:]
    assert "renuncio: trick 1: seat 3 played Sc against asistir" in kept.stdout
    assert "result: side B scores 4 (by the first renuncio)" in kept.stdout


def test_undo_back_to_the_start_and_again_gives_the_same_record():
    undo_all = FULL_INPUT + "undo\n" * 21   # 1 muestra, 4 calls, 15 cards, 1 cante
    p = record(FULL_ARGS, undo_all + FULL_INPUT)
    assert p.returncode == 0, p.stderr
    assert p.stdout == FULL + "\n" + check(FULL)
    assert p.stderr.count("undone: ") == 21 and "error" not in p.stderr
    nothing = record(FULL_ARGS, "undo\n")
    assert "error: nothing to undo: no entry yet" in nothing.stderr


def test_every_illegal_entry_gets_its_message_and_changes_nothing():
    bad = ("Re\npaso\npaso\nsolo\npaso\nRo\nAo\nCo\ncante 3 oros\nCc\n3c\nAc\n"
           "Ro\nRe\ncante 2 bastos\nXq\n")
    p = record(FULL_ARGS, bad + "Rb Ab Sb\nSc 3e Ce\nRe 3o Rc\n")
    assert p.returncode == 0, p.stderr
    errors = [x for x in p.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 5, p.stderr
    assert "seat 2 already played it in trick 1" in errors[1]            # Ro again
    assert "seat 3 does not hold the rey and the caballo of oros" in errors[0]
    assert "card 'Re' in trick 3 is seat 4's, but seat 2 leads trick 3" in errors[2]
    assert "seat 2 does not hold the rey and the caballo of bastos" in errors[3]
    assert "bad card 'Xq'" in errors[4]
    # nothing of it is in the record: without the cante it is the record written by hand
    rec = read_text(p.stdout.split("\n\ncontract:")[0])
    want = read_text(FULL)
    want.cantes = []
    assert rec == want


def test_the_muestra_before_the_dealer_plays_it_is_refused():
    p = record(["--hand", "2=Co Ro Sb Rb 3b"], "Ab\npaso paso paso paso\nAb\nSc\n")
    assert "error: card 'Ab' in trick 1 is seat 4's (the muestra, which the dealer keeps), " \
           "but seat 1 leads trick 1" in p.stderr
    assert read_text(p.stdout.split("\n\ncontract:")[0]).tricks == [[read_text(
        '[Muestra "Sc"]').muestra]]


def test_the_end_of_input_writes_the_record_so_far_and_question_mark_helps(tmp_path):
    out = tmp_path / "partial.txt"
    p = record(["-o", str(out)], "Ab\npaso paso paso paso\nSc Sb\n?\n")
    assert p.returncode == 0, p.stderr
    assert "1. Sc Sb\n" in out.read_text()
    assert "seat 3 plays: " in p.stderr
    assert "result: not decided yet (0 tricks played)" in p.stdout
    empty = record([], "")
    assert empty.returncode == 2
    assert empty.stderr == "error: nothing to write: no muestra was entered\n"


def test_ctrl_c_writes_the_record_so_far(tmp_path):
    out = tmp_path / "interrupted.txt"
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "record", "-o", str(out)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None
    proc.stdin.write("Ab\npaso paso paso paso\nSc\n")
    proc.stdin.flush()
    deadline = time.time() + 30
    while time.time() < deadline:     # wait until the entries are read (the prompt waits)
        time.sleep(0.5)
        if _read_all(proc):
            break
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "1. Sc\n" in out.read_text()


def _read_all(proc: subprocess.Popen) -> bool:
    """Whether the process has read every line given (it blocks on the next one)."""
    try:
        with open(f"/proc/{proc.pid}/wchan") as f:
            return f.read().strip() not in ("", "0")
    except OSError:
        return True


def test_bad_options_are_one_line_errors(tmp_path):
    for args, needle in ((["--hand", "5=Co"], "SEAT=CARDS"),
                         (["--players", "Ana"], "four names"),
                         (["-o", str(tmp_path)], "is a directory")):
        p = record(args, "")
        assert p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1
    assert not list(Path(tmp_path).iterdir())


def test_a_match_sheet_takes_hands_to_the_target(tmp_path):
    sheet = tmp_path / "match.json"
    first = record(["-r", "online,target=3", "--players", "Ana,Luis,Eva,Marta",
                    "--match", str(sheet), *FULL_ARGS[2:-2]], FULL_INPUT)
    assert first.returncode == 0, first.stderr
    assert first.stdout.endswith(
        "match after hand 1: pair 1 (Ana and Eva) 0 - pair 2 (Luis and Marta) 2 (to 3)\n"
        "next hand: Ana deals\n")
    rec = read_text(first.stdout.split("\n\ncontract:")[0])
    assert rec.players == ("Ana", "Luis", "Eva", "Marta") and str(rec.score) == "0-0"
    second = record(["--match", str(sheet)], FULL_INPUT)
    assert second.returncode == 0, second.stderr
    rec = read_text(second.stdout.split("\n\ncontract:")[0])
    assert rec.players == ("Luis", "Eva", "Marta", "Ana") and str(rec.score) == "2-0"
    assert "pair 1 (Ana and Eva) 2 - pair 2 (Luis and Marta) 2 (to 3)" in second.stdout
    third = record(["--match", str(sheet)], FULL_INPUT)
    assert "pair 2 (Luis and Marta) wins the match\n" in third.stdout
    assert "  Ana: 0 renuncios (cost 0)" in third.stdout
    over = record(["--match", str(sheet)], FULL_INPUT)
    assert over.returncode == 2 and "is over: pair 2 (Luis and Marta) won it" in over.stderr
    wrong = record(["--match", str(sheet), "-r", "narro"], FULL_INPUT)
    assert wrong.returncode == 2 and "is played under online,target=3" in wrong.stderr


def test_a_hand_not_decided_is_not_added_to_the_match(tmp_path):
    sheet = tmp_path / "match.json"
    p = record(["--match", str(sheet)], "Re\npaso paso solo paso\nRo Ao Co\n")
    assert p.returncode == 2 and "not added to the match sheet" in p.stderr
    assert "1. Ro Ao Co" in p.stdout            # the record is written all the same
    assert not sheet.exists()


def test_a_line_too_long_is_refused_and_the_next_is_read():
    p = record(["--hand", "2=Co Ro Sb Rb 3b"], "x" * 5000 + "\nAb\npaso paso paso paso\nSc\n")
    assert p.returncode == 0, p.stderr
    assert "error: a line of more than 1000 characters" in p.stderr
    assert "1. Sc\n" in p.stdout


def test_a_bad_token_is_told_in_spanish_with_its_place(monkeypatch):
    """Under CUATROLA_LANG=es the place of a bad muestra, call or card is Spanish too."""
    monkeypatch.setenv("CUATROLA_LANG", "es")
    r = record([], "Xx\nSo\nsolito\npaso paso paso paso\nAc 3c Rc Cc\nYy\nend\n")
    errors = [line for line in r.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 3, r.stderr
    assert "(la muestra)" in errors[0] and "(apuesta 1)" in errors[1], errors
    assert "(baza 2)" in errors[2], errors
    assert not any(w in r.stderr for w in ("(trick", "(call", "(the muestra")), r.stderr
