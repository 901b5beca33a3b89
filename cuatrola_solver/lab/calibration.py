"""How well predicted odds match what happened at the table.

The self-play lab (:mod:`cuatrola_solver.lab.selfplay`) records, at each bid decision, the
advisor's P(win) of every call.  Each hand gives *predictions* with known outcomes:

- a bid contract (solo, contrasolo, cuatrola, quintola): the P(win) its declarer (the
  last seat to bid) gave the call it made, against whether its side won; the
  prediction counts only when the option's contract is the one played;
- paso (all passed): each seat's P(win) of passing (for its own side), against whether
  its side won -- keyed by the seat, and summed per side (A: seats 1 and 3, B: 2 and 4);
- on request, every card a seat chose: the hint's P(win) of that card on what the seat
  knew, recomputed from the record (:func:`card_predictions`), against whether the
  seat's side won -- grouped by trick and role (declaring side or not).

For each group (contract and seat, paso per seat and per side, every seat, overall;
cards by trick and role)
:class:`Calibration` gives a reliability table -- predictions binned by value: count,
mean prediction, observed rate with its Wilson interval -- the Brier score (mean of
(p - won)^2), the expected calibration error (the bins' |mean prediction - observed
rate| weighted by their counts) and the bias (mean prediction - observed rate:
positive when the odds promise more than the table gives).  Sums only: memory does not
grow with the number of records.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import multiprocessing
import sys
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult
from typing import Any, Iterable, Iterator, Sequence, Union

from ..advice.budget import Budget
from ..advice.cardplay import hint
from ..models import bids
from ..advice.stats import wilson
from ..errors import CuatrolaError, ModelError, quote
from ..notation.replay import replay_cards
from ..game.jsonvalue import ParsedJSON
from ..game.play import side_of
from ..models import played as played_odds
from ..models.bids import BidModel
from ..models.played import PlayedModel, card_role
from ..bots.players import parse_player
from ..notation.record import record_from_obj
from ..game.rules import get_rules
from ..game.view import View
from ..i18n import _
from ..models.preset import Models
from .records import read_lab_records

__all__ = ["Prediction", "Group", "Calibration", "predictions", "card_predictions",
           "with_card_predictions", "read_records", "Bin", "GroupStats", "GroupReport",
           "CalibrationReport", "CardOptions", "PlayedModels", "calibrate", "DEFAULT_BINS"]

DEFAULT_BINS = 10
#: a card task of :func:`with_card_predictions`: (record, winner, samples, seed, infer)
CardTask = tuple[ParsedJSON, str, int, int, bool]
#: a group of :class:`Calibration`: (contract, seat), ("paso", side), ("seat", seat),
#: ("overall",), ("cards", trick, role) or ("cards",)
GroupKey = Union[tuple[str], tuple[str, int], tuple[str, str], tuple[str, int, str]]


@dataclass(frozen=True)
class Prediction:
    contract: str
    seat: int
    side: str          # the side the prediction is for ("A"/"B")
    p: float           # predicted P(win) of that side
    won: bool
    trick: int = 0     # a card's prediction: its trick (0: a call's)
    role: str = ""     # a card's: "declarer" (the seat's side declares; A under paso) or "defender"

    @classmethod
    def of_seat(cls, contract: str, seat: int, p: float, winner: str, trick: int = 0,
                role: str = "") -> Prediction:
        """``seat``'s side wins with probability ``p``; ``winner``: the side that won."""
        side = str(side_of(seat))
        return cls(contract, seat, side, p, winner == side, trick, role)


def predictions(obj: ParsedJSON, winner: str, player: str | None = None) -> list[Prediction]:
    """The predictions of one lab record (JSON object) whose hand side ``winner`` won;
    ``player`` (a canonical player spec, as ``repr(parse_player(...))``): only those
    made by seats of the line-up playing it."""
    out = _predictions(obj, winner)
    if player is None:
        return out
    specs: dict[str, str | None] = {}
    for side, spec in ((obj.get("lab") or {}).get("lineup") or {}).items():
        try:
            specs[side] = repr(parse_player(str(spec)))
        except CuatrolaError:
            specs[side] = None
    return [p for p in out if specs.get(p.side) == player]


