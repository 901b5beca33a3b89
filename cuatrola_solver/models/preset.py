"""The fitted models an answer uses (:class:`Models`), as each preset ships them.

Three models change the odds of :func:`advise <cuatrola_solver.advice.bidding.advise>`,
:func:`hint <cuatrola_solver.advice.cardplay.hint>` and :func:`analyze
<cuatrola_solver.analysis.review.analyze>`:

- the **bid model** (:class:`~cuatrola_solver.models.bids.BidModel`): each hidden deal is
  weighed by how likely the calls already made were with the hands it gives;
- the **card-play model** (:class:`~cuatrola_solver.models.cardplay.CardModel`): and by
  how likely the cards the other seats played were with those hands (the two are the
  *inference*, on or off together);
- the **played-odds model** (:class:`~cuatrola_solver.models.played.PlayedModel`): the
  double-dummy odds are mapped to the odds as the hand will be played.

``Models.of(rules)`` loads the preset's shipped models, exactly as the commands do (and
what every answer uses when it is given no models); ``Models.NONE`` uses none: plain
double-dummy odds, the calls and the play taken as saying nothing (``--model dd
--no-inference``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..game.rules import RuleSet, get_rules
from .bids import BidModel, load_model as load_bid_model
from .cardplay import CardModel, load_model as load_card_model
from .played import PlayedModel, load_model as load_played_model

__all__ = ["Models"]


@dataclass(frozen=True)
class Models:
    """The bid model, the played-odds model and the card-play model of an answer (None:
    not used)."""

    bids: BidModel | None = None
    played: PlayedModel | None = None
    cards: CardModel | None = None

    NONE: ClassVar["Models"]

    @classmethod
    def of(cls, rules: RuleSet | str | None = None, *, inference: bool = True,
           played: bool = True) -> "Models":
        """The models shipped with ``rules``' preset: the bid model and the card-play
        model unless ``inference`` is False (then the calls and the play are read for
        their hard facts only), the played-odds model unless ``played`` is False.
        Raises :class:`~cuatrola_solver.errors.ModelError` when one is missing or
        cannot be read.  Loaded once per rule set."""
        rules = get_rules(rules)
        return cls(_bid_model(rules) if inference else None,
                   _played_model(rules) if played else None,
                   _card_model(rules) if inference else None)


Models.NONE = Models()


@lru_cache(maxsize=16)
def _bid_model(rules: RuleSet) -> BidModel:
    return load_bid_model(rules)


@lru_cache(maxsize=16)
def _played_model(rules: RuleSet) -> PlayedModel:
    return load_played_model(rules)


@lru_cache(maxsize=16)
def _card_model(rules: RuleSet) -> CardModel:
    return load_card_model(rules)
