"""Where two line-ups of a duplicate run part, and the properties of the game that
PIMC's play rests on (``cuatrola compare``).

**Where two line-ups part.**  A duplicate run (:mod:`~cuatrola_solver.lab.selfplay`,
``hands`` mode) plays each board twice, the line-ups swapped over the same deal and
seats.  Two plays of a board are the same hand until the first *decision* where they
differ: the same seat, at the same point of the hand (the same cards played and cantes
sung before), chooses another card -- or, at a trick boundary, sings where the other
play does not (or sings another suit).  Since the seat holds line-up ``a``'s player in
one play and ``b``'s in the other, that first difference is a decision the two players
took differently on the same view; everything after it follows from it.  Each board is
a :class:`Parting`: the board's *duplicate difference* (line-up ``a``'s match points
minus ``b``'s over the board's two plays, as the run's summary counts them), and where
the plays first differ: the baza (trick) and the place in it, the seat, the contract,
and the seat's *role* (``declarer`` or ``defender``: its side declares or defends; in
paso, ``side A`` or ``side B``).  A board played the same way twice parts nowhere and
its difference is 0.  A board whose calls differ (line-ups that bid by different rules)
is not the same hand from the first card and is counted apart.

The tallies (:func:`tally`) group the boards by the baza, contract, role and seat of
the first difference: for each group the boards, the mean duplicate difference of
those boards per hand, and the group's *share of the run's difference* (the sum of its
boards' differences over every board of the run, per hand: the shares of all groups,
the boards that part nowhere (0) and those whose calls differ add up to the run's
``a - b``).  Both with 95% intervals over boards (:class:`~cuatrola_solver.lab.selfplay.Ratio`,
the run's own estimator: boards are the unit).  At a card that differs, the two cards
are also valued double dummy on the actual deal (``makes``, for the seat's side): whose
card keeps the better result with every card seen (``a``, ``b`` or ``same``) -- PIMC's
own yardstick, which favours PIMC's card by construction.  Several runs of the same
line-ups and rules (other seeds) are pooled board by board (:func:`compare`).

**The properties** of Long, Sturtevant, Buro and Furtak ("Understanding the success of
perfect information Monte Carlo sampling in game tree search", AAAI 2010), measured on
the card decisions of the run's records (:class:`Properties`).  A *decision* is a card
a seat played with two legal cards or more.

- *Disambiguation*: at each decision, the number of layouts of the hidden cards
  consistent with what the seat on turn has seen (its own cards, the muestra, the
  calls, every card and cante before:
  :func:`~cuatrola_solver.hidden.inference.knowledge_of` and
  :func:`~cuatrola_solver.hidden.deals.count_deals`), by baza: the median, the mean of
  its base-2 logarithm (the *bits* still hidden), the bits left as a share of the
  first baza's, and the share of decisions taken knowing every card (one layout).  The
  faster the layouts fall, the sooner the deals PIMC samples are the one it plays, and
  the less a card chosen as if every card were seen can cost (Long et al.'s
  disambiguation factor is high).
- *Leaf correlation*: at the last decision of each hand, the share where every legal
  card gives the same double-dummy result (the deciding side wins with all of them, or
  loses with all of them) on the actual deal: siblings near the leaves with one payoff.
  The same share at every decision is given by baza (``dd alike``).  Where the cards
  all give one result, no choice can lose what another would win, and PIMC's *strategy
  fusion* (valuing a card as if the later cards could differ from deal to deal) costs
  nothing; Long et al. found PIMC strong where the correlation is high.
- *Bias*: the share of hands the declaring side (paso: side A) wins double dummy from
  the first lead, per contract: how one-sided the deals are.  A contract won (or lost)
  double dummy in nearly every deal leaves the card play little to decide.

**Another player asked** (``ask``, :func:`opinions_of`).  At each decision of line-up
``a`` in the records, the card another player -- line-up ``b``'s, or any -- chooses on the
same view with the same seed, as the lab asks its players: how often it would play
another card, by baza, contract and role, and where it would, whose card keeps the
better result double dummy.  Unlike the first difference, this sees every decision of
the hand, not only the first where the plays part.

Proportions are shares of the hands (or decisions), with the Wilson interval of that
share over its effective number of hands (:func:`share_interval`): the two plays of a
board share their deal, and often every card, and the decisions of one hand go
together, so they count as fewer.  Everything is read through
:func:`~cuatrola_solver.lab.selfplay.run_records`: each record checked as ``check``
checks it and as the run wrote it; a board with one play only (a run still growing, or
cut) is left out and counted.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

from ..advice.stats import wilson
from ..bots.players import Policy, parse_player
from ..dd import solver
from ..errors import LabError, quote
from ..i18n import _
from ..game.cards import format_card
from ..game.hand import HandState
from ..game.play import SUIT_NAMES, side_of
from ..game.seats import Side
from ..game.view import View
from ..hidden.deals import count_deals
from ..hidden.inference import knowledge_of
from ..notation.record import HandRecord
from ..notation.replay import replay_cards
from .records import LabRecord
from .selfplay import Estimate, LabConfig, Ratio, Summary, run_records

#: a decision a record shows: ("card", trick, place, card) or ("cante", after_trick, seat,
#: suit)
Event = tuple[str, int, int, int]

__all__ = ["Parting", "part", "tally", "Opinion", "opinions_of", "dd_better", "HandFacts",
           "facts_of", "decision", "Properties", "Comparison", "compare", "share_interval",
           "ROLES", "CONTRACTS", "Share", "DoubleDummy", "TallyRow", "KindRow", "PartingsReport",
           "OpinionRow", "AskedReport", "TrickRow", "ShareRow", "PropertiesReport", "RunFile",
           "ComparisonReport"]

#: the contracts in the order the lab lists them
CONTRACTS = ("paso", "solo", "contrasolo", "cuatrola", "quintola")
#: the roles of a seat, in the order they are listed
ROLES = ("declarer", "defender", "side A", "side B")


# --- where two plays part ---------------------------------------------------------------

@dataclass(frozen=True)
class Parting:
    """Where the two plays of one board first differ.

    ``kind``: ``none`` (the same hand twice), ``calls`` (the calls differ: counted
    apart), ``card`` or ``cante``.  ``diff``: line-up a's match points minus b's over
    the two plays.  For a card: its ``trick`` (baza, 1 to 5), ``place`` in the baza (1:
    the lead), ``seat``, ``role`` (``declarer``/``defender``, in paso ``side A``/``side
    B``), what ``a``'s and ``b``'s players played there, and ``dd``: whose card keeps
    the better result double dummy on the actual deal for the seat's side (``a``,
    ``b``, ``same``).  For a cante: ``trick`` is the baza it precedes, ``seat`` the
    singer, ``a``/``b`` what each player did (``cante oros``, ``no cante``)."""

    board: int
    diff: int
    kind: str
    contract: str | None = None
    trick: int | None = None
    place: int | None = None
    seat: int | None = None
    role: str | None = None
    a: str | None = None
    b: str | None = None
    dd: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _events(rec: HandRecord) -> list[Event]:
    """The decisions a record shows, in playing order: ``("card", trick, place, card)``
    and ``("cante", after_trick, seat, suit)`` (a cante before the next baza)."""
    out: list[Event] = []
    for t in range(len(rec.tricks) + 1):
        out += [("cante", t, k.seat, k.suit) for k in rec.cantes if k.after_trick == t]
        if t < len(rec.tricks):
            out += [("card", t + 1, j, c) for j, c in enumerate(rec.tricks[t], 1)]
    return out


def _first_difference(e0: list[Event], e1: list[Event]) -> int | None:
    for i, (x, y) in enumerate(zip(e0, e1)):
        if x != y:
            return i
    return None if len(e0) == len(e1) else min(len(e0), len(e1))


def role_of(seat: int, contract: str, declaring: Side) -> str:
    """``declarer`` or ``defender`` (the seat's side declares or defends), in paso
    ``side A`` or ``side B``."""
    side = side_of(seat)
    if contract == "paso":
        return f"side {side}"
    return "declarer" if side == declaring else "defender"


def _points(r: LabRecord) -> int:
    """Line-up a's match points minus b's in one record."""
    result = r.lab_field["result"]
    sign = 1 if Summary.who(r.lab_field, result["winner"]) == "a" else -1
    points: int = sign * result["game_points"]
    return points


def _calls(rec: HandRecord) -> list[str]:
    return list(rec.auction) if rec.auction is not None else ["paso"] * 4


def dd_better(hand: HandState, card_a: int, card_b: int) -> str:
    """Whose card keeps the better double-dummy result (``makes``) for the side of the
    seat on turn in ``hand`` (every hand known): ``a``, ``b`` or ``same``."""
    values = solver.solve_cards(hand.play_position, hand.rules, "makes")
    ours = side_of(hand.play_position.to_play) == hand.play_position.declaring_side
    a, b = (bool(values[c]) == ours for c in (card_a, card_b))
    return "same" if a == b else "a" if a else "b"


def part(plays: Iterable[LabRecord]) -> Parting:
    """Where the two plays of one board (play 0, then play 1) first differ."""
    r0, r1 = plays
    board = r0.lab_field["deal"]
    diff = _points(r0) + _points(r1)
    if _calls(r0.record) != _calls(r1.record):
        return Parting(board, diff, "calls")
    e0, e1 = _events(r0.record), _events(r1.record)
    i = _first_difference(e0, e1)
    e = [None, None] if i is None else [x[i] if i < len(x) else None for x in (e0, e1)]
    cards = all(x is not None and x[0] == "card" for x in e)
    # the card that differs is the k-th of play 0
    k = sum(1 for x in e0[:i] if x[0] == "card") if cards else -1
    for n, (t, j, hand, _card) in enumerate(replay_cards(r0.record)):
        if n == 0:
            contract, declaring = hand.contract, hand.play_position.declaring_side
        if n == k:
            seat = hand.play_position.to_play
            mine = str(side_of(seat))
            # each play's card, under the line-up that played it at that seat
            card = {Summary.who(r.lab_field, mine): x[3] for r, x in zip((r0, r1), e)
                    if x is not None}       # both are cards here
            return Parting(board, diff, "card", contract, t, j, seat,
                           role_of(seat, contract, declaring), format_card(card["a"]),
                           format_card(card["b"]), dd_better(hand, card["a"], card["b"]))
    if i is None:
        return Parting(board, diff, "none", contract)
    sung = next((x for x in e if x is not None and x[0] == "cante"), None)
    if sung is None:            # one play ends where the other plays on: not one hand
        raise LabError(_("board {board}: one play ends where the other plays a card").format(
            board=board))
    seat = sung[2]
    did = {}
    for r, x in zip((r0, r1), e):
        did[Summary.who(r.lab_field, str(side_of(seat)))] = (
            f"cante {SUIT_NAMES[x[3]]}" if x is not None and x[0] == "cante" else "no cante")
    return Parting(board, diff, "cante", contract, sung[1] + 1, None, seat,
                   role_of(seat, contract, declaring), did["a"], did["b"])


# --- another player asked ----------------------------------------------------------------

@dataclass(frozen=True)
class Opinion:
    """One of line-up a's decisions (a card it played with two legal cards or more) and
    the card another player (``b``: line-up b's, or any asked) would have played there,
    on the same view and seed:
    ``dd`` (when they differ) is whose card keeps the better result double dummy on the
    actual deal, as in :class:`Parting`."""

    board: int
    trick: int
    place: int
    seat: int
    contract: str
    role: str
    a: str
    b: str
    dd: str | None = None


def opinions_of(r: LabRecord, player: Policy) -> list[Opinion]:
    """At each decision line-up a took in the record ``r``, the card ``player`` chooses on
    the same view with the run's seed of the hand, as the lab asks its players
    (:func:`~cuatrola_solver.bots.playout.play_hand`): asked line-up a's own player, it
    plays a's card every time."""
    out: list[Opinion] = []
    for n, (t, j, hand, card) in enumerate(replay_cards(r.record)):
        if n == 0:
            contract, declaring = hand.contract, hand.play_position.declaring_side
        seat = hand.play_position.to_play
        if Summary.who(r.lab_field, str(side_of(seat))) != "a" or len(hand.legal_cards()) < 2:
            continue
        other = player.card(View.from_hand(hand, seat), r.lab_field["seed"])
        out.append(Opinion(r.lab_field["deal"], t, j, seat, contract,
                           role_of(seat, contract, declaring), format_card(card),
                           format_card(other),
                           None if other == card else dd_better(hand, card, other)))
    return out


@dataclass(frozen=True)
class DoubleDummy:
    """Of the cards that differ: how many times ``a``'s card, either (``same``) or
    ``b``'s kept the better result double dummy on the actual deal."""

    a: int
    same: int
    b: int

    @classmethod
    def of(cls, verdicts: Iterable[str | None]) -> "DoubleDummy":
        v = list(verdicts)
        return cls(v.count("a"), v.count("same"), v.count("b"))

    def to_dict(self) -> dict[str, int]:
        return {"a": self.a, "same": self.same, "b": self.b}


@dataclass(frozen=True)
class OpinionRow:
    """Line-up a's decisions of one group (``key``: ``trick``, ``contract`` or ``role``,
    and its ``value``) and how often the player asked would have played another card."""

    key: str
    value: Any
    decisions: int
    differ: "Share"
    dd: DoubleDummy

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.value, "decisions": self.decisions,
                "differ": self.differ.to_dict(), "dd": self.dd.to_dict()}


@dataclass(frozen=True)
class AskedReport:
    """Another player asked at each of line-up a's decisions: its spec, how many
    decisions, and the :class:`OpinionRow` groups by baza, contract and role."""

    player: str
    decisions: int
    by_trick: tuple[OpinionRow, ...]
    by_contract: tuple[OpinionRow, ...]
    by_role: tuple[OpinionRow, ...]

    def by(self, key: str) -> tuple[OpinionRow, ...]:
        """The groups by ``key`` (``trick``, ``contract``, ``role``)."""
        return {"trick": self.by_trick, "contract": self.by_contract,
                "role": self.by_role}[key]

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "decisions": self.decisions,
                **{f"by_{key}": [r.to_dict() for r in self.by(key)]
                   for key in ("trick", "contract", "role")}}


