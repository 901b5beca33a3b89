"""What the cards played reveal: a card-play model and the weight it gives each hidden deal.

A seat that leads the as of a suit seldom holds the tres behind it in another; a seat
that throws its sota on its partner's winning trick seldom had a point card it could
give.  The :class:`CardModel` gives P(card | what the seat on turn saw): its cards at
that moment, the trick on the table, the cards played before, the cantes, the contract
and its side's role.  It is a softmax over the seat's legal cards of a linear score of a
few features of each card (:data:`FEATURE_NAMES`, :func:`features`), mixed with a small
share (``floor``) of the uniform choice so that no deal is ruled out by one surprising
card.  It is fitted by the lab (:mod:`cuatrola_solver.lab.fit_cards`) on the cards the
self-play players chose, as the bid model is on their calls (:mod:`.bids`); one model
per preset ships in ``cuatrola_solver/models/data/cards_PRESET.json`` with how it was
made and how well it predicts held-out cards (log-loss against the uniform choice
among the legal cards).

Given the cards played so far, each deal of the hidden hands gets the weight
``prod P(card_i | hand_i at the time, ...)`` over the cards the *other* seats chose
(:func:`card_weights`, vectorised over deals): the hand each deal gives a seat decides
which cards were legal for it and how each of them looked.  A play the view takes as a
renuncio reveals nothing and is left out, as the hidden layer leaves it out.  With the
bid model's weights (:func:`~cuatrola_solver.models.bids.call_weights`) this is what a
seat reads from the calls and the play.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..game.cards import CARD_POINTS, NUM_CARDS, SUIT_MASKS, higher_in_suit
from ..game.hand import Cante, Play
from ..game.jsonvalue import ParsedJSON
from ..game.play import (Position, declaring_side, first_leader, next_seat, side_of,
                         trick_winner_index)
from ..game.rules import RuleSet
from ..game.view import View
from ..hidden.deals import card_counts, distinct_hands
from ..hidden.knowledge import Weights
from .store import corrupt, data_path, read

__all__ = ["CardModel", "PlayContext", "FEATURE_NAMES", "features", "legal_masks",
           "context_at", "contexts_of", "card_weights", "load_model", "model_path", "MODEL_VERSION"]

MODEL_VERSION = 1

FEATURE_NAMES = (
    # leading (the first card of a trick)
    "lead:trump", "lead:trump*master", "lead:plain*master", "lead:plain*master*points",
    "lead:points", "lead:trump*points", "lead:suit_length", "lead:lowest_of_suit",
    "lead:highest_of_suit", "lead:trump*no_trump_out", "lead:trump*declaring",
    "lead:cante_card", "lead:plain_singleton",
    # following (the rules leave either only cards that win the trick so far or none)
    "follow:points", "follow:points*partner_winning", "follow:points*last",
    "follow:points*lost", "follow:trump", "follow:trump*points", "follow:rank",
    "follow:master", "follow:cheapest", "follow:lowest_of_suit", "follow:highest_of_suit",
    "follow:cante_card", "follow:wins*last",
)
NF = len(FEATURE_NAMES)

_CARDS = np.arange(NUM_CARDS)
_BITS = (np.uint32(1) << _CARDS.astype(np.uint32)).astype(np.uint32)
_SUIT = _CARDS // 5
_RANK = (_CARDS % 5).astype(np.float64)
_POINTS = np.array(CARD_POINTS, dtype=np.float64)
_HIGHER = np.array([higher_in_suit(c) for c in range(NUM_CARDS)], dtype=np.uint32)
_LOWER = np.array([SUIT_MASKS[c // 5] & ((1 << c) - 1) for c in range(NUM_CARDS)],
                  dtype=np.uint32)
_SUIT_MASK = np.array([SUIT_MASKS[c // 5] for c in range(NUM_CARDS)], dtype=np.uint32)
#: the other card of a cante pair: the rey's caballo and the caballo's rey (else none)
_PAIR = np.array([(1 << (c - 1) if c % 5 == 2 else 1 << (c + 1) if c % 5 == 1 else 0)
                  for c in range(NUM_CARDS)], dtype=np.uint32)


@dataclass(frozen=True)
class PlayContext:
    """What the seat on turn saw when it chose a card, but for its own cards: the trick
    on the table (``before``), who is winning it, how many seats play after it, the cards
    played before in the hand (``played``, a mask), the suits already sung, whether
    cantes count in this contract, whether its side declares a bid contract, and the two
    rules of play that decide which cards are legal."""

    seat: int
    trump: int
    before: tuple[int, ...]
    partner_winning: bool
    after: int
    played: int
    sung: int
    cantes_count: bool
    declaring: bool
    beat_led_after_trump: bool
    free_when_cannot_overtrump: bool


def context_at(pos: Position, rules: RuleSet, played: int) -> PlayContext:
    """The context of the seat on turn in ``pos`` (a hand in play), ``played`` being
    the cards played before in the hand."""
    seat = pos.to_play
    winning = None
    if pos.trick:
        winning = pos.leader
        for _ in range(trick_winner_index(pos.trick, pos.trump)):
            winning = next_seat(winning, pos.active)
    side = side_of(seat)
    return PlayContext(
        seat, pos.trump, tuple(pos.trick),
        winning is not None and side_of(winning) == side,
        sum(pos.active) - len(pos.trick) - 1, played, pos.sung,
        rules.cantes_count(pos.contract),
        pos.contract != "paso" and side == declaring_side(pos.declarer),
        rules.beat_led_after_trump, rules.free_when_cannot_overtrump)


def contexts_of(plays: Sequence[Play], cantes: Iterable[Cante], active: Sequence[bool],
                declarer: Sequence[int], contract: str, trump: int,
                rules: RuleSet) -> list[PlayContext]:
    """The context of each play of a hand's history (:attr:`View.plays
    <cuatrola_solver.game.view.View.plays>`, with the hand's cantes), in order: what
    :func:`context_at` gives on the position before each card (only what is public is
    read: the hands are not needed)."""
    out = []
    played = 0
    leader = first_leader(active)
    cantes = list(cantes)
    for p in plays:
        if not p.before:
            leader = p.seat
        sung = 0
        for k in cantes:
            if k.after_trick < p.trick:
                sung |= 1 << k.suit
        pos = Position(trump, (0, 0, 0, 0), tuple(bool(a) for a in active), contract,
                       tuple(declarer), leader, tuple(p.before), sung=sung)
        out.append(context_at(pos, rules, played))
        played |= 1 << p.card
    return out


def legal_masks(hands: npt.ArrayLike, before: Sequence[int], trump: int,
                beat_led_after_trump: bool,
                free_when_cannot_overtrump: bool) -> npt.NDArray[np.uint32]:
    """:func:`~cuatrola_solver.game.play.legal_mask` of each hand of ``hands`` (masks) to
    the same trick, vectorised."""
    h: npt.NDArray[np.uint32] = np.asarray(hands, dtype=np.uint32)
    if not before:
        every: npt.NDArray[np.uint32] = h.copy()       # a lead: any card
        return every
    led = before[0] // 5
    trumped_cards = [c for c in before if c // 5 == trump]
    trumped = led != trump and bool(trumped_cards)
    follow = h & np.uint32(SUIT_MASKS[led])
    best_led = max(c for c in before if c // 5 == led)
    if trumped and not beat_led_after_trump:
        on_follow = follow
    else:
        higher = follow & np.uint32(higher_in_suit(best_led))
        on_follow = np.where(higher != 0, higher, follow)
    trumps = h & np.uint32(SUIT_MASKS[trump])
    if not trumped:
        on_void = np.where(trumps != 0, trumps, h)
    else:
        over = trumps & np.uint32(higher_in_suit(max(trumped_cards)))
        fallback = h if free_when_cannot_overtrump else trumps
        on_void = np.where(over != 0, over, np.where(trumps != 0, fallback, h))
    legal: npt.NDArray[np.uint32] = np.where(follow != 0, on_follow, on_void).astype(np.uint32)
    return legal


def features(hands: npt.ArrayLike,
             ctx: PlayContext) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The features (:data:`FEATURE_NAMES`) of every card for each hand of ``hands``
    (the masks of the cards the seat held at the decision) in context ``ctx``:
    ``(x, legal)``, ``x`` of shape ``(n, 20, len(FEATURE_NAMES))`` and ``legal`` the
    ``(n, 20)`` cards each hand could play."""
    h = np.asarray(hands, dtype=np.uint32).reshape(-1)
    n = len(h)
    legal = (legal_masks(h, ctx.before, ctx.trump, ctx.beat_led_after_trump,
                         ctx.free_when_cannot_overtrump)[:, None] & _BITS[None, :]) != 0
    x = np.zeros((n, NUM_CARDS, NF))
    trump = (_SUIT == ctx.trump).astype(np.float64)[None, :]
    plain = 1.0 - trump
    points = (_POINTS / 11.0)[None, :]
    rank = (_RANK / 4.0)[None, :]
    out = np.uint32(~ctx.played & ((1 << NUM_CARDS) - 1)) & ~h          # not seen yet
    master = ((out[:, None] & _HIGHER[None, :]) == 0).astype(np.float64)
    held = h[:, None]
    suit_length = card_counts(held & _SUIT_MASK[None, :]).astype(np.float64)
    lowest = ((held & _LOWER[None, :]) == 0).astype(np.float64)
    sung = np.array([bool(ctx.sung >> s & 1) for s in _SUIT])
    cante = (((held & _PAIR[None, :]) != 0) & ~sung[None, :]).astype(np.float64) \
        if ctx.cantes_count else np.zeros((n, NUM_CARDS))
    highest = ((held & _HIGHER[None, :]) == 0).astype(np.float64)
    if not ctx.before:
        no_trump_out = ((out & np.uint32(SUIT_MASKS[ctx.trump])) == 0
                        ).astype(np.float64)[:, None]
        columns = (trump, trump * master, plain * master, plain * master * points, points,
                   trump * points, suit_length / 5.0, lowest, highest, trump * no_trump_out,
                   trump * float(ctx.declaring), cante, plain * (suit_length == 1))
        first = 0
    else:
        best = ctx.before[trick_winner_index(ctx.before, ctx.trump)]
        wins = (((_SUIT == best // 5) & (_CARDS > best))
                | ((_SUIT == ctx.trump) & (best // 5 != ctx.trump))).astype(np.float64)[None, :]
        last = float(ctx.after == 0)
        pw = float(ctx.partner_winning)
        pts_legal = np.where(legal, _POINTS[None, :], np.inf)
        cheapest = (legal & (_POINTS[None, :] == pts_legal.min(axis=1, keepdims=True))
                    ).astype(np.float64)
        columns = (points, points * pw, points * last, points * (1.0 - wins) * (1.0 - pw),
                   trump, trump * points, rank, master, cheapest, lowest, highest, cante,
                   wins * last)
        first = 13
    for j, col in enumerate(columns):
        x[:, :, first + j] = col
    return x, legal


@dataclass(frozen=True)
class CardModel:
    """P(card | hand, context) = ``(1 - floor) * softmax(weights . x)`` over the legal
    cards ``+ floor / (number of legal cards)``."""

    rules: str                     # the rules it was fitted for (rules_spec, as JSON text)
    weights: tuple[float, ...]     # one per feature of FEATURE_NAMES
    floor: float
    provenance: ParsedJSON

    def probabilities(self, hands: npt.ArrayLike, ctx: PlayContext) -> npt.NDArray[np.float64]:
        """``(n, 20)``: the probability of each card for each hand (0 for illegal cards)."""
        x, legal = features(hands, ctx)
        return probabilities(x, legal, np.asarray(self.weights), self.floor)

    def log_probs(self, hands: npt.ArrayLike, ctx: PlayContext,
                  card: int) -> npt.NDArray[np.float64]:
        """``(n,)``: log P(``card`` | each hand, ``ctx``); ``-inf`` where it is not legal."""
        p = self.probabilities(hands, ctx)[:, card]
        with np.errstate(divide="ignore"):
            logs: npt.NDArray[np.float64] = np.log(p)
        return logs

    def to_json(self) -> str:
        return json.dumps({"version": MODEL_VERSION, "rules": json.loads(self.rules),
                           "features": list(FEATURE_NAMES),
                           "weights": [round(float(w), 6) for w in self.weights],
                           "floor": self.floor, "provenance": self.provenance}, indent=1)


def probabilities(x: npt.NDArray[np.float64], legal: npt.NDArray[np.bool_],
                  w: npt.NDArray[np.float64], floor: float) -> npt.NDArray[np.float64]:
    """The model's probabilities from features ``x`` ``(n, k, F)`` and the legal mask
    ``(n, k)``: a softmax of ``x . w`` over the legal entries, mixed with ``floor`` of
    the uniform choice among them."""
    z = np.where(legal, x @ w, -np.inf)
    top = z.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(legal, np.exp(z - top), 0.0)
    total = e.sum(axis=1, keepdims=True)
    count = legal.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        soft = np.where(total > 0, e / total, 0.0)
        uniform = np.where(count > 0, legal / np.maximum(count, 1), 0.0)
    return (1.0 - floor) * soft + floor * uniform


def card_weights(dealt: npt.ArrayLike, view: View, model: CardModel) -> Weights:
    """The weight of each deal (rows of four *dealt*-hand masks, seats 1..4): the
    product over the cards the other seats played so far in ``view`` (the renuncios it
    has seen left out) of the model's probability of that card, given the hand the deal
    gives that seat at that moment."""
    dealt = np.asarray(dealt, dtype=np.uint32).reshape(-1, 4)
    logw = np.zeros(len(dealt))
    plays = list(view.plays)
    if not plays:
        return np.ones(len(dealt))
    skip = {(r.trick, r.seat) for r in view.renuncios}
    contexts = contexts_of(plays, view.cantes, view.active, view.declarer, view.contract,
                           view.trump, view.rules)
    gone = [0, 0, 0, 0]                  # cards each seat has played before this play
    for p, ctx in zip(plays, contexts):
        if p.seat != view.seat and (p.trick, p.seat) not in skip:
            # a card depends on the hand of its seat only: the model is evaluated once
            # per distinct hand (a few hundred among the layouts of an exact hint)
            hands, where = distinct_hands(dealt[:, p.seat - 1]
                                          & np.uint32(~gone[p.seat - 1] & 0xFFFFF))
            logw += model.log_probs(hands, ctx, p.card)[where]
        gone[p.seat - 1] |= 1 << p.card
    return np.exp(logw)


# --- loading ------------------------------------------------------------------------------

def model_path(rules: RuleSet) -> Path:
    """Where the package keeps the card-play model of ``rules``' preset."""
    return data_path("cards", rules.name)


def load_model(rules: RuleSet, path: str | Path | None = None) -> CardModel:
    """The card-play model of ``rules``' preset (or the file ``path``); ModelError when it
    is missing, corrupt, or for another preset or version."""
    obj, p = read("cards", rules, model_path(rules) if path is None else path)
    ws = obj.get("weights")
    if obj.get("features") != list(FEATURE_NAMES) or not isinstance(ws, list) \
            or len(ws) != NF or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                        and math.isfinite(v) for v in ws):
        raise corrupt("cards", p, "features or weights do not match")
    floor = obj.get("floor")
    if not isinstance(floor, (int, float)) or isinstance(floor, bool) or not 0 <= floor <= 1:
        raise corrupt("cards", p, "floor is not a share from 0 to 1")
    return CardModel(json.dumps(obj["rules"]), tuple(float(v) for v in ws), float(floor),
                     obj.get("provenance", {}))
