"""The person at the table (bots/table.py): the same hands as the bots alone would play,
one decision at a time; a refused choice is said and the turn stays."""

from __future__ import annotations

from cuatrola_solver.bots.players import make_player
from cuatrola_solver.bots.playout import hand_deal, iter_match, play_hand
from cuatrola_solver.bots.table import Table, card_refusal
from cuatrola_solver.game.cards import format_card


class FirstLegal:
    """Calls paso when it may, keeps quiet, plays its first legal card."""

    def call(self, view, seed):
        return "paso" if "paso" in view.legal_calls() else view.legal_calls()[0]

    def sing(self, view, seed):
        return None

    def card(self, view, seed):
        return view.legal_cards()[0]

    def __repr__(self):
        return "first"


def _person(table: Table):
    turn = table.turn
    return getattr(FirstLegal(), {"cante": "sing"}.get(turn.kind, turn.kind))(turn.view, 0)


def test_one_hand_is_the_hand_the_players_would_play():
    bots = [make_player("heuristic") for _ in range(3)]
    table = Table(bots, 2, "online", seed=5)
    assert not table.over and table.turn is None
    table.deal()
    while table.turn is not None:
        assert table.turn.seat == 2 and table.player_at(2) is None
        assert table.answer(_person(table)) is None
    assert table.over and len(table.records) == 1
    deal, seed = hand_deal(5, 0)
    assert table.records[0] == play_hand(deal, [bots[0], FirstLegal(), bots[1], bots[2]],
                                         "online", seed=seed)


def test_a_match_moves_the_person_one_seat_on_each_hand():
    bots = [FirstLegal() for _ in range(3)]
    table = Table(bots, 1, "online", seed=3, match=True)
    seats = []
    while not table.over:
        table.deal()
        seats.append(table.seat)
        while table.turn is not None:
            table.answer(_person(table))
    assert seats[:4] == [1, 4, 3, 2]
    assert table.records == list(iter_match([FirstLegal()] * 4, "online", seed=3))
    mine, theirs = table.score()
    assert max(mine, theirs) >= table.rules.target


def _restricted(turn) -> bool:
    """A card turn where some held card may not be played."""
    return turn.kind == "card" and len(turn.view.legal_cards()) < bin(turn.view.held).count("1")


def test_a_refused_card_is_said_and_the_turn_stays():
    table = Table([FirstLegal()] * 3, 1, "online", seed=1)
    table.deal()
    while not _restricted(table.turn):
        table.answer(_person(table))
    turn = table.turn
    illegal = next(c for c in range(20) if turn.view.held >> c & 1
                   and c not in turn.view.legal_cards())
    reason = table.answer(illegal)
    assert reason == card_refusal(turn.view, illegal)
    assert reason.startswith(f"{format_card(illegal)} would be a renuncio: you must")
    assert table.turn is turn
    absent = next(c for c in range(20) if not turn.view.held >> c & 1)
    assert table.answer(absent) == f"you do not hold {format_card(absent)}"
    assert table.turn is turn
