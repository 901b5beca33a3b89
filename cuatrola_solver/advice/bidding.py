"""Bid advice: the odds of every call over the deals consistent with one seat's knowledge.

**Advice** (:func:`advise`).  The seat ``N`` about to speak knows its five cards, the
muestra and the calls of seats ``1 .. N-1``.  For each call it may make now
(:meth:`Auction.legal_calls`; refused calls are listed with the reason) the contract
that results *assuming the later seats pass* is valued on the same deals, drawn from
what the seat's view knows (:func:`~cuatrola_solver.hidden.inference.knowledge_of`):

- ``paso`` -> the standing contract (nobody bid: the normal hand, measured for seat
  ``N``'s side, docs/rules.md 8.10; an opponent's bid: seat ``N``'s side defends it; the
  partner's bid: the partner plays it);
- a bid -> that contract declared by seat ``N`` (a take-over: seat ``N`` declares and
  his partner sits out; contrasolo: declarers ``(solo bidder, N)``).

Per deal the double-dummy solver (:func:`~cuatrola_solver.dd.solver.solve_batch`, numpy in and out, the GIL
released, several threads) gives the declaring side's ``game_points`` (for contracts
decided on points) and ``tricks``.  Since ``makes`` is a monotone function of both
(``makes == game_points > 0``; for contracts on tricks ``makes == tricks >= goal`` and
``game_points == +-value``), no separate ``makes`` search is needed: the minimax value
of a monotone function of the leaves is that function of the minimax value.

Per option: ``p_win`` (seat ``N``'s side wins the hand), ``ci95`` (Wilson 95% interval;
``[p, p]`` when exact), ``ev`` (expected match points of seat ``N``'s side: value won
minus value lost, pass bonuses included), ``tricks[k]`` (probability that the measured
side -- the declaring side; for paso seat ``N``'s side -- takes exactly ``k`` tricks).
The advice is the allowed call of highest ``ev``, ties going to the weaker call.

With the match score (``score``), each allowed option also gets ``p_match``: the chance
that seat ``N``'s pair wins the match, the hand's results (the game points of seat
``N``'s side, counted per deal as ``outcomes``) weighted by their odds through the
preset's match-equity table (:mod:`equity`).  The advice is then the allowed call of
highest ``p_match`` (ties: higher ``ev``, then the weaker call); ``advice_per_hand``
keeps the call of highest ``ev``.

Sampling stops early, in rounds of ``ROUND`` deals drawn as the chunks of
:func:`~cuatrola_solver.hidden.chunks.plan_chunks`, once every allowed option's Wilson
half-width is within the budget's ``tolerance`` (:mod:`~cuatrola_solver.advice.budget`);
the deals and the stopping point depend on the seed only, never on ``workers``.  The
card hints are :mod:`~cuatrola_solver.advice.cardplay`'s.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any, Sequence, TypeVar

import numpy as np
import numpy.typing as npt

from ..dd import solver
from ..errors import IllegalBidError, NotationError
from ..game.auction import Auction, parse_auction
from ..game.cards import format_card, format_cards
from ..game.jsonvalue import JSONObject
from ..game.match import Score, check_score
from ..game.play import active_seats, declaring_side, side_of, tricks_goal
from ..game.rules import CONTRACT_VALUE, RuleSet, rules_spec
from ..game.seats import Side
from ..game.view import View
from ..hidden.chunks import iter_chunks, sample_chunk
from ..hidden.deals import count_deals, enumerate_deals
from ..hidden.inference import knowledge_of
from ..hidden.knowledge import Deals, Knowledge
from ..i18n import _
from ..models import equity, played
from ..models.bids import BidModel, call_weights
from ..models.preset import Models
from .budget import EXACT_SLICE, MIN_ROUNDS, ROUND, Budget, Progress
from .stats import Tally, wilson

__all__ = ["Option", "OptionResult", "Advice", "bid_options", "advise", "DEFAULT_SAMPLES",
           "layouts_of", "constraints_dict", "valued"]

#: most deals of a sampled advice (it usually stops earlier)
DEFAULT_SAMPLES = 20000

_T = TypeVar("_T")
#: a contract and its declarer(s): what a double-dummy search values (:attr:`Option.key`)
ContractKey = tuple[str, tuple[int, ...]]
#: per contract, the declaring side's makes (0/1), game points and tricks on each deal
Solved = dict[ContractKey, tuple[npt.NDArray[np.bool_], solver.Values, solver.Values]]


# --- the options of a seat about to speak ---------------------------------------------

@dataclass(frozen=True)
class Option:
    """One call of the seat about to speak and the contract it leads to if the later
    seats pass.  ``contract``/``declarer`` are None/() for a refused call."""

    bid: str
    allowed: bool
    reason: str | None
    contract: str | None = None
    declarer: tuple[int, ...] = ()
    #: the side whose tricks are counted (the declaring side; seat N's side for paso)
    side: int = 0
    #: whether seat N's side is the declaring side's opponent
    defending: bool = False

    @property
    def solver_side(self) -> int:
        """The side the solver measures: the (solo) declarer's, A for paso."""
        return side_of(self.declarer[0]) if self.declarer else 0

    @property
    def shown_declarer(self) -> int | list[int] | None:
        """The declarer as the answers show it: None (paso), a seat, or the contrasolo's
        two bidders."""
        return solver.shown_declarer(self.declarer)

    @property
    def side_name(self) -> str:
        """``A`` or ``B``: the side whose tricks are counted."""
        return str(Side(self.side))

    @property
    def key(self) -> ContractKey | None:
        # an allowed option has its contract, a refused one none
        if not self.allowed or self.contract is None:
            return None
        return (self.contract, self.declarer)


