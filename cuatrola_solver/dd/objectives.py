"""What a double-dummy search measures, and what a finished hand is worth.

Values are measured for the declaring side ``d = pos.declaring_side`` (A for paso, the
solo bidder's side for contrasolo); each objective is its own optimum (docs/rules.md 8.9):

``tricks``
    the final number of tricks of side ``d``;
``margin``
    final points of ``d`` minus the other side's (card points, monte, cantes);
    ``None`` for contracts not decided on points;
``makes``
    ``True`` iff ``d`` wins the hand (tie breaks included);
``game_points``
    the match points of the hand, ``+v`` when ``d`` wins, ``-v`` otherwise
    (``pass_bonus`` included).

Shared by the compiled search's face (:mod:`~cuatrola_solver.dd.solver`) and its
plain twin (:mod:`~cuatrola_solver.dd.reference`).
"""

from __future__ import annotations

from typing import Union

from ..game import play
from ..game.rules import RuleSet

__all__ = ["OBJECTIVES", "Value", "points_based", "game_points", "final_value",
           "check_objective"]

OBJECTIVES = ("tricks", "margin", "makes", "game_points")
#: the value of a position for an objective: an int, a bool for ``makes``
Value = Union[int, bool]


def points_based(contract: str, rules: RuleSet) -> bool:
    """Whether ``contract`` is decided on points (else on tricks)."""
    return play.tricks_goal(contract, rules) is None


def game_points(pos: play.Position, rules: RuleSet) -> int:
    """Match points of the finished hand ``pos`` for the declaring side."""
    winner, value = play.outcome(pos, rules)
    return value if winner == pos.declaring_side else -value


def final_value(pos: play.Position, rules: RuleSet, objective: str) -> Value:
    d = pos.declaring_side
    if objective == "tricks":
        return pos.tricks[d]
    if objective == "margin":
        return pos.points[d] - pos.points[1 - d]
    if objective == "makes":
        return play.outcome(pos, rules)[0] == d
    return game_points(pos, rules)


def check_objective(pos: play.Position, rules: RuleSet, objective: str) -> bool:
    """Validate ``objective``; False when it has no value here (margin on tricks)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"bad objective {objective!r}: expected one of {', '.join(OBJECTIVES)}")
    return objective != "margin" or points_based(pos.contract, rules)
