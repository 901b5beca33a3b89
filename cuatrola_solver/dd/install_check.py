"""What to tell the user when the compiled solver cannot be imported.

The usual cause: the package was installed with ``pip install .`` (the compiled module
went to site-packages) and Python is run from the repository's root, where the source
folder ``cuatrola_solver/`` -- which has no compiled module -- comes first on the path.
The compiled module lives in the package folder ``cuatrola_solver/dd/``.
The message says which folder was imported, where a compiled copy is, and what to do.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

MODULE = "_solver"


def compiled_copies(search_path: Iterable[str], here: Path) -> list[Path]:
    """Folders ``cuatrola_solver/dd`` on ``search_path``, other than ``here``, that hold a
    compiled ``_solver`` module."""
    out = []
    for entry in search_path:
        folder = Path(entry or ".") / "cuatrola_solver" / "dd"
        try:
            if folder.resolve() == here.resolve() or not folder.is_dir():
                continue
            if any(folder.glob(f"{MODULE}*.so")) or any(folder.glob(f"{MODULE}*.pyd")):
                out.append(folder)
        except OSError:
            continue
    return out


def compiled_missing_message(exc: BaseException, here: Path | None = None,
                             search_path: Iterable[str] | None = None) -> str:
    """The stderr message when ``cuatrola_solver.dd._solver`` fails to import."""
    here = Path(__file__).resolve().parent if here is None else here
    search_path = sys.path if search_path is None else search_path
    lines = [f"cuatrola-solver: the compiled solver could not be imported ({exc}): using "
             f"the pure-Python reference solver instead, hundreds of times slower."]
    others = compiled_copies(search_path, here)
    if others:
        lines.append(
            f"  Python imported the package from {here}, a source folder without the "
            f"compiled module, instead of the installed copy in {others[0]}. This happens "
            f"when you run from the repository's root after 'pip install .'. Run from "
            f"another folder, or install with 'pip install -e .' (it builds the module in "
            f"the source folder).")
    else:
        lines.append(
            f"  No compiled module was found next to {here}. Build it with 'pip install -e .' "
            f"in the repository (needs a C compiler and the Python headers, e.g. Debian's "
            f"build-essential and python3-dev).")
    return "\n".join(lines)
