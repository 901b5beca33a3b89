"""Post-game analysis of a played hand: renuncios, the cost of every card, the bids.

:func:`analyze` replays a :class:`~cuatrola_solver.notation.record.HandRecord` with
:func:`~cuatrola_solver.notation.replay.replay_deal` and returns an
:class:`Analysis`:

**Renuncios and result** -- as ``cuatrola check`` finds them; the first renuncio
decides the hand with the preset's penalty (``renuncio_penalty``, docs/rules.md 6, 8.5).

**Every card played** (up to and including the first renuncio; the later cards are
listed with ``kind = "after_renuncio"`` and not valued: the hand was already decided)
is valued twice, always *for the side of the seat that played it*:

- *double dummy* (all cards visible, as endplay's ``analyse_play``):
  :func:`solver.solve_cards` on the position before the card, objectives ``makes``,
  ``game_points``, ``tricks`` and ``margin`` (each its own optimum, docs/rules.md 8.9).
  ``dd.before`` is the value of the position (the best card), ``dd.after`` the value
  after the card played; ``dd_loss = before.makes - after.makes`` (1 when the card
  throws away a hand that was won double dummy) and ``dd_points_lost`` the match
  points (``game_points``) it gives away;
- *from what the seat knew* (:func:`cardplay.hint` on the hand replayed up to the card:
  its own cards, the muestra, the auction, every card played and cante sung so far,
  over the deals consistent with that knowledge): ``p_win`` of the card played,
  ``best_p_win`` of the best card, ``loss = best_p_win - p_win`` and ``best`` (the
  cards that reach ``best_p_win``).  When the seat may sing at that trick boundary
  the hint assumes it sings first (see :func:`cardplay.hint`).

With a played-odds model that has card cells (``played_model``, :mod:`played`; the
default of ``cuatrola analyze``, for the presets whose model has them) each valued
card also has ``p_played`` and ``best_p_played``, the same as
the hand will be played by players who see only their own cards, and ``loss`` is
``best_p_played - p_played``: a card that only loses against defenders who see every
card costs less than double dummy says.  ``loss_dd`` is always the double-dummy
``best_p_win - p_win``; ``best`` the cards that reach the best rated chance.  Any
played-odds model rates the calls of the bid review on their played EV (``p_played``,
``ev_played``).

The **label** of a card comes from ``loss`` (the knowledge-based loss of winning
chances), with lichess's thresholds: ``inaccuracy`` ``?!`` (>= 0.10), ``mistake``
``?`` (>= 0.20), ``blunder`` ``??`` (>= 0.30).  A renuncio is labelled
``renuncio`` with the symbol ``??`` (its ``p_win`` is 0: the hand is lost).
``dd_only`` flags a card that is a double-dummy error (``dd_loss > 0``) but was a
sound play on the information available (``loss < 0.10``); ``unpunished`` the
reverse (a labelled card that cost nothing double dummy).

**Bid review** -- for each seat, in speaking order: :func:`bidding.advise` from its
own hand at its turn (the calls before it, the record's score), i.e. ``p_win`` and
``ev`` of every call it could have made, the advice, the call it made and
``ev_loss`` (expected match points given away by the call made); and, per option,
what the contract it leads to would have given on the actual deal double dummy
(the row of the deal's table, :func:`~cuatrola_solver.dd.batch.solve_table`, seen
from the seat's side: ``makes`` and ``game_points``).  ``dd_best`` is the call that would have scored most on the
actual deal, ``missed`` is set when it is a bid the seat did not make although the
contract makes double dummy (e.g. a cuatrola that was there to be made).
When the record has the match score, every option also has ``p_match`` (the seat's
pair's chance of winning the match after it, :mod:`equity`), the advice is the call of
highest match chance, ``advice_per_hand`` the call of highest ``ev`` (``ev_loss`` is
measured against it) and ``match_loss`` the match chance given away by the call made.

**Summary per seat** -- ``choices``: cards it played with more than one legal card
(a renuncio is a choice: a legal card was available); ``accuracy``: the percentage
of its choices with ``loss < 0.10`` and no renuncio (None without choices);
``inaccuracies``/``mistakes``/``blunders``/``renuncios``: counts of labels;
``win_chance_lost``: sum of ``loss``; ``points_lost``: sum of ``dd_points_lost``,
the match points its cards gave away double dummy (renuncio included: the penalty
against the best double-dummy result); ``dd_errors``: cards with ``dd_loss > 0``;
``dd_only``: those of them that were sound on its knowledge.

Sampling: each card as ``hint`` values it (over every consistent deal when they fit
its time budget -- from the second trick on, nearly always -- else ``samples`` deals; with
``samples`` asked for, every deal only when there are at most that many) and
``samples`` deals per bid review; ``exact=True`` enumerates every consistent deal
everywhere (slow for the first cards: about 250,000 deals).  ``seed`` makes
the report reproducible: card ``i`` (0-based, in playing order) uses ``seed + i``,
the bid review of seat ``s`` uses ``seed + 100 + s``.
"""

