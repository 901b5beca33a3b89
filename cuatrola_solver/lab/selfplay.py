"""The self-play lab: duplicate tournaments between line-ups of players.

A run (:class:`LabConfig`) plays ``count`` *boards*.  In ``hands`` mode a board is one
deal, played twice: play 0 seats line-up ``a`` at side A's seats (1 and 3) and ``b``
at side B's (2 and 4); play 1 swaps the line-ups over the same deal and seats, so the
luck of the cards cancels in the difference (duplicate bridge).  In ``matches`` mode a
board is a pair of matches with the same seeds and the line-ups swapped.

Everything a board does is seeded from the run's seed and the board's index, so a
board's records are the same whoever plays it: one process, several
(:func:`run` with ``workers``), or a Ray cluster (``ray``).  The work goes out in
*batches* of consecutive boards; results come back in any order and are written in
board order, each batch at once and flushed, so an interrupted run loses nothing
written and :func:`run` with ``resume`` continues it (the boards of the file are
read back, not replayed).  Memory does not grow with the number of boards: records
stream to the file and the summary keeps running sums (:class:`Summary`).

Each hand is one line of JSON: the schema-1 record plus the extension field ``lab``
(see :func:`lab_fields`), which carries, for each bid decision, the advisor's odds as
``advise`` gave them -- the bidder's own when it bids with the advisor (``pimc`` with
``bid=advisor``: the odds it bid on), else the advisor's over ``odds_samples`` deals
(none when 0).  :mod:`cuatrola_solver.lab.calibration` reads them.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from ..game.auction import parse_auction
from ..advice.bidding import Advice
from ..advice.stats import wilson
from ..game.cards import random_deal
from ..errors import CuatrolaError, LabError, quote
from ..i18n import _
from ..notation.replay import replay_deal
from ..bots.players import OpenSpielIsmctsPlayer, PimcPlayer, Policy, bid_advice, parse_player
from ..game.hand import Result
from ..game.jsonvalue import JSONObject, JSONValue, ParsedJSON
from ..game.view import View
from ..game.match import Match
from .grpc_probe import ray_head_answer, speaks_grpc
from .records import LabRecord, read_lab_records
from ..game.rules import get_rules, rules_spec
from ..bots.playout import iter_match, play_hand

__all__ = ["LabConfig", "LabError", "Summary", "play_board", "run_batch", "run", "Z95",
           "run_records", "Ratio", "Estimate", "ContractRow", "RunReport"]

Z95 = 1.959964
#: odds of a bid decision are drawn over this many deals by default
DEFAULT_ODDS_SAMPLES = 100
#: how many batches each worker may have in flight (bounds the memory of a run)
AHEAD = 2
#: seconds to wait for a Ray head to answer
RAY_TIMEOUT = 5.0




@dataclass(frozen=True)
class LabConfig:
    """What a run plays; every record carries it (``lab.config``), and ``--resume``
    continues a file only under the same configuration (``count`` may grow)."""

    a: str
    b: str
    rules: str | dict[str, Any] = "online"   # rules_spec: a preset name or an override object
    seed: int = 0
    mode: str = "hands"                # hands | matches
    odds_samples: int = DEFAULT_ODDS_SAMPLES
    auctions: tuple[tuple[str, ...], ...] = ()   # forced auctions, board i gets i mod len
    count: int = field(default=1, compare=False)

    @classmethod
    def make(cls, a: str, b: str, rules: str | dict[str, Any] = "online", seed: int = 0,
             mode: str = "hands", count: int = 1, odds_samples: int = DEFAULT_ODDS_SAMPLES,
             auctions: Sequence[str | Sequence[str]] = ()) -> "LabConfig":
        """A checked configuration; player specs are normalised (``parse_player``)."""
        if mode not in ("hands", "matches"):
            raise LabError(_("bad mode {mode}: expected hands or matches").format(
                mode=quote(mode)))
        if count < 1:
            raise LabError((_("bad number of hands {count}: expected at least 1")
                            if mode == "hands" else
                            _("bad number of matches {count}: expected at least 1")).format(
                count=count))
        if odds_samples < 0:
            raise LabError(_("bad odds samples {samples}: expected 0 (no odds) or more").format(
                samples=odds_samples))
        ruleset = get_rules(rules)
        pa, pb = parse_player(a), parse_player(b)
        forced: list[tuple[str, ...]] = []
        for text in auctions:
            calls = text.replace(",", " ").split() if isinstance(text, str) else list(text)
            if len(calls) != 4:
                raise LabError(_("bad auction {auction}: expected 4 calls, one per seat from "
                                 "seat 1").format(auction=quote(" ".join(calls))))
            if mode == "matches":
                raise LabError(_("--auction plays single hands: it cannot be used with "
                                 "--matches"))
            try:
                auction = parse_auction(calls[:3], 4, ruleset)
                auction.call(calls[3].lower())
            except CuatrolaError as e:
                raise LabError(_("bad auction {auction}: {reason}").format(
                    auction=quote(" ".join(calls)), reason=e)) from None
            forced.append(tuple(auction.calls))
        return cls(repr(pa), repr(pb), rules_spec(ruleset), seed, mode, odds_samples,
                   tuple(forced), count)

    @classmethod
    def of_key(cls, key: ParsedJSON) -> "LabConfig":
        """The configuration a record names (``lab.config``, as :meth:`key` writes it and
        :func:`~cuatrola_solver.lab.records.check_lab` has checked it)."""
        return cls(key["a"], key["b"], key["rules"], key["seed"], key["mode"],
                   key["odds_samples"], tuple(tuple(a.split()) for a in key["auctions"]))

    def key(self) -> JSONObject:
        """The configuration as recorded in each line (without ``count``)."""
        d: JSONObject = asdict(self)
        del d["count"]
        d["auctions"] = [" ".join(a) for a in self.auctions]
        return d

    @property
    def plays(self) -> tuple[int, ...]:
        """The plays of a board: both, or only the first when the two line-ups are the
        same (the second would repeat it: the players answer the same to the same
        views and seeds)."""
        return (0,) if self.a == self.b else (0, 1)

    def with_count(self, count: int) -> "LabConfig":
        return replace(self, count=count)


# --- one board ----------------------------------------------------------------------

class _Recorder:
    """A player seen through the lab: the same answers, with the odds of each call."""

    def __init__(self, player: Policy, odds_samples: int, forced: Sequence[str] | None,
                 bids: list[JSONObject]) -> None:
        self.player = player
        self.odds_samples = odds_samples
        self.forced = forced
        self.bids = bids

    def __repr__(self) -> str:
        return repr(self.player)        # what an error about its answers names

    def call(self, view: View, seed: int) -> str:
        bidder = (self.player.bidder
                  if isinstance(self.player, (PimcPlayer, OpenSpielIsmctsPlayer)) else None)
        if bidder is not None and (bidder.bid != "advisor" or self.forced):
            bidder = None               # only an advisor bidder's own calls carry its odds
        samples = self.odds_samples if bidder is None else bidder.bid_samples
        odds: JSONObject | None = None
        if samples:
            odds = (_odds(bid_advice(view, seed, samples), "advisor") if bidder is None
                    else _odds(bid_advice(view, seed, samples, bidder.odds,
                                          bool(bidder.inference)), "bidder"))
        call = (self.forced[view.seat - 1] if self.forced
                else self.player.call(view, seed))
        self.bids.append({"seat": view.seat, "call": call, "odds": odds})
        return call

    def sing(self, view: View, seed: int) -> int | None:
        return self.player.sing(view, seed)

    def card(self, view: View, seed: int) -> int:
        return self.player.card(view, seed)


def _odds(advice: Advice, by: str) -> JSONObject:
    """The recorded form of an :class:`~cuatrola_solver.advice.bidding.Advice`: every allowed
    call with its contract, p_win and ev for the bidder's side (p_match with a score)."""
    options: list[JSONObject] = []
    for r in advice.options:
        if not r.option.allowed:
            continue
        assert r.p_win is not None and r.ev is not None, "advise values every allowed call"
        d = r.to_dict(match=advice.advice_per_hand is not None)
        o: JSONObject = {"bid": d["bid"], "contract": d["contract"], "declarer": d["declarer"],
             "side": d["side"], "p_win": round(r.p_win, 6), "ev": round(r.ev, 6)}
        if r.p_match is not None:
            o["p_match"] = round(r.p_match, 6)
        options.append(o)
    return {"by": by, "samples": advice.deals, "advice": advice.advice, "options": options}


