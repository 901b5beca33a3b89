"""Hand-made positions with known double-dummy values, on both backends."""

from __future__ import annotations

import pytest

from cuatrola_solver.game import play
from cuatrola_solver.dd import reference, solver
from cuatrola_solver.game.cards import mask_of, parse_cards
from cuatrola_solver.game.rules import PRESETS

SOLVERS = {"reference": reference.solve}
if solver.BACKEND == "compiled":
    SOLVERS["compiled"] = solver.solve


@pytest.fixture(params=list(SOLVERS))
def solve(request):
    """Both backends (positions small enough for the reference)."""
    return SOLVERS[request.param]


@pytest.fixture(params=["compiled", pytest.param("reference", marks=pytest.mark.slow)])
def solve_deal(request):
    """Whole deals: the reference takes seconds on them, so it runs with -m slow."""
    if request.param not in SOLVERS:
        pytest.skip("compiled solver not built")
    return SOLVERS[request.param]


def hands_of(*texts: str) -> tuple[int, ...]:
    return tuple(mask_of(parse_cards(t)) if t != "-" else 0 for t in texts)


def deal(*texts: str, trump: str, contract="paso", declarer=()):
    return play.deal_position(hands_of(*texts), "oceb".index(trump), contract, declarer)


ALL_TRUMPS_SEAT4 = ("Ae 3e Re Ce Se", "Ab 3b Rb Cb Sb", "Ao 3o Ro Co So", "Ac 3c Rc Cc Sc")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_five_top_trumps_make_quintola(solve_deal, preset):
    solve = solve_deal
    rules = PRESETS[preset]
    pos = deal(*ALL_TRUMPS_SEAT4, trump="c", contract="quintola", declarer=(4,))
    assert pos.active == (True, False, True, True) and pos.leader == 1
    assert solve(pos, rules, "tricks") == 5
    assert solve(pos, rules, "makes") is True
    assert solve(pos, rules, "game_points") == 5
    assert solve(pos, rules, "margin") is None
    cuatrola = deal(*ALL_TRUMPS_SEAT4, trump="c", contract="cuatrola", declarer=(4,))
    assert solve(cuatrola, rules, "game_points") == 4
    # the opponents of seat 4 cannot make anything on tricks
    against = deal(*ALL_TRUMPS_SEAT4, trump="c", contract="cuatrola", declarer=(1,))
    assert solve(against, rules, "tricks") == 0
    assert solve(against, rules, "game_points") == -4


ALL_FOR_A = ("Ao 3o Ro Co So", "Sc Cc Rc Se Ce", "Ac 3c Ae 3e Ab", "Re Sb Cb Rb 3b")


@pytest.mark.parametrize("preset,bonus", [("online", 1), ("app", 1), ("narro", 2),
                                          ("italiano", 2)])
def test_carbunco_and_over_100(solve_deal, preset, bonus):
    solve = solve_deal
    """Side A takes all five tricks: 120 + 10 monte + the 40 sung after trick 1."""
    rules = PRESETS[preset]
    pos = deal(*ALL_FOR_A, trump="o")
    assert solve(pos, rules, "tricks") == 5
    assert solve(pos, rules, "margin") == 170
    assert solve(pos, rules, "makes") is True
    assert solve(pos, rules, "game_points") == bonus


def test_the_other_side_scores_the_carbunco(solve_deal):
    solve = solve_deal
    rules = PRESETS["narro"]
    rotated = (ALL_FOR_A[3],) + ALL_FOR_A[:3]           # side B holds the strong cards
    pos = deal(*rotated, trump="o")
    assert solve(pos, rules, "tricks") == 0
    assert solve(pos, rules, "makes") is False
    assert solve(pos, rules, "game_points") == -2
    assert solve(pos, PRESETS["online"], "game_points") == -1


def boundary_with_two_cantes():
    """After trick 3, side A (seat 1 on lead) can sing the 40 (oros, trumps) or the 20
    (copas), but only one of them: each later trick breaks the other pair."""
    return play.Position(trump=0, hands=hands_of("Ro Co", "Ae 3e", "Rc Cc", "Ab 3b"),
                         active=(True,) * 4, contract="paso", declarer=(), leader=1,
                         tricks=(2, 1), points=(30, 34))


@pytest.mark.parametrize("preset", ["online", "narro", "app"])
def test_the_choice_of_cante_matters(solve, preset):
    rules = PRESETS[preset]
    pos = boundary_with_two_cantes()
    assert play.cante_options(pos, rules, 0) == [0, 1]
    # A takes both tricks: 56 card points + 10 monte, B discards its treses first
    assert solve(play.sing(pos, 0, 0), rules, "margin") == 30 + 66 + 40 - 34
    assert solve(play.sing(pos, 0, 1), rules, "margin") == 30 + 66 + 20 - 34
    assert solve(pos, rules, "margin") == 102        # perfect play sings the 40


