"""``cuatrola play``: a person plays one seat against bots in the terminal.

The person is one more player (:class:`Human`): asked for calls, cantes and cards
from its view, like the bots, by plain lines on stdin, so a pipe can drive it.  A bad
or illegal entry is refused with the reason and asked again; ``?`` shows what may be
typed; end of input ends the game cleanly (records already saved stay saved).

What the person sees is said from their seat (:class:`Chair`): their pair and the
other pair, never the side letters, which swap between the pairs from hand to hand of
a match; their cards always in one order (trumps first, strongest first in a suit);
after every baza the bazas and points of each pair.  With ``--hints`` every decision
gets the hint ``cuatrola hint`` and ``cuatrola advise`` would give: the same stopping
rule, and every layout when they fit the hint's time budget (:func:`~cuatrola_solver.
advice.cardplay.exact_when_few`, as ``analyze`` and ``hint`` do)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import typer

from cuatrola_solver.advice.bidding import advise, valued
from cuatrola_solver.advice.budget import Budget, random_seed
from cuatrola_solver.advice.cardplay import CANTE_HINT_SAMPLES, best_cante, cante_values, hint
from cuatrola_solver.models.preset import Models
from cuatrola_solver.game.auction import parse_call
from cuatrola_solver.game.cards import cards_of, format_card, parse_card, suit_of
from cuatrola_solver.errors import CuatrolaError, quote
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import SUIT_NAMES, cante_points, partner_of, side_of
from cuatrola_solver.bots.players import parse_player, split_players
from cuatrola_solver.notation.record import HandRecord, format_rules, write_text
from cuatrola_solver.notation.lines import LineTooLong, read_line
from cuatrola_solver.notation.replay import replay
from cuatrola_solver.bots.table import Table, card_refusal, in_hand_order
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.seats import Side
from cuatrola_solver.game.view import View
from cuatrola_solver.i18n import N_, _, count, percent, signed

from .common import RulesOption, command_models, fail, load_rules, user_errors
from .render import result_lines

SUIT_COLOURS = ("yellow", "red", "blue", "green")   # oros, copas, espadas, bastos
#: what may be typed, shown by '?' at any prompt
COMMANDS = (
    N_("what you may type:"),
    N_("  a call: paso (or pass), solo, contrasolo, cuatrola, quintola"),
    N_("  a card: its rank then its suit, as 3o, Cc, Ab (ranks A 3 R C S, or K N J for rey,"),
    N_("    caballo, sota; suits o c e b; a trump's * may be left out); Enter plays your only"),
    N_("    legal card, shown in [brackets]"),
    N_("  a cante: the suit (bastos, or b); Enter sings the one in [brackets]; no keeps quiet"),
    N_("  ? shows this; the end of input (Ctrl-D) ends the game"),
)
#: English words read at the call prompt, as English K N J are read for cards
CALL_WORDS = {"pass": "paso"}
#: the longest entry read (an entry is a word: a longer line is not typed by a person)
MAX_ENTRY = 1000
#: entries refused in a row at one prompt before the game stops (a pipe that feeds
#: only what cannot be played would otherwise be asked again for ever)
MAX_REFUSED = 100


class EndOfInput(Exception):
    """The person's input ended: the game stops where it is."""


