"""A person at the table: one seat played by a person against three bots, hand after
hand, one decision at a time.

:class:`Table` runs the hands of :func:`~cuatrola_solver.bots.playout.hand_turns` (the
deals of :func:`~cuatrola_solver.bots.playout.hand_deal`, as :func:`~cuatrola_solver.
bots.playout.iter_match` deals them): the bots answer their own turns, and the table
stops at each of the person's with :attr:`Table.turn`, the person's view, until
:meth:`Table.answer` is given an allowed choice.  In a match everyone moves one seat
on after each hand (:func:`~cuatrola_solver.bots.playout.seat_of`), so the person's seat
and side change while their pair stays the same.  ``cuatrola play`` asks the person on
the terminal, ``cuatrola serve`` in the browser; both say a refused card the same way
(:func:`card_refusal`)."""

from __future__ import annotations

from typing import Generator, Iterable, Sequence

from ..errors import CuatrolaError, IllegalPlayError
from ..game.cards import Card, format_card, suit_of
from ..game.match import Match
from ..game.play import renuncio_obligation, side_of
from ..game.rules import RuleSet, get_rules
from ..game.seats import Seat, Side, check_seat
from ..game.view import View
from ..i18n import N_, _
from ..notation.record import HandRecord
from ..notation.replay import replay
from .playout import (Answer, Observer, Player, Turn, check_match_length, decide, hand_deal,
                      hand_turns, seat_of)

__all__ = ["Table", "card_refusal", "in_hand_order", "OBLIGATION_WORDS"]

#: each obligation of play as a person is told they would break it
OBLIGATION_WORDS = {
    "asistir": N_("you must follow the suit led (asistir)"),
    "montar": N_("you must play higher than the best card of the suit led (montar)"),
    "fallar": N_("void in the suit led, you must trump (fallar)"),
    "montar_el_fallo": N_("you must over-trump the trump in the trick (montar el fallo)"),
}


def in_hand_order(cards: Iterable[Card], trump: int) -> list[Card]:
    """A person's cards as the table shows them: trumps first, then oros, copas,
    espadas, bastos, the strongest first within a suit (as 3 R C S)."""
    return sorted(cards, key=lambda c: (suit_of(c) != trump, suit_of(c), -c))


def card_refusal(view: View, card: Card) -> str | None:
    """Why the seat of ``view`` may not play ``card`` now, said to the person: ``you do
    not hold Ao``, ``Rc would be a renuncio: you must follow the suit led (asistir)``;
    None when it may."""
    if not view.held >> card & 1:
        return _("you do not hold {card}").format(card=format_card(card))
    if card in view.legal_cards():
        return None
    why = renuncio_obligation(view.held, view.play_position.trick, view.trump, card)
    return _("{card} would be a renuncio: {obligation}").format(
        card=format_card(card), obligation=_(OBLIGATION_WORDS[why]))