def _deal_rng(config: LabConfig, i: int) -> random.Random:
    return random.Random(f"{config.seed}/{config.mode}/{i}")


def lab_fields(config: LabConfig, board: int, play: int, lineup: dict[str, str], seed: int,
               bids: list[JSONObject], result: Result, **extra: JSONValue) -> JSONObject:
    """The ``lab`` field of a record: the configuration, the board and play, the
    line-up of each side (``{"A": spec, "B": spec}``), the seed of the players'
    choices (in a match, the match's seed: hand ``k``'s deal and players' seed are drawn
    from it as :func:`~cuatrola_solver.bots.playout.iter_match` says), the bid decisions
    (seat, call, odds or null) and the hand's result."""
    d: JSONObject = {"config": config.key(), "deal": board, "play": play, "lineup": lineup,
                     "seed": seed}
    d.update(extra)
    d["bids"] = bids
    d["result"] = {"winner": str(result.winner), "game_points": result.game_points}
    return d


def play_board(config: LabConfig, i: int) -> list[dict[str, Any]]:
    """The records (JSON objects) of board ``i``: both plays, in order."""
    rules = get_rules(config.rules)
    players = {"a": parse_player(config.a), "b": parse_player(config.b)}
    out: list[dict[str, Any]] = []
    if config.mode == "hands":
        rng = _deal_rng(config, i)
        deal = random_deal(rng)
        seed = rng.getrandbits(62)
        forced = config.auctions[i % len(config.auctions)] if config.auctions else None
        for play in config.plays:
            side_a, side_b = ("a", "b") if play == 0 else ("b", "a")
            bids: list[JSONObject] = []
            seated = [_Recorder(players[side_a if s % 2 else side_b], config.odds_samples,
                                forced, bids) for s in (1, 2, 3, 4)]
            rec = play_hand(deal, seated, rules, seed=seed)
            result = replay_deal(rec).result()
            assert result is not None, "a hand played out has a result"
            lineup = {"A": getattr(config, side_a), "B": getattr(config, side_b)}
            obj = rec.to_json_obj()
            obj["lab"] = lab_fields(config, i, play, lineup, seed, bids, result)
            out.append(obj)
        return out
    seed = _deal_rng(config, i).getrandbits(62)
    for play in config.plays:
        first, second = ("a", "b") if play == 0 else ("b", "a")
        bids = []
        # players 1 and 3 of hand 0 are line-up ``first``
        seated = [_Recorder(players[first if s % 2 else second], config.odds_samples,
                            None, bids) for s in (1, 2, 3, 4)]
        for k, rec in enumerate(iter_match(seated, rules, seed)):
            result = replay_deal(rec).result()
            assert result is not None, "a hand played out has a result"
            # in hand k, side A's seats hold hand 0's players of seats 1+k and 3+k
            a_is_first = k % 2 == 0
            lineup = {"A": getattr(config, first if a_is_first else second),
                      "B": getattr(config, second if a_is_first else first)}
            obj = rec.to_json_obj()
            obj["lab"] = lab_fields(config, i, play, lineup, seed, list(bids), result, hand=k)
            bids.clear()
            out.append(obj)
        out[-1]["lab"]["last"] = True
    return out