class Screen:
    """What the person sees: lines on stdout, suits in colour on a terminal."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def card(self, c: int, trump: int | None = None) -> str:
        text = format_card(c) + ("*" if trump is not None and suit_of(c) == trump else "")
        return typer.style(text, fg=SUIT_COLOURS[suit_of(c)], bold=True) if self.colour else text

    def cards(self, cs: Iterable[int], trump: int | None = None) -> str:
        return " ".join(self.card(c, trump) for c in cs)

    def hand(self, cards: int | Sequence[int], trump: int) -> str:
        """Cards (a mask or a list) in :func:`in_hand_order`."""
        cs = cards_of(cards) if isinstance(cards, int) else cards
        return self.cards(in_hand_order(cs, trump), trump)

    def say(self, text: str = "") -> None:
        typer.echo(text)


class Chair:
    """The game as seen from the person's chair at the library's :class:`~cuatrola_solver.
    bots.table.Table`: which hand of the match it is, their seat in it, the match score,
    every side said as "your pair" or "the other pair"."""

    def __init__(self, screen: Screen, table: Table) -> None:
        self.screen = screen
        self.table = table
        self.rules = table.rules
        self.match = table.is_match
        self.announced = -1             # the hand whose start was said

    @property
    def k(self) -> int:
        return self.table.k

    @property
    def seat(self) -> int:
        """The person's seat in this hand."""
        return self.table.seat

    @property
    def side(self) -> Side:
        """The person's side in this hand (it changes between hands of a match)."""
        return self.table.side

    def pair(self, side: Side) -> str:
        """``your pair`` or ``the other pair``, for a side."""
        return _("your pair") if side is self.side else _("the other pair")

    def score_text(self) -> str:
        mine, theirs = self.table.score()
        return _("your pair {mine} - the other pair {other}").format(mine=mine, other=theirs)

    def who(self, seat: int, player: Any = None) -> str:
        """``you``, and the others by seat with their role and player: ``seat 3 (your
        partner, pimc)``, ``seat 2 (pimc)``; without a player ``seat 2 (the other
        pair)``."""
        if seat == self.seat:
            return _("you")
        role = (_("your partner") if seat == partner_of(self.seat) else
                _("the other pair") if player is None else None)
        name = None if player is None else repr(player)
        inside = ", ".join(x for x in (role, name) if x)
        return (_("seat {seat} ({who})").format(seat=seat, who=inside) if inside
                else _("seat {seat}").format(seat=seat))

    def begin_hand(self) -> None:
        """Say once, as the hand starts, which seat the person has and the score."""
        if self.announced == self.k:
            return
        self.announced = self.k
        if not self.match:
            return
        role = {1: _(" (the mano)"), 4: _(" (the dealer)")}.get(self.seat, "")
        self.screen.say(_("hand {n}: you are seat {seat}{role}, your pair is side {side} in "
                          "its record; match: {score} (to {target})").format(
                              n=self.k + 1, seat=self.seat, role=role, side=self.side,
                              score=self.score_text(), target=self.rules.target))


    def observe(self, hand: HandState, kind: str, who: int, choice: Any) -> None:
        """Say what another seat did (a call, a card), any cante, and after the last call
        the contract, after each baza who took it and the score (the table's observer)."""
        self.begin_hand()
        player = self.table.player_at(who)
        label = self.who(who, player)
        if kind == "call" and player is not None:
            self.screen.say(_("{who} calls {call}").format(who=label, call=choice))
        elif kind == "cante":
            self.screen.say(self._cante_text(hand, player is None, choice).format(
                who=label, suit=SUIT_NAMES[choice], points=cante_points(choice, hand.trump),
                pair=self.pair(side_of(who))))
        elif kind == "card" and player is not None:
            self.screen.say(_("{who} plays {card}").format(
                who=label, card=self.screen.card(choice, hand.trump)))
        if kind == "card" and not hand.current and hand.tricks:
            _trick_done(self.screen, self, hand)
        if kind == "call" and hand.auction.is_complete:
            _contract(self.screen, self, hand)

    @staticmethod
    def _cante_text(hand: HandState, you: bool, suit: int) -> str:
        forty = cante_points(suit, hand.trump) == 40
        if you:
            return (_("{who} sing las cuarenta in {suit}: +{points} for {pair}") if forty
                    else _("{who} sing las veinte in {suit}: +{points} for {pair}"))
        return (_("{who} sings las cuarenta in {suit}: +{points} for {pair}") if forty
                else _("{who} sings las veinte in {suit}: +{points} for {pair}"))


