"""The rules of play as pure functions on card masks: legal cards, renuncio
classification, the trick winner, who may sing.  Shared by the rules engine
(``hand.py``), the reference solver and the sampler; the compiled solver mirrors
them in ``ext/solver.pyx`` and is tested against them.

Seats are 1..4; sides are :class:`~cuatrola_solver.game.seats.Side` A (seats 1 & 3) and
B (seats 2 & 4), which index the pairs of a position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from .cards import SUIT_MASKS, Card, CardMask, Rank, card, higher_in_suit, mask_points
from .rules import CONTRACT_VALUE, SOLO_TRICKS_GOAL, TRICKS_GOAL, RuleSet
from .seats import Seat, Side

SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
OBLIGATIONS = ("asistir", "montar", "fallar", "montar_el_fallo")


def side_of(seat: Seat) -> Side:
    """The side of ``seat``: A (seats 1 and 3) or B (seats 2 and 4)."""
    return Side((seat - 1) & 1)


def partner_of(seat: Seat) -> Seat:
    return (seat + 1) % 4 + 1


def next_seat(seat: Seat, active: Sequence[bool]) -> Seat:
    """The next active seat after ``seat`` in playing order 1 -> 2 -> 3 -> 4 -> 1."""
    for step in range(1, 5):
        s = (seat - 1 + step) % 4 + 1
        if active[s - 1]:
            return s
    raise ValueError("no active seat")


def active_seats(declarer: Sequence[Seat]) -> tuple[bool, ...]:
    """Who plays: everyone in paso (no declarer); else the declarer(s), not their
    partners (in contrasolo only the two bidders)."""
    if not declarer:
        return (True, True, True, True)
    if len(declarer) == 2:
        return tuple(s in declarer for s in (1, 2, 3, 4))
    out = partner_of(declarer[0])
    return tuple(s != out for s in (1, 2, 3, 4))


def declaring_side(declarer: Sequence[Seat]) -> Side:
    """The side a result is measured for: A for paso, else the (solo) declarer's side."""
    return side_of(declarer[0]) if declarer else Side.A


def first_leader(active: Sequence[bool]) -> Seat:
    """Seat 1 leads the first trick, or the next active seat if seat 1 sits out."""
    return next_seat(4, active)


