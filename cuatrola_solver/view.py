"""A seat's view: exactly what one seat knows of a hand, and the play as seen.

A :class:`View` is one seat's information state (OpenSpiel's observer): its five
cards, the muestra, its seat, the rules and the match score, the calls, every card
played so far in order (who played each follows from the leaders), and the cantes.
It holds nothing else, so a player (:mod:`cuatrola_solver.players`) that receives a
view has no way to reach the hidden cards.  Views are made by projecting a full
:class:`~cuatrola_solver.hand.Hand` (:meth:`View.from_hand`) or a record
(:meth:`View.from_record`, unknown hands allowed), or from the seat's own input
(:meth:`View.from_input`, the live ``hint``).

:class:`Seen` replays what was seen with any set of hands known -- the view's one
hand, or a record that leaves some hands out (``cuatrola check``).  It checks all
that can be checked from the seen side and raises :class:`RecordError` for what cannot
have happened: a card seen twice, a card of a known hand played by another seat, a
trick with too many cards, a card after the hand is over, a cante by a seat that
cannot hold the pair.  Renuncios are found where the hand is known, and elsewhere
where the play itself proves them: a seat that did not follow (or montar, fallar,
montar el fallo) and later plays a card that would have let it
(:func:`~cuatrola_solver.sampling.play_forbidden`); each says which trick proves it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from .auction import Auction, parse_call
from .cards import (cards_of, format_card, format_cards, mask_of, parse_card, parse_cards,
                    popcount, suit_of)
from .errors import IllegalBidError, RecordError, quote
from .match import Score
from .play import (SIDE_NAMES, SUIT_NAMES, Position, cante_mask, cante_points, cante_refusal,
                   decided_by_tricks, first_leader, legal_mask, outcome, play_card,
                   renuncio_obligation, side_of, sing)
from .hand import hand_result, points_breakdown
from .record import Cante, HandRecord, read_play
from .rules import CONTRACT_VALUE, RuleSet, get_rules
from .sampling import play_forbidden

__all__ = ["SeenPlay", "SeenRenuncio", "Seen", "View", "check_seen"]


@dataclass(frozen=True)
class SeenPlay:
    """``seat`` played ``card`` in trick ``trick`` (1-based) after the cards ``before``."""

    trick: int
    seat: int
    card: int
    before: tuple[int, ...]


@dataclass(frozen=True)
class SeenRenuncio:
    """A renuncio seen: in a known hand at once, in a hidden one by a later card.

    ``proved_in`` is the trick whose card proves it (None when the hand was known);
    ``legal`` the cards the seat is known to have held that it could have played."""

    trick: int
    seat: int
    card: int
    obligation: str
    legal: tuple[int, ...]
    proved_in: int | None = None

    def to_dict(self) -> dict:
        d = {"trick": self.trick, "seat": self.seat, "card": format_card(self.card),
             "obligation": self.obligation, "legal": [format_card(c) for c in self.legal]}
        if self.proved_in is not None:
            d["proved_in"] = self.proved_in
        return d

    def describe(self) -> str:
        text = (f"trick {self.trick}: seat {self.seat} played {format_card(self.card)} "
                f"against {self.obligation.replace('_', ' ')}")
        if self.proved_in is None:
            return text + f" (legal: {format_cards(self.legal)})"
        return text + (f": it held {format_cards(self.legal)}, as its card in trick "
                       f"{self.proved_in} proves")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class Seen:
    """The replay of a hand as seen with some hands known (None for a hidden hand).

    ``known[i]`` is seat ``i + 1``'s five dealt cards as a mask, or None.  After
    construction: ``auction``, ``pos`` (the position, hidden hands shown as 0),
    ``plays``, ``renuncios`` (in order of play), ``over`` and ``decided_after``.
    """

    def __init__(self, rules: RuleSet, muestra: int, known: Sequence[int | None],
                 calls: Sequence[str] | None, tricks: Sequence[Sequence[int]],
                 cantes: Sequence[Cante], score: Score | None = None,
                 where: str = "record", complete_auction: bool = True, at=None) -> None:
        self.at = at            # HandRecord.at: the place of a part of a record, if known
        self.rules = rules
        self.score = score
        self.muestra = muestra
        self.trump = int(suit_of(muestra))
        self.known = tuple(known)
        self.where = where
        self.plays: list[SeenPlay] = []
        self.renuncios: list[SeenRenuncio] = []
        self.decided_after: int | None = None       # trick after which early_end decided it
        self.played_on = False                       # cards were played after that
        self._check_hands()
        self.auction = Auction(rules, score)
        if calls is None and complete_auction:
            calls = ["paso"] * 4
        calls = list(calls or ())
        if complete_auction and len(calls) != 4:
            raise self.error(f"the auction has {_plural(len(calls), 'call')}: expected 4 "
                             f"(one per seat) or none (all passed)")
        for i, call in enumerate(calls, 1):
            try:
                self.auction.call(call)
            except IllegalBidError as e:
                raise self.error(f"auction, call {i} ({quote(call)}): {e}", "call", i) from None
        self.pos: Position | None = None
        if self.auction.is_complete:
            active = self.auction.active
            hands = tuple(k or 0 for k in self.known)
            self.pos = Position(trump=self.trump, hands=hands, active=active,
                                contract=self.auction.contract,
                                declarer=self.auction.declarer, leader=first_leader(active))
        elif tricks or cantes:
            raise self.error(f"{'cards are played' if tricks else 'a cante is recorded'}, but "
                             f"the auction has only {_plural(len(calls), 'call')} of 4")
        self._sung_cards: dict[int, tuple[int, int]] = {}   # card -> (singer, after trick)
        self.cantes_sung: list[Cante] = []                   # in the order they were sung
        self._replay(tricks, cantes)
        self._prove_renuncios()

    def error(self, message: str, *part) -> RecordError:
        """A RecordError naming the record and, where known, the line and column (text
        form) or field (JSON) of ``part`` (a key of ``HandRecord.places``)."""
        if self.at is not None:
            return RecordError(f"{self.at(*part)}{message}")
        return RecordError(f"{self.where}: {message}")

    # --- the deal -------------------------------------------------------------
    def _check_hands(self) -> None:
        seen: dict[int, int] = {}
        for seat, mask in enumerate(self.known, 1):
            if mask is None:
                continue
            if popcount(mask) != 5:
                raise self.error(f"seat {seat} holds {_plural(popcount(mask), 'card')} "
                                 f"({format_cards(cards_of(mask))}): expected 5")
            for c in cards_of(mask):
                if c in seen:
                    raise self.error(f"card {format_card(c)!r} is given to seat {seen[c]} and "
                                     f"to seat {seat}")
                seen[c] = seat
        holder = seen.get(self.muestra)
        if holder is not None and holder != 4:
            raise self.error(f"the muestra {format_card(self.muestra)!r} is in seat {holder}'s "
                             f"hand: it belongs to seat 4, the dealer")
        if self.known[3] is not None and not self.known[3] >> self.muestra & 1:
            raise self.error(f"the muestra {format_card(self.muestra)!r} is not in seat 4's hand "
                             f"({format_cards(cards_of(self.known[3]))}): the dealer keeps it")

    # --- the play -------------------------------------------------------------
    @property
    def tricks_done(self) -> int:
        return 0 if self.pos is None else self.pos.tricks_played

    @property
    def over(self) -> bool:
        """After trick 5, or once an early_end contract is decided (without renuncio:
        play that went on after the decision shows there was one, seen or not)."""
        if self.pos is None:
            return False
        return self.pos.is_over or (self.decided_after is not None and not self.renuncios
                                    and not self.played_on)

    def _holder(self, c: int) -> tuple[int, str] | None:
        """A seat known to hold ``c`` now, and how it is known."""
        for seat, mask in enumerate(self.known, 1):
            if mask is not None and mask >> c & 1 and self.pos.hands[seat - 1] >> c & 1:
                return seat, "in its hand"
        if c == self.muestra:
            return 4, "the muestra, which the dealer keeps"
        if c in self._sung_cards:
            singer, after = self._sung_cards[c]
            return singer, f"sung by it after trick {after}"
        return None

    def _replay(self, tricks: Sequence[Sequence[int]], cantes: Sequence[Cante]) -> None:
        # cantes in the order of their tricks; i: the cante's place in the record
        cantes = sorted(enumerate(cantes), key=lambda ik: ik[1].after_trick)
        for i, k in cantes:
            if not 1 <= k.after_trick <= 4:
                raise self.error(f"cante of seat {k.seat} after trick {k.after_trick}: cantes "
                                 f"are declared after tricks 1 to 4", "cante", i)
        played: dict[int, tuple[int, int]] = {}       # card -> (trick, seat)
        for t, trick in enumerate(tricks, 1):
            in_play = sum(self.pos.active)
            if len(trick) > in_play:
                raise self.error(f"trick {t} has {len(trick)} cards: only {in_play} seats play "
                                 f"({quote(format_cards(trick))})", "trick", t)
            if t < len(tricks) and len(trick) < in_play:
                raise self.error(f"trick {t} has {_plural(len(trick), 'card')}: expected "
                                 f"{in_play}, one per seat in play (only the last trick of a "
                                 f"record may be incomplete)", "trick", t)
            for j, c in enumerate(trick, 1):
                self._play(t, j, c, played)
            if not self.pos.trick:
                for i, k in cantes:
                    if k.after_trick == t:
                        self._sing(k, i)
                if (self.rules.early_end and self.decided_after is None
                        and decided_by_tricks(self.pos, self.rules)):
                    self.decided_after = t
        late = [(i, k) for i, k in cantes if k.after_trick > self.tricks_done]
        if late:
            i, k = late[0]
            raise self.error(f"cante of seat {k.seat} after trick {k.after_trick}, but the record "
                             f"has only {_plural(self.tricks_done, 'complete trick')}", "cante", i)

    def _play(self, t: int, j: int, c: int, played: dict[int, tuple[int, int]]) -> None:
        pos = self.pos
        place = f"trick {t}, card {j} ({format_card(c)})"
        hidden = any(k is None for k in self.known)
        if self.decided_after is not None and hidden and not pos.is_over:
            self.played_on = True            # a renuncio not seen from here let play go on
        if self.over:
            when = (f"the hand was decided after trick {self.decided_after} (early end: the "
                    f"tricks decide it)" if self.decided_after is not None and not pos.is_over
                    else "all five tricks are played")
            raise self.error(f"{place}: the hand is over: {when}", "card", t, j)
        seat = pos.to_play
        if c in played:
            t0, s0 = played[c]
            raise self.error(f"{place}: seat {s0} already played it in trick {t0}", "card", t, j)
        holder = self._holder(c)
        if holder is not None and holder[0] != seat:
            raise self.error(f"{place}: played by seat {seat}, on turn, but it is seat "
                             f"{holder[0]}'s card ({holder[1]})", "card", t, j)
        hand = pos.hands[seat - 1]
        if self.known[seat - 1] is not None:
            if not hand >> c & 1:
                raise self.error(f"{place}: not in the hand of seat {seat}, on turn (holds "
                                 f"{format_cards(cards_of(hand))})", "card", t, j)
            r = self.rules
            legal = legal_mask(hand, pos.trick, self.trump, r.beat_led_after_trump,
                               r.free_when_cannot_overtrump)
            if not legal >> c & 1:
                self.renuncios.append(SeenRenuncio(
                    t, seat, c, renuncio_obligation(hand, pos.trick, self.trump, c),
                    tuple(cards_of(legal))))
        self.plays.append(SeenPlay(t, seat, c, tuple(pos.trick)))
        played[c] = (t, seat)
        self.pos = play_card(pos, c, self.rules.monte)

    def _sing(self, k: Cante, i: int) -> None:
        """Sing ``k``, the record's cante ``i`` (its place, for errors)."""
        pos = self.pos
        need = cante_mask(k.suit)
        place = f"cante of seat {k.seat} ({SUIT_NAMES[k.suit]}) after trick {k.after_trick}"
        if self.known[k.seat - 1] is None and self.pos.active[k.seat - 1]:
            gone = [p for p in self.plays if need >> p.card & 1]
            if gone:
                p = gone[0]
                raise self.error(f"{place}: seat {p.seat} played {format_card(p.card)} in "
                                 f"trick {p.trick}", "cante", i)
            for c in cards_of(need):
                holder = self._holder(c)
                if holder is not None and holder[0] != k.seat:
                    raise self.error(f"{place}: {format_card(c)} is seat {holder[0]}'s card "
                                     f"({holder[1]})", "cante", i)
            hands = list(pos.hands)
            hands[k.seat - 1] |= need        # it could hold them: check the rest of the rules
            reason = cante_refusal(pos.with_changes(hands=tuple(hands)), self.rules, k.seat, k.suit)
        else:
            reason = cante_refusal(pos, self.rules, k.seat, k.suit)
        if reason is not None:
            raise self.error(f"{place}: {reason}", "cante", i)
        for c in cards_of(need):
            self._sung_cards[c] = (k.seat, k.after_trick)
        self.cantes_sung.append(k)
        self.pos = sing(pos, side_of(k.seat), k.suit)

    def _prove_renuncios(self) -> None:
        """Renuncios of hidden hands that a later card of the same seat proves."""
        r = self.rules
        proven = []
        for i, p in enumerate(self.plays):
            if self.known[p.seat - 1] is not None:
                continue
            forbidden = play_forbidden(p.card, p.before, self.trump, r.beat_led_after_trump,
                                       r.free_when_cannot_overtrump)
            later = [q for q in self.plays[i + 1:] if q.seat == p.seat and forbidden >> q.card & 1]
            if not later:
                continue
            held = mask_of(q.card for q in later) | 1 << p.card
            legal = legal_mask(held, p.before, self.trump, r.beat_led_after_trump,
                               r.free_when_cannot_overtrump)
            proven.append(SeenRenuncio(p.trick, p.seat, p.card,
                                       renuncio_obligation(held, p.before, self.trump, p.card),
                                       tuple(cards_of(legal)), later[0].trick))
        if proven:
            order = {(p.trick, p.seat): i for i, p in enumerate(self.plays)}
            self.renuncios = sorted(self.renuncios + proven,
                                    key=lambda x: order[(x.trick, x.seat)])

    # --- the result ---------------------------------------------------------------
    def result(self):
        """The hand's :class:`~cuatrola_solver.hand.Result` as seen (the points split
        into cards, monte and cantes), or None while it is undecided."""
        pos = self.pos
        if pos is None:
            return None
        if self.renuncios:
            first = self.renuncios[0]
            winner = 1 - side_of(first.seat)      # contrasolo's lone players sit on two sides
            value = CONTRACT_VALUE[pos.contract] * (2 if self.rules.renuncio_penalty == "double"
                                                    else 1)
            ended_by = "renuncio"
        elif pos.is_over or self.decided_after is not None:
            winner, value = outcome(pos, self.rules)
            ended_by = "play" if pos.is_over else "early_end"
        else:
            return None
        tricks = [[(p.seat, p.card) for p in self.plays if p.trick == t]
                  for t in range(1, self.tricks_done + 1)]
        return hand_result(pos, self.rules, self.score, winner, value, ended_by,
                           points_breakdown(tricks, self.cantes_sung, self.trump,
                                            self.rules.monte))