class Human:
    """The person at the terminal, as a player."""

    name = "you"

    def __init__(self, screen: Screen, table: Chair, hints: bool,
                 models: Models = Models.NONE) -> None:
        self.screen = screen
        self.table = table
        self.hints = hints
        #: the hints' models: odds as the hand will be played, the hidden hands weighted
        #: by the calls
        self.models = models
        #: entries asked for since the last decision was taken
        self.refused = 0

    def ask(self, prompt: str) -> str:
        """One line of input for ``prompt``; ``?`` is answered here, by the commands.
        A line longer than :data:`MAX_ENTRY` characters, or the :data:`MAX_REFUSED`-th
        refused entry in a row, ends the game as bad input (exit 2)."""
        while True:
            if self.refused >= MAX_REFUSED:
                typer.echo("")
                fail(_("{n} entries in a row on stdin and none of them taken: the input does "
                       "not play this game").format(n=MAX_REFUSED))
            self.refused += 1          # set back to 0 when a decision is taken
            typer.echo(prompt + " ", nl=False)
            sys.stdout.flush()
            try:
                line = read_line(sys.stdin, MAX_ENTRY)
            except LineTooLong:
                typer.echo("")
                fail(_("an entry of more than {n} characters on stdin: expected a call, a card "
                       "or a cante, one a line").format(n=count(MAX_ENTRY)))
            if not line:
                typer.echo("")
                raise EndOfInput
            if not sys.stdin.isatty():
                typer.echo(line.rstrip("\n"))      # a transcript of piped input reads as typed
            text = line.strip()
            if text != "?":
                return text
            for x in COMMANDS:
                self.screen.say(_(x))

    def status(self, view: View) -> None:
        s = self.screen
        self.table.begin_hand()
        s.say(_("seat {seat}; muestra {card}, triunfo {suit}").format(
                  seat=view.seat, card=s.card(view.muestra), suit=SUIT_NAMES[view.trump])
              + (_("; match: {score}").format(score=self.table.score_text())
                 if self.table.match else ""))
        s.say(_("your cards: {cards}").format(cards=s.hand(view.held, view.trump)))

    def call(self, view: View, seed: int) -> str:
        self.refused = 0
        self.status(view)
        legal = view.legal_calls()
        if self.hints:
            # advise's own default budget: sampling stops once every call is within ±1%
            a = advise(view, Budget(seed=view.seed(seed), workers=1), self.models)
            for o in a.options:
                if o.option.allowed:
                    p, ev = ((o.p_played, o.ev_played) if o.p_played is not None
                             else (o.p_win, o.ev))
                    self.screen.say(_("  hint: {bid} wins {p}  ev {ev}").format(
                        bid=f"{o.option.bid:<10}", p=f"{percent(valued(p), 1):>6}",
                        ev=signed(valued(ev))))
            self.screen.say(_("  hint: advice {advice} ({n} deals)").format(
                advice=a.advice, n=count(a.deals)))
        while True:
            text = self.ask(_("your call ({calls}):").format(calls=" ".join(legal)))
            if not text:
                self.screen.say(_("  type one of: {calls} (? shows the commands)").format(
                    calls=" ".join(legal)))
                continue
            try:
                call = parse_call(CALL_WORDS.get(text.lower(), text), "")
            except CuatrolaError:
                self.screen.say(_("  {text} is not a call: type one of {calls} (? shows the "
                                  "commands)").format(text=quote(text), calls=" ".join(legal)))
                continue
            reason = view.seen.auction.refusal(call)
            if reason is None:
                return call
            self.screen.say(_("  not allowed: {reason}").format(reason=_(reason)))

    def sing(self, view: View, seed: int) -> int | None:
        self.refused = 0
        s = self.screen
        options = view.cante_options()           # the 40 first
        names = [SUIT_NAMES[o] for o in options]
        s.say(_("you may sing: {cantes}").format(cantes=", ".join(
            f"{SUIT_NAMES[o]} ({cante_points(o, view.trump)})" for o in options)))
        if self.hints:
            values = cante_values(view, [None, *options], samples=CANTE_HINT_SAMPLES,
                                  seed=view.seed(seed))
            best = best_cante(values)
            ranked = sorted(values, key=lambda o: o == best, reverse=True)
            s.say(_("  hint: {what}: your pair wins {odds} ({n} deals)").format(
                what=_("keep quiet") if best is None
                else _("sing {suit}").format(suit=SUIT_NAMES[best]),
                odds=", ".join((_("{p} without a cante") if o is None
                                else _("{p} singing {suit}")).format(
                                    p=percent(values[o][0]), suit=SUIT_NAMES[o or 0])
                               for o in ranked),
                n=CANTE_HINT_SAMPLES))
        choices = "/".join([f"[{names[0]}]"] + names[1:] + ["no"])
        while True:
            typed = self.ask(_("sing {choices}:").format(choices=choices))
            text = typed.lower()
            if text == "":
                return options[0]
            if text in ("no", "n", "-"):
                s.say(_("  you keep quiet"))
                return None
            found = [o for o in options if SUIT_NAMES[o].startswith(text)]
            if len(found) == 1:
                return found[0]
            s.say(_("  {text} is not one of your cantes: answer {names}, or no").format(
                text=quote(typed), names=_(" or ").join(names)))

    def card_hint(self, view: View, seed: int) -> None:
        """Each card's chance, as ``cuatrola hint`` gives it: hint's own budget, every
        layout when they fit it, else sampled."""
        h = hint(view, Budget(seed=view.seed(seed)), self.models)
        how = (_("{n} deals").format(n=count(h.deals)) if not h.exact
               else _("the one layout left") if h.deals == 1
               else _("all {n} layouts").format(n=count(h.deals)))
        self.screen.say(_("  hint: {cards}  ({how})").format(cards="  ".join(
            f"{format_card(c.card)} "
            f"{percent(c.p_win if c.p_played is None else c.p_played)}"
            for c in h.cards), how=how))

    def card(self, view: View, seed: int) -> int:
        self.refused = 0
        s = self.screen
        pos = view.play_position
        self.status(view)
        if pos.trick:
            s.say(_("trick {n}, led by {who}: {cards}").format(
                n=view.trick_number, who=self.table.who(pos.leader),
                cards=s.cards(pos.trick, view.trump)))
        else:
            s.say(_("trick {n}: you lead").format(n=view.trick_number))
        legal = in_hand_order(view.legal_cards(), view.trump)
        if self.hints:
            self.card_hint(view, seed)
        forced = len(legal) == 1
        while True:
            text = self.ask(_("your card [{card}]:").format(card=s.card(legal[0], view.trump))
                            if forced else
                            _("your card ({cards}):").format(cards=s.cards(legal, view.trump)))
            if not text:
                if forced:
                    s.say(_("  you play {card}").format(card=s.card(legal[0], view.trump)))
                    return legal[0]
                s.say(_("  type a card, as 3o (? shows the commands)"))
                continue
            try:
                c = parse_card(text.rstrip("*"), "")
            except CuatrolaError as e:
                s.say(f"  {e}")
                continue
            reason = card_refusal(view, c)
            if reason is None:
                return c
            s.say(f"  {reason}")