from __future__ import annotations

import copy
import dataclasses
import multiprocessing
import threading
import sys
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from ..advice.bidding import Advice, OptionResult, advise, layouts_of, valued
from ..advice.budget import Budget, Progress
from ..advice.cardplay import Hint, hint
from ..dd import solver
from ..dd.batch import SolveTable, solve_table
from ..errors import InconsistentDealError
from ..game.cards import Card, format_card, format_cards
from ..game.constraints import Constraints
from ..game.hand import HandState, Renuncio, Result
from ..game.play import renuncio_obligation, side_of
from ..game.seats import Side
from ..game.rules import rules_spec
from ..game.view import View
from ..i18n import _
from ..models.played import PlayedModel
from ..models.preset import Models
from ..notation.record import HandRecord
from ..notation.replay import replay_cards, replay_deal

__all__ = ["analyze", "Analysis", "CardReview", "BidReview", "SeatSummary", "DDValue",
           "DDSwing", "WinPoint", "win_chances", "label_of", "annotate", "reported",
           "DEFAULT_SAMPLES", "THRESHOLDS"]

#: deals per card and per bid review (the default of ``cuatrola analyze``)
DEFAULT_SAMPLES = 1000
#: processes sharing the cards by default: one.  On the project's 2-core machine two
#: were not faster on the examples of ``examples/analysis`` (README, "Benchmark")
DEFAULT_WORKERS = 1
#: (least loss, label, symbol), worst first (lichess's thresholds on winning chances)
THRESHOLDS = ((0.30, "blunder", "??"), (0.20, "mistake", "?"), (0.10, "inaccuracy", "?!"))
#: a card with a loss below this is sound
SOUND = THRESHOLDS[-1][0]
_EPS = 1e-9
OBJECTIVES = ("makes", "game_points", "tricks", "margin")



def label_of(loss: float | None) -> tuple[str | None, str | None]:
    """``(label, symbol)`` for a loss of winning chances; ``(None, None)`` when sound."""
    if loss is None:
        return None, None
    for least, label, symbol in THRESHOLDS:
        if loss >= least - _EPS:
            return label, symbol
    return None, None


def reported(x: float | None, digits: int = 6) -> float | None:
    """A figure as the report gives it (``analyze --json``, and the text and the page
    that show it): rounded to ``digits`` decimals."""
    return None if x is None else round(x, digits)


# --- results -----------------------------------------------------------------------

@dataclass(frozen=True)
class DDValue:
    """A position's double-dummy value for one side, each objective its own optimum
    (docs/rules.md 8.9): whether the side wins, its match points, its tricks and its
    margin of points (None where the contract is decided on tricks, and after a
    renuncio, whose value is its penalty)."""

    makes: bool
    game_points: int
    tricks: int | None
    margin: int | None

    def other_side(self) -> DDValue:
        """The same position valued for the other side."""
        return DDValue(not self.makes, -self.game_points,
                       None if self.tricks is None else 5 - self.tricks,
                       None if self.margin is None else -self.margin)

    def to_dict(self) -> dict[str, Any]:
        return {"makes": self.makes, "game_points": self.game_points, "tricks": self.tricks,
                "margin": self.margin}


@dataclass(frozen=True)
class DDSwing:
    """A card's double-dummy value for its side: before it (the value of the position,
    the best card's) and after it, ``(before, after)`` of each figure."""

    makes: tuple[bool, bool]
    game_points: tuple[int, int]


