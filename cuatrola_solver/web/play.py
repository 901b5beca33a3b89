"""The table a page plays at (:class:`PlayTable`): the library's
:class:`~cuatrola_solver.bots.table.Table` of a match against three bots, what happened
in the hand (for the page's log), each finished hand saved to the records folder, the
state as the page draws it (:meth:`PlayTable.state`) and the hint on request
(:meth:`PlayTable.hint`, as ``cuatrola play --hints`` gives it)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ..advice.bidding import advise, valued
from ..advice.budget import Budget
from ..advice.cardplay import CANTE_HINT_SAMPLES, best_cante, cante_values, hint
from ..bots.players import parse_player
from ..bots.table import Table, in_hand_order
from ..errors import IllegalCanteError, IllegalPlayError, NotationError, quote
from ..game.auction import parse_call
from ..game.cards import SUIT_LETTERS, format_card, parse_card
from ..game.hand import HandState
from ..game.play import SUIT_NAMES, active_seats, cante_points, partner_of, side_of
from ..game.rules import RuleSet
from ..game.view import View
from ..i18n import _
from ..models.preset import Models
from ..notation.record import HandRecord
from ..notation.replay import replay
from .events import CallEvent, CanteEvent, CardEvent, ContractEvent, Event, TrickEvent
from .hints import CallHint, CanteHint, CardsHint, TableHint
from .records import RecordsFolder

__all__ = ["PlayTable", "BOTS"]

#: the bots the page plays against (the strongest measured)
BOTS = "best"


class PlayTable:
    """A match at seat ``seat`` against three ``bots`` players, hands dealt from
    ``seed``; each finished hand saved in ``records`` as ``hand-SEED-NNN.txt``."""

    def __init__(self, rules: RuleSet, seat: int, seed: int, records: RecordsFolder,
                 bots: str = BOTS) -> None:
        self.records = records
        self.seed = seed
        self.log: list[Event] = []
        self.saved: list[str] = []
        #: the decisions taken back in the hand being played (written in its record)
        self.takebacks = 0
        self.table = Table([parse_player(bots) for _ in range(3)], seat, rules, seed,
                           match=True, observe=self._observe)
        #: the hints' models: odds as the hand will be played, the calls weighed
        self.models = Models.of(rules)

    # --- what happens ---------------------------------------------------------------

    def who(self, seat: int) -> str:
        if seat == self.table.seat:
            return "you"
        return (f"your partner (seat {seat})" if seat == partner_of(self.table.seat)
                else f"seat {seat}")

    def _observe(self, hand: HandState, kind: str, seat: int, choice: Any) -> None:
        who = self.who(seat)
        self.log.append(CallEvent(seat, who, choice) if kind == "call" else
                        CanteEvent(seat, who, SUIT_LETTERS[choice], SUIT_NAMES[choice],
                                   cante_points(choice, hand.trump)) if kind == "cante" else
                        CardEvent(seat, who, format_card(choice)))
        if kind == "card" and hand.pos is not None and not hand.current and hand.tricks:
            winner = hand.pos.leader
            self.log.append(TrickEvent(len(hand.tricks), winner, self.who(winner),
                                       side_of(winner) == self.table.side))
        if kind == "call" and hand.auction.is_complete:
            self.log.append(ContractEvent(hand.contract,
                                          tuple(self.who(s) for s in hand.declarer),
                                          tuple(hand.declarer)))

    def _forced(self, seat: int) -> None:
        """Mark the last card of ``seat`` as its only legal card."""
        for i in range(len(self.log) - 1, -1, -1):
            e = self.log[i]
            if isinstance(e, CardEvent) and e.seat == seat:
                self.log[i] = dataclasses.replace(e, forced=True)
                return

    def deal(self) -> None:
        """The next hand of the match, played up to the person's first decision."""
        self.log = []
        self.takebacks = 0
        self.table.deal()
        self._saved_if_over()

    def answer(self, text: object) -> str | None:
        """The person's choice typed or clicked (a call, a card, a cante's suit letter or
        ``no``): None when taken, else why not (the same words as ``cuatrola play``)."""
        turn = self.table.turn
        if turn is None:
            raise IllegalPlayError(_("no decision is awaited: deal the next hand"))
        if not isinstance(text, str) or len(text) > 20:
            raise NotationError(_("bad choice {text}: expected a call, a card or a cante")
                                 .format(text=quote(text)))
        choice: str | int | None     # a call, a card, a cante's suit or none
        if turn.kind == "call":
            choice = parse_call(text, "")
        elif turn.kind == "card":
            choice = parse_card(text.rstrip("*"), "")
        elif text.lower() in ("no", ""):
            choice = None
        elif text.lower() in SUIT_LETTERS and len(text) == 1:
            choice = SUIT_LETTERS.index(text.lower())
        else:
            raise IllegalCanteError(_("{text} is not one of your cantes")
                                     .format(text=quote(text)))
        forced = turn.kind == "card" and len(turn.view.legal_cards()) == 1
        reason = self.table.answer(choice)
        if reason is None:
            if forced:
                self._forced(turn.seat)
            self._saved_if_over()
        return reason

    def _saved_if_over(self) -> None:
        t = self.table
        if t.turn is None and len(self.saved) < len(t.records):
            name = f"hand-{self.seed}-{t.k + 1:03d}.txt"
            self.saved.append(self.records.save(self.last_record(), name, t.seat))

    def last_record(self) -> HandRecord:
        """The record of the last hand over, as saved (its takebacks counted)."""
        return dataclasses.replace(self.table.records[-1], takebacks=self.takebacks)

    def restore_hand(self, rec: HandRecord, name: str) -> None:
        """Count the saved hand ``rec`` (saved as ``name``) as the next hand of the match,
        without playing it again (a table rebuilt from its finished hands)."""
        self.table.played(rec)
        self.saved.append(name)

    # --- what the page draws -------------------------------------------------------

    def view(self) -> View | None:
        t = self.table
        if t.turn is not None:
            return t.turn.view
        return View.from_hand(replay(t.records[-1]), t.seat) if t.records else None

    def state(self) -> dict[str, Any]:
        t = self.table
        mine, theirs = t.score()
        state: dict[str, Any] = {
                 "seat": t.seat, "side": str(t.side), "hand": t.k + 1,
                 "log": [e.to_json() for e in self.log],
                 "match": {"you": mine, "them": theirs, "target": t.rules.target,
                           "over": t.over},
                 "records": list(self.saved)}
        view = self.view()
        if view is None:
            return state
        state["seats"] = self.seats(view)
        state["to_play"] = None if t.turn is None else t.turn.seat
        seen, trump = view.seen, view.trump
        state.update(muestra=format_card(view.muestra), trump=SUIT_NAMES[trump],
                     cards=[format_card(c) for c in in_hand_order(
                         [c for c in range(20) if view.held >> c & 1], trump)],
                     contract=view.contract if view.auction_over else None)
        if view.auction_over:
            winners = seen.points_breakdown().trick_winners
            state["tricks"] = [{"cards": [{"seat": s, "card": format_card(c)} for s, c in tr],
                                "winner": w} for tr, w in zip(seen.tricks, winners)]
            state["current"] = [{"seat": s, "card": format_card(c)} for s, c in seen.current]
            pos = view.play_position
            side = int(t.side)
            state["bazas"] = {"you": pos.tricks[side], "them": pos.tricks[1 - side]}
            state["points"] = {"you": pos.points[side], "them": pos.points[1 - side]}
        if t.turn is None:
            result = replay(t.records[-1]).final_result()
            state["result"] = {**result.to_dict(), "yours": result.winner == t.side}
        else:
            state["turn"] = self._turn(t.turn.kind, view)
        return state

    @staticmethod
    def _turn(kind: str, view: View) -> dict[str, Any]:
        """The decision awaited (``kind``: call, cante or card) and its legal choices."""
        if kind == "call":
            return {"kind": "call", "legal": view.legal_calls()}
        if kind == "cante":
            return {"kind": "cante", "legal": [
                {"suit": SUIT_LETTERS[o], "name": SUIT_NAMES[o],
                 "points": cante_points(o, view.trump)} for o in view.cante_options()]}
        legal = in_hand_order(view.legal_cards(), view.trump)
        return {"kind": "card", "legal": [format_card(c) for c in legal],
                "forced": len(legal) == 1}

    def seats(self, view: View) -> list[dict[str, Any]]:
        """Each seat as the page draws it around the table: where it sits from the
        person's chair (``you`` at the bottom, ``right`` the next to play, ``partner``
        across, ``left``), its roles (``mano``, ``dealer``: it holds the muestra,
        ``declarer``, ``out``: it sits this contract out), how many cards it still holds,
        its last call, and the bazas it has taken."""
        over = view.auction_over
        declarer = view.declarer if over else ()
        active = active_seats(declarer)
        winners = view.seen.points_breakdown().trick_winners if over else []
        calls = {e.seat: e.call for e in self.log if isinstance(e, CallEvent)}
        where = ("you", "right", "partner", "left")
        seats = []
        for s in (1, 2, 3, 4):
            roles = (["mano"] if s == 1 else []) + (["dealer"] if s == 4 else []) + \
                (["declarer"] if s in declarer else []) + ([] if active[s - 1] else ["out"])
            seats.append({"seat": s, "where": where[(s - view.seat) % 4], "roles": roles,
                          "held": 5 - sum(1 for p in view.plays if p.seat == s),
                          "call": calls.get(s), "bazas": winners.count(s)})
        return seats

    # --- the hint ------------------------------------------------------------------

    def hint(self, progress: Callable[[int, int], None] | None = None,
             workers: int = 1) -> TableHint:
        """The hint of the person's decision, as ``cuatrola play --hints`` gives it: the
        advice on a call, the value of each card, whether to sing (on ``workers`` threads:
        the same answer on any number)."""
        turn = self.table.turn
        if turn is None:
            raise IllegalPlayError(_("no decision is awaited: nothing to hint"))
        view = turn.view
        seed = view.seed(self.table.hand_seed)
        if turn.kind == "call":
            a = advise(view, Budget(seed=seed, workers=workers), self.models, progress=progress)
            return CallHint(a.advice, a.exact, a.deals, tuple(
                (o.option.bid, o.p_played if o.p_played is not None else o.p_win,
                 o.ev_played if o.p_played is not None else o.ev)
                for o in a.options if o.option.allowed))
        if turn.kind == "card":
            h = hint(view, Budget(seed=seed, workers=workers), self.models, progress=progress)
            return CardsHint(format_card(valued(h.best)), h.exact, h.deals, tuple(
                (format_card(c.card), c.p_win if c.p_played is None else c.p_played)
                for c in h.cards))
        options = [None] + view.cante_options()
        values = cante_values(view, options, samples=CANTE_HINT_SAMPLES, seed=seed)
        best = best_cante(values)
        return CanteHint("no" if best is None else SUIT_LETTERS[best], CANTE_HINT_SAMPLES,
                         tuple(("no" if o is None else SUIT_LETTERS[o], values[o][0])
                               for o in options))
