"""Players (bots): policies that call, sing and play from one seat's view.

A :class:`Policy` answers three questions, each from a :class:`~cuatrola_solver.game.view.View`
and a seed, and from nothing else (OpenSpiel's policies): ``call(view, seed)`` during the
auction, ``sing(view, seed)`` at a trick boundary where the seat may sing (a suit, or
None to keep quiet), ``card(view, seed)`` when it is the seat's turn to play.  The
answers must be legal: the caller (:func:`cuatrola_solver.bots.playout.play_hand`, the
``play`` command) checks them.  Given the same view and seed a player answers the same,
whatever the hidden cards: it never sees them.

The players (:data:`PLAYERS`; :func:`make_player` reads ``"pimc:samples=80"``):

- ``random``: a uniform legal choice for every call, cante and card.
- ``heuristic``: a club player's rules of thumb (listed in :class:`HeuristicPlayer`).
- ``pimc``: perfect-information Monte Carlo. Deals consistent with the view are
  sampled and the card with the best double-dummy value over them is played (the
  ``hint``; ``samples`` deals, default 40); a cante is sung when it is worth more over
  those deals than keeping quiet.  Bids with the advisor (``advise`` on ``bid_samples``
  deals, default 300: the call of best expected match points), or with ``bid=heuristic``.
  ``read_calls=1`` weighs the deals by the calls (the bid model), ``read_play=1`` by the
  cards the other seats played (the card-play model), as ``hint`` does by default.
- ``best``: the strongest player measured (:data:`BEST`), today an ``alphamu``.
- ``alphamu``: αμ (:mod:`~cuatrola_solver.bots.alphamu`): one card for all the deals it
  cannot tell apart, ``depth`` of its own cards ahead (default 2), over ``worlds`` deals
  (default 40; every consistent deal when there are no more), from trick ``full_from``
  on (default: never) to the end of the hand, weighed by the calls (``read_calls=1``)
  and the play (``read_play=1``) as ``pimc``'s; calls and cantes as ``pimc``.
- ``openspiel-ismcts``: OpenSpiel's own information-set MCTS
  (``open_spiel.python.algorithms.ismcts``) on the OpenSpiel game of the hand
  (:mod:`~cuatrola_solver.bots.openspiel_game`), for its cards and its cantes: ``sims``
  simulations a decision (default 500), each on the hidden cards dealt again from the
  seat's information, UCT constant ``uct_c`` (default 2), ``rollouts`` random playouts
  to value a new node (default 1); calls as ``pimc``.  Needs OpenSpiel (the
  ``openspiel`` extra): without it, asking for the player fails in one line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Callable, Iterable, Protocol, get_type_hints

from ..advice.bidding import Advice, advise, valued
from ..advice.budget import Budget
from ..advice.cardplay import best_cante, cante_values, hint
from ..errors import PlayerError, quote
from ..game.cards import (FULL_DECK, SUIT_MASKS, CardMask, Rank, card, cards_of, mask_of,
                          points_of, rank_of, suit_of)
from ..game.play import next_seat, side_of, trick_winner_index
from ..game.rules import RuleSet
from ..game.seats import Seat
from ..game.view import View
from ..i18n import _
from ..models.preset import Models
from .alphamu import Choice, choose, worlds_of
from .openspiel_game import ACTION_QUIET, ACTION_SING, ismcts_action, openspiel
from .playout import Player

__all__ = ["Policy", "RandomPlayer", "HeuristicPlayer", "Bidder", "PimcPlayer", "AlphaMuPlayer",
           "OpenSpielIsmctsPlayer", "PLAYERS", "BEST",
           "make_player", "parse_player", "split_players", "bid_advice"]


class Policy(Player, Protocol):
    """A named player: the three answers of a :class:`~cuatrola_solver.bots.playout.Player`
    (``call``, ``sing``, ``card``) and its ``name``."""

    name: str


class RandomPlayer:
    """A uniform legal choice for every call, cante (or none) and card."""

    name = "random"

    def call(self, view: View, seed: int) -> str:
        return random.Random(view.seed(seed)).choice(view.legal_calls())

    def sing(self, view: View, seed: int) -> int | None:
        return random.Random(view.seed(seed)).choice([None, *view.cante_options()])

    def card(self, view: View, seed: int) -> int:
        return random.Random(view.seed(seed)).choice(view.legal_cards())

    def __repr__(self) -> str:
        return "random"


# --- rules of thumb ----------------------------------------------------------------------

def _strength(c: int) -> int:
    """Higher is stronger within a suit (A > 3 > R > C > S)."""
    return int(rank_of(c))


def _trick_winner(view: View) -> tuple[int, int]:
    """(seat, card) winning the trick on the table so far (it has a card)."""
    pos = view.play_position
    i = trick_winner_index(pos.trick, view.trump)
    seat = pos.leader
    for _ in range(i):
        seat = next_seat(seat, pos.active)
    return seat, pos.trick[i]


def _out(view: View, seats: Iterable[Seat]) -> CardMask:
    """The cards still out that one of ``seats`` (other seats) may hold: not in this
    seat's hand, not played, and not known to be in another seat's hand.  A card this
    seat has not seen may be in any hidden hand; a card whose holder it knows -- the
    muestra, face up in the dealer's hand until the dealer plays it, or a rey or caballo
    sung -- is out only if that seat is one of ``seats``."""
    seats = set(seats)
    if not seats:
        return 0
    played = mask_of(p.card for p in view.plays)
    out = 0
    for c in cards_of(FULL_DECK & ~view.hand & ~played):
        holder = view.seen._holder(c)
        if holder is None or holder[0] in seats:
            out |= 1 << c
    return out


def _master(c: int, out: int) -> bool:
    """True when no card of ``out`` beats ``c`` in its suit."""
    s = int(suit_of(c))
    return not any(int(suit_of(x)) == s and _strength(x) > _strength(c)
                   for x in cards_of(out))


class HeuristicPlayer:
    """A club player's rules of thumb, as readable rules.

    Calls (only among the legal ones):

    1. *quintola* with five trumps, or four trumps holding the as and the tres;
    2. *cuatrola* with four trumps including the as or the tres, plus an as outside;
    3. *solo* with three trumps including the as or the tres and an as outside, or
       four trumps, or the as and tres of trumps with another as;
    4. otherwise *paso*.

    Cantes: sing at the first chance, the 40 before a 20.

    Cards:

    1. leading: with the master trump in hand -- the best trump not yet played: no other
       seat in play holds a better one, and the muestra counts, face up in the dealer's
       hand until the dealer plays it -- lead it (arrastre) while the other side may
       still hold a trump (the muestra is one when the dealer is an opponent); else cash
       the plain card worth most that is master in its suit (an as, or a card above all
       those left of its suit); else lead the lowest card of the longest plain suit;
       else (only trumps) the lowest trump;
    2. following, partner winning the trick with a card nobody still to play can beat
       (a plain card only while none of them may hold a trump): give it the plain card
       worth most (an as or tres if allowed), else the lowest trump;
    3. following otherwise (an opponent winning, or the partner's card could be beaten):
       win the trick with the lowest card that wins (the last to play too: every card
       counts points, so a trick it can win is worth taking); if nothing wins, throw the
       card worth least, a plain card before a trump.  (The rules of play leave either
       only cards that win or none that does, so the two halves never compete.)

    A card is "left" or "out" while it is neither played nor in this seat's hand.  Who
    may hold it: a card the seat has not seen, any hidden hand; the muestra (until the
    dealer plays it) and a sung rey or caballo, only the seat known to hold them.
    """

    name = "heuristic"

    def call(self, view: View, seed: int) -> str:
        legal = view.legal_calls()
        held = cards_of(view.hand)
        trump = view.trump
        trumps = [c for c in held if suit_of(c) == trump]
        top = {card(Rank.AS, trump), card(Rank.TRES, trump)}
        top_held = len(top & set(trumps))
        side_aces = sum(1 for c in held if rank_of(c) == Rank.AS and suit_of(c) != trump)
        wanted = ["paso"]
        if (len(trumps) >= 3 and top_held and side_aces) or len(trumps) >= 4 or \
                (top_held == 2 and side_aces):
            wanted.append("solo")
        if len(trumps) >= 4 and top_held and side_aces:
            wanted.append("cuatrola")
        if len(trumps) == 5 or (len(trumps) == 4 and top_held == 2):
            wanted.append("quintola")
        for call in reversed(wanted):
            if call in legal:
                return call
        return "paso"

    def sing(self, view: View, seed: int) -> int | None:
        options = view.cante_options()
        return options[0] if options else None

    def card(self, view: View, seed: int) -> int:
        legal = view.legal_cards()
        if len(legal) == 1:
            return legal[0]
        trump = view.trump
        pos = view.play_position
        if not pos.trick:
            return self._lead(view, legal)
        winner = _trick_winner(view)
        mine = side_of(view.seat)
        if side_of(winner[0]) == mine and self._safe(view, winner[1]):
            return max(legal, key=lambda c: (points_of(c) if suit_of(c) != trump else -1, -c))
        winning = [c for c in legal if self._beats(view, c, winner[1])]
        if winning:
            return min(winning, key=lambda c: (suit_of(c) == trump, _strength(c), c))
        return min(legal, key=lambda c: (suit_of(c) == trump, points_of(c), _strength(c), c))

    def _lead(self, view: View, legal: list[int]) -> int:
        trump = view.trump
        others = [s for s in (1, 2, 3, 4) if s != view.seat and view.active[s - 1]]
        out = _out(view, others)
        theirs = _out(view, [s for s in others if side_of(s) != view.side])
        trumps = [c for c in legal if suit_of(c) == trump]
        if trumps and theirs & SUIT_MASKS[trump] and _master(max(trumps, key=_strength), out):
            return max(trumps, key=_strength)
        plain = [c for c in legal if suit_of(c) != trump]
        masters = [c for c in plain if _master(c, out)]
        if masters:
            return max(masters, key=lambda c: (points_of(c), c))
        if plain:
            by_suit: dict[int, list[int]] = {}
            for c in plain:
                by_suit.setdefault(int(suit_of(c)), []).append(c)
            longest = max(by_suit.values(), key=lambda cs: (len(cs), -min(cs)))
            return min(longest, key=lambda c: (_strength(c), c))
        return min(legal, key=lambda c: (_strength(c), c))

    def _beats(self, view: View, c: int, best: int) -> bool:
        trump = view.trump
        if suit_of(c) == suit_of(best):
            return _strength(c) > _strength(best)
        return suit_of(c) == trump

    def _safe(self, view: View, c: int) -> bool:
        """Nobody who has still to play to this trick can beat ``c`` (as far as this seat
        can tell: a card it has not seen may be with any of them)."""
        pos = view.play_position
        later, seat = [], view.seat
        for _ in range(sum(pos.active) - len(pos.trick) - 1):
            seat = next_seat(seat, pos.active)
            later.append(seat)
        out = _out(view, later)
        if not _master(c, out):
            return False
        return suit_of(c) == view.trump or not out & SUIT_MASKS[view.trump]

    def __repr__(self) -> str:
        return "heuristic"


# --- the advisor's odds of a call -------------------------------------------------------

_BID_ADVICE: dict[tuple[str, int, int, str, bool], Advice] = {}
_BID_ADVICE_KEEP = 8


def bid_advice(view: View, seed: int, samples: int, odds: str = "dd",
               inference: bool = False) -> Advice:
    """The advisor's odds for the seat about to speak: ``advise`` over ``samples`` deals
    drawn with a seed from ``seed`` and the view (so equal views, equal odds).  What
    ``pimc`` bids on, and what the self-play lab records for each bid decision: the
    last few answers are kept, so the lab and the player share one search (a memo of a
    pure function: the answer depends on the view, the seed and ``samples`` only)."""
    key = (view.key(), seed, samples, odds, inference)
    advice = _BID_ADVICE.get(key)
    if advice is None:
        models = Models.of(view.rules, inference=inference and bool(view.calls),
                           played=odds == "played")
        advice = advise(view, Budget(samples=samples, seed=view.seed(seed), workers=1), models)
        if len(_BID_ADVICE) >= _BID_ADVICE_KEEP:
            _BID_ADVICE.pop(next(iter(_BID_ADVICE)))
        _BID_ADVICE[key] = advice
    return advice


# --- the calls of the searching players ----------------------------------------------------

@dataclass(frozen=True)
class Bidder:
    """How a searching player calls (``pimc``'s, ``alphamu``'s and ``openspiel-ismcts``'s
    options of the same names): ``bid`` names the bidder (``advisor``: the advice of
    :func:`bid_advice` over ``bid_samples`` deals; ``heuristic``; ``random``)."""

    bid: str = "advisor"
    bid_samples: int = 300
    #: the advisor bidder's odds: "dd" (double dummy) or "played" (the played-odds model)
    odds: str = "dd"
    #: 1: the advisor bidder weights the deals by the calls before it (the bid model)
    inference: int = 0
    #: with the match score: 1 bids for the match (the best match chance), 0 for the hand
    #: (the best expected points per hand)
    match: int = 1

    def call(self, view: View, seed: int) -> str:
        legal = view.legal_calls()
        if self.bid == "heuristic":
            return HeuristicPlayer().call(view, seed)
        if self.bid == "random":
            return RandomPlayer().call(view, seed)
        advice = bid_advice(view, seed, self.bid_samples, self.odds, bool(self.inference))
        choice = advice.advice
        if not self.match and advice.advice_per_hand is not None:
            choice = advice.advice_per_hand
        return choice if choice in legal else "paso"

    def options(self) -> list[str]:
        """The options not at their defaults, as a player spec writes them."""
        opts = []
        if self.bid != "advisor":
            opts.append(f"bid={self.bid}")
        if self.bid_samples != 300:
            opts.append(f"bid_samples={self.bid_samples}")
        if self.odds != "dd":
            opts.append(f"odds={self.odds}")
        if self.inference:
            opts.append(f"inference={self.inference}")
        if not self.match:
            opts.append("match=0")
        return opts


# --- perfect-information Monte Carlo --------------------------------------------------------

@dataclass
class PimcPlayer:
    """Samples deals consistent with the view and plays the best double-dummy card; calls
    with its :class:`Bidder` (the options ``bid`` to ``match``)."""

    samples: int = 40
    bidder: Bidder = field(default_factory=Bidder)
    #: 1: the card play weighs the deals by the calls (the bid model)
    read_calls: int = 0
    #: 1: the card play weighs the deals by the cards the other seats played (the
    #: card-play model)
    read_play: int = 0
    name: str = "pimc"

    def call(self, view: View, seed: int) -> str:
        return self.bidder.call(view, seed)

    def sing(self, view: View, seed: int) -> int | None:
        options = view.cante_options()
        if not options:
            return None
        return best_cante(cante_values(view, [None, *options], samples=self.samples,
                                       seed=view.seed(seed)))

    def card(self, view: View, seed: int) -> int:
        legal = view.legal_cards()
        if len(legal) == 1:
            return legal[0]
        return valued(hint(view, Budget(samples=self.samples, seed=view.seed(seed)),
                           self.reading(view.rules)).best)

    def reading(self, rules: RuleSet) -> Models:
        """The models the card play weighs its deals by: the bid model with
        ``read_calls``, the card-play model with ``read_play`` (no played odds)."""
        if not (self.read_calls or self.read_play):
            return Models.NONE
        shipped = Models.of(rules, played=False)
        return Models(shipped.bids if self.read_calls else None, None,
                      shipped.cards if self.read_play else None)

    def _options(self) -> list[str]:
        return ([f"samples={self.samples}"] if self.samples != 40 else []) + \
            self.bidder.options()

    def __repr__(self) -> str:
        opts = self._options()
        if self.read_calls:
            opts.append("read_calls=1")
        if self.read_play:
            opts.append("read_play=1")
        return "pimc" + (":" + ",".join(opts) if opts else "")


@dataclass
class AlphaMuPlayer(PimcPlayer):
    """αμ card play (:func:`~cuatrola_solver.bots.alphamu.choose`) over ``worlds`` deals,
    ``depth`` of its own cards ahead, the worlds weighed by the calls (``read_calls=1``)
    and by the play (``read_play=1``); calls and cantes as ``pimc``'s."""

    worlds: int = 40
    depth: int = 2
    #: from this trick on, look to the end of the hand (0: never)
    full_from: int = 0
    #: 1: the worlds are weighed by the calls (the bid model)
    read_calls: int = 0
    #: 1: the worlds are weighed by the cards the other seats played (the card-play model)
    read_play: int = 0
    name: str = "alphamu"

    def card(self, view: View, seed: int) -> int:
        legal = view.legal_cards()
        if len(legal) == 1:
            return legal[0]
        return self.choice(view, seed).card

    def choice(self, view: View, seed: int) -> Choice:
        """The search of this decision, as the player makes it."""
        hands, weights, _ = worlds_of(view, self.worlds, view.seed(seed),
                                      self.reading(view.rules))
        late = self.full_from and view.trick_number >= self.full_from
        return choose(view, hands, weights, 5 if late else self.depth)

    def __repr__(self) -> str:
        opts = [f"worlds={self.worlds}", f"depth={self.depth}"]
        if self.full_from:
            opts.append(f"full_from={self.full_from}")
        if self.read_calls:
            opts.append("read_calls=1")
        if self.read_play:
            opts.append("read_play=1")
        return "alphamu:" + ",".join(opts + self._options())


@dataclass
class OpenSpielIsmctsPlayer:
    """OpenSpiel's IS-MCTS bot for the cards and the cantes
    (:func:`~cuatrola_solver.bots.openspiel_game.ismcts_action`: ``sims`` simulations,
    UCT constant ``uct_c``, ``rollouts`` random playouts a new node; IS-MCTS deals the
    hidden cards itself); calls with a :class:`Bidder`, as ``pimc`` does (the options
    ``bid`` to ``match``).  Made only where OpenSpiel is installed."""

    sims: int = 500
    uct_c: float = 2.0
    rollouts: int = 1
    bidder: Bidder = field(default_factory=Bidder)
    name: str = "openspiel-ismcts"

    def __post_init__(self) -> None:
        openspiel()                      # without OpenSpiel: one line, before any work

    def call(self, view: View, seed: int) -> str:
        return self.bidder.call(view, seed)

    def card(self, view: View, seed: int) -> int:
        legal = view.legal_cards()
        if len(legal) == 1:
            return legal[0]
        return ismcts_action(view, view.seed(seed), "card", self.sims, self.uct_c,
                             self.rollouts)

    def sing(self, view: View, seed: int) -> int | None:
        if not view.cante_options():
            return None
        action = ismcts_action(view, view.seed(seed), "sing", self.sims, self.uct_c,
                               self.rollouts)
        return None if action == ACTION_QUIET else action - ACTION_SING

    def __repr__(self) -> str:
        opts = [f"sims={self.sims}", f"uct_c={self.uct_c:g}"]
        if self.rollouts != 1:
            opts.append(f"rollouts={self.rollouts}")
        return "openspiel-ismcts:" + ",".join(opts + self.bidder.options())


def _options(cls: type) -> dict[str, type]:
    """The options a player takes (name -> type), read off its dataclass fields: the
    fields it declares, in order, then those it inherits, less ``name``; a field that is
    a group of options (a dataclass, as ``bidder``) stands for its own options."""
    if not is_dataclass(cls):
        return {}
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    own = [n for n in vars(cls).get("__annotations__", {}) if n in names]
    out: dict[str, type] = {}
    for n in own + [n for n in names if n not in own]:
        if is_dataclass(hints[n]):
            out.update(_options(hints[n]))
        elif n != "name":
            out[n] = hints[n]
    return out


def _grouped(cls: type, options: dict[str, object]) -> dict[str, object]:
    """A player's options as its class takes them: those of a group (``bid`` to
    ``match``) gathered into the group's dataclass (its :class:`Bidder`)."""
    if not is_dataclass(cls):
        return options
    hints = get_type_hints(cls)
    out = dict(options)
    for f in fields(cls):
        group = hints[f.name]
        if isinstance(group, type) and is_dataclass(group):
            mine = {g.name: out.pop(g.name) for g in fields(group) if g.name in out}
            if mine:
                out[f.name] = group(**mine)
    return out


#: the players by name, with the options each takes (name -> type)
PLAYERS = {cls.name: (cls, _options(cls)) for cls in (RandomPlayer, HeuristicPlayer, PimcPlayer,
                                                      AlphaMuPlayer, OpenSpielIsmctsPlayer)}
#: ``best``: the strongest player measured, by name and options (more options may follow
#: ``best:``).  αμ searching to the end from the third trick over 100 worlds: ahead of
#: ``pimc`` in every duplicate run measured, +0.028, +0.018, +0.012 (online) and +0.004
#: (narro) match points a hand, the last two on 2,000 fresh deals each with intervals
#: across zero (docs/findings.md, "αμ against pimc"); about 50 ms a card (median, one
#: core).  ``cuatrola play``'s bots by default.
BEST = "alphamu:worlds=100,full_from=3"
#: the range of a number option (a float: above the low end)
UCT_RANGE = (0.0, 100.0)
#: options that are a switch (0 or 1)
SWITCHES = ("inference", "match", "read_calls", "read_play")
BIDDERS = ("advisor", "heuristic", "random")


def make_player(name: str, **options: object) -> Policy:
    """A player by name with its options: ``make_player("pimc", samples=80)``."""
    if name not in PLAYERS:
        raise PlayerError(_("unknown player {name}: expected one of {players}")
                           .format(name=quote(name), players=', '.join(PLAYERS)))
    cls, known = PLAYERS[name]
    for key in options:
        if key not in known:
            raise PlayerError(f"player {quote(name)} takes no option {quote(key)}"
                                + (f" (options: {', '.join(known)})" if known else ""))
    factory: Callable[..., Policy] = cls       # each player's class makes a Policy
    return factory(**_grouped(cls, options))


def parse_player(spec: str) -> Policy:
    """Read ``name[:option=value,...]``, e.g. ``pimc:samples=80,bid=heuristic``;
    ``best[:option=value,...]`` is :data:`BEST` (with those options added)."""
    name, _colon, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "best":
        name, _colon, best_options = BEST.partition(":")
        rest = ",".join(x for x in (best_options, rest) if x.strip())
    options: dict[str, int | float | str] = {}
    if name not in PLAYERS:
        raise PlayerError(_("unknown player {spec}: expected one of {players} or best")
                           .format(spec=quote(spec), players=', '.join(PLAYERS)))
    known = PLAYERS[name][1]
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in known:
            raise PlayerError(f"bad option {quote(item)} of player {quote(spec)}: expected "
                                + (", ".join(f"{k}=..." for k in known) or "no options"))
        try:
            read = known[key](value.strip())          # an int, a float or a str
        except ValueError:
            raise PlayerError(_("bad value {value} for {key} of player {spec}")
                               .format(value=quote(value), key=key, spec=quote(spec))) from None
        options[key] = read
        if known[key] is int and key not in SWITCHES and not 1 <= read <= 100_000:
            raise PlayerError(_("bad value {value} for {key} of player {spec}: expected 1 to "
                                "100000")
                               .format(value=quote(value), key=key, spec=quote(spec)))
        if known[key] is float and not UCT_RANGE[0] < read <= UCT_RANGE[1]:
            raise PlayerError(_("bad value {value} for {key} of player {spec}: expected a "
                                "number above {value2:g}, at most {value3:g}")
                               .format(value=quote(value), key=key, spec=quote(spec),
                                   value2=UCT_RANGE[0], value3=UCT_RANGE[1]))
        if key == "odds" and read not in ("dd", "played"):
            raise PlayerError(_("bad value {value} for odds of player {spec}: expected dd or "
                                "played")
                               .format(value=quote(value), spec=quote(spec)))
        if key in SWITCHES and read not in (0, 1):
            raise PlayerError(_("bad value {value} for {key} of player {spec}: expected 0 or 1")
                               .format(value=quote(value), key=key, spec=quote(spec)))
        if key == "bid" and read not in BIDDERS:
            raise PlayerError(_("bad value {value} for bid of player {spec}: expected one of "
                                "{bidders}")
                               .format(value=quote(value), spec=quote(spec),
                                   bidders=', '.join(BIDDERS)))
    return make_player(name, **options)


def split_players(text: str) -> list[str]:
    """The player specs of a list of players (``play --bots``): separated by ``;``, or
    by commas, where a comma-separated item with ``=`` is an option of the player before
    it -- ``pimc:samples=3,bid=heuristic`` is one player, ``pimc:samples=3;random;heuristic``
    and ``pimc:samples=3,random,heuristic`` are three.  The specs are not parsed here
    (:func:`parse_player` reads each)."""
    if ";" in text:
        return [x.strip() for x in text.split(";")]
    specs: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        option = "=" in item and ":" not in item
        if option and specs and ":" in specs[-1]:
            specs[-1] += "," + item
        elif option and specs:
            raise PlayerError(_("bad option {item}: options follow the player's name after "
                                "':', as pimc:samples=80")
                               .format(item=quote(item)))
        else:
            specs.append(item)
    return specs
