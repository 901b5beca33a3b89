"""The types of the compiled double-dummy search (``ext/solver.pyx``), for type checkers:
what :mod:`cuatrola_solver.dd.solver` calls of it."""

from typing import Sequence

import numpy as np
import numpy.typing as npt

#: the rules and contract as ints (``context_params``)
Params = tuple[int, ...]
#: a position field by field: hands, leader, trick, tricks, points, sung, cantes,
#: boundary_sung (as :class:`cuatrola_solver.game.play.Position`'s)
State = tuple[object, ...]

class Solver:
    nodes: int
    @property
    def tt_bits(self) -> int: ...
    @property
    def tricks_bits(self) -> int: ...
    def __init__(self, tt_bits: int = 12, tricks_bits: int = -1) -> None: ...
    def value(self, params: Params, state: State, objective: int) -> int: ...
    def batch_from(self, params: Params, state: State, hands: npt.NDArray[np.int64],
                   objective: int, out: npt.NDArray[np.int32], start: int, stop: int) -> int: ...
    def figures_from(self, params: Params, state: State, hands: npt.NDArray[np.int64],
                     out: npt.NDArray[np.int32], start: int, stop: int) -> int: ...
    def batch(self, params: Params, hands: npt.NDArray[np.int64],
              trumps: npt.NDArray[np.int64], objective: int, out: npt.NDArray[np.int32],
              start: int, stop: int, tricks_out: npt.NDArray[np.int32] | None = None) -> int: ...
    def table(self, rows: tuple[tuple[Params, int], ...], hands: npt.NDArray[np.int64],
              trumps: npt.NDArray[np.int64], out: npt.NDArray[np.int32], start: int,
              stop: int) -> int: ...

def legal_mask(hand: int, trick_cards: Sequence[int], trump: int, beat_led_after_trump: bool,
               free_when_cannot_overtrump: bool) -> int: ...
def trick_winner_index(trick_cards: Sequence[int], trump: int) -> int: ...
