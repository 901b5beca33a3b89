"""What the page of ``cuatrola serve`` draws, without a browser: each seat around the
table (where it sits from the person's chair, its roles, the cards it holds, its call,
its bazas) through a whole hand, and the one drawing of the cards (the SVG sheet the
page gets at ``/cards.svg`` and the report inlines)."""

from __future__ import annotations

import re

import httpx

from cuatrola_solver.analysis.cards_svg import card_name, card_sheet, card_svg
from cuatrola_solver.game.cards import format_card
from cuatrola_solver.game.play import partner_of
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.web.play import PlayTable
from cuatrola_solver.web.records import RecordsFolder

from serve_helpers import served

CODES = [r + s for s in "oceb" for r in "A3RCS"]


def _play_out(table: PlayTable) -> list[dict]:
    """Every state the page draws in one hand, the person playing the first allowed
    choice each time."""
    states = [table.state()]
    while table.table.turn is not None:
        turn = table.table.turn
        if turn.kind == "call":
            table.answer(turn.view.legal_calls()[0])
        elif turn.kind == "card":
            table.answer(format_card(turn.view.legal_cards()[0]))
        else:
            table.answer("no")
        states.append(table.state())
    return states


def test_each_seat_as_the_table_shows_it(tmp_path):
    for seat in (1, 2, 3, 4):
        table = PlayTable(get_rules("online"), seat, 7, RecordsFolder(tmp_path))
        table.deal()
        for state in _play_out(table):
            seats = state["seats"]
            assert [p["seat"] for p in seats] == [1, 2, 3, 4]
            where = {p["where"]: p["seat"] for p in seats}
            # you at the bottom, the next to play on your right, your partner across
            assert where["you"] == seat and where["partner"] == partner_of(seat)
            assert where["right"] == seat % 4 + 1
            assert "mano" in seats[0]["roles"] and "dealer" in seats[3]["roles"]
            # the cards held: five less those played; yours are the ones drawn
            plays = [p for tr in state.get("tricks", []) for p in tr["cards"]] + \
                state.get("current", [])
            for p in seats:
                assert p["held"] == 5 - sum(1 for x in plays if x["seat"] == p["seat"])
            assert seats[seat - 1]["held"] == len(state["cards"])
            # the bazas of the seats are the tricks they took
            winners = [tr["winner"] for tr in state.get("tricks", [])]
            assert [p["bazas"] for p in seats] == [winners.count(s) for s in (1, 2, 3, 4)]
            if state.get("contract") not in (None, "paso"):
                declarer = [p["seat"] for p in seats if "declarer" in p["roles"]]
                assert declarer and all("out" not in seats[s - 1]["roles"] for s in declarer)
                out = [p["seat"] for p in seats if "out" in p["roles"]]
                assert all(s not in declarer for s in out) and len(out) in (1, 2)
            assert state["to_play"] == (None if "result" in state else seat)


def test_one_drawing_of_the_cards():
    sheet = card_sheet()
    assert re.findall(r'<symbol id="card-(\w+)"', sheet) == CODES + ["back"]
    assert card_name("Ac") == "as de copas" and card_name("Sb") == "sota de bastos"
    face = card_svg("3e")
    assert 'aria-label="tres de espadas"' in face and '<use href="#card-3e"/>' in face
    assert 'aria-hidden="true"' in card_svg(None) and "role" not in card_svg(None)


def test_the_page_gets_the_same_sheet(tmp_path):
    with served(tmp_path / "records") as url:
        r = httpx.get(url + "cards.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text == card_sheet(standalone=True)
    assert re.findall(r'<symbol id="card-(\w+)"', r.text) == CODES + ["back"]