def _predictions(obj: ParsedJSON, winner: str) -> list[Prediction]:
    lab = obj.get("lab") or {}
    calls = obj.get("auction") or ["paso"] * 4
    odds = {b["seat"]: b.get("odds") for b in lab.get("bids") or ()
            if isinstance(b, dict) and "seat" in b}
    bidders = [s for s, c in enumerate(calls, 1) if c != "paso"]
    out: list[Prediction] = []
    if not bidders:
        for seat in (1, 2, 3, 4):
            p = _p_win(odds.get(seat), "paso", "paso")
            if p is not None:
                out.append(Prediction.of_seat("paso", seat, p, winner))
        return out
    seat = bidders[-1]
    call = calls[seat - 1]
    p = _p_win(odds.get(seat), call, call)
    if p is not None:
        out.append(Prediction.of_seat(call, seat, p, winner))
    return out


def forced_auction(obj: ParsedJSON) -> bool:
    """Whether a lab record's calls were forced (``selfplay --auction``): they say
    nothing about the hands."""
    config = (obj.get("lab") or {}).get("config") or {}
    return bool(config.get("auctions"))


def card_predictions(obj: ParsedJSON, winner: str, *, samples: int = 100, seed: int = 0,
                     bid_model: BidModel | None = None) -> list[Prediction]:
    """The predictions of the cards of one record whose hand side ``winner`` won: at
    each card its seat chose (two legal cards or more, before the hand is decided), the
    hint's P(win) of that card over ``samples`` deals consistent with what the seat knew,
    seeded by ``seed`` and the card's place -- as ``cuatrola hint`` gives it: with
    ``bid_model`` the deals are weighted by the calls, unless the record's calls were
    forced (:func:`forced_auction`).  Each costs a hint (about 25 ms at 100 deals)."""
    if forced_auction(obj):
        bid_model = None
    out: list[Prediction] = []
    for n, (t, _, hand, card) in enumerate(replay_cards(record_from_obj(obj))):
        if hand.renuncios or hand.is_over():
            break
        legal = hand.legal_cards()
        if len(legal) < 2 or card not in legal:
            continue
        h = hint(View.on_turn(hand), Budget(samples=samples, seed=seed + n),
                 Models(bid_model, None))
        seat = hand.play_position.to_play
        role = card_role(side_of(seat), hand.play_position.declaring_side)
        p = next(c.p_win for c in h.cards if c.card == card)
        out.append(Prediction.of_seat(hand.contract, seat, p, winner, t, role))
    return out


@functools.lru_cache(maxsize=None)
def _bid_model(rules_json: str) -> BidModel:
    return bids.load_model(get_rules(json.loads(rules_json)))


def _card_task(args: CardTask) -> list[Prediction]:
    obj, winner, samples, seed, infer = args
    model = _bid_model(json.dumps(obj.get("rules"), sort_keys=True)) if infer else None
    return card_predictions(obj, winner, samples=samples, seed=seed, bid_model=model)


def with_card_predictions(records: Iterable[tuple[ParsedJSON, str]], *, samples: int = 100,
                          seed: int = 0, workers: int = 1, infer: bool = True
                          ) -> Iterator[tuple[ParsedJSON, str, list[Prediction]]]:
    """``(obj, winner, card predictions)`` for each ``(obj, winner)`` of ``records``, in
    order; the n-th record's hints are seeded from ``seed + 100 n``, so the predictions
    do not depend on ``workers`` (forked processes, on Linux).  ``infer``: weight the
    deals by the calls with the preset's bid model, as ``hint`` does (ModelError when
    it is missing)."""
    tasks: Iterator[CardTask] = ((obj, w, samples, seed + 100 * n, infer)
                                 for n, (obj, w) in enumerate(records))
    if workers > 1 and sys.platform.startswith("linux"):
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            # a small look-ahead keeps memory flat on big files
            pending: list[tuple[CardTask, AsyncResult[list[Prediction]]]] = []
            for task in tasks:
                pending.append((task, pool.apply_async(_card_task, (task,))))
                if len(pending) >= 8 * workers:
                    (obj, w, *_), res = pending.pop(0)
                    yield obj, w, res.get()
            for (obj, w, *_), res in pending:
                yield obj, w, res.get()
        return
    for task in tasks:
        yield task[0], task[1], _card_task(task)