def run_batch(config: LabConfig, start: int, stop: int) -> list[str]:
    """The JSON lines of boards ``start .. stop-1``: a task of a run, wherever it runs."""
    return [json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
            for i in range(start, stop) for obj in play_board(config, i)]


# --- the summary ----------------------------------------------------------------------

@dataclass
class Ratio:
    """A ratio of sums over boards, sum(v) / sum(h), with the standard error of the
    ratio estimator over boards (boards are independent; the hands of one board are not)."""

    n: int = 0
    v: float = 0.0
    h: float = 0.0
    vv: float = 0.0
    hh: float = 0.0
    vh: float = 0.0

    def add(self, v: float, h: float) -> None:
        self.n += 1
        self.v += v
        self.h += h
        self.vv += v * v
        self.hh += h * h
        self.vh += v * h

    @property
    def mean(self) -> float | None:
        return self.v / self.h if self.h else None

    @property
    def se(self) -> float | None:
        if self.n < 2 or not self.h:
            return None
        r = self.v / self.h
        ss = max(0.0, self.vv - 2 * r * self.vh + r * r * self.hh)
        hbar = self.h / self.n
        return math.sqrt(ss / (self.n * (self.n - 1))) / hbar

    @property
    def estimate(self) -> "Estimate":
        """The mean, its standard error and its 95% interval, as they stand."""
        m, se = self.mean, self.se
        ci = None if se is None or m is None else (m - Z95 * se, m + Z95 * se)
        return Estimate(m, se, ci)

    def to_dict(self) -> dict[str, Any]:
        return self.estimate.to_dict()


