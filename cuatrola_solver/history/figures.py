"""The figures of each player's history, computed from the database as typed values.

A player is a name of the records' Player tags (after the merges); a hand counts for a
player when the player sat at it.  :func:`figures` takes the filters of ``cuatrola
history`` (a player, a preset, a first day) and returns a :class:`History`: per player

- **results**: hands, hands won, matches finished and won, match points scored and
  conceded (the game points of the hands the player's side won and lost), by rules
  and by seat;
- **bids against the advisor** (of the analysed hands): calls made, how many differed
  from the advised call (``analyze``'s ``advice``), by kind (:data:`BID_KINDS`), and
  the expected match points that cost: the advisor's EV of its call minus the EV of
  the call made, summed over the calls that differed;
- **cards** (of the analysed hands): choices, accuracy (the share of choices losing
  less than 10% of winning chances: ``analyze``'s), per hand and in order of play (the
  trend), the mistakes by label (``?!`` ``?`` ``??``, as ``analyze`` counts them:
  renuncios apart) and by situation (:data:`SITUATIONS` and the last two bazas), the
  cantes not sung, the win chance lost;
- **renuncios** (of every hand, as ``check`` finds them at the player's seat): how
  many, by obligation, and the match points they gave away.

Every rate is a :class:`Rate`: a count of a number, with its 95% Wilson interval.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..advice.stats import wilson
from ..game.auction import STRENGTH
from ..errors import HistoryError, quote
from .database import Database
from .stored import SITUATIONS

__all__ = ["Rate", "Split", "BidKind", "HandPlay", "Situation", "Obligation",
           "PlayerFigures", "History", "Filters", "figures", "parse_day", "BID_KINDS", "LAST_TWO",
           "players_of"]

#: how a call differs from the advice: passed where a bid was advised; bid where paso
#: was; bid lower or higher than the bid advised
BID_KINDS = ("passed", "bid_over_paso", "bid_lower", "bid_higher")
#: the situation of the cards of the last two bazas
LAST_TWO = "last_two_bazas"
#: the side of a seat, in SQL
_SIDE = "CASE WHEN sat.seat % 2 = 1 THEN 'A' ELSE 'B' END"


@dataclass(frozen=True)
class Rate:
    """``count`` of ``of``, with its 95% Wilson interval."""

    count: int
    of: int

    @property
    def value(self) -> float | None:
        return self.count / self.of if self.of else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.count, self.of) if self.of else None

    def to_dict(self) -> dict[str, Any]:
        low_high = self.interval
        return {"count": self.count, "of": self.of,
                "rate": None if self.value is None else round(self.value, 4),
                "low": None if low_high is None else round(low_high[0], 4),
                "high": None if low_high is None else round(low_high[1], 4)}


@dataclass(frozen=True)
class Split:
    """The results of the hands of one rules preset or one seat."""

    key: str
    hands: int
    won: int
    points_won: int
    points_lost: int

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "hands": self.hands, "won": Rate(self.won, self.hands).to_dict(),
                "points_won": self.points_won, "points_lost": self.points_lost}


@dataclass(frozen=True)
class BidKind:
    """The calls that differed from the advice one way, and the EV they cost."""

    kind: str
    count: int
    ev_lost: float

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count,
                "ev_lost": round(float(self.ev_lost), 4)}


@dataclass(frozen=True)
class HandPlay:
    """One analysed hand of the player: when, where from, its choices and accuracy."""

    hand: int
    played: str
    source: str
    choices: int
    sound: int
    win_chance_lost: float

    @property
    def accuracy(self) -> float | None:
        return 100.0 * self.sound / self.choices if self.choices else None

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "played": self.played, "source": self.source,
                "choices": self.choices,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "win_chance_lost": round(self.win_chance_lost, 4)}


@dataclass(frozen=True)
class Situation:
    """The player's choices in one situation (a renuncio is a choice) and the labels of
    the cards played by the rules (a renuncio is counted apart)."""

    situation: str
    choices: int
    inaccuracies: int
    mistakes: int
    blunders: int

    @property
    def labelled(self) -> Rate:
        return Rate(self.inaccuracies + self.mistakes + self.blunders, self.choices)

    def to_dict(self) -> dict[str, Any]:
        return {"situation": self.situation, "choices": self.choices,
                "mistakes": {"?!": self.inaccuracies, "?": self.mistakes, "??": self.blunders},
                "labelled": self.labelled.to_dict()}


@dataclass(frozen=True)
class Obligation:
    """The renuncios against one obligation, and the match points they gave away."""

    obligation: str
    count: int
    cost: int

    def to_dict(self) -> dict[str, Any]:
        return {"obligation": self.obligation, "count": self.count, "cost": self.cost}


@dataclass(frozen=True)
class PlayerFigures:
    name: str
    hands: int
    analysed: int
    won: int
    matches: int
    matches_won: int
    points_won: int
    points_lost: int
    by_rules: tuple[Split, ...]
    by_seat: tuple[Split, ...]
    bids: int
    bids_against_advice: int
    ev_lost_bidding: float
    bid_kinds: tuple[BidKind, ...]
    choices: int
    sound: int
    inaccuracies: int
    mistakes: int
    blunders: int
    win_chance_lost: float
    points_lost_cards: int
    situations: tuple[Situation, ...]
    cantes_not_sung: int
    renuncios: int
    renuncio_hands: int
    renuncio_cost: int
    obligations: tuple[Obligation, ...]
    trend: tuple[HandPlay, ...] = field(default=())

    @property
    def accuracy(self) -> Rate:
        return Rate(self.sound, self.choices)

    @property
    def ev_lost_per_hand(self) -> float | None:
        return self.ev_lost_bidding / self.analysed if self.analysed else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "hands": self.hands, "analysed": self.analysed,
            "renuncios": self.renuncios,
            "mistakes": {"?!": self.inaccuracies, "?": self.mistakes, "??": self.blunders},
            "bids_against_advice": self.bids_against_advice,
            "ev_lost_bidding": round(float(self.ev_lost_bidding), 4),
            "ev_lost_bidding_per_hand": None if self.ev_lost_per_hand is None
            else round(self.ev_lost_per_hand, 4),
            "won": Rate(self.won, self.hands).to_dict(),
            "matches": self.matches, "matches_won": Rate(self.matches_won, self.matches).to_dict(),
            "points_won": self.points_won, "points_lost": self.points_lost,
            "by_rules": [s.to_dict() for s in self.by_rules],
            "by_seat": [s.to_dict() for s in self.by_seat],
            "bids": self.bids,
            "against_advice": Rate(self.bids_against_advice, self.bids).to_dict(),
            "bid_kinds": [k.to_dict() for k in self.bid_kinds],
            "choices": self.choices, "accuracy": self.accuracy.to_dict(),
            "win_chance_lost": round(self.win_chance_lost, 4),
            "points_lost_cards": self.points_lost_cards,
            "situations": [s.to_dict() for s in self.situations],
            "cantes_not_sung": self.cantes_not_sung,
            "renuncio_hands": Rate(self.renuncio_hands, self.hands).to_dict(),
            "renuncio_cost": self.renuncio_cost,
            "obligations": [o.to_dict() for o in self.obligations],
            "trend": [h.to_dict() for h in self.trend],
        }


@dataclass(frozen=True)
class History:
    """The figures asked for: the database's hands, how many are analysed, per player."""

    hands: int
    analysed: int
    waiting: int
    players: tuple[PlayerFigures, ...]

    def to_dict(self) -> dict[str, Any]:
        """The ``cuatrola history --json`` object (schema 1)."""
        return {"schema": 1, "hands": self.hands, "analysed": self.analysed,
                "waiting": self.waiting, "players": [p.to_dict() for p in self.players]}