def _opinion_rows(opinions: list[Opinion], key: str) -> tuple[OpinionRow, ...]:
    """Line-up a's decisions grouped by ``key`` (``trick``, ``contract``, ``role``): how
    many, the share where the player asked would have played another card (the Wilson
    interval over the boards), and whose card kept the better result double dummy
    there."""
    rows = []
    for value in sorted({getattr(o, key) for o in opinions}, key=_order(key)):
        inside = [o for o in opinions if getattr(o, key) == value]
        shares = _Shares()
        boards: dict[int, list[int]] = {}
        for o in inside:
            x = boards.setdefault(o.board, [0, 0])
            x[0] += o.dd is not None
            x[1] += 1
        for x in boards.values():
            shares.add_board({value: tuple(x)})
        rows.append(OpinionRow(key, value, len(inside), shares.row(value).share,
                               DoubleDummy.of(o.dd for o in inside)))
    return tuple(rows)


# --- the tallies ------------------------------------------------------------------------

def _order(key: str) -> Callable[[Any], Any]:
    if key == "contract":
        return lambda v: (CONTRACTS.index(v) if v in CONTRACTS else len(CONTRACTS), str(v))
    if key == "role":
        return lambda v: ROLES.index(v)
    return lambda v: v


@dataclass(frozen=True)
class TallyRow:
    """The boards whose first difference has ``value`` for ``key`` (``trick``,
    ``contract``, ``role``, ``seat``): see :func:`tally`."""

    key: str
    value: Any
    boards: int
    mean: Estimate
    share: Estimate
    a_ahead: int
    level: int
    a_behind: int
    dd: DoubleDummy

    def to_dict(self) -> dict[str, Any]:
        return {self.key: self.value, "boards": self.boards, "mean": self.mean.to_dict(),
                "share": self.share.to_dict(), "a_ahead": self.a_ahead, "level": self.level,
                "a_behind": self.a_behind, "dd": self.dd.to_dict()}


