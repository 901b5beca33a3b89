"""Cuatrola as an OpenSpiel game, on the project's rules engine, for OpenSpiel's own bots.

`OpenSpiel <https://github.com/google-deepmind/open_spiel>`_ is the field's standard
framework of games and search algorithms.  This module makes one hand of cuatrola an
OpenSpiel game (``python_cuatrola``, registered with ``pyspiel.register_game`` when
:func:`openspiel` first loads it), so that OpenSpiel's algorithms -- its information-set
MCTS above all (the ``openspiel-ismcts`` player, :mod:`~cuatrola_solver.bots.players`)
-- play the game the project plays.  OpenSpiel is optional (the ``openspiel`` extra):
nothing here imports it until a game or a search is asked for, and without it that
question fails with one line (:data:`MISSING`).

**Built on the engine.**  The state wraps a :class:`~cuatrola_solver.game.hand.HandState`
(:class:`OpenSpielHand`): the calls, cards and cantes are the engine's (``bid``, ``play``,
``sing``), the legal cards its ``legal_cards``, the returns its ``result``; a
search's branch is a :meth:`HandState.copy <cuatrola_solver.game.hand.HandState.copy>`.

**What is modeled: one hand, from the deal to its result.**

- The deal: 20 chance nodes, one card each, uniform over the cards left: seat 1's five
  cards, then seat 2's, seat 3's and seat 4's, whose last card is the muestra (face up).
- The auction: one call per seat from seat 1 (actions).  With the game parameter
  ``calls`` (e.g. ``"paso solo paso paso"``) the contract is fixed: each seat's only
  legal call is its call of that auction (the lab plays the card play of a hand after
  its players' bidding this way).
- The play: the cards (actions 0 to 19, the legal ones only: no renuncio is ever
  played), and the cantes.  At each trick boundary the seats that could sing, as far
  as everyone can tell -- the contract, the trick, their side's tricks and cantes, the
  suits already sung or played (docs/rules.md 5) -- are asked in turn, in the singing
  order of the lab (:func:`~cuatrola_solver.bots.playout.singing_order`): sing one of
  the suits its own cards allow (:func:`~cuatrola_solver.game.play.seat_cante_options`)
  or keep quiet; a seat without a cante may only keep quiet.  Who is asked is public;
  whether a quiet seat could have sung is not.  Under ``forty_first`` a 20 that the
  engine refuses for the partner's 40 is not sung, as in the lab; only its singer
  knows it tried.
- The returns: the engine's result in match points, ``+value`` to the two seats of the
  winning side and ``-value`` to the other two (zero sum; a seat that sits out shares
  its side's).

Not modeled: renuncios and their penalty (only legal cards are actions), the match
(one hand: the ``score`` parameter only caps the bids of a free auction), the policía.

**Information.**  A player's information state (``information_state_string``) is its
seat's :class:`~cuatrola_solver.game.view.View`: its five cards, the muestra once
dealt, every call and card, every cante decision (sung or quiet), and of its own
decisions a refused cante too.  ``observation_string`` is what it sees now: its cards
in hand, the muestra, the contract, the trick on the table, the tricks, points and
cantes so far.  ``resample_from_infostate(player, sampler)`` deals the cards that
player cannot see again, uniformly among the deals consistent with what it saw --
the exact sampler of :mod:`cuatrola_solver.hidden` (its cards, the cards played, the
voids and the cards a play shows a seat could not hold, the cantes) -- and replays the
history on that deal: the result has the same information state for the player (it
is checked; a deal the check refuses, possible only by a refused cante, is drawn
again).

**Actions**: 0-19 the cards (also the chance outcomes of the deal), 20-24 the calls
(``paso solo contrasolo cuatrola quintola``), 25-28 sing oros, copas, espadas,
bastos, 29 keep quiet.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..errors import CuatrolaError, PlayerError, RulesError, quote
from ..game.auction import CALLS, Auction
from ..game.cards import NUM_CARDS, Card, CardMask, cards_of, format_card, format_cards, mask_of
from ..game.hand import HandState
from ..game.match import Score, parse_score
from ..game.play import SUIT_NAMES, cante_mask, cante_refusal, seat_cante_options, side_of
from ..game.rules import CONTRACT_VALUE, RuleSet, get_rules, rules_spec
from ..game.view import View
from ..hidden.deals import count_deals, unrank_deals
from ..hidden.knowledge import Knowledge
from ..hidden.inference import knowledge_of
from .playout import singing_order

__all__ = ["GAME_NAME", "MISSING", "ACTION_CALL", "ACTION_SING", "ACTION_QUIET",
           "NUM_ACTIONS", "CHANCE", "TERMINAL", "Setup", "OpenSpielHand", "openspiel",
           "load_game", "game_for", "state_from_view", "ismcts_action"]

GAME_NAME = "python_cuatrola"
#: the one line said when OpenSpiel is asked for and not installed
MISSING = ("OpenSpiel is not installed (the openspiel-ismcts player needs it): "
           "pip install 'cuatrola-solver[openspiel]', or pip install open_spiel")

ACTION_CALL = NUM_CARDS                 # + the call's index in CALLS
ACTION_SING = ACTION_CALL + len(CALLS)  # + the suit
ACTION_QUIET = ACTION_SING + 4
NUM_ACTIONS = ACTION_QUIET + 1
#: the longest hand: 4 calls, 20 cards, 4 seats asked at each of 4 boundaries
MAX_GAME_LENGTH = 4 + NUM_CARDS + 16
#: who acts at a chance node and at the end (seats are 1 to 4)
CHANCE, TERMINAL = 0, -1
#: the rey and caballo of every suit: whoever might hold them, as far as everyone knows
_ALL_PAIRS = sum(cante_mask(s) for s in range(4))
#: resampling draws again when a deal fails the information check: this many times
MAX_DRAWS = 1000


@dataclass(frozen=True)
class Setup:
    """The game's parameters, read: the rules, the fixed calls (None: the auction is
    played) and the match score before the hand (None: none)."""

    rules: RuleSet
    calls: tuple[str, ...] | None = None
    score: Score | None = None

    @classmethod
    def read(cls, params: Mapping[str, object]) -> "Setup":
        """From OpenSpiel's game parameters (all text): ``rules`` (a preset, ``"narro,
        tie_break=mano"``, or JSON as the records write a rule set), ``calls`` (four
        calls, or empty) and ``score`` (``"3-5"``, or empty)."""
        text = str(params.get("rules", "online"))
        if text.lstrip().startswith("{"):
            try:
                text = json.loads(text)
            except ValueError:
                raise RulesError(f"bad rules {quote(text)}: not a JSON object") from None
        rules = get_rules(text)
        score_text = str(params.get("score", "")).strip()
        score = parse_score(score_text, "the game parameter score", rules) if score_text else None
        calls_text = str(params.get("calls", "")).replace(",", " ").split()
        calls = None
        if calls_text:
            if len(calls_text) != 4:
                raise CuatrolaError(f"bad calls {quote(' '.join(calls_text))}: expected 4, one "
                                    f"per seat from seat 1, or none (the auction is played)")
            auction = Auction(rules, score)
            for call in calls_text:
                auction.call(call.lower())
            calls = tuple(auction.calls)
        return cls(rules, calls, score)

    def params(self) -> dict[str, str]:
        """The OpenSpiel game parameters of this setup."""
        spec = rules_spec(self.rules)
        return {"rules": spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True),
                "calls": " ".join(self.calls or ()),
                "score": "" if self.score is None else str(self.score)}


class Context:
    """What every state of one game shares (never copied): the setup, and the
    knowledge behind each information state resampled lately."""

    KEEP = 64

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._knowledge: OrderedDict[tuple[int, str], Knowledge] = OrderedDict()

    def __deepcopy__(self, memo: dict[int, object]) -> "Context":
        return self

    def knowledge(self, os_hand: "OpenSpielHand", seat: int) -> Knowledge:
        key = (seat, os_hand.info_string(seat))
        k = self._knowledge.get(key)
        if k is None:
            assert os_hand.hand is not None, "a player is asked once the cards are dealt"
            k = knowledge_of(View.from_hand(os_hand.hand, seat))
            if len(self._knowledge) >= self.KEEP:
                self._knowledge.popitem(last=False)
            self._knowledge[key] = k
        return k


class OpenSpielHand:
    """One hand in OpenSpiel's terms, on the engine (plain Python: OpenSpiel not needed).

    ``dealt``: the chance outcomes so far (the cards in dealing order); ``hand``: the
    engine's hand once all 20 are dealt; ``events``: each player action as ``(seat,
    action, the action as the others saw it, its text for them, its text for its
    seat)``; ``asked``: how many seats of the boundary's singing order have been dealt
    with.  :meth:`node` is who acts and with which actions."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self.dealt: list[int] = []
        self.hand: HandState | None = None
        self.events: list[tuple[int, int, int, str, str]] = []
        self.asked = 0
        self._node: tuple[int, tuple[int, ...]] | None = None
        self._strings: dict[int, str] = {}

    def copy(self) -> "OpenSpielHand":
        new = OpenSpielHand.__new__(OpenSpielHand)
        new.context = self.context
        new.dealt = list(self.dealt)
        new.hand = None if self.hand is None else self.hand.copy()
        new.events = list(self.events)
        new.asked = self.asked
        new._node = self._node
        new._strings = dict(self._strings)
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> "OpenSpielHand":
        return self.copy()

    @property
    def setup(self) -> Setup:
        return self.context.setup

    @property
    def dealt_hand(self) -> HandState:
        """:attr:`hand` once the twenty cards are dealt (the chance nodes are over)."""
        assert self.hand is not None, "the cards are not all dealt yet"
        return self.hand

    # --- who acts ------------------------------------------------------------------
    def node(self) -> tuple[int, tuple[int, ...]]:
        """``(who, actions)``: :data:`CHANCE` and the cards left to deal, a seat (1 to 4)
        and its legal actions (ascending), or :data:`TERMINAL` and none."""
        if self._node is None:
            self._node = self._find_node()
        return self._node

    def _find_node(self) -> tuple[int, tuple[int, ...]]:
        if len(self.dealt) < NUM_CARDS:
            left = ~mask_of(self.dealt) & ((1 << NUM_CARDS) - 1)
            return CHANCE, tuple(cards_of(left))
        hand = self.dealt_hand
        if not hand.auction.is_complete:
            seat = hand.auction.speaker
            assert seat is not None, "an auction not complete has a seat to speak"
            calls = [self.setup.calls[seat - 1]] if self.setup.calls else hand.legal_calls()
            return seat, tuple(ACTION_CALL + CALLS.index(c) for c in calls)
        if hand.is_over():
            return TERMINAL, ()
        pos = hand.play_position
        if hand.tricks and not pos.trick:
            order = singing_order(hand)
            if self.asked < len(order):
                played = mask_of(p.card for p in hand.plays)
                anyone = pos.with_changes(hands=(_ALL_PAIRS & ~played,) * 4)
            while self.asked < len(order):
                seat = order[self.asked]
                if any(cante_refusal(anyone, self.setup.rules, seat, s) is None
                       for s in range(4)):
                    suits = sorted(seat_cante_options(pos, self.setup.rules, seat))
                    return seat, tuple(ACTION_SING + s for s in suits) + (ACTION_QUIET,)
                self.asked += 1
        return pos.to_play, tuple(hand.legal_cards())

    @property
    def who(self) -> int:
        return self.node()[0]

    # --- acting ----------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply a legal action of the node (a ValueError names an illegal one)."""
        who, legal = self.node()
        if action not in legal:
            raise ValueError(f"action {action} ({self.action_text(action)}) is not legal "
                             f"here: {', '.join(self.action_text(a) for a in legal)}")
        if who == CHANCE:
            self.dealt.append(action)
            if len(self.dealt) == NUM_CARDS:
                d = self.dealt
                self.hand = HandState([d[0:5], d[5:10], d[10:15], d[15:20]], d[19],
                                 self.setup.rules, self.setup.score)
        elif action >= ACTION_SING:
            self.asked += 1
            if action == ACTION_QUIET:
                text = f"{who}:quiet"
                self.events.append((who, action, action, text, text))
            else:
                suit = action - ACTION_SING
                if self.dealt_hand.cante_refusal(who, suit) is None:
                    self.dealt_hand.sing(who, suit)
                    text = f"{who}:sings-{SUIT_NAMES[suit]}"
                    self.events.append((who, action, action, text, text))
                else:               # forty_first: the partner's 40 comes first
                    self.events.append((who, action, ACTION_QUIET, f"{who}:quiet",
                                        f"{who}:sings-{SUIT_NAMES[suit]}-refused"))
        elif action >= ACTION_CALL:
            call = CALLS[action - ACTION_CALL]
            self.dealt_hand.bid(call)
            text = f"{who}:{call}"
            self.events.append((who, action, action, text, text))
        else:
            self.dealt_hand.play(action)
            if not self.dealt_hand.play_position.trick:
                self.asked = 0
            text = f"{who}:{format_card(action)}"
            self.events.append((who, action, action, text, text))
        self._node = None
        self._strings = {}

    def action_text(self, action: int) -> str:
        if action < ACTION_CALL:
            return format_card(action)
        if action < ACTION_SING:
            return CALLS[action - ACTION_CALL]
        if action < ACTION_QUIET:
            return f"sing {SUIT_NAMES[action - ACTION_SING]}"
        return "quiet"

    # --- the end ------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each seat's match points: the hand's value to the winning side, minus it to
        the other (0 while the hand is on)."""
        if self.who != TERMINAL:
            return [0.0] * 4
        result = self.dealt_hand.final_result()
        v = float(result.game_points)
        return [v if side_of(s) == result.winner else -v for s in (1, 2, 3, 4)]

    # --- what each seat knows -----------------------------------------------------------
    def dealt_to(self, seat: int) -> list[int]:
        return self.dealt[5 * (seat - 1):5 * seat]

    def muestra(self) -> int | None:
        return self.dealt[-1] if len(self.dealt) == NUM_CARDS else None

    def _head(self, seat: int) -> str:
        m = self.muestra()
        return (f"seat {seat}: {format_cards(sorted(self.dealt_to(seat)))}"
                + ("" if m is None else f"; muestra {format_card(m)}"))

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` knows: its cards, the muestra, every action as it saw it."""
        s = self._strings.get(seat)
        if s is None:
            s = self._head(seat) + "|" + " ".join(
                mine if who == seat else theirs for who, _, _, theirs, mine in self.events)
            self._strings[seat] = s
        return s

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now: its cards in hand, the muestra, the contract, the
        trick on the os_hand, the tricks, points and cantes of each side."""
        if self.hand is None:
            return self._head(seat)
        hand = self.hand
        held = hand.pos.hand(seat) if hand.pos is not None else hand.deal[seat - 1]
        parts = [f"seat {seat}: {format_cards(cards_of(held))}; muestra "
                 f"{format_card(hand.muestra)}"]
        if hand.pos is None:
            parts.append("calls " + " ".join(hand.auction.calls))
        else:
            pos = hand.pos
            declarer = "".join(f" by {s}" for s in pos.declarer)
            parts.append(f"{pos.contract}{declarer}; trick {hand.trick_number}: "
                         f"{format_cards(pos.trick)}; tricks {pos.tricks[0]}-{pos.tricks[1]}, "
                         f"points {pos.points[0]}-{pos.points[1]}; sung "
                         + (" ".join(f"{k.seat}:{SUIT_NAMES[k.suit]}" for k in hand.cantes)
                            or "-"))
        return "; ".join(parts)

    def __str__(self) -> str:
        hands = " / ".join(format_cards(sorted(self.dealt_to(s))) for s in (1, 2, 3, 4))
        return f"{hands}|" + " ".join(mine for _, _, _, _, mine in self.events)

    # --- resampling -------------------------------------------------------------------
    def resampled_actions(self, seat: int, uniform: Callable[[], float]) -> list[int]:
        """The actions of a history ``seat`` cannot tell from this one (as far as the
        cards tell: :meth:`CuatrolaState.resample_from_infostate` checks the rest): the
        cards it has not seen dealt again, drawn with ``uniform()`` (in [0, 1)), then
        every action as it saw it."""
        if self.hand is None:                      # during the deal
            pool = [c for c in range(NUM_CARDS) if c not in self.dealt_to(seat)]
            out = []
            for i, c in enumerate(self.dealt):
                if i // 5 == seat - 1:
                    out.append(c)
                else:
                    out.append(pool.pop(min(int(uniform() * len(pool)), len(pool) - 1)))
            return out
        k = self.context.knowledge(self, seat)
        total = count_deals(k)
        rank = min(int(uniform() * total), total - 1)
        now = unrank_deals(k, np.array([rank], dtype=np.int64))
        dealt = [int(x) for x in k.dealt_hands(now)[0]]
        actions = deal_actions(dealt, self.hand.muestra)
        actions += [action if who == seat else public for who, action, public, _, _ in self.events]
        return actions


def deal_actions(hands: Sequence[CardMask], muestra: Card) -> list[int]:
    """The chance outcomes that deal ``hands`` (masks of seats 1 to 4) with the muestra
    dealt last."""
    out = []
    for seat, mask in enumerate(hands, 1):
        cards = [c for c in cards_of(mask) if seat != 4 or c != muestra]
        out += cards + ([muestra] if seat == 4 else [])
    return out


def follow_view(os_hand: OpenSpielHand, apply: Callable[[int], None], view: View,
                hands: Sequence[int], question: str) -> None:
    """Deal ``hands`` (dealt masks consistent with ``view``) and replay the view's calls,
    cards and cantes through ``apply`` (which applies an action to the state of
    ``os_hand``), up to the view's seat's ``question``: ``"card"`` (its card) or ``"sing"``
    (its cante at this boundary).  A seat asked to sing that the view does not show
    singing kept quiet; so did the view's seat before a card (a 20 refused for its
    partner's 40 is quiet too: the view does not show it)."""
    for a in deal_actions(hands, view.muestra):
        apply(a)
    calls = list(view.calls)
    cards = [c for t in view.tricks for c in t]
    cantes = list(view.seen.cantes)
    while True:
        who, legal = os_hand.node()
        if who == TERMINAL:
            raise PlayerError(f"seat {view.seat}'s view ends the hand: no {question} to choose")
        if calls:
            apply(ACTION_CALL + CALLS.index(calls.pop(0)))
        elif ACTION_QUIET in legal:
            done = len(os_hand.dealt_hand.tricks)
            if cantes and cantes[0].seat == who and cantes[0].after_trick == done:
                apply(ACTION_SING + cantes.pop(0).suit)
            elif who == view.seat and question == "sing" and not cards and not cantes:
                return
            else:
                apply(ACTION_QUIET)
        elif cantes and cantes[0].after_trick <= len(os_hand.dealt_hand.tricks):
            k = cantes[0]
            raise PlayerError(f"seat {view.seat}'s view: seat {k.seat}'s cante after trick "
                              f"{k.after_trick} is not where the game asks for it")
        elif cards:
            apply(cards.pop(0))
        elif who == view.seat and question == "card":
            return
        else:
            raise PlayerError(f"seat {view.seat}'s view does not reach its {question}: "
                              f"seat {who} is to play")