def _bot_players(bots: str) -> list[Any]:
    """The three players of ``--bots`` (one for all, or three in seat order)."""
    specs = split_players(bots)
    if len(specs) == 1:
        specs *= 3
    if len(specs) != 3:
        fail(_("--bots {bots}: expected one player or three (in seat order, separated by "
               "';' or ','), got {n}").format(bots=quote(bots), n=len(specs)))
    return [parse_player(b) for b in specs]


def _check_streams() -> None:
    """The game is shown on stdout and read from stdin: both must be there."""
    if sys.stdout is None or sys.stdout.closed:
        fail(_("cannot show the game: stdout is closed (play shows it there)"))
    if sys.stdin is None or sys.stdin.closed:
        fail(_("cannot read your calls and cards: stdin is closed (play reads them there, "
               "one a line; give it /dev/null to end the game at once)"))


def _save_folder(save: Optional[Path]) -> bool:
    """Make the folder of --save when missing; whether it was made (to be said)."""
    if save is None:
        return False
    if save.exists() and not save.is_dir():
        fail(_("cannot write to --save {path}: it is a file, not a folder").format(
            path=quote(str(save))))
    made = not save.exists()
    try:
        save.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(_("cannot write to --save {path}: {reason}").format(
            path=quote(str(save)), reason=e.strerror))
    return made


def _finish_hand(screen: Screen, table: Table, rec: HandRecord, save: Optional[Path],
                 seed: int) -> None:
    """The hand's result, said from the person's pair, and its record saved."""
    result = replay(rec).final_result()
    screen.say(_("hand {n} over:").format(n=table.k + 1))
    for line in result_lines(result, mine=table.side):
        screen.say("  " + line)
    if save is not None:
        path = save / f"hand-{seed}-{table.k + 1:03d}.txt"
        path.write_text(write_text(rec), encoding="utf-8")
        screen.say(_("record saved: {path}").format(path=path))