@dataclass(frozen=True)
class KindRow:
    """The boards whose first difference is of one kind (a card, a cante, the calls):
    how many, their mean difference per hand and their share of the run's."""

    boards: int
    mean: Estimate
    share: Estimate

    def to_dict(self) -> dict[str, Any]:
        return {"boards": self.boards, "mean": self.mean.to_dict(),
                "share": self.share.to_dict()}


def tally(partings: list[Parting], key: str) -> tuple[TallyRow, ...]:
    """The boards that part at a card or a cante, grouped by ``key`` (``trick``,
    ``contract``, ``role``, ``seat``) of their first difference: for each group the
    boards, their mean duplicate difference per hand (``mean``) and the group's share of
    the run's difference per hand (``share``: over every board, 0 for the boards outside
    the group), each with its 95% interval over boards; how many of the boards a came
    out ahead, level or behind; and, for cards, whose card kept the better result
    double dummy (``dd``)."""
    parted = [p for p in partings if p.kind in ("card", "cante")]
    rows = []
    for value in sorted({getattr(p, key) for p in parted}, key=_order(key)):
        inside = [p for p in parted if getattr(p, key) == value]
        mean, share = Ratio(), Ratio()
        for p in inside:
            mean.add(p.diff, 2)
        for p in partings:
            share.add(p.diff if p.kind in ("card", "cante") and getattr(p, key) == value
                      else 0, 2)
        rows.append(TallyRow(key, value, len(inside), mean.estimate, share.estimate,
                             sum(p.diff > 0 for p in inside), sum(p.diff == 0 for p in inside),
                             sum(p.diff < 0 for p in inside),
                             DoubleDummy.of(p.dd for p in inside)))
    return tuple(rows)


