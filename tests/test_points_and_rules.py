"""A hand's points split into cards, monte and cantes (check and analyze), the tie-break
and the match score; --rules on commands that read a record; the rules text form as
`cuatrola rules` shows it; colour on a terminal only."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.cmd_rules import _show
from cuatrola_cli.main import app
from cuatrola_cli.render import colour_cards, muestra_text, use_colour
from cuatrola_solver.errors import RulesError
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.game.rules import PARAMETERS, PRESETS, get_rules
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.game.seats import Side

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BLUNDER = EXAMPLES / "analysis" / "online-blunder.txt"       # a 65-65 tie, paso
NARRO = EXAMPLES / "records" / "narro-solo.txt"               # a cante, a match score
RENUNCIO = EXAMPLES / "records" / "online-renuncio.json"      # solo, renuncio in trick 1


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def hand_of(path: Path) -> Hand:
    return replay(read_record(path.read_text(), str(path)))


# --- the library ---------------------------------------------------------------------

def test_breakdown_adds_up_to_the_points_and_names_the_tie_break():
    hand = hand_of(BLUNDER)
    res = hand.result()
    bd = res.breakdown
    assert bd.cards == (55, 65) and bd.monte == (10, 0) and bd.cantes == ()
    assert bd.total == res.points == (65, 65)
    assert bd.trick_winners == (2, 2, 2, 3, 3)
    assert sum(bd.cards) == 120                    # every card point of the deck
    assert res.tie_break == "last_trick" and res.winner is Side.A   # seat 3 took the last baza
    assert res.score_after is None                 # the record has no score


def test_breakdown_of_a_cante_and_the_match_score_after():
    res = hand_of(NARRO).result()
    (k,) = res.breakdown.cantes
    assert (k.seat, str(k.side), "oceb"[k.suit], k.after_trick, k.points) == (3, "A", "c", 1, 20)
    assert res.breakdown.total == res.points
    assert res.tie_break is None
    assert (res.score_before.A, res.score_before.B) == (3, 5)
    assert (res.score_after.A, res.score_after.B) == (3, 7)   # side B scores the 2 of the solo
    assert res.match_won_by is None


def test_a_tie_under_mano_is_named_mano():
    rec = read_record(BLUNDER.read_text())
    rec.rules = get_rules("online,tie_break=mano")
    res = replay(rec).result()
    assert res.points == (65, 65) and res.tie_break == "mano" and res.winner is Side.A


def test_match_won_by_the_hand():
    rec = read_record(NARRO.read_text())
    from cuatrola_solver.game.match import Score
    rec.score = Score(3, 19)                       # narro: to 21 by 2; B gets 2 -> 21-3
    res = replay(rec).result()
    assert res.match_won_by is Side.B and res.score_after.B == 21


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


# --- the rules text form ---------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_reads_back_as_rules_shows_it(name):
    preset = PRESETS[name]
    shown = ",".join(f"{p}={_show(getattr(preset, p))}" for p in PARAMETERS if p != "name")
    assert get_rules(f"{name.upper()},{shown}") == preset


def test_rules_lists_and_case():
    assert get_rules("Online") == PRESETS["online"]
    assert get_rules("ONLINE,Tie_Break=Mano").tie_break == "mano"
    assert get_rules("online,cantes_in=paso,solo,cuatrola").cantes_in == (
        "paso", "solo", "cuatrola")
    assert get_rules("narro,cante_after_tricks=1,2,target=15").cante_after_tricks == (1, 2)
    with pytest.raises(RulesError, match="expected NAME=VALUE"):
        get_rules("online,tie_break=mano,solo")       # tie_break is not a list
    r = run("rules", "online,cantes_in=paso,solo,cuatrola")
    assert r.exit_code == 0 and "online with cantes_in changed" in r.stdout


# --- words and colour ----------------------------------------------------------------

def test_muestra_text_names_the_triunfo():
    assert muestra_text("3b") == "muestra 3b (triunfo bastos)"
    r = run("solve", "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab",
            "--muestra", "Ab")
    assert "muestra Ab (triunfo bastos)" in r.stdout


def test_auction_count_message_grammar():
    r = run("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "3", "--auction", "paso")
    assert r.exit_code == 2
    assert "1 call given, but seats 1 and 2 speak before seat 3" in r.stderr


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(_Tty()) and not use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Tty())
    coloured = colour_cards("seat 1: Ao 3c Re Sb", enabled=True)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == "seat 1: Ao 3c Re Sb"
    assert coloured.count("\x1b[0m") == 4
    assert "\x1b[33mAo" in coloured and "\x1b[31m3c" in coloured
    assert colour_cards("3c", enabled=False) == "3c"
    assert "\x1b[" not in run("check", str(NARRO)).stdout          # piped: plain


# --- the message when the compiled solver is missing --------------------------------

def test_missing_compiled_solver_message_says_what_happened(tmp_path):
    from cuatrola_solver.dd.install_check import compiled_missing_message
    source = tmp_path / "repo" / "cuatrola_solver"
    source.mkdir(parents=True)
    site = tmp_path / "site-packages"
    (site / "cuatrola_solver" / "dd").mkdir(parents=True)
    (site / "cuatrola_solver" / "dd" / "_solver.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    err = ImportError("cannot import name '_solver'")
    msg = compiled_missing_message(err, source, [str(tmp_path / "repo"), str(site)])
    assert "pure-Python reference solver" in msg and str(source) in msg
    assert str(site / "cuatrola_solver" / "dd") in msg and "repository's root" in msg
    assert "pip install -e ." in msg
    alone = compiled_missing_message(err, source, [str(tmp_path / "repo")])
    assert "No compiled module was found" in alone and "pip install -e ." in alone