@dataclass(frozen=True)
class Filters:
    """Which hands count: of one player, of one rules preset, played on or after a day
    (``YYYY-MM-DD``)."""

    player: str | None = None
    preset: str | None = None
    since: str | None = None

    def sql(self) -> tuple[str, tuple[Any, ...]]:
        """The CTE ``sat`` (hand_id, seat, player) of the named seats that count."""
        where, args = ["s.player IS NOT NULL"], []
        if self.player is not None:
            where.append("s.player = ?")
            args.append(self.player)
        if self.preset is not None:
            where.append("h.preset = ?")
            args.append(self.preset)
        if self.since is not None:
            where.append("h.played >= ?")
            args.append(self.since)
        return ("WITH sat AS (SELECT s.hand_id, s.seat, s.player FROM seats s JOIN hands h "
                "ON h.id = s.hand_id WHERE " + " AND ".join(where) + ") ", tuple(args))


def parse_day(text: str) -> str:
    """A day as ``--since`` takes it, ``YYYY-MM-DD``; :class:`HistoryError` otherwise."""
    try:
        return datetime.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise HistoryError(f"bad date {quote(text)} for --since: expected YYYY-MM-DD, "
                           f"e.g. 2026-12-01") from None


def players_of(db: Database) -> list[str]:
    """Every name in the database, sorted."""
    return [r[0] for r in db.query("SELECT DISTINCT player FROM seats WHERE player IS NOT "
                                   "NULL ORDER BY player")]


def bid_kind(call: str, advice: str) -> str:
    """How ``call`` differs from ``advice`` (one of :data:`BID_KINDS`)."""
    if call == "paso":
        return "passed"
    if advice == "paso":
        return "bid_over_paso"
    return "bid_lower" if STRENGTH[call] < STRENGTH[advice] else "bid_higher"


def _by(rows: Sequence[tuple[Any, ...]], name: str) -> list[tuple[Any, ...]]:
    return [r[1:] for r in rows if r[0] == name]