# --- OpenSpiel -----------------------------------------------------------------------------

_LOADED: dict[str, SimpleNamespace] = {}


def openspiel() -> SimpleNamespace:
    """OpenSpiel's modules and this game's classes (``pyspiel``, ``ismcts``, ``mcts``,
    ``Game``, ``State``), loaded and the game registered on first use; a
    :class:`~cuatrola_solver.errors.PlayerError` (:data:`MISSING`) without OpenSpiel."""
    if _LOADED:
        return _LOADED["ns"]
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        raise PlayerError(MISSING) from None
    ns = _classes(pyspiel)
    ns.pyspiel, ns.ismcts, ns.mcts = pyspiel, ismcts, mcts
    pyspiel.register_game(ns.GAME_TYPE, ns.Game)
    _LOADED["ns"] = ns
    return ns


def _classes(pyspiel: Any) -> SimpleNamespace:
    """The game's OpenSpiel classes (OpenSpiel's base classes exist only once it is
    imported): thin shells around an :class:`OpenSpielHand`."""
    game_type = pyspiel.GameType(
        short_name=GAME_NAME, long_name="Cuatrola (one hand, cuatrola-solver's rules engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4, min_num_players=4,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification={"rules": "online", "calls": "", "score": ""})
    top = float(max(CONTRACT_VALUE.values()))
    game_info = pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=NUM_CARDS,
                                 num_players=4, min_utility=-top, max_utility=top,
                                 utility_sum=0.0, max_game_length=MAX_GAME_LENGTH)
    chance = int(pyspiel.PlayerId.CHANCE)
    terminal = int(pyspiel.PlayerId.TERMINAL)

    class Observer:
        """OpenSpiel's observer: the information state (perfect recall) or the
        observation of a seat, as text (no tensors)."""

        def __init__(self, perfect_recall: bool) -> None:
            self.perfect_recall = perfect_recall
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}

        def set_from(self, state: CuatrolaState, player: int) -> None:
            pass

        def string_from(self, state: CuatrolaState, player: int) -> str:
            t = state._os_hand
            return (t.info_string(player + 1) if self.perfect_recall
                    else t.observation_string(player + 1))

    class CuatrolaGame(pyspiel.Game):
        """One hand of cuatrola (see the module's docstring)."""

        def __init__(self, params: Mapping[str, object] | None = None) -> None:
            super().__init__(game_type, game_info, params or {})
            self.setup = Setup.read(self.get_parameters())
            self.context = Context(self.setup)

        def new_initial_state(self) -> CuatrolaState:
            return CuatrolaState(self)

        def make_py_observer(self, iig_obs_type: Any = None,
                             params: Mapping[str, object] | None = None) -> Observer:
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            return Observer(bool(iig_obs_type and iig_obs_type.perfect_recall))

    class CuatrolaState(pyspiel.State):
        """A state of the hand: an :class:`OpenSpielHand` (the engine's hand in OpenSpiel's
        terms)."""

        def __init__(self, game: CuatrolaGame) -> None:
            super().__init__(game)
            self._os_hand = OpenSpielHand(game.context)

        def current_player(self) -> int:
            who = self._os_hand.who
            return chance if who == CHANCE else terminal if who == TERMINAL else who - 1

        def _legal_actions(self, player: int) -> list[int]:
            return list(self._os_hand.node()[1])

        def chance_outcomes(self) -> list[tuple[int, float]]:
            cards = self._os_hand.node()[1]
            return [(c, 1.0 / len(cards)) for c in cards]

        def _apply_action(self, action: int) -> None:
            self._os_hand.apply(int(action))

        def _action_to_string(self, player: int, action: int) -> str:
            text = self._os_hand.action_text(int(action))
            return f"deal {text}" if player == chance else text

        def is_terminal(self) -> bool:
            return self._os_hand.who == TERMINAL

        def returns(self) -> list[float]:
            return self._os_hand.returns()

        def __str__(self) -> str:
            return str(self._os_hand)

        def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]
                                    ) -> CuatrolaState:
            """A state ``player_id`` cannot tell from this one, the hidden cards dealt
            again uniformly among the consistent deals with ``probability_sampler()``."""
            seat = int(player_id) + 1
            want = self._os_hand.info_string(seat)
            game: CuatrolaGame = self.get_game()
            for _ in range(MAX_DRAWS):
                state = game.new_initial_state()
                for a in self._os_hand.resampled_actions(seat, probability_sampler):
                    state.apply_action(a)
                if state._os_hand.info_string(seat) == want:
                    return state
            raise RuntimeError(f"no deal of {MAX_DRAWS} drawn gives seat {seat}'s "
                               f"information state: {want}")

    return SimpleNamespace(GAME_TYPE=game_type, GAME_INFO=game_info, Game=CuatrolaGame,
                           State=CuatrolaState, Observer=Observer)


