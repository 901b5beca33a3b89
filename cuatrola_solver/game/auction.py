"""The auction (las apuestas): one round of calls from seat 1 to seat 4.

A call is ``paso`` or a contract stronger than the standing one; under
``partner_may_take_over`` the partner of the highest bidder may also bid the same
contract and take it over; under ``contrasolo`` an opponent of a standing solo may
answer ``contrasolo`` (docs/rules.md sections 3 and 8.11).  With a match score the caps
of ``bid_cap`` apply (8.8).
"""

from __future__ import annotations

from typing import Sequence

from ..errors import IllegalBidError, NotationError, quote
from ..i18n import _, later, ngettext
from .match import Score, bid_cap_reason
from .play import active_seats, partner_of, side_of
from .rules import CONTRACTS, RuleSet
from .seats import check_seat

CALLS = CONTRACTS  # paso and the bids, weakest first
STRENGTH = {c: i for i, c in enumerate(CONTRACTS)}


def parse_call(text: str, where: str = "") -> str:
    call = text.strip().lower()
    if call not in CALLS:
        place = f" {where}" if where else ""
        raise NotationError(_("bad bid {bid}{place}: expected one of {calls}").format(
            bid=quote(text), place=place, calls=" ".join(CALLS)))
    return call


class Auction:
    """The calls made so far and what they decide."""

    def __init__(self, rules: RuleSet, score: Score | None = None) -> None:
        self.rules = rules
        self.score = score
        self.calls: list[str] = []
        self.highest: str = "paso"
        self.bidder: int | None = None          # seat holding the highest bid
        self.solo_bidder: int | None = None     # for contrasolo: the standing solo's seat

    @property
    def speaker(self) -> int | None:
        """The seat to speak next, or None when all four have spoken."""
        return len(self.calls) + 1 if len(self.calls) < 4 else None

    @property
    def is_complete(self) -> bool:
        return len(self.calls) == 4

    def refusal(self, call: str) -> str | None:
        """Why the seat on turn may not make ``call`` now; None when it may."""
        seat = self.speaker
        if seat is None:
            return later("the auction is over: all four seats have spoken")
        if call == "paso":
            return None
        if call not in self.rules.allowed_contracts():
            return later("{call} is not played under these rules", call=call)
        # a standing bid other than paso has its bidder
        bidder = self.bidder
        take_over = (bidder is not None and call == self.highest
                     and self.rules.partner_may_take_over and seat == partner_of(bidder))
        if call == "contrasolo":
            answers_solo = (bidder is not None and self.highest == "solo"
                            and side_of(seat) != side_of(bidder))
            if not (answers_solo or take_over):
                return (later("only the contrasolo bidder's partner may take a contrasolo over")
                        if self.highest == "contrasolo" else
                        later("contrasolo answers a standing solo, by an opponent of the solo "
                              "bidder"))
        elif STRENGTH[call] <= STRENGTH[self.highest] and not take_over:
            return later("a bid must be stronger than the standing {bid}", bid=self.highest)
        if self.score is not None:
            return bid_cap_reason(self.rules, self.score.of(side_of(seat)), call)
        return None

    def legal_calls(self) -> list[str]:
        return [c for c in CALLS if self.refusal(c) is None]

    def copy(self) -> "Auction":
        """An independent copy: calls made on it leave this auction as it is."""
        new = Auction.__new__(Auction)
        new.__dict__.update(self.__dict__)
        new.calls = list(self.calls)
        return new

    def call(self, call: str) -> None:
        """Make the next call (checked); raises IllegalBidError with the reason."""
        seat = self.speaker
        if seat is None:
            raise IllegalBidError(_("{call} is one call too many: the auction is over, all four "
                                    "seats have spoken").format(call=quote(call)))
        reason = self.refusal(call)
        if reason is not None:
            raise IllegalBidError(_("seat {seat} may not call {call}: {reason}").format(
                seat=seat, call=quote(call), reason=_(reason)))
        self.calls.append(call)
        if call == "paso":
            return
        if call == "contrasolo" and self.highest == "solo":
            self.solo_bidder = self.bidder
        self.highest, self.bidder = call, seat

    # --- what the auction decides ----------------------------------------
    @property
    def contract(self) -> str:
        return self.highest

    @property
    def declarer(self) -> tuple[int, ...]:
        """() for paso, (seat,) for a lone declarer, (solo bidder, contrasolo bidder)."""
        if self.bidder is None:
            return ()
        if self.highest == "contrasolo":
            assert self.solo_bidder is not None, "a contrasolo answers a solo, whose bidder is kept"
            return (self.solo_bidder, self.bidder)
        return (self.bidder,)

    @property
    def active(self) -> tuple[bool, ...]:
        """Who plays: everyone in paso; else the declarer(s), not their partners."""
        return active_seats(self.declarer)


def parse_auction(calls: str | Sequence[str] | None, seat: int, rules: RuleSet,
                  score: Score | None = None) -> Auction:
    """The auction of seats ``1 .. seat-1`` (``None``: they all passed), checked call
    by call; errors name the call, the seat and the reason."""
    check_seat(seat)
    if calls is None:
        calls = ["paso"] * (seat - 1)
    elif isinstance(calls, str):
        calls = [c for c in calls.replace(",", " ").split() if c]
    calls = list(calls)
    if len(calls) != seat - 1:
        before = (_("nobody speaks before seat 1") if seat == 1 else
                  _("only seat 1 speaks before seat 2") if seat == 2 else
                  _("seats 1 and 2 speak before seat 3") if seat == 3 else
                  _("seats 1 to 3 speak before seat 4"))
        raise IllegalBidError(ngettext(
            "bad auction {calls}: {n} call given, but {before} (expected {expected})",
            "bad auction {calls}: {n} calls given, but {before} (expected {expected})",
            len(calls)).format(calls=quote(" ".join(calls)), n=len(calls), before=before,
                               expected=seat - 1))
    auction = Auction(rules, score)
    for i, text in enumerate(calls, 1):
        call = parse_call(text, _("(call {i} of the auction, seat {i})").format(i=i))
        reason = auction.refusal(call)
        if reason is not None:
            raise IllegalBidError(_("bad auction: call {i} {call} of seat {i} is illegal: "
                                    "{reason}").format(i=i, call=quote(text), reason=_(reason)))
        auction.call(call)
    return auction
