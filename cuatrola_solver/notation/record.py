"""Hand records: the JSON form (schema 1) and the text form (docs/record-format.md).

A :class:`HandRecord` is what a record says, checked for form only (cards, seats,
bids that can be read); whether it could have happened is checked by replaying it
with :func:`cuatrola_solver.notation.replay.replay`.  Both forms round-trip:
``read_json(write_json(r)) == r`` and ``read_text(write_text(r)) == r``, and
:func:`read_record` / :func:`write_record` pick the form.

The text form (full grammar and an example in ``docs/record-format.md``) is
tag pairs, then the play section, one trick a line::

    [Rules "narro,tie_break=mano"]      ; a preset, or preset,name=value,...
    [Score "3-5"]                       ; optional: the match score, A-B
    [Muestra "Rc"]
    [Seat1 "3o Sc Cc 3c Sb"]            ; Seat1 .. Seat4: the deal
    ...
    [Auction "paso solo paso paso"]     ; optional: absent means all passed

    {The record's comment: brace comments before the first trick.}
    1. Sc Co Ac Rc
    cante 2 oros                        ; seat 2 sings oros after trick 1
    2. Se Ce 3c?! {too greedy} Re       ; ?! ... and {comment} annotate one card
    cante 4 bastos after 3              ; a cante out of its place says its trick

Tags are case-insensitive, each at most once, all before the play section;
Muestra and Seat1..Seat4 are required.  ``;`` comments run to the end of the
line; ``{comments}`` do not nest (``\\{``, ``\\}`` and ``\\\\`` escape inside them).
Card annotations (``!! ! !? ?! ? ??`` and a brace comment right after a card) go
to ``HandRecord.annotations[(trick, position)]``; other comments are dropped.
Annotations and the comment exist only in the text form: JSON has no place for
them.  Every error is a :class:`~cuatrola_solver.errors.RecordError` that quotes
the bad token and says where it is (line and column for the text form, the field
for JSON).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..game.auction import parse_call
from ..game.hand import Cante
from ..game.cards import (Card, Suit, format_card, format_cards, parse_card, parse_cards,
                          parse_suit, split_tokens)
from ..errors import CuatrolaError, RecordError, quote
from ..game.match import Score, parse_score
from ..game.rules import DEFAULT_PRESET, RuleSet, get_rules, rules_spec

SCHEMA = 1
#: the longest player's name a record keeps (Player tags, JSON ``players``)
MAX_PLAYER_NAME = 40
#: a record's ``players`` when it names none
NO_PLAYERS: tuple[str | None, ...] = (None, None, None, None)
#: fields a JSON record may carry beyond the hand itself, which readers skip: ``lab``,
#: what the self-play lab adds (the deal's index, the line-ups, each bid decision's
#: odds: :mod:`cuatrola_solver.lab.selfplay`).  Any other unknown field is refused, so that a
#: misspelt field ("auction" as "auctoin") is not silently dropped.
EXTENSIONS = ("lab",)
#: a part of a record, a key of ``HandRecord.places``: ``("muestra",)``, ``("hand", 2)``,
#: ``("card", t, j)``, ...
Place = tuple[str | int, ...]


@dataclass
class HandRecord:
    """One hand as recorded: the deal, the auction, the tricks, the cantes.

    ``hands[i]`` lists seat ``i + 1``'s five cards in the order given, or is None when
    the recorder did not see them (a record kept from one seat's side); ``tricks``
    lists each trick's cards in playing order from its leader; ``annotations`` maps
    (trick, card position) pairs, both 1-based, to a symbol (``?!``, ``?``, ``??``)
    and/or a comment, written by ``analyze --annotate``.
    """

    rules: RuleSet
    muestra: Card
    hands: list[list[Card] | None]
    auction: list[str] | None = None
    tricks: list[list[Card]] = field(default_factory=list)
    cantes: list[Cante] = field(default_factory=list)
    score: Score | None = None
    annotations: dict[tuple[int, int], dict[str, str]] = field(default_factory=dict)
    comment: str = ""
    #: the players' names at seats 1 to 4 (None: not given); tags Player1..Player4, JSON
    #: ``players``, both written only when a name is given
    players: tuple[str | None, ...] = (None, None, None, None)
    #: False when the record names no rules (no ``Rules`` tag / ``rules`` field):
    #: ``rules`` is then the default preset, and a command's ``--rules`` may replace it
    rules_given: bool = field(default=True, compare=False)
    #: where the record was read from ("stdin", a file name), and where each of its parts
    #: is in it, for the messages of a replay (``notation.replay``): keys ``("muestra",)``,
    #: ``("hand", seat)``, ``("auction",)``, ``("call", i)``, ``("trick", t)``,
    #: ``("card", t, j)``, ``("cante", i)`` (i: index in ``cantes``); values "line 9,
    #: column 4" (text form) or a field path "tricks[2][0]" (JSON).  Not part of equality.
    source: str = field(default="", compare=False, repr=False)
    places: dict[Place, str] = field(default_factory=dict, compare=False, repr=False)
    #: how many decisions the person at ``cuatrola serve``'s table took back in this
    #: hand (practice); 0, and left out of both forms, for a hand played straight
    takebacks: int = 0

    def at(self, *key: Any) -> str:
        """``"stdin, line 9, column 4: "``: where part ``key`` is, to begin a message
        (just the source for a part it does not know; empty for a record built in code)."""
        parts = [p for p in (self.source, self.places.get(key)) if p]
        return ", ".join(parts) + ": " if parts else ""

    def to_json_obj(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "rules": rules_spec(self.rules),
            "muestra": format_card(self.muestra),
            "hands": [None if h is None else format_cards(h) for h in self.hands],
        }
        if self.auction is not None:
            obj["auction"] = list(self.auction)
        obj["tricks"] = [[format_card(c) for c in t] for t in self.tricks]
        if self.cantes:
            obj["cantes"] = [k.to_dict() for k in self.cantes]
        if self.score is not None:
            obj["score"] = self.score.to_dict()
        if any(self.players):
            obj["players"] = list(self.players)
        if self.takebacks:
            obj["takebacks"] = self.takebacks
        return obj

    @property
    def unknown_seats(self) -> list[int]:
        """The seats whose hands the record does not give."""
        return [s for s, h in enumerate(self.hands, 1) if h is None]

    @property
    def complete(self) -> bool:
        """True when every hand is known (a full record)."""
        return not self.unknown_seats


def _where(path: str, key: str) -> str:
    return f"{path}{key}" if path else key


def record_from_obj(obj: Any, where: str = "record") -> HandRecord:
    """Read a record object (parsed JSON); errors name the field."""
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected a JSON object with muestra and hands")
    known = {"rules", "muestra", "hands", "auction", "tricks", "cantes", "score", "schema",
             "players", "takebacks"}
    for key in obj:
        if key not in known and key not in EXTENSIONS:
            raise RecordError(f"{where}: unknown field {quote(key)} (expected "
                              f"{', '.join(sorted(known))}, or the extension "
                              f"{', '.join(EXTENSIONS)})")
    schema = obj.get("schema", SCHEMA)
    if not _is_int(schema) or schema != SCHEMA:
        raise RecordError(f"{where}, field 'schema': this reader knows schema {SCHEMA}, got {quote(schema)}")
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
    hands = [None if h is None else _cards(h, f"{where}, hands[{i}] (seat {i + 1})")
             for i, h in enumerate(hands_obj)]
    auction = None
    if obj.get("auction") is not None:
        if not isinstance(obj["auction"], list):
            raise RecordError(f"{where}, field 'auction': expected a list of calls")
        auction = []
        for i, call in enumerate(obj["auction"]):
            if not isinstance(call, str):
                raise RecordError(f"{where}, auction[{i}]: expected a call such as 'paso', got {quote(call)}")
            try:
                auction.append(parse_call(call, f"in {where}, auction[{i}]"))
            except CuatrolaError as e:
                raise RecordError(str(e)) from None
    tricks_obj = obj.get("tricks")
    if tricks_obj is None:
        tricks_obj = []
    if not isinstance(tricks_obj, list):
        raise RecordError(f"{where}, field 'tricks': expected a list of tricks")
    tricks = []
    for t, trick in enumerate(tricks_obj, 1):
        if not isinstance(trick, list):
            raise RecordError(f"{where}, tricks[{t - 1}] (trick {t}): expected a list of cards")
        tricks.append([_card(c, f"{where}, trick {t}, card {j}") for j, c in enumerate(trick, 1)])
    cantes_obj = obj.get("cantes")
    if cantes_obj is None:
        cantes_obj = []
    if not isinstance(cantes_obj, list):
        raise RecordError(f"{where}, field 'cantes': expected a list of cantes")
    cantes = []
    for i, k in enumerate(cantes_obj):
        place = f"{where}, cantes[{i}]"
        if not isinstance(k, dict) or set(k) != {"after_trick", "seat", "suit"}:
            raise RecordError(f"{place}: expected {{\"after_trick\": T, \"seat\": S, \"suit\": \"o\"}}")
        if (not _is_int(k["after_trick"]) or k["after_trick"] < 0 or not _is_int(k["seat"])
                or not 1 <= k["seat"] <= 4):
            raise RecordError(f"{place}: after_trick and seat must be numbers, after_trick "
                              f"0 or more, seat 1 to 4")
        try:
            suit = parse_suit(str(k["suit"]), f"in {place}")
        except CuatrolaError as e:
            raise RecordError(str(e)) from None
        cantes.append(Cante(k["after_trick"], k["seat"], int(suit)))
    score = None
    if obj.get("score") is not None:
        s = obj["score"]
        if (not isinstance(s, dict) or set(s) != {"A", "B"}
                or not all(_is_int(v) and v >= 0 for v in s.values())):
            raise RecordError(f"{where}, field 'score': expected {{\"A\": n, \"B\": m}}")
        score = Score(s["A"], s["B"])
    players = _players_obj(obj.get("players"), where)
    takebacks = obj.get("takebacks", 0)
    if not _is_int(takebacks) or takebacks < 0:
        raise RecordError(f"{where}, field 'takebacks': expected a whole number, 0 or more, "
                          f"got {quote(takebacks)}")
    return HandRecord(rules, muestra, hands, auction, tricks, cantes, score, players=players,
                      source=where,
                      places=_json_places(len(auction or ()), tricks, len(cantes)),
                      rules_given=obj.get("rules") is not None, takebacks=takebacks)


def _players_obj(value: Any, where: str) -> tuple[str | None, ...]:
    """The ``players`` field: four names or nulls (absent: no names)."""
    if value is None:
        return NO_PLAYERS
    if not isinstance(value, list) or len(value) != 4:
        raise RecordError(f"{where}, field 'players': expected a list of 4 names or nulls "
                          f"(seats 1 to 4)")
    names = []
    for i, name in enumerate(value):
        if name is not None and not isinstance(name, str):
            raise RecordError(f"{where}, players[{i}] (seat {i + 1}): expected a name or "
                              f"null, got {quote(name)}")
        names.append(None if name is None else player_name(name, f"{where}, players[{i}]"))
    return tuple(names)


def player_name(text: str, where: str) -> str | None:
    """A player's name as a record keeps it: stripped, one line of at most
    :data:`MAX_PLAYER_NAME` characters; an empty name is none (None)."""
    name = text.strip()
    if not name:
        return None
    if len(name) > MAX_PLAYER_NAME or not name.isprintable():
        raise RecordError(f"{where}: bad player's name {quote(name[:MAX_PLAYER_NAME])}: "
                          f"expected printable text on one line, at most {MAX_PLAYER_NAME} characters")
    return name


def _json_places(calls: int, tricks: list[list[int]], cantes: int) -> dict[Place, str]:
    """The field path of each part of a JSON record (see ``HandRecord.places``)."""
    places: dict[Place, str] = {("muestra",): "field 'muestra'", ("auction",): "field 'auction'"}
    places.update({("hand", s): f"hands[{s - 1}] (seat {s})" for s in (1, 2, 3, 4)})
    places.update({("call", i): f"auction[{i - 1}]" for i in range(1, calls + 1)})
    for t, trick in enumerate(tricks, 1):
        places[("trick", t)] = f"tricks[{t - 1}]"
        places.update({("card", t, j): f"tricks[{t - 1}][{j - 1}]"
                       for j in range(1, len(trick) + 1)})
    places.update({("cante", i): f"cantes[{i}]" for i in range(cantes)})
    return places


def _is_int(value: Any) -> bool:
    """A JSON number without fraction; ``true`` and ``false`` are not numbers."""
    return isinstance(value, int) and not isinstance(value, bool)


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a card such as '3o', got {quote(value)}")
    try:
        return parse_card(value, f"({where})")
    except CuatrolaError as e:
        raise RecordError(str(e)) from None


def _cards(value: Any, where: str) -> list[int]:
    if isinstance(value, list):
        value = " ".join(map(str, value))
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected cards such as 'Ao 3c Rb Ce Sb', got {quote(value)}")
    try:
        return parse_cards(value, where)
    except CuatrolaError as e:
        raise RecordError(str(e)) from None


def read_json(text: str, where: str = "record") -> HandRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not valid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # a number too long for int(), nesting too deep
        raise RecordError(f"{where}: cannot read this JSON: {e}") from None
    return record_from_obj(obj, where)


def write_json(rec: HandRecord, indent: int | None = None) -> str:
    return json.dumps(rec.to_json_obj(), indent=indent, ensure_ascii=False)


# --- the text form ------------------------------------------------------------

#: the tags of the text form, in the order write_text writes them
PLAYER_TAGS = ("Player1", "Player2", "Player3", "Player4")
TAGS = ("Rules", "Score", "Muestra", "Seat1", "Seat2", "Seat3", "Seat4", "Auction") \
    + PLAYER_TAGS + ("Takebacks",)
REQUIRED_TAGS = ("Muestra",)
SEAT_TAGS = ("Seat1", "Seat2", "Seat3", "Seat4")
#: the value of a Seat tag whose hand the recorder did not see
UNKNOWN = "?"
#: annotation symbols a card may carry (lichess / PGN style)
SYMBOLS = ("!!", "!", "!?", "?!", "?", "??")
FORMS = ("text", "json")

_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_WORD = re.compile(r'[^\s,{};\[\]"]+')
_TRICK_NUMBER = re.compile(r"([0-9]+)\.(.*)", re.S)
_CARD_AND_SYMBOL = re.compile(r"([^?!]*)([?!]*)")
_MAX_DIGITS = 9  # trick numbers longer than this are out of order anyway


def format_rules(spec: RuleSet | str | Mapping[str, Any]) -> str:
    """The one-line form of a rule set, as ``get_rules`` reads it back.

    ``"narro"`` for a preset; ``"narro,tie_break=mano,cantes_in=paso solo"`` for the
    object form ``{"preset": "narro", "tie_break": "mano", "cantes_in": ["paso", "solo"]}``
    (:func:`~cuatrola_solver.game.rules.rules_spec`): booleans as ``true``/``false``, lists
    with spaces.  ``get_rules(format_rules(r)) == r``.
    """
    if isinstance(spec, RuleSet):
        spec = rules_spec(spec)
    if isinstance(spec, str):
        return spec
    spec = dict(spec)
    parts = [str(spec.pop("preset", DEFAULT_PRESET))]
    for key, value in spec.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            text = " ".join(str(v) for v in value)
        else:
            text = str(value)
        if any(ch in text for ch in ',="\\\n'):
            raise RecordError(f"rule parameter {key}={quote(value)} cannot be written in the text form")
        parts.append(f"{key}={text}")
    return ",".join(parts)


def _escape_comment(text: str) -> str:
    return text.strip().replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def _escape_tag(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _unescape_tag(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _annotated(rec: HandRecord, t: int, j: int, c: int) -> str:
    """Card ``j`` of trick ``t`` with its annotation symbol and comment, if any."""
    word = format_card(c)
    note = rec.annotations.get((t, j))
    if note:
        symbol = note.get("symbol")
        if symbol:
            word += symbol
        if "comment" in note:
            word += " {" + _escape_comment(note["comment"]) + "}"
    return word


def _check_annotations(rec: HandRecord) -> None:
    for key, note in rec.annotations.items():
        if (not isinstance(key, tuple) or len(key) != 2 or not all(_is_int(x) for x in key)
                or not 1 <= key[0] <= len(rec.tricks) or not 1 <= key[1] <= len(rec.tricks[key[0] - 1])):
            raise RecordError(f"annotation {quote(key)}: no such card in the record "
                              f"(keys are (trick, card position), both from 1)")
        if not isinstance(note, dict) or not set(note) <= {"symbol", "comment"}:
            raise RecordError(f"annotation {quote(key)}: expected a dict with 'symbol' and/or 'comment'")
        symbol = note.get("symbol")
        if symbol is not None and symbol not in SYMBOLS:
            raise RecordError(f"annotation {quote(key)}: bad symbol {quote(symbol)}: expected one of "
                              + " ".join(SYMBOLS))
        if not isinstance(note.get("comment", ""), str):
            raise RecordError(f"annotation {quote(key)}: the comment must be text")


def _trick_line(rec: HandRecord, t: int) -> str:
    cards = [_annotated(rec, t, j, c) for j, c in enumerate(rec.tricks[t - 1], 1)]
    return " ".join([f"{t}."] + cards)


def _cante_line(k: Cante, explicit: bool) -> str:
    line = f"cante {k.seat} {Suit(k.suit).spanish}"
    return f"{line} after {k.after_trick}" if explicit else line


def write_text(rec: HandRecord) -> str:
    """The text form of a record (see docs/record-format.md); ends with a newline."""
    _check_annotations(rec)
    lines = [f'[Rules "{_escape_tag(format_rules(rec.rules))}"]']
    if rec.score is not None:
        lines.append(f'[Score "{rec.score.A}-{rec.score.B}"]')
    lines.append(f'[Muestra "{format_card(rec.muestra)}"]')
    for seat, hand in enumerate(rec.hands, 1):
        lines.append(f'[Seat{seat} "{UNKNOWN if hand is None else format_cards(hand)}"]')
    if rec.auction is not None:
        lines.append(f'[Auction "{" ".join(rec.auction)}"]')
    for tag, name in zip(PLAYER_TAGS, rec.players):
        if name is not None:
            lines.append(f'[{tag} "{_escape_tag(player_name(name, f"[{tag}]") or "")}"]')
    if rec.takebacks:
        lines.append(f'[Takebacks "{rec.takebacks}"]')
    lines.append("")
    if rec.comment.strip():
        lines.append("{" + _escape_comment(rec.comment) + "}")
    # Each cante goes after the line of the trick it follows, in the record's order;
    # one that cannot (out of order, or after a trick the record does not hold)
    # says which trick it follows.
    written = 0
    for k in rec.cantes:
        if 1 <= k.after_trick <= len(rec.tricks) and k.after_trick >= written:
            while written < k.after_trick:
                written += 1
                lines.append(_trick_line(rec, written))
            lines.append(_cante_line(k, explicit=False))
        else:
            lines.append(_cante_line(k, explicit=True))
    while written < len(rec.tricks):
        written += 1
        lines.append(_trick_line(rec, written))
    return "\n".join(lines) + "\n"


def _join_comments(first: str, second: str) -> str:
    """Several comments in one place make one, a line each (empty ones add nothing)."""
    return f"{first}\n{second}" if first and second else first or second


class _TextReader:
    """Reads the text form in one pass: tags, then the play section."""

    def __init__(self, text: str, where: str) -> None:
        self.text = text
        self.where = where
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.tags: dict[str, tuple[int, Any]] = {}      # name -> (offset, value)
        self.playing = False                             # the play section has begun
        self.tricks: list[list[int]] = []
        self.in_trick = False                            # cards may follow
        self.cantes: list[Cante] = []
        self.cante: list[tuple[int, str]] | None = None  # words of a cante being read
        self.cante_start = 0
        self.last_card: tuple[int, int] | None = None
        self.annotations: dict[tuple[int, int], dict[str, str]] = {}
        self.comment = ""
        self.places: dict[Place, str] = {}               # see HandRecord.places

    # --- errors -----------------------------------------------------------------
    def place(self, offset: int) -> str:
        line = bisect.bisect_right(self.line_starts, offset)
        column = offset - self.line_starts[line - 1] + 1
        return f"line {line}, column {column}"

    def error(self, offset: int, message: str) -> RecordError:
        return RecordError(f"{self.where}, {self.place(offset)}: {message}")

    # --- scanning ---------------------------------------------------------------
    def read(self) -> HandRecord:
        self.scan()
        return self.finish(len(self.text))

    def scan(self) -> None:
        text, i, n = self.text, 0, len(self.text)
        while i < n:
            ch = text[i]
            if ch.isspace() or ch == ",":
                i += 1
            elif ch == ";":
                end = text.find("\n", i)
                i = n if end < 0 else end
            elif ch == "{":
                comment, i_next = self.read_comment(i)
                self.on_comment(comment)
                i = i_next
            elif ch == "}":
                raise self.error(i, "unbalanced braces: '}' closes no comment")
            elif ch == "[":
                m = _TAG.match(text, i)
                if m is None:
                    raise self.error(i, f"bad tag {quote(self.snippet(i))}: expected [Name \"value\"] "
                                        f"on one line, e.g. [Muestra \"3o\"]")
                self.on_tag(m.group(1), _unescape_tag(m.group(2)), i)
                i = m.end()
            else:
                m = _WORD.match(text, i)
                if m is None:
                    raise self.error(i, f"unexpected {quote(ch)}: expected a tag, a trick number "
                                        f"such as '1.', a card, 'cante' or a comment")
                self.on_word(m.group(), i)
                i = m.end()
        self.end_cante(n)

    def snippet(self, i: int) -> str:
        end = self.text.find("\n", i)
        return self.text[i:end if end >= 0 else len(self.text)][:40]

    def read_comment(self, start: int) -> tuple[str, int]:
        text, i, out = self.text, start + 1, []
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text) and text[i + 1] in "\\{}":
                out.append(text[i + 1])
                i += 2
                continue
            if ch == "}":
                return "".join(out).strip(), i + 1
            if ch == "{":
                raise self.error(i, f"unbalanced braces: '{{' inside the comment opened at "
                                    f"{self.place(start)} (comments do not nest; write \\{{ "
                                    f"for a brace in a comment)")
            out.append(ch)
            i += 1
        raise self.error(start, "unbalanced braces: this '{' opens a comment that is never closed")

    # --- what was read ----------------------------------------------------------
    def on_comment(self, comment: str) -> None:
        if self.last_card is not None:
            note = self.annotations.setdefault(self.last_card, {})
            note["comment"] = _join_comments(note.get("comment", ""), comment)
        elif not self.playing:
            self.comment = _join_comments(self.comment, comment)
        # elsewhere (after a trick number or a cante) a comment is only for the reader

    def on_tag(self, name: str, value: str, at: int) -> None:
        canonical = {t.lower(): t for t in TAGS}.get(name.lower())
        if canonical is None:
            raise self.error(at, f"unknown tag [{name}]: expected one of {', '.join(TAGS)}")
        if self.playing:
            raise self.error(at, f"tag [{name}] inside the play section: the tags come "
                                 f"before the first trick")
        if canonical in self.tags:
            raise self.error(at, f"duplicate tag [{name}] (first at "
                                 f"{self.place(self.tags[canonical][0])})")
        where = f"in tag [{canonical}]"
        try:
            if canonical == "Rules":
                parsed: Any = get_rules(value)
            elif canonical == "Muestra":
                parsed = parse_card(value, f"({where})")
            elif canonical == "Score":
                parsed = parse_score(value, f"tag [{canonical}]")
            elif canonical == "Auction":
                parsed = [parse_call(call, f"(call {i} {where})")
                          for i, call in enumerate(split_tokens(value), 1)]
            elif canonical in PLAYER_TAGS:
                parsed = player_name(value, f"tag [{canonical}]")
            elif canonical == "Takebacks":
                if not re.fullmatch(r"[0-9]{1,6}", value.strip()):
                    raise RecordError(f"bad takebacks {quote(value)}: expected a whole "
                                      f"number, 0 or more")
                parsed = int(value)
            elif value.strip() == UNKNOWN:
                parsed = None
            else:
                parsed = parse_cards(value, f"tag [{canonical}]")
        except CuatrolaError as e:
            raise self.error(at, str(e)) from None
        self.tags[canonical] = (at, parsed)
        place = self.place(at)
        if canonical in PLAYER_TAGS:
            return
        if canonical.startswith("Seat"):
            self.places[("hand", int(canonical[4]))] = place
        else:
            self.places[(canonical.lower(),)] = place
        if canonical == "Auction":
            self.places.update({("call", i): place for i in range(1, len(parsed) + 1)})

    def on_word(self, word: str, at: int) -> None:
        if self.cante is not None and self.on_cante_word(word, at):
            return
        m = _TRICK_NUMBER.fullmatch(word)
        if m:
            self.playing = True
            digits, expected = m.group(1), len(self.tricks) + 1
            number = int(digits) if len(digits) <= _MAX_DIGITS else -1
            if number != expected:
                raise self.error(at, f"trick number {quote(word)} out of order: expected {expected}.")
            self.tricks.append([])
            self.places[("trick", expected)] = self.place(at)
            self.in_trick = True
            self.last_card = None
            if m.group(2):
                self.on_word(m.group(2), at + len(m.group(1)) + 1)
            return
        if word.lower() == "cante":
            self.playing = True
            self.in_trick = False
            self.last_card = None
            self.cante = []
            self.cante_start = at
            return
        m = _CARD_AND_SYMBOL.fullmatch(word)
        if m is None:
            raise self.error(at, f"unexpected {quote(word)}: expected a trick number such as '1.', "
                                 f"a card, 'cante' or a comment")
        card_text, symbol = m.groups()
        if card_text:
            if not self.in_trick:
                raise self.error(at, f"unexpected {quote(word)}: cards come after a trick number "
                                     f"such as '{len(self.tricks) + 1}.'"
                                     + (" (a cante ends the trick line)" if self.cantes else ""))
            t, j = len(self.tricks), len(self.tricks[-1]) + 1
            try:
                c = parse_card(card_text, f"(card {j} of trick {t})")
            except CuatrolaError as e:
                raise self.error(at, str(e)) from None
            self.tricks[-1].append(c)
            self.places[("card", t, j)] = self.place(at)
            self.last_card = (t, j)
        if symbol:
            self.on_symbol(symbol, word, at)

    def on_symbol(self, symbol: str, word: str, at: int) -> None:
        if symbol not in SYMBOLS:
            raise self.error(at, f"bad annotation {quote(symbol)} in {quote(word)}: expected one of "
                                 + " ".join(SYMBOLS))
        if self.last_card is None:
            raise self.error(at, f"annotation {quote(symbol)} follows no card")
        note = self.annotations.setdefault(self.last_card, {})
        if "symbol" in note:
            t, j = self.last_card
            raise self.error(at, f"second annotation {quote(symbol)} for card {j} of trick {t} "
                                 f"(it has {quote(note['symbol'])})")
        note["symbol"] = symbol

    def on_cante_word(self, word: str, at: int) -> bool:
        """Take ``word`` into the cante being read; False once the cante is complete."""
        words = self.cante
        assert words is not None, "called only while a cante is being read"
        expect = len(words)
        if word.lower() == "cante" or _TRICK_NUMBER.fullmatch(word):
            self.end_cante(at)  # complains if the cante is unfinished
            return False
        if expect == 0:
            if word not in ("1", "2", "3", "4"):
                raise self.error(at, f"bad seat {quote(word)} in cante: expected 'cante SEAT SUIT', "
                                     f"a seat 1 to 4, e.g. 'cante 2 oros'")
        elif expect == 1:
            try:
                parse_suit(word, "in cante")
            except CuatrolaError as e:
                raise self.error(at, f"{e} (or oros, copas, espadas, bastos)") from None
        elif expect == 2:
            if word.lower() != "after":
                self.end_cante(at)
                return False
        elif expect == 3:
            if not re.fullmatch(f"[0-9]{{1,{_MAX_DIGITS}}}", word):
                raise self.error(at, f"bad trick number {quote(word)} in cante: expected "
                                     f"'after N', e.g. 'cante 2 oros after 3'")
            words.append((at, word))
            self.end_cante(at)
            return True
        words.append((at, word))
        return True

    def end_cante(self, at: int) -> None:
        words = self.cante
        if words is None:
            return
        self.cante = None
        if len(words) < 2 or len(words) == 3:
            missing = ("a seat and a suit", "a suit", "", "a trick number after 'after'")[len(words)]
            raise self.error(self.cante_start, f"unfinished cante: expected {missing}, e.g. "
                                               f"'cante 2 oros' or 'cante 2 oros after 3'")
        seat, suit = int(words[0][1]), int(parse_suit(words[1][1]))
        if len(words) == 4:
            after = int(words[3][1])
        else:
            after = len(self.tricks)
            if after == 0:
                raise self.error(self.cante_start, "cante before the first trick: a cante "
                                                   "follows the trick after which it is sung, or "
                                                   "says it, e.g. 'cante 2 oros after 3'")
        self.places[("cante", len(self.cantes))] = self.place(self.cante_start)
        self.cantes.append(Cante(after, seat, suit))

    def finish(self, end: int) -> HandRecord:
        missing = [t for t in REQUIRED_TAGS if t not in self.tags]
        if missing:
            raise RecordError(f"{self.where}: missing tag{'s' if len(missing) > 1 else ''} "
                              + ", ".join(f"[{t} \"...\"]" for t in missing)
                              + ": a record needs the muestra")
        value = {name: v for name, (_, v) in self.tags.items()}
        return HandRecord(
            rules=value.get("Rules") or get_rules(None), muestra=value["Muestra"],
            hands=[value.get(t) for t in SEAT_TAGS], auction=value.get("Auction"),
            tricks=self.tricks, cantes=self.cantes, score=value.get("Score"),
            players=tuple(value.get(t) for t in PLAYER_TAGS), annotations=self.annotations,
            comment=self.comment, source=self.where, places=self.places,
            rules_given="Rules" in value, takebacks=value.get("Takebacks", 0))


def read_text(text: str, where: str = "record") -> HandRecord:
    """Read the text form; errors name the bad token with its line and column."""
    return _TextReader(text, where).read()


def read_play(text: str, where: str = "--played") -> tuple[list[list[int]], list[Cante]]:
    """Read a play section alone, as in a record: ``1. Sb Ab Cb 3b cante 2 oros 2. Ao``
    (trick numbers, each trick's cards from its leader, cantes).  Returns the tricks and
    the cantes; errors name the bad token with its line and column in ``text``."""
    reader = _TextReader(text, where)
    reader.playing = True       # no tags here
    reader.scan()
    return reader.tricks, reader.cantes


def read_record(text: str, where: str = "record") -> HandRecord:
    """Read either form: JSON when the text starts with ``{`` and then ``"`` or ``}``
    (a JSON object), the text form otherwise (which may start with a ``{comment}``)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if re.match(r'\s*\{\s*["}]', text):
        return read_json(text, where)
    return read_text(text, where)


def write_record(rec: HandRecord, form: str = "text", *, indent: int | None = None) -> str:
    """``write_text(rec)`` or ``write_json(rec, indent)`` for ``form`` "text" or "json"."""
    if form == "text":
        return write_text(rec)
    if form == "json":
        return write_json(rec, indent)
    raise RecordError(f"unknown record form {quote(form)}: expected one of {', '.join(FORMS)}")
