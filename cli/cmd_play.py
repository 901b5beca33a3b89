"""``cuatrola play``: a person plays one seat against bots in the terminal.

The person is one more player (:class:`Human`): asked for calls, cantes and cards
from its view, like the bots, by plain lines on stdin, so a pipe can drive it.  A bad
or illegal entry is refused with the reason and asked again; end of input ends the
game cleanly (records already saved stay saved)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Optional

import typer

from cuatrola_solver.advice.bidding import advise
from cuatrola_solver.advice.budget import Budget, random_seed
from cuatrola_solver.advice.cardplay import hint
from cuatrola_solver.models.preset import Models
from cuatrola_solver.game.auction import parse_call
from cuatrola_solver.game.cards import cards_of, format_card, parse_card, parse_suit, suit_of
from cuatrola_solver.errors import CuatrolaError, quote
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.game.match import Match
from cuatrola_solver.game.play import (SIDE_NAMES, SUIT_NAMES, cante_points, renuncio_obligation, side_of)
from cuatrola_solver.bots.players import parse_player
from cuatrola_solver.notation.record import format_rules, write_text
from cuatrola_solver.bots.playout import iter_match, play_hand, seat_of
from cuatrola_solver.game.cards import random_deal
from cuatrola_solver.game.seats import check_seat
from cuatrola_solver.game.view import View

from .common import RulesOption, command_models, fail, load_rules, user_errors
from .render import result_lines

SUIT_COLOURS = ("yellow", "red", "blue", "green")   # oros, copas, espadas, bastos
OBLIGATION_WORDS = {
    "asistir": "you must follow the suit led (asistir)",
    "montar": "you must play higher than the best card of the suit led (montar)",
    "fallar": "void in the suit led, you must trump (fallar)",
    "montar_el_fallo": "you must over-trump the trump in the trick (montar el fallo)",
}


class EndOfInput(Exception):
    """The person's input ended: the game stops where it is."""


