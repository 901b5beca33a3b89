"""What a record says of its hand without any search, as the history keeps it: its key
(the content hash), who sat where, the result, the renuncios ``check`` finds and the
cantes a seat could sing and never did.

:func:`hand_key` is the sha256 of the record's canonical JSON form (keys sorted, no
spaces): the same hand read from its text form, its JSON form or a line of a self-play
file has the same key, whatever the comments and annotations, so an import recognises
a hand already in.  :func:`facts_of` replays the record as ``cuatrola check`` does
(:func:`~cuatrola_solver.notation.replay.replay`: a record kept from one seat's side is
checked from that side) and raises its :class:`RecordError` for one that could not
have happened.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..game.cards import format_card
from ..game.hand import HandState
from ..game.play import side_of
from ..notation.record import HandRecord, format_rules, write_text
from ..notation.replay import replay

__all__ = ["HandFacts", "RenuncioFact", "MissedCante", "hand_key", "facts_of", "names_of",
           "YOU"]

#: the name of the person at the browser table when the record names nobody there
YOU = "you"


@dataclass(frozen=True)
class RenuncioFact:
    """A renuncio as ``check`` finds it, and the match points it gave the other side
    (the first renuncio decides the hand; a later one costs nothing more)."""

    trick: int
    seat: int
    card: str
    obligation: str
    cost: int


@dataclass(frozen=True)
class MissedCante:
    """``seat`` could sing ``suit`` after trick ``after_trick`` and never sang it."""

    seat: int
    suit: str
    after_trick: int


@dataclass(frozen=True)
class HandFacts:
    """One hand as the history keeps it before any analysis."""

    key: str
    text: str
    players: tuple[str | None, ...]
    rules: str
    preset: str
    complete: bool
    contract: str | None
    winner: str | None
    game_points: int | None
    match_won_by: str | None
    renuncios: tuple[RenuncioFact, ...]
    cantes_missed: tuple[MissedCante, ...]


def hand_key(rec: HandRecord) -> str:
    """The sha256 of the record's canonical JSON form."""
    canonical = json.dumps(rec.to_json_obj(), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def names_of(rec: HandRecord) -> tuple[str | None, ...]:
    """The names of the record's Player tags, seat 1 to 4 (None: not named)."""
    return tuple(None if p is None or not p.strip() else p.strip() for p in rec.players)


def facts_of(rec: HandRecord, players: tuple[str | None, ...] | None = None) -> HandFacts:
    """The facts of the record's hand (``players``: the names to keep, by default the
    record's own)."""
    hand = replay(rec)
    result = hand.result()
    renuncios = []
    for i, r in enumerate(hand.renuncios):
        cost = result.game_points if (i == 0 and result is not None
                                      and result.ended_by == "renuncio") else 0
        renuncios.append(RenuncioFact(r.trick, r.seat, format_card(r.card), r.obligation, cost))
    contract = hand.contract if hand.pos is not None else None
    return HandFacts(
        hand_key(rec), write_text(rec), names_of(rec) if players is None else players,
        format_rules(rec.rules), rec.rules.name, rec.complete, contract,
        None if result is None else str(result.winner),
        None if result is None else result.game_points,
        None if result is None or result.match_won_by is None else str(result.match_won_by),
        tuple(renuncios), _cantes_missed(rec, hand))


def _cantes_missed(rec: HandRecord, hand: HandState) -> tuple[MissedCante, ...]:
    """Each (seat, suit) of a known hand that the rules let the seat sing at some trick
    boundary before the hand was decided, and that it never sang; with the first such
    boundary."""
    if hand.pos is None:
        return ()
    sung = {(k.seat, k.suit) for k in rec.cantes}
    first_renuncio = hand.renuncios[0].trick if hand.renuncios else 6
    found: dict[tuple[int, int], int] = {}
    for t in range(1, min(len(hand.tricks), 4, first_renuncio - 1) + 1):
        state = HandState(rec.hands, rec.muestra, rec.rules, rec.score).replay(
            rec.auction, rec.tricks[:t], [k for k in rec.cantes if k.after_trick <= t])
        if state.is_over():
            break
        for seat in (1, 2, 3, 4):
            if rec.hands[seat - 1] is None:
                continue
            for suit in range(4):
                if (seat, suit) in sung or (seat, suit) in found:
                    continue
                if state.cante_refusal(seat, suit) is None:
                    found[(seat, suit)] = t
    return tuple(MissedCante(seat, "oceb"[suit], t)
                 for (seat, suit), t in sorted(found.items()))


def side_letter(seat: int) -> str:
    """The side of a seat, as the database writes it: 'A' or 'B'."""
    return str(side_of(seat))