@dataclass(frozen=True)
class CardReview:
    trick: int                  # 1-based
    position: int               # 1-based place in the trick
    seat: int
    card: int
    kind: str                   # choice | forced | renuncio | after_renuncio
    legal: tuple[int, ...] = ()
    dd_before: DDValue | None = None
    dd_after: DDValue | None = None
    p_win: float | None = None
    best_p_win: float | None = None
    best: tuple[int, ...] = ()
    deals: int = 0
    exact: bool = False
    seed: int | None = None
    obligation: str | None = None
    #: with a played-odds model: p_win and best_p_win as the hand will be played
    p_played: float | None = None
    best_p_played: float | None = None

    @property
    def side(self) -> int:
        return side_of(self.seat)

    @property
    def p_rated(self) -> float | None:
        """The P(win) the card is rated on: as played with a model, else double dummy."""
        return self.p_played if self.p_played is not None else self.p_win

    @property
    def best_p_rated(self) -> float | None:
        return self.best_p_played if self.best_p_played is not None else self.best_p_win

    @property
    def loss(self) -> float | None:
        """The loss of winning chances the label is given on: as played when the
        analysis has a played-odds model, else double dummy (:attr:`loss_dd`)."""
        if self.p_rated is None or self.best_p_rated is None:
            return None
        return max(0.0, self.best_p_rated - self.p_rated)

    @property
    def loss_dd(self) -> float | None:
        """The loss of double-dummy winning chances over the deals the seat could not
        tell apart."""
        if self.p_win is None or self.best_p_win is None:
            return None
        return max(0.0, self.best_p_win - self.p_win)

    @property
    def loss_reported(self) -> float | None:
        """:attr:`loss` as the report gives it (6 decimals)."""
        return reported(self.loss)

    @property
    def dd_swing(self) -> DDSwing | None:
        """Whether the side wins and its match points double dummy, before the card and
        after it (None for a card not valued)."""
        if self.dd_before is None or self.dd_after is None:     # both or neither
            return None
        b, a = self.dd_before, self.dd_after
        return DDSwing((bool(b.makes), bool(a.makes)), (int(b.game_points), int(a.game_points)))

    @property
    def dd_loss(self) -> int | None:
        swing = self.dd_swing
        return None if swing is None else int(swing.makes[0]) - int(swing.makes[1])

    @property
    def dd_points_lost(self) -> int | None:
        swing = self.dd_swing
        return None if swing is None else swing.game_points[0] - swing.game_points[1]

    @property
    def label(self) -> str | None:
        if self.kind == "renuncio":
            return "renuncio"
        if self.kind != "choice":
            return None
        return label_of(self.loss)[0]

    @property
    def symbol(self) -> str | None:
        if self.kind == "renuncio":
            return "??"
        if self.kind != "choice":
            return None
        return label_of(self.loss)[1]

    @property
    def dd_only(self) -> bool:
        """A double-dummy error that was sound on the seat's knowledge."""
        loss = self.loss
        return (bool(self.dd_loss) and self.kind == "choice" and loss is not None
                and loss < SOUND - _EPS)

    @property
    def unpunished(self) -> bool:
        """Labelled on the seat's knowledge, but it cost nothing double dummy."""
        return self.label is not None and self.kind == "choice" and self.dd_points_lost == 0 \
            and self.dd_loss == 0

    def comment(self) -> str | None:
        """A short annotation comment: what was better and what the card lost."""
        if self.kind == "renuncio":
            return (f"renuncio ({valued(self.obligation).replace('_', ' ')}): "
                    f"{format_cards(self.legal)} was legal")
        if self.kind != "choice":
            return None
        label = self.label
        if label is None and not self.dd_loss:
            return None
        best = format_cards(self.best[:3])
        parts = []
        if label is not None:       # labelled on the loss: both chances are known
            parts.append(f"{label}: {best} wins {100 * valued(self.best_p_rated):.0f}%, "
                         f"this {100 * valued(self.p_rated):.0f}%"
                         + (" as played" if self.p_played is not None else ""))
        if self.dd_loss:
            parts.append("loses a won hand double dummy"
                         + ("; sound on what was known" if self.dd_only else ""))
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick, "position": self.position, "seat": self.seat,
            "side": str(self.side), "card": format_card(self.card), "kind": self.kind,
            "legal": [format_card(c) for c in self.legal],
            "obligation": self.obligation,
            "dd": None if self.dd_before is None or self.dd_after is None
            else {"before": self.dd_before.to_dict(), "after": self.dd_after.to_dict()},
            "dd_loss": self.dd_loss, "dd_points_lost": self.dd_points_lost,
            "p_win": self.p_win, "best_p_win": self.best_p_win,
            "p_played": self.p_played, "best_p_played": self.best_p_played,
            "loss": self.loss_reported, "loss_dd": reported(self.loss_dd),
            "best": [format_card(c) for c in self.best],
            "label": self.label, "symbol": self.symbol,
            "dd_only": self.dd_only, "unpunished": self.unpunished,
            "deals": self.deals, "exact": self.exact, "seed": self.seed,
        }