def test_the_choosing_side_minimises():
    """When side B chooses, it chooses the cante that is best for B."""
    rules = PRESETS["app"]
    pos = play.Position(trump=0, hands=hands_of("Ae 3e", "Ro Co", "Ab 3b", "Rc Cc"),
                        active=(True,) * 4, contract="paso", declarer=(), leader=2,
                        tricks=(1, 2), points=(34, 30))
    for solve in SOLVERS.values():
        assert solve(pos, rules, "margin") == 34 - (30 + 66 + 40)


def last_trick(cards, leader, points, rules_tie, contract="paso", declarer=(),
               active=(True,) * 4):
    hands = tuple(mask_of(parse_cards(c)) if c else 0 for c in cards)
    pos = play.Position(trump=0, hands=hands, active=active, contract=contract,
                        declarer=declarer, leader=leader, tricks=(2, 2), points=points)
    return pos, PRESETS["online"].override(tie_break=rules_tie)


@pytest.mark.parametrize("tie,makes", [("last_trick", True), ("mano", True)])
def test_tie_won_by_a_on_the_last_trick(solve, tie, makes):
    pos, rules = last_trick(("Ao", "Sc", "Sb", "Se"), 1, (50, 77), tie)  # A takes 27
    assert solve(pos, rules, "margin") == 0
    assert solve(pos, rules, "makes") is makes


@pytest.mark.parametrize("tie,makes", [("last_trick", False), ("mano", True)])
def test_tie_won_by_b_on_the_last_trick(solve, tie, makes):
    pos, rules = last_trick(("Sc", "Ao", "Sb", "Se"), 1, (77, 50), tie)  # B takes 27
    assert solve(pos, rules, "margin") == 0
    assert solve(pos, rules, "makes") is makes
    assert solve(pos, rules, "game_points") == (1 if makes else -1)


@pytest.mark.parametrize("tie,makes", [("last_trick", True), ("mano", False)])
def test_contrasolo_tie_with_seat_1_out(solve, tie, makes):
    """Contrasolo [2, 3], measured for seat 2 (side B): under 'mano' the tie goes to side
    A although seat 1 sits out (docs/rules.md 8.3)."""
    pos, rules = last_trick(("", "Ao", "Sc", ""), 2, (60, 37), tie, contract="contrasolo",
                            declarer=(2, 3), active=(False, True, True, False))
    rules = rules.override(contrasolo=True)
    assert pos.declaring_side == 1
    assert solve(pos, rules, "margin") == 0
    assert solve(pos, rules, "makes") is makes
    assert solve(pos, rules, "game_points") == (4 if makes else -4)


def test_five_top_trumps_mid_hand(solve):
    """Seat 4 has taken two tricks with trumps and holds the three top ones left."""
    pos = play.Position(trump=1, hands=hands_of("Ae 3e Re", "-", "Ab 3b Rb", "Ac 3c Rc"),
                        active=(True, False, True, True), contract="quintola",
                        declarer=(4,), leader=4, tricks=(0, 2), points=(0, 40))
    rules = PRESETS["online"]
    assert solve(pos, rules, "tricks") == 5
    assert solve(pos, rules, "makes") is True
    assert solve(pos, rules, "game_points") == 5
    lost = pos.with_changes(tricks=(1, 1))
    assert solve(lost, rules, "tricks") == 4
    assert solve(lost, rules, "makes") is False
    assert solve(lost, rules, "game_points") == -5


def test_tricks_contracts_have_no_margin(solve):
    pos = play.Position(trump=1, hands=hands_of("Ae 3e Re", "-", "Ab 3b Rb", "Ac 3c Rc"),
                        active=(True, False, True, True), contract="solo",
                        declarer=(4,), leader=4, tricks=(0, 2), points=(0, 40))
    assert solve(pos, PRESETS["italiano"], "margin") is None
    assert solve(pos, PRESETS["online"], "margin") is not None


def test_bad_objective():
    with pytest.raises(ValueError):
        reference.solve(deal(*ALL_FOR_A, trump="o"), PRESETS["online"], "score")
    with pytest.raises(ValueError):
        solver.solve(deal(*ALL_FOR_A, trump="o"), PRESETS["online"], "score")


def test_solve_cards_values_every_legal_card():
    rules = PRESETS["online"]
    pos = boundary_with_two_cantes()
    values = reference.solve_cards(pos, rules, "margin")
    # playing now forgoes the pending cante: A still takes both tricks
    assert values == {c: 30 + 66 - 34 for c in parse_cards("Ro Co")}
    assert solver.solve_cards(pos, rules, "margin") == values
    sung = reference.solve_cards(play.sing(pos, 0, 0), rules, "margin")
    assert set(sung.values()) == {102}


def test_analyse_play_accepts_cantes_and_rejects_illegal_cards():
    rules = PRESETS["online"]
    pos = boundary_with_two_cantes()
    seq = [(0, 1)] + parse_cards("Co 3e Rc 3b")
    values = reference.analyse_play(pos, rules, "margin", seq)
    assert values == [82] * 5
    assert solver.analyse_play(pos, rules, "margin", seq) == values
    with pytest.raises(ValueError):
        reference.analyse_play(pos, rules, "margin", parse_cards("Sc"))
