"""Hand records: the JSON form (schema 1, DESIGN.md) and the text form.

A :class:`HandRecord` is what a record says, checked for form only (cards, seats,
bids that can be read); whether it could have happened is checked by replaying it
with :meth:`cuatrola_solver.hand.Hand.from_record`.  Both forms round-trip:
``read_json(write_json(r)) == r`` and ``read_text(write_text(r)) == r``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .auction import parse_call
from .cards import format_card, format_cards, parse_card, parse_cards, parse_suit
from .errors import CuatrolaError, RecordError
from .match import Score
from .rules import RuleSet, get_rules, rules_spec

SCHEMA = 1


@dataclass(frozen=True)
class Cante:
    """A cante: ``seat`` sang ``suit`` after trick ``after_trick`` (1-based)."""

    after_trick: int
    seat: int
    suit: int

    def to_dict(self) -> dict:
        return {"after_trick": self.after_trick, "seat": self.seat, "suit": "oceb"[self.suit]}


@dataclass
class HandRecord:
    """One hand as recorded: the deal, the auction, the tricks, the cantes.

    ``hands[i]`` lists seat ``i + 1``'s five cards in the order given; ``tricks``
    lists each trick's cards in playing order from its leader; ``annotations`` maps
    (trick, card position) pairs, both 1-based, to a symbol (``?!``, ``?``, ``??``)
    and/or a comment, written by ``analyze --annotate``.
    """

    rules: RuleSet
    muestra: int
    hands: list[list[int]]
    auction: list[str] | None = None
    tricks: list[list[int]] = field(default_factory=list)
    cantes: list[Any] = field(default_factory=list)
    score: Score | None = None
    annotations: dict[tuple[int, int], dict[str, str]] = field(default_factory=dict)
    comment: str = ""

    def to_json_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "rules": rules_spec(self.rules),
            "muestra": format_card(self.muestra),
            "hands": [format_cards(h) for h in self.hands],
        }
        if self.auction is not None:
            obj["auction"] = list(self.auction)
        obj["tricks"] = [[format_card(c) for c in t] for t in self.tricks]
        if self.cantes:
            obj["cantes"] = [k.to_dict() for k in self.cantes]
        if self.score is not None:
            obj["score"] = self.score.to_dict()
        return obj


def _where(path: str, key: str) -> str:
    return f"{path}{key}" if path else key


def record_from_obj(obj: Any, where: str = "record") -> HandRecord:
    """Read a record object (parsed JSON); errors name the field."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected a JSON object with muestra and hands")
    known = {"rules", "muestra", "hands", "auction", "tricks", "cantes", "score", "schema"}
    for key in obj:
        if key not in known:
            raise RecordError(f"{where}: unknown field {key!r} (expected {', '.join(sorted(known))})")
    try:
        rules = get_rules(obj.get("rules"))
    except CuatrolaError as e:
        raise RecordError(f"{where}, field 'rules': {e}") from None
    if "muestra" not in obj or "hands" not in obj:
        raise RecordError(f"{where}: the fields 'muestra' and 'hands' are required")
    muestra = _card(obj["muestra"], f"{where}, field 'muestra'")
    hands_obj = obj["hands"]
    if not isinstance(hands_obj, list) or len(hands_obj) != 4:
        raise RecordError(f"{where}, field 'hands': expected a list of 4 hands (seats 1 to 4)")
    hands = [_cards(h, f"{where}, hands[{i}] (seat {i + 1})") for i, h in enumerate(hands_obj)]
    auction = None
    if obj.get("auction") is not None:
        if not isinstance(obj["auction"], list):
            raise RecordError(f"{where}, field 'auction': expected a list of calls")
        auction = []
        for i, call in enumerate(obj["auction"]):
            if not isinstance(call, str):
                raise RecordError(f"{where}, auction[{i}]: expected a call such as 'paso', got {call!r}")
            try:
                auction.append(parse_call(call, f"in {where}, auction[{i}]"))
            except CuatrolaError as e:
                raise RecordError(str(e)) from None
    tricks_obj = obj.get("tricks") or []
    if not isinstance(tricks_obj, list):
        raise RecordError(f"{where}, field 'tricks': expected a list of tricks")
    tricks = []
    for t, trick in enumerate(tricks_obj, 1):
        if not isinstance(trick, list):
            raise RecordError(f"{where}, tricks[{t - 1}] (trick {t}): expected a list of cards")
        tricks.append([_card(c, f"{where}, trick {t}, card {j}") for j, c in enumerate(trick, 1)])
    cantes = []
    for i, k in enumerate(obj.get("cantes") or []):
        place = f"{where}, cantes[{i}]"
        if not isinstance(k, dict) or set(k) != {"after_trick", "seat", "suit"}:
            raise RecordError(f"{place}: expected {{\"after_trick\": T, \"seat\": S, \"suit\": \"o\"}}")
        if not isinstance(k["after_trick"], int) or not isinstance(k["seat"], int) or not 1 <= k["seat"] <= 4:
            raise RecordError(f"{place}: after_trick and seat must be numbers, seat 1 to 4")
        try:
            suit = parse_suit(str(k["suit"]), f"in {place}")
        except CuatrolaError as e:
            raise RecordError(str(e)) from None
        cantes.append(Cante(k["after_trick"], k["seat"], int(suit)))
    score = None
    if obj.get("score") is not None:
        s = obj["score"]
        if (not isinstance(s, dict) or set(s) != {"A", "B"}
                or not all(isinstance(v, int) and v >= 0 for v in s.values())):
            raise RecordError(f"{where}, field 'score': expected {{\"A\": n, \"B\": m}}")
        score = Score(s["A"], s["B"])
    return HandRecord(rules, muestra, hands, auction, tricks, cantes, score)


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a card such as '3o', got {value!r}")
    try:
        return parse_card(value, f"({where})")
    except CuatrolaError as e:
        raise RecordError(str(e)) from None


def _cards(value: Any, where: str) -> list[int]:
    if isinstance(value, list):
        value = " ".join(map(str, value))
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected cards such as 'Ao 3c Rb Ce Sb', got {value!r}")
    try:
        return parse_cards(value, where)
    except CuatrolaError as e:
        raise RecordError(str(e)) from None


def read_json(text: str, where: str = "record") -> HandRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    return record_from_obj(obj, where)


def write_json(rec: HandRecord, indent: int | None = None) -> str:
    return json.dumps(rec.to_json_obj(), indent=indent, ensure_ascii=False)