@dataclass(frozen=True)
class BidReview:
    """One seat's call against the advisor's answer at its turn (``answer``: the
    :class:`~cuatrola_solver.advice.bidding.Advice` of its own hand, the calls before it
    and the score), and what each allowed call would have scored on the actual deal,
    double dummy (``dd[bid]``: ``(makes, game points)`` of the seat's side)."""

    seat: int
    call: str
    answer: Advice
    dd: Mapping[str, tuple[bool, int]]

    @property
    def advice(self) -> str:
        """The advised call (for the match, with the score)."""
        return self.answer.advice

    @property
    def advice_per_hand(self) -> str | None:
        """With the match score: the call of highest ev (the advice plays for the match)."""
        return self.answer.advice_per_hand

    def option(self, bid: str) -> OptionResult:
        return self.answer.option(bid)

    def dd_makes(self, bid: str) -> bool | None:
        return self.dd[bid][0] if bid in self.dd else None

    def dd_game_points(self, bid: str) -> int | None:
        return self.dd[bid][1] if bid in self.dd else None

    @property
    def ev_loss(self) -> float:
        """Expected match points per hand given away against the best call for the hand
        (as played when the review has played odds)."""
        best = self.option(self.advice_per_hand or self.advice)
        return max(0.0, valued(best.ev_rated) - valued(self.option(self.call).ev_rated))

    @property
    def ev_loss_reported(self) -> float:
        """:attr:`ev_loss` as the report gives it (6 decimals)."""
        return round(self.ev_loss, 6)

    @property
    def match_loss_reported(self) -> float | None:
        """:attr:`match_loss` as the report gives it (6 decimals)."""
        return reported(self.match_loss)

    @property
    def played(self) -> bool:
        """Whether the calls were rated as played (a played-odds model)."""
        return any(r.p_played is not None for r in self.answer.options)

    @property
    def match_loss(self) -> float | None:
        """The chance of winning the match given away by the call (with the score)."""
        if self.advice_per_hand is None:
            return None
        return max(0.0, valued(self.option(self.advice).p_match)
                   - valued(self.option(self.call).p_match))

    @property
    def dd_best(self) -> str:
        """The allowed call that scores most on the actual deal (ties: the weaker call)."""
        best = None
        for r in self.answer.options:
            bid = r.option.bid
            if r.option.allowed and (best is None or self.dd[bid][1] > self.dd[best][1]):
                best = bid
        return valued(best)         # paso is always allowed

    @property
    def dd_points_lost(self) -> int:
        return self.dd[self.dd_best][1] - self.dd[self.call][1]

    @property
    def missed(self) -> str | None:
        """A bid the seat did not make that wins on the actual deal and scores more."""
        best = self.dd_best
        if best not in ("paso", self.call) and self.dd[best][0] and self.dd_points_lost > 0:
            return best
        return None

    def _option_dict(self, r: OptionResult, match: bool, played: bool) -> dict[str, Any]:
        o = r.option
        makes, points = self.dd.get(o.bid, (None, None))
        d = {"bid": o.bid, "allowed": o.allowed, "contract": o.contract,
             "declarer": o.shown_declarer, "p_win": r.p_win, "ev": r.ev,
             "dd_makes": makes, "dd_game_points": points, "reason": o.reason}
        if played:
            d["p_played"], d["ev_played"] = r.p_played, r.ev_played
        if match:
            d["p_match"] = r.p_match
        return d

    def to_dict(self) -> dict[str, Any]:
        match = self.advice_per_hand is not None
        played = self.played
        a = self.answer
        d = {"seat": self.seat, "side": str(side_of(self.seat)), "call": self.call,
             "advice": self.advice, "ev_loss": self.ev_loss_reported,
             "dd_best": self.dd_best, "dd_points_lost": self.dd_points_lost,
             "missed": self.missed, "deals": a.deals, "exact": a.exact,
             "seed": a.seed,
             "options": [self._option_dict(r, match, played) for r in a.options]}
        if match:
            d["advice_per_hand"] = self.advice_per_hand
            d["match_loss"] = valued(self.match_loss_reported)
        return d


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    cards: int
    choices: int
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int
    renuncios: int
    win_chance_lost: float
    points_lost: int
    dd_errors: int
    dd_only: int

    @property
    def side(self) -> Side:
        return side_of(self.seat)

    @property
    def accuracy_reported(self) -> float | None:
        """:attr:`accuracy` (a percentage) as the report gives it (1 decimal)."""
        return reported(self.accuracy, 1)

    @property
    def win_chance_lost_reported(self) -> float:
        """:attr:`win_chance_lost` as the report gives it (6 decimals)."""
        return round(self.win_chance_lost, 6)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "side": str(self.side),
                "cards": self.cards, "choices": self.choices,
                "accuracy": self.accuracy_reported,
                "inaccuracies": self.inaccuracies, "mistakes": self.mistakes,
                "blunders": self.blunders, "renuncios": self.renuncios,
                "win_chance_lost": self.win_chance_lost_reported,
                "points_lost": self.points_lost, "dd_errors": self.dd_errors,
                "dd_only": self.dd_only}


