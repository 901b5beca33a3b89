"""The fitted models an answer uses (:class:`Models`), as each preset ships them.

Two models change the odds of :func:`advise <cuatrola_solver.advice.bidding.advise>`,
:func:`hint <cuatrola_solver.advice.cardplay.hint>` and :func:`analyze
<cuatrola_solver.analysis.review.analyze>`:

- the **bid model** (:class:`~cuatrola_solver.models.bids.BidModel`): each hidden deal is
  weighed by how likely the calls already made were with the hands it gives;
- the **played-odds model** (:class:`~cuatrola_solver.models.played.PlayedModel`): the
  double-dummy odds are mapped to the odds as the hand will be played.

``Models.of(rules)`` loads the preset's shipped pair, exactly as the commands do (and
what every answer uses when it is given no models); ``Models.NONE`` uses neither: plain
double-dummy odds, the calls taken as saying nothing (``--model dd --no-inference``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..game.rules import RuleSet, get_rules
from .bids import BidModel, load_model as load_bid_model
from .played import PlayedModel, load_model as load_played_model

__all__ = ["Models"]


@dataclass(frozen=True)
class Models:
    """The bid model and the played-odds model of an answer (None: not used)."""

    bids: BidModel | None = None
    played: PlayedModel | None = None

    NONE: ClassVar["Models"]

    @classmethod
    def of(cls, rules: RuleSet | str | None = None, *, inference: bool = True,
           played: bool = True) -> "Models":
        """The models shipped with ``rules``' preset: the bid model unless
        ``inference`` is False, the played-odds model unless ``played`` is False.
        Raises :class:`~cuatrola_solver.errors.ModelError` when one is missing or
        cannot be read.  Loaded once per rule set."""
        rules = get_rules(rules)
        return cls(_bid_model(rules) if inference else None,
                   _played_model(rules) if played else None)


Models.NONE = Models()


@lru_cache(maxsize=16)
def _bid_model(rules: RuleSet) -> BidModel:
    return load_bid_model(rules)


@lru_cache(maxsize=16)
def _played_model(rules: RuleSet) -> PlayedModel:
    return load_played_model(rules)
