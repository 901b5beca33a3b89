"""Replaying a record (cuatrola_solver.notation.replay): a trick with more cards than
seats in play, and errors that say where and why, in players' terms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import record_of, replay

from helpers import one_error_line, run

ROOT = Path(__file__).resolve().parent.parent


EXAMPLES = ROOT / "examples"


# --- a trick with more cards than seats in play --------------------------------

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


# --- replay errors say where and why, in players' terms ------------------------

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
    rec = read_record(BLUNDER.replace("3. 3c Sc Cc Rc", "3. 3c Sc Cc Sb"))
    code = type(rec)(rec.rules, rec.muestra, rec.hands, rec.auction, rec.tricks,
                     comment=rec.comment)
    with pytest.raises(CuatrolaError) as e:
        replay(code)
    assert str(e.value) == "card 'Sb' in trick 3: seat 1 already played it in trick 1"
    assert code == rec   # where a record came from is not part of what it says
