"""The pure-Python double-dummy solver: plain minimax, written to be read.

It is the test oracle of the compiled search (``ext/solver.pyx``) and the fallback
when that extension is not built.  It reuses the rules of :mod:`play`
(``legal_mask``, ``play_card``, ``cante_options``, ``sing``) and re-implements
nothing of them.

Values are measured for the declaring side ``d = pos.declaring_side``, which maximises
while the other side minimises; the objectives (``tricks``, ``margin``, ``makes``,
``game_points``) are those of :mod:`~cuatrola_solver.dd.objectives`, shared with the
compiled search's face.

Cantes: at a trick boundary the side that won the last trick chooses first among its
:func:`play.cante_options` and must sing one when there is one; then the other side.
Each choice is a node of the choosing side.  ``early_end`` is ignored (docs/rules.md 8.14).

Positions are memoised per call (a :class:`play.Position` is hashable), which keeps
the plain minimax fast enough for whole deals.
"""

from __future__ import annotations

from typing import Callable, Iterable, Union

from ..game import play
from ..game.cards import iter_cards
from ..game.rules import RuleSet
from ..game.seats import Side
from .objectives import Value, check_objective, final_value

#: an item of a played sequence: a card, or a cante ``(side, suit)``
Item = Union[int, tuple[int, ...], list[int]]
#: ``solve_fn(pos, rules, objective)``: the value of a position (None: no value)
SolveFn = Callable[[play.Position, RuleSet, str], Union[Value, None]]

# --- the search ---------------------------------------------------------------

def pending_cante(pos: play.Position, rules: RuleSet) -> tuple[int, list[int]] | None:
    """The side that must choose a cante now and its options, or None.

    The side of the last trick's winner (``pos.leader``) chooses first, then the other.
    """
    first = play.side_of(pos.leader)
    for side in (first, 1 - first):
        options = play.cante_options(pos, rules, side)
        if options:
            return side, options
    return None


def legal_cards(pos: play.Position, rules: RuleSet) -> list[int]:
    seat = pos.to_play
    return list(iter_cards(play.legal_mask(pos.hand(seat), pos.trick, pos.trump,
                                           rules.beat_led_after_trump,
                                           rules.free_when_cannot_overtrump)))


class _Search:
    """Minimax of one objective, memoised on positions."""

    def __init__(self, rules: RuleSet, objective: str):
        self.rules = rules
        self.objective = objective
        self.memo: dict[play.Position, Value] = {}
        self.nodes = 0

    def value(self, pos: play.Position) -> Value:
        cached = self.memo.get(pos)
        if cached is not None:
            return cached
        self.nodes += 1
        if pos.is_over:
            v = final_value(pos, self.rules, self.objective)
        else:
            pending = pending_cante(pos, self.rules) if not pos.trick else None
            if pending is not None:
                side, suits = pending
                children = (play.sing(pos, side, s) for s in suits)
            else:
                side = play.side_of(pos.to_play)
                children = (play.play_card(pos, c, self.rules.monte)
                            for c in legal_cards(pos, self.rules))
            best = max if side == pos.declaring_side else min
            v = best(self.value(child) for child in children)
        self.memo[pos] = v
        return v


def solve(pos: play.Position, rules: RuleSet, objective: str = "tricks") -> Value | None:
    """The double-dummy value of ``pos`` for ``objective`` (None: margin on tricks)."""
    if not check_objective(pos, rules, objective):
        return None
    return _Search(rules, objective).value(pos)


def solve_counted(pos: play.Position, rules: RuleSet,
                  objective: str = "tricks") -> tuple[Value | None, int]:
    """``(value, nodes)``: :func:`solve` and the number of positions it searched."""
    if not check_objective(pos, rules, objective):
        return None, 0
    search = _Search(rules, objective)
    return search.value(pos), search.nodes


def solve_cards(pos: play.Position, rules: RuleSet,
                objective: str = "tricks") -> dict[int, Value | None]:
    """``{card: value}`` for every legal card of the seat on turn.

    A card is played *now*: cantes still pending at this boundary are forgone (apply
    :func:`play.sing` first to value the cards after a cante).
    """
    if pos.is_over:
        return {}
    valid = check_objective(pos, rules, objective)
    search = _Search(rules, objective)
    return {c: (search.value(play.play_card(pos, c, rules.monte)) if valid else None)
            for c in legal_cards(pos, rules)}


def apply_item(pos: play.Position, item: Item, rules: RuleSet) -> play.Position:
    """Play one item of a sequence: a card (int), or a cante ``(side, suit)``."""
    if isinstance(item, (tuple, list)):
        side, suit = item[-2], item[-1]
        if suit not in play.cante_options(pos, rules, side):
            raise ValueError(f"side {Side(side)} may not sing suit {suit} now")
        return play.sing(pos, side, suit)
    if item not in legal_cards(pos, rules):
        raise ValueError(f"card {item} is not a legal card here")
    return play.play_card(pos, item, rules.monte)


def analyse_play(pos: play.Position, rules: RuleSet, objective: str,
                 items: Iterable[Item], solve_fn: SolveFn | None = None) -> list[Value | None]:
    """The value after each item of a played sequence (cards, or cantes ``(side, suit)``).

    ``solve_fn(pos, rules, objective)`` values each position (default :func:`solve`).
    """
    solve_fn = solve_fn or solve
    values: list[Value | None] = []
    for item in items:
        pos = apply_item(pos, item, rules)
        values.append(solve_fn(pos, rules, objective))
    return values
