"""Two names of one player made one: ``cuatrola history merge OLD NEW``.

Every seat of ``OLD`` becomes ``NEW``'s, and the merge is kept, so a later import of a
record naming ``OLD`` gives its seat to ``NEW`` too (a rebuild keeps the merges)."""

from __future__ import annotations

from ..errors import HistoryError, quote
from .database import Database

__all__ = ["merge_names"]


def merge_names(db: Database, old: str, new: str) -> int:
    """Merge ``old`` into ``new``; returns how many seats changed name.  Raises
    :class:`HistoryError` when ``old`` names no seat and no merge, or the two are one."""
    old, new = old.strip(), new.strip()
    if not old or not new or old == new:
        raise HistoryError(f"cannot merge {quote(old)} into {quote(new)}: give two different "
                           f"names")
    with db.write() as conn:
        known = conn.execute("SELECT 1 FROM seats WHERE player = ? LIMIT 1", (old,)).fetchone()
        if known is None:
            names = [r[0] for r in conn.execute("SELECT DISTINCT player FROM seats WHERE "
                                                "player IS NOT NULL ORDER BY player LIMIT 10")]
            raise HistoryError(f"no player {quote(old)} in the history (players: "
                               f"{', '.join(names) or 'none'})")
        changed = conn.execute("UPDATE seats SET player = ? WHERE player = ?",
                               (new, old)).rowcount
        # merges that ended at OLD now end at NEW; NEW itself is never merged away
        conn.execute("UPDATE merges SET new = ? WHERE new = ?", (new, old))
        conn.execute("DELETE FROM merges WHERE old = ?", (new,))
        conn.execute("INSERT OR REPLACE INTO merges (old, new) VALUES (?, ?)", (old, new))
    return changed