def _play(screen: Screen, table: Table, human: Human, save: Optional[Path], seed: int) -> None:
    """Deal and play hand after hand until the game is over or the input ends."""
    ask = {"call": human.call, "cante": human.sing, "card": human.card}
    try:
        while not table.over:
            table.deal()
            while table.turn is not None:
                table.answer(ask[table.turn.kind](table.turn.view, table.hand_seed))
            _finish_hand(screen, table, table.records[-1], save, seed)
        if table.is_match:
            mine, theirs = table.score()
            screen.say(_("match over: {pair} wins, your pair {mine} - the other pair "
                         "{other}").format(pair=_("your pair") if mine > theirs
                                           else _("the other pair"),
                                           mine=mine, other=theirs))
    except EndOfInput:
        screen.say(_("end of input: game over"))


@user_errors
def play_command(
    seat: int = typer.Option(1, "--seat", "-s", metavar="N", help=N_(
        "Your seat, 1-4 (seat 4 deals; in a match everyone moves one seat on each "
        "hand).")),
    bots: str = typer.Option("best", "--bots", "-b", help=N_(
        "The other three players: one for all (best, the strongest measured; pimc, "
        "alphamu, heuristic, random) or three in seat order, separated by ';' (or ','); "
        "options as pimc:samples=80,bid=heuristic.")),
    rules: str = RulesOption,
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help=N_(
        "Seed of the deals and the bots.")),
    hints: bool = typer.Option(False, "--hints", help=N_(
        "Show the hint before each decision (as hint and advise give it: odds as the "
        "hand will be played, the calls weighed; about a second each).")),
    save: Optional[Path] = typer.Option(None, "--save", metavar="DIR", help=N_(
        "Write each hand's record to this folder (made if missing, and said).")),
    match: bool = typer.Option(False, "--match", help=N_("Play a whole match to the "
                                                         "target.")),
) -> None:
    """Play one seat against three bots: calls, cantes and cards typed as lines."""
    check_seat(seat, "--seat")
    rs = load_rules(rules)
    others = _bot_players(bots)
    _check_streams()
    made = _save_folder(save)
    seed = random_seed() if seed is None else seed
    screen = Screen(sys.stdout.isatty() and "NO_COLOR" not in os.environ)
    table = Table(others, seat, rs, seed, match)
    chair = Chair(screen, table)
    table.observe = chair.observe           # the person sees the others' calls and cards
    # the hints' odds are at the table: played, the hidden hands weighted by the calls
    human = Human(screen, chair, hints,
                  models=command_models(rs, "played") if hints else Models.NONE)
    screen.say((_("cuatrola, rules {rules}, seed {seed}; you are seat {seat} in the first "
                  "hand; trumps are marked *; ? shows the commands") if match else
                _("cuatrola, rules {rules}, seed {seed}; you are seat {seat}; trumps are "
                  "marked *; ? shows the commands")).format(
                      rules=format_rules(rs), seed=seed, seat=seat))
    if made:
        screen.say(_("made the folder {path} for the records").format(path=save))
    _play(screen, table, human, save, seed)


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)


def _contract(screen: Screen, table: Chair, hand: HandState) -> None:
    decl = hand.declarer
    who = ("" if not decl else _(" by {who}").format(who=table.who(decl[0])) if len(decl) == 1
           else _(" by {who} against {other}").format(who=table.who(decl[0]),
                                                      other=table.who(decl[1])))
    screen.say(_("contract: {contract}{who}").format(contract=hand.contract, who=who))


def _trick_done(screen: Screen, table: Chair, hand: HandState) -> None:
    """The baza's winner, then the bazas and points of each pair so far (the points:
    cards, cantes, and the monte after the last baza)."""
    pos = hand.play_position
    mine = table.side
    screen.say(_("trick {n} to {who}: bazas your pair {tricks} - the other pair {other_tricks}; "
                 "points your pair {points} - the other pair {other_points}").format(
                     n=len(hand.tricks), who=table.who(pos.leader), tricks=pos.tricks[mine],
                     other_tricks=pos.tricks[1 - mine], points=pos.points[mine],
                     other_points=pos.points[1 - mine]))
