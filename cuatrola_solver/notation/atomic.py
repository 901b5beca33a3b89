"""Files written whole or not at all: a temporary file beside the target, then
``os.replace`` (a reader never sees half a record or half a match sheet)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomically"]


def write_atomically(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, replacing it in one step; an OSError leaves
    ``path`` as it was and no temporary file behind."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                               dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