def _p_win(odds: object, bid: str, contract: str) -> float | None:
    if not isinstance(odds, dict):
        return None
    for o in odds.get("options") or ():
        if o.get("bid") == bid and o.get("contract") == contract:
            p = o.get("p_win")
            return float(p) if isinstance(p, (int, float)) and 0 <= p <= 1 else None
    return None


@dataclass
class Group:
    """Sums of one group's predictions, binned."""

    bins: int = DEFAULT_BINS
    n: int = 0
    sum_p: float = 0.0
    wins: int = 0
    sq: float = 0.0
    count: list[int] = field(default_factory=list)
    bin_p: list[float] = field(default_factory=list)
    bin_wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.count = self.count or [0] * self.bins
        self.bin_p = self.bin_p or [0.0] * self.bins
        self.bin_wins = self.bin_wins or [0] * self.bins

    def add(self, p: float, won: bool) -> None:
        k = int(p * self.bins)
        if p >= (k + 1) / self.bins:
            k += 1              # p * bins rounded below an edge: 0.58 * 100 = 57.999...
        k = min(self.bins - 1, k)
        self.n += 1
        self.sum_p += p
        self.wins += int(won)
        self.sq += (p - won) ** 2
        self.count[k] += 1
        self.bin_p[k] += p
        self.bin_wins[k] += int(won)

    @property
    def ece(self) -> float | None:
        if not self.n:
            return None
        return sum(abs(self.bin_p[k] - self.bin_wins[k]) for k in range(self.bins)) / self.n

    def stats(self) -> "GroupStats | None":
        """The group's figures (None without predictions)."""
        if not self.n:
            return None
        rows = tuple(Bin(k / self.bins, (k + 1) / self.bins, self.count[k],
                         self.bin_p[k] / self.count[k], self.bin_wins[k] / self.count[k],
                         wilson(self.bin_wins[k], self.count[k]))
                     for k in range(self.bins) if self.count[k])
        return GroupStats(self.n, self.sum_p / self.n, self.wins / self.n,
                          wilson(self.wins, self.n), self.sq / self.n, self.ece or 0.0, rows)

    def to_dict(self) -> dict[str, Any]:
        stats = self.stats()
        return {"n": 0} if stats is None else stats.to_dict()


@dataclass(frozen=True)
class Bin:
    """One bin of predicted values ``[lo, hi)``: how many predictions fell in it, their
    mean, the rate observed and its Wilson interval."""

    lo: float
    hi: float
    count: int
    mean_p: float
    observed: float
    ci95: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {"bin": [self.lo, self.hi], "count": self.count, "mean_p": self.mean_p,
                "observed": self.observed, "ci95": list(self.ci95)}


@dataclass(frozen=True)
class GroupStats:
    """The figures of a group with predictions: how many, their mean, the rate observed
    (with its Wilson interval), the Brier score, the expected calibration error and the
    reliability table (:class:`Bin`, the empty bins left out)."""

    n: int
    mean_p: float
    observed: float
    observed_ci95: tuple[float, float]
    brier: float
    ece: float
    bins: tuple[Bin, ...]

    @property
    def bias(self) -> float:
        """Mean prediction minus observed rate: positive when the odds promise more than
        the table gives."""
        return self.mean_p - self.observed

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "mean_p": self.mean_p, "observed": self.observed,
                "observed_ci95": list(self.observed_ci95), "bias": self.bias,
                "brier": self.brier, "ece": self.ece,
                "bins": [b.to_dict() for b in self.bins]}


