"""The match sheet (notation.match_sheet) and its summary per player
(analysis.match_summary): the running score, the end of the match, saving and reading."""

from __future__ import annotations

import dataclasses
import json

import pytest

from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.analysis.match_summary import summarize_match
from cuatrola_solver.analysis.review import analyze
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.bots.playout import play_match
from cuatrola_solver.errors import RecordError
from cuatrola_solver.game.seats import Side
from cuatrola_solver.notation.match_sheet import MatchSheet, player_at, seat_of_player
from cuatrola_solver.notation.record import read_text
from cuatrola_solver.notation.replay import replay

from test_hand_entry import UNSEEN

RULES = "online,target=5"
NAMES = ("Ana", "Luis", "Eva", "Marta")


def match_records(seed: int = 3):
    """A match to the target between bots, each hand's record without its score (as a
    table would take it down)."""
    recs = play_match([parse_player("heuristic")] * 4, RULES, seed=seed)
    return [dataclasses.replace(r, score=None) for r in recs]


def test_the_running_score_is_the_sum_of_checks_results_and_the_target_ends_the_match():
    recs = match_records()
    sheet = MatchSheet(RULES, NAMES)
    pairs = [0, 0]
    for k, rec in enumerate(recs):
        assert not sheet.over
        added = sheet.add(rec)
        result = replay(rec).result()          # check's result of the hand alone
        assert result is not None
        pair = sheet.pair_of_side(result.winner, k)
        pairs[pair] += result.game_points
        assert sheet.points == tuple(pairs) == added.points
        assert added.record.score is not None and added.result.score_after is not None
    assert sheet.over and max(pairs) >= 5
    assert sheet.winner == pairs.index(max(pairs))
    assert sheet.hands[-1].result.match_won_by is not None
    with pytest.raises(RecordError, match="the match is over"):
        sheet.add(recs[0])


def test_the_deal_passes_on_with_the_names():
    sheet = MatchSheet(RULES, NAMES)
    assert sheet.seat_players(0) == NAMES
    assert sheet.seat_players(1) == ("Luis", "Eva", "Marta", "Ana")   # Ana deals hand 2
    for k in range(8):
        for p in (1, 2, 3, 4):
            assert player_at(seat_of_player(p, k), k) == p
    recs = match_records()
    sheet.add(recs[0])
    second = sheet.add(recs[1])
    assert second.record.players == ("Luis", "Eva", "Marta", "Ana")
    # the pair of Ana and Eva is side A in hand 1 and side B in hand 2
    assert sheet.pair_of_side(Side.A, 0) == 0 and sheet.pair_of_side(Side.B, 1) == 0
    assert sheet.pair_name(0) == "pair 1 (Ana and Eva)"


def test_a_hand_not_decided_or_of_other_rules_changes_nothing():
    sheet = MatchSheet("online")
    unfinished = read_text(UNSEEN.replace("5. Co 3o Cb Cc\n", "").replace(
        "4. Ce Ae 3b Re\n", ""))
    with pytest.raises(RecordError, match="not decided yet"):
        sheet.add(unfinished)
    assert sheet.hands == [] and sheet.points == (0, 0)
    with pytest.raises(RecordError, match="rules are not the match's"):
        sheet.add(read_text(UNSEEN.replace('"online"', '"narro"')))
    sheet.add(read_text(UNSEEN))                 # a renuncio decides it, hands unknown
    assert sheet.points == (0, 1)


def test_the_sheet_is_saved_whole_and_read_back(tmp_path):
    sheet = MatchSheet(RULES, NAMES)
    for rec in match_records()[:3]:
        sheet.add(rec)
    path = tmp_path / "match.json"
    sheet.save(path)
    back = MatchSheet.load(path)
    assert back.points == sheet.points and back.to_json() == sheet.to_json()
    assert [h.record for h in back.hands] == [h.record for h in sheet.hands]
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]     # no temporary left
    obj = json.loads(path.read_text())
    obj["hands"][1]["score"] = {"A": 4, "B": 4}
    with pytest.raises(RecordError, match="hand 2 of the match"):
        MatchSheet.from_json(json.dumps(obj))


def test_the_summary_per_player():
    sheet = MatchSheet("online", NAMES)
    recs = match_records()
    sheet.add(dataclasses.replace(recs[0], rules=sheet.rules))
    sheet.add(read_text(UNSEEN))   # hand 2: seat 3 reneges, Marta (seat 3 of hand 1 + 1)
    summary = summarize_match(sheet, Budget(False, 10, 0, 1))
    marta = summary[3]
    assert (marta.name, marta.hands, marta.renuncios, marta.renuncio_cost) == \
        ("Marta", 2, 1, 1)
    assert all(s.hands_unanalysed == 1 for s in summary)    # hand 2: hands not known
    assert sum(s.renuncios for s in summary) == 1
    analysed = summarize_match(sheet, analyses=[None, None])
    assert all(s.inaccuracies == s.mistakes == s.blunders == s.points_lost == 0
               for s in analysed)
    one = summarize_match(MatchSheet("online", NAMES), analyses=[])
    assert all(s.hands == 0 for s in one)
    labels = sum(s.inaccuracies + s.mistakes + s.blunders for s in summary)
    a = analyze(sheet.hands[0].record, Budget(False, 10, 0, 1), bids=False)
    assert labels == sum(x.inaccuracies + x.mistakes + x.blunders for x in a.summary)