def figures(db: Database, filters: Filters = Filters()) -> History:
    """The figures of every player (or of ``filters.player``) on the hands that count."""
    cte, args = filters.sql()

    def q(sql: str) -> list[tuple[Any, ...]]:
        return db.query(cte + sql, args)

    total = db.query("SELECT count(*), (SELECT count(*) FROM analyses WHERE error IS NULL),"
                     " (SELECT count(*) FROM hands h WHERE complete = 1 AND NOT EXISTS "
                     "(SELECT 1 FROM analyses a WHERE a.hand_id = h.id)) FROM hands")[0]
    results = q(
        f"SELECT sat.player, h.preset, sat.seat, h.winner = {_SIDE}, h.winner IS NOT NULL, "
        f"h.match_won_by IS NOT NULL, h.match_won_by = {_SIDE}, coalesce(h.game_points, 0) "
        f"FROM sat JOIN hands h ON h.id = sat.hand_id")
    analysed = q("SELECT sat.player, count(*) FROM sat JOIN analyses a ON a.hand_id = "
                 "sat.hand_id WHERE a.error IS NULL GROUP BY sat.player")
    bids = q("SELECT sat.player, b.call, b.advice, b.ev_advice - b.ev_call FROM sat JOIN "
             "bids b ON b.hand_id = sat.hand_id AND b.seat = sat.seat")
    plays = q("SELECT sat.player, p.hand_id, h.played, h.source, p.choices, p.sound, "
              "p.inaccuracies, p.mistakes, p.blunders, p.win_chance_lost, p.points_lost "
              "FROM sat JOIN seat_play p ON p.hand_id = sat.hand_id AND p.seat = sat.seat "
              "JOIN hands h ON h.id = sat.hand_id ORDER BY h.played, h.id")
    cards = q("SELECT sat.player, c.situation, c.trick, CASE WHEN c.kind = 'choice' THEN "
              "c.symbol END FROM sat JOIN cards c ON c.hand_id = sat.hand_id AND c.seat = "
              "sat.seat WHERE c.kind IN ('choice', 'renuncio')")
    cantes = q("SELECT sat.player, count(*) FROM sat JOIN cantes_missed k ON k.hand_id = "
               "sat.hand_id AND k.seat = sat.seat GROUP BY sat.player")
    renuncios = q("SELECT sat.player, r.hand_id, r.obligation, r.cost FROM sat JOIN renuncios"
                  " r ON r.hand_id = sat.hand_id AND r.seat = sat.seat")
    names = sorted({r[0] for r in results},
                   key=lambda n: (-sum(1 for r in results if r[0] == n), n))
    players = tuple(_player(n, _by(results, n), dict(analysed).get(n, 0), _by(bids, n),
                            _by(plays, n), _by(cards, n), dict(cantes).get(n, 0),
                            _by(renuncios, n)) for n in names)
    return History(total[0], total[1], total[2], players)


def _split(rows: list[tuple[Any, ...]], key: int) -> tuple[Split, ...]:
    out = []
    for k in sorted({r[key] for r in rows}):
        mine = [r for r in rows if r[key] == k]
        out.append(Split(str(k), len(mine), sum(1 for r in mine if r[2]),
                         sum(r[6] for r in mine if r[2]),
                         sum(r[6] for r in mine if r[3] and not r[2])))
    return tuple(out)


def _player(name: str, results: list[tuple[Any, ...]], analysed: int,
            bids: list[tuple[Any, ...]],
            plays: list[tuple[Any, ...]], cards: list[tuple[Any, ...]], cantes: int,
            renuncios: list[tuple[Any, ...]]) -> PlayerFigures:
    # results: preset, seat, won, decided, match over, match won, game points
    won = [r for r in results if r[2]]
    lost = [r for r in results if r[3] and not r[2]]
    against = [(call, advice, lost_ev) for call, advice, lost_ev in bids if call != advice]
    kinds = tuple(BidKind(k, len(mine), sum(e for *_, e in mine))
                  for k in BID_KINDS
                  for mine in [[b for b in against if bid_kind(b[0], b[1]) == k]] if mine)
    situations = []
    for s in SITUATIONS + (LAST_TWO,):
        mine = [c for c in cards if (c[1] >= 4 if s == LAST_TWO else c[0] == s)]
        symbols = [c[2] for c in mine]
        situations.append(Situation(s, len(mine), symbols.count("?!"), symbols.count("?"),
                                    symbols.count("??")))
    obligations = tuple(
        Obligation(o, len(mine), sum(r[2] for r in mine))
        for o in sorted({r[1] for r in renuncios})
        for mine in [[r for r in renuncios if r[1] == o]])
    return PlayerFigures(
        name, len(results), analysed, len(won),
        sum(1 for r in results if r[4]), sum(1 for r in results if r[5]),
        sum(r[6] for r in won), sum(r[6] for r in lost),
        _split(results, 0), _split(results, 1),
        len(bids), len(against), sum(e for *_, e in against), kinds,
        sum(p[3] for p in plays), sum(p[4] for p in plays), sum(p[5] for p in plays),
        sum(p[6] for p in plays), sum(p[7] for p in plays), sum(p[8] for p in plays),
        sum(p[9] for p in plays), tuple(situations), cantes,
        len(renuncios), len({r[0] for r in renuncios}), sum(r[2] for r in renuncios),
        obligations,
        tuple(HandPlay(p[0], p[1], p[2], p[3], p[4], p[8]) for p in plays))