class Table:
    """The person at seat ``seat`` (of the first hand) against ``bots``, the three other
    players in seat order; one hand, or a whole match when ``match``.  Hand ``k`` is
    dealt and its choices seeded by :func:`hand_deal` from ``seed``.

    :meth:`deal` starts the next hand; then :attr:`turn` is the person's decision
    awaited (None once the hand is over, its record last in :attr:`records`) and
    :meth:`answer` gives it.  ``observe`` sees every call, cante and card as
    :func:`~cuatrola_solver.bots.playout.hand_turns` says them."""

    def __init__(self, bots: Sequence[Player], seat: Seat, rules: RuleSet | str | None = None,
                 seed: int = 0, match: bool = False, observe: Observer | None = None) -> None:
        check_seat(seat)
        if len(bots) != 3:
            raise CuatrolaError(_("a table needs 3 bots beside the person, got {bots}")
                                 .format(bots=len(bots)))
        self.bots = list(bots)
        self.first_seat = seat
        self.rules = get_rules(rules)
        self.seed = seed
        self.is_match = match
        self.observe = observe
        self.match = Match(self.rules)
        #: the hand being played, or the last one played (0-based); -1 before the first
        self.k = -1
        #: the seed of the choices of the hand being played
        self.hand_seed = 0
        #: the person's decision awaited, None between hands
        self.turn: Turn | None = None
        self.records: list[HandRecord] = []
        self._turns: Generator[Turn, Answer, HandRecord] | None = None

    @property
    def seat(self) -> Seat:
        """The person's seat in this hand."""
        return seat_of(self.first_seat, max(self.k, 0))

    @property
    def side(self) -> Side:
        """The person's side in this hand (it changes between hands of a match)."""
        return side_of(self.seat)

    def score(self) -> tuple[int, int]:
        """The match points of the person's pair and of the other pair, after the hands
        played."""
        mine = side_of(self.first_seat)           # pair 0 is side A of the first hand
        return self.match.points[mine], self.match.points[1 - mine]

    def player_at(self, seat: Seat) -> Player | None:
        """The bot at ``seat`` in this hand; None for the person's seat."""
        if seat == self.seat:
            return None
        return self._bot_at(seat)

    def _bot_at(self, seat: Seat) -> Player:
        """The bot at ``seat`` (not the person's) in this hand."""
        first = seat_of(seat, -max(self.k, 0))   # that player's seat in the first hand
        return self.bots[first - 1 - (first > self.first_seat)]

    @property
    def over(self) -> bool:
        """Whether no hand is left to deal: the one hand played, or the match won."""
        if self.turn is not None:
            return False
        return (bool(self.records) if not self.is_match
                else self.match.winner() is not None)

    def deal(self) -> None:
        """Start the next hand and play it up to the person's first decision."""
        if self.turn is not None:
            raise IllegalPlayError(_("the hand being played is not over"))
        if self.over:
            raise IllegalPlayError(_("the game is over: no hand is left to deal"))
        check_match_length(self.match)
        self.k = self.match.hands_played
        deal, self.hand_seed = hand_deal(self.seed, self.k)
        score = self.match.score() if self.is_match else None     # one hand: no match score
        self._turns = hand_turns(deal, self.rules, score, self.observe)
        self._advance(None, first=True)

    def played(self, rec: HandRecord) -> None:
        """Count ``rec`` as the next hand of the match, played as it was saved (a table
        rebuilt from its finished hands without playing them again); refused unless
        ``rec`` holds that hand's deal."""
        if self.turn is not None:
            raise IllegalPlayError(_("the hand being played is not over"))
        if self.over:
            raise IllegalPlayError(_("the game is over: no hand is left to deal"))
        k = self.match.hands_played
        (hands, muestra), _turns = hand_deal(self.seed, k)
        if rec.muestra != muestra or [sorted(h or ()) for h in rec.hands] != hands:
            raise IllegalPlayError(_("the saved hand {value} is not the deal of hand {value} "
                                     "of this match")
                                    .format(value=k + 1))
        self.k = k
        result = replay(rec).final_result()
        self.match.record_hand(result.winner, result.game_points)
        self.records.append(rec)

    def answer(self, choice: Answer) -> str | None:
        """Give the person's ``choice`` for :attr:`turn`: None when taken (the bots then
        play on to the person's next decision or the end of the hand), else why the
        rules refuse it (the turn is still awaited)."""
        if self.turn is None:
            raise IllegalPlayError(_("no decision is awaited: deal the next hand"))
        if self.turn.kind == "card":
            assert isinstance(choice, int), "a card is answered with a card"
            reason = card_refusal(self.turn.view, choice)
        else:
            reason = self.turn.refusal(choice)
        if reason is not None:
            return reason
        self._advance(choice)
        return None

    def _advance(self, choice: Answer, first: bool = False) -> None:
        turns = self._turns
        assert turns is not None, "deal() starts the hand's turns"
        try:
            turn = next(turns) if first else turns.send(choice)
            while turn.seat != self.seat:
                turn = turns.send(decide(self._bot_at(turn.seat), turn, self.hand_seed))
        except StopIteration as stop:
            self.turn = None
            rec: HandRecord = stop.value
            result = replay(rec).final_result()
            self.match.record_hand(result.winner, result.game_points)
            self.records.append(rec)
            return
        self.turn = turn