@dataclass(frozen=True)
class Analysis:
    record: HandRecord
    hand: HandState
    exact: bool
    samples: int
    seed: int | None
    cards: tuple[CardReview, ...]
    bids: tuple[BidReview, ...]
    #: the actual deal's double-dummy table
    dd_table: SolveTable
    summary: tuple[SeatSummary, ...] = field(default=())
    model: str = "dd"       # "played": the cards' labels on played odds
    #: the what-if constraints on the hands as dealt, and per seat the layouts that meet
    #: them at the deal, of how many (None for a seat they do not restrict: its own)
    constraints: tuple[str, ...] = ()
    layouts: tuple[tuple[int, int] | None, ...] = ()

    @property
    def decided_by(self) -> Renuncio | None:
        return self.hand.renuncios[0] if self.hand.renuncios else None

    @property
    def result(self) -> Result | None:
        """The hand's result (None when the record stops before it is decided)."""
        return self.hand.result()

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """The four hands as dealt (an analysed record has the whole deal)."""
        return tuple(tuple(valued(h)) for h in self.record.hands)

    @property
    def players(self) -> tuple[str | None, ...]:
        """The players' names at seats 1 to 4 (None: not given)."""
        return self.record.players

    @property
    def win_chances(self) -> tuple[WinPoint, ...]:
        """Each side's chance of winning along the play (:func:`win_chances`)."""
        return win_chances(self)

    def to_dict(self) -> dict[str, Any]:
        """The ``analyze --json`` object (without ``schema``)."""
        hand = self.hand
        decl = hand.declarer
        result = self.result
        first = self.decided_by
        return {
            "rules": rules_spec(hand.rules), "muestra": format_card(hand.muestra),
            "hands": [format_cards(h) for h in self.dealt],   # a whole deal
            "auction": list(hand.auction.calls),
            "score": hand.score.to_dict() if hand.score else None,
            "contract": hand.contract,
            "declarer": solver.shown_declarer(decl),
            "exact": self.exact, "samples": self.samples, "seed": self.seed,
            "model": self.model,
            "renuncios": [r.to_dict() for r in hand.renuncios],
            "decided_by_renuncio": None if first is None else first.to_dict(),
            "result": result.to_dict() if result else None,
            "cards": [c.to_dict() for c in self.cards],
            "bids": [b.to_dict() for b in self.bids],
            "dd_table": solver.table_rows(self.dd_table.table, self.dd_table.rules),
            "summary": [s.to_dict() for s in self.summary],
        } | ({"constraints": list(self.constraints),
              "layouts": [None if n is None else {"seat": s, "layouts": n[0],
                                                  "layouts_unconstrained": n[1]}
                          for s, n in enumerate(self.layouts, 1)]}
             if self.constraints else {}) \
            | {"win_chances": [p.to_dict() for p in self.win_chances]} \
            | ({"players": list(self.players)} if any(self.players) else {})


@dataclass(frozen=True)
class WinPoint:
    """One point of the graph of the win chances (:func:`win_chances`): before the first
    card (``index`` 0, no card) or after card ``index``, its figures as the report gives
    them (6 decimals)."""

    index: int
    trick: int
    seat: int | None
    card: Card | None
    knew: float | None          # side A's chance, from side A's view
    knew_b: float | None        # side B's, from side B's
    view_a: int | None          # the seat whose view it is
    view_b: int | None
    dd: int | None              # 1: side A wins double dummy from here, 0: side B
    symbol: str | None
    label: str | None
    valued: bool
    decided: bool

    def knew_of(self, side: Side) -> float | None:
        """The chance of ``side``, from its own view."""
        return self.knew if side is Side.A else self.knew_b

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "trick": self.trick, "seat": self.seat,
                "card": None if self.card is None else format_card(self.card),
                "knew": self.knew, "knew_b": self.knew_b,
                "view_a": self.view_a, "view_b": self.view_b, "dd": self.dd,
                "symbol": self.symbol, "label": self.label,
                "valued": self.valued, "decided": self.decided}


def win_chances(analysis: Analysis) -> tuple[WinPoint, ...]:
    """Each side's chance of winning the hand along the play, for the graph of the report:
    one point before the first card (``index`` 0) and one after each card.

    Each side's chance is valued from what that side's own seats knew at that moment,
    never from the other side's view: ``knew`` is side A's chance from side A's view,
    ``knew_b`` side B's from side B's (``view_a`` and ``view_b`` name the seat whose view
    it is).  After card ``i`` a side's value is, in this order of preference:

    - the chance the seat that played card ``i`` gave it, if that seat is of the side and
      chose the card (its ``p_rated``: as played with a played-odds model);
    - else the chance of the best card of the next seat to play, if that seat is of the
      side and has a choice (its ``best_p_rated``: the position after card ``i`` valued
      from its view);
    - else the side's last value, carried on (a forced card says nothing new).

    The two need not add up to 1: each side sees only its own cards.  Once the hand is
    decided -- its last card, an early end, the first renuncio and the cards after it --
    both are the result (1 for the side that scores, 0 for the other), so the last point
    is the result.  ``dd``: double dummy, 1 when side A wins with perfect play from there
    on, else 0.  ``symbol``/``label`` mark the mistakes; ``valued`` is False for a card
    that was not valued (forced, after a renuncio); ``decided`` is True on the points
    that are the result."""
    hand = analysis.hand
    cards = analysis.cards
    dd0 = None
    for row in analysis.dd_table.rows:
        if row.contract == hand.contract and row.declarer == tuple(hand.declarer):
            dd0 = int(row.makes) if row.side == "A" else 1 - int(row.makes)
    result = hand.result()
    winner = None if result is None else int(result.winner)
    knew: list[float | None] = [None, None]     # side A's, side B's
    view: list[int | None] = [None, None]

    def point(i: int, c: CardReview | None, dd: int | None, decided: bool) -> WinPoint:
        return WinPoint(i, 1 if c is None else c.trick, None if c is None else c.seat,
                        None if c is None else c.card, reported(knew[0]), reported(knew[1]),
                        view[0], view[1], None if dd is None else int(dd),
                        None if c is None else c.symbol, None if c is None else c.label,
                        c is None or c.p_win is not None, decided)

    def facing(j: int, skip_side: int | None = None) -> None:
        """Card ``j``'s seat, on turn with a choice, values the position it faces."""
        if j < len(cards) and cards[j].kind in ("choice", "renuncio") \
                and cards[j].best_p_rated is not None and cards[j].side != skip_side:
            knew[cards[j].side], view[cards[j].side] = cards[j].best_p_rated, cards[j].seat

    facing(0)
    points = [point(0, None, dd0, False)]
    dd = dd0
    decided = False
    for i, c in enumerate(cards, 1):
        decided = decided or c.kind in ("renuncio", "after_renuncio") or i == len(cards)
        if c.dd_after is not None:
            m = int(bool(c.dd_after.makes))
            dd = m if c.side == 0 else 1 - m
        played = c.kind == "choice" and c.p_rated is not None
        if played:
            knew[c.side], view[c.side] = c.p_rated, c.seat
        facing(i, c.side if played else None)      # the player's own value comes first
        if decided and winner is not None:
            knew = [1.0 if winner == 0 else 0.0, 1.0 if winner == 1 else 0.0]
            view = [None, None]
            dd = 1 if winner == 0 else 0
        points.append(point(i, c, dd, decided and winner is not None))
    return tuple(points)


