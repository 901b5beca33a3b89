"""Each hand analysed once and kept: the slow part of an import, hand by hand.

:func:`analyse_pending` runs :func:`~cuatrola_solver.analysis.review.analyze` -- with
the default budget and models of ``cuatrola analyze`` (or ``samples`` deals per card
and call), seeded by the hand's key so that the same hand gets the same analysis -- on
every complete hand that has none, and keeps what the history needs of it: each seat's
summary (accuracy, the mistakes by label, the win chance lost), each card's label and
situation, each call against the advice.  Each hand is committed alone, so an analysis
stopped at any moment (Ctrl-C, ``kill -9``) keeps every hand done and the next run goes
on with the rest.  The row says which version made it (:func:`analysis_version`: the
package and the preset's model files); ``again=True`` analyses anew the hands made by
another version.

Situations of a card: ``opening_lead`` (trick 1's first card), ``leading`` (the first
card of a later trick), ``following`` (of the suit led), ``trumping`` (a trump on
another suit led), ``discarding`` (neither).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version as package_version
from typing import Callable

from ..advice.bidding import valued
from ..advice.budget import Budget
from ..analysis.review import Analysis, analyze
from ..errors import CuatrolaError
from ..game.cards import format_card, suit_of
from ..models.store import data_path
from ..notation.record import HandRecord, read_record
from .database import Database

__all__ = ["analyse_pending", "analysis_version", "hand_seed", "situation_of", "Pending",
           "SITUATIONS", "MODEL_KINDS"]

#: the situations of a card, in the order the figures list them
SITUATIONS = ("opening_lead", "leading", "following", "trumping", "discarding")
#: the model files whose content makes the version of an analysis
MODEL_KINDS = ("bids", "cards", "played")


@dataclass(frozen=True)
class Pending:
    """A hand waiting for its analysis."""

    hand_id: int
    source: str


def hand_seed(key: str) -> int:
    """The seed of a hand's analysis: from its key, below 2**31."""
    return int(key[:8], 16) % (1 << 31)


@lru_cache(maxsize=None)
def analysis_version(preset: str) -> str:
    """``cuatrola-solver 0.2.0; models 1a2b3c4d5e6f``: the package and a digest of the
    preset's model files (bid, card-play, played-odds)."""
    try:
        ours = package_version("cuatrola-solver")
    except PackageNotFoundError:            # run from a source tree
        ours = "source"
    digest = hashlib.sha256()
    for kind in MODEL_KINDS:
        path = data_path(kind, preset)
        digest.update(kind.encode())
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return f"cuatrola-solver {ours}; models {digest.hexdigest()[:12]}"


def situation_of(rec: HandRecord, trick: int, position: int) -> str:
    """The situation of card ``position`` of trick ``trick`` (both 1-based)."""
    cards = rec.tricks[trick - 1]
    if position == 1:
        return "opening_lead" if trick == 1 else "leading"
    card, led = cards[position - 1], cards[0]
    if suit_of(card) == suit_of(led):
        return "following"
    if suit_of(card) == suit_of(rec.muestra):
        return "trumping"
    return "discarding"


def pending(db: Database, *, again: bool = False) -> list[Pending]:
    """The complete hands without an analysis (with ``again``: or with one made by
    another version than this one), oldest first."""
    rows = db.query("SELECT h.id, h.source, h.preset, a.version FROM hands h LEFT JOIN "
                    "analyses a ON a.hand_id = h.id WHERE h.complete = 1 ORDER BY h.id")
    return [Pending(i, source) for i, source, preset, made in rows
            if made is None or (again and made != analysis_version(preset))]


def _keep(db: Database, hand_id: int, rec: HandRecord, result: Analysis | None,
          version: str, samples: int, seed: int, error: str | None) -> None:
    with db.write() as conn:
        conn.execute("DELETE FROM analyses WHERE hand_id = ?", (hand_id,))
        model = None if result is None else result.model
        conn.execute("INSERT INTO analyses (hand_id, version, samples, seed, model, error)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     (hand_id, version, samples, seed, model, error))
        if result is None:
            return
        conn.executemany(
            "INSERT INTO seat_play (hand_id, seat, choices, sound, inaccuracies, mistakes,"
            " blunders, renuncios, win_chance_lost, points_lost)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(hand_id, s.seat, s.choices,
              0 if s.accuracy is None else round(s.accuracy * s.choices / 100),
              s.inaccuracies, s.mistakes, s.blunders, s.renuncios, s.win_chance_lost,
              s.points_lost) for s in result.summary])
        conn.executemany(
            "INSERT INTO cards (hand_id, trick, position, seat, card, kind, situation,"
            " symbol, loss) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(hand_id, c.trick, c.position, c.seat, format_card(c.card), c.kind,
              situation_of(rec, c.trick, c.position), c.symbol,
              c.loss) for c in result.cards])
        conn.executemany(
            "INSERT INTO bids (hand_id, seat, call, advice, ev_call, ev_advice, ev_loss)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(hand_id, b.seat, b.call, b.advice, valued(b.option(b.call).ev_rated),
              valued(b.option(b.advice).ev_rated), b.ev_loss) for b in result.bids])


def analyse_pending(db: Database, samples: int | None = None, *, again: bool = False,
                    progress: Callable[[int, int, Pending], None] | None = None) -> int:
    """Analyse every hand :func:`pending` returns, one at a time, each committed with
    its analysis; ``progress(done, total, hand)`` after each.  Returns how many were
    analysed.  A hand whose analysis fails (a model missing for its rules) is kept with
    the error, and not tried again unless ``again``."""
    todo = pending(db, again=again)
    for done, item in enumerate(todo, 1):
        row = db.query("SELECT hash, record, preset FROM hands WHERE id = ?", (item.hand_id,))
        if not row:                         # removed meanwhile (a rebuild)
            continue
        key, text, preset = row[0]
        seed = hand_seed(key)
        budget = Budget(samples=samples, seed=seed)
        rec = read_record(text, item.source)
        try:
            result: Analysis | None = analyze(rec, budget)
            error = None
        except CuatrolaError as e:
            result, error = None, str(e)
        used = result.samples if result is not None else budget.samples_or(0)
        _keep(db, item.hand_id, rec, result, analysis_version(preset), used, seed, error)
        if progress:
            progress(done, len(todo), item)
    return len(todo)