@dataclass(frozen=True)
class Estimate:
    """A ratio's mean per hand, its standard error over boards and its 95% interval
    (``None`` where there are too few boards to say)."""

    mean: float | None
    se: float | None = None
    ci95: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"mean": self.mean, "se": self.se,
                "ci95": None if self.ci95 is None else list(self.ci95)}


@dataclass(frozen=True)
class ContractRow:
    """How often one contract was played from one seat (paso: ``seat`` ``"A"``, made:
    side A won), by which line-up, and how often it was made, with the Wilson
    interval of that rate."""

    contract: str
    seat: int | str
    bid: int
    share: float | None
    by_a: int
    by_b: int
    made: int
    made_ci95: tuple[float, float]

    @property
    def made_rate(self) -> float:
        return self.made / self.bid

    def to_dict(self) -> dict[str, Any]:
        return {"contract": self.contract, "seat": self.seat, "bid": self.bid,
                "share": self.share, "by_a": self.by_a, "by_b": self.by_b,
                "made": self.made, "made_rate": self.made_rate,
                "made_ci95": list(self.made_ci95)}


@dataclass(frozen=True)
class RunReport:
    """A run's summary as it stands (:meth:`Summary.report`): what was played, line-up
    a's and b's match points per hand and their difference, the share of hands (and,
    in matches mode, of matches) a won, and the contracts played."""

    config: LabConfig
    boards: int
    hands: int
    points_a: Estimate
    points_b: Estimate
    difference: Estimate
    hands_won: Estimate
    contracts: tuple[ContractRow, ...]
    #: matches mode: the share of matches a won, and how many matches were played
    matches_won: Estimate | None = None
    matches: int = 0
    #: the file the run's records went to (``selfplay --out``), if any
    out: str | None = None

    @property
    def paired(self) -> bool:
        """Whether each board is played twice (the line-ups differ)."""
        return self.config.a != self.config.b

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        d: dict[str, Any] = {
             "mode": c.mode, "a": c.a, "b": c.b, "rules": c.rules, "seed": c.seed,
             "boards": self.boards, "hands": self.hands,
             "points_per_hand": {"a": self.points_a.to_dict(),
                                 "b": self.points_b.to_dict(),
                                 "difference": self.difference.to_dict()},
             "hands_won": {"a": self.hands_won.to_dict()}}
        if self.matches_won is not None:
            d["matches_won"] = {"a": self.matches_won.to_dict(), "matches": self.matches}
        d["contracts"] = [r.to_dict() for r in self.contracts]
        if self.out is not None:
            d["out"] = self.out
        return d


