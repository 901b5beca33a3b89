"""cuatrola-solver: hand evaluation, bid advice, double-dummy and post-game analysis for
cuatrola, the Spanish trick-taking game.

The everyday names are here (``import cuatrola_solver as cs``)::

    view = cs.View.bidding("Ac 3c Ro Co Ab", "So", seat=2, auction="paso")
    advice = cs.advise(view)                    # the numbers `cuatrola advise` prints
    advice = cs.advise(view, cs.Budget(exact=True), cs.Models.NONE)   # exact, double dummy

- the answers: :func:`advise` (odds of every call), :func:`hint` (the value of every
  card), :func:`analyze` (a played hand, card by card and call by call), with their
  :class:`Budget` (how much search) and :class:`Models` (the preset's fitted models,
  loaded by default as the commands load them); what-if :class:`Constraints` on the
  other hands ride on the view (``view.assuming("3: void o; 4: >=2 triunfo")``);
- double dummy: :func:`solve`, :func:`solve_cards`, :func:`dd_table`;
- the game: :class:`View` (one seat's view: what every answer takes),
  :class:`HandState` (the rules engine: one hand's state; ``Hand`` is its name before
  0.3), :class:`RuleSet`, :data:`PRESETS`, :func:`get_rules`, :class:`Score`, cards
  (:func:`parse_card`, :func:`format_cards`, ...);
- records: :class:`HandRecord`, :func:`read_record`, :func:`write_record` (and the JSON
  and text forms one by one), :func:`replay` (a record into the rules engine),
  :func:`view_of` (a record seen from one seat), :func:`read_view` (a seat's input at the
  table), :func:`record_of` (a hand written back);
- the errors, every one a :class:`CuatrolaError` (a ``ValueError``) whose message says
  what was wrong and where.

The layers under them are subpackages (``docs/architecture.md``): ``game``,
``notation``, ``dd``, ``hidden``, ``models``, ``advice``, ``analysis``, ``bots`` and
``lab``; the heavier ones (``lab``, ``models``) are imported explicitly, as
``chess.engine`` is.  Names are loaded on first use, so ``import cuatrola_solver`` is
cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.2.0"

#: every name of the package's face and the module that defines it
_FACE = {
    # the answers
    "advise": "advice.bidding", "Advice": "advice.bidding", "bid_options": "advice.bidding",
    "hint": "advice.cardplay", "Hint": "advice.cardplay",
    "analyze": "analysis.review", "Analysis": "analysis.review",
    "annotate": "analysis.review",
    "Budget": "advice.budget", "Models": "models.preset",
    "Constraints": "game.constraints",
    # double dummy
    "solve": "dd.solver", "solve_cards": "dd.solver", "dd_table": "dd.solver",
    # the game
    "View": "game.view", "HandState": "game.hand", "Hand": "game.hand",
    "Position": "game.play",
    "deal_position": "game.play",
    "RuleSet": "game.rules", "PRESETS": "game.rules", "get_rules": "game.rules",
    "Score": "game.match", "parse_score": "game.match",
    "parse_card": "game.cards", "parse_cards": "game.cards", "format_card": "game.cards",
    "format_cards": "game.cards", "random_deal": "game.cards",
    # records
    "HandRecord": "notation.record", "read_record": "notation.record",
    "write_record": "notation.record", "read_json": "notation.record",
    "write_json": "notation.record", "read_text": "notation.record",
    "write_text": "notation.record",
    "replay": "notation.replay", "replay_deal": "notation.replay",
    "record_of": "notation.replay", "view_of": "notation.replay",
    "read_view": "notation.replay",
    # the errors
    "CuatrolaError": "errors", "NotationError": "errors", "RulesError": "errors",
    "IllegalBidError": "errors", "IllegalPlayError": "errors", "IllegalCanteError": "errors",
    "InconsistentDealError": "errors", "RecordError": "errors",
}

__all__ = ["__version__", *_FACE]


def __getattr__(name: str) -> object:
    """Load a name of the face on first use (PEP 562)."""
    module = _FACE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACE))


if TYPE_CHECKING:  # the same names, for readers and type checkers
    from .advice.bidding import Advice, advise, bid_options
    from .advice.budget import Budget
    from .advice.cardplay import Hint, hint
    from .analysis.review import Analysis, analyze, annotate
    from .dd.solver import dd_table, solve, solve_cards
    from .errors import (CuatrolaError, IllegalBidError, IllegalCanteError, IllegalPlayError,
                         InconsistentDealError, NotationError, RecordError, RulesError)
    from .game.cards import format_card, format_cards, parse_card, parse_cards, random_deal
    from .game.constraints import Constraints
    from .game.hand import Hand, HandState
    from .game.match import Score, parse_score
    from .game.play import Position, deal_position
    from .game.rules import PRESETS, RuleSet, get_rules
    from .game.view import View
    from .models.preset import Models
    from .notation.record import (HandRecord, read_json, read_record, read_text, write_json,
                                  write_record, write_text)
    from .notation.replay import read_view, record_of, replay, replay_deal, view_of
