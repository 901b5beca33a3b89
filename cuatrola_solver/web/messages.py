"""The shapes of what the page sends and what the server answers, as typed values: each
request body is read once, field by field, by its ``from_json`` (a field of the wrong
type is a :class:`BadRequest` naming it), and each answer is written by its
``to_json``.  The table's state itself is the dictionary :mod:`.play` draws
(:meth:`~.play.PlayTable.state`), carried whole.

Every request body is a JSON object; every POST but ``/api/page`` names its ``page``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import CuatrolaError, quote
from ..i18n import _
from .hints import TableHint

__all__ = ["BadRequest", "AdviseAsk", "PageAsk", "PageOf", "NewGame", "Move", "Step", "AnalyzeAsk",
           "PageAnswer", "GameAnswer", "Cancelled", "ErrorAnswer", "ReportAnswer",
           "PuzzlesAnswer", "RecordsAnswer", "ChartsAnswer", "ChartCell", "AdviceAnswer",
           "HintAnswer", "CancelAnswer", "MAX_ID"]

#: the longest page id read (the server's are 22 characters)
MAX_ID = 64


class BadRequest(CuatrolaError):
    """A request that is not one the page sends: not JSON, too big or deep, from
    elsewhere, a field of the wrong type."""


def _page_id(body: dict[str, Any], required: bool = True) -> str | None:
    page = body.get("page")
    if page is None and not required:
        return None
    if not isinstance(page, str) or not 0 < len(page) <= MAX_ID:
        raise BadRequest(_("bad page {page}: expected the page id the server gave "
                           "(text)").format(page=quote(page)))
    return page


def _version(body: dict[str, Any]) -> int | None:
    version = body.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)
                                or version < 0):
        raise BadRequest(_("bad version {version}: expected the version of the table's "
                           "state (a whole number)").format(version=quote(version)))
    return version


# --- requests --------------------------------------------------------------------------

@dataclass(frozen=True)
class PageAsk:
    """``POST /api/page``: the page's id kept in the browser, if any."""

    page: str | None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> PageAsk:
        return cls(_page_id(body, required=False))


@dataclass(frozen=True)
class PageOf:
    """A request that names its page only (cancel, hint, puzzles)."""

    page: str

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> PageOf:
        return cls(str(_page_id(body)))


@dataclass(frozen=True)
class NewGame:
    """``POST /api/play/new``: a match at ``seat`` (1 to 4, checked by the game)."""

    page: str
    seat: object

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> NewGame:
        return cls(str(_page_id(body)), body.get("seat", 1))


@dataclass(frozen=True)
class Move:
    """``POST /api/play/answer``: the person's ``choice`` on the state ``version``
    (None: whatever the state is now)."""

    page: str
    choice: object
    version: int | None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Move:
        return cls(str(_page_id(body)), body.get("choice"), _version(body))


@dataclass(frozen=True)
class Step:
    """``POST /api/play/next`` and ``/api/play/takeback``: on the state ``version``."""

    page: str
    version: int | None

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Step:
        return cls(str(_page_id(body)), _version(body))


@dataclass(frozen=True)
class AdviseAsk:
    """``POST /api/advise``: the advise form's fields as sent, each read and checked by
    :mod:`.forms` (so that its message goes beside it)."""

    page: str
    hand: object
    muestra: object
    seat: object
    auction: object
    score: object
    seed: object
    exact: object

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> AdviseAsk:
        return cls(str(_page_id(body)), body.get("hand"), body.get("muestra"),
                   body.get("seat"), body.get("auction"), body.get("score"), body.get("seed"),
                   body.get("exact", False))


@dataclass(frozen=True)
class AnalyzeAsk:
    """``POST /api/analyze``: a record sent (``record``, its ``filename``) or one of the
    folder by ``name``."""

    page: str
    record: str | None
    filename: str | None
    name: object

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> AnalyzeAsk:
        record = body.get("record")
        filename = body.get("filename")
        return cls(str(_page_id(body)), record if isinstance(record, str) else None,
                   filename[:100] if isinstance(filename, str) else None, body.get("name"))


# --- answers ---------------------------------------------------------------------------

@dataclass(frozen=True)
class PageAnswer:
    """The page's id (a new one when the one asked for is not known), the server's rules,
    and the page's match when it has one (``resumed``)."""

    page: str
    rules: str
    target: int
    game: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"page": self.page, "rules": self.rules, "target": self.target,
                "resumed": self.game is not None, "game": self.game}


@dataclass(frozen=True)
class GameAnswer:
    """The table's state (:mod:`.games`), after a move or with why it was refused."""

    state: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.state


@dataclass(frozen=True)
class Cancelled:
    """The computation was cancelled by its page."""

    def to_json(self) -> dict[str, Any]:
        return {"cancelled": True}


@dataclass(frozen=True)
class CancelAnswer:
    """Whether a computation was running to be cancelled."""

    cancelled: bool

    def to_json(self) -> dict[str, Any]:
        return {"cancelled": self.cancelled}


@dataclass(frozen=True)
class ErrorAnswer:
    """A refused request: the one-line message; per field for the advise form; with the
    table's state now when a move came on a stale one."""

    error: str
    errors: dict[str, str] | None = None
    state: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        if self.errors is not None:
            return {"errors": self.errors}
        return {"error": self.error} if self.state is None else {"error": self.error,
                                                                  "state": self.state}


@dataclass(frozen=True)
class ChartCell:
    """The cell of the shipped bidding chart a hand falls in."""

    key: str
    call: str
    hands: int
    p: float | None
    ev: float | None
    agreement: Any

    def to_json(self) -> dict[str, Any]:
        return {"class": self.key, "call": self.call, "hands": self.hands, "p": self.p,
                "ev": self.ev, "agreement": self.agreement}


@dataclass(frozen=True)
class AdviceAnswer:
    """The advice (as ``cuatrola advise --json`` writes it) and its chart cell."""

    advice: dict[str, Any]
    chart: ChartCell | None

    def to_json(self) -> dict[str, Any]:
        return {"advice": {"schema": 1, **self.advice},
                "chart": None if self.chart is None else self.chart.to_json()}


@dataclass(frozen=True)
class HintAnswer:
    """The hint of the person's decision (:meth:`~.play.PlayTable.hint`)."""

    hint: TableHint

    def to_json(self) -> dict[str, Any]:
        return {"hint": self.hint.to_json()}


@dataclass(frozen=True)
class ReportAnswer:
    """An analysis report's page."""

    html: str

    def to_json(self) -> dict[str, Any]:
        return {"html": self.html}


@dataclass(frozen=True)
class PuzzlesAnswer:
    """The puzzles' page, how many records were searched and which could not be read."""

    html: str
    records: int
    skipped: tuple[str, ...]
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"html": self.html, "records": self.records, "skipped": list(self.skipped),
                "count": self.count}


@dataclass(frozen=True)
class RecordsAnswer:
    """The records of the folder, newest first."""

    records: tuple[str, ...]
    folder: str

    def to_json(self) -> dict[str, Any]:
        return {"records": list(self.records), "folder": self.folder}


@dataclass(frozen=True)
class ChartsAnswer:
    """The shipped bidding charts of the server's rules."""

    rules: str
    charts: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "charts": list(self.charts)}