# --- the work ----------------------------------------------------------------------

def _seat_view(value: DDValue, seat_side: int, declaring: int) -> DDValue:
    """A value for the declaring side seen from ``seat_side``."""
    return value if seat_side == declaring else value.other_side()


def _dd_card_values(hand: HandState) -> dict[int, DDValue]:
    """``{card: its value for the seat on turn's side}`` for every legal card."""
    pos = hand.play_position
    makes, points, tricks, margin = (solver.solve_cards(pos, hand.rules, obj)
                                     for obj in OBJECTIVES)
    mine = side_of(pos.to_play)
    return {c: _seat_view(DDValue(bool(valued(makes[c])), valued(points[c]), tricks[c],
                                  margin[c]), mine, pos.declaring_side)
            for c in makes}


def _best_of(values: dict[int, DDValue]) -> DDValue:
    """The value of the position: each objective's best over the cards."""
    vs = list(values.values())
    tricks = [v.tricks for v in vs]
    margin = [v.margin for v in vs]
    return DDValue(bool(max(v.makes for v in vs)), max(v.game_points for v in vs),
                   None if tricks[0] is None else max(valued(t) for t in tricks),
                   None if margin[0] is None else max(valued(m) for m in margin))


@dataclass(frozen=True)
class _Method:
    """How the cards and calls are valued: the analysis's budget (its seed drawn, its
    workers set; its ``samples`` as asked, None leaving the cards to hint's own choice:
    every consistent deal when they fit its time budget), the models
    (:class:`~cuatrola_solver.models.preset.Models`) and the what-if constraints on the
    hands as dealt."""
    budget: Budget
    models: Models
    constraints: Constraints = Constraints(dealt=True)

    def bids_budget(self, seed: int | None) -> Budget:
        """The budget of a seat's bid review: :data:`DEFAULT_SAMPLES` deals unless
        others were asked for, drawn with ``seed``."""
        return dataclasses.replace(self.budget, seed=seed,
                                   samples=self.budget.samples_or(DEFAULT_SAMPLES))

    def view(self, view: View) -> View:
        """``view`` with the constraints about the other seats."""
        return view.assuming(self.constraints.without(view.seat)) if self.constraints else view

    @property
    def card_model(self) -> PlayedModel | None:
        """The played-odds model the cards are rated on: None when there is none or it
        has no card cells (the cards are then rated double dummy)."""
        m = self.models.played
        return m if m is not None and m.has_cards else None


def _hint(hand: HandState, how: _Method, budget: Budget) -> Hint:
    """The hint of the seat on turn, with hint's own choice of exact or sampled
    (:func:`~cuatrola_solver.advice.cardplay.exact_when_few`)."""
    view = how.view(View.on_turn(hand))
    return hint(view, budget, dataclasses.replace(how.models, played=how.card_model))