class _Board:
    """The hands of one board as they are read back: who scored what."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.points = {"a": 0, "b": 0}
        self.won = {"a": 0, "b": 0}
        self.hands = 0
        self.matches = {"a": 0, "b": 0}
        self.plays_done: set[int] = set()
        self.contracts: list[tuple[str, int | str, str, bool]] = []


class Summary:
    """Running sums of a run, fed record by record in board order."""

    def __init__(self, config: LabConfig) -> None:
        self.config = config
        self.boards = 0
        self.hands = 0
        self.played = 0            # hands played by this run (not read back by --resume)
        self.points = {"a": Ratio(), "b": Ratio()}
        self.diff = Ratio()
        self.won = Ratio()
        self.matches = Ratio()
        # (contract, seat) -> [bid, made, a, b]
        self.contracts: dict[tuple[str, int | str], list[int]] = {}
        self._board: _Board | None = None

    @staticmethod
    def who(lab: ParsedJSON, side: str) -> str:
        """"a" or "b": the line-up that played ``side`` ("A"/"B") in a record.  Line-up
        a holds side A in play 0 (and in a match's even hands: the pairs swap labels
        as the deal passes on)."""
        a_side = "A" if (lab["play"] + lab.get("hand", 0)) % 2 == 0 else "B"
        return "a" if side == a_side else "b"

    def feed(self, obj: ParsedJSON) -> bool:
        """Take one record object; True when it completes its board."""
        lab = obj["lab"]
        board = self._board
        if board is None or board.index != lab["deal"]:
            board = self._board = _Board(lab["deal"])
        result = lab["result"]
        winner = self.who(lab, result["winner"])
        board.points[winner] += result["game_points"]
        board.won[winner] += 1
        board.hands += 1
        board.contracts.append(_contract_of(obj))
        if self.config.mode == "hands":
            board.plays_done.add(lab["play"])
        elif lab.get("last"):
            # the last hand's winner is the match's: only the winner of a hand scores
            board.plays_done.add(lab["play"])
            board.matches[winner] += 1
        if board.plays_done == set(self.config.plays):
            self._close(board)
            self._board = None
            return True
        return False

    def _close(self, b: _Board) -> None:
        self.boards += 1
        self.hands += b.hands
        for x in ("a", "b"):
            self.points[x].add(b.points[x], b.hands)
        self.diff.add(b.points["a"] - b.points["b"], b.hands)
        self.won.add(b.won["a"], b.hands)
        if self.config.mode == "matches":
            self.matches.add(b.matches["a"], len(self.config.plays))
        for contract, seat, who, made in b.contracts:
            row = self.contracts.setdefault((contract, seat), [0, 0, 0, 0])
            row[0] += 1
            row[1] += int(made)
            row[2 if who == "a" else 3] += 1

    def contract_rows(self) -> tuple[ContractRow, ...]:
        """The contracts played, in the lab's order of contracts, then by seat."""
        order = {"paso": 0, "solo": 1, "contrasolo": 2, "cuatrola": 3, "quintola": 4}
        return tuple(
            ContractRow(contract, seat, bid, bid / self.hands if self.hands else None,
                        by_a, by_b, made, wilson(made, bid))
            for (contract, seat), (bid, made, by_a, by_b) in sorted(
                self.contracts.items(), key=lambda kv: (order.get(kv[0][0], 9),
                                                        str(kv[0][1]))))

    def report(self, out: str | None = None) -> RunReport:
        """The run's figures as they stand, as a typed value (``out``: the file its
        records went to)."""
        matches = self.config.mode == "matches"
        return RunReport(self.config, self.boards, self.hands, self.points["a"].estimate,
                         self.points["b"].estimate, self.diff.estimate, self.won.estimate,
                         self.contract_rows(),
                         self.matches.estimate if matches else None,
                         len(self.config.plays) * self.boards if matches else 0, out)

    def to_dict(self) -> dict[str, Any]:
        return self.report().to_dict()


def _contract_of(obj: ParsedJSON) -> tuple[str, int | str, str, bool]:
    """(contract, seat, line-up that bid it, made) of a record.  Paso is keyed by side A
    ("made": side A won); contrasolo by the contrasolo bidder."""
    lab = obj["lab"]
    calls = obj.get("auction") or ["paso"] * 4
    bidders = [s for s, c in enumerate(calls, 1) if c != "paso"]
    won_side = lab["result"]["winner"]
    if not bidders:
        return ("paso", "A", Summary.who(lab, "A"), won_side == "A")
    seat = bidders[-1]
    side = "A" if seat % 2 else "B"
    return (calls[seat - 1], seat, Summary.who(lab, side), won_side == side)


# --- reading a run back ----------------------------------------------------------------

def read_lines(path: str, config: LabConfig | None = None
               ) -> Iterator[tuple[int, ParsedJSON, int]]:
    """(line number, record object, byte offset after the line) of every complete line
    of a run's file, each checked by :func:`~cuatrola_solver.lab.records.read_lab_records`
    as ``check`` would check it; a last line without its newline (cut by an
    interruption) is left out.  Lines that are not the lab's records, or (with
    ``config``) are of another configuration, raise :class:`LabError` naming the file
    and line."""
    for r in read_lab_records(path, complete_only=True):
        found = r.lab_field["config"]
        if config is not None and found != config.key():
            raise LabError(_("{path} is from another configuration (line {line}: {diff}): "
                             "give another --out, or the same options to --resume it").format(
                path=path, line=r.line, diff=_diff(found, config.key())))
        yield r.line, r.obj, r.end


