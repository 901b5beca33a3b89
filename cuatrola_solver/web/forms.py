"""The advise form, read field by field as ``cuatrola advise`` reads its options.

Each field is checked by the library function the command uses, with the same
arguments, so a bad value gets the command's own one-line message; the page shows it
beside the field it is about (:class:`FormError` maps fields to messages).  What no
single field says (five cards, the muestra's place) is said at the hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..advice.budget import Budget
from ..errors import CuatrolaError, NotationError, quote
from ..game.auction import Auction, parse_auction
from ..game.cards import parse_card, parse_cards
from ..game.match import parse_score
from ..game.rules import RuleSet
from ..game.seats import check_seat
from ..game.view import View
from ..i18n import _
from .messages import AdviseAsk

__all__ = ["FormError", "AdviseForm", "read_advise_form", "MAX_FIELD"]

#: the longest text a field may hold (a hand is 14 characters, an auction about 30)
MAX_FIELD = 200


class FormError(CuatrolaError):
    """Bad fields of a form: ``errors`` maps each bad field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class AdviseForm:
    """What the advise form asks: the view and the search budget."""

    view: View
    budget: Budget


def _text(value: object, name: str) -> str:
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise NotationError(_("bad {name} {value}: expected text")
                             .format(name=name, value=quote(value)))
    if len(value) > MAX_FIELD:
        raise NotationError(_("bad {name} {value}: longer than {max_field} characters")
                             .format(name=name, value=quote(value), max_field=MAX_FIELD))
    return value


def _seat(text: str) -> int:
    seat: int | str
    try:
        seat = int(text)
    except ValueError:
        seat = text
    return check_seat(seat, "--seat")


def _seed(text: str) -> int | None:
    if not text.strip():
        return None
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise NotationError(_("bad value {text} for --seed: expected a whole number, 0 or more")
                             .format(text=quote(text)))
    return seed


def read_advise_form(ask: AdviseAsk, rules: RuleSet) -> AdviseForm:
    """The view and budget of the fields ``hand``, ``muestra``, ``seat``, ``auction``,
    ``score``, ``seed`` and ``exact``; :class:`FormError` naming every bad field."""
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}     # each field as its reader gives it

    def field(name: str, value: object, read: Callable[[str], object]) -> None:
        try:
            values[name] = read(_text(value, name))
        except CuatrolaError as e:
            errors[name] = str(e)

    field("seat", ask.seat, _seat)
    field("seed", ask.seed, _seed)
    field("score", ask.score, lambda t: parse_score(t, rules=rules) if t.strip() else None)
    field("hand", ask.hand, lambda t: parse_cards(t, "the hand"))
    field("muestra", ask.muestra, lambda t: parse_card(t, "(--muestra)"))
    if "seat" in values:
        field("auction", ask.auction, lambda t: parse_auction(
            t if t.strip() else None, values["seat"], rules, values.get("score")))
    exact = ask.exact if isinstance(ask.exact, bool) else False
    if not isinstance(ask.exact, bool):
        errors["exact"] = f"bad exact {quote(ask.exact)}: expected true or false"
    if errors:
        raise FormError(errors)
    auction: Auction = values["auction"]
    try:
        view = View.about_to_speak(rules, values["seat"], values["hand"], values["muestra"],
                                   auction.calls, values["score"])
    except CuatrolaError as e:
        raise FormError({"hand": str(e)}) from None
    # the workers are the server's to give (web/pages.py): the answer never depends on them
    return AdviseForm(view, Budget(exact=exact, seed=values["seed"], workers=1))