def load_game(rules: RuleSet | str = "online", calls: Sequence[str] | None = None,
              score: Score | None = None) -> Any:
    """The OpenSpiel game of a hand under ``rules``, its auction fixed to ``calls``
    (None: played) with the match score ``score``: ``pyspiel.load_game`` of
    ``python_cuatrola`` with its parameters."""
    ns = openspiel()
    setup = Setup(get_rules(rules), tuple(calls) if calls else None, score)
    return ns.pyspiel.load_game(GAME_NAME, setup.params())


_GAMES: dict[tuple[RuleSet, tuple[str, ...] | None, Score | None], Any] = {}


def game_for(rules: RuleSet, calls: Sequence[str] | None, score: Score | None) -> Any:
    """:func:`load_game`, one game per setup in a process (a search makes many states)."""
    key = (rules, tuple(calls) if calls else None, score)
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) >= 32:
            _GAMES.clear()
        game = _GAMES[key] = load_game(rules, calls, score)
    return game


def state_from_view(view: View, question: str, uniform: Callable[[], float]) -> Any:
    """An OpenSpiel state of ``view``'s hand at its seat's ``question`` (``"card"`` or
    ``"sing"``): the cards the seat cannot see dealt at random among the deals
    consistent with the view (``uniform()`` in [0, 1) draws it), the history replayed.
    The search reads the seat's information in it, never those cards: it deals them
    again for each simulation."""
    game = game_for(view.rules, view.calls if view.auction_over else None, view.score)
    k = knowledge_of(view)
    total = count_deals(k)
    rank = min(int(uniform() * total), total - 1)
    hands = [int(x) for x in k.dealt_hands(unrank_deals(k, np.array([rank], dtype=np.int64)))[0]]
    state = game.new_initial_state()
    follow_view(state._os_hand, state.apply_action, view, hands, question)
    if state.current_player() != view.seat - 1:
        raise PlayerError(f"seat {view.seat}'s view replays to seat "
                          f"{state.current_player() + 1}'s turn")
    return state


def ismcts_action(view: View, seed: int, question: str, sims: int, uct_c: float,
                  rollouts: int = 1) -> int:
    """OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``, with
    ``RandomRolloutEvaluator``) on ``view``'s ``question``: ``sims`` simulations, each on
    a deal drawn again from the seat's information, UCT constant ``uct_c``, ``rollouts``
    random playouts to value a new node; the most visited action.  Seeded by ``seed``
    only (its root deal, its resampling, its rollouts and its ties)."""
    ns = openspiel()
    seeds = np.random.SeedSequence(seed).generate_state(3)
    draw = np.random.default_rng(seeds[0]).random
    state = state_from_view(view, question, draw)
    evaluator = ns.mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seeds[1]))
    bot = ns.ismcts.ISMCTSBot(state.get_game(), evaluator, uct_c, sims,
                              random_state=np.random.RandomState(seeds[2]))
    bot.set_resampler(lambda s, player: s.resample_from_infostate(player, draw))
    return int(bot.step(state))