def _kind(partings: list[Parting], kind: str) -> KindRow:
    mean, share = Ratio(), Ratio()
    for p in partings:
        if p.kind == kind:
            mean.add(p.diff, 2)
        share.add(p.diff if p.kind == kind else 0, 2)
    return KindRow(sum(p.kind == kind for p in partings), mean.estimate, share.estimate)


@dataclass(frozen=True)
class PartingsReport:
    """Where the two plays of the boards part: how many boards, how many part nowhere,
    the boards whose calls, a card or a cante differ first (:class:`KindRow`), and the
    tallies of the boards that part at a card or a cante (:func:`tally`)."""

    boards: int
    none: int
    calls: KindRow
    card: KindRow
    cante: KindRow
    by_trick: tuple[TallyRow, ...]
    by_contract: tuple[TallyRow, ...]
    by_role: tuple[TallyRow, ...]
    by_seat: tuple[TallyRow, ...]

    @classmethod
    def of(cls, partings: list[Parting]) -> "PartingsReport":
        return cls(len(partings), sum(p.kind == "none" for p in partings),
                   _kind(partings, "calls"), _kind(partings, "card"),
                   _kind(partings, "cante"), tally(partings, "trick"),
                   tally(partings, "contract"), tally(partings, "role"),
                   tally(partings, "seat"))

    def by(self, key: str) -> tuple[TallyRow, ...]:
        """The tally by ``key`` (``trick``, ``contract``, ``role``, ``seat``)."""
        return {"trick": self.by_trick, "contract": self.by_contract,
                "role": self.by_role, "seat": self.by_seat}[key]

    def to_dict(self) -> dict[str, Any]:
        return {"boards": self.boards, "none": self.none, "calls": self.calls.to_dict(),
                "card": self.card.to_dict(), "cante": self.cante.to_dict(),
                **{f"by_{key}": [r.to_dict() for r in self.by(key)]
                   for key in ("trick", "contract", "role", "seat")}}