@dataclass(frozen=True)
class GroupReport:
    """One group of predictions: which (``group``, its English name, and what it is of:
    the ``contract``, ``seat``, paso's ``side``, or a card's ``trick`` and ``role``)
    and its figures (``stats``, None without predictions)."""

    group: str
    contract: str | None = None
    cards: bool = False
    trick: int | None = None
    role: str | None = None
    seat: int | None = None
    side: str | None = None
    stats: GroupStats | None = None

    @property
    def n(self) -> int:
        return 0 if self.stats is None else self.stats.n

    @classmethod
    def of_key(cls, key: GroupKey, group: Group) -> "GroupReport":
        """The group of :class:`Calibration`'s ``key``."""
        stats = group.stats()
        if key[0] == "cards":
            if len(key) == 1:
                return cls("cards, overall", cards=True, stats=stats)
            assert len(key) == 3, "a card group is (\"cards\", trick, role)"
            return cls(f"cards, trick {key[1]}, {key[2]}", cards=True, trick=key[1],
                       role=key[2], stats=stats)
        if key[0] == "overall":
            return cls("overall", stats=stats)
        assert len(key) == 2, "a call's group is (contract or \"seat\", seat or side)"
        if key[0] == "seat":
            seat = key[1]
            assert isinstance(seat, int), "a seat's group is (\"seat\", seat)"
            return cls(f"seat {seat}", seat=seat, stats=stats)
        if isinstance(key[1], str):
            return cls(f"paso, side {key[1]}", key[0], side=key[1], stats=stats)
        return cls(f"{key[0]}, seat {key[1]}", key[0], seat=key[1], stats=stats)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"contract": self.contract}
        if self.cards:
            d["cards"] = True
        d["group"] = self.group
        if self.trick is not None:
            d["trick"], d["role"] = self.trick, self.role
        if self.seat is not None:
            d["seat"] = self.seat
        if self.side is not None:
            d["side"] = self.side
        d.update({"n": 0} if self.stats is None else self.stats.to_dict())
        return d


@dataclass(frozen=True)
class CalibrationReport:
    """A calibration's figures (:meth:`Calibration.report`): the records read and those
    without odds, the number of bins, the groups in their order, and the played-odds
    model judged (``played_model``: as the command names it), if any."""

    records: int
    without_odds: int
    bins: int
    groups: tuple[GroupReport, ...]
    played_model: str | None = None

    @property
    def with_cards(self) -> bool:
        """Whether the cards were judged too."""
        return any(g.cards for g in self.groups)

    @property
    def overall(self) -> GroupReport | None:
        """The group of all the calls' predictions."""
        return next((g for g in self.groups if g.group == "overall"), None)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"records": self.records, "without_odds": self.without_odds,
                             "bins": self.bins, "groups": [g.to_dict() for g in self.groups]}
        if self.played_model is not None:
            d["played_model"] = self.played_model
        return d


class Calibration:
    """Predictions gathered by group: ``(contract, seat)``, ``("paso", side)``,
    ``("seat", seat)``, ``("overall",)`` for the calls; ``("cards", trick, role)`` and
    ``("cards",)`` for the cards."""

    def __init__(self, bins: int = DEFAULT_BINS, played: PlayedModel | None = None,
                 player: str | None = None, keep: bool = False) -> None:
        if not 1 <= bins <= 100:
            raise CuatrolaError(_("bad number of bins {bins}: expected 1 to 100").format(
                bins=bins))
        self.bins = bins
        #: a PlayedModel: judge the played odds it gives instead of the recorded ones
        self.played = played
        #: a canonical player spec: only the calls of the seats playing it
        self.player = player
        #: every prediction added (for fitting a played-odds model)
        self.kept: list[Prediction] | None = [] if keep else None
        self.groups: dict[GroupKey, Group] = {}
        self.records = 0
        self.without_odds = 0
        #: the rule sets of the records (``rules_spec`` as JSON, ``"online"`` unnamed)
        self.rule_sets: set[str] = set()

    def _group(self, key: GroupKey) -> Group:
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = Group(self.bins)
        return g

    def add(self, pred: Prediction, played: PlayedModel | None = None) -> None:
        """Add one prediction; ``played``: the played-odds model of its record (default
        :attr:`played`)."""
        if self.kept is not None:
            self.kept.append(pred)
        played = self.played if played is None else played
        if pred.trick:
            p = (pred.p if played is None
                 else played.p_card(pred.contract, pred.trick, pred.role, pred.p))
            self._group(("cards", pred.trick, pred.role)).add(p, pred.won)
            self._group(("cards",)).add(p, pred.won)
            return
        if played is not None:
            pred = dataclasses.replace(pred, p=played.p(pred.contract, pred.seat, pred.p))
        self._group((pred.contract, pred.seat)).add(pred.p, pred.won)
        if pred.contract == "paso":
            self._group(("paso", pred.side)).add(pred.p, pred.won)
        self._group(("seat", pred.seat)).add(pred.p, pred.won)
        self._group(("overall",)).add(pred.p, pred.won)

    def add_record(self, obj: ParsedJSON, winner: str, cards: Sequence[Prediction] = (),
                   played: PlayedModel | None = None) -> None:
        """The record's calls' predictions, and ``cards``, its cards' (see
        :func:`card_predictions`); ``played``: the played-odds model of the record's
        rules, when records of several presets are judged each by its own (default
        :attr:`played`)."""
        self.records += 1
        self.rule_sets.add(json.dumps(obj.get("rules", "online"), sort_keys=True))
        preds = predictions(obj, winner, self.player)
        if not preds:
            self.without_odds += 1
        for p in [*preds, *cards]:
            self.add(p, played)

    def report(self, played_model: str | None = None) -> CalibrationReport:
        """The figures as they stand; ``played_model``: the model judged, as named."""
        order = {"paso": 0, "solo": 1, "contrasolo": 2, "cuatrola": 3, "quintola": 4,
                 "seat": 5, "overall": 6, "cards": 7}
        keys = sorted(self.groups, key=lambda k: (order.get(k[0], 9), len(k) == 1,
                                                  str(k[1:])))
        return CalibrationReport(self.records, self.without_odds, self.bins,
                                 tuple(GroupReport.of_key(k, self.groups[k]) for k in keys),
                                 played_model)

    def to_dict(self) -> dict[str, Any]:
        return self.report().to_dict()


