"""Regression tests of issue 12 (hardening): one test per class of hostile input, each
checking the root fix (rule parameters, sampling plans, worker threads, the command
line's one error path).  The generated hostile-input suite is tests/test_hostile.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import bidding, budget, cardplay
from cuatrola_solver.analysis import review
from cuatrola_solver.hidden.chunks import iter_chunks, plan_chunks
from cuatrola_solver.hidden.deals import count_deals

from cuatrola_solver.dd import solver
from cuatrola_solver.game.cards import parse_card, parse_cards
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.errors import CuatrolaError, RulesError, quote
from cuatrola_solver.notation.record import read_record, write_text
from cuatrola_solver.game.rules import PARAMETERS, RuleSet, get_rules

from helpers import deal
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.models.preset import Models
from cuatrola_solver.game.view import View
from helpers import as_view
from helpers import hand_knowledge
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.notation.replay import record_of

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"


def run(*args: str, input: str | bytes | None = None):
    return runner.invoke(app, list(args), input=input)


def one_error_line(r, code: int = 2) -> str:
    """The result failed with ``code`` and exactly one 'error: ...' line on stderr."""
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stderr
    return lines[0]


# --- class 1: a negative --seed --------------------------------------------------------

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


# --- classes 2, 3, 10, 12: rule parameters, typed and range-checked in one place ----------

@pytest.mark.parametrize("spec, words", [
    ("online,monte=2147483648", ["'2147483648'", "monte", "0 to 1000"]),
    ("online,monte=-1", ["-1", "monte"]),
    ("online,monte=2147483647", ["monte", "0 to 1000"]),
    ("online,target=0", ["target", "1 to"]),
    ("online,win_by=-1", ["win_by", "1 to"]),
    ("italiano,near_target_from=-3", ["near_target_from"]),
    ("online,max_cantes_per_side=-1", ["max_cantes_per_side", "0 to 4"]),
    ("online,cante_after_tricks=1 9", ["9", "cante_after_tricks"]),
    ({"preset": []}, ["unknown preset []"]),
    ({"cantes_in": 5}, ["cantes_in", "list"]),
    ({"cantes_in": None}, ["cantes_in"]),
    ({"cantes_in": {"paso": 1}}, ["cantes_in"]),
    ({"cantes_in": ["paso", 3]}, ["3", "cantes_in"]),
    ({"cante_after_tricks": [1.0]}, ["1.0", "cante_after_tricks"]),
    ({"cante_after_tricks": [True]}, ["True", "cante_after_tricks"]),
    ({"monte": True}, ["monte"]),
    ({"monte": 10.0}, ["monte"]),
    ({"tie_break": 3}, ["tie_break"]),
    ({"early_end": None}, ["early_end"]),
])
def test_rule_parameters_are_checked(spec, words):
    with pytest.raises(RulesError) as e:
        get_rules(spec)
    for w in words:
        assert w in str(e.value)


def test_rule_checks_hold_for_python_callers_too():
    with pytest.raises(RulesError, match="monte"):
        RuleSet(monte=-1)
    with pytest.raises(RulesError, match="cante_after_tricks"):
        RuleSet(cante_after_tricks=(True,))
    # the edges of every range are accepted, one past them refused
    for p in PARAMETERS.values():
        if p.bounds:
            lo, hi = p.bounds
            assert getattr(get_rules({p.name: lo}), p.name) == lo
            assert getattr(get_rules({p.name: hi}), p.name) == hi
            for bad in (lo - 1, hi + 1):
                with pytest.raises(RulesError):
                    get_rules({p.name: bad})


def test_highest_monte_still_gives_sane_margins():
    """monte=1000 (the most allowed) stays inside the compiled solver's 16-bit bounds: the
    paso margin is the card points and monte of a real play, not a wrapped number."""
    rows = solver.dd_table(*_deal_masks(), get_rules("online,monte=1000"))
    paso = rows[0]
    assert paso["contract"] == "paso"
    assert 1000 - 130 <= abs(paso["margin"]) <= 1000 + 130 + 100


def _deal_masks():
    from cuatrola_solver.game.hand import check_deal
    hands = deal(DEAL)
    return check_deal(hands, parse_card("Ab")), 3


def test_json_rule_lists_round_trip_through_the_text_form():
    rec = read_record('{"rules": {"preset": "online", "cante_after_tricks": [1, 2]}, '
                      '"muestra": "Ab", "hands": ' + _hands_json() + '}')
    assert read_record(write_text(rec)) == rec
    with pytest.raises(CuatrolaError, match="field 'rules': bad value True"):
        read_record('{"rules": {"cante_after_tricks": [true]}, "muestra": "Ab", "hands": '
                    + _hands_json() + '}')


def _hands_json() -> str:
    return "[" + ", ".join(f'"{h.strip()}"' for h in DEAL.split("/")) + "]"


@pytest.mark.parametrize("rules", ["online,monte=2147483648", "online,monte=99999999999999999999",
                                   "online,target=0"])
def test_solver_commands_refuse_out_of_range_rules(rules):
    line = one_error_line(run("solve", DEAL, "--muestra", "Ab", "--rules", rules))
    assert "expected a whole number" in line


# --- classes 5, 6, 7: stdin closed, not UTF-8, other OS errors ------------------------

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


# --- class 8: bench sizes ------------------------------------------------------------

@pytest.mark.parametrize("args", [["--deals", "1000000000000"], ["--reference-deals", "10000000"],
                                  ["--deals", "0"]])
def test_bench_sizes_are_bounded(args):
    one_error_line(run("bench", *args))


# --- class 9: an error in a worker thread is raised, not swallowed --------------------

def test_worker_thread_error_is_raised(monkeypatch):
    if solver._compiled is None:
        pytest.skip("the threads are the compiled backend's")

    class Broken:
        tt_bits = 12

        def batch(self, *args):
            raise OverflowError("boom in a worker")

    monkeypatch.setattr(solver, "_borrow", lambda *sizes: Broken())
    monkeypatch.setattr(solver, "_give_back", lambda s, slot=None: None)
    hands = np.array([[int(m) for m in _deal_masks()[0]]] * 300, dtype=np.int64)
    trumps = np.full(300, 3, dtype=np.int64)
    with pytest.raises(OverflowError, match="boom in a worker"):
        solver.solve_batch(hands, trumps, get_rules(), "paso", (), "tricks", workers=2)


def test_worker_thread_error_in_hint_is_raised(monkeypatch):
    from cuatrola_solver.game.hand import Hand
    rec = read_record((EXAMPLES / "advice" / "hint-trick3.txt").read_text())
    hand = replay(rec)

    if solver._compiled is None:
        pytest.skip("the threads are the compiled backend's")

    class Broken:                       # the search context a hint's worker thread borrows
        def figures_from(self, *args):
            raise OverflowError("boom in a hint worker")

    monkeypatch.setattr(solver, "_borrow", lambda *sizes: Broken())
    monkeypatch.setattr(solver, "_give_back", lambda s, slot=None: None)
    with pytest.raises(OverflowError, match="boom in a hint worker"):
        cardplay.hint(as_view(hand), Budget(samples=50, seed=1, workers=2), Models.NONE)


# --- class 13: sampling plans are bounded -----------------------------------------------

def test_iter_chunks_is_lazy():
    chunks = iter_chunks(10 ** 15, 1, budget.ROUND)
    first = [next(chunks) for _ in range(3)]
    assert [c.start for c in first] == [0, 1000, 2000]
    assert [c.start for c in plan_chunks(2500, 1, 1000)] == [0, 1000, 2000]
    # the same chunks as the whole plan: results do not depend on laziness
    whole = plan_chunks(3000, 1, 1000)
    assert [c.seed.spawn_key for c in first] == [c.seed.spawn_key for c in whole]


def test_advise_with_huge_samples_stops_and_stays_small():
    cards = parse_cards("Ac 3c Ro Co Ab")
    tracemalloc.start()
    a = bidding.advise(View.bidding(cards, parse_card("So"), 2),
                       Budget(samples=10 ** 12, seed=1, workers=1), Models.NONE)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert a.deals <= budget.SETTLED
    assert peak < 50 << 20
    same = bidding.advise(View.bidding(cards, parse_card("So"), 2),
                          Budget(samples=budget.SETTLED, seed=1, workers=1), Models.NONE)
    assert same.to_dict() == a.to_dict() | {"deals": same.deals}


def test_hint_with_huge_samples_stops_near_settled():
    from cuatrola_solver.game.hand import Hand
    rec = read_record((EXAMPLES / "advice" / "hint-trick3.txt").read_text())
    h = cardplay.hint(as_view(replay(rec)), Budget(samples=10 ** 12, seed=3),
                      Models.NONE)
    assert h.deals <= budget.SETTLED
    # a small sample is unchanged by the stopping rule (it stops after MIN_ROUNDS only)
    small = cardplay.hint(as_view(replay(rec)), Budget(samples=1500, seed=3),
                          Models.NONE)
    assert small.deals == 1500


def test_analyze_huge_samples_does_not_go_exact(monkeypatch):
    seen = []
    real = review.hint

    def spy(view, budget, models, **kw):
        seen.append(budget.exact)
        return real(view, budget, models, **kw)

    monkeypatch.setattr(review, "hint", spy)
    rec = read_record((EXAMPLES / "analysis" / "online-blunder.txt").read_text())
    start = replay(type(rec)(rec.rules, rec.muestra, rec.hands, rec.auction, []))
    assert count_deals(hand_knowledge(start, 1)) > budget.SETTLED
    review._hint(start, review._Method(False, 10 ** 12, Models.NONE), 1, 1)
    assert seen == [False]


# --- classes 14, 15, 16: the one-line contract ------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "x"], ["'x'", "--seat"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat=uno"], ["'uno'", "--seat"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "-sx"], ["'x'", "--seat / -s"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "1", "--samples", "0"],
     ["'0'", "--samples"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "1", "--workers", "100000"],
     ["'100000'", "--workers"]),
    (["advise"], ["missing argument"]),
    (["frobnicate"], ["no such command 'frobnicate'"]),
    (["rules", "--bogus"], ["no such option", "--bogus"]),
    (["deal", "--count"], ["--count", "requires an argument"]),
])
def test_usage_errors_are_one_line(args, words):
    line = one_error_line(run(*args))
    for w in words:
        assert w in line


def test_no_command_prints_help_and_one_error_line():
    r = run()
    assert r.exit_code == 2
    assert "Usage" in r.stdout
    import typer.main
    names = typer.main.get_command(app).list_commands(None)     # in the help's order
    assert r.stderr.splitlines() == ["error: no command given: expected one of "
                                     + ", ".join(names)]
    assert {"advise", "hint", "play", "solve", "check", "analyze", "selfplay"} <= set(names)


def test_help_still_exits_0():
    r = run("solve", "--help")
    assert r.exit_code == 0 and "--muestra" in r.stdout and not r.stderr


def test_broken_pipe_exits_0_quietly():
    p = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "deal", "--count", "200000",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 0
    assert err == b""


def test_long_tokens_are_cut_in_messages():
    r = run("solve", DEAL, "--muestra", "A" * 1_000_000)
    line = one_error_line(r)
    assert len(line) < 300 and "1,000,000 characters" in line
    assert quote("x" * 41).endswith("…' (41 characters)") and quote("Ao") == "'Ao'"


def test_internal_errors_are_one_line_with_exit_1(monkeypatch):
    from cuatrola_cli import cmd_rules

    def broken(*a, **k):
        raise KeyError("oops")

    monkeypatch.setattr(cmd_rules, "get_rules", broken)
    line = one_error_line(run("rules", "online"), code=1)
    assert "internal error (KeyError" in line


# --- class 11: a trick with more cards than seats in play --------------------------------

BLUNDER = (EXAMPLES / "analysis" / "online-blunder.txt").read_text()


def _check(text: str):
    return run("check", "-", input=text)


def test_extra_cards_in_the_last_trick_are_refused():
    line = one_error_line(_check(BLUNDER.split("2. Ao")[0].replace("1. Sb Ab Cb 3b",
                                                                   "1. Sb Ab Cb 3b Ao")))
    assert line == ("error: stdin, line 10, column 16: trick 1 has 5 cards: expected 4, one "
                    "per seat in play; card 5 ('Ao') belongs to the next trick, which begins "
                    "with its number ('2.')")
    # the cante that followed is no longer taken as sung after a trick nobody checked
    one_error_line(_check(BLUNDER.split("2. Ao")[0].replace(
        "1. Sb Ab Cb 3b", "1. Sb Ab Cb 3b Ao\ncante 2 oros")))


def test_extra_cards_in_a_json_trick_are_refused():
    rec = json.loads((EXAMPLES / "records" / "online-renuncio.json").read_text())
    rec["auction"] = ["paso"] * 4
    rec["tricks"] = [["Ac", "3c", "Ao", "Ab", "Ro"]]
    line = one_error_line(run("check", "-", input=json.dumps(rec)))
    assert line.startswith("error: stdin, tricks[0][4]: trick 1 has 5 cards: expected 4")


# --- class 18: replay errors say where and why, in players' terms ------------------------

@pytest.mark.parametrize("old, new, expected", [
    ("3. 3c Sc Cc Rc", "3. 3c Sc Cc Sb",
     "stdin, line 12, column 13: card 'Sb' in trick 3: seat 1 already played it in trick 1"),
    ("2. Ao Ro So Co", "2. Co Ao Ro So",
     "stdin, line 11, column 4: card 'Co' in trick 2 is seat 1's, but seat 2 leads trick 2: "
     "it won trick 1; a trick is written from its leader, in playing order"),
    ("3. 3c Sc Cc Rc", "3. 3c Cc Sc Rc",
     "stdin, line 12, column 7: card 'Cc' in trick 3 is seat 4's, but seat 3 plays next in "
     "trick 3 (led by seat 2, who won trick 2); a trick is written from its leader, in "
     "playing order"),
    ('[Seat1 "Co 3o Rc Se Sb"]', '[Seat1 "Co 3o Rc Se"]',
     "stdin, line 3, column 1: bad deal: seat 1 holds 4 cards (Co 3o Rc Se): expected 5"),
    ('[Seat4 "So Cc Ce Ae 3b"]', '[Seat4 "So Cc Ce Ae Sb"]',
     "stdin, line 6, column 1: bad deal: card 'Sb' is dealt twice: to seat 1 and to seat 4"),
    ('[Muestra "3b"]', '[Muestra "Ab"]',
     "stdin, line 2, column 1: bad deal: the muestra 'Ab' is not in seat 4's hand"),
    ("paso paso paso paso", "paso paso paso paso paso",
     "stdin, line 7, column 1: the auction has 5 calls: expected 4"),
    ("paso paso paso paso", "solo solo paso paso",
     "stdin, line 7, column 1: auction, call 2 ('solo')"),
    ("5. 3e Ce Se Re", "5. 3e Ce Se Re\ncante 2 oros after 2",
     "stdin, line 15, column 1: seat 2 may not sing oros after trick 2: "
     "seat 2 does not hold the rey and the caballo of oros"),
    ("5. 3e Ce Se Re", "5. 3e Ce Se Re\n6. Co",
     "stdin, line 15, column 4: card 'Co' in trick 6: the hand is over after trick 5"),
    ('[Rules "online"]', '[Rules "online"]\n[Score "x"]',
     "stdin, line 2, column 1: bad score 'x' in tag [Score]: expected A-B"),
])
def test_replay_errors_say_where_and_why(old, new, expected):
    assert old in BLUNDER
    line = one_error_line(_check(BLUNDER.replace(old, new)))
    assert line.startswith("error: " + expected), line


def test_replay_errors_name_the_file(tmp_path):
    f = tmp_path / "mine.txt"
    f.write_text(BLUNDER.replace("3. 3c Sc Cc Rc", "3. 3c Sc Cc Sb"))
    line = one_error_line(run("analyze", str(f)))
    assert line.startswith(f"error: {f}, line 12, column 13: card 'Sb' in trick 3: seat 1 "
                           f"already played it")


def test_replay_errors_in_json_give_the_field_path():
    rec = json.loads((EXAMPLES / "records" / "online-renuncio.json").read_text())
    rec["tricks"] = [["Ac", "Ae", "Sb"], ["Ac"]]
    line = one_error_line(run("check", "-", input=json.dumps(rec)))
    assert line.startswith("error: stdin, tricks[1][0]: card 'Ac' in trick 2")
    rec = json.loads((EXAMPLES / "records" / "online-renuncio.json").read_text())
    rec["cantes"] = [{"after_trick": 1, "seat": 3, "suit": "c"},
                     {"after_trick": 7, "seat": 1, "suit": "o"}]
    line = one_error_line(run("check", "-", input=json.dumps(rec)))
    assert line.startswith("error: stdin, cantes[1]: cante of seat 1 after trick 7")


def test_a_card_after_an_early_end_says_when_the_hand_was_decided():
    import random
    from cuatrola_solver.notation.record import write_text as write
    from helpers import random_game
    rng = random.Random(5)
    for _ in range(200):
        hand = random_game(rng, get_rules("italiano"), "quintola")
        if len(hand.tricks) < 5 and not hand.renuncios:
            break
    else:
        pytest.fail("no early end found")
    done = len(hand.tricks)
    rec = record_of(hand)
    seat_cards = [c for c in rec.hands[0] if all(c not in t for t in rec.tricks)]
    rec.tricks.append([seat_cards[0]])
    line = one_error_line(_check(write(rec)))
    assert f"in trick {done + 1}: the hand was decided after trick {done} (the quintola " \
           f"ends as soon as the tricks decide it)" in line
    assert "line " in line and "column " in line


def test_records_built_in_code_have_no_places():
    from cuatrola_solver.game.hand import Hand
    rec = read_record(BLUNDER.replace("3. 3c Sc Cc Rc", "3. 3c Sc Cc Sb"))
    code = type(rec)(rec.rules, rec.muestra, rec.hands, rec.auction, rec.tricks,
                     comment=rec.comment)
    with pytest.raises(CuatrolaError) as e:
        replay(code)
    assert str(e.value) == "card 'Sb' in trick 3: seat 1 already played it in trick 1"
    assert code == rec   # where a record came from is not part of what it says
