"""Card hints: the value of every legal card for the seat on turn, from its view.

:func:`hint` values every legal card of the seat on turn over the deals consistent with
that seat's :class:`~cuatrola_solver.game.view.View`
(:func:`~cuatrola_solver.hidden.inference.knowledge_of`), with
:func:`~cuatrola_solver.dd.solver.card_figures` (every deal of a round in one batch per card).  At a trick boundary where the
seat may sing but does not lead, the hint is about the cante (:func:`cante_values`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np

from ..dd import solver
from ..dd.objectives import points_based
from ..errors import IllegalPlayError, NotationError
from ..game.cards import format_card
from ..game.jsonvalue import JSONObject
from ..game.play import SUIT_NAMES, cante_points, cante_refusal, partner_of, side_of, sing
from ..game.seats import Side
from ..game.view import View
from ..i18n import _, later
from ..hidden.chunks import iter_chunks, sample_chunk, sample_deals_seeded
from ..hidden.deals import count_deals, enumerate_deals
from ..hidden.inference import knowledge_of
from ..hidden.knowledge import Deals, Knowledge, Weights
from ..models import played
from ..models.bids import call_weights
from ..models.cardplay import card_weights
from ..models.preset import Models
from .bidding import constraints_dict, layouts_of
from .budget import MIN_ROUNDS, ROUND, SETTLED, Budget, Progress, random_seed
from .stats import half_width

__all__ = ["CardHint", "Hint", "hint", "exact_when_few", "cante_values", "best_cante",
           "deal_weights",
           "DEFAULT_HINT_SAMPLES", "CANTE_HINT_SAMPLES", "EXACT_WORK", "FIRST_TRICK_COST",
           "METHOD"]

#: how a hint values a card: the mean over the deals of their double-dummy values (PIMC,
#: perfect-information Monte Carlo).  Measured against the search that plays one card
#: for all the deals a seat cannot tell apart (the ``alphamu`` player), its gains came
#: from valuing more deals, which a hint does (every layout, or 1,000 deals): see
#: docs/findings.md, "Where PIMC loses"
METHOD = "pimc"
#: deals of a sampled hint
DEFAULT_HINT_SAMPLES = 1000
#: with no number of samples asked for, a hint values every layout when the layouts
#: times the legal cards are at most this, a layout of the first trick counting
#: FIRST_TRICK_COST (its search takes about three times as long): about half a second
#: on one core of the project's machine at most.  From the second trick on that is
#: nearly always (34,650 layouts and 4 cards at most, unless a partner sits out); in
#: the first trick the last seats to play with few cards to choose from (23,100 layouts
#: and 2 cards), not the 90,090 to 252,252 layouts of the first seats (1.5 to 20 s)
EXACT_WORK = 150_000
FIRST_TRICK_COST = 3


@dataclass(frozen=True)
class CardHint:
    card: int
    tricks: float                 # mean DD tricks of the measured side
    margin: float | None          # mean DD points margin of the measured side (points-based)
    p_win: float                  # P(the seat's side wins the hand)
    p_played: float | None = None  # the same as the hand will be played (a played model)

    def to_dict(self) -> JSONObject:
        d: JSONObject = {"card": format_card(self.card), "tricks": self.tricks, "margin": self.margin,
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
    constraints: tuple[str, ...] = ()      # the view's what-if constraints
    layouts: tuple[int, int] | None = None  # the layouts that meet them, of how many

    @property
    def best(self) -> int | None:
        """The best card; None for a hint that is only about a cante (not on lead)."""
        return self.cards[0].card if self.cards else None

    @property
    def side_name(self) -> str:
        """``A`` or ``B``: the side tricks and margin are measured for."""
        return str(Side(self.side))

    @property
    def played(self) -> bool:
        """Whether the cards carry their played P(win) (and are ranked on it)."""
        return self.model == "played"

    @property
    def effective_deals_shown(self) -> float | None:
        """:attr:`effective_deals` to one decimal, as the answer reports it."""
        return None if self.effective_deals is None else round(self.effective_deals, 1)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "trick": self.trick, "contract": self.contract,
                "declarer": solver.shown_declarer(self.declarer),
                "side": self.side_name, "exact": self.exact, "deals": self.deals,
                "seed": self.seed, "cards": [c.to_dict() for c in self.cards],
                "best": None if self.best is None else format_card(self.best),
                "cante": None if self.cante is None else SUIT_NAMES[self.cante],
                "note": self.note, "model": self.model, "method": METHOD,
                **({} if self.effective_deals is None
                   else {"effective_deals": self.effective_deals_shown}),
                **constraints_dict(self.constraints, self.layouts)}


def exact_when_few(view: View, budget: Budget, default: int = DEFAULT_HINT_SAMPLES, *,
                   k: Knowledge | None = None) -> Budget:
    """``budget`` made exact when valuing every deal consistent with ``view`` fits it:
    with ``samples`` given, when they are no more than the deals it would sample (never
    more than the :data:`SETTLED` deals sampling ever draws: a huge ``samples`` must not
    mean exact work); without, when they are no more than ``default`` or their number
    times the legal cards (times :data:`FIRST_TRICK_COST` in the first trick) is at most
    :data:`EXACT_WORK` (the hint's time budget).  The
    answer is then sure, and says so (``exact``); :func:`hint` decides this way, so
    ``hint``, ``analyze`` and ``play --hints`` do.  ``k``: the view's knowledge, when
    already at hand."""
    if budget.exact:
        return budget
    n = count_deals(knowledge_of(view) if k is None else k)
    if budget.samples is not None:
        fits = n <= min(budget.samples, SETTLED)
    else:
        cost = FIRST_TRICK_COST if view.trick_number == 1 else 1
        fits = n <= default or n * max(1, len(view.legal_cards())) * cost <= EXACT_WORK
    return replace(budget, exact=True) if fits else budget


def hint(view: View, budget: Budget | None = None, models: Models | None = None, *,
         progress: Progress | None = None) -> Hint:
    """Every legal card of the seat of ``view``, on its turn to play, valued over the
    deals consistent with what that seat knows, best first: the answer depends on the view
    only, never on cards the seat has not seen (:meth:`View.on_turn
    <cuatrola_solver.game.view.View.on_turn>` projects a hand in play on its seat on turn).

    For paso, ``tricks`` and ``margin`` are measured for the seat's side; for a bid
    contract, for the declaring side.  ``p_win`` is always the seat's side's.  If the seat
    on turn may sing now (a trick boundary), the values assume it sings first (the 40
    before a 20), in every deal where the rules let it: under ``forty_first`` a 20 is
    refused in the deals where its partner holds the 40 (the side then sings the 40,
    a choice left to the search).  Other cantes still pending at this boundary are taken
    as forgone (the record is taken as complete so far).  At a trick boundary where the
    seat may sing but another seat leads, the hint is about the cante only.

    ``budget`` (default :class:`Budget()`: every layout when they fit the hint's time
    budget, else up to :data:`DEFAULT_HINT_SAMPLES` deals, a fresh seed, one worker;
    :func:`exact_when_few` decides, and ``exact`` says which): sampled deals are drawn
    and valued in rounds of :data:`ROUND`, as for ``advise``: after :data:`MIN_ROUNDS` rounds, sampling stops
    once every card's ``p_win`` is within the budget's tolerance (so by :data:`SETTLED`
    deals, whatever ``samples`` asks).  The deals are searched in one batch per legal
    card (:func:`~cuatrola_solver.dd.solver.card_figures`: tricks, margin and makes in one
    pass, the tables warm from one layout to the next, the GIL released) on ``workers``
    threads; the result does not depend on it.

    ``models`` (default: the preset's, as ``cuatrola hint`` uses them): with a bid model
    each deal is weighted by how likely the four calls were with the hands it gives the
    other seats (as in ``advise``), with a card-play model also by how likely the cards
    they played were with those hands (:func:`deal_weights`); with a played-odds model
    fitted with cards each card also carries ``p_played``, its P(win) as the hand will be
    played, and the cards are ranked on it; a model without card cells leaves the cards
    double dummy.

    The view's what-if constraints (:meth:`View.assuming
    <cuatrola_solver.game.view.View.assuming>`) limit the deals, exact or sampled, to
    the layouts that meet them; the hint names them with ``layouts``.
    """
    budget = Budget() if budget is None else budget
    models = Models.of(view.rules) if models is None else models
    samples = budget.samples_or(DEFAULT_HINT_SAMPLES)
    _check_card_to_play(view)
    if view.to_play != view.seat:
        if view.cante_options():
            return _cante_hint(view, samples, budget.seed)
        raise IllegalPlayError(_("it is seat {to_play}'s turn to play, not seat {seat}'s")
                                .format(to_play=view.to_play, seat=view.seat))
    k = knowledge_of(view)
    budget = exact_when_few(view, budget, k=k)
    cante, note = _cante_first(view)
    rounds, total, seed = _deal_rounds(k, budget, samples)
    sums = _value_cards(view, k, rounds, total, cante, budget, models, progress)
    return _final_hint(view, k, budget.exact, seed, sums, cante, note, models)


def _check_card_to_play(view: View) -> None:
    """Refuse a view with no card to play: the auction still on, the hand decided by a
    renuncio, or over."""
    if not view.auction_over:
        raise IllegalPlayError(_("the auction is not over: there is no card to play yet"))
    if view.renuncios:
        raise IllegalPlayError(_("the hand is already decided by the first renuncio, "
                                 "{renuncio}").format(renuncio=view.renuncios[0].describe()))
    if view.is_over():
        raise IllegalPlayError(_("the hand is over: there is no card to play"))


def _cante_first(view: View) -> tuple[int | None, str | None]:
    """The cante the seat on turn sings before leading (the first it may: the 40 before a
    20), with the note that says the values assume it; None, None without one."""
    options = view.cante_options()
    if not options:
        return None, None
    base, cante = view.play_position, options[0]
    mate = partner_of(view.seat)
    values = dict(points=cante_points(cante, base.trump), suit=SUIT_NAMES[cante])
    if (view.rules.forty_first and cante != base.trump and not base.sung >> base.trump & 1
            and base.in_play(mate)):
        return cante, later("sing the {points} in {suit} before leading: the values assume "
                            "you do (where your partner holds the 40, your side sings the 40 "
                            "first)", **values)
    return cante, later("sing the {points} in {suit} before leading: the values assume you "
                        "do", **values)


def _deal_rounds(k: Knowledge, budget: Budget,
                 samples: int) -> tuple[Iterable[Deals], int, int | None]:
    """The deals to value, in rounds: every layout in one round when exact, else sampled
    rounds of :data:`ROUND` (as advise: memory and time do not grow with ``samples``);
    with how many deals at most, and the seed drawn (None when exact)."""
    if budget.exact:
        return [enumerate_deals(k)], count_deals(k), None
    seed = budget.drawn_seed()
    rounds = (sample_chunk(k, chunk) for chunk in iter_chunks(samples, seed, ROUND))
    return rounds, min(samples, SETTLED), seed


def _sides(view: View) -> tuple[int, int, int]:
    """The seat's side, the declaring side, and the side tricks and margin are measured
    for (the seat's for paso, else the declaring side)."""
    base = view.play_position
    mine, d = side_of(view.seat), base.declaring_side
    return mine, d, mine if base.contract == "paso" else d


def _card_figures(view: View, deals: Deals, cante: int | None,
                  workers: int) -> dict[int, solver.Values]:
    """``{card: (n, 3) int32}`` tricks, margin, makes of the declaring side after each
    card, over the round's layouts (one warm batch per card: solver.card_figures), the
    cante sung first in the layouts where the rules let the seat sing it."""
    base, rules, seat = view.play_position, view.rules, view.seat
    if cante is None:
        return solver.card_figures(base, deals, rules, workers)
    may = np.array([cante_refusal(base.with_changes(hands=tuple(int(h) for h in row)),
                                  rules, seat, cante) is None for row in deals], dtype=np.bool_)
    out: dict[int, solver.Values] = {}
    for mask, pos in ((may, sing(base, side_of(seat), cante)), (~may, base)):
        if mask.any():
            for c, a in solver.card_figures(pos, deals[mask], rules, workers).items():
                out.setdefault(c, np.zeros((len(deals), 3), dtype=np.int32))[mask] = a
    return out


@dataclass
class _CardSums:
    """What a hint adds up over its deals: per card, the weighted sums of the measured
    side's tricks and margin and of the seat's side's wins; the deals valued; the sums of
    their weights and squared weights (1 each without inference)."""

    cards: dict[int, list[float]]
    n: int = 0
    weight: float = 0.0
    weight2: float = 0.0
    infer: bool = False

    @property
    def effective(self) -> float:
        """The effective number of deals: (sum w)^2 / sum w^2, or the deals themselves."""
        return self.weight * self.weight / self.weight2 if self.infer else self.n


def _value_cards(view: View, k: Knowledge, rounds: Iterable[Deals], total: int,
                 cante: int | None, budget: Budget, models: Models,
                 progress: Progress | None) -> _CardSums:
    """Every legal card valued over the rounds of deals, each deal weighed by the models
    (:func:`deal_weights`); sampling stops after :data:`MIN_ROUNDS` rounds once every
    card's ``p_win`` is within the budget's tolerance.  The deals are searched in one
    batch per card (the GIL released, ``workers`` threads); the sums run in deal order,
    as one deal after another would add them."""
    mine, d, measured = _sides(view)
    pts = points_based(view.play_position.contract, view.rules)
    # four calls are known once cards are played; the cards played so far, by the others
    out = _CardSums({}, infer=models.bids is not None or models.cards is not None)
    workers = max(1, budget.workers or 1)
    for j, deals in enumerate(rounds, 1):
        ws = (deal_weights(view, k.dealt_hands(deals), models) if out.infer
              else np.ones(len(deals)))
        for c, a in _card_figures(view, deals, cante, workers).items():
            s = out.cards.setdefault(c, [0.0, 0.0, 0.0])
            t, m, won = a[:, 0], a[:, 1], a[:, 2]
            s[0] = _running_sum(s[0], ws * (t if measured == d else 5 - t))
            if pts:
                s[1] = _running_sum(s[1], ws * (m if measured == d else -m))
            s[2] = _running_sum(s[2], ws * (won if mine == d else 1 - won))
        out.n += len(deals)
        out.weight = _running_sum(out.weight, ws)
        out.weight2 = _running_sum(out.weight2, ws * ws)
        if progress:
            progress(out.n, total)
        if out.infer and out.weight <= 0:
            raise NotationError(_("no deal explains the calls and the play under the models "
                                  "(every weight is 0): hint without inference (--no-inference)"))
        if not budget.exact and j >= MIN_ROUNDS and _settled(out, budget.tolerance):
            break
    return out


def _settled(sums: _CardSums, tolerance: float) -> bool:
    """Whether every card's ``p_win`` is known within ``tolerance`` (the half-width of
    its interval, on the effective number of deals with inference)."""
    ess = sums.effective
    return all(half_width(s[2] * ess / sums.weight, ess) <= tolerance if sums.infer
               else half_width(s[2], sums.n) <= tolerance for s in sums.cards.values())


def _final_hint(view: View, k: Knowledge, exact: bool, seed: int | None, sums: _CardSums,
                cante: int | None, note: str | None, models: Models) -> Hint:
    """The hint from its sums: each card's means (and its played P(win) with a
    played-odds model fitted with cards), best first for the seat."""
    base = view.play_position
    mine, d, measured = _sides(view)
    pts = points_based(base.contract, view.rules)
    role = played.card_role(mine, d)
    played_model = models.played
    if played_model is not None and not played_model.has_cards:
        played_model = None

    def as_played(p: float) -> float | None:
        return (None if played_model is None
                else played_model.p_card(base.contract, view.trick_number, role, p))

    weight = sums.weight
    cards = [CardHint(c, s[0] / weight, s[1] / weight if pts else None, s[2] / weight,
                      as_played(s[2] / weight)) for c, s in sums.cards.items()]
    sign = 1 if measured == mine else -1      # seat-relative: higher is better for the seat
    cards.sort(key=lambda h: (-(h.p_played or 0.0), -h.p_win, -sign * (h.margin or 0.0),
                              -sign * h.tricks, h.card))
    return Hint(view.seat, view.trick_number, base.contract, tuple(base.declarer), measured,
                exact, sums.n, seed, tuple(cards), cante, note,
                sums.effective if sums.infer else None,
                "dd" if played_model is None else "played",
                tuple(view.constraints.to_list()), layouts_of(view, k))


def _running_sum(start: float, values: Weights) -> float:
    """``start`` plus ``values`` added one after another, in order (``np.cumsum`` adds
    in sequence, where ``np.sum`` adds pairwise): the same float whether the deals come
    in one round or in several."""
    if not len(values):
        return start
    return float(np.cumsum(np.concatenate(([start], np.asarray(values, dtype=np.float64))))[-1])


def deal_weights(view: View, dealt: Deals, models: Models) -> Weights:
    """The weight of each deal (rows of four dealt-hand masks) for ``view``'s seat: how
    likely the other seats' calls were with the hands it gives them, under the bid model
    (:func:`~cuatrola_solver.models.bids.call_weights`), times how likely the cards they
    played, under the card-play model (:func:`~cuatrola_solver.models.cardplay.card_weights`);
    a model left out weighs nothing.  What ``hint`` and the players that read the play
    weigh their deals by."""
    w = np.ones(len(dealt))
    if models.bids is not None:
        others = [s for s in (1, 2, 3, 4) if s != view.seat]
        w = w * call_weights(dealt, view.trump, view.calls, others, view.rules, models.bids,
                             view.score)
    if models.cards is not None:
        w = w * card_weights(dealt, view, models.cards)
    return w


#: most deals of a cante hint (each deal is solved once per option)
CANTE_HINT_SAMPLES = 400


def _cante_hint(view: View, samples: int, seed: int | None) -> Hint:
    """At a trick boundary where the view's seat may sing but does not lead: whether to
    sing and which cante, by :func:`cante_values` over sampled deals."""
    seat, base = view.seat, view.play_position
    seed = random_seed() if seed is None else seed
    n = max(1, min(samples, CANTE_HINT_SAMPLES))
    options = [None] + view.cante_options()
    k = knowledge_of(view)
    values = cante_values(view, options, samples=n, seed=seed, k=k)
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
                best, note, constraints=tuple(view.constraints.to_list()),
                layouts=layouts_of(view, k))


def best_cante(values: dict[int | None, tuple[float, float]]) -> int | None:
    """The option of :func:`cante_values` with the best win chance, then margin (a tie
    goes to singing, then to the lower suit)."""
    return max(values, key=lambda o: (values[o][0], values[o][1], o is not None, -(o or 0)))


def cante_values(view: View, options: Sequence[int | None], *, samples: int = 40,
                 seed: int | None = None,
                 k: Knowledge | None = None) -> dict[int | None, tuple[float, float]]:
    """What each cante option of the view's seat is worth now, at a trick boundary: over
    deals consistent with the view, the seat's side's double-dummy win chance and mean
    points margin (0 for a contract on tricks).  ``None`` is keeping quiet: the side sings
    nothing at this boundary.  A suit the rules refuse in a deal (``forty_first``: the
    partner holds the 40) leaves that deal's cantes to the search.  ``k``: the view's
    knowledge, when already at hand.
    """
    rules = view.rules
    base = view.play_position
    seat, mine = view.seat, side_of(view.seat)
    deals = sample_deals_seeded(knowledge_of(view) if k is None else k, samples,
                                random_seed() if seed is None else seed, chunk_size=ROUND)
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
            makes = int(solver.solve(after, rules, "makes") or 0)    # never None
            totals[o][0] += makes if mine == d else 1 - makes
            if pts:
                margin = solver.solve(after, rules, "margin") or 0   # None on tricks only
                totals[o][1] += margin if mine == d else -margin
    n = max(1, len(deals))
    return {o: (w / n, m / n) for o, (w, m) in totals.items()}
