"""One hand of cuatrola, from the deal to the result.

:class:`Hand` is the rules engine: it takes the deal and the muestra, then the
auction (``bid``), the cards (``play``) and the cantes (``sing``) one by one,
checking each against the :class:`~cuatrola_solver.rules.RuleSet`.  As in
python-chess, a call or cante that cannot be made raises a ``ValueError``
subclass whose message says why.  A card not in the hand of the seat on turn is
refused too; a card that *is* held but breaks an obligation is played and
recorded as a :class:`Renuncio`, because that is what happened at the table.

``Hand.from_record`` replays a :class:`~cuatrola_solver.record.HandRecord`;
``Hand.to_record`` writes one back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from .auction import Auction
from .cards import (FULL_DECK, cards_of, format_card, format_cards, mask_of, mask_points, suit_of)
from ..errors import (CuatrolaError, IllegalBidError, IllegalCanteError, IllegalPlayError, InconsistentDealError, RecordError, quote)
from .match import Score, match_winner
from .play import (SIDE_NAMES, SUIT_NAMES, Position, cante_points, cante_refusal, decided_by_tricks, first_leader, legal_mask, outcome, play_card, renuncio_obligation, side_of, sing, tricks_goal, trick_winner_index)
from ..notation.record import Cante, HandRecord
from .rules import RuleSet, get_rules


@dataclass(frozen=True)
class Renuncio:
    """A card played against an obligation (RULES.md section 2)."""

    trick: int          # 1-based
    seat: int
    card: int
    obligation: str     # asistir | montar | fallar | montar_el_fallo
    legal: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"trick": self.trick, "seat": self.seat, "card": format_card(self.card),
                "obligation": self.obligation, "legal": [format_card(c) for c in self.legal]}

    def describe(self) -> str:
        return (f"trick {self.trick}: seat {self.seat} played {format_card(self.card)} "
                f"against {self.obligation.replace('_', ' ')} (legal: {format_cards(self.legal)})")


@dataclass(frozen=True)
class CanteScore:
    """One cante sung: who, which suit, after which trick, for how many points."""

    seat: int
    suit: int
    after_trick: int
    points: int             # 20 (las veinte) or 40 (las cuarenta, in trumps)

    @property
    def side(self) -> str:
        return SIDE_NAMES[side_of(self.seat)]

    def to_dict(self) -> dict:
        return {"seat": self.seat, "side": self.side, "suit": "oceb"[self.suit],
                "after_trick": self.after_trick, "points": self.points}

    def describe(self) -> str:
        what = "las cuarenta" if self.points == 40 else "las veinte"
        return (f"seat {self.seat} ({self.side}) sang {what} in {SUIT_NAMES[self.suit]} "
                f"after trick {self.after_trick}")


@dataclass(frozen=True)
class PointsBreakdown:
    """Where each side's points come from: the cards of the bazas it took, the monte
    (the last trick's 10, once trick 5 is played) and the cantes it sang."""

    cards: tuple[int, int]
    monte: tuple[int, int]
    cantes: tuple[CanteScore, ...]
    trick_winners: tuple[int, ...]      # seat that took each complete trick

    @property
    def cante_points(self) -> tuple[int, int]:
        a = sum(k.points for k in self.cantes if k.side == "A")
        b = sum(k.points for k in self.cantes if k.side == "B")
        return a, b

    @property
    def total(self) -> tuple[int, int]:
        k = self.cante_points
        return tuple(self.cards[i] + self.monte[i] + k[i] for i in (0, 1))

    def to_dict(self) -> dict:
        ab = lambda v: {"A": v[0], "B": v[1]}  # noqa: E731
        return {"cards": ab(self.cards), "monte": ab(self.monte),
                "cantes": [k.to_dict() for k in self.cantes],
                "cante_points": ab(self.cante_points),
                "trick_winners": list(self.trick_winners)}


@dataclass(frozen=True)
class Result:
    winner: str             # "A" or "B"
    game_points: int        # match points scored by the winner
    points: tuple[int, int]
    tricks: tuple[int, int]
    ended_by: str           # play | renuncio | early_end
    breakdown: PointsBreakdown | None = None
    #: on a tie on points, the rule that decided it: "last_trick" or "mano"
    tie_break: str | None = None
    #: the match score (A-B) before and after the hand, when the record has one
    score_before: Score | None = None
    score_after: Score | None = None
    #: "A"/"B" when this hand wins the match
    match_won_by: str | None = None

    def tie_break_text(self) -> str | None:
        """The tie-break in players' words, e.g. 'a 65-65 tie: side B took the last baza'."""
        if self.tie_break is None:
            return None
        tie = f"a {self.points[0]}-{self.points[1]} tie"
        if self.tie_break == "last_trick":
            return f"{tie}, won by side {self.winner}, which took the last baza"
        return f"{tie}, won by side {self.winner}, the side of the mano (seat 1)"

    def to_dict(self) -> dict:
        return {"winner": self.winner, "game_points": self.game_points,
                "points": {"A": self.points[0], "B": self.points[1]},
                "tricks": {"A": self.tricks[0], "B": self.tricks[1]},
                "ended_by": self.ended_by,
                "breakdown": None if self.breakdown is None else self.breakdown.to_dict(),
                "tie_break": self.tie_break,
                "score_before": None if self.score_before is None else self.score_before.to_dict(),
                "score_after": None if self.score_after is None else self.score_after.to_dict(),
                "match_won_by": self.match_won_by}


def points_breakdown(tricks: Sequence[Sequence[tuple[int, int]]], cantes: Sequence[Cante],
                     trump: int, monte: int) -> PointsBreakdown:
    """Each side's points from the complete tricks (``(seat, card)`` from the leader) and
    the cantes: cards, monte and cantes.  All of it is public: a seat's view has it too."""
    cards = [0, 0]
    mont = [0, 0]
    winners = []
    for i, trick in enumerate(tricks):
        seats = [s for s, _ in trick]
        played = [c for _, c in trick]
        winner = seats[trick_winner_index(played, trump)]
        winners.append(winner)
        cards[side_of(winner)] += mask_points(sum(1 << c for c in played))
        if i == 4:
            mont[side_of(winner)] += monte
    scored = tuple(CanteScore(k.seat, k.suit, k.after_trick, cante_points(k.suit, trump))
                   for k in cantes)
    return PointsBreakdown(tuple(cards), tuple(mont), scored, tuple(winners))


def hand_result(pos: Position, rules: RuleSet, score: Score | None, winner: int, value: int,
                ended_by: str, breakdown: PointsBreakdown) -> Result:
    """The :class:`Result` of a decided hand: the tie-break named on a tie on points, and
    the match score before and after when it is known."""
    tie = None
    if (ended_by != "renuncio" and tricks_goal(pos.contract, rules) is None
            and pos.points[0] == pos.points[1]):
        tie = rules.tie_break
    before = after = won = None
    if score is not None:
        before = score
        after = Score(before.A + (value if winner == 0 else 0),
                      before.B + (value if winner == 1 else 0))
        won = match_winner(rules, after.A, after.B)
    return Result(SIDE_NAMES[winner], value, pos.points, pos.tricks, ended_by, breakdown, tie,
                  before, after, won)


def _deal_error(message: str, *part) -> InconsistentDealError:
    """An InconsistentDealError that knows which part of the deal is wrong: ``("hand",
    seat)`` or ``("muestra",)`` (a key of ``HandRecord.places``), for replay messages."""
    e = InconsistentDealError(message)
    e.part = part
    return e


def check_deal(hands: Sequence[Iterable[int]], muestra: int) -> tuple[int, int, int, int]:
    """The four hands as masks, after checking that they are a real deal."""
    masks = []
    seen: dict[int, int] = {}
    if len(hands) != 4:
        raise InconsistentDealError(f"a deal has 4 hands, got {len(hands)}")
    for seat, hand in enumerate(hands, 1):
        hand = list(hand)
        if len(hand) != 5:
            raise _deal_error(
                f"seat {seat} holds {len(hand)} cards ({format_cards(hand)}): expected 5",
                "hand", seat)
        for c in hand:
            if c in seen:
                raise _deal_error(f"card {quote(format_card(c))} is dealt twice: to seat "
                                  f"{seen[c]} and to seat {seat}", "hand", seat)
            seen[c] = seat
        masks.append(mask_of(hand))
    missing = FULL_DECK & ~sum(masks)
    if missing:  # cannot happen with 20 distinct cards, kept for clarity
        raise InconsistentDealError(f"cards missing from the deal: {format_cards(cards_of(missing))}")
    if not masks[3] >> muestra & 1:
        raise _deal_error(
            f"the muestra {quote(format_card(muestra))} is not in seat 4's hand "
            f"({format_cards(cards_of(masks[3]))}): the dealer keeps it", "muestra")
    return tuple(masks)


class Hand:
    """A hand in progress: auction, then play (with cantes between tricks)."""

    def __init__(self, hands: Sequence[Iterable[int]], muestra: int,
                 rules: RuleSet | None = None, score: Score | None = None) -> None:
        self.rules = rules or get_rules()
        self.deal = check_deal(hands, muestra)
        self.muestra = muestra
        self.trump = int(suit_of(muestra))
        self.score = score
        self.auction = Auction(self.rules, score)
        self.pos: Position | None = None
        self.tricks: list[list[tuple[int, int]]] = []   # completed tricks: (seat, card)
        self.current: list[tuple[int, int]] = []
        self.cantes: list[Cante] = []
        self.renuncios: list[Renuncio] = []

    # --- the auction ----------------------------------------------------------
    def bid(self, call: str) -> None:
        self.auction.call(call)
        if self.auction.is_complete:
            self._start_play()

    def legal_calls(self) -> list[str]:
        return self.auction.legal_calls()

    def pass_all(self) -> None:
        while not self.auction.is_complete:
            self.bid("paso")

    def _start_play(self) -> None:
        active = self.auction.active
        self.pos = Position(trump=self.trump, hands=self.deal, active=active,
                            contract=self.auction.contract, declarer=self.auction.declarer,
                            leader=first_leader(active))

    @property
    def contract(self) -> str:
        return self.auction.contract

    @property
    def declarer(self) -> tuple[int, ...]:
        return self.auction.declarer

    @property
    def active(self) -> tuple[bool, bool, bool, bool]:
        return self.auction.active

    # --- play -----------------------------------------------------------------
    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or about to be led)."""
        return len(self.tricks) + 1

    @property
    def to_play(self) -> int | None:
        if self.pos is None or self.is_over():
            return None
        return self.pos.to_play

    def _require_play(self) -> Position:
        if self.pos is None:
            raise IllegalPlayError("the auction is not over: no card can be played yet")
        return self.pos

    def legal_cards(self) -> list[int]:
        """The cards the seat on turn may play without renuncio, in canonical order."""
        pos = self._require_play()
        if self.is_over():
            return []
        r = self.rules
        return cards_of(legal_mask(pos.hands[pos.to_play - 1], pos.trick, self.trump,
                                   r.beat_led_after_trump, r.free_when_cannot_overtrump))

    def play(self, c: int) -> Renuncio | None:
        """Play ``c`` for the seat on turn; returns the renuncio it commits, if any."""
        pos = self._require_play()
        if self.is_over():
            raise IllegalPlayError(f"card {quote(format_card(c))} played after the hand is over")
        seat = pos.to_play
        hand = pos.hands[seat - 1]
        if not hand >> c & 1:
            raise IllegalPlayError(
                f"card {quote(format_card(c))} in trick {self.trick_number} is not in the hand of "
                f"seat {seat}, on turn (holds {format_cards(cards_of(hand))})")
        renuncio = None
        legal = self.legal_cards()
        if c not in legal:
            renuncio = Renuncio(self.trick_number, seat, c,
                                renuncio_obligation(hand, pos.trick, self.trump, c), tuple(legal))
            self.renuncios.append(renuncio)
        self.current.append((seat, c))
        self.pos = play_card(pos, c, self.rules.monte)
        if not self.pos.trick:
            self.tricks.append(self.current)
            self.current = []
        return renuncio

    # --- cantes ---------------------------------------------------------------
    def cante_refusal(self, seat: int, suit: int) -> str | None:
        return cante_refusal(self._require_play(), self.rules, seat, suit)

    def sing(self, seat: int, suit: int) -> Cante:
        """``seat`` sings ``suit`` now, between tricks; raises IllegalCanteError if refused."""
        pos = self._require_play()
        reason = cante_refusal(pos, self.rules, seat, suit)
        if reason is not None:
            raise IllegalCanteError(f"seat {seat} may not sing {SUIT_NAMES[suit]} after trick "
                                    f"{len(self.tricks)}: {reason}")
        self.pos = sing(pos, side_of(seat), suit)
        cante = Cante(len(self.tricks), seat, suit)
        self.cantes.append(cante)
        return cante

    # --- the end --------------------------------------------------------------
    def _early_ended(self) -> bool:
        return (self.pos is not None and self.rules.early_end and not self.pos.trick
                and decided_by_tricks(self.pos, self.rules))

    def is_over(self) -> bool:
        """True after trick 5, or once an early_end contract is decided (without renuncio)."""
        if self.pos is None:
            return False
        if self.pos.is_over:
            return True
        return self._early_ended() and not self.renuncios

    def points_breakdown(self) -> PointsBreakdown:
        """Each side's points so far, split into cards, monte and cantes."""
        return points_breakdown(self.tricks, self.cantes, self.trump, self.rules.monte)

    def _result(self, winner: int, value: int, ended_by: str) -> Result:
        return hand_result(self.pos, self.rules, self.score, winner, value, ended_by,
                           self.points_breakdown())

    def result(self) -> Result | None:
        """The hand's result, or None while it is undecided (RULES.md 4, 6, 8.5, 8.6)."""
        pos = self.pos
        if pos is None:
            return None
        if self.renuncios:
            first = self.renuncios[0]
            winner = 1 - side_of(first.seat)
            return self._result(winner, self.rules.renuncio_value(pos.contract), "renuncio")
        if pos.is_over:
            winner, value = outcome(pos, self.rules)
            return self._result(winner, value, "play")
        if self._early_ended():
            winner, value = outcome(pos, self.rules)
            return self._result(winner, value, "early_end")
        return None

    # --- records --------------------------------------------------------------
    @classmethod
    def from_record(cls, rec) -> "Hand":
        """Replay a :class:`~cuatrola_solver.record.HandRecord`; errors say where (the
        record's name, then line and column or the JSON field) and why, in players' terms."""
        at = rec.at if isinstance(rec, HandRecord) else (lambda *key: "")
        if not rec.complete:
            unknown = rec.unknown_seats
            raise RecordError(
                f"{at()}the hand{'s' if len(unknown) > 1 else ''} of seat{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(str, unknown))} {'are' if len(unknown) > 1 else 'is'} unknown: "
                f"this needs the whole deal (check and hint read such records)")
        try:
            hand = cls(rec.hands, rec.muestra, rec.rules, rec.score)
        except CuatrolaError as e:
            raise RecordError(f"{at(*getattr(e, 'part', ()))}bad deal: {e}") from None
        calls = ["paso"] * 4 if rec.auction is None else rec.auction
        if len(calls) != 4:
            raise RecordError(f"{at('auction')}the auction has {len(calls)} calls: expected 4 "
                              f"(one per seat) or none (all passed)")
        for i, call in enumerate(calls, 1):
            try:
                hand.bid(call)
            except IllegalBidError as e:
                raise RecordError(f"{at('call', i)}auction, call {i} ({quote(call)}): {e}") from None
        # cantes in the order of their tricks; i: the cante's place in the record
        cantes = sorted(enumerate(rec.cantes), key=lambda ik: ik[1].after_trick)
        for i, k in cantes:
            if not 1 <= k.after_trick <= 4:
                raise RecordError(f"{at('cante', i)}cante of seat {k.seat} after trick "
                                  f"{k.after_trick}: cantes are declared after tricks 1 to 4")
        for t, trick in enumerate(rec.tricks, 1):
            seats = sum(hand.active)
            if len(trick) > seats and not hand.is_over():
                raise RecordError(
                    f"{at('card', t, seats + 1)}trick {t} has {len(trick)} cards: expected "
                    f"{seats}, one per seat in play; card {seats + 1} "
                    f"({quote(format_card(trick[seats]))}) belongs to the next trick, which "
                    f"begins with its number ('{t + 1}.')")
            if t < len(rec.tricks) and len(trick) < seats:
                raise RecordError(f"{at('trick', t)}trick {t} has {len(trick)} cards: expected "
                                  f"{seats}, one per seat in play (only the last "
                                  f"trick of a record may be incomplete)")
            for j, c in enumerate(trick, 1):
                why = hand._replay_refusal(c, t)
                if why is not None:
                    raise RecordError(f"{at('card', t, j)}{why}")
                try:
                    hand.play(c)
                except IllegalPlayError as e:
                    raise RecordError(f"{at('card', t, j)}trick {t}, card {j}: {e}") from None
            if len(hand.tricks) == t:
                for i, k in cantes:
                    if k.after_trick == t:
                        try:
                            hand.sing(k.seat, k.suit)
                        except IllegalCanteError as e:
                            raise RecordError(f"{at('cante', i)}cante after trick {t}: {e}") from None
        late = [(i, k) for i, k in cantes if k.after_trick > len(hand.tricks)]
        if late:
            i, k = late[0]
            raise RecordError(f"{at('cante', i)}cante of seat {k.seat} after trick "
                              f"{k.after_trick}, but the record has only {len(hand.tricks)} "
                              f"complete tricks")
        return hand

    def _replay_refusal(self, c: int, t: int) -> str | None:
        """Why card ``c``, the next card of trick ``t`` in a record, cannot be played, in
        players' terms (None if it can, or for the reasons ``play`` gives itself)."""
        card = quote(format_card(c))
        pos = self.pos
        if pos is None:
            return None
        if self.is_over():
            done = len(self.tricks)
            if done == 5:
                return f"card {card} in trick {t}: the hand is over after trick 5"
            return (f"card {card} in trick {t}: the hand was decided after trick {done} "
                    f"(the {self.contract} ends as soon as the tricks decide it)")
        seat = pos.to_play
        if pos.hands[seat - 1] >> c & 1:
            return None
        for n, played in enumerate(self.tricks + [self.current], 1):
            for who, d in played:
                if d == c:
                    return (f"card {card} in trick {t}: seat {who} already played it in "
                            f"trick {n}")
        owner = next(s for s in (1, 2, 3, 4) if self.deal[s - 1] >> c & 1)
        if not self.active[owner - 1]:
            return (f"card {card} in trick {t}: it is seat {owner}'s, who sits out this "
                    f"{self.contract}")
        won = f", who won trick {t - 1}" if t > 1 else ""
        if self.current:
            turn = f"seat {seat} plays next in trick {t} (led by seat {pos.leader}{won})"
        else:
            turn = f"seat {pos.leader} leads trick {t}{won.replace(', who', ': it')}"
        return (f"card {card} in trick {t} is seat {owner}'s, but {turn}; a trick is written "
                f"from its leader, in playing order")

    def to_record(self) -> HandRecord:
        hands = [cards_of(m) for m in self.deal]
        return HandRecord(rules=self.rules, muestra=self.muestra, hands=hands,
                          auction=list(self.auction.calls) if self.auction.calls else None,
                          tricks=[[c for _, c in t] for t in self.tricks]
                          + ([[c for _, c in self.current]] if self.current else []),
                          cantes=list(self.cantes), score=self.score)


def replay_cards(rec: HandRecord) -> Iterator[tuple[int, int, Hand, int]]:
    """Yield ``(trick, position, hand, card)`` before each card of a record that
    :meth:`Hand.from_record` has already checked, replaying it the same way: ``hand`` is
    one :class:`Hand`, advanced after each yield (copy it to keep a position)."""
    hand = Hand(rec.hands, rec.muestra, rec.rules, rec.score)
    for call in (["paso"] * 4 if rec.auction is None else rec.auction):
        hand.bid(call)
    cantes = sorted(rec.cantes, key=lambda k: k.after_trick)
    for t, trick in enumerate(rec.tricks, 1):
        for j, c in enumerate(trick, 1):
            yield t, j, hand, c
            hand.play(c)
        if len(hand.tricks) == t:
            for k in cantes:
                if k.after_trick == t:
                    hand.sing(k.seat, k.suit)
