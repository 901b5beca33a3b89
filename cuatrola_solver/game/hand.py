"""One hand of cuatrola, from the deal to the result, with any set of hands known.

:class:`HandState` is the rules engine: it takes the hands and the muestra, then the
auction (``bid``), the cards (``play``) and the cantes (``sing``) one by one, checking
each against the :class:`~cuatrola_solver.game.rules.RuleSet`.  As in python-chess, a
call, card or cante that cannot be made raises a ``ValueError`` subclass whose message
says why, in players' terms.  A card that *is* held but breaks an obligation is played
and recorded as a :class:`Renuncio`, because that is what happened at the table.

A hand may be unknown (None): the engine then checks everything that can be checked from
the seen side -- a card played twice, a card known to be another seat's (in its known
hand, the muestra, a cante it sang), a cante by a seat that cannot hold the pair -- and
finds the renuncios of a hidden hand that a later card of the same seat proves (a seat
that did not follow, and later plays a card of the suit led:
:func:`~cuatrola_solver.game.play.play_forbidden`).  With every hand known it is the
whole table; with one it is what that seat has seen (:class:`~cuatrola_solver.game.view.View`
is built on it); a record that leaves hands out is replayed the same way
(:func:`cuatrola_solver.notation.replay.replay`).  There is one replay, whatever is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..errors import (IllegalBidError, IllegalCanteError, IllegalPlayError,
                      InconsistentDealError, RecordError, quote)
from ..i18n import _
from .auction import Auction
from .cards import (FULL_DECK, Card, CardMask, cards_of, format_card, format_cards, mask_of,
                    mask_points, suit_of)
from .match import Score, check_score, match_winner
from .play import (SUIT_NAMES, Position, cante_mask, cante_points, cante_refusal,
                   decided_by_tricks, first_leader, legal_mask, outcome, play_card,
                   play_forbidden, renuncio_obligation, side_of, sing, tricks_goal,
                   trick_winner_index)
from .rules import RuleSet, get_rules
from .jsonvalue import JSONObject
from .seats import Seat, Side

__all__ = ["HandState", "Cante", "Play", "Renuncio", "CanteScore", "PointsBreakdown", "Result",
           "check_deal", "check_hands", "Locator"]

#: ``at(*part)``: where a part of what is replayed was written (e.g. ``"game.txt, line 9,
#: column 4: "``), to begin an error message; ``at()`` names the whole
Locator = Callable[..., str]


@dataclass(frozen=True)
class Cante:
    """A cante: ``seat`` sang ``suit`` after trick ``after_trick`` (1-based)."""

    after_trick: int
    seat: Seat
    suit: int

    def to_dict(self) -> JSONObject:
        return {"after_trick": self.after_trick, "seat": self.seat, "suit": "oceb"[self.suit]}


@dataclass(frozen=True)
class Play:
    """``seat`` played ``card`` in trick ``trick`` (1-based) after the cards ``before``
    of that trick."""

    trick: int
    seat: Seat
    card: Card
    before: tuple[Card, ...]


@dataclass(frozen=True)
class Renuncio:
    """A card played against an obligation (docs/rules.md 2): seen at once in a known
    hand, in a hidden one by a later card of the same seat.

    ``legal``: the cards the seat could have played (of a hidden hand: the ones its later
    cards show it held); ``proved_in``: the trick whose card proves it (None when the
    hand was known)."""

    trick: int          # 1-based
    seat: Seat
    card: Card
    obligation: str     # asistir | montar | fallar | montar_el_fallo
    legal: tuple[Card, ...]
    proved_in: int | None = None

    def to_dict(self) -> JSONObject:
        d: JSONObject = {"trick": self.trick, "seat": self.seat, "card": format_card(self.card),
                         "obligation": self.obligation,
                         "legal": [format_card(c) for c in self.legal]}
        if self.proved_in is not None:
            d["proved_in"] = self.proved_in
        return d

    def describe(self) -> str:
        values = dict(trick=self.trick, seat=self.seat, card=format_card(self.card),
                      obligation=self.obligation.replace("_", " "),
                      legal=format_cards(self.legal), proof=self.proved_in)
        if self.proved_in is None:
            return _("trick {trick}: seat {seat} played {card} against {obligation} "
                     "(legal: {legal})").format(**values)
        return _("trick {trick}: seat {seat} played {card} against {obligation}: it held "
                 "{legal}, as its card in trick {proof} proves").format(**values)


@dataclass(frozen=True)
class CanteScore:
    """One cante sung: who, which suit, after which trick, for how many points."""

    seat: int
    suit: int
    after_trick: int
    points: int             # 20 (las veinte) or 40 (las cuarenta, in trumps)

    @property
    def side(self) -> Side:
        return side_of(self.seat)

    def to_dict(self) -> JSONObject:
        return {"seat": self.seat, "side": str(self.side), "suit": "oceb"[self.suit],
                "after_trick": self.after_trick, "points": self.points}

    def describe(self) -> str:
        return (_("seat {seat} ({side}) sang las cuarenta in {suit} after trick {trick}")
                if self.points == 40 else
                _("seat {seat} ({side}) sang las veinte in {suit} after trick {trick}")).format(
            seat=self.seat, side=self.side, suit=SUIT_NAMES[self.suit], trick=self.after_trick)


def _by_side(v: Sequence[int]) -> JSONObject:
    """One figure per side, as JSON: ``{"A": .., "B": ..}``."""
    return {"A": v[0], "B": v[1]}


@dataclass(frozen=True)
class PointsBreakdown:
    """Where each side's points come from: the cards of the bazas it took, the monte
    (the last trick's 10, once trick 5 is played) and the cantes it sang."""

    cards: tuple[int, ...]  # one per side
    monte: tuple[int, ...]  # one per side
    cantes: tuple[CanteScore, ...]
    trick_winners: tuple[int, ...]      # seat that took each complete trick

    @property
    def cante_points(self) -> tuple[int, int]:
        a = sum(k.points for k in self.cantes if k.side is Side.A)
        b = sum(k.points for k in self.cantes if k.side is Side.B)
        return a, b

    @property
    def total(self) -> tuple[int, ...]:
        k = self.cante_points
        return tuple(self.cards[i] + self.monte[i] + k[i] for i in (0, 1))

    def to_dict(self) -> JSONObject:
        return {"cards": _by_side(self.cards), "monte": _by_side(self.monte),
                "cantes": [k.to_dict() for k in self.cantes],
                "cante_points": _by_side(self.cante_points),
                "trick_winners": list(self.trick_winners)}


@dataclass(frozen=True)
class Result:
    winner: Side
    game_points: int        # match points scored by the winner
    points: tuple[int, ...]  # one per side
    tricks: tuple[int, ...]  # one per side
    ended_by: str           # play | renuncio | early_end
    breakdown: PointsBreakdown | None = None
    #: on a tie on points, the rule that decided it: "last_trick" or "mano"
    tie_break: str | None = None
    #: the match score (A-B) before and after the hand, when the record has one
    score_before: Score | None = None
    score_after: Score | None = None
    #: the side that wins the match with this hand
    match_won_by: Side | None = None

    def tie_break_text(self) -> str | None:
        """The tie-break in players' words, e.g. 'a 65-65 tie: side B took the last baza'."""
        if self.tie_break is None:
            return None
        tie = f"a {self.points[0]}-{self.points[1]} tie"
        if self.tie_break == "last_trick":
            return f"{tie}, won by side {self.winner}, which took the last baza"
        return f"{tie}, won by side {self.winner}, the side of the mano (seat 1)"

    def to_dict(self) -> JSONObject:
        return {"winner": str(self.winner), "game_points": self.game_points,
                "points": {"A": self.points[0], "B": self.points[1]},
                "tricks": {"A": self.tricks[0], "B": self.tricks[1]},
                "ended_by": self.ended_by,
                "breakdown": None if self.breakdown is None else self.breakdown.to_dict(),
                "tie_break": self.tie_break,
                "score_before": None if self.score_before is None else self.score_before.to_dict(),
                "score_after": None if self.score_after is None else self.score_after.to_dict(),
                "match_won_by": None if self.match_won_by is None else str(self.match_won_by)}


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


def hand_result(pos: Position, rules: RuleSet, score: Score | None, winner: Side, value: int,
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
        after = Score(before.A + (value if winner is Side.A else 0),
                      before.B + (value if winner is Side.B else 0))
        won = match_winner(rules, after.A, after.B)
    return Result(Side(winner), value, pos.points, pos.tricks, ended_by, breakdown, tie,
                  before, after, won)


def _deal_error(message: str, *part: str | int) -> InconsistentDealError:
    """An InconsistentDealError that knows which part of the deal is wrong: ``("hand",
    seat)`` or ``("muestra",)`` (a key of ``HandRecord.places``), for replay messages."""
    e = InconsistentDealError(message)
    e.part = part
    return e


def check_deal(hands: Sequence[Iterable[Card] | None], muestra: Card) -> tuple[CardMask, ...]:
    """The four hands as masks, after checking that they are a real deal (all given)."""
    masks = []
    seen: dict[int, int] = {}
    if len(hands) != 4:
        raise InconsistentDealError(f"a deal has 4 hands, got {len(hands)}")
    for seat, given in enumerate(hands, 1):
        if given is None:
            raise _deal_error(f"seat {seat}'s hand is not given: a deal has all four hands",
                              "hand", seat)
        hand = list(given)
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


def check_hands(hands: Sequence[Iterable[Card] | None], muestra: Card
                ) -> tuple[CardMask | None, ...]:
    """The four hands as masks (None for an unknown hand), after checking what can be
    checked: a full deal as :func:`check_deal` does; some hands unknown, that the known
    ones hold five cards each, none twice, and the muestra nowhere but in seat 4's."""
    if len(hands) != 4:
        raise InconsistentDealError(f"a deal has 4 hands, got {len(hands)}")
    if all(h is not None for h in hands):
        return check_deal(hands, muestra)
    seen: dict[int, int] = {}
    masks: list[int | None] = []
    for seat, hand in enumerate(hands, 1):
        if hand is None:
            masks.append(None)
            continue
        hand = cards_of(hand) if isinstance(hand, int) else list(hand)
        if len(hand) != 5:
            raise _deal_error(f"seat {seat} holds {len(hand)} card{'' if len(hand) == 1 else 's'} "
                              f"({format_cards(hand)}): expected 5", "hand", seat)
        for c in hand:
            if c in seen:
                raise _deal_error(f"card {quote(format_card(c))} is dealt twice: to seat "
                                  f"{seen[c]} and to seat {seat}", "hand", seat)
            seen[c] = seat
        masks.append(mask_of(hand))
    holder = seen.get(muestra)
    if holder is not None and holder != 4:
        raise _deal_error(f"the muestra {quote(format_card(muestra))} is in seat {holder}'s "
                          f"hand: it belongs to seat 4, the dealer", "hand", holder)
    if masks[3] is not None and not masks[3] >> muestra & 1:
        raise _deal_error(
            f"the muestra {quote(format_card(muestra))} is not in seat 4's hand "
            f"({format_cards(cards_of(masks[3]))}): the dealer keeps it", "muestra")
    return tuple(masks)


class HandState:
    """A hand in progress: auction, then play (with cantes between tricks).

    ``hands[i]`` is seat ``i + 1``'s five dealt cards, or None when it is not known.
    After each step: ``auction``, ``pos`` (the position; an unknown hand shows as no
    cards), ``tricks`` (complete tricks as ``(seat, card)`` from the leader),
    ``current`` (the trick on the table), ``plays`` (every card with its trick context),
    ``cantes`` (in the order sung), ``renuncios`` (in the order played, those of hidden
    hands once a later card proves them) and ``decided_after`` (the trick after which an
    ``early_end`` contract was decided)."""

    def __init__(self, hands: Sequence[Iterable[Card] | None], muestra: Card,
                 rules: RuleSet | None = None, score: Score | None = None) -> None:
        self.rules = rules or get_rules()
        if score is not None:
            check_score(self.rules, score, "the match score")   # no hand after the match
        self.known = check_hands(hands, muestra)
        self.deal = tuple(k or 0 for k in self.known)
        self.muestra = muestra
        self.trump = int(suit_of(muestra))
        self.score = score
        self.auction = Auction(self.rules, score)
        self.pos: Position | None = None
        self.tricks: list[list[tuple[int, int]]] = []   # completed tricks: (seat, card)
        self.current: list[tuple[int, int]] = []
        self.plays: list[Play] = []
        self.cantes: list[Cante] = []
        self.renuncios: list[Renuncio] = []
        self._renuncios_seen: list[Renuncio] = []       # in known hands, as played
        self.decided_after: int | None = None
        #: cards were played after an early_end decision: a renuncio that no known hand
        #: shows let the play go on
        self.played_on = False
        self._played: dict[int, Play] = {}
        self._sung: dict[int, tuple[int, int]] = {}      # card -> (singer, after trick)

    @property
    def complete(self) -> bool:
        """True when every hand is known (the whole table)."""
        return all(k is not None for k in self.known)

    def copy(self) -> "HandState":
        """An independent copy (a search's branch): calls, cards and cantes played on it
        leave this hand as it is.  Cheaper than replaying the history: the immutable
        parts (the rules, the position, the deal, each play) are shared."""
        new = HandState.__new__(HandState)
        new.__dict__.update(self.__dict__)
        new.auction = self.auction.copy()
        new.tricks = list(self.tricks)          # a complete trick is never changed
        for name in ("current", "plays", "cantes", "renuncios", "_renuncios_seen"):
            setattr(new, name, list(getattr(self, name)))
        new._played = dict(self._played)
        new._sung = dict(self._sung)
        return new

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
    def active(self) -> tuple[bool, ...]:
        return self.auction.active

    # --- play -----------------------------------------------------------------
    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or about to be led)."""
        return len(self.tricks) + 1

    @property
    def to_play(self) -> Seat | None:
        if self.pos is None or self.is_over():
            return None
        return self.pos.to_play

    def _require_play(self) -> Position:
        if self.pos is None:
            raise IllegalPlayError("the auction is not over: no card can be played yet")
        return self.pos

    @property
    def play_position(self) -> Position:
        """:attr:`pos` once the auction is over (before: raises IllegalPlayError)."""
        return self._require_play()

    def legal_cards(self) -> list[Card]:
        """The cards the seat on turn may play without renuncio, in canonical order."""
        pos = self._require_play()
        if self.is_over():
            return []
        seat = pos.to_play
        if self.known[seat - 1] is None:
            raise IllegalPlayError(f"seat {seat}'s hand is not known: its legal cards are not")
        r = self.rules
        return cards_of(legal_mask(pos.hand(seat), pos.trick, self.trump,
                                   r.beat_led_after_trump, r.free_when_cannot_overtrump))

    def _holder(self, c: int) -> tuple[int, str] | None:
        """A seat known to hold ``c`` now, and how it is known ("" when in its known hand)."""
        pos = self._require_play()
        for seat, mask in enumerate(self.known, 1):
            if mask is not None and pos.hand(seat) >> c & 1:
                return seat, ""
        if c == self.muestra:
            return 4, "the muestra, which the dealer keeps"
        if c in self._sung:
            singer, after = self._sung[c]
            return singer, f"sung by it after trick {after}"
        return None

    def _refusal(self, c: int) -> str | None:
        """Why the seat on turn cannot play ``c`` (None when it can), in players' terms."""
        pos = self._require_play()
        t = self.trick_number
        card = quote(format_card(c))
        if self.is_over():
            if pos.is_over:
                return f"card {card} in trick {t}: the hand is over after trick 5"
            return (f"card {card} in trick {t}: the hand was decided after trick "
                    f"{self.decided_after} (the {self.contract} ends as soon as the tricks "
                    f"decide it)")
        seat = pos.to_play
        before = self._played.get(c)
        if before is not None:
            return (f"card {card} in trick {t}: seat {before.seat} already played it in "
                    f"trick {before.trick}")
        holder = self._holder(c)
        if holder is not None and holder[0] != seat:
            owner, how = holder
            if not self.active[owner - 1]:
                return f"card {card} in trick {t}: it is seat {owner}'s, who sits out this {self.contract}"
            won = f", who won trick {t - 1}" if t > 1 else ""
            if self.current:
                turn = f"seat {seat} plays next in trick {t} (led by seat {pos.leader}{won})"
            else:
                turn = f"seat {pos.leader} leads trick {t}{won.replace(', who', ': it')}"
            known = f" ({how})" if how else ""
            return f"card {card} in trick {t} is seat {owner}'s{known}, but {turn}"
        hand = pos.hand(seat)
        if self.known[seat - 1] is not None and not hand >> c & 1:
            return (f"card {card} in trick {t} is not in the hand of seat {seat}, on turn "
                    f"(holds {format_cards(cards_of(hand))})")
        return None

    def play(self, c: Card) -> Renuncio | None:
        """Play ``c`` for the seat on turn; returns the renuncio it commits, if any (a
        renuncio of a hidden hand is found when a later card proves it)."""
        pos = self._require_play()
        if self.decided_after is not None and not pos.is_over and not self.complete:
            self.played_on = True            # a renuncio no known hand shows let play go on
        why = self._refusal(c)
        if why is not None:
            raise IllegalPlayError(why)
        seat = pos.to_play
        t = self.trick_number
        renuncio = None
        if self.known[seat - 1] is not None:
            legal = self.legal_cards()
            if c not in legal:
                hand = pos.hand(seat)
                renuncio = Renuncio(t, seat, c, renuncio_obligation(hand, pos.trick,
                                                                    self.trump, c),
                                    tuple(legal))
        play = Play(t, seat, c, tuple(pos.trick))
        self.plays.append(play)
        self._played[c] = play
        self.current.append((seat, c))
        self.pos = play_card(pos, c, self.rules.monte)
        if renuncio is not None:
            self._renuncios_seen.append(renuncio)
            self.renuncios.append(renuncio)
        elif self.known[seat - 1] is None:
            self._prove_renuncios()
        if not self.pos.trick:
            self.tricks.append(self.current)
            self.current = []
            if (self.rules.early_end and self.decided_after is None
                    and decided_by_tricks(self.pos, self.rules)):
                self.decided_after = len(self.tricks)
        return renuncio

    def _prove_renuncios(self) -> None:
        """The renuncios: those seen in known hands, and those of hidden hands that their
        later cards prove -- an earlier card that forbade a card the seat played since
        (docs/rules.md 2), with every card held that the later ones show."""
        r = self.rules
        found = []
        for seat in (1, 2, 3, 4):
            if self.known[seat - 1] is not None:
                continue
            mine = [p for p in self.plays if p.seat == seat]
            for i, p in enumerate(mine):
                forbidden = play_forbidden(p.card, p.before, self.trump, r.beat_led_after_trump,
                                           r.free_when_cannot_overtrump)
                later = [q for q in mine[i + 1:] if forbidden >> q.card & 1]
                if not later:
                    continue
                held = mask_of(q.card for q in later) | 1 << p.card
                legal = legal_mask(held, p.before, self.trump, r.beat_led_after_trump,
                                   r.free_when_cannot_overtrump)
                found.append(Renuncio(p.trick, p.seat, p.card,
                                      renuncio_obligation(held, p.before, self.trump, p.card),
                                      tuple(cards_of(legal)), later[0].trick))
        order = {(p.trick, p.seat): i for i, p in enumerate(self.plays)}
        self.renuncios = sorted(self._renuncios_seen + found,
                                key=lambda x: order[(x.trick, x.seat)])

    # --- cantes ---------------------------------------------------------------
    def cante_refusal(self, seat: Seat, suit: int) -> str | None:
        """Why ``seat`` may not sing ``suit`` now (None when it may); of a hidden seat, as
        far as the seen side can tell: it could hold the pair."""
        pos = self._require_play()
        if self.known[seat - 1] is not None or not pos.in_play(seat):
            return cante_refusal(pos, self.rules, seat, suit)
        need = cante_mask(suit)
        gone = [p for p in self.plays if need >> p.card & 1]
        if gone:
            p = gone[0]
            return f"seat {p.seat} played {format_card(p.card)} in trick {p.trick}"
        for c in cards_of(need):
            holder = self._holder(c)
            if holder is not None and holder[0] != seat:
                how = f" ({holder[1]})" if holder[1] else " (in its hand)"
                return f"{format_card(c)} is seat {holder[0]}'s card{how}"
        hands = list(pos.hands)
        hands[seat - 1] |= need              # it could hold them: the rest of the rules
        return cante_refusal(pos.with_changes(hands=tuple(hands)), self.rules, seat, suit)

    def sing(self, seat: Seat, suit: int) -> Cante:
        """``seat`` sings ``suit`` now, between tricks; raises IllegalCanteError if refused."""
        pos = self._require_play()
        reason = self.cante_refusal(seat, suit)
        if reason is not None:
            raise IllegalCanteError(f"seat {seat} may not sing {SUIT_NAMES[suit]} after trick "
                                    f"{len(self.tricks)}: {reason}")
        self.pos = sing(pos, side_of(seat), suit)
        cante = Cante(len(self.tricks), seat, suit)
        self.cantes.append(cante)
        for c in cards_of(cante_mask(suit)):
            self._sung[c] = (seat, cante.after_trick)
        return cante

    # --- the end --------------------------------------------------------------
    def is_over(self) -> bool:
        """True after trick 5, or once an early_end contract is decided (without renuncio:
        play that went on after the decision shows there was one, seen or not)."""
        if self.pos is None:
            return False
        return self.pos.is_over or (self.decided_after is not None and not self.renuncios
                                    and not self.played_on)

    def points_breakdown(self) -> PointsBreakdown:
        """Each side's points so far, split into cards, monte and cantes."""
        return points_breakdown(self.tricks, self.cantes, self.trump, self.rules.monte)

    def _result(self, winner: Side, value: int, ended_by: str) -> Result:
        return hand_result(self._require_play(), self.rules, self.score, winner, value, ended_by,
                           self.points_breakdown())

    def final_result(self) -> Result:
        """:meth:`result` of a decided hand (raises IllegalPlayError while undecided)."""
        result = self.result()
        if result is None:
            raise IllegalPlayError("the hand is not decided yet: it has no result")
        return result

    def result(self) -> Result | None:
        """The hand's result, or None while it is undecided (docs/rules.md 4, 6, 8.5, 8.6):
        the first renuncio decides it, with the preset's penalty."""
        pos = self.pos
        if pos is None:
            return None
        if self.renuncios:
            first = self.renuncios[0]
            winner = side_of(first.seat).other    # contrasolo's lone players sit on two sides
            return self._result(winner, self.rules.renuncio_value(pos.contract), "renuncio")
        if pos.is_over or self.decided_after is not None:
            winner, value = outcome(pos, self.rules)
            return self._result(winner, value, "play" if pos.is_over else "early_end")
        return None

    # --- replaying what was written down -----------------------------------------------
    def replay(self, calls: Sequence[str] | None, tricks: Sequence[Sequence[int]] = (),
               cantes: Sequence[Cante] = (), *, at: Locator | None = None,
               complete_auction: bool = True) -> "HandState":
        """Play the calls, the tricks (each from its leader; the last may be incomplete)
        and the cantes (each after its trick) into this hand, checking each; returns the
        hand.  ``calls`` None means all passed.  With ``complete_auction`` False the calls
        may stop before the fourth (a seat's view during the auction).  Every error is a
        :class:`~cuatrola_solver.errors.RecordError` that says where: ``at(*part)`` begins
        its message (a record's file, line and column, or field: the parts are the keys
        of :attr:`HandRecord.places <cuatrola_solver.notation.record.HandRecord.places>`)
        and then why, in players' terms."""
        at = at or (lambda *part: "")
        if calls is None and complete_auction:
            calls = ["paso"] * 4
        calls = list(calls or ())
        if len(calls) > 4 and not complete_auction:     # a view: the calls may stop early
            raise RecordError(f"{at('auction')}the auction has {len(calls)} calls: there are "
                              f"four at most, one per seat from seat 1")
        if complete_auction and len(calls) != 4:
            raise RecordError(f"{at('auction')}the auction has {len(calls)} "
                              f"call{'' if len(calls) == 1 else 's'}: expected 4 (one per "
                              f"seat) or none (all passed)")
        for i, call in enumerate(calls, 1):
            try:
                self.bid(call)
            except IllegalBidError as e:
                raise RecordError(f"{at('call', i)}auction, call {i} ({quote(call)}): {e}") \
                    from None
        if self.pos is None and (tricks or cantes):
            raise RecordError(f"{at()}{'cards are played' if tricks else 'a cante is recorded'}, "
                              f"but the auction has only {len(calls)} "
                              f"call{'' if len(calls) == 1 else 's'} of 4")
        # cantes in the order of their tricks; i: the cante's place in the record
        order = sorted(enumerate(cantes), key=lambda ik: ik[1].after_trick)
        for i, k in order:
            if not 1 <= k.after_trick <= 4:
                raise RecordError(f"{at('cante', i)}cante of seat {k.seat} after trick "
                                  f"{k.after_trick}: cantes are declared after tricks 1 to 4")
        for t, trick in enumerate(tricks, 1):
            seats = sum(self.active)
            if len(trick) > seats and not self.is_over():
                nxt = (f"; card {seats + 1} ({quote(format_card(trick[seats]))}) belongs to "
                       f"the next trick, which begins with its number ('{t + 1}.')"
                       if t < 5 else "")
                raise RecordError(f"{at('card', t, seats + 1)}trick {t} has {len(trick)} cards: "
                                  f"expected {seats}, one per seat in play{nxt}")
            if t < len(tricks) and len(trick) < seats:
                raise RecordError(f"{at('trick', t)}trick {t} has {len(trick)} "
                                  f"card{'' if len(trick) == 1 else 's'}: expected {seats}, "
                                  f"one per seat in play (only the last trick of a record "
                                  f"may be incomplete)")
            for j, c in enumerate(trick, 1):
                try:
                    self.play(c)
                except IllegalPlayError as e:
                    hint = ("; a trick is written from its leader, in playing order"
                            if ", but seat " in str(e) else "")
                    raise RecordError(f"{at('card', t, j)}{e}{hint}") from None
            if len(self.tricks) == t:
                for i, k in order:
                    if k.after_trick == t:
                        try:
                            self.sing(k.seat, k.suit)
                        except IllegalCanteError as e:
                            raise RecordError(f"{at('cante', i)}{e}") from None
        late = [(i, k) for i, k in order if k.after_trick > len(self.tricks)]
        if late:
            i, k = late[0]
            done = len(self.tricks)
            raise RecordError(f"{at('cante', i)}cante of seat {k.seat} after trick "
                              f"{k.after_trick}, but the record has only {done} complete "
                              f"trick{'' if done == 1 else 's'}")
        return self


#: the rules engine's name before 0.3, when "hand" also meant a seat's cards
#: (docs/architecture.md, "One word per concept"); kept so that code written for it runs
Hand = HandState