# --- the properties ---------------------------------------------------------------------

@dataclass(frozen=True)
class HandFacts:
    """What one hand shows of the properties: its contract, whether the declaring side
    (paso: side A) wins double dummy from the first lead, and each decision (a card
    played with two legal cards or more) as ``(trick, place, layouts, alike)``: its baza
    and place in it, and :func:`decision`'s figures."""

    contract: str
    dd_win: bool
    decisions: tuple[tuple[int, int, int, bool], ...]


def decision(hand: HandState) -> tuple[int, bool]:
    """``(layouts, alike)`` of the seat on turn in ``hand`` (every hand known): the
    layouts of the hidden cards consistent with what that seat has seen, and whether
    every legal card gives the same double-dummy result (``makes``) on the actual
    deal."""
    layouts = count_deals(knowledge_of(View.on_turn(hand)))
    values = solver.solve_cards(hand.play_position, hand.rules, "makes")
    return layouts, len(set(values.values())) == 1


def facts_of(rec: HandRecord) -> HandFacts:
    """The :class:`HandFacts` of a finished record that
    :func:`~cuatrola_solver.notation.replay.replay_deal` has checked."""
    decisions = []
    contract, dd_win = "paso", False
    for n, (t, j, hand, _) in enumerate(replay_cards(rec)):
        if n == 0:
            contract = hand.contract
            dd_win = bool(solver.solve(hand.play_position, hand.rules, "makes"))
        if len(hand.legal_cards()) >= 2:
            decisions.append((t, j, *decision(hand)))
    return HandFacts(contract, dd_win, tuple(decisions))


