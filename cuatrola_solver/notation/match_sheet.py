"""The match sheet (el anotador): the hands of one match in order, with the running score.

A :class:`MatchSheet` holds the players (their seats in the first hand: seats 1 and 3
are one pair, 2 and 4 the other), then each hand's record as it is added.  The deal
passes on (docs/rules.md 7): the next hand's dealer is this hand's seat 1, so each hand
is given the players' names in its own seats and the match score before it (A-B of that
hand: the pairs swap the letters from hand to hand).  Each hand is replayed as ``check``
replays it; its result goes to the pair that won it, until a pair reaches the preset's
target (with ``win_by``) and the match is over.

The sheet is saved whole, atomically, as one JSON object (:meth:`MatchSheet.to_json`):
``{"schema": 1, "rules": ..., "players": [...], "hands": [record, ...]}``, each hand a
record's JSON form (docs/record-format.md), its score and players included.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..errors import RecordError, quote
from ..game.hand import HandState, Renuncio, Result
from ..game.match import Match, Score
from ..game.rules import RuleSet, get_rules, rules_spec
from ..game.seats import Side
from ..i18n import _
from .atomic import write_atomically
from .record import NO_PLAYERS, SCHEMA, HandRecord, player_name, record_from_obj
from .replay import replay

__all__ = ["SheetHand", "MatchSheet", "player_at", "seat_of_player"]


def player_at(seat: int, k: int) -> int:
    """The player (1 to 4, by their seat in the first hand) at ``seat`` in hand ``k``
    (0-based): everyone moves one seat up each hand, seat 1 deals next."""
    return (seat - 1 + k) % 4 + 1


def seat_of_player(player: int, k: int) -> int:
    """The seat in hand ``k`` (0-based) of the player who sat at ``player`` in the first."""
    return (player - 1 - k) % 4 + 1


@dataclass(frozen=True)
class SheetHand:
    """One hand of the sheet: its record (with the score before it and the players in
    their seats), the hand replayed, its result and the pairs' points after it (pair 0:
    seats 1 and 3 of the first hand)."""

    record: HandRecord
    hand: HandState
    result: Result
    points: tuple[int, int]

    @property
    def renuncios(self) -> tuple[Renuncio, ...]:
        return tuple(self.hand.renuncios)


class MatchSheet:
    """The hands of one match in order and the running score (see the module)."""

    def __init__(self, rules: RuleSet | str | None = None,
                 players: Sequence[str | None] | None = None) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else get_rules(rules)
        names = list(NO_PLAYERS if players is None else players)
        if len(names) != 4:
            raise RecordError(f"a match has 4 players, got {len(names)} names")
        self.players = tuple(None if n is None else player_name(n, f"player {i}")
                             for i, n in enumerate(names, 1))
        self.hands: list[SheetHand] = []
        self._match = Match(self.rules)

    # --- the running score ---------------------------------------------------------------
    @property
    def points(self) -> tuple[int, int]:
        """The pairs' match points: pair 0 (seats 1 and 3 of the first hand) first."""
        return self._match.points[0], self._match.points[1]

    @property
    def score(self) -> Score:
        """The next hand's score, A-B as that hand's sides."""
        return self._match.score()

    @property
    def winner(self) -> int | None:
        """The pair (0 or 1) that has won the match, None while it goes on."""
        return self._match.winner()

    @property
    def over(self) -> bool:
        return self.winner is not None

    def seat_players(self, k: int | None = None) -> tuple[str | None, ...]:
        """The names at seats 1 to 4 of hand ``k`` (0-based; default: the next hand)."""
        k = len(self.hands) if k is None else k
        return tuple(self.players[player_at(s, k) - 1] for s in (1, 2, 3, 4))

    def pair_name(self, pair: int) -> str:
        """``pair 1 (Ana and Eva)``: the pair of the first hand's seats 1 and 3 (pair 0) or
        2 and 4, with its players' names when known."""
        a, b = self.players[pair], self.players[pair + 2]
        label = _("pair {n}").format(n=pair + 1)
        if a or b:
            return _("{pair} ({a} and {b})").format(pair=label, a=a or "?", b=b or "?")
        return label

    def pair_of_side(self, side: Side, k: int) -> int:
        """The pair (0 or 1) that plays as ``side`` in hand ``k`` (0-based)."""
        return (k + int(side)) % 2

    # --- adding hands --------------------------------------------------------------------
    def add(self, rec: HandRecord) -> SheetHand:
        """Add the next hand: its record is given the match's rules (a record naming other
        rules is refused), the score before it and the players in their seats; it must be
        decided (five tricks, an early end or a renuncio).  Raises RecordError saying why
        a hand cannot be added, and then changes nothing."""
        k = len(self.hands)
        where = _("hand {n} of the match").format(n=k + 1)
        if self.over:
            raise RecordError(_("{where}: the match is over ({pair} won it {a}-{b})").format(
                where=where, pair=self.pair_name(self.winner or 0), a=self.points[0],
                b=self.points[1]))
        if rec.rules_given and rec.rules != self.rules:
            raise RecordError(_("{where}: the record's rules are not the match's").format(
                where=where))
        if rec.score is not None and rec.score != self.score:
            raise RecordError(_("{where}: the record's score is {got}, but the match stands "
                                "at {score} (A-B of this hand)").format(
                                    where=where, got=quote(str(rec.score)),
                                    score=str(self.score)))
        names = self.seat_players(k)
        if any(rec.players) and any(self.players) and rec.players != names:
            raise RecordError(_("{where}: the record's players are not the match's in their "
                                "seats this hand").format(where=where))
        rec = dataclasses.replace(rec, rules=self.rules, score=self.score,
                                  players=names if any(names) else rec.players,
                                  rules_given=True)
        hand = replay(rec)
        result = hand.result()
        if result is None:
            raise RecordError(_("{where}: the hand is not decided yet: a match sheet takes "
                                "finished hands").format(where=where))
        self._match.record_hand(result.winner, result.game_points)
        added = SheetHand(rec, hand, result, self.points)
        self.hands.append(added)
        return added

    # --- saving --------------------------------------------------------------------------
    def to_json(self) -> str:
        obj: dict[str, Any] = {"schema": SCHEMA, "rules": rules_spec(self.rules),
                               "players": list(self.players),
                               "hands": [h.record.to_json_obj() for h in self.hands]}
        return json.dumps(obj, ensure_ascii=False, indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the whole sheet to ``path`` atomically."""
        write_atomically(path, self.to_json())

    @classmethod
    def from_json(cls, text: str, where: str = "match sheet") -> "MatchSheet":
        """Read a sheet back, replaying every hand (errors name the hand)."""
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise RecordError(f"{where}: not a match sheet (JSON): {e}") from None
        if (not isinstance(obj, dict) or obj.get("schema") != SCHEMA
                or not isinstance(obj.get("hands"), list)):
            raise RecordError(f"{where}: expected a match sheet: {{\"schema\": 1, "
                              f"\"rules\": ..., \"players\": [...], \"hands\": [...]}}")
        players = obj.get("players")
        if players is not None and (not isinstance(players, list) or not all(
                p is None or isinstance(p, str) for p in players)):
            raise RecordError(f"{where}, field 'players': expected 4 names or nulls")
        try:
            sheet = cls(get_rules(obj.get("rules")), players)
        except RecordError as e:
            raise RecordError(f"{where}: {e}") from None
        for i, h in enumerate(obj["hands"]):
            sheet.add(record_from_obj(h, f"{where}, hands[{i}]"))
        return sheet

    @classmethod
    def load(cls, path: str | Path) -> "MatchSheet":
        p = Path(path)
        return cls.from_json(p.read_text(encoding="utf-8"), str(p))
