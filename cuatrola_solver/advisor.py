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

Sampling stops early, in rounds of :data:`ROUND` deals drawn as the chunks of
:func:`sampling.plan_chunks`, once every allowed option's Wilson half-width is at most
``tolerance``; the deals and the stopping point depend on the seed only, never on
``workers``.

**Hints** (:func:`hint`).  For the seat on turn in a hand in progress, every legal card
valued over the deals consistent with that seat's knowledge
(:func:`sampling.knowledge_from_hand`), with :func:`solver.solve_cards` per deal.
"""

from __future__ import annotations

import math
import os
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from . import sampling, solver
from .auction import Auction, parse_call
from .cards import cards_of, format_card, format_cards, mask_of
from .errors import IllegalBidError, IllegalPlayError, NotationError
from .match import Score
from .play import (SIDE_NAMES, SUIT_NAMES, active_seats, cante_points, cante_refusal,
                   declaring_side, side_of, sing, tricks_goal)
from .reference import points_based
from .rules import CONTRACT_VALUE, RuleSet, get_rules, rules_spec

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
        raise NotationError(f"bad seat {seat!r}: expected 1 to 4")
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
        raise IllegalBidError(f"bad auction {' '.join(calls)!r}: {given} given, but "
                              f"{before} (expected {seat - 1})")
    auction = Auction(rules, score)
    for i, text in enumerate(calls, 1):
        call = parse_call(text, f"(call {i} of the auction, seat {i})")
        reason = auction.refusal(call)
        if reason is not None:
            raise IllegalBidError(f"bad auction: call {i} {text!r} of seat {i} is illegal: "
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
    """Integer sums over the deals seen so far, for one (contract, declarer)."""

    n: int = 0
    wins: int = 0                 # deals the declaring side wins
    gp: int = 0                   # sum of the declaring side's game points
    tricks: np.ndarray = field(default_factory=lambda: np.zeros(6, dtype=np.int64))

    def add(self, makes: np.ndarray, gp: np.ndarray, tricks: np.ndarray) -> None:
        self.n += len(makes)
        self.wins += int(np.count_nonzero(makes))
        self.gp += int(gp.sum(dtype=np.int64))
        self.tricks += np.bincount(tricks, minlength=6)[:6]


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

    def to_dict(self) -> dict:
        o = self.option
        d = {"bid": o.bid, "allowed": o.allowed, "p_win": self.p_win,
             "ci95": list(self.ci95) if self.ci95 else None, "ev": self.ev,
             "tricks": list(self.tricks) if self.tricks else None}
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

    def option(self, bid: str) -> OptionResult:
        for r in self.options:
            if r.option.bid == bid:
                return r
        raise KeyError(bid)

    def to_dict(self) -> dict:
        """The ``advise --json`` object of DESIGN.md (without ``schema``)."""
        return {"rules": rules_spec(self.rules), "seat": self.seat,
                "hand": format_cards(self.hand), "muestra": format_card(self.muestra),
                "exact": self.exact, "deals": self.deals, "seed": self.seed,
                "options": [r.to_dict() for r in self.options], "advice": self.advice,
                "auction": list(self.auction),
                "score": self.score.to_dict() if self.score else None}


def _results(options: list[Option], tallies: dict, exact: bool, seat: int) -> list[OptionResult]:
    out = []
    for o in options:
        if not o.allowed:
            out.append(OptionResult(o))
            continue
        t = tallies[o.key]
        flip = o.solver_side != side_of(seat)       # seat N's side is not the measured one
        wins = t.n - t.wins if flip else t.wins
        ev_sum = -t.gp if flip else t.gp
        counts = t.tricks
        if o.side != o.solver_side:                  # paso: count seat N's side's tricks
            counts = counts[::-1]
        p = wins / t.n
        ci = (p, p) if exact else wilson(wins, t.n)
        out.append(OptionResult(o, p, ci, ev_sum / t.n, tuple(float(c) / t.n for c in counts),
                                wins, ev_sum))
    return out


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
           progress: Progress | None = None) -> Advice:
    """Odds and expected match points of every call seat ``seat`` may make now.

    ``hand``: the seat's five cards (list or mask); ``auction``: the calls of seats
    ``1 .. seat-1`` (text or list; None: all passed); ``score``: the A/B match score
    (bid caps).  ``exact`` enumerates every consistent deal; otherwise up to
    ``samples`` deals are drawn with ``seed`` (None: a fresh seed, reported in the
    result) and drawing stops once every allowed option's Wilson half-width is at most
    ``tolerance``.  ``progress(done, total)`` is called after each batch.
    """
    rules = get_rules(rules)
    cards = list(cards_of(hand)) if isinstance(hand, int) else list(hand)
    if len(set(cards)) != len(cards):
        raise NotationError(f"the hand {format_cards(cards)!r} repeats a card")
    options = bid_options(rules, seat, auction, score)
    k = sampling.knowledge_at_start(cards, muestra, seat, rules)
    workers = max(1, workers or os.cpu_count() or 1)
    keys = list(dict.fromkeys(o.key for o in options if o.allowed))
    tallies = {key: _Tally() for key in keys}

    def run(deals: np.ndarray) -> None:
        for key, values in _solve_round(deals, k.trump, rules, keys, workers).items():
            tallies[key].add(*values)

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
        chunks = sampling.plan_chunks(samples, seed, ROUND)
        for j, chunk in enumerate(chunks, 1):
            run(sampling.sample_chunk(k, chunk))
            results = _results(options, tallies, False, seat)
            if progress:
                progress(chunk.start + chunk.size, samples)
            if j >= MIN_ROUNDS and _settled(results, tolerance):
                break
    n = tallies[keys[0]].n
    calls = tuple(parse_auction(auction, seat, rules, score).calls)
    return Advice(rules, seat, tuple(cards), muestra, exact, n, seed, tuple(results),
                  _choose(results), calls, score)


# --- hints: the best card for the seat on turn ------------------------------------------

@dataclass(frozen=True)
class CardHint:
    card: int
    tricks: float                 # mean DD tricks of the measured side
    margin: float | None          # mean DD points margin of the measured side (points-based)
    p_win: float                  # P(the seat's side wins the hand)

    def to_dict(self) -> dict:
        return {"card": format_card(self.card), "tricks": self.tricks, "margin": self.margin,
                "p_win": self.p_win}


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

    @property
    def best(self) -> int:
        return self.cards[0].card

    def to_dict(self) -> dict:
        decl = self.declarer
        return {"seat": self.seat, "trick": self.trick, "contract": self.contract,
                "declarer": None if not decl else list(decl) if len(decl) == 2 else decl[0],
                "side": SIDE_NAMES[self.side], "exact": self.exact, "deals": self.deals,
                "seed": self.seed, "cards": [c.to_dict() for c in self.cards],
                "best": format_card(self.best),
                "cante": None if self.cante is None else SUIT_NAMES[self.cante],
                "note": self.note}


def _own_cante(pos, rules: RuleSet, seat: int) -> int | None:
    """The suit the seat on turn would sing now (the 40 first), or None."""
    suits = [s for s in range(4) if cante_refusal(pos, rules, seat, s) is None]
    if not suits:
        return None
    return max(suits, key=lambda s: (cante_points(s, pos.trump), -s))


def hint(hand, *, exact: bool = False, samples: int = DEFAULT_HINT_SAMPLES,
         seed: int | None = None, workers: int | None = None,
         progress: Progress | None = None) -> Hint:
    """Every legal card of the seat on turn in ``hand`` (a :class:`~hand.Hand` in play),
    valued over the deals consistent with that seat's knowledge, best first.

    For paso, ``tricks`` and ``margin`` are measured for the seat's side; for a bid
    contract, for the declaring side.  ``p_win`` is always the seat's side's.  If the seat
    on turn may sing now (a trick boundary), the values assume it sings first (the 40
    before a 20); other cantes still pending at this boundary are taken as forgone (the
    record is taken as complete so far).  ``workers`` threads (default 1) solve the deals;
    the result does not depend on it.  Each deal's searches are short and much of the
    work holds the GIL, so more threads seldom pay: measured slower on 2 cores at trick 1.
    """
    rules = hand.rules
    if hand.pos is None:
        raise IllegalPlayError("the auction is not over: there is no card to play yet")
    if hand.is_over():
        raise IllegalPlayError("the hand is over: there is no card to play")
    if hand.renuncios:
        raise IllegalPlayError("the hand is already decided by the first renuncio, "
                               + hand.renuncios[0].describe())
    base = hand.pos
    seat = base.to_play
    k = sampling.knowledge_from_hand(hand, seat)
    note = None
    cante = None
    if not base.trick and hand.tricks:
        cante = _own_cante(base, rules, seat)
        if cante is not None:
            base = sing(base, side_of(seat), cante)
            note = (f"sing the {cante_points(cante, base.trump)} in {SUIT_NAMES[cante]} "
                    f"before leading: the values assume you do")
    if exact:
        seed = None
        deals = sampling.enumerate_deals(k)
    else:
        if samples < 1:
            raise NotationError(f"bad number of samples {samples}: expected at least 1")
        if seed is None:
            seed = random_seed()
        deals = sampling.sample_deals_seeded(k, samples, seed, chunk_size=ROUND)
    mine = side_of(seat)
    d = base.declaring_side
    measured = mine if base.contract == "paso" else d
    pts = points_based(base.contract, rules)
    sums: dict[int, list[float]] = {}
    n = len(deals)

    def values(row) -> tuple:
        pos = base.with_changes(hands=tuple(int(h) for h in row))
        return (solver.solve_cards(pos, rules, "tricks"), solver.solve_cards(pos, rules, "makes"),
                solver.solve_cards(pos, rules, "margin") if pts else None)

    workers = max(1, min(workers or 1, n or 1))
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    # results come back in deal order whatever the threads: the sums do not depend on them
    solved = pool.map(values, deals) if pool else map(values, deals)
    for i, (tr, mk, mg) in enumerate(solved):
        for c, t in tr.items():
            s = sums.setdefault(c, [0.0, 0.0, 0.0])
            s[0] += t if measured == d else 5 - t
            if mg is not None:
                s[1] += mg[c] if measured == d else -mg[c]
            s[2] += mk[c] if mine == d else 1 - mk[c]
        if progress and (i + 1) % 200 == 0:
            progress(i + 1, n)
    if pool:
        pool.shutdown()
    cards = [CardHint(c, s[0] / n, s[1] / n if pts else None, s[2] / n)
             for c, s in sums.items()]
    sign = 1 if measured == mine else -1      # seat-relative: higher is better for the seat
    cards.sort(key=lambda h: (-h.p_win, -sign * (h.margin or 0.0), -sign * h.tricks, h.card))
    return Hint(seat, hand.trick_number, base.contract, tuple(base.declarer), measured,
                exact, n, seed, tuple(cards), cante, note)