@dataclass
class _Shares:
    """Proportions by key, boards as the unit: each board adds, per key, (how many,
    out of how many) when it has any."""

    ratios: dict[Hashable, Ratio] = field(default_factory=dict)

    def add_board(self, counts: Mapping[Hashable, tuple[int, ...]]) -> None:
        for key, (v, h) in counts.items():
            if h:
                self.ratios.setdefault(key, Ratio()).add(v, h)

    def row(self, key: Hashable) -> "ShareRow":
        """The hands, boards and :class:`Share` of ``key``."""
        r = self.ratios.get(key, Ratio())
        return ShareRow(int(r.h), r.n, share_interval(r))


@dataclass(frozen=True)
class Share:
    """A share with the number of independent hands it is worth (``effective``, see
    :func:`share_interval`) and its 95% interval (all ``None`` without hands)."""

    mean: float | None
    effective: float | None = None
    ci95: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "effective": self.effective,
                "ci95": None if self.ci95 is None else list(self.ci95)}


@dataclass(frozen=True)
class ShareRow:
    """A share over some hands and boards (``contract``: the contract it is of, in the
    properties' tables by contract)."""

    hands: int
    boards: int
    share: Share
    contract: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {} if self.contract is None else {"contract": self.contract}
        return {**d, "hands": self.hands, "boards": self.boards,
                "share": self.share.to_dict()}


def share_interval(r: Ratio) -> Share:
    """A share summed over boards (``r``: how many of how many, board by board) with its
    95% interval: the Wilson interval (:func:`~cuatrola_solver.advice.stats.wilson`) of
    the share over its *effective* number of hands, ``p (1 - p) / se^2`` with ``se`` the
    ratio estimator's standard error over boards (Kish's design effect: hands of one
    board that go together count as fewer), kept between the number of boards and of
    hands (the number of boards when ``se`` is 0: every board all one way)."""
    mean = r.mean
    if mean is None:
        return Share(None)
    se = r.se
    n = r.n if not se else mean * (1 - mean) / (se * se)
    n = min(max(n, r.n), r.h)
    return Share(mean, n, wilson(mean * n, n))


class Properties:
    """The properties of the hands of a run, fed board by board (see the module)."""

    def __init__(self) -> None:
        self.hands = 0
        self.without_choice = 0
        self.layouts: dict[int, list[int]] = {}
        self.known = _Shares()
        self.alike = _Shares()
        self.leaf = _Shares()
        self.bias = _Shares()

    def add_board(self, facts: list[HandFacts]) -> None:
        per_trick: dict[int, list[int]] = {}     # trick -> [decisions, known, alike]
        leaf: dict[str, list[int]] = {}
        bias: dict[str, list[int]] = {}
        for f in facts:
            self.hands += 1
            for c in (f.contract, "all"):
                b = bias.setdefault(c, [0, 0])
                b[0] += f.dd_win
                b[1] += 1
            if not f.decisions:
                self.without_choice += 1
                continue
            for t, _, layouts, alike in f.decisions:
                self.layouts.setdefault(t, []).append(layouts)
                row = per_trick.setdefault(t, [0, 0, 0])
                row[0] += 1
                row[1] += layouts == 1
                row[2] += alike
            for c in (f.contract, "all"):
                x = leaf.setdefault(c, [0, 0])
                x[0] += f.decisions[-1][3]
                x[1] += 1
        self.known.add_board({t: (r[1], r[0]) for t, r in per_trick.items()})
        self.alike.add_board({t: (r[2], r[0]) for t, r in per_trick.items()})
        self.leaf.add_board({c: tuple(x) for c, x in leaf.items()})
        self.bias.add_board({c: tuple(x) for c, x in bias.items()})

    def report(self) -> "PropertiesReport":
        bits = {t: statistics.fmean(math.log2(x) for x in v) for t, v in self.layouts.items()}
        first = bits.get(min(bits)) if bits else None
        tricks = tuple(
            TrickRow(t, len(self.layouts[t]), statistics.median(self.layouts[t]), bits[t],
                     bits[t] / first if first else None, self.known.row(t).share,
                     self.alike.row(t).share)
            for t in sorted(self.layouts))
        return PropertiesReport(self.hands, self.without_choice, tricks,
                                _by_contract(self.leaf), _by_contract(self.bias))

    def to_dict(self) -> dict[str, Any]:
        return self.report().to_dict()