def check_seen(rec: HandRecord, where: str = "record") -> Seen:
    """Replay a record that may leave hands unknown, checking what can be checked."""
    known = [None if h is None else mask_of(h) for h in rec.hands]
    return Seen(rec.rules, rec.muestra, known, rec.auction, rec.tricks, rec.cantes, rec.score,
                where, at=rec.at if rec.source else None)


@dataclass(frozen=True)
class View:
    """What seat ``seat`` knows: its dealt cards (``hand``, a mask), the muestra, the
    rules and score, the calls so far, the cards played so far (each trick from its
    leader; the last may be incomplete) and the cantes.  Checked on construction:
    a view that cannot have happened raises :class:`RecordError`."""

    rules: RuleSet
    seat: int
    hand: int
    muestra: int
    calls: tuple[str, ...] = ()
    tricks: tuple[tuple[int, ...], ...] = ()
    cantes: tuple[Cante, ...] = ()
    score: Score | None = None

    def __post_init__(self) -> None:
        if self.seat not in (1, 2, 3, 4):
            raise RecordError(f"bad seat {self.seat!r}: expected 1 to 4")
        self.seen  # noqa: B018 -- replay now: a bad view fails where it is made

    @cached_property
    def seen(self) -> Seen:
        known = [None] * 4
        known[self.seat - 1] = self.hand
        return Seen(self.rules, self.muestra, known, self.calls, self.tricks, self.cantes,
                    self.score, where=f"seat {self.seat}'s view", complete_auction=False)

    # --- making views -------------------------------------------------------------
    @classmethod
    def from_hand(cls, hand, seat: int) -> "View":
        """Project a :class:`~cuatrola_solver.hand.Hand` onto ``seat``."""
        tricks = [tuple(c for _, c in t) for t in hand.tricks]
        if hand.current:
            tricks.append(tuple(c for _, c in hand.current))
        return cls(hand.rules, seat, hand.deal[seat - 1], hand.muestra,
                   tuple(hand.auction.calls), tuple(tricks), tuple(hand.cantes), hand.score)

    @classmethod
    def from_record(cls, rec: HandRecord, seat: int) -> "View":
        """Project a record (unknown hands allowed, but not ``seat``'s) onto ``seat``."""
        if rec.hands[seat - 1] is None:
            raise RecordError(f"the record does not give seat {seat}'s hand, so it cannot be "
                              f"seen from seat {seat}")
        calls = ("paso",) * 4 if rec.auction is None else tuple(rec.auction)
        return cls(rec.rules, seat, mask_of(rec.hands[seat - 1]), rec.muestra, calls,
                   tuple(tuple(t) for t in rec.tricks), tuple(rec.cantes), rec.score)

    @classmethod
    def from_input(cls, hand: str, muestra: str, seat: int, auction: str | None = None,
                   played: str | None = None, rules: RuleSet | str | None = None,
                   score: Score | None = None) -> "View":
        """The seat's own input, as ``hint --hand ... --played ...`` gives it.

        ``hand`` is the five cards dealt, or the cards still held (the seat's cards in
        ``played`` complete them).  ``auction`` the calls so far (absent: all passed, when
        cards were played); ``played`` the play section of a record."""
        rules = rules if isinstance(rules, RuleSet) else get_rules(rules)
        cards = parse_cards(hand, "--hand")
        m = parse_card(muestra, "(--muestra)")
        if seat not in (1, 2, 3, 4):
            raise RecordError(f"bad seat {seat!r} in --seat: expected 1 to 4")
        tricks, cantes = read_play(played or "", "--played")
        calls = (tuple(parse_call(c, f"(call {i} in --auction)")
                       for i, c in enumerate(auction.replace(",", " ").split(), 1))
                 if auction else ("paso",) * 4 if tricks else ())
        held = mask_of(cards)
        if len(cards) < 5:
            # the cards still held: add the ones this seat played
            probe = Seen(rules, m, [None] * 4, calls, tricks, cantes, score, "--played",
                         complete_auction=False)
            mine = mask_of(p.card for p in probe.plays if p.seat == seat)
            if held & mine:
                raise RecordError(f"--hand: {format_cards(cards_of(held & mine))} is played "
                                  f"in --played, so it is no longer held")
            held |= mine
            if popcount(held) != 5:
                raise RecordError(f"--hand {quote(hand)}: seat {seat} holds {len(cards)} cards and "
                                  f"played {popcount(mine)}: expected 5 in all")
        return cls(rules, seat, held, m, calls, tuple(tuple(t) for t in tricks),
                   tuple(cantes), score)

    def to_record(self) -> HandRecord:
        """The view as a record that leaves the other hands unknown."""
        hands = [None] * 4
        hands[self.seat - 1] = cards_of(self.hand)
        return HandRecord(rules=self.rules, muestra=self.muestra, hands=hands,
                          auction=list(self.calls) if self.calls else None,
                          tricks=[list(t) for t in self.tricks], cantes=list(self.cantes),
                          score=self.score)

    # --- what it says ------------------------------------------------------------
    @property
    def trump(self) -> int:
        return int(suit_of(self.muestra))

    @property
    def side(self) -> int:
        return side_of(self.seat)

    @property
    def auction_over(self) -> bool:
        return self.seen.auction.is_complete

    @property
    def contract(self) -> str:
        return self.seen.auction.contract

    @property
    def declarer(self) -> tuple[int, ...]:
        return self.seen.auction.declarer

    @property
    def active(self) -> tuple[bool, bool, bool, bool]:
        return self.seen.auction.active

    @property
    def position(self) -> Position | None:
        """The position as this seat sees it: hidden hands are 0 (None during the auction)."""
        return self.seen.pos

    @property
    def held(self) -> int:
        """The cards the seat still holds."""
        return self.hand & ~mask_of(p.card for p in self.seen.plays if p.seat == self.seat)

    @property
    def plays(self) -> list[SeenPlay]:
        return self.seen.plays

    @property
    def renuncios(self) -> list[SeenRenuncio]:
        """The renuncios this seat has seen (its own, and those the play proves)."""
        return self.seen.renuncios

    @property
    def trick_number(self) -> int:
        return self.seen.tricks_done + 1

    def is_over(self) -> bool:
        return self.seen.over or bool(self.seen.renuncios)

    @property
    def speaker(self) -> int | None:
        """The seat to call next during the auction."""
        return self.seen.auction.speaker

    @property
    def to_play(self) -> int | None:
        """The seat to play the next card, or None (auction on, or hand over)."""
        if self.position is None or self.seen.over:
            return None
        return self.position.to_play

    def legal_calls(self) -> list[str]:
        """The calls the seat may make now (empty when it is not its turn to speak)."""
        if self.speaker != self.seat:
            return []
        return self.seen.auction.legal_calls()

    def legal_cards(self) -> list[int]:
        """The cards the seat may play now without renuncio (empty when not on turn)."""
        if self.to_play != self.seat:
            return []
        r = self.rules
        return cards_of(legal_mask(self.held, self.position.trick, self.trump,
                                   r.beat_led_after_trump, r.free_when_cannot_overtrump))

    def cante_options(self) -> list[int]:
        """The suits the seat may sing now, as far as it can tell (best first: the 40,
        then by suit).  Under ``forty_first`` a 20 is offered unless the seat itself can
        sing the 40; whether its partner could is not something it sees."""
        pos = self.position
        if pos is None or self.seen.over or pos.trick:
            return []
        hands = [0, 0, 0, 0]
        hands[self.seat - 1] = self.held
        mine = pos.with_changes(hands=tuple(hands))
        suits = [s for s in range(4) if cante_refusal(mine, self.rules, self.seat, s) is None]
        return sorted(suits, key=lambda s: (-cante_points(s, self.trump), s))

    def result(self):
        return self.seen.result()

    def key(self) -> str:
        """A canonical text of everything in the view (for seeding a player's choices)."""
        cantes = ";".join(f"{k.after_trick}.{k.seat}.{k.suit}"
                          for k in sorted(self.cantes, key=lambda k: (k.after_trick, k.seat)))
        tricks = "/".join(" ".join(map(str, t)) for t in self.tricks)
        return (f"{self.rules!r}|{self.seat}|{self.hand}|{self.muestra}|{' '.join(self.calls)}|"
                f"{tricks}|{cantes}|{self.score}")

    def seed(self, base: int) -> int:
        """A seed drawn from ``base`` and this view only: equal views, equal seeds."""
        digest = hashlib.blake2b(f"{base}|{self.key()}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little") >> 1

    def describe(self) -> str:
        """A short text for people: the seat, its cards, the muestra and the state."""
        lines = [f"seat {self.seat} ({'side ' + SIDE_NAMES[self.side]}), holds "
                 f"{format_cards(cards_of(self.held))}; muestra {format_card(self.muestra)} "
                 f"(triunfo {SUIT_NAMES[self.trump]})"]
        if self.auction_over:
            decl = self.declarer
            lines.append(f"contract {self.contract}"
                         + ("" if not decl else " by seat " + " against seat ".join(map(str, decl))))
        return "\n".join(lines)
