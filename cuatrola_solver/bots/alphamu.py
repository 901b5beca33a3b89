"""αμ: a search that plays one card in all the deals the seat cannot tell apart.

PIMC (the ``pimc`` player, ``hint``) values each card by solving every sampled deal
double dummy and averaging: in each deal it assumes it will play the best card *for
that deal* later on, even in deals it will not be able to tell apart by then (*strategy
fusion*).  αμ (Cazenave and Ventos, "The αμ search algorithm for the game of Bridge",
2019) removes that for the searching seat: over a set of deals (the *worlds*), it
chooses its own cards as a strategy, one card for each sequence of cards it will have
seen, the same in every world that sequence leaves possible.  The other seats are
taken, as in PIMC, to play the best card in each world (the opponents to beat the
searching side, the partner to help it), and the search looks ``depth`` of its own
cards ahead (the card now is the first); after its last card each world is solved
double dummy.  With ``depth=1`` it is PIMC on the win.

The value of a strategy in a world is 1 when the seat's side wins the hand, else 0;
the value of a subtree is a *front*: the set of win vectors over the worlds (bit ``i``:
world ``i`` won) of the strategies not dominated by another, kept as Python ints.  At
the seat's own turn the fronts of its cards are joined (it picks one for all the worlds
of the node); at a seat of the other side the worlds are split by the card it plays and
the fronts are combined world by world with a minimum (every combination of the
seat's choices below: the opponent answers each with its best card), at its partner's
with a maximum.  A cante sung at a trick boundary is public: the worlds where a side
sings and those where it does not are told apart from then on.  Inside the search the
sides sing the best cante they can (the 40 first); after the last card the double-dummy
search weighs cantes itself.  A front's score is its best vector's weight (each world
weighs what the calls and the play say of it, or 1); the card chosen is the one whose
front scores most, ties going to PIMC's order (win chance, then points margin, then
tricks, over the same worlds), which also bounds each card's score from above: a card
whose PIMC score cannot beat the best found is not searched.

:func:`choose` is the search of one decision over given worlds; :func:`worlds_of` draws
the worlds from what a view allows (every consistent deal when they are few), weighed by
the calls and the play; the ``alphamu`` player (``alphamu:worlds=40,depth=2``,
:mod:`~cuatrola_solver.bots.players`) is the two together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from ..advice.cardplay import deal_weights
from ..dd.objectives import points_based
from ..dd.solver import Evaluator
from ..game.cards import Card, CardMask, iter_cards, mask_points
from ..game.play import (Position, cante_options, cante_points, cante_refusal, decided_by_tricks,
                         legal_mask, next_seat, outcome, side_of, sing, trick_winner_index)
from ..game.rules import RuleSet
from ..game.seats import Seat
from ..game.view import View
from ..hidden.deals import count_deals, enumerate_deals, sample_deals
from ..hidden.inference import knowledge_of
from ..models.preset import Models

__all__ = ["choose", "Choice", "worlds_of", "reduce_front", "Hands"]

#: a world: the current hands of seats 1 to 4 (card masks)
Hands = tuple[CardMask, ...]
#: the public part of a search node, the same in all its worlds: a
#: :class:`~cuatrola_solver.game.play.Position`'s leader, trick, tricks, points, sung,
#: cantes and boundary_sung
Public = tuple[Seat, tuple[Card, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...],
               tuple[bool, ...]]
#: the worlds of a node by their index (the bit of each in a win vector)
Worlds = dict[int, Hands]


def reduce_front(front: Iterable[int]) -> list[int]:
    """The vectors of ``front`` (ints, bit ``i``: world ``i`` won) that no other one
    contains: the Pareto front."""
    out: list[int] = []
    for f in sorted(set(front), key=lambda v: -v.bit_count()):
        if not any(f & ~g == 0 for g in out):
            out.append(f)
    return out


class _Scorer:
    """Weighted counts of win vectors, by tables of 8 worlds at a time."""

    def __init__(self, weights: Sequence[float] | np.ndarray) -> None:
        w = list(weights)
        self.tables: list[list[float]] = []
        for lo in range(0, len(w), 8):
            part = w[lo:lo + 8]
            table = [0.0] * 256
            for b in range(1, 256):
                low = (b & -b).bit_length() - 1
                table[b] = table[b & (b - 1)] + (part[low] if low < len(part) else 0.0)
            self.tables.append(table)

    def __call__(self, v: int) -> float:
        total = 0.0
        for table in self.tables:
            total += table[v & 255]
            v >>= 8
        return total

    def best(self, front: Iterable[int]) -> float:
        return max((self(v) for v in front), default=0.0)


@dataclass(frozen=True)
class Choice:
    """The card chosen and what the search saw: each card's front score and PIMC score
    (weighted win counts over the worlds), the worlds and their effective number."""

    card: Card
    scores: dict[Card, float]       # card -> αμ score (cards not searched: absent)
    pimc: dict[Card, float]         # card -> PIMC score
    order: tuple[Card, ...]         # the cards in PIMC's order, best first
    worlds: int
    effective: float


class _Search:
    """The αμ search of one decision over ``hands`` (the worlds: four current-hand masks
    each) from ``base`` (the position as the seat sees it)."""

    def __init__(self, base: Position, rules: RuleSet, seat: Seat, hands: Sequence[Hands],
                 singing: int | None) -> None:
        self.rules = rules
        self.seat = seat
        self.side = side_of(seat)
        self.trump = base.trump
        self.active = base.active
        self.n_active = sum(base.active)
        self.contract, self.declarer = base.contract, base.declarer
        self.d = base.declaring_side
        self.makes = Evaluator(rules, base.contract, base.declarer, base.active, base.trump,
                               "makes")
        self.cantes_on = rules.cantes_count(base.contract)
        self.hands = [tuple(int(x) for x in h) for h in hands]
        self.all = (1 << len(self.hands)) - 1
        self.base = base
        self.singing = singing
        self.nodes = 0

    # --- the public part of a node and the hands of its worlds ---------------------------
    def _position(self, pub: Public, hands: Hands) -> Position:
        leader, trick, tricks, points, sung, cantes, bs = pub
        return Position(self.trump, hands, self.active, self.contract, self.declarer, leader,
                        trick, tricks, points, sung, cantes, bs)

    def _to_play(self, pub: Public) -> Seat:
        seat = pub[0]
        for _ in pub[1]:
            seat = next_seat(seat, self.active)
        return seat

    def _advance(self, pub: Public, c: Card) -> tuple[Public, bool]:
        """The public part after card ``c``; True when it completes a trick."""
        leader, trick, tricks, points, sung, cantes, bs = pub
        trick = trick + (c,)
        if len(trick) < self.n_active:
            return (leader, trick, tricks, points, sung, cantes, bs), False
        winner = leader
        for _ in range(trick_winner_index(trick, self.trump)):
            winner = next_seat(winner, self.active)
        side = side_of(winner)
        tr = list(tricks)
        tr[side] += 1
        pts = list(points)
        pts[side] += mask_points(sum(1 << x for x in trick))
        if tr[0] + tr[1] == 5:
            pts[side] += self.rules.monte
        return (winner, (), tuple(tr), tuple(pts), sung, cantes, (False, False)), True

    def _win(self, pub: Public) -> bool:
        """Whether the seat's side wins a hand over (or decided) at ``pub`` (public: the
        same in every world)."""
        return outcome(self._position(pub, (0, 0, 0, 0)), self.rules)[0] == self.side

    def _over(self, pub: Public) -> bool:
        tricks = pub[2]
        if tricks[0] + tricks[1] == 5:
            return True
        return self.rules.early_end and decided_by_tricks(self._position(pub, (0, 0, 0, 0)),
                                                          self.rules)

    def _sing_all(self, pub: Public, hands: Hands) -> Public:
        """The public part after the sides sing what they can at this boundary (the
        side of the trick's winner first; each its best cante, the 40 first)."""
        pos = self._position(pub, hands)
        first = side_of(pos.leader)
        for side in (first, 1 - first):
            suits = cante_options(pos, self.rules, side)
            if suits:
                best = max(suits, key=lambda s: (cante_points(s, self.trump), -s))
                pos = sing(pos, side, best)
        return (pos.leader, pos.trick, pos.tricks, pos.points, pos.sung, pos.cantes,
                pos.boundary_sung)

    def _split(self, pub: Public, worlds: Worlds, done: bool) -> list[tuple[Public, Worlds]]:
        """The groups of worlds after a card: one, or at a trick boundary where cantes
        may be sung, one per set of cantes sung."""
        t = pub[2][0] + pub[2][1]
        if not (done and self.cantes_on and 0 < t < 5 and t in self.rules.cante_after_tricks):
            return [(pub, worlds)]
        groups: dict[Public, Worlds] = {}
        for i, h in worlds.items():
            groups.setdefault(self._sing_all(pub, h), {})[i] = h
        return list(groups.items())

    # --- the search -------------------------------------------------------------------
    def after(self, pub: Public, worlds: Worlds, done: bool, m: int) -> list[int]:
        groups = self._split(pub, worlds, done)
        if len(groups) == 1:
            return self.node(groups[0][0], groups[0][1], m)
        front = [0]
        for g_pub, g_worlds in groups:
            sub = self.node(g_pub, g_worlds, m)
            front = reduce_front([f | g for f in front for g in sub])
        return front

    def node(self, pub: Public, worlds: Worlds, m: int) -> list[int]:
        self.nodes += 1
        alive = 0
        for i in worlds:
            alive |= 1 << i
        if self._over(pub):
            return [alive if self._win(pub) else 0]
        seat = self._to_play(pub)
        r = self.rules
        if seat == self.seat:
            hand = next(iter(worlds.values()))[seat - 1]
            cards = list(iter_cards(legal_mask(hand, pub[1], self.trump,
                                               r.beat_led_after_trump,
                                               r.free_when_cannot_overtrump)))
            if m <= 1:
                return reduce_front(self.leaves(pub, worlds, cards))
            front: list[int] = []
            for c in cards:
                nxt, done = self._advance(pub, c)
                bit = ~(1 << c)
                child = {i: _without(h, seat, bit) for i, h in worlds.items()}
                front = reduce_front(front + self.after(nxt, child, done, m - 1))
                if alive in front:
                    break
            return front
        by_card: dict[Card, Worlds] = {}
        for i, h in worlds.items():
            for c in iter_cards(legal_mask(h[seat - 1], pub[1], self.trump,
                                           r.beat_led_after_trump,
                                           r.free_when_cannot_overtrump)):
                by_card.setdefault(c, {})[i] = h
        partner = side_of(seat) == self.side
        front = [0] if partner else [alive]
        for c, ws in by_card.items():
            nxt, done = self._advance(pub, c)
            bit = ~(1 << c)
            child = {i: _without(h, seat, bit) for i, h in ws.items()}
            sub = self.after(nxt, child, done, m)
            if partner:
                front = reduce_front([f | g for f in front for g in sub])
            else:
                valid = 0
                for i in ws:
                    valid |= 1 << i
                front = reduce_front([f & (g | ~valid) for f in front for g in sub])
        return [f & alive for f in front] if not partner else front

    def leaves(self, pub: Public, worlds: Worlds, cards: list[Card]) -> list[int]:
        """The win vector of each of the seat's ``cards`` here, each world solved double
        dummy after it."""
        out = []
        mine = self.side == self.d
        for c in cards:
            nxt, _ = self._advance(pub, c)
            bit = ~(1 << c)
            v = 0
            over = nxt[2][0] + nxt[2][1] == 5
            won = self._win(nxt) if over else None
            for i, h in worlds.items():
                if over:
                    ok = won
                else:
                    ok = bool(self.makes.state(_without(h, self.seat, bit), *nxt)) == mine
                if ok:
                    v |= 1 << i
            out.append(v)
        return out


def _without(hands: Hands, seat: Seat, bit: int) -> Hands:
    h = list(hands)
    h[seat - 1] &= bit
    return tuple(h)


def worlds_of(view: View, count: int, seed: int, models: Models = Models.NONE
              ) -> tuple[list[Hands], np.ndarray, bool]:
    """The worlds of a decision: every deal consistent with ``view`` when there are no
    more than ``count``, else ``count`` deals drawn uniformly with ``seed`` (the same
    deal drawn twice is one world, weighing twice); each weighed by :func:`deal_weights
    <cuatrola_solver.advice.cardplay.deal_weights>` under ``models``.  Returns the
    worlds (current hands), their weights and whether they are every deal."""
    k = knowledge_of(view)
    exact = count_deals(k) <= count
    deals = enumerate_deals(k) if exact else sample_deals(k, count,
                                                         np.random.default_rng(seed))
    rows, mult = np.unique(deals, axis=0, return_counts=True)
    w = mult.astype(np.float64)
    if models.bids is not None or models.cards is not None:
        w = w * deal_weights(view, k.dealt_hands(rows), models)
    return [tuple(int(x) for x in r) for r in rows], w, exact


def choose(view: View, hands: Sequence[Hands], weights: Sequence[float] | np.ndarray, depth: int = 2
           ) -> Choice:
    """The card αμ plays for ``view``'s seat on turn over the worlds ``hands`` (current
    hands of seats 1 to 4, consistent with the view) weighing ``weights``, looking
    ``depth`` of its own cards ahead.  If the seat may sing before leading, the values
    assume it sings first, as ``hint`` does."""
    base = view.play_position
    rules = view.rules
    seat = view.seat
    options = view.cante_options()
    singing = options[0] if options else None
    search = _Search(base, rules, seat, hands, singing)
    score = _Scorer(weights)
    wsum = float(np.sum(weights))
    effective = wsum * wsum / float(np.sum(np.square(weights))) if wsum > 0 else 0.0
    r = rules
    pub0 = (base.leader, base.trick, base.tricks, base.points, base.sung, base.cantes,
            base.boundary_sung)
    # the seat's cante before it leads, in each world where the rules let it (as hint)
    starts: dict[Public, Worlds] = {}
    for i, h in enumerate(search.hands):
        pos = search._position(pub0, h)
        if singing is not None and cante_refusal(pos, rules, seat, singing) is None:
            pos = sing(pos, side_of(seat), singing)
        pub = (pos.leader, pos.trick, pos.tricks, pos.points, pos.sung, pos.cantes,
               pos.boundary_sung)
        starts.setdefault(pub, {})[i] = h
    cards = list(iter_cards(legal_mask(view.held, base.trick, base.trump,
                                       r.beat_led_after_trump, r.free_when_cannot_overtrump)))
    # PIMC over the same worlds: the order of the cards and each one's upper bound
    pts = points_based(base.contract, rules)
    margin = Evaluator(rules, base.contract, base.declarer, base.active, base.trump,
                       "margin") if pts else None
    tricks = Evaluator(rules, base.contract, base.declarer, base.active, base.trump, "tricks")
    w = list(weights)
    sign = 1 if search.side == search.d else -1
    upper: dict[Card, int] = {}
    keys: dict[Card, tuple[float, float, float, Card]] = {}
    for c in cards:
        v = 0
        mg = tk = 0.0
        for pub, worlds in starts.items():
            nxt, _ = search._advance(pub, c)
            bit = ~(1 << c)
            for i, h in worlds.items():
                pos = search._position(nxt, _without(h, seat, bit))
                if bool(search.makes(pos)) == (search.side == search.d):
                    v |= 1 << i
                if margin is not None:
                    mg += w[i] * margin(pos)
                tk += w[i] * tricks(pos)
        upper[c] = v
        keys[c] = (-score(v), -sign * mg, -sign * tk, c)
    order = sorted(cards, key=lambda c: keys[c])
    best, best_score = order[0], -1.0
    scores: dict[int, float] = {}
    for c in order:
        if score(upper[c]) <= best_score + 1e-12:
            continue
        if depth <= 1:
            s = score(upper[c])
        else:
            front = [0]
            for pub, worlds in starts.items():
                nxt, done = search._advance(pub, c)
                bit = ~(1 << c)
                child = {i: _without(h, seat, bit) for i, h in worlds.items()}
                sub = search.after(nxt, child, done, depth - 1)
                front = reduce_front([f | g for f in front for g in sub])
            s = score.best(front)
        scores[c] = s
        if s > best_score + 1e-12:
            best, best_score = c, s
    return Choice(best, scores, {c: score(upper[c]) for c in cards}, tuple(order),
                  len(search.hands), effective)
