"""Bid advice and card hints: odds over the deals consistent with one seat's knowledge.

**Advice** (:func:`advise`).  The seat ``N`` about to speak knows its five cards, the
muestra and the calls of seats ``1 .. N-1``.  For each call it may make now
(:meth:`Auction.legal_calls`; refused calls are listed with the reason) the contract
that results *assuming the later seats pass* is valued on the same deals, drawn from
:func:`sampling.knowledge_at_start`:

- ``paso`` -> the standing contract (nobody bid: the normal hand, measured for seat
  ``N``'s side, RULES.md 8.10; an opponent's bid: seat ``N``'s side defends it; the
  partner's bid: the partner plays it);
- a bid -> that contract declared by seat ``N`` (a take-over: seat ``N`` declares and
  his partner sits out; contrasolo: declarers ``(solo bidder, N)``).

Per deal the double-dummy solver (:func:`solver.solve_batch`, numpy in and out, the GIL
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

Sampling stops early, in rounds of :data:`ROUND` deals drawn as the chunks of
:func:`sampling.plan_chunks`, once every allowed option's Wilson half-width is at most
``tolerance``; the deals and the stopping point depend on the seed only, never on
``workers``.

**Hints** (:func:`hint`).  For the seat on turn in a hand in progress, every legal card
valued over the deals consistent with that seat's :class:`~cuatrola_solver.view.View`
(:func:`sampling.knowledge_from_view`), with :func:`solver.solve_cards` per deal.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from . import equity, inference, played, sampling, solver
from .auction import Auction, parse_call
from .cards import cards_of, format_card, format_cards
from .errors import IllegalBidError, IllegalPlayError, NotationError, quote
from .match import Score, check_score
from .play import (SIDE_NAMES, SUIT_NAMES, active_seats, cante_points, cante_refusal,
                   declaring_side, partner_of, side_of, sing, tricks_goal)
from .reference import points_based
from .rules import CONTRACT_VALUE, RuleSet, get_rules, rules_spec
from .view import View

__all__ = ["Option", "OptionResult", "Advice", "bid_options", "advise", "wilson",
           "CardHint", "Hint", "hint", "DEFAULT_SAMPLES", "DEFAULT_HINT_SAMPLES", "ROUND"]

#: most deals of a sampled advice (it usually stops earlier)
DEFAULT_SAMPLES = 20000
#: deals per round of a sampled advice (and chunk size of its seeding)
ROUND = 1000
#: rounds drawn before the first stopping test
MIN_ROUNDS = 2
#: target Wilson half-width of every allowed option's p_win
TOLERANCE = 0.01
#: deals of a sampled hint
DEFAULT_HINT_SAMPLES = 1000
#: deals per solve_batch call in exact mode (progress granularity)
EXACT_SLICE = 1 << 15
Z95 = 1.959963984540054
#: the most deals a sampled answer draws whatever ``samples`` asks for: by then every
#: Wilson half-width is within TOLERANCE, so sampling has stopped (rounded up to ROUND)
SETTLED = ROUND * math.ceil((Z95 / (2 * TOLERANCE)) ** 2 / ROUND)

Progress = Callable[[int, int], None]


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ``wins / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return (lo, hi)


def random_seed() -> int:
    """A fresh seed, small enough to type back with ``--seed``."""
    return random.SystemRandom().randrange(2 ** 31)


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
    def key(self) -> tuple[str, tuple[int, ...]] | None:
        return (self.contract, self.declarer) if self.allowed else None


def parse_auction(calls: str | Sequence[str] | None, seat: int, rules: RuleSet,
                  score: Score | None = None) -> Auction:
    """The auction of seats ``1 .. seat-1`` (``None``: they all passed), checked call
    by call; errors name the call, the seat and the reason."""
    if seat not in (1, 2, 3, 4):
        raise NotationError(f"bad seat {quote(seat)}: expected 1 to 4")
    if calls is None:
        calls = ["paso"] * (seat - 1)
    elif isinstance(calls, str):
        calls = [c for c in calls.replace(",", " ").split() if c]
    calls = list(calls)
    if len(calls) != seat - 1:
        before = ("nobody speaks before seat 1" if seat == 1 else
                  "only seat 1 speaks before seat 2" if seat == 2 else
                  "seats 1 and 2 speak before seat 3" if seat == 3 else
                  "seats 1 to 3 speak before seat 4")
        given = f"{len(calls)} call{'' if len(calls) == 1 else 's'}"
        raise IllegalBidError(f"bad auction {quote(' '.join(calls))}: {given} given, but "
                              f"{before} (expected {seat - 1})")
    auction = Auction(rules, score)
    for i, text in enumerate(calls, 1):
        call = parse_call(text, f"(call {i} of the auction, seat {i})")
        reason = auction.refusal(call)
        if reason is not None:
            raise IllegalBidError(f"bad auction: call {i} {quote(text)} of seat {i} is illegal: "
                                  f"{reason}")
        auction.call(call)
    return auction


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

@dataclass
class _Tally:
    """Sums over the deals seen so far, for one (contract, declarer), each deal counted
    with its weight (1 without call inference: the sums are then whole numbers)."""

    n: int = 0                    # deals
    w: float = 0.0                # sum of the weights
    w2: float = 0.0               # sum of the squared weights
    wins: float = 0.0             # deals the declaring side wins
    gp: float = 0.0               # sum of the declaring side's game points
    tricks: np.ndarray = field(default_factory=lambda: np.zeros(6))
    outcomes: dict[int, float] = field(default_factory=dict)   # game points -> deals

    def add(self, makes: np.ndarray, gp: np.ndarray, tricks: np.ndarray,
            weights: np.ndarray | None = None) -> None:
        if weights is None:
            weights = np.ones(len(makes))
        self.n += len(makes)
        self.w += float(weights.sum())
        self.w2 += float(np.square(weights).sum())
        self.wins += float(weights[np.asarray(makes, dtype=bool)].sum())
        self.gp += float(np.dot(weights, gp))
        self.tricks += np.bincount(tricks, weights=weights, minlength=6)[:6]
        for v in np.unique(gp).tolist():
            self.outcomes[v] = self.outcomes.get(v, 0.0) + float(weights[gp == v].sum())

    @property
    def effective(self) -> float:
        """(sum w)^2 / sum w^2: the deals the weighted sums are worth (n when unweighted)."""
        return self.w * self.w / self.w2 if self.w2 else 0.0


def _solve_round(deals: np.ndarray, trump: int, rules: RuleSet,
                 keys: list[tuple[str, tuple[int, ...]]], workers: int) -> dict:
    """``{(contract, declarer): (makes, game_points, tricks)}`` of the declaring side on
    every deal.  The most tricks a side can take depends only on who plays and which
    side declares, not on the contract: solo, cuatrola and quintola by the same seat
    share one tricks search."""
    trumps = np.full(len(deals), trump, dtype=np.int64)
    hands = deals.astype(np.int64)
    tricks_of: dict[tuple, np.ndarray] = {}
    out = {}
    for contract, declarer in keys:
        players = (active_seats(declarer), declaring_side(declarer))
        goal = tricks_goal(contract, rules)
        if goal is not None:
            if players not in tricks_of:
                tricks_of[players] = solver.solve_batch(hands, trumps, rules, contract,
                                                        declarer, "tricks", workers)
            tricks = tricks_of[players]
            makes = tricks >= goal
            value = CONTRACT_VALUE[contract]
            gp = np.where(makes, value, -value).astype(np.int32)
        else:
            # one call for both: the tricks settle the game points of many deals
            gp, tricks = solver.solve_batch(hands, trumps, rules, contract, declarer,
                                            "game_points", workers, with_tricks=True)
            tricks_of.setdefault(players, tricks)
            makes = gp > 0
        out[(contract, declarer)] = (makes, gp, tricks)
    return out


@dataclass(frozen=True)
class OptionResult:
    option: Option
    p_win: float | None = None
    ci95: tuple[float, float] | None = None
    ev: float | None = None
    tricks: tuple[float, ...] | None = None
    wins: int = 0                 # deals seat N's side wins
    ev_sum: int = 0               # sum of seat N's side's match points
    #: (game points of seat N's side, probability), most lost first
    outcomes: tuple[tuple[int, float], ...] | None = None
    #: P(seat N's pair wins the match), with the match score only
    p_match: float | None = None
    #: with a played-odds model: P(win) and EV as the hand will be played (players who
    #: see only their own cards), and the outcome distribution they come from
    p_played: float | None = None
    ev_played: float | None = None
    outcomes_played: tuple[tuple[int, float], ...] | None = None

    def to_dict(self, match: bool = False, played: bool = False) -> dict:
        o = self.option
        d = {"bid": o.bid, "allowed": o.allowed, "p_win": self.p_win,
             "ci95": list(self.ci95) if self.ci95 else None, "ev": self.ev,
             "tricks": list(self.tricks) if self.tricks else None}
        if match:
            d["p_match"] = self.p_match
        if self.p_played is not None or (played and not o.allowed):
            d["p_played"] = self.p_played
            d["ev_played"] = self.ev_played
        if o.allowed:
            decl = o.declarer
            d["contract"] = o.contract
            d["declarer"] = (None if not decl else list(decl) if len(decl) == 2 else decl[0])
            d["side"] = SIDE_NAMES[o.side]
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

    def option(self, bid: str) -> OptionResult:
        for r in self.options:
            if r.option.bid == bid:
                return r
        raise KeyError(bid)

    def to_dict(self) -> dict:
        """The ``advise --json`` object of DESIGN.md (without ``schema``); with a match
        score, every option has ``p_match`` and ``advice_per_hand`` is added."""
        match = self.advice_per_hand is not None
        d = {"rules": rules_spec(self.rules), "seat": self.seat,
             "hand": format_cards(self.hand), "muestra": format_card(self.muestra),
             "exact": self.exact, "deals": self.deals, "seed": self.seed,
             "options": [r.to_dict(match, self.model == "played") for r in self.options],
             "advice": self.advice, "model": self.model,
             "auction": list(self.auction),
             "score": self.score.to_dict() if self.score else None}
        if match:
            d["advice_per_hand"] = self.advice_per_hand
        if self.effective_deals is not None:
            d["effective_deals"] = round(self.effective_deals, 1)
        if self.advice_dd is not None:
            d["advice_dd"] = self.advice_dd
        return d


def _results(options: list[Option], tallies: dict, exact: bool, seat: int) -> list[OptionResult]:
    out = []
    for o in options:
        if not o.allowed:
            out.append(OptionResult(o))
            continue
        t = tallies[o.key]
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


def _with_played(results: list[OptionResult], model, seat: int) -> list[OptionResult]:
    """The results with the played odds of every allowed option (a PlayedModel): the
    declaring side's double-dummy P(win) mapped by the model's cell of the contract and
    its caller (paso: the advising seat, for its side)."""
    out = []
    for r in results:
        o = r.option
        if not o.allowed:
            out.append(r)
            continue
        mine = side_of(seat)
        if o.contract == "paso":
            p = model.p("paso", seat, r.p_win)
        else:
            decl = o.declarer[0]
            flip = side_of(decl) != mine
            p_decl = model.p(o.contract, decl, 1 - r.p_win if flip else r.p_win)
            p = 1 - p_decl if flip else p_decl
        outcomes = played.played_outcomes(r.outcomes, p, CONTRACT_VALUE[o.contract])
        out.append(dataclasses.replace(r, p_played=p, outcomes_played=outcomes,
                                       ev_played=sum(g * q for g, q in outcomes)))
    return out


def _with_match(results: list[OptionResult], rules: RuleSet, score: Score,
                seat: int) -> list[OptionResult]:
    """The results with ``p_match`` of every allowed option (the preset's equity table),
    from the played outcomes when there are."""
    table = equity.table(rules)
    side = side_of(seat)
    return [r if not r.option.allowed else
            dataclasses.replace(r, p_match=table.match_chance(
                score, side, r.outcomes_played if r.outcomes_played is not None
                else r.outcomes))
            for r in results]


def _choose_played(results: list[OptionResult]) -> str:
    best = None
    for r in results:                       # weakest first: ties keep the weaker call
        if r.option.allowed and (best is None or r.ev_played > best.ev_played + 1e-12):
            best = r
    return best.option.bid


def _choose_match(results: list[OptionResult], played: bool = False) -> str:
    """The allowed call of highest match chance (ties: more points, then the weaker)."""
    best = None
    points = (lambda r: r.ev_played) if played else (lambda r: r.ev_sum)
    for r in results:
        if not r.option.allowed:
            continue
        if best is None or r.p_match > best.p_match + 1e-12 or (
                abs(r.p_match - best.p_match) <= 1e-12 and points(r) > points(best)):
            best = r
    return best.option.bid


def _half_width(wins: float, n: int) -> float:
    lo, hi = wilson(int(round(wins)), n)
    return (hi - lo) / 2


def _settled(results: list[OptionResult], tolerance: float) -> bool:
    return all((r.ci95[1] - r.ci95[0]) / 2 <= tolerance
               for r in results if r.option.allowed)


def _choose(results: list[OptionResult]) -> str:
    best = None
    for r in results:                       # weakest first: ties keep the weaker call
        if r.option.allowed and (best is None or r.ev_sum > best.ev_sum):
            best = r
    return best.option.bid


def advise(hand: Iterable[int] | int, muestra: int, seat: int,
           auction: str | Sequence[str] | None = None, score: Score | None = None,
           rules: RuleSet | str | None = None, *, exact: bool = False,
           samples: int = DEFAULT_SAMPLES, seed: int | None = None,
           workers: int | None = None, tolerance: float = TOLERANCE,
           progress: Progress | None = None, bid_model=None, played_model=None) -> Advice:
    """Odds and expected match points of every call seat ``seat`` may make now.

    ``hand``: the seat's five cards (list or mask); ``auction``: the calls of seats
    ``1 .. seat-1`` (text or list; None: all passed); ``score``: the A/B match score
    (bid caps).  ``exact`` enumerates every consistent deal; otherwise up to
    ``samples`` deals are drawn with ``seed`` (None: a fresh seed, reported in the
    result) and drawing stops once every allowed option's Wilson half-width is at most
    ``tolerance``.  ``progress(done, total)`` is called after each batch.

    ``bid_model`` (an :class:`~cuatrola_solver.inference.BidModel`) weights each deal by
    how likely the calls already made were with the hands it gives the seats before
    (:func:`~cuatrola_solver.inference.call_weights`): the odds are weighted means, the
    intervals use the effective number of deals, reported as ``effective_deals``.

    ``played_model`` (a :class:`~cuatrola_solver.played.PlayedModel`) adds each call's
    P(win) and EV as the hand will be played (``p_played``, ``ev_played``) and chooses
    the advice on them; ``advice_dd`` is then the double-dummy choice.
    """
    rules = get_rules(rules)
    cards = list(cards_of(hand)) if isinstance(hand, int) else list(hand)
    if len(set(cards)) != len(cards):
        raise NotationError(f"the hand {quote(format_cards(cards))} repeats a card")
    if score is not None:
        check_score(rules, score)
    options = bid_options(rules, seat, auction, score)
    k = sampling.knowledge_at_start(cards, muestra, seat, rules)
    workers = max(1, workers or os.cpu_count() or 1)
    keys = list(dict.fromkeys(o.key for o in options if o.allowed))
    tallies = {key: _Tally() for key in keys}

    before = list(parse_auction(auction, seat, rules, score).calls)
    infer = bid_model is not None and bool(before)      # even a paso says something

    def run(deals: np.ndarray) -> None:
        weights = None
        if infer:
            weights = inference.call_weights(deals, k.trump, before, range(1, seat), rules,
                                             bid_model, score)
        for key, values in _solve_round(deals, k.trump, rules, keys, workers).items():
            tallies[key].add(*values, weights)
        if infer and tallies[keys[0]].w <= 0:
            raise NotationError(f"no deal explains the calls {' '.join(before)!r} under the bid "
                                f"model (every weight is 0): advise without inference "
                                f"(--no-inference)")

    if exact:
        seed = None
        total = sampling.count_deals(k)
        for start in range(0, total, EXACT_SLICE):
            run(sampling.enumerate_deals(k, start, start + EXACT_SLICE))
            if progress:
                progress(min(start + EXACT_SLICE, total), total)
        results = _results(options, tallies, True, seat)
    else:
        if samples < 1:
            raise NotationError(f"bad number of samples {samples}: expected at least 1")
        if seed is None:
            seed = random_seed()
        for j, chunk in enumerate(sampling.iter_chunks(samples, seed, ROUND), 1):
            run(sampling.sample_chunk(k, chunk))
            results = _results(options, tallies, False, seat)
            if progress:
                progress(chunk.start + chunk.size, samples)
            if j >= MIN_ROUNDS and _settled(results, tolerance):
                break
    n = tallies[keys[0]].n
    calls = tuple(before)
    ess = tallies[keys[0]].effective if infer else None
    model, advice_dd = "dd", None
    if played_model is not None:
        results = _with_played(results, played_model, seat)
        model = "played"
    if score is None:
        if played_model is not None:
            advice_dd, advice = _choose(results), _choose_played(results)
        else:
            advice = _choose(results)
        return Advice(rules, seat, tuple(cards), muestra, exact, n, seed, tuple(results),
                      advice, calls, score, effective_deals=ess, model=model,
                      advice_dd=advice_dd)
    per_hand = _choose_played(results) if played_model is not None else _choose(results)
    if played_model is not None:
        advice_dd = _choose_match(_with_match([dataclasses.replace(r, outcomes_played=None)
                                               for r in results], rules, score, seat))
    results = _with_match(results, rules, score, seat)
    return Advice(rules, seat, tuple(cards), muestra, exact, n, seed, tuple(results),
                  _choose_match(results, played_model is not None), calls, score, per_hand,
                  ess, model, advice_dd)


# --- hints: the best card for the seat on turn ------------------------------------------

@dataclass(frozen=True)
class CardHint:
    card: int
    tricks: float                 # mean DD tricks of the measured side
    margin: float | None          # mean DD points margin of the measured side (points-based)
    p_win: float                  # P(the seat's side wins the hand)
    p_played: float | None = None  # the same as the hand will be played (a played model)

    def to_dict(self) -> dict:
        d = {"card": format_card(self.card), "tricks": self.tricks, "margin": self.margin,
             "p_win": self.p_win}
        if self.p_played is not None:
            d["p_played"] = self.p_played
        return d


@dataclass(frozen=True)
class Hint:
    seat: int
    trick: int
    contract: str
    declarer: tuple[int, ...]
    side: int                     # the side tricks and margin are measured for
    exact: bool
    deals: int
    seed: int | None
    cards: tuple[CardHint, ...]   # best first
    cante: int | None = None      # a suit the seat sings before leading (values assume it)
    note: str | None = None
    effective_deals: float | None = None   # with call inference: (sum w)^2 / sum w^2
    model: str = "dd"             # "played": the cards carry their played P(win)

    @property
    def best(self) -> int | None:
        """The best card; None for a hint that is only about a cante (not on lead)."""
        return self.cards[0].card if self.cards else None

    def to_dict(self) -> dict:
        decl = self.declarer
        return {"seat": self.seat, "trick": self.trick, "contract": self.contract,
                "declarer": None if not decl else list(decl) if len(decl) == 2 else decl[0],
                "side": SIDE_NAMES[self.side], "exact": self.exact, "deals": self.deals,
                "seed": self.seed, "cards": [c.to_dict() for c in self.cards],
                "best": None if self.best is None else format_card(self.best),
                "cante": None if self.cante is None else SUIT_NAMES[self.cante],
                "note": self.note, "model": self.model,
                **({} if self.effective_deals is None
                   else {"effective_deals": round(self.effective_deals, 1)})}


def hint_view(source) -> View:
    """The view a hint answers for: a :class:`View` as it is, or a
    :class:`~cuatrola_solver.hand.Hand` in play projected on the seat on turn (refused
    when the record already decided the hand by a renuncio)."""
    if isinstance(source, View):
        return source
    hand = source
    if hand.pos is None:
        raise IllegalPlayError("the auction is not over: there is no card to play yet")
    if hand.is_over():
        raise IllegalPlayError("the hand is over: there is no card to play")
    if hand.renuncios:
        raise IllegalPlayError("the hand is already decided by the first renuncio, "
                               + hand.renuncios[0].describe())
    return View.from_hand(hand, hand.pos.to_play)


def hint(source, *, exact: bool = False, samples: int = DEFAULT_HINT_SAMPLES,
         seed: int | None = None, workers: int | None = None,
         progress: Progress | None = None, bid_model=None, played_model=None) -> Hint:
    """Every legal card of the seat on turn, valued over the deals consistent with what
    that seat knows, best first.

    ``source`` is the seat's :class:`View` (it must be its turn to play), or a
    :class:`~cuatrola_solver.hand.Hand` in play, projected on the seat on turn: the
    answer depends on the view only, never on cards the seat has not seen.

    For paso, ``tricks`` and ``margin`` are measured for the seat's side; for a bid
    contract, for the declaring side.  ``p_win`` is always the seat's side's.  If the seat
    on turn may sing now (a trick boundary), the values assume it sings first (the 40
    before a 20), in every deal where the rules let it: under ``forty_first`` a 20 is
    refused in the deals where its partner holds the 40 (the side then sings the 40,
    a choice left to the search).  Other cantes still pending at this boundary are taken
    as forgone (the record is taken as complete so far).  Sampled deals are drawn and
    valued in rounds of :data:`ROUND`, as for :func:`advise`: after :data:`MIN_ROUNDS`
    rounds, sampling stops once every card's ``p_win`` is within ±:data:`TOLERANCE` (so
    by :data:`SETTLED` deals, whatever ``samples`` asks).  With ``bid_model`` each deal
    is weighted by how likely the four calls were with the hands it gives the other seats
    (as in :func:`advise`).  With ``played_model`` (a
    :class:`~cuatrola_solver.played.PlayedModel` fitted with cards) each card also
    carries ``p_played``, its P(win) as the hand will be played, and the cards are
    ranked on it; a model without card cells leaves the cards double dummy.  ``workers`` threads (default
    1) solve the deals; the result does not depend on it.  Each deal's searches are
    short and much of the work holds the GIL, so more threads seldom pay: measured
    slower on 2 cores at trick 1.
    """
    view = hint_view(source)
    rules = view.rules
    if not view.auction_over:
        raise IllegalPlayError("the auction is not over: there is no card to play yet")
    if view.renuncios:
        raise IllegalPlayError("the hand is already decided by the first renuncio, "
                               + view.renuncios[0].describe())
    if view.is_over():
        raise IllegalPlayError("the hand is over: there is no card to play")
    seat = view.seat
    if view.to_play != seat:
        if view.cante_options():
            return _cante_hint(view, samples, seed)
        raise IllegalPlayError(f"it is seat {view.to_play}'s turn to play, not seat {seat}'s")
    base = view.position
    k = sampling.knowledge_from_view(view)
    note = None
    cante = None
    options = view.cante_options()
    if options:
        cante = options[0]
        note = (f"sing the {cante_points(cante, base.trump)} in {SUIT_NAMES[cante]} "
                f"before leading: the values assume you do")
        mate = partner_of(seat)
        if (rules.forty_first and cante != base.trump and not base.sung >> base.trump & 1
                and base.active[mate - 1]):
            note += " (where your partner holds the 40, your side sings the 40 first)"
    if exact:
        seed = None
        rounds: Iterable[np.ndarray] = [sampling.enumerate_deals(k)]
        total = sampling.count_deals(k)
    else:
        if samples < 1:
            raise NotationError(f"bad number of samples {samples}: expected at least 1")
        if seed is None:
            seed = random_seed()
        # round by round, as advise: memory and time do not grow with ``samples``
        rounds = (sampling.sample_chunk(k, chunk)
                  for chunk in sampling.iter_chunks(samples, seed, ROUND))
        total = min(samples, SETTLED)
    mine = side_of(seat)
    d = base.declaring_side
    measured = mine if base.contract == "paso" else d
    pts = points_based(base.contract, rules)
    sums: dict[int, list[float]] = {}
    n = 0
    weight, weight2 = 0.0, 0.0            # sums of the deals' weights and squared weights
    others = [s for s in (1, 2, 3, 4) if s != seat]
    infer = bid_model is not None           # four calls are known once cards are played

    def values(row) -> tuple:
        pos = base.with_changes(hands=tuple(int(h) for h in row))
        if cante is not None and cante_refusal(pos, rules, seat, cante) is None:
            pos = sing(pos, side_of(seat), cante)
        return (solver.solve_cards(pos, rules, "tricks"), solver.solve_cards(pos, rules, "makes"),
                solver.solve_cards(pos, rules, "margin") if pts else None)

    workers = max(1, min(workers or 1, total or 1))
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        for j, deals in enumerate(rounds, 1):
            # results come back in deal order whatever the threads: the sums do not
            # depend on them
            solved = pool.map(values, deals) if pool else map(values, deals)
            ws = (inference.call_weights(k.dealt_hands(deals), view.trump, view.calls, others,
                                         rules, bid_model, view.score)
                  if infer else np.ones(len(deals)))
            for w, (tr, mk, mg) in zip(ws.tolist(), solved):
                for c, t in tr.items():
                    s = sums.setdefault(c, [0.0, 0.0, 0.0])
                    s[0] += w * (t if measured == d else 5 - t)
                    if mg is not None:
                        s[1] += w * (mg[c] if measured == d else -mg[c])
                    s[2] += w * (mk[c] if mine == d else 1 - mk[c])
                n += 1
                weight += w
                weight2 += w * w
                if progress and n % 200 == 0:
                    progress(n, total)
            if infer and weight <= 0:
                raise NotationError("no deal explains the calls under the bid model (every "
                                    "weight is 0): hint without inference (--no-inference)")
            ess = weight * weight / weight2 if infer else n
            if (not exact and j >= MIN_ROUNDS
                    and all(_half_width(s[2] * ess / weight, ess) <= TOLERANCE if infer
                            else _half_width(s[2], n) <= TOLERANCE for s in sums.values())):
                break
    finally:
        if pool:
            pool.shutdown()
    role = played.card_role(mine, d)
    if played_model is not None and not played_model.has_cards:
        played_model = None

    def as_played(p: float) -> float | None:
        return (None if played_model is None
                else played_model.p_card(base.contract, view.trick_number, role, p))

    cards = [CardHint(c, s[0] / weight, s[1] / weight if pts else None, s[2] / weight,
                      as_played(s[2] / weight)) for c, s in sums.items()]
    sign = 1 if measured == mine else -1      # seat-relative: higher is better for the seat
    cards.sort(key=lambda h: (-(h.p_played or 0.0), -h.p_win, -sign * (h.margin or 0.0),
                              -sign * h.tricks, h.card))
    return Hint(seat, view.trick_number, base.contract, tuple(base.declarer), measured,
                exact, n, seed, tuple(cards), cante, note,
                weight * weight / weight2 if infer else None,
                "dd" if played_model is None else "played")


#: most deals of a cante hint (each deal is solved once per option)
CANTE_HINT_SAMPLES = 400


def _cante_hint(view: View, samples: int, seed: int | None) -> Hint:
    """At a trick boundary where the view's seat may sing but does not lead: whether to
    sing and which cante, by :func:`cante_values` over sampled deals."""
    seat, base = view.seat, view.position
    seed = random_seed() if seed is None else seed
    n = max(1, min(samples, CANTE_HINT_SAMPLES))
    options = [None] + view.cante_options()
    values = cante_values(view, options, samples=n, seed=seed)
    best = best_cante(values)
    if best is None:
        note = f"keep quiet: no cante is worth more now (seat {view.to_play} leads next)"
    else:
        note = (f"sing the {cante_points(best, base.trump)} in {SUIT_NAMES[best]} now, before "
                f"seat {view.to_play} leads")
    note += "; your side wins " + ", ".join(
        f"{values[o][0]:.0%} {'without a cante' if o is None else 'singing ' + SUIT_NAMES[o]}"
        for o in options)
    mine = side_of(seat)
    return Hint(seat, view.trick_number, base.contract, tuple(base.declarer),
                mine if base.contract == "paso" else base.declaring_side, False, n, seed, (),
                best, note)


def best_cante(values: dict) -> int | None:
    """The option of :func:`cante_values` with the best win chance, then margin (a tie
    goes to singing, then to the lower suit)."""
    return max(values, key=lambda o: (values[o][0], values[o][1], o is not None, -(o or 0)))


def cante_values(view: View, options: Sequence[int | None], *, samples: int = 40,
                 seed: int | None = None) -> dict[int | None, tuple[float, float]]:
    """What each cante option of the view's seat is worth now, at a trick boundary: over
    deals consistent with the view, the seat's side's double-dummy win chance and mean
    points margin (0 for a contract on tricks).  ``None`` is keeping quiet: the side sings
    nothing at this boundary.  A suit the rules refuse in a deal (``forty_first``: the
    partner holds the 40) leaves that deal's cantes to the search.
    """
    rules = view.rules
    base = view.position
    seat, mine = view.seat, side_of(view.seat)
    deals = sampling.sample_deals_seeded(sampling.knowledge_from_view(view), samples,
                                         random_seed() if seed is None else seed,
                                         chunk_size=ROUND)
    d = base.declaring_side
    pts = points_based(base.contract, rules)
    totals = {o: [0.0, 0.0] for o in options}
    for row in deals:
        pos = base.with_changes(hands=tuple(int(h) for h in row))
        for o in options:
            if o is None:
                bs = list(pos.boundary_sung)
                bs[mine] = True
                after = pos.with_changes(boundary_sung=tuple(bs))
            elif cante_refusal(pos, rules, seat, o) is None:
                after = sing(pos, mine, o)
            else:
                after = pos
            makes = solver.solve(after, rules, "makes")
            totals[o][0] += makes if mine == d else 1 - makes
            if pts:
                margin = solver.solve(after, rules, "margin")
                totals[o][1] += margin if mine == d else -margin
    n = max(1, len(deals))
    return {o: (w / n, m / n) for o, (w, m) in totals.items()}