def _review_card(hand: HandState, trick: int, position: int, card: int, how: _Method,
                 budget: Budget) -> CardReview:
    pos = hand.play_position
    seat = pos.to_play
    legal = tuple(hand.legal_cards())
    if len(legal) == 1 and card in legal:
        return CardReview(trick, position, seat, card, "forced", legal)
    dd = _dd_card_values(hand)
    before = _best_of(dd)
    try:
        h = _hint(hand, how, budget)
    except InconsistentDealError as e:
        if not how.constraints:
            raise
        raise InconsistentDealError(_("trick {trick}, seat {seat}'s card {card}: {e}")
                                     .format(trick=trick, seat=seat, card=format_card(card), e=e)) from None
    p = {ch.card: ch.p_win for ch in h.cards}
    pp = {ch.card: ch.p_played for ch in h.cards}
    rated = {ch.card: valued(ch.p_played) if how.card_model is not None else ch.p_win
             for ch in h.cards}
    best_r = max(rated.values())
    best = tuple(ch.card for ch in h.cards if rated[ch.card] >= best_r - _EPS)
    best_p, best_pp = p[best[0]], pp[best[0]]
    if card in legal:
        return CardReview(trick, position, seat, card, "choice", legal, before, dd[card],
                          p[card], best_p, best, h.deals, h.exact, h.seed, None,
                          pp[card], best_pp)
    after = DDValue(False, -hand.rules.renuncio_value(hand.contract), None, None)
    obligation = renuncio_obligation(pos.hand(seat), pos.trick, hand.trump, card)
    return CardReview(trick, position, seat, card, "renuncio", legal, before, after, 0.0,
                      best_p, best, h.deals, h.exact, h.seed, obligation,
                      None if best_pp is None else 0.0, best_pp)


def _review_bids(hand: HandState, table: SolveTable, how: _Method) -> list[BidReview]:
    seed = how.budget.seed
    by_key = {(row.contract, row.declarer): row for row in table.rows}
    out = []
    calls = list(hand.auction.calls)
    for seat in (1, 2, 3, 4):
        s = None if seed is None else seed + 100 + seat
        view = how.view(View(hand.rules, seat, hand.deal[seat - 1], hand.muestra,
                             tuple(calls[:seat - 1]), score=hand.score))
        try:
            answer = advise(view, how.bids_budget(s), how.models)
        except InconsistentDealError as e:
            raise InconsistentDealError(_("seat {seat}'s call: {e}").format(seat=seat, e=e)) from None
        mine = side_of(seat)
        dd = {}
        for r in answer.options:
            o = r.option
            if o.allowed:
                row = by_key[valued(o.key)]
                v = _seat_view(DDValue(row.makes, row.game_points, row.tricks, row.margin),
                               mine, Side.parse(row.side))
                dd[o.bid] = (v.makes, v.game_points)
        out.append(BidReview(seat, calls[seat - 1], answer, dd))
    return out


def _summaries(cards: list[CardReview]) -> list[SeatSummary]:
    out = []
    for seat in (1, 2, 3, 4):
        mine = [c for c in cards if c.seat == seat and c.kind != "after_renuncio"]
        choices = [c for c in mine if c.kind in ("choice", "renuncio")]
        good = [c for c in choices if c.kind == "choice" and valued(c.loss) < SOUND - _EPS]
        labels = [c.label for c in mine]
        out.append(SeatSummary(
            seat, len(mine), len(choices),
            100.0 * len(good) / len(choices) if choices else None,
            labels.count("inaccuracy"), labels.count("mistake"), labels.count("blunder"),
            labels.count("renuncio"),
            sum(valued(c.loss) for c in choices),
            sum(valued(c.dd_points_lost) for c in choices),
            sum(1 for c in choices if c.dd_loss), sum(1 for c in choices if c.dd_only)))
    return out


#: a card to review: its index, trick, position in the trick, the hand before it, the card
#: and its budget
_Card = tuple[int, int, int, HandState, int, Budget]
#: a card to review and how
_Task = tuple[int, int, int, HandState, int, Budget, _Method]


def _review_task(task: _Task) -> tuple[int, CardReview]:
    i, t, j, hand, c, budget, how = task
    return i, _review_card(hand, t, j, c, how, budget)


def _review_cards(tasks: list[_Card], how: _Method,
                  workers: int) -> Iterator[tuple[int, CardReview]]:
    """Yield ``(index, CardReview)`` for every task, in any order.

    Each card's review is independent of the others and mostly Python (the hint's
    deal-by-deal searches hold the GIL, so threads do not help), so with ``workers`` > 1
    the cards are shared among that many forked processes; the reviews, seeded per card,
    are the same whatever ``workers``.  Elsewhere than on Linux (where forking a process
    that has loaded numpy is not safe everywhere), or with one worker or one card, they
    run here, one after another."""
    workers = min(workers, len(tasks))
    if workers > 1 and sys.platform.startswith("linux"):
        # a fork copies only this thread: in a process running others (the web server's,
        # the solver's), a lock one of them held stays taken in the child, which hangs;
        # there the workers come from a fork server (a process of one thread) instead
        start = "fork" if threading.active_count() == 1 else "forkserver"
        with multiprocessing.get_context(start).Pool(workers) as pool:
            yield from pool.imap_unordered(_review_task, [task + (how,) for task in tasks])
        return
    for task in tasks:
        yield _review_task(task + (how,))


def _layouts(hand: HandState, how: _Method) -> tuple[tuple[int, int] | None, ...]:
    """Per seat, the layouts its view at the deal leaves under the constraints about the
    other seats, of how many (None when none is about them)."""
    out: list[tuple[int, int] | None] = []
    for s in (1, 2, 3, 4):
        if not how.constraints.without(s):
            out.append(None)
            continue
        view = how.view(View(hand.rules, s, hand.deal[s - 1], hand.muestra, score=hand.score))
        try:
            out.append(layouts_of(view))
        except InconsistentDealError as e:
            raise InconsistentDealError(_("seat {s}'s view at the deal: {e}").format(s=s, e=e)) from None
    return tuple(out)


