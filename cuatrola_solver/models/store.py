"""Where the fitted models and data of each preset live, and how they are read.

Six kinds of file ship in ``cuatrola_solver/models/data/``, one per preset (where made): the bid
model (``bids_PRESET.json``, :mod:`~cuatrola_solver.models.bids`), the card-play model
(``cards_PRESET.json``, :mod:`~cuatrola_solver.models.cardplay`), the played-odds model
(``played_PRESET.json``, :mod:`~cuatrola_solver.models.played`), the measured hand
results behind match equity (``hand_results_PRESET.json``,
:mod:`~cuatrola_solver.models.equity`) and the bidding charts (``charts_PRESET.json``,
:mod:`~cuatrola_solver.models.charts`).  :func:`read` is their one loader: it reads the
JSON, checks its version and that it is for the rules' preset, and raises one error,
:class:`~cuatrola_solver.errors.ModelError`, saying which file and what to do.  Each
kind then reads its own fields (a field that is not what it should be is a
``ModelError`` too, raised by :func:`corrupt`).  The lab (:mod:`cuatrola_solver.lab`)
fits and measures them; nothing here writes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ModelError
from ..game.jsonvalue import ParsedJSON
from ..game.rules import RuleSet

__all__ = ["Kind", "KINDS", "data_path", "read", "corrupt"]


@dataclass(frozen=True)
class Kind:
    """One kind of model file: its name for people, its file name, the field and value
    of its version, and how to make one."""

    what: str
    pattern: str
    version_field: str
    version: int
    remedy: str

    def file_name(self, preset: str) -> str:
        return self.pattern.format(preset=preset)


KINDS = {
    "bids": Kind("bid model", "bids_{preset}.json", "version", 1,
                 "make it with cuatrola bidmodel --rules {preset} -o FILE, or use "
                 "--no-inference"),
    "cards": Kind("card-play model", "cards_{preset}.json", "version", 1,
                  "make it with cuatrola cardmodel RECORDS --rules {preset} -o FILE, or use "
                  "--no-inference"),
    "played": Kind("played-odds model", "played_{preset}.json", "version", 1,
                   "fit one with cuatrola calibrate --fit RECORDS -o FILE, or use --model dd"),
    "hand_results": Kind("hand results", "hand_results_{preset}.json", "schema", 1,
                         "make them with 'cuatrola equity --rules {preset} --regenerate'"),
    "charts": Kind("bidding charts", "charts_{preset}.json", "version", 1,
                   "compute one with cuatrola charts --rules {preset} --compute --out FILE"),
}


def data_path(kind: str, preset: str) -> Path:
    """Where the package keeps the file of ``kind`` for ``preset``."""
    folder = Path(str(resources.files("cuatrola_solver.models"))) / "data"
    return folder / KINDS[kind].file_name(preset)


def _preset_of(rules: Any) -> Any:
    """The preset a file says it is for: a name, or the ``preset`` of an override object."""
    if isinstance(rules, dict):
        return rules.get("preset", "online")
    return rules


def read(kind: str, rules: RuleSet,
         path: str | Path | None = None) -> tuple[ParsedJSON, Path]:
    """The JSON object of the ``kind`` file of ``rules``' preset (or of ``path``) and
    the path read, after checking that it exists and reads as JSON, is of this version,
    and is for that preset; else :class:`ModelError` naming the file."""
    k = KINDS[kind]
    p = Path(path) if path is not None else data_path(kind, rules.name)
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{k.what} {str(p)!r} not found "
                         f"({k.remedy.format(preset=rules.name)})") from None
    except (OSError, ValueError, RecursionError) as e:
        raise ModelError(f"{k.what} {str(p)!r} cannot be read: {e}") from None
    if not isinstance(obj, dict) or obj.get(k.version_field) != k.version:
        raise ModelError(f"{k.what} {str(p)!r} is of another version (expected "
                         f"{k.version}); {k.remedy.format(preset=rules.name)}")
    if _preset_of(obj.get("rules")) != rules.name:
        raise ModelError(f"{k.what} {str(p)!r} is for rules {obj.get('rules')!r}, not "
                         f"{rules.name}")
    return obj, p


def corrupt(kind: str, path: Path, why: str) -> ModelError:
    """The error of a file of ``kind`` whose fields are not what they should be."""
    return ModelError(f"{KINDS[kind].what} {str(path)!r} is corrupt: {why}")
