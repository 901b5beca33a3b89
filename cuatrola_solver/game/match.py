"""The match (la partida): score, target, win by, and the caps on bids.

Seat numbers are re-based every hand (docs/rules.md section 7): the next hand's dealer is
this hand's seat 1, so the pair that is side A in one hand is side B in the next.
:class:`Match` keeps the score of the two pairs and maps them to A and B hand by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NotationError, quote
from ..i18n import _, later
from .rules import CONTRACT_VALUE, RuleSet
from .seats import Side


@dataclass(frozen=True)
class Score:
    """The A/B match score before a hand."""

    A: int = 0
    B: int = 0

    def of(self, side: Side | int) -> int:
        """The score of ``side`` (a Side, or 0 for A and 1 for B)."""
        return self.B if side else self.A

    def to_dict(self) -> dict[str, int]:
        return {"A": self.A, "B": self.B}

    def __str__(self) -> str:
        return f"{self.A}-{self.B}"


def parse_score(text: str, where: str = "--score", rules: RuleSet | None = None) -> Score:
    """Read ``"3-5"`` (side A's score, then side B's); with ``rules``, also refuse a
    score at which the match is already over (:func:`check_score`)."""
    a, dash, b = text.strip().partition("-")
    try:
        if not dash:
            raise ValueError
        score = Score(int(a), int(b))
        if score.A < 0 or score.B < 0:
            raise ValueError
    except ValueError:
        raise NotationError(_("bad score {score} in {where}: expected A-B with two "
                              "non-negative numbers, e.g. '3-5'").format(
                                  score=quote(text), where=where)) from None
    if rules is not None:
        check_score(rules, score, where, text)
    return score


def check_score(rules: RuleSet, score: Score, where: str = "--score",
                text: str | None = None) -> None:
    """Refuse a score no hand is played at: a negative one, or one at which the match
    is already over (a pair has reached the target with the lead it needs)."""
    shown = repr(text) if text is not None else f"'{score}'"
    if score.A < 0 or score.B < 0:
        raise NotationError(_("bad score {score} in {where}: a match score is never "
                              "negative").format(score=shown, where=where))
    won = match_winner(rules, score.A, score.B)
    if won is not None:
        values = dict(score=shown, where=where, rules=rules.name, target=rules.target,
                      lead=rules.win_by, side=won, at=score)
        raise NotationError(
            (_("bad score {score} in {where}: under {rules} the match is over once a pair "
               "has {target} points, so side {side} has already won at {at} and no hand is "
               "played") if rules.win_by <= 1 else
             _("bad score {score} in {where}: under {rules} the match is over once a pair "
               "has {target} points with a lead of {lead}, so side {side} has already won "
               "at {at} and no hand is played")).format(**values))
    if max(score.A, score.B) >= rules.target and score.A - score.B == 0 and rules.win_by <= 1:
        # a hand scores for one pair only: the first pair to reach the target leads
        raise NotationError(
            _("bad score {score} in {where}: under {rules} a match never stands level at "
              "{target} or more (the first pair to reach {target} has won)").format(
                  score=shown, where=where, rules=rules.name, target=rules.target))


def bid_cap_reason(rules: RuleSet, pair_score: int, contract: str) -> str | None:
    """Why the bidding pair, at ``pair_score``, may not bid ``contract``; None if it may."""
    if contract == "paso" or rules.bid_cap == "none":
        return None
    value = CONTRACT_VALUE[contract]
    if rules.bid_cap == "near_target" and pair_score < rules.near_target_from:
        return None
    if pair_score + value > rules.target:
        return later("{contract} is worth {value} and the bidding pair has {score}: {total} "
                     "would pass the target of {target}", contract=contract, value=value,
                     score=pair_score, total=pair_score + value, target=rules.target)
    return None


def match_winner(rules: RuleSet, a: int, b: int) -> Side | None:
    """The side that has won the match at score a-b (a: side A's), else None."""
    for side, mine, theirs in ((Side.A, a, b), (Side.B, b, a)):
        if mine >= rules.target and mine - theirs >= rules.win_by:
            return side
    return None


@dataclass
class Match:
    """The score of two pairs over a match.  ``pair 0`` is side A in the first hand."""

    rules: RuleSet
    points: list[int] = field(default_factory=lambda: [0, 0])
    hands_played: int = 0

    def pair_of_side(self, side: Side) -> int:
        """Which pair (0 or 1) plays as ``side`` in the current hand."""
        a_pair = self.hands_played % 2
        return a_pair if side is Side.A else 1 - a_pair

    def score(self) -> Score:
        """The current hand's A/B score."""
        return Score(self.points[self.pair_of_side(Side.A)],
                     self.points[self.pair_of_side(Side.B)])

    def record_hand(self, winner: Side, game_points: int) -> None:
        self.points[self.pair_of_side(winner)] += game_points
        self.hands_played += 1

    def winner(self) -> int | None:
        """The pair (0 or 1) that has won the match, if any."""
        w = match_winner(self.rules, self.points[0], self.points[1])   # pair 0's score first
        return None if w is None else int(w)