def _diff(found: object, wanted: JSONObject) -> str:
    if not isinstance(found, dict):
        return _("no configuration")
    keys = [k for k in wanted if found.get(k) != wanted[k]]
    return ", ".join(_("{key} {found} here, {wanted} now").format(
        key=k, found=repr(found.get(k)), wanted=repr(wanted[k])) for k in keys) or "?"


class _Order:
    """What the next record of a run must be: its board, play and hand of the match, its
    deal and seed as the run's seed gives them, its match score.  Records are in board
    order from 0, the plays of a board in order, the hands of a match in order."""

    def __init__(self, path: str, config: LabConfig) -> None:
        self.path = path
        self.config = config
        self.prev: ParsedJSON | None = None          # the board's record before, if any
        self.score: Match | None = None        # a match: the pairs' points (pair 0 first)

    def check(self, r: LabRecord, board: int) -> None:
        lab, c, rec = r.lab_field, self.config, r.record
        where = _("{where}, line {n}").format(where=self.path, n=r.line)
        if lab["deal"] != board:
            raise LabError(_("{where}: board {n} where board {m} was expected: not a lab run's "
                             "file in order").format(where=where, n=lab['deal'], m=board))
        prev = self.prev
        want: tuple[int, int | None]
        if c.mode == "hands":
            k = 0 if prev is None else c.plays.index(prev["play"]) + 1
            want = (c.plays[k], None)
        elif prev is None or prev.get("last"):
            k = 0 if prev is None else c.plays.index(prev["play"]) + 1
            want = (c.plays[k], 0)
        else:
            want = (prev["play"], prev["hand"] + 1)
        got = (lab["play"], lab.get("hand"))
        if got != want:
            raise LabError(_("{where}: {got} of board {board} where {want} was expected: not a "
                             "lab run's file in order").format(
                where=where, got=_play_hand(*got), board=board, want=_play_hand(*want)))
        rng = _deal_rng(c, board)
        if c.mode == "hands":
            hands, muestra = random_deal(rng)
            seed = rng.getrandbits(62)
        else:
            seed = rng.getrandbits(62)
            hands, muestra = random_deal(random.Random(f"{seed}/{lab['hand']}"))
        if ([sorted(h or ()) for h in rec.hands], rec.muestra) != (hands, muestra) \
                or lab["seed"] != seed:
            raise LabError(_("{where}: the deal of board {board} is not the one the run's seed "
                             "{seed} gives it").format(where=where, board=board, seed=c.seed))
        if c.mode == "matches":
            if lab["hand"] == 0:
                self.score = Match(get_rules(c.rules))
            match = self.score
            assert match is not None, "the order checked above puts a match's hand 0 first"
            if rec.score != match.score():
                raise LabError(_("{where}: the match score {score} is not {expected}, the score "
                                 "the match's hands before it make").format(
                    where=where, score=rec.score, expected=match.score()))
            match.record_hand(r.result.winner, r.result.game_points)
            if bool(lab.get("last")) != (match.winner() is not None):
                raise LabError((_("{where}: lab.last says the match ends with this hand, but "
                                  "the score says otherwise") if lab.get("last") else
                                _("{where}: lab.last says the match goes on with this hand, but "
                                  "the score says otherwise")).format(where=where))
        self.prev = lab