def analyze(rec: HandRecord, budget: Budget | None = None, models: Models | None = None, *,
            bids: bool = True, constraints: Constraints | str | None = None,
            progress: Progress | None = None) -> Analysis:
    """The post-game analysis of a record (see the module's docstring).

    ``budget`` (default :class:`Budget()`): ``samples`` deals per card and per bid review
    (default :data:`DEFAULT_SAMPLES`; unused with ``exact``), ``seed`` (None: one is drawn
    and reported in the result), ``workers`` processes sharing the cards and threads of
    the bid review's batch solver (default :data:`DEFAULT_WORKERS`; the result does not
    depend on it).  ``models`` (default: the preset's, as ``cuatrola analyze`` uses them):
    the bid model weights the hidden deals by the calls (see ``advise``), the card-play
    model, at each card, by the cards the other seats played before it (see ``hint``);
    the played-odds model rates the calls as played (the bid advice comes from the
    played EV) and, if it has card cells, the cards (the labels come from the loss of
    played winning chances; ``model`` says which).  ``bids=False`` skips the bid
    review; ``progress(done, total)`` is called after each card and each bid review.
    Raises :class:`~cuatrola_solver.errors.RecordError` for a record that cannot be
    replayed.

    ``constraints`` (what-if constraints, ``"3: void o; 4: >=2 triunfo"``) are about the
    hands **as dealt**: every card and call is valued from its seat's view with the
    constraints about the other seats, on what is left of them at that moment (cards of
    the set already played count).  A constraint that leaves a view no layout raises
    :class:`~cuatrola_solver.errors.InconsistentDealError` naming it and the card.
    """
    final = replay_deal(rec)               # checks the record and its score, errors say where
    budget = Budget() if budget is None else budget
    models = Models.of(final.rules) if models is None else models
    workers = budget.workers_or(DEFAULT_WORKERS)
    seed = budget.drawn_seed()
    budget = dataclasses.replace(budget, seed=seed, workers=workers)
    first = final.renuncios[0] if final.renuncios else None
    total = sum(len(t) for t in rec.tricks) + (4 if bids else 0)
    cards: list[CardReview | None] = []
    tasks: list[_Card] = []
    decided = False
    for i, (t, j, hand, c) in enumerate(replay_cards(rec)):
        if decided:
            cards.append(CardReview(t, j, hand.play_position.to_play, c, "after_renuncio",
                                    tuple(hand.legal_cards())))
        else:
            cards.append(None)
            # each card on one worker, with a seed of its own
            tasks.append((i, t, j, copy.deepcopy(hand), c, dataclasses.replace(
                budget, seed=None if seed is None else seed + i, workers=1)))
            if first is not None and (t, hand.play_position.to_play) == (first.trick, first.seat) \
                    and c == first.card:
                decided = True
    done = len(cards) - len(tasks)
    assumed = dataclasses.replace(Constraints.of(constraints), dealt=True)
    how = _Method(budget, models, assumed)
    layouts = _layouts(final, how) if assumed else ()
    for i, review in _review_cards(tasks, how, workers):
        cards[i] = review
        done += 1
        if progress:
            progress(done, total)
    table = solve_table(rec.hands, rec.muestra, final.rules)
    reviews = []
    if bids:
        reviews = _review_bids(final, table, how)
        if progress:
            progress(total, total)
    reviewed = [valued(c) for c in cards]          # each task has filled its place
    return Analysis(rec, final, budget.exact, budget.samples_or(DEFAULT_SAMPLES), seed,
                    tuple(reviewed), tuple(reviews),
                    table, tuple(_summaries(reviewed)),
                    "dd" if how.card_model is None else "played",
                    tuple(assumed.to_list()), layouts)


def annotate(analysis: Analysis) -> HandRecord:
    """A copy of the record with each labelled card's symbol and a short comment in
    ``annotations`` (a double-dummy-only error gets a comment and no symbol)."""
    notes: dict[tuple[int, int], dict[str, str]] = {}
    for c in analysis.cards:
        note = {}
        if c.symbol:
            note["symbol"] = c.symbol
        text = c.comment()
        if text:
            note["comment"] = text
        if note:
            notes[(c.trick, c.position)] = note
    how = ("every consistent deal" if analysis.exact
           else f"{analysis.samples} deals per card, seed {analysis.seed}")
    line = f"cuatrola analyze: {how}"
    comment = analysis.record.comment.strip()
    kept = [x for x in comment.split("\n") if not x.startswith("cuatrola analyze:")]
    return dataclasses.replace(analysis.record, annotations=notes,
                               comment="\n".join(kept + [line]).strip())