@dataclass(frozen=True)
class TrickRow:
    """The decisions of one baza: how many, the median layouts, their bits (and the
    share left of the first baza's), and the shares known and double-dummy alike."""

    trick: int
    decisions: int
    layouts_median: float
    bits: float
    bits_left: float | None
    known: Share
    dd_alike: Share

    def to_dict(self) -> dict[str, Any]:
        return {"trick": self.trick, "decisions": self.decisions,
                "layouts_median": self.layouts_median, "bits": self.bits,
                "bits_left": self.bits_left, "known": self.known.to_dict(),
                "dd_alike": self.dd_alike.to_dict()}


@dataclass(frozen=True)
class PropertiesReport:
    """The properties of the hands of a run (see the module)."""

    hands: int
    without_choice: int
    by_trick: tuple[TrickRow, ...]
    leaf_correlation: tuple[ShareRow, ...]
    bias: tuple[ShareRow, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "without_choice": self.without_choice,
                "by_trick": [t.to_dict() for t in self.by_trick],
                "leaf_correlation": [r.to_dict() for r in self.leaf_correlation],
                "bias": [r.to_dict() for r in self.bias]}


def _by_contract(shares: _Shares) -> tuple[ShareRow, ...]:
    """One row per contract present, in the lab's order, then ``all``."""
    return tuple(replace(shares.row(c), contract=c) for c in (*CONTRACTS, "all")
                 if c in shares.ratios)


# --- a run ------------------------------------------------------------------------------

@dataclass
class RunFile:
    """One run file read: its path, seed and configuration, its finished boards and
    their hands, and the records of an unfinished last board left out."""

    run: str
    config: LabConfig
    boards: int = 0
    hands: int = 0
    unfinished: int = 0

    @property
    def seed(self) -> int:
        return self.config.seed

    def to_dict(self) -> dict[str, Any]:
        return {"run": self.run, "seed": self.seed, "boards": self.boards,
                "hands": self.hands, "unfinished": self.unfinished}


@dataclass(frozen=True)
class ComparisonReport:
    """What :func:`compare` found (:meth:`Comparison.report`): the runs read, the two
    line-ups and the rules, the boards and hands, and -- when the line-ups differ -- the
    run's ``a - b`` and where the plays part; the properties of the hands; and the
    player asked, if any."""

    runs: tuple[RunFile, ...]
    config: LabConfig
    boards: int
    hands: int
    properties: PropertiesReport
    difference: Estimate | None = None
    partings: PartingsReport | None = None
    asked: AskedReport | None = None

    @property
    def paired(self) -> bool:
        """Whether each board is played twice (the line-ups differ)."""
        return self.partings is not None

    @property
    def unfinished(self) -> int:
        return sum(r.unfinished for r in self.runs)

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        d: dict[str, Any] = {
            "runs": [r.to_dict() for r in self.runs], "a": c.a, "b": c.b, "rules": c.rules,
            "boards": self.boards, "hands": self.hands, "unfinished": self.unfinished,
            "paired": self.paired}
        if self.difference is not None and self.partings is not None:
            d["difference"] = self.difference.to_dict()
            d["partings"] = self.partings.to_dict()
        d["properties"] = self.properties.to_dict()
        if self.asked is not None:
            d["asked"] = self.asked.to_dict()
        return d