@dataclass(frozen=True)
class CardOptions:
    """How the cards are judged (``calibrate --cards``): the deals behind each hint, the
    seed of the hints, the processes, and whether the deals are weighted by the calls."""

    samples: int = 100
    seed: int = 0
    workers: int = 1
    infer: bool = True


class PlayedModels:
    """The played-odds model each record is judged by: the file ``spec``, or for
    ``played`` the preset's own of each record's rules (each loaded once); with
    ``cards``, a model without card cells is refused (:class:`ModelError`)."""

    def __init__(self, spec: str, cards: bool = False) -> None:
        self.spec = spec
        self.cards = cards
        self._models: dict[str, PlayedModel] = {}

    def of(self, obj: ParsedJSON) -> PlayedModel:
        """The model of the record ``obj``."""
        key = json.dumps(obj.get("rules"), sort_keys=True)
        if key not in self._models:
            rules = get_rules(obj.get("rules"))
            model = played_odds.load_model(rules, None if self.spec == "played" else self.spec)
            if self.cards and not model.has_cards:
                if self.spec == "played":
                    raise ModelError(_("--model {model} has no card cells for {rules}: fit it "
                                       "with --cards to judge the cards").format(
                        model=quote(self.spec), rules=rules.name))
                raise ModelError(_("--model {model} has no card cells: fit it with --cards "
                                   "to judge the cards").format(model=quote(self.spec)))
            self._models[key] = model
        return self._models[key]


def calibrate(paths: Sequence[str], cal: Calibration, *, models: PlayedModels | None = None,
              cards: CardOptions | None = None) -> Calibration:
    """Add the records of the files ``paths`` to ``cal``, in order: their calls'
    predictions, judged by ``models`` when given (else as recorded), and with ``cards``
    their cards' (the hints of the n-th record seeded from ``cards.seed + 100 n``)."""
    for path in paths:
        items: Iterable[tuple[ParsedJSON, str, Sequence[Prediction]]] = (
            (obj, w, ()) for obj, w in read_records(path))
        if cards is not None:
            items = with_card_predictions(
                read_records(path), samples=cards.samples, seed=cards.seed + 100 * cal.records,
                workers=cards.workers, infer=cards.infer)
        for obj, winner, preds in items:
            cal.add_record(obj, winner, preds,
                           played=None if models is None else models.of(obj))
    return cal


def read_records(path: str, lines: Iterable[bytes | str] | None = None
                 ) -> Iterator[tuple[ParsedJSON, str]]:
    """(record object, winning side) of each record of the file ``path`` (or of
    ``lines``, named ``path``), each checked by
    :func:`~cuatrola_solver.lab.records.read_lab_records` as ``check`` checks a record,
    its ``lab`` field (when it has one) type-checked and held against the hand; blank
    lines are skipped.  A line that is not a record, or a record that cannot be
    replayed, raises :class:`~cuatrola_solver.errors.RecordError` naming the file and
    line; a ``lab`` field that is not what the lab writes,
    :class:`~cuatrola_solver.errors.LabError`."""
    for r in read_lab_records(path, lines, require_lab=False):
        yield r.obj, r.winner