def run_records(path: str, config: LabConfig | None = None
                ) -> Iterator[tuple[LabRecord, bool]]:
    """The complete records of the run's file ``path``, in order, each with whether it
    finishes its board; every record is checked as ``check`` checks a record
    (:func:`~cuatrola_solver.lab.records.read_lab_records`) and as the run would have
    written it (:class:`_Order`): a file that cannot be the run's is refused, naming the
    line.  ``config`` None: the run is the one the file's first record names (see
    :meth:`LabConfig.of_key`), and every later record must name it too."""
    done = 0
    order = None
    given = config is not None
    for r in read_lab_records(path, complete_only=True):
        found = r.lab_field["config"]
        if config is None:
            config = LabConfig.of_key(found)
        elif found != config.key():
            values = dict(path=path, line=r.line, diff=_diff(found, config.key()))
            if given:
                raise LabError(_("{path} is from another configuration (line {line}: {diff}): "
                                 "give another --out, or the same options to --resume it")
                               .format(**values))
            raise LabError(_("{path} is from another configuration (line {line}: {diff}): a "
                             "run's file holds the records of one run").format(**values))
        if order is None:
            order = _Order(path, config)
        order.check(r, done)
        finished = (r.lab_field["play"] == config.plays[-1]
                    and (config.mode == "hands" or bool(r.lab_field.get("last"))))
        if finished:
            done += 1
            order.prev = None
        yield r, finished


def resume_point(path: str, config: LabConfig, summary: Summary) -> tuple[int, int]:
    """Feed the finished boards of ``path`` to ``summary``: (boards done, byte offset
    after the last finished board).  Every record is checked as :func:`run_records`
    checks it: a file that cannot be this run's is refused, naming the line."""
    done, end = 0, 0
    for r, finished in run_records(path, config):
        summary.feed(r.obj)
        if finished:
            done += 1
            end = r.end
    summary._board = None
    return done, end


# --- running ----------------------------------------------------------------------------

Progress = Callable[[int, int], None]
T = TypeVar("T")