class Comparison:
    """Duplicate runs of the same two line-ups read back: the partings of their boards and
    the properties of their hands (:func:`compare`).  ``runs`` lists each file read."""

    def __init__(self, config: LabConfig, asked: Policy | None = None) -> None:
        self.config = config
        self.runs: list[RunFile] = []
        self.partings: list[Parting] = []
        self.properties = Properties()
        #: the player asked at each of line-up a's decisions, if any
        self.asked = asked
        self.opinions: list[Opinion] = []

    @property
    def paired(self) -> bool:
        """Whether each board is played twice (the line-ups differ)."""
        return len(self.config.plays) == 2

    @property
    def boards(self) -> int:
        return sum(r.boards for r in self.runs)

    def add_board(self, plays: list[LabRecord]) -> None:
        run = self.runs[-1]
        run.boards += 1
        run.hands += len(plays)
        if self.paired:
            self.partings.append(part(plays))
        self.properties.add_board([facts_of(r.record) for r in plays])
        if self.asked is not None:
            for r in plays:
                self.opinions += opinions_of(r, self.asked)

    def read(self, path: str) -> None:
        """Add the finished boards of the run ``path`` (see :func:`compare`)."""
        run = None
        board: list[LabRecord] = []
        for r, finished in run_records(path):
            if run is None:
                run = self._begin(path, LabConfig.of_key(r.lab_field["config"]))
            board.append(r)
            if finished:
                self.add_board(board)
                board = []
        if run is None or not run.boards:
            raise LabError(_("{path} holds no finished board of a run").format(path=quote(path)))
        run.unfinished = len(board)

    def _begin(self, path: str, config: LabConfig) -> RunFile:
        if config.mode != "hands":
            raise LabError(_("{path}: a run of matches: compare reads runs of single hands "
                             "(selfplay --hands), whose boards are one deal each")
                           .format(path=path))
        mine = self.config
        if (config.a, config.b, config.rules) != (mine.a, mine.b, mine.rules):
            raise LabError(_("{path} is a run of other line-ups or rules than {first} (a = {a}, "
                             "b = {b}, rules {rules}): compare runs of the same two line-ups")
                           .format(path=path, first=self.runs[0].run, a=config.a,
                                   b=config.b, rules=config.rules))
        for r in self.runs:
            if r.config == config:
                raise LabError(_("{path} is the run {run} again (seed {seed}): its boards "
                                 "would count twice").format(path=path, run=r.run,
                                                             seed=config.seed))
        run = RunFile(path, config)
        self.runs.append(run)
        return run

    def report(self) -> ComparisonReport:
        """The comparison as it stands, as a typed value."""
        diff = Ratio()
        for p in self.partings:
            diff.add(p.diff, 2)
        asked = None if self.asked is None else AskedReport(
            repr(self.asked), len(self.opinions), _opinion_rows(self.opinions, "trick"),
            _opinion_rows(self.opinions, "contract"), _opinion_rows(self.opinions, "role"))
        return ComparisonReport(
            tuple(replace(r) for r in self.runs), self.config, self.boards,
            self.properties.hands, self.properties.report(),
            diff.estimate if self.paired else None,
            PartingsReport.of(self.partings) if self.paired else None, asked)

    def to_dict(self) -> dict[str, Any]:
        return self.report().to_dict()


def compare(paths: str | Sequence[str], ask: str | None = None) -> Comparison:
    """Read the duplicate runs ``paths`` (``selfplay --out`` files of single hands, the
    same two line-ups and rules, any seeds; one path or several) and compare their
    line-ups board by board, the boards of all of them pooled.  A run of matches, of
    other line-ups or rules than the first, the same run twice, or a file with no
    finished board, is refused (:class:`LabError`); a last board with one play only is
    left out and counted.  ``ask``: also ask this player (a spec, as
    :func:`~cuatrola_solver.bots.players.parse_player` reads it: line-up b's, or any
    other) at each of line-up a's decisions (:func:`opinions_of`; as long as that
    player takes to play them)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    asked = None if ask is None else parse_player(ask)
    comparison = None
    for path in paths:
        if comparison is None:
            first = next(run_records(path), None)
            if first is None:
                raise LabError(_("{path} holds no finished board of a run")
                               .format(path=quote(path)))
            comparison = Comparison(LabConfig.of_key(first[0].lab_field["config"]), asked)
        comparison.read(path)
    if comparison is None:
        raise LabError(_("no run to compare"))
    return comparison
