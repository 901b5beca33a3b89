"""Anotar in the browser: a hand taken down on a phone as it is played at a real table.

The page (``/anotar``, ``static/anotar.html`` and ``static/anotar.js``) keeps the
entries typed so far -- the muestra, the calls, the cards, the cantes, each as
``cuatrola record`` reads it -- and sends them whole with each new one: the server
replays them into a :class:`~cuatrola_solver.notation.hand_entry.HandEntry` (the library
of ``cuatrola record``), so the page and the command take the same hand to the same
record.  An entry that cannot be made is answered 400 with its message and the page
keeps what it had; undo is the page dropping its last entry.  ``/api/anotar/save``
writes the record into the records folder (atomically, :mod:`.records`), where the
page's Analyse button finds it.

:func:`anotar_routes` gives the routes; the application's request checks (its
``body_of``, from the server's own page only) and its state are passed in, so this
module imports nothing of :mod:`.app`.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..errors import CuatrolaError
from ..game.cards import format_card
from ..game.play import SUIT_NAMES
from ..notation.hand_entry import HandEntry, Marked, parse_hands
from ..notation.record import write_text
from .messages import BadRequest

__all__ = ["AnotarAsk", "anotar_routes", "entry_state", "MAX_ENTRIES"]

STATIC = Path(__file__).resolve().parent / "static"
#: the most entries a hand has: the muestra, four calls, twenty cards, cantes; and more
#: for a hand that goes on after a renuncio is marked
MAX_ENTRIES = 64
#: the longest entry read ("cante 2 espadas")
MAX_ENTRY = 40
_saved = itertools.count(1)


@dataclass(frozen=True)
class AnotarAsk:
    """``POST /api/anotar/state`` and ``/api/anotar/save``: the rules, the hands known
    (``"Co Ro Sb Rb 3b"`` or null, seat 1 first), the players' names, the entries so far
    and, for ``state``, the new ``entry`` (none: the state of the entries)."""

    rules: str
    hands: tuple[str | None, ...]
    players: tuple[str | None, ...]
    entries: tuple[str, ...]
    entry: str | None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> "AnotarAsk":
        rules = body.get("rules", "online")
        if not isinstance(rules, str) or len(rules) > 200:
            raise BadRequest("bad rules: expected a preset such as 'online' (text)")
        four = {}
        for name in ("hands", "players"):
            value = body.get(name, [None] * 4)
            if (not isinstance(value, list) or len(value) != 4
                    or not all(v is None or (isinstance(v, str) and len(v) <= 100)
                               for v in value)):
                raise BadRequest(f"bad {name}: expected 4 texts or nulls, seat 1 first")
            four[name] = tuple(v if v and v.strip() else None for v in value)
        entries = body.get("entries", [])
        if (not isinstance(entries, list) or len(entries) > MAX_ENTRIES
                or not all(isinstance(e, str) and len(e) <= MAX_ENTRY for e in entries)):
            raise BadRequest(f"bad entries: expected at most {MAX_ENTRIES} entries, each "
                             f"a text such as '3o', 'paso' or 'cante 2 oros'")
        entry = body.get("entry")
        if entry is not None and (not isinstance(entry, str) or len(entry) > MAX_ENTRY):
            raise BadRequest("bad entry: expected a text such as '3o', 'paso' or "
                             "'cante 2 oros'")
        return cls(rules, four["hands"], four["players"], tuple(entries), entry)

    def replayed(self) -> tuple[HandEntry, list[Marked]]:
        """The hand entered so far, and the renuncios the new entry made known."""
        hands = parse_hands(f"{s}={h}" for s, h in enumerate(self.hands, 1) if h)
        entry = HandEntry(self.rules, hands, self.players)
        for i, text in enumerate(self.entries, 1):
            try:
                entry.enter_text(text)
            except CuatrolaError as e:
                raise BadRequest(f"entry {i} ({text!r}): {e}") from None
        marks = entry.enter_text(self.entry) if self.entry is not None else []
        return entry, marks


def _mark(m: Marked) -> dict[str, Any]:
    r = m.renuncio
    return {"text": m.describe(), "trick": r.trick, "seat": r.seat,
            "card": format_card(r.card), "obligation": r.obligation,
            "consequence": m.consequence}


def entry_state(entry: HandEntry, marks: list[Marked]) -> dict[str, Any]:
    """What the page draws: what may be entered now, the table, the renuncios (those
    the last entry made known apart), the record so far and the result."""
    a = entry.allowed()
    state: dict[str, Any] = {
        "stage": a.stage, "seat": a.seat, "calls": list(a.calls),
        "cards": [format_card(c) for c in a.cards], "legal": [format_card(c) for c in a.legal],
        "cantes": [{"seat": s, "suit": SUIT_NAMES[k], "text": f"cante {s} {SUIT_NAMES[k]}"}
                   for s, k in a.cantes],
        "entries": len(entry.entries),
        "marks": [_mark(m) for m in entry.marks], "new_marks": [_mark(m) for m in marks],
        "muestra": None, "tricks": [], "current": [], "played": [], "record": None,
        "result": None, "contract": None, "declarer": [],
    }
    if entry.muestra is None:
        return state
    hand = entry.hand
    result = hand.result()
    now: dict[str, Any] = {
        "muestra": format_card(hand.muestra),
        "tricks": [[{"seat": s, "card": format_card(c)} for s, c in t] for t in hand.tricks],
        "current": [{"seat": s, "card": format_card(c)} for s, c in hand.current],
        "played": [format_card(p.card) for p in hand.plays],
        "calls_made": list(hand.auction.calls),
        "record": write_text(entry.record()),
        "result": None if result is None else result.to_dict(),
        "contract": hand.contract if hand.auction.is_complete else None,
        "declarer": list(hand.declarer) if hand.auction.is_complete else [],
    }
    state.update(now)
    return state


def anotar_routes(body_of: Callable[[Request], Awaitable[dict[str, Any]]],
                  records_of: Callable[[Request], Any]) -> list[Route]:
    """The page and its two endpoints; ``body_of`` reads a request's body as the
    application checks it, ``records_of`` gives the server's records folder."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "anotar.html", headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        ask = AnotarAsk.from_json(await body_of(request))
        entry, marks = ask.replayed()
        return JSONResponse(entry_state(entry, marks))

    async def save(request: Request) -> Response:
        ask = AnotarAsk.from_json(await body_of(request))
        entry, _ = ask.replayed()
        name = time.strftime("anotada-%Y%m%d-%H%M%S") + f"-{next(_saved)}.txt"
        saved = records_of(request).save(entry.record(), name)
        return JSONResponse({"name": saved, "record": write_text(entry.record())})

    return [Route("/anotar", page),
            Route("/api/anotar/state", state, methods=["POST"]),
            Route("/api/anotar/save", save, methods=["POST"])]