def bid_options(rules: RuleSet, seat: int, calls: str | Sequence[str] | None = None,
                score: Score | None = None) -> list[Option]:
    """Every call the rules play, in order of strength, for the seat about to speak:
    allowed or not (with the reason), and the contract it leads to."""
    auction = parse_auction(calls, seat, rules, score)
    mine = side_of(seat)
    out = []
    for call in rules.allowed_contracts():
        reason = auction.refusal(call)
        if reason is not None:
            out.append(Option(call, False, reason))
            continue
        a = Auction(rules, score)
        for c in auction.calls + [call]:
            a.call(c)
        while not a.is_complete:
            a.call("paso")
        contract, declarer = a.contract, a.declarer
        declaring = side_of(declarer[0]) if declarer else mine
        out.append(Option(call, True, None, contract, tuple(declarer), declaring,
                          declaring != mine))
    return out


# --- valuing the options ----------------------------------------------------------------

def _solve_round(deals: Deals, trump: int, rules: RuleSet,
                 keys: list[ContractKey], workers: int,
                 progress: Progress | None = None) -> Solved:
    """``{(contract, declarer): (makes, game_points, tricks)}`` of the declaring side on
    every deal, in the order of ``deals``.  The most tricks a side can take depends only
    on who plays and which side declares, not on the contract: solo, cuatrola and
    quintola by the same seat share one tricks search.  The deals are searched in
    :func:`~cuatrola_solver.dd.solver.search_order` (neighbours share their later tricks)
    and each contract in a slot of its own (its tables stay warm from one round to the
    next); only the speed depends on either.  ``progress(done, len(deals))`` (if given)
    is called as the deals are searched, each key counting for an equal share; an
    exception it raises (a cancel) stops the search."""
    order = None
    if len(deals) >= solver.ORDERED_FROM:
        order = solver.search_order(deals, trump)
        deals = np.take(deals, order, axis=0)     # 6x faster than deals[order]
    trumps = np.full(len(deals), trump, dtype=np.int64)
    hands = deals.astype(np.int64)

    def in_own_order(found: solver.Values) -> solver.Values:
        """What the search found, back in the order of ``deals``."""
        return found if order is None else solver.in_own_order(found, order)

    tricks_of: dict[tuple[tuple[bool, ...], Side], solver.Values] = {}
    out: Solved = {}
    n = len(deals)
    for i, (contract, declarer) in enumerate(keys):
        step = None if progress is None else \
            (lambda done, _, start=i * n: progress((start + done) // len(keys), n))
        players = (active_seats(declarer), declaring_side(declarer))
        goal = tricks_goal(contract, rules)
        if goal is not None:
            if players not in tricks_of:
                tricks_of[players] = in_own_order(solver.solve_batch(
                    hands, trumps, rules, contract, declarer, "tricks", workers,
                    slot=(contract, declarer), progress=step))
            tricks = tricks_of[players]
            makes = tricks >= goal
            value = CONTRACT_VALUE[contract]
            gp = np.where(makes, value, -value).astype(np.int32)
        else:
            # one call for both: the tricks settle the game points of many deals
            gp, tricks = solver.solve_batch(hands, trumps, rules, contract, declarer,
                                            "game_points", workers, with_tricks=True,
                                            slot=(contract, declarer), progress=step)
            gp, tricks = in_own_order(gp), in_own_order(tricks)
            tricks_of.setdefault(players, tricks)
            makes = gp > 0
        out[(contract, declarer)] = (makes, gp, tricks)
        if progress is not None:
            progress((i + 1) * n // len(keys), n)
    return out


@dataclass(frozen=True)
class OptionResult:
    option: Option
    p_win: float | None = None
    ci95: tuple[float, float] | None = None
    ev: float | None = None
    tricks: tuple[float, ...] | None = None
    wins: float = 0               # deals seat N's side wins (weighted under inference)
    ev_sum: float = 0             # sum of seat N's side's match points (weighted too)
    #: (game points of seat N's side, probability), most lost first
    outcomes: tuple[tuple[int, float], ...] | None = None
    #: P(seat N's pair wins the match), with the match score only
    p_match: float | None = None
    #: with a played-odds model: P(win) and EV as the hand will be played (players who
    #: see only their own cards), and the outcome distribution they come from
    p_played: float | None = None
    ev_played: float | None = None
    outcomes_played: tuple[tuple[int, float], ...] | None = None

    @property
    def ev_rated(self) -> float | None:
        """The EV the advice is chosen on: as played with a played-odds model, else
        double dummy."""
        return self.ev_played if self.ev_played is not None else self.ev

    @property
    def p_rated(self) -> float | None:
        """The P(win) the advice is chosen on, as :attr:`ev_rated`."""
        return self.p_played if self.p_played is not None else self.p_win

    def to_dict(self, match: bool = False, played: bool = False) -> JSONObject:
        o = self.option
        d: JSONObject = {"bid": o.bid, "allowed": o.allowed, "p_win": self.p_win,
             "ci95": list(self.ci95) if self.ci95 else None, "ev": self.ev,
             "tricks": list(self.tricks) if self.tricks else None}
        if match:
            d["p_match"] = self.p_match
        if self.p_played is not None or (played and not o.allowed):
            d["p_played"] = self.p_played
            d["ev_played"] = self.ev_played
        if o.allowed:
            d["contract"] = o.contract
            d["declarer"] = o.shown_declarer
            d["side"] = o.side_name
        else:
            d["reason"] = o.reason
        return d


@dataclass(frozen=True)
class Advice:
    rules: RuleSet
    seat: int
    hand: tuple[int, ...]
    muestra: int
    exact: bool
    deals: int
    seed: int | None
    options: tuple[OptionResult, ...]
    advice: str
    auction: tuple[str, ...] = ()
    score: Score | None = None
    #: the call of highest expected points per hand, when the advice plays for the match
    advice_per_hand: str | None = None
    #: with call inference: the deals the weighted odds are worth, (sum w)^2 / sum w^2
    effective_deals: float | None = None
    #: "played" when the advice is chosen on played odds, "dd" on double-dummy odds
    model: str = "dd"
    #: with played odds: the call of highest double-dummy EV (or match chance)
    advice_dd: str | None = None
    #: the view's what-if constraints, and the layouts that meet them (of how many)
    constraints: tuple[str, ...] = ()
    layouts: tuple[int, int] | None = None

    def option(self, bid: str) -> OptionResult:
        for r in self.options:
            if r.option.bid == bid:
                return r
        raise KeyError(bid)

    @property
    def best(self) -> OptionResult:
        """The advised call's result."""
        return self.option(self.advice)

    @property
    def played(self) -> bool:
        """Whether the advice is chosen on played odds (``p_played``, ``ev_played``)."""
        return self.model == "played"

    @property
    def for_match(self) -> bool:
        """Whether the advice plays for the match (a score given: ``p_match``)."""
        return self.advice_per_hand is not None

    @property
    def effective_deals_shown(self) -> float | None:
        """:attr:`effective_deals` to one decimal, as the answer reports it."""
        return None if self.effective_deals is None else round(self.effective_deals, 1)

    def to_dict(self) -> dict[str, Any]:
        """The ``advise --json`` object (docs/json.md; without ``schema``); with a match
        score, every option has ``p_match`` and ``advice_per_hand`` is added."""
        match = self.for_match
        d: dict[str, Any] = {"rules": rules_spec(self.rules), "seat": self.seat,
             "hand": format_cards(self.hand), "muestra": format_card(self.muestra),
             "exact": self.exact, "deals": self.deals, "seed": self.seed,
             "options": [r.to_dict(match, self.played) for r in self.options],
             "advice": self.advice, "model": self.model,
             "auction": list(self.auction),
             "score": self.score.to_dict() if self.score else None}
        if match:
            d["advice_per_hand"] = self.advice_per_hand
        if self.effective_deals is not None:
            d["effective_deals"] = self.effective_deals_shown
        if self.advice_dd is not None:
            d["advice_dd"] = self.advice_dd
        d.update(constraints_dict(self.constraints, self.layouts))
        return d


def layouts_of(view: View, k: Knowledge | None = None) -> tuple[int, int] | None:
    """With what-if constraints: the layouts that meet them (``k``: the view's knowledge,
    when already at hand) and the layouts of the view without them (None without
    constraints)."""
    if not view.constraints:
        return None
    return (count_deals(knowledge_of(view) if k is None else k),
            count_deals(knowledge_of(view.assuming(None))))


def constraints_dict(constraints: Sequence[str],
                     layouts: tuple[int, int] | None) -> JSONObject:
    """The JSON fields of an answer's constraints (none without)."""
    if not constraints or layouts is None:
        return {}
    return {"constraints": list(constraints), "layouts": layouts[0],
            "layouts_unconstrained": layouts[1]}


def _results(options: list[Option], tallies: dict[ContractKey, Tally], exact: bool,
             seat: int) -> list[OptionResult]:
    out = []
    for o in options:
        if not o.allowed:
            out.append(OptionResult(o))
            continue
        t = tallies[valued(o.key)]
        flip = o.solver_side != side_of(seat)       # seat N's side is not the measured one
        wins = t.w - t.wins if flip else t.wins
        ev_sum = -t.gp if flip else t.gp
        if t.w == t.n:                               # unweighted: whole numbers
            wins, ev_sum = int(round(wins)), int(round(ev_sum))
        counts = t.tricks
        if o.side != o.solver_side:                  # paso: count seat N's side's tricks
            counts = counts[::-1]
        p = wins / t.w
        n_eff = t.effective
        ci = ((p, p) if exact else wilson(wins, t.n) if t.w == t.n
              else wilson(p * n_eff, n_eff))
        outcomes = tuple(sorted(((-g if flip else g), k / t.w) for g, k in t.outcomes.items()))
        out.append(OptionResult(o, p, ci, ev_sum / t.w, tuple(float(c) / t.w for c in counts),
                                wins, ev_sum, outcomes))
    return out


def _with_played(results: list[OptionResult], model: played.PlayedModel,
                 seat: int) -> list[OptionResult]:
    """The results with the played odds of every allowed option (a PlayedModel): the
    caller's side's double-dummy P(win) mapped by the model's cell of the contract and
    its caller, as the fit keys them (paso: the advising seat, for its side; a bid: the
    last seat to bid it -- for contrasolo the contrasolo bidder, not the solo's)."""
    out = []
    for r in results:
        o = r.option
        if not o.allowed:
            out.append(r)
            continue
        contract, p_win = valued(o.contract), valued(r.p_win)
        mine = side_of(seat)
        if contract == "paso":
            p = model.p("paso", seat, p_win)
        else:
            caller = o.declarer[-1]
            flip = side_of(caller) != mine
            p_caller = model.p(contract, caller, 1 - p_win if flip else p_win)
            p = 1 - p_caller if flip else p_caller
        outcomes = played.played_outcomes(valued(r.outcomes), p, CONTRACT_VALUE[contract])
        out.append(dataclasses.replace(r, p_played=p, outcomes_played=outcomes,
                                       ev_played=sum(g * q for g, q in outcomes)))
    return out


def _with_match(results: list[OptionResult], rules: RuleSet, score: Score,
                seat: int) -> list[OptionResult]:
    """The results with ``p_match`` of every allowed option (the preset's equity table),
    from the played outcomes when there are."""
    table = equity.table(rules)
    side = side_of(seat)
    out = []
    for r in results:
        outcomes = r.outcomes_played if r.outcomes_played is not None else r.outcomes
        if r.option.allowed:
            r = dataclasses.replace(r, p_match=table.match_chance(score, side, valued(outcomes)))
        out.append(r)
    return out


def _allowed(results: list[OptionResult]) -> list[OptionResult]:
    """The results of the allowed options, weakest first (paso always is one)."""
    out = [r for r in results if r.option.allowed]
    assert out, "paso is always allowed"
    return out


def valued(figure: _T | None) -> _T:
    """``figure``, which the caller knows is set: a figure of an allowed option's result
    (a refused option has none), of a reviewed card (a forced card has none), the best
    card of a hint on a card to play."""
    assert figure is not None, "a figure that is always set here is None"
    return figure


def _choose_played(results: list[OptionResult]) -> str:
    best, *rest = _allowed(results)
    for r in rest:                          # weakest first: ties keep the weaker call
        if valued(r.ev_played) > valued(best.ev_played) + 1e-12:
            best = r
    return best.option.bid


def _choose_match(results: list[OptionResult], played: bool = False) -> str:
    """The allowed call of highest match chance (ties: more points, then the weaker)."""

    def points(r: OptionResult) -> float:
        return valued(r.ev_played) if played else r.ev_sum

    best, *rest = _allowed(results)
    for r in rest:
        p, p_best = valued(r.p_match), valued(best.p_match)
        if p > p_best + 1e-12 or (abs(p - p_best) <= 1e-12 and points(r) > points(best)):
            best = r
    return best.option.bid


def _settled(results: list[OptionResult], tolerance: float) -> bool:
    return all((valued(r.ci95)[1] - valued(r.ci95)[0]) / 2 <= tolerance
               for r in _allowed(results))


def _choose(results: list[OptionResult]) -> str:
    best, *rest = _allowed(results)
    for r in rest:                          # weakest first: ties keep the weaker call
        if r.ev_sum > best.ev_sum:
            best = r
    return best.option.bid


def advise(view: View, budget: Budget | None = None, models: Models | None = None, *,
           progress: Progress | None = None) -> Advice:
    """Odds and expected match points of every call the seat of ``view`` may make now.

    ``view`` is the seat's :class:`~cuatrola_solver.game.view.View` on its turn to speak
    (its five cards, the muestra, the calls of the seats before it, the match score:
    :meth:`View.bidding <cuatrola_solver.game.view.View.bidding>` makes one from text).
    ``budget`` (default :class:`Budget()`: up to :data:`DEFAULT_SAMPLES` deals, a fresh
    seed, all cores): ``exact`` enumerates every consistent deal; otherwise deals are
    sampled and drawing stops once every allowed option's Wilson half-width is within
    the budget's ``tolerance``.  ``progress(done, total)`` is called after each batch.

    ``models`` (default: the preset's, ``Models.of(view.rules)``, as ``cuatrola advise``
    uses them; ``Models.NONE``: double dummy, the calls saying nothing).  With a bid
    model each deal is weighted by how likely the calls already made were with the hands
    it gives the seats before (:func:`~cuatrola_solver.models.bids.call_weights`): the
    odds are weighted means, the intervals use the effective number of deals, reported
    as ``effective_deals``.  With a played-odds model each call also has its P(win) and
    EV as the hand will be played (``p_played``, ``ev_played``), the advice is chosen on
    them and ``advice_dd`` is the double-dummy choice.

    The view's what-if constraints (:meth:`View.assuming
    <cuatrola_solver.game.view.View.assuming>`) limit the deals to the layouts that meet
    them; the answer names them, with ``layouts`` (that many layouts meet them, of how
    many without them).
    """
    budget = Budget() if budget is None else budget
    models = Models.of(view.rules) if models is None else models
    _check_speaker(view)
    samples = budget.samples_or(DEFAULT_SAMPLES)
    if view.score is not None:
        check_score(view.rules, view.score)
    options = bid_options(view.rules, view.seat, list(view.calls), view.score)
    k = knowledge_of(view)
    layouts = layouts_of(view, k)
    tallies = _Tallies(view, k, options, models.bids, budget.workers_or(os.cpu_count() or 1))
    if budget.exact:
        seed = None
        results = _tally_every_deal(tallies, k, options, progress)
    else:
        seed = budget.drawn_seed()
        results = _tally_sampled_deals(tallies, k, options, samples, seed, budget.tolerance,
                                       progress)
    return _final_advice(view, results, tallies, budget.exact, seed, models.played, layouts)


def _check_speaker(view: View) -> None:
    """Refuse a view whose seat is not the one to speak (or with the auction over)."""
    if view.speaker != view.seat:
        raise IllegalBidError(
            "the auction is over: there is no call to make" if view.speaker is None else
            f"it is seat {view.speaker}'s turn to speak, not seat {view.seat}'s")


class _Tallies:
    """The sums of an advice: one :class:`~cuatrola_solver.advice.stats.Tally` per
    distinct contract of the allowed options, each deal weighed by the calls already made
    under the bid model (even a paso says something)."""

    def __init__(self, view: View, k: Knowledge, options: list[Option],
                 bid_model: BidModel | None, workers: int) -> None:
        self.view, self.k, self.bid_model, self.workers = view, k, bid_model, workers
        self.before = list(view.calls)
        self.keys = list(dict.fromkeys(o.key for o in options if o.key is not None))
        self.tallies = {key: Tally() for key in self.keys}
        self.infer = bid_model is not None and bool(self.before)

    def add(self, deals: Deals, solved: Solved | None = None) -> None:
        """Add a round of deals, solved here unless ``solved`` gives their values."""
        view, k = self.view, self.k
        weights = None
        if self.infer and self.bid_model is not None:
            weights = call_weights(deals, k.trump, self.before, range(1, view.seat),
                                   view.rules, self.bid_model, view.score)
        if solved is None:
            solved = _solve_round(deals, k.trump, view.rules, self.keys, self.workers)
        for key, (makes, gp, tricks) in solved.items():
            self.tallies[key].add(makes, gp, tricks, weights)
        if self.infer and self.tallies[self.keys[0]].w <= 0:
            raise NotationError(_("no deal explains the calls {before!r} under the bid model "
                                  "(every weight is 0): advise without inference "
                                  "(--no-inference)")
                                 .format(before=' '.join(self.before)))


def _tally_every_deal(tallies: _Tallies, k: Knowledge, options: list[Option],
                      progress: Progress | None) -> list[OptionResult]:
    """Exact: every consistent deal solved, then added slice by slice in the enumeration's
    order, as the sums always have run."""
    deals = enumerate_deals(k)
    solved = _solve_round(deals, k.trump, tallies.view.rules, tallies.keys, tallies.workers,
                          progress)
    for start in range(0, len(deals), EXACT_SLICE):
        part = slice(start, start + EXACT_SLICE)
        tallies.add(deals[part], {key: (makes[part], gp[part], tricks[part])
                                  for key, (makes, gp, tricks) in solved.items()})
    return _results(options, tallies.tallies, True, tallies.view.seat)


def _tally_sampled_deals(tallies: _Tallies, k: Knowledge, options: list[Option], samples: int,
                         seed: int | None, tolerance: float,
                         progress: Progress | None) -> list[OptionResult]:
    """Sampled: rounds of :data:`ROUND` deals until ``samples``, or, after
    :data:`MIN_ROUNDS` rounds, once every allowed option is settled within ``tolerance``."""
    for j, chunk in enumerate(iter_chunks(samples, seed, ROUND), 1):
        tallies.add(sample_chunk(k, chunk))
        results = _results(options, tallies.tallies, False, tallies.view.seat)
        if progress:
            progress(chunk.start + chunk.size, samples)
        if j >= MIN_ROUNDS and _settled(results, tolerance):
            break
    return results


def _final_advice(view: View, results: list[OptionResult], tallies: _Tallies, exact: bool,
                  seed: int | None, played_model: played.PlayedModel | None,
                  layouts: tuple[int, int] | None) -> Advice:
    """The advice from the options' results: their played odds with a played-odds model,
    their match chances with a score, and the call chosen on them."""
    rules, seat, score = view.rules, view.seat, view.score
    first = tallies.tallies[tallies.keys[0]]
    n = first.n
    calls = tuple(tallies.before)
    ess = first.effective if tallies.infer else None
    assumed = tuple(view.constraints.to_list())
    cards = view.cards
    model, advice_dd = "dd", None
    if played_model is not None:
        results = _with_played(results, played_model, seat)
        model = "played"
    if score is None:
        if played_model is not None:
            advice_dd, advice = _choose(results), _choose_played(results)
        else:
            advice = _choose(results)
        return Advice(rules, seat, tuple(cards), view.muestra, exact, n, seed, tuple(results),
                      advice, calls, score, effective_deals=ess, model=model,
                      advice_dd=advice_dd, constraints=assumed, layouts=layouts)
    per_hand = _choose_played(results) if played_model is not None else _choose(results)
    if played_model is not None:
        advice_dd = _choose_match(_with_match([dataclasses.replace(r, outcomes_played=None)
                                               for r in results], rules, score, seat))
    results = _with_match(results, rules, score, seat)
    return Advice(rules, seat, tuple(cards), view.muestra, exact, n, seed, tuple(results),
                  _choose_match(results, played_model is not None), calls, score, per_hand,
                  ess, model, advice_dd, assumed, layouts)