class Screen:
    """What the person sees: lines on stdout, suits in colour on a terminal."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def card(self, c: int, trump: int | None = None) -> str:
        text = format_card(c) + ("*" if trump is not None and suit_of(c) == trump else "")
        return typer.style(text, fg=SUIT_COLOURS[suit_of(c)], bold=True) if self.colour else text

    def cards(self, cs, trump: int | None = None) -> str:
        return " ".join(self.card(c, trump) for c in cs)

    def hand(self, mask: int, trump: int) -> str:
        """The cards sorted by suit, trumps first, strongest first within a suit."""
        cs = sorted(cards_of(mask), key=lambda c: (suit_of(c) != trump, suit_of(c), c))
        return self.cards(cs, trump)

    def say(self, text: str = "") -> None:
        typer.echo(text)


class Human:
    """The person at the terminal, as a player."""

    name = "you"

    def __init__(self, screen: Screen, hints: bool, samples: int,
                 models: Models = Models.NONE) -> None:
        self.screen = screen
        self.hints = hints
        self.samples = samples
        #: the hints' models: odds as the hand will be played, the hidden hands weighted
        #: by the calls
        self.models = models

    def ask(self, prompt: str) -> str:
        typer.echo(prompt + " ", nl=False)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            typer.echo("")
            raise EndOfInput
        if not sys.stdin.isatty():
            typer.echo(line.rstrip("\n"))      # a transcript of piped input reads as typed
        return line.strip()

    def status(self, view: View) -> None:
        s = self.screen
        s.say(f"seat {view.seat} (side {SIDE_NAMES[view.side]}); muestra "
              f"{s.card(view.muestra)}, triunfo {SUIT_NAMES[view.trump]}"
              + (f"; score A {view.score.A} - B {view.score.B}" if view.score else ""))
        s.say(f"your cards: {s.hand(view.held, view.trump)}")

    def call(self, view: View, seed: int) -> str:
        self.status(view)
        legal = view.legal_calls()
        if self.hints:
            a = advise(view, Budget(samples=self.samples * 25, seed=view.seed(seed), workers=1),
                       self.models)
            for o in a.options:
                if o.option.allowed:
                    p, ev = ((o.p_played, o.ev_played) if o.p_played is not None
                             else (o.p_win, o.ev))
                    self.screen.say(f"  hint: {o.option.bid:<10} wins {100 * p:5.1f}%  "
                                    f"ev {ev:+.2f}")
            self.screen.say(f"  hint: advice {a.advice}")
        while True:
            text = self.ask(f"your call ({' '.join(legal)}):")
            try:
                call = parse_call(text, "")
            except CuatrolaError as e:
                self.screen.say(f"  {e}")
                continue
            reason = view.seen.auction.refusal(call)
            if reason is None:
                return call
            self.screen.say(f"  not allowed: {reason}")

    def sing(self, view: View, seed: int) -> int | None:
        options = view.cante_options()
        names = [f"{SUIT_NAMES[s]} ({cante_points(s, view.trump)})" for s in options]
        self.screen.say(f"you may sing: {', '.join(names)}")
        while True:
            text = self.ask(f"sing which ({' / '.join(SUIT_NAMES[s] for s in options)}), "
                            f"or no:")
            if text.lower() in ("no", "n", "-", ""):
                return None
            try:
                suit = int(parse_suit(text[0] if text.lower() in SUIT_NAMES else text, ""))
            except CuatrolaError:
                self.screen.say(f"  {quote(text)} is not a suit: answer oros, copas, espadas, "
                                f"bastos or no")
                continue
            if suit in options:
                return suit
            self.screen.say(f"  you cannot sing {SUIT_NAMES[suit]} now")

    def card(self, view: View, seed: int) -> int:
        s = self.screen
        pos = view.position
        self.status(view)
        if pos.trick:
            s.say(f"trick {view.trick_number}, led by seat {pos.leader}: "
                  f"{s.cards(pos.trick, view.trump)}")
        else:
            s.say(f"trick {view.trick_number}: you lead")
        legal = view.legal_cards()
        if self.hints:
            h = hint(view, Budget(samples=self.samples, seed=view.seed(seed)), self.models)
            s.say("  hint: " + "  ".join(
                f"{format_card(c.card)} "
                f"{100 * (c.p_win if c.p_played is None else c.p_played):.0f}%"
                for c in h.cards))
        while True:
            text = self.ask(f"your card ({s.cards(legal, view.trump)}):")
            try:
                c = parse_card(text.rstrip("*"), "")
            except CuatrolaError as e:
                s.say(f"  {e}")
                continue
            if not view.held >> c & 1:
                s.say(f"  you do not hold {format_card(c)}")
            elif c not in legal:
                why = renuncio_obligation(view.held, pos.trick, view.trump, c)
                s.say(f"  {format_card(c)} would be a renuncio: {OBLIGATION_WORDS[why]}")
            else:
                return c


def register(app: typer.Typer) -> None:
    @app.command("play")
    @user_errors
    def play_command(
        seat: int = typer.Option(1, "--seat", "-s", metavar="N", help="Your seat, 1-4 "
                                 "(seat 4 deals; in a match everyone moves one seat on each hand)."),
        bots: str = typer.Option("pimc", "--bots", "-b", help="The other three players: one "
                                 "name for all (pimc, heuristic, random) or three, comma "
                                 "separated, in seat order; options as pimc:samples=80."),
        rules: str = RulesOption,
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deals and the bots."),
        hints: bool = typer.Option(False, "--hints", help="Show the hint before each decision "
                               "(odds as the hand will be played, the calls weighed)."),
        save: Optional[Path] = typer.Option(None, "--save", metavar="DIR", help="Write "
                                            "each hand's record to this folder (made if "
                                            "missing, and said)."),
        match: bool = typer.Option(False, "--match", help="Play a whole match to the target."),
    ) -> None:
        """Play one seat against three bots: calls, cantes and cards typed as lines."""
        check_seat(seat, "--seat")
        rs = load_rules(rules)
        specs = [b for b in bots.split(",")] if "," in bots else [bots] * 3
        if len(specs) != 3:
            fail(f"--bots {quote(bots)}: expected one player or three, comma separated")
        others = [parse_player(b) for b in specs]
        made = False                # --save names a folder: made when missing, and said
        if save is not None:
            if save.exists() and not save.is_dir():
                fail(f"cannot write to --save {quote(str(save))}: it is a file, not a folder")
            made = not save.exists()
            try:
                save.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                fail(f"cannot write to --save {quote(str(save))}: {e.strerror}")
        if seed is None:
            seed = random_seed()
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        screen = Screen(colour)
        # the hints' odds are at the table: played, the hidden hands weighted by the calls
        human = Human(screen, hints, samples=40,
                      models=command_models(rs, "played") if hints else Models.NONE)
        players = others[:seat - 1] + [human] + others[seat - 1:]
        screen.say(f"cuatrola, rules {format_rules(rs)}, seed {seed}; you are seat {seat}; "
                   f"trumps are marked *")
        if made:
            screen.say(f"made the folder {save} for the records")

        def observe(hand: Hand, kind: str, who: int, choice) -> None:
            player = players[(who - 1 + hand_no["k"]) % 4]
            label = "you" if player is human else f"seat {who} ({player!r})"
            if player is human:
                pass
            elif kind == "call":
                screen.say(f"{label} calls {choice}")
            elif kind == "cante":
                screen.say(f"{label} sings {SUIT_NAMES[choice]} "
                           f"({cante_points(choice, hand.trump)})")
            else:
                screen.say(f"{label} plays {screen.card(choice, hand.trump)}")
            if kind == "card" and not hand.current and hand.tricks:
                _trick_done(screen, hand)
            if kind == "call" and hand.auction.is_complete:
                _contract(screen, hand)

        hand_no = {"k": 0}      # the hand of the match being played

        def finish(rec, k: int) -> None:
            hand = Hand.from_record(rec)
            result = hand.result()
            screen.say(f"hand {k + 1} over:")
            for line in result_lines(result.to_dict()):
                screen.say("  " + line)
            if save is not None:
                path = save / f"hand-{seed}-{k + 1:03d}.txt"
                path.write_text(write_text(rec), encoding="utf-8")
                screen.say(f"record saved: {path}")

        try:
            if match:
                m = Match(rs)
                for k, rec in enumerate(iter_match(players, rs, seed, observe)):
                    finish(rec, k)
                    res = Hand.from_record(rec).result()
                    m.record_hand(res.winner, res.game_points)
                    hand_no["k"] = k + 1
                    mine = (seat - 1) % 2
                    screen.say(f"match: your pair {m.points[mine]} - {m.points[1 - mine]}; "
                               f"you are seat {seat_of(seat, k + 1)} next hand")
                w = m.winner()
                screen.say("match over: " + ("your pair wins" if w == (seat - 1) % 2
                                             else "the other pair wins"))
            else:
                rng = random.Random(f"{seed}/0")
                rec = play_hand(random_deal(rng), players, rs, seed=rng.getrandbits(62),
                                observe=observe)
                finish(rec, 0)
        except EndOfInput:
            screen.say("end of input: game over")


def _contract(screen: Screen, hand: Hand) -> None:
    decl = hand.declarer
    who = "" if not decl else " by seat " + " against seat ".join(map(str, decl))
    screen.say(f"contract: {hand.contract}{who}")


def _trick_done(screen: Screen, hand: Hand) -> None:
    t = len(hand.tricks)
    screen.say(f"trick {t} to seat {hand.pos.leader} (side {SIDE_NAMES[side_of(hand.pos.leader)]})"
               f"; tricks A {hand.pos.tricks[0]} - B {hand.pos.tricks[1]}")