def _highest_of_suit(trick: Sequence[Card], suit: int) -> Card:
    return max((c for c in trick if c // 5 == suit), default=-1)


def legal_mask(hand: CardMask, trick: Sequence[Card], trump: int,
               beat_led_after_trump: bool, free_when_cannot_overtrump: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (docs/rules.md section 2)."""
    if not trick:
        return hand
    led = trick[0] // 5
    trumped = led != trump and _highest_of_suit(trick, trump) >= 0
    follow = hand & SUIT_MASKS[led]
    if follow:                                   # asistir
        if trumped and not beat_led_after_trump:
            return follow
        higher = follow & higher_in_suit(_highest_of_suit(trick, led))
        return higher or follow                  # montar
    trumps = hand & SUIT_MASKS[trump]
    if not trumps:
        return hand
    if not trumped:
        return trumps                            # fallar
    higher = trumps & higher_in_suit(_highest_of_suit(trick, trump))
    if higher:
        return higher                            # montar el fallo
    return hand if free_when_cannot_overtrump else trumps


def renuncio_obligation(hand: CardMask, trick: Sequence[Card], trump: int, c: Card) -> str:
    """The obligation broken by playing illegal card ``c`` (docs/rules.md 2 and 8.12)."""
    led = trick[0] // 5
    if hand & SUIT_MASKS[led]:
        return "montar" if c // 5 == led else "asistir"
    trumped = led != trump and _highest_of_suit(trick, trump) >= 0
    return "montar_el_fallo" if trumped else "fallar"


def play_forbidden(c: Card, before: Sequence[Card], trump: int,
                   beat_led_after_trump: bool, free_when_cannot_overtrump: bool) -> CardMask:
    """The mask ``F`` such that, for any hand ``H`` holding ``c``, playing ``c`` to a trick
    whose cards so far are ``before`` is legal exactly when ``H & F == 0``.

    This is :func:`legal_mask` turned inside out: what a legal play reveals about the
    hand it came from (the hidden-deal layer's inference, and the renuncios a later card
    proves).
    """
    if not before:
        return 0                                  # leading: anything goes
    led = before[0] // 5
    led_mask = SUIT_MASKS[led]
    trumps = [x for x in before if x // 5 == trump]
    trumped = led != trump and bool(trumps)
    if c // 5 == led:                             # asistir: montar, if it applied
        if trumped and not beat_led_after_trump:
            return 0
        higher = higher_in_suit(max(x for x in before if x // 5 == led))
        return 0 if higher >> c & 1 else higher
    forbidden = led_mask                          # did not follow: void in led
    if not trumped:                               # fallar applied (led != trump here)
        return forbidden if c // 5 == trump else forbidden | SUIT_MASKS[trump]
    over = higher_in_suit(max(trumps))            # montar el fallo
    if over >> c & 1:
        return forbidden
    if c // 5 == trump or free_when_cannot_overtrump:
        return forbidden | over
    return forbidden | SUIT_MASKS[trump]


def trick_winner_index(trick: Sequence[Card], trump: int) -> int:
    """Index in ``trick`` of the winning card: highest trump, else highest of the led suit."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c // 5 == b // 5:
            if c > b:
                best = i
        elif c // 5 == trump:
            best = i
    return best


def cante_points(suit: int, trump: int) -> int:
    return 40 if suit == trump else 20


def cante_mask(suit: int) -> CardMask:
    """The rey and the caballo of ``suit``: the two cards a cante needs."""
    return (1 << card(Rank.REY, suit)) | (1 << card(Rank.CABALLO, suit))


@dataclass(frozen=True)
class Position:
    """Everything the solver needs about a hand in play, in mask form.

    ``hands[i]`` is what seat ``i + 1`` still holds; ``trick`` the cards already in the
    current trick, in order from ``leader``.  ``tricks``/``points`` are what sides A and
    B have taken so far (points: card points and cantes; the monte once trick 5 is
    complete).  ``sung`` is a 4-bit mask of the suits already sung, ``cantes`` the
    number of cantes of each side, and ``boundary_sung`` which sides have already sung
    at the current trick boundary (meaningful only when ``trick`` is empty).
    """

    trump: int
    hands: tuple[CardMask, ...]  # one per seat
    active: tuple[bool, ...]  # one per seat
    contract: str
    declarer: tuple[Seat, ...]
    leader: Seat
    trick: tuple[Card, ...] = ()
    tricks: tuple[int, ...] = (0, 0)  # one per side
    points: tuple[int, ...] = (0, 0)  # one per side
    sung: int = 0
    cantes: tuple[int, ...] = (0, 0)  # one per side
    boundary_sung: tuple[bool, ...] = (False, False)  # one per side

    def hand(self, seat: Seat) -> CardMask:
        """What ``seat`` still holds (a mask; 0 for a hand not known)."""
        return self.hands[seat - 1]

    def in_play(self, seat: Seat) -> bool:
        """Whether ``seat`` plays this contract (a declarer's partner sits out)."""
        return self.active[seat - 1]

    @property
    def tricks_played(self) -> int:
        return self.tricks[0] + self.tricks[1]

    @property
    def declaring_side(self) -> Side:
        """The side whose result the solver measures: A for paso, else the (solo) declarer's."""
        return declaring_side(self.declarer)

    @property
    def to_play(self) -> Seat:
        seat = self.leader
        for _ in self.trick:
            seat = next_seat(seat, self.active)
        return seat

    @property
    def is_over(self) -> bool:
        return self.tricks_played == 5

    def with_changes(self, **kw: Any) -> "Position":
        return replace(self, **kw)


def cante_refusal(pos: Position, rules: RuleSet, seat: Seat, suit: int) -> str | None:
    """Why ``seat`` may not sing ``suit`` now, at the boundary before the lead of
    ``pos``'s trick (docs/rules.md section 5 and 8.7); None when it may."""
    t = pos.tricks_played
    side = side_of(seat)
    name = SUIT_NAMES[suit]
    if not rules.cantes_count(pos.contract):
        return f"no cantes are sung in {pos.contract} under these rules"
    if pos.trick or t == 0 or t == 5:
        return "a cante is declared between tricks, before the next lead"
    if t not in rules.cante_after_tricks:
        return f"no cante may be declared after trick {t} under these rules"
    if not pos.in_play(seat):
        return f"seat {seat} sits out this hand"
    need = cante_mask(suit)
    if pos.hand(seat) & need != need:
        return f"seat {seat} does not hold the rey and the caballo of {name}"
    if pos.sung >> suit & 1:
        return f"{name} has already been sung"
    if pos.boundary_sung[side]:
        return f"side {Side(side)} has already sung after trick {t}"
    if rules.cante_by == "last_trick_winner":
        if side_of(pos.leader) != side:
            return f"only the side that won trick {t} may sing"
    elif pos.tricks[side] == 0:
        return f"side {Side(side)} has not won a trick yet"
    if rules.max_cantes_per_side and pos.cantes[side] >= rules.max_cantes_per_side:
        return f"side {Side(side)} has already sung {pos.cantes[side]} times"
    if rules.forty_first and suit != pos.trump and not pos.sung >> pos.trump & 1:
        forty = cante_mask(pos.trump)
        for mate in (1, 2, 3, 4):
            if side_of(mate) == side and pos.in_play(mate) and pos.hand(mate) & forty == forty:
                return f"side {Side(side)} can sing the 40 and must sing it before any 20"
    return None


def cante_options(pos: Position, rules: RuleSet, side: int) -> list[int]:
    """Suits side ``side`` may sing now, at the boundary before the lead of ``pos``'s trick.

    Empty unless the trick is empty and the boundary is one where cantes are allowed
    (docs/rules.md section 5).  With ``forty_first`` only the trump suit is offered when it
    can be sung.
    """
    if pos.trick or pos.boundary_sung[side] or not rules.cantes_count(pos.contract):
        return []
    return [suit for suit in range(4)
            if any(cante_refusal(pos, rules, seat, suit) is None
                   for seat in (1, 2, 3, 4) if side_of(seat) == side)]


def seat_cante_options(pos: Position, rules: RuleSet, seat: Seat) -> list[int]:
    """The suits ``seat`` may sing now as far as its own cards tell (best first: the 40,
    then by suit): the other hands are not looked at, so under ``forty_first`` a 20 is
    offered unless the seat itself holds the 40 (what the seat is asked, docs/rules.md
    5; the engine may still refuse the 20 for a partner's 40)."""
    hands = [0, 0, 0, 0]
    hands[seat - 1] = pos.hand(seat)
    mine = replace(pos, hands=tuple(hands))
    suits = [s for s in range(4) if cante_refusal(mine, rules, seat, s) is None]
    return sorted(suits, key=lambda s: (-cante_points(s, pos.trump), s))


def cante_singer(pos: Position, side: int, suit: int) -> Seat:
    """The seat of ``side`` that holds the rey and caballo of ``suit``."""
    need = cante_mask(suit)
    for seat in (1, 2, 3, 4):
        if side_of(seat) == side and pos.in_play(seat) and pos.hand(seat) & need == need:
            return seat
    raise ValueError("no seat of that side holds the cante")


def sing(pos: Position, side: int, suit: int) -> Position:
    """The position after ``side`` sings ``suit`` at the current boundary."""
    points = list(pos.points)
    points[side] += cante_points(suit, pos.trump)
    cantes = list(pos.cantes)
    cantes[side] += 1
    bs = list(pos.boundary_sung)
    bs[side] = True
    return replace(pos, points=tuple(points), sung=pos.sung | 1 << suit,
                   cantes=tuple(cantes), boundary_sung=tuple(bs))


def play_card(pos: Position, c: Card, monte: int) -> Position:
    """The position after the seat on turn plays ``c`` (legality is not checked)."""
    seat = pos.to_play
    hands = list(pos.hands)
    hands[seat - 1] &= ~(1 << c)
    trick = pos.trick + (c,)
    if len(trick) < sum(pos.active):
        return replace(pos, hands=tuple(hands), trick=trick)
    # the trick is complete
    winner = pos.leader
    for _ in range(trick_winner_index(trick, pos.trump)):
        winner = next_seat(winner, pos.active)
    side = side_of(winner)
    tricks = list(pos.tricks)
    tricks[side] += 1
    points = list(pos.points)
    points[side] += mask_points(sum(1 << x for x in trick))
    if sum(tricks) == 5:
        points[side] += monte
    return replace(pos, hands=tuple(hands), trick=(), leader=winner, tricks=tuple(tricks),
                   points=tuple(points), boundary_sung=(False, False))


def tricks_goal(contract: str, rules: RuleSet) -> int | None:
    """Tricks the declaring side needs, or None for a contract decided on points."""
    if contract == "solo":
        return SOLO_TRICKS_GOAL if rules.solo_goal == "tricks" else None
    return TRICKS_GOAL.get(contract)


def decided_by_tricks(pos: Position, rules: RuleSet) -> bool:
    """True once the trick counts alone decide a contract played for tricks (early_end)."""
    goal = tricks_goal(pos.contract, rules)
    if goal is None or pos.contract == "paso":
        return False
    d = pos.declaring_side
    return pos.tricks[d] >= goal or pos.tricks[1 - d] > 5 - goal


def outcome(pos: Position, rules: RuleSet) -> tuple[Side, int]:
    """(winning side, match points it scores) of a hand played to its end, or decided
    by its tricks (docs/rules.md section 4)."""
    d = pos.declaring_side
    goal = tricks_goal(pos.contract, rules)
    if goal is not None:
        return (d if pos.tricks[d] >= goal else d.other), CONTRACT_VALUE[pos.contract]
    margin = pos.points[d] - pos.points[1 - d]
    winner: int
    if margin == 0:
        tie_side = side_of(pos.leader) if rules.tie_break == "last_trick" else 0
        winner = tie_side
    else:
        winner = d if margin > 0 else 1 - d
    value = CONTRACT_VALUE[pos.contract]
    if pos.contract == "paso":
        if rules.pass_bonus == "carbunco" and pos.tricks[winner] == 5:
            value = 2
        elif rules.pass_bonus == "over_100" and pos.points[winner] > 100:
            value = 2
    return Side(winner), value


def deal_position(hands: Sequence[CardMask], trump: int, contract: str,
                  declarer: Sequence[Seat] = ()) -> "Position":
    """The position at the start of the play of ``contract``.

    The declarer's partner sits out; in contrasolo only the two bidders play.
    """
    declarer = tuple(declarer)
    active = active_seats(declarer)
    return Position(trump=trump, hands=tuple(hands), active=active, contract=contract,
                    declarer=declarer, leader=first_leader(active))
