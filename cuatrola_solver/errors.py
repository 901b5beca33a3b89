"""Errors raised by cuatrola-solver.

Every error is a :class:`ValueError` (as python-chess does) whose message quotes
the offending input and says where it is, so the command line can print it as is
and exit with code 2.
"""


class CuatrolaError(ValueError):
    """Base class of every error caused by the user's input."""


class NotationError(CuatrolaError):
    """A card, hand, deal, seat, bid or score that cannot be read."""


class RulesError(CuatrolaError):
    """An unknown preset or parameter, or a parameter value out of range."""


class IllegalBidError(CuatrolaError):
    """A call the auction, the rules or the match score does not allow."""


class IllegalPlayError(CuatrolaError):
    """A card that cannot be played here: not in the hand on turn, or after the hand ended."""


class IllegalCanteError(CuatrolaError):
    """A cante the rules do not allow at that moment (docs/rules.md 8.7)."""


class InconsistentDealError(CuatrolaError):
    """A deal that cannot exist: a card twice, a card missing, the muestra not in seat 4's hand."""

    #: the part of the deal that is wrong, when known: ``("hand", seat)`` or ``("muestra",)``
    part: tuple[str | int, ...] = ()


class RecordError(CuatrolaError):
    """A hand record (JSON or text form) that is malformed or cannot have happened."""


class ModelError(CuatrolaError):
    """A fitted model or data file -- a bid model, a played-odds model, a preset's hand
    results -- that is missing, corrupt, or for other rules or another version."""


class PlayerError(CuatrolaError):
    """A player spec that cannot be read, or a player that answered with a call, cante or
    card the rules refuse."""


class LabError(CuatrolaError):
    """Bad input of a self-play run: its players, its options, its output file, its
    cluster, a record of it that cannot be read back."""


#: the most characters of a bad token an error message quotes
QUOTE_LIMIT = 40


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, cut after ``limit`` characters of text (a
    50 MB token must not make a 50 MB message): ``'AAAA…' (5,000,000 characters)``."""
    if isinstance(value, str) and len(value) > limit:
        cut = repr(value[:limit])
        return f"{cut[:-1]}…{cut[-1]} ({len(value):,} characters)"
    text = repr(value)
    if len(text) > 2 * limit:
        return text[:2 * limit] + f"… ({len(text):,} characters)"
    return text


class HistoryError(CuatrolaError):
    """The database of a player's history (``cuatrola history``) that cannot be opened or
    read -- not one of ours, corrupt, of a newer version -- or a name in it that is not
    there."""