def _batches(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    return [(i, min(i + size, stop)) for i in range(start, stop, size)]


def _local(config: LabConfig, todo: Iterator[tuple[int, tuple[int, int]]], workers: int
           ) -> Iterator[tuple[int, list[str]]]:
    """(batch number, lines) as the batches of ``todo`` (number, (start, stop)) finish,
    on ``workers`` processes (or here)."""
    if workers <= 1:
        for j, (s, e) in todo:
            yield j, run_batch(config, s, e)
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        pending: dict[Future[list[str]], int] = {}
        for j, (s, e) in todo:
            pending[pool.submit(run_batch, config, s, e)] = j
            if len(pending) >= AHEAD * workers:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                j = pending.pop(fut)
                yield j, fut.result()
                nxt = next(todo, None)
                if nxt is not None:
                    pending[pool.submit(run_batch, config, *nxt[1])] = nxt[0]


def _until(items: Iterable[T], seconds: float | None) -> Iterator[T]:
    """``items`` until ``seconds`` have passed (all of them without a limit)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    for item in items:
        if deadline is not None and time.monotonic() >= deadline:
            return
        yield item


def _play_hand(play: int, hand: int | None) -> str:
    """A play of a board, and its hand in a run of matches, as a resume check names it."""
    if hand is None:
        return _("play {play}").format(play=play)
    return _("play {play}, hand {hand}").format(play=play, hand=hand)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise LabError(_("--ray needs Ray: pip install 'cuatrola-solver[lab]'")) from None
    return ray


def connect_ray(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``auto``: the one started on this machine);
    an already initialised Ray (a test's local instance) is used as it is.  A HOST:PORT
    is first asked, within :data:`RAY_TIMEOUT`, the call a Ray client makes first
    (:func:`~cuatrola_solver.lab.grpc_probe.ray_head_answer`; a ``ray://`` address only
    for a gRPC connection, :func:`~cuatrola_solver.lab.grpc_probe.speaks_grpc`): an
    address that is not a Ray head's is refused in seconds, where Ray itself would retry
    for minutes."""
    loaded = sys.modules.get("ray")
    if loaded is not None and loaded.is_initialized():
        return loaded
    if address != "auto":                        # asked before Ray is even imported
        host, _colon, port = address.rpartition(":")
        if address.startswith("ray://"):
            host, _colon, port = address[len("ray://"):].rpartition(":")
        if (not host or not port.isascii() or not port.isdigit()
                or not 1 <= int(port[:6]) <= 65535):
            raise LabError(_("bad Ray address {address}: expected HOST:PORT (a port 1 to 65535) "
                             "or auto").format(address=quote(address)))
        try:
            if address.startswith("ray://"):      # Ray Client's server: HTTP/2 is all we ask
                why = (None if speaks_grpc(host, int(port), RAY_TIMEOUT)
                       else _("no gRPC there"))
            else:                                 # the head's GCS answers Ray's first call
                why = ray_head_answer(host, int(port), RAY_TIMEOUT)
        except LabError:                                  # grpcio not installed
            raise
        except (OSError, UnicodeError, ValueError) as e:   # refused, unknown host, bad name
            raise LabError(_("the Ray head at {address} does not answer ({reason}): start one "
                             "with 'ray start --head'").format(
                address=quote(address), reason=getattr(e, 'strerror', None) or e)) from None
        if why is not None:
            raise LabError(_("{address} answers, but not as a Ray head ({reason}): give the "
                             "address 'ray start --head' printed").format(
                address=quote(address), reason=why))
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    try:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False,
                 include_dashboard=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        message = (_("cannot join the Ray cluster at {address}: {reason} (start one with "
                     "'ray start --head')") if address == "auto" else
                   _("cannot join the Ray cluster at {address}: {reason}"))
        raise LabError(message.format(address=quote(address), reason=first)) from None
    return ray


def _on_ray(config: LabConfig, todo: Iterator[tuple[int, tuple[int, int]]], address: str
            ) -> Iterator[tuple[int, list[str]]]:
    ray = connect_ray(address)
    task = ray.remote(run_batch)
    slots = max(1, int(ray.cluster_resources().get("CPU", 1))) * AHEAD
    pending: dict[Any, int] = {}   # Ray's object references
    for j, (s, e) in todo:
        pending[task.remote(config, s, e)] = j
        if len(pending) >= slots:
            break
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            j = pending.pop(ref)
            yield j, ray.get(ref)
            nxt = next(todo, None)
            if nxt is not None:
                pending[task.remote(config, *nxt[1])] = nxt[0]


def run(config: LabConfig, out: str | None = None, *, workers: int | None = None,
        ray: str | None = None, resume: bool = False, batch: int | None = None,
        time_limit: float | None = None, progress: Progress | None = None) -> Summary:
    """Play ``config.count`` boards and return the summary; with ``out``, write every
    hand's record to it as JSON lines in board order, flushed batch by batch.

    ``resume`` continues the file ``out`` (same configuration; its finished boards are
    read, not replayed; a cut last board is played again).  Without ``resume`` an
    existing non-empty ``out`` is refused.  ``workers`` processes (default: all cores)
    or the Ray cluster at ``ray`` play the batches (``batch`` boards each); the records
    do not depend on either.  After ``time_limit`` seconds no new batch is started: the
    run stops when those under way are written (continue it with ``resume``)."""
    summary = Summary(config)
    start, end = 0, None
    if out is not None:
        exists = os.path.exists(out) and os.path.getsize(out) > 0
        if resume and exists:
            start, end = resume_point(out, config, summary)
        elif exists and not resume:
            raise LabError(_("{out} exists: add --resume to continue it, or give another --out")
                           .format(out=out))
    elif resume:
        raise LabError(_("--resume continues the file of --out: give --out FILE"))
    total = config.count
    if ray and start < total:
        connect_ray(ray)                # a bad address fails before anything is written
    if out is not None and end is not None:     # a cut last board is played again
        with open(out, "r+b") as cut:
            cut.truncate(end)
    if start >= total:
        return summary
    workers = max(1, workers or os.cpu_count() or 1)
    if batch is None:
        per_worker = math.ceil((total - start) / (workers * 4))
        batch = max(1, min(8 if config.mode == "hands" else 1, per_worker))
    batches = _batches(start, total, batch)
    todo = _until(enumerate(batches), time_limit)
    source = _on_ray(config, todo, ray) if ray else _local(config, todo, workers)
    f = open(out, "a", encoding="utf-8") if out is not None else None
    try:
        ready: dict[int, list[str]] = {}
        nxt = 0
        done = start
        for j, lines in source:
            ready[j] = lines
            while nxt in ready:
                lines = ready.pop(nxt)
                if f is not None:
                    f.write("".join(line + "\n" for line in lines))
                    f.flush()
                for line in lines:
                    summary.feed(json.loads(line))
                summary.played += len(lines)
                done = batches[nxt][1]
                nxt += 1
                if progress:
                    progress(done, total)
    finally:
        if f is not None:
            f.close()
    return summary
