"""The hostile-input suite: several hundred seeded, generated inputs across
every command and option, most run in-process through typer's CliRunner, and random
mutations of every file in ``examples/``.

Every case must end with exit 0 or 2 (never 1, never an escaped exception, never past
:data:`TIME_LIMIT`); exit 2 with exactly one ``error: ...`` line on stderr, bad tokens
cut to a sensible length; and exit 0 only for valid input -- checked by the expectation
a case carries (values that are plainly bad or plainly good) and, for records, by an
independent replay (:func:`replays`): the deal, whose turn it is from each trick's
winner, who holds which card, the size of each trick, the cantes' cards.
"""

from __future__ import annotations

import json
import random
import re
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.auction import Auction
from cuatrola_solver.game.cards import RANK_LETTERS, SUIT_LETTERS
from cuatrola_solver.errors import CuatrolaError, quote
from cuatrola_solver.notation.record import read_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SEED = 20261201
TIME_LIMIT = 60                    # seconds: any case running longer is a hang
MAX_LINE = 1100                    # the longest error line (one_line's cut and the prefix)
runner = CliRunner()

DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"
HAND = "Ao 3o Ro Co So"
CARDS = [r + s for s in SUIT_LETTERS for r in RANK_LETTERS]
EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.is_file())
RECORD_FILES = [p for p in EXAMPLE_FILES
                if p.suffix in (".txt", ".json") and ".analysis" not in p.name]
HINT_RECORD = str(EXAMPLES / "advice" / "hint-trick3.txt")
FULL_RECORD = str(EXAMPLES / "analysis" / "online-blunder.txt")

#: text no option or record can take
JUNK = ["", " ", "zz", "\u2028", "\ufeff", "ñandú", "Ao\x00", "{", "}", "[", "\"", "\\",
        ";", "/", "A" * 100_000, "3o " * 5000, "9" * 5000, "-", "☃", "\r"]
#: whole-number option values: (text, its value when it is plainly a whole number)
INTS = [("-1", -1), ("0", 0), ("1", 1), ("3", 3), ("4", 4), ("abc", None), ("", None),
        ("1.5", None), ("1e3", None), ("9" * 5000, None), ("0x10", None),
        ("-99999999999999999999", -99999999999999999999)]


@dataclass
class Case:
    name: str
    args: list[str]
    input: bytes | str | None = None
    expect: int | None = None          # 0 or 2 when the input is plainly good or bad
    record: str | bytes | None = None  # a record given on stdin: checked by replays()
    token: str | None = None           # the bad token, whose quote must be cut
    says: str | None = None            # words the error line must hold (exit 2)


# --- the independent replay ------------------------------------------------------------

def _winner(trick: list[tuple[int, int]], trump: int) -> int:
    seat, best = trick[0]
    for s, c in trick[1:]:
        if (c // 5 == best // 5 and c % 5 > best % 5) or (c // 5 == trump != best // 5):
            seat, best = s, c
    return seat


def replays(text: str | bytes) -> bool:
    """Whether a record could have happened, checked without HandState: a real deal, each
    trick's cards held by the seats in turn from the leader (the previous trick's
    winner), no trick larger than the seats in play, only the last one incomplete, at
    most five, and every cante sung by a seat in play holding its rey and caballo."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return False
    try:
        rec = read_record(text)
        auction = Auction(rec.rules, rec.score)
        for call in (rec.auction if rec.auction is not None else ["paso"] * 4):
            auction.call(call)
        if not auction.is_complete:
            return False
        active = auction.active
    except (CuatrolaError, RecursionError):
        return False
    known = {s: set(h) for s, h in enumerate(rec.hands, 1) if h is not None}
    dealt = [c for h in rec.hands if h is not None for c in h]
    if (not known or any(len(h) != 5 for h in known.values()) or len(set(dealt)) != len(dealt)
            or (len(known) == 4 and sorted(dealt) != list(range(20)))):
        return False
    owner = {c: s for s, h in known.items() for c in h}
    owner.setdefault(rec.muestra, 4)                # the dealer keeps the muestra
    if owner[rec.muestra] != 4:
        return False
    seats = [s for s in (1, 2, 3, 4) if active[s - 1]]
    leader, trump = seats[0], rec.muestra // 5
    played_by: dict[int, tuple[int, int]] = {}  # card -> (trick, seat)
    complete = 0
    if len(rec.tricks) > 5:
        return False
    for t, trick in enumerate(rec.tricks, 1):
        if len(trick) > len(seats) or (len(trick) < len(seats) and t < len(rec.tricks)):
            return False
        order = seats[seats.index(leader):] + seats[:seats.index(leader)]
        for seat, c in zip(order, trick):
            if c in played_by or owner.get(c, seat) != seat:
                return False
            played_by[c] = (t, seat)
        if len(trick) == len(seats):
            complete = t
            leader = _winner(list(zip(order, trick)), trump)
    for k in rec.cantes:
        if not 1 <= k.after_trick <= min(4, complete) or k.seat not in seats:
            return False
        for c in (5 * k.suit + 1, 5 * k.suit + 2):   # caballo, rey
            if owner.get(c, k.seat) != k.seat:
                return False
            t, seat = played_by.get(c, (99, k.seat))
            if t <= k.after_trick or seat != k.seat:
                return False
    return True


# --- mutations of the example files ------------------------------------------------------

_TOKEN = re.compile(r"[^\s\[\]\"{};,]+")
_HOSTILE_BITS = ["{", "}", "[", "]", "\"", ";", "\\", "\n", "\r", "\u2028", "\x00", "\ufeff",
                 "é", "?", "!", "??", ",", ".", "0", "6.", "99999999999999999999", "-1",
                 "cante", "cante 2 oros", "after", "[Seat1 \"Ao\"]", "null", "true", "[]",
                 "{}", "1.5", "\"x\"", "Ao", "Ab", "3o", "paso", "solo", "quintola"]


def mutate(text: str, rng: random.Random) -> tuple[str | bytes, str]:
    """One random change to ``text``; returns the new text (bytes when it is not UTF-8)
    and the mutation's name."""
    kind = rng.choice(["delete", "insert", "replace_token", "card", "swap", "dup_line",
                       "drop_line", "truncate", "bytes", "number", "nest", "rules",
                       "extra_card", "swap_cards", "last_extra", "last_extra"])
    n = len(text)
    if kind == "delete" and n:
        i = rng.randrange(n)
        return text[:i] + text[i + rng.randint(1, 8):], kind
    if kind == "insert":
        i = rng.randrange(n + 1)
        return text[:i] + rng.choice(_HOSTILE_BITS) + text[i:], kind
    tokens = list(_TOKEN.finditer(text))
    if kind in ("replace_token", "card", "number") and tokens:
        m = rng.choice(tokens)
        new = {"replace_token": lambda: rng.choice(_HOSTILE_BITS + JUNK[:12]),
               "card": lambda: rng.choice(CARDS),
               "number": lambda: rng.choice(["9" * 5000, "-7", "1e400", "0", "5", "4300",
                                             str(2 ** 63)])}[kind]()
        return text[:m.start()] + new + text[m.end():], kind
    if kind == "swap" and len(tokens) > 1:
        a, b = sorted(rng.sample(tokens, 2), key=lambda m: m.start())
        return (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group()
                + text[b.end():]), kind
    lines = text.split("\n")
    if kind == "dup_line":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]), kind
    if kind == "drop_line":
        i = rng.randrange(len(lines))
        return "\n".join(lines[:i] + lines[i + 1:]), kind
    if kind == "truncate":
        return text[:rng.randrange(n + 1)], kind
    if kind == "bytes":
        data = bytearray(text.encode("utf-8"))
        i = rng.randrange(len(data) + 1)
        data[i:i] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xff", b"\x80"])
        return bytes(data), kind
    if kind == "nest":
        depth = rng.choice([50, 5000, 100_000])
        return ('{"rules": ' + "[" * depth + "]" * depth + ', "muestra": "Sb", "hands": []}'
                if rng.random() < 0.5 else "[" * depth), kind
    if kind == "rules":
        bad = rng.choice(["online,monte=-1", "online,monte=2147483648", "online,target=0",
                          "online,win_by=0", "online,cante_after_tricks=1 7",
                          "online,cantes_in=poker", "bogus", "narro,tie_break=mano",
                          "italiano,max_cantes_per_side=3", "online,monte=1000"])
        if text.lstrip().startswith("{"):
            obj = rng.choice(['"' + bad + '"', '{"preset": []}', '{"cantes_in": 5}',
                              '{"cante_after_tricks": [1.0]}', '{"cante_after_tricks": [true]}',
                              '{"cantes_in": {"paso": 1}}', '{"monte": 99999999999999999999}',
                              '{"preset": "narro", "target": 21}', 'null'])
            return re.sub(r'"rules":\s*("[^"]*"|\{[^}]*\})', '"rules": ' + obj, text, 1), kind
        return re.sub(r'\[Rules "[^"]*"\]', f'[Rules "{bad}"]', text, 1), kind
    if kind == "extra_card":
        # one more card at the end of a trick line
        for i in rng.sample(range(len(lines)), len(lines)):
            if re.match(r"\s*[1-5]\.", lines[i]):
                lines[i] += " " + rng.choice(CARDS)
                return "\n".join(lines), kind
    if kind == "last_extra":
        # the record stops at a trick that has one card too many, maybe then a cante
        # (the extra card must not silently begin the next trick)
        starts = [i for i, line in enumerate(lines) if re.match(r"\s*[1-5]\.", line)]
        if starts:
            i = rng.choice(starts)
            lines = lines[:i + 1]
            dealt = re.findall(r'\[Seat[1-4] "([^"]*)"\]', text)
            played = set(" ".join(lines[starts[0]:]).split())
            unplayed = [c for h in dealt for c in h.split() if c not in played]
            lines[i] += " " + rng.choice(unplayed or CARDS)
            if rng.random() < 0.5:
                lines.append(f"cante {rng.randint(1, 4)} "
                             + rng.choice(["oros", "copas", "espadas", "bastos"]))
            return "\n".join(lines), kind
    if kind == "swap_cards":
        # two cards of one trick in the other order (a trick not written from its leader)
        for i in rng.sample(range(len(lines)), len(lines)):
            words = lines[i].split()
            if len(words) >= 3 and re.fullmatch(r"[1-5]\.", words[0]):
                a, b = rng.sample(range(1, len(words)), 2)
                words[a], words[b] = words[b], words[a]
                lines[i] = " ".join(words)
                return "\n".join(lines), kind
    return text + rng.choice(_HOSTILE_BITS), "append"


def record_cases(rng: random.Random, per_file: int) -> list[Case]:
    cases = []
    for path in EXAMPLE_FILES:
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(EXAMPLES).as_posix()
        for i in range(per_file):
            data, kind = mutate(text, rng)
            if rng.random() < 0.3:      # sometimes two changes
                if isinstance(data, str):
                    data, more = mutate(data, rng)
                    kind += "+" + more
            command = rng.choices(["check", "hint", "analyze"], weights=[6, 2, 2])[0]
            args = {"check": ["check", "-"] + (["--json"] if rng.random() < 0.5 else []),
                    "hint": ["hint", "-", "--samples", "10", "--seed", "1"],
                    "analyze": ["analyze", "-", "--samples", "2", "--seed", "1", "--no-bids"]
                    }[command]
            cases.append(Case(f"{command}-{rel}-{i}-{kind}", args, data, record=data))
    return cases


# --- options ------------------------------------------------------------------------------

def _int_expect(value: int | None, lo: int, hi: int | None = None) -> int | None:
    if value is None:
        return 2
    return 0 if value >= lo and (hi is None or value <= hi) else 2


def option_cases(rng: random.Random) -> list[Case]:
    adv = ["advise", HAND, "--muestra", "3c", "--seat", "1", "--samples", "40", "--seed", "1"]
    hint = ["hint", HINT_RECORD, "--samples", "10", "--seed", "1"]
    ana = ["analyze", FULL_RECORD, "--samples", "2", "--seed", "1", "--no-bids"]
    cases: list[Case] = []

    def add(name, args, expect=None, token=None, input=None):
        cases.append(Case(name, args, input=input, expect=expect, token=token))

    def with_option(base, option, value):
        args = list(base)
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
        return args

    # whole-number options, each over every hostile number
    ints = [(adv, "--seat", 1, 3),       # seat 4 would hold the muestra 3c
            (adv, "--samples", 1, 60), (adv, "--seed", 0, None),
            (adv, "--workers", 1, 64), (hint, "--samples", 1, 60), (hint, "--seed", 0, None),
            (hint, "--workers", 1, 64), (ana, "--samples", 1, 60), (ana, "--seed", 0, None),
            (ana, "--workers", 1, 64), (["deal", "--count", "2"], "--seed", 0, None),
            (["deal", "--seed", "1"], "--count", 1, 50),
            (["bench", "--deals", "3", "--reference-deals", "0"], "--deals", 1, 50),
            (["bench", "--deals", "3", "--reference-deals", "0"], "--seed", 0, None),
            (["bench", "--deals", "3", "--reference-deals", "0"], "--reference-deals", 0, 0)]
    for base, option, lo, hi in ints:
        for text, value in INTS:
            expect = _int_expect(value, lo, hi)
            if expect == 0 and hi is None and value > 60 and option != "--seed":
                continue                  # valid but slow: not a hostile case
            if option == "--reference-deals" and value is not None and value > 0:
                expect = 0 if value <= 100 else 2
                if expect == 0:
                    continue              # the reference solver takes seconds a deal
            add(f"{base[0]}{option}={text[:12]!r}", with_option(base, option, text), expect,
                token=text)
    # huge but valid sample counts: bounded by the sampling's stopping rule
    add("advise-huge-samples", with_option(adv, "--samples", "1000000000000"), 0)

    # cards, hands, deals, auctions, scores, rules: junk is always refused
    for option in ("--muestra", "--auction", "--score", "--rules"):
        for junk in JUNK:
            expect = None if option == "--auction" and junk.strip() in ("",) else 2
            add(f"advise{option}-junk", with_option(adv, option, junk), expect, token=junk)
    for junk in JUNK:
        add("advise-hand-junk", ["advise", junk] + adv[2:], 2, token=junk)
        add("solve-deal-junk", ["solve", junk, "--muestra", "Ab"], 2, token=junk)
        add("solve-muestra-junk", ["solve", DEAL, "--muestra", junk], 2, token=junk)
        add("rules-junk", ["rules", junk], None if not junk.strip() else 2, token=junk)
        add("deal-rules-junk", ["deal", "--seed", "1", "--rules", junk], 2, token=junk)
        add("solve-rules-junk", ["solve", DEAL, "--muestra", "Ab", "--rules", junk], 2,
            token=junk)
    good_rules = ["online", "narro", "app", "italiano", "narro,tie_break=mano",
                  "online,monte=0", "online,monte=1000", "italiano,max_cantes_per_side=4",
                  "online,cante_after_tricks=1 2", "online,target=1", "online,win_by=1000",
                  "online,cantes_in=paso,solo"]
    bad_rules = ["bogus", "online,monte=-1", "online,monte=2147483648", "online,target=0",
                 "online,win_by=0", "online,cante_after_tricks=1 7", "online,cantes_in=poker",
                 "online,max_cantes_per_side=5", "online,near_target_from=-1", ",",
                 "online,=", "online,tie_break", "online,name=x", "app,early_end=maybe",
                 "online,monte=" + "9" * 5000, "online,tiebreak=mano", "online,monte=1.5",
                 "narro,target=1001"]
    for spec in good_rules:
        add("solve-rules-good", ["solve", DEAL, "--muestra", "Ab", "--rules", spec, "--json"], 0)
        add("advise-rules-good", with_option(adv, "--rules", spec), 0)
        add("rules-good", ["rules", spec], 0)
    for spec in bad_rules:
        for base in (["solve", DEAL, "--muestra", "Ab"], adv, ["deal", "--seed", "1"],
                     ["rules"], ["bench", "--deals", "2", "--reference-deals", "0"]):
            args = base + [spec] if base == ["rules"] else with_option(base, "--rules", spec)
            add(f"{base[0]}-rules-bad", args, 2, token=spec)
    # random changes to the hand, the deal and the calls
    for i in range(40):
        words = DEAL.split()
        j = rng.randrange(len(words))
        words[j] = rng.choice(CARDS + ["", "/", "Xo", "3o3c", "10b", "//"])
        add(f"solve-deal-mutated-{i}", ["solve", " ".join(words), "--muestra", "Ab"])
    for i in range(20):
        cards = rng.sample(CARDS, rng.choice([4, 5, 5, 5, 6]))
        muestra = rng.choice(CARDS)
        seat = str(rng.randint(1, 4))
        add(f"advise-random-{i}", ["advise", " ".join(cards), "--muestra", muestra, "--seat",
                                   seat, "--samples", "30", "--seed", "2"],
            2 if len(cards) != 5 else None)
    for calls in ["paso", "solo", "paso solo", "paso paso paso", "quintola", "solo solo",
                  "cuatrola paso", "paso,solo", "PASO", "contrasolo", "paso paso paso paso",
                  "bogus", "solo contrasolo"]:
        for seat in ("2", "3", "4"):
            add(f"advise-auction-{calls}-{seat}", ["advise", HAND, "--muestra", "3c", "--seat",
                                                   seat, "--auction", calls, "--samples", "30",
                                                   "--seed", "1"])
    for score in ["0-0", "3-5", "10-10", "20-20", "-1-2", "3", "a-b", "3-5-7", "999999-0",
                  "99999999999999999999-1", "3 - 5", "", "٣-٥"]:
        numbers = re.fullmatch(r"([0-9]{1,6})-([0-9]{1,6})", score)
        # online plays to 11: from there on the match is over, and no hand is played
        expect = None if not numbers else 0 if max(map(int, numbers.groups())) < 11 else 2
        add(f"advise-score-{score[:10]}", with_option(adv, "--score", score), expect,
            token=score)
    # flags, conflicts, missing and unknown things
    add("advise-exact-and-samples", adv + ["--exact"], 2)
    add("hint-exact-and-samples", hint + ["--exact"], 2)
    add("analyze-exact-and-samples", ana + ["--exact"], 2)
    for args in (["advise"], ["advise", HAND], ["advise", HAND, "--muestra", "3c"],
                 ["solve"], ["solve", DEAL], ["check"], ["hint"], ["analyze"],
                 ["frobnicate"], ["check", FULL_RECORD, "--bogus"], ["deal", "--count"],
                 ["advise", HAND, "--muestra"], ["rules", "a", "b"], ["--bogus"],
                 ["solve", DEAL, "--muestra", "Ab", "--batch", "-"],
                 ["solve", "--batch", "/nonexistent/batch.jsonl"],
                 ["check", "/nonexistent/record.txt"], ["check", str(EXAMPLES)],
                 ["hint", str(EXAMPLES)], ["analyze", "/nonexistent"], ["check", ""],
                 ["analyze", FULL_RECORD, "--samples", "2", "--no-bids", "--annotate",
                  "/nonexistent/dir/out.txt"],
                 ["analyze", FULL_RECORD, "--samples", "2", "--no-bids", "--annotate",
                  str(EXAMPLES)]):
        add("usage-" + "-".join(a[:12] for a in args[:3]), args, 2)
    for args in (["check", FULL_RECORD], ["check", FULL_RECORD, "--json"], ["rules"],
                 ["rules", "--json"], ["deal", "--seed", "4", "--json", "--count", "3"],
                 ["solve", DEAL, "--muestra", "Ab"], hint, hint + ["--json"], ana,
                 ana + ["--json"], ana + ["--annotate", "-"], adv, adv + ["--json"],
                 ["bench", "--deals", "3", "--reference-deals", "0", "--json"],
                 ["solve", "--batch", "-"], ["advise", "--help"], ["--help"]):
        add("good-" + "-".join(args[:2]), args, 0,
            input=json.dumps({"muestra": "Ab", "hands": DEAL.split(" / ")}) + "\n"
            if "--batch" in args else None)
    # the later commands: live hint, play, selfplay, calibrate, bidmodel, equity
    live = ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab", "--seat", "2", "--played",
            "1. Sc Sb Rc 3c", "--samples", "20", "--seed", "1"]
    add("good-live-hint", live, 0)
    add("good-live-hint-json", live + ["--json", "--no-inference"], 0)
    for junk in JUNK:
        add("live-hint-hand-junk", with_option(live, "--hand", junk), 2, token=junk)
        add("live-hint-muestra-junk", with_option(live, "--muestra", junk), 2, token=junk)
        add("live-hint-played-junk", with_option(live, "--played", "1. Sc " + junk), None,
            token=junk)                      # blanks and comments are fine after a card
        add("play-bots-junk", ["play", "--bots", junk, "--seed", "1"], 2, token=junk,
            input="")
        add("selfplay-player-junk", ["selfplay", "--a", junk, "--b", "random", "--hands",
                                     "1"], 2, token=junk)
        add("compare-run-junk", ["compare", junk], 2, token=junk)
        add("compare-ask-junk", ["compare", FULL_RECORD, "--ask", junk], 2, token=junk)
    for played in ("1. Sc Sb Rc 3c Ao", "1. Ro", "1. Sc Sb Rc 3c 2. Ro Se So Sc",
                   "cante 2 oros", "1. Sc Sb Rc 3c 2. Ro Se So Ao 3. Ac Rb 3e Ab 4. Ce Ae 3b "
                   "Re 5. Co 3o Cb Cc 6. Sc"):
        add("live-hint-played-bad", with_option(live, "--played", played), 2)
    add("live-hint-and-record", live + [FULL_RECORD], 2)
    add("live-hint-missing-seat", ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab"], 2)
    for args in (["play", "--seat", "5"], ["play", "--bots", "pimc,random"],
                 ["play", "--bots", "pimc:samples=0"], ["play", "--save", "/proc/nope"],
                 ["selfplay", "--a", "pimc:depth=2", "--b", "random", "--hands", "1"],
                 ["selfplay", "--a", "random", "--b", "random", "--hands", "0"],
                 ["calibrate", "/nonexistent.jsonl"], ["calibrate", FULL_RECORD, "--fit"],
                 ["compare", "/nonexistent.jsonl"], ["compare", FULL_RECORD],
                 ["compare", str(EXAMPLES)], ["compare", FULL_RECORD, "--json"],
                 ["bidmodel", "--deals", "0"], ["bidmodel", "--rules", "online,monte=3"],
                 ["equity", "--rules", "bogus"], ["advise", HAND, "--muestra", "3c", "--seat",
                                                  "2", "--model", "oracle"],
                 live + ["--model", "oracle"], ["analyze", FULL_RECORD, "--model", "dd2"],
                 ["calibrate", FULL_RECORD, "--cards", "--card-samples", "0"],
                 ["calibrate", FULL_RECORD, "--player", "pimc:odds=magic"]):
        add("second-stage-" + "-".join(a[:10] for a in args[:3]), args, 2, input="")
    add("good-play-eof", ["play", "--bots", "random", "--seed", "3"], 0, input="")
    add("good-equity", ["equity", "--rules", "narro", "--json"], 0)
    # stdin: empty, not UTF-8, a BOM, huge
    for command in (["check", "-"], ["hint", "-", "--samples", "5"],
                    ["analyze", "-", "--samples", "2", "--no-bids"]):
        for data in (b"", b"\xff\xfe\x00", b"\xef\xbb\xbf", b"\xef\xbb\xbf{}", b"{" * 100_000,
                     b"\x00" * 1000, ("; " + "x" * 1_000_000).encode()):
            add(f"stdin-{command[0]}-{data[:4]!r}", command, 2, input=data)
    return cases


# --- the newer commands, in-process ------------------------------------------------

def second_round_cases() -> list[Case]:
    """Cases that run in-process: a score at which the match is over, calls
    past the fourth; the lab's files and the longer-running commands have their own
    tests below."""
    live = ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab", "--seat", "1",
            "--samples", "10", "--seed", "1"]
    cases: list[Case] = []
    full = Path(FULL_RECORD).read_text(encoding="utf-8")
    partial = Path(HINT_RECORD).read_text(encoding="utf-8")
    # no hand is played at a score at which the match is over, live or recorded
    for rules, score in (("online", "11-0"), ("online", "0-11"), ("online", "50-50"),
                         ("online", "99999999999999999999-0"), ("narro", "21-19"),
                         ("narro", "30-28"), ("app", "12-3")):
        cases.append(Case(f"live-hint-score-over-{rules}-{score[:10]}",
                          live + ["--rules", rules, "--score", score], expect=2,
                          says="bad score", token=score))
        for name, text in (("full", full), ("partial", partial)):
            tagged = text.replace('[Rules "online"]', f'[Rules "{rules}"]\n[Score "{score}"]')
            for command in (["check", "-"], ["hint", "-", "--samples", "5", "--seed", "1"],
                            ["analyze", "-", "--samples", "2", "--seed", "1", "--no-bids"]):
                if command[0] == "analyze" and name == "partial":
                    continue
                cases.append(Case(f"{command[0]}-{name}-score-over-{rules}-{score[:10]}",
                                  command, tagged, expect=2, says="the record's score"))
    for score in ("10-10", "0-0", "3-9"):
        cases.append(Case(f"live-hint-score-open-{score}", live + ["--score", score],
                          expect=0))
    # a call past the fourth is said as such, never as 'seat None'
    for calls in ("paso paso paso paso paso", "paso solo paso paso paso paso"):
        cases.append(Case(f"live-hint-auction-{len(calls.split())}-calls",
                          live + ["--auction", calls], expect=2, says="four at most"))
        cases.append(Case(f"advise-auction-{len(calls.split())}-calls",
                          ["advise", HAND, "--muestra", "3c", "--seat", "2", "--auction",
                           calls, "--samples", "10"], expect=2))
    # parameter extremes of the newer commands: each refused by its bound, in one line
    for args in (["equity", "--regenerate", "-o", "h.json", "--deals", "100001"],
                 ["equity", "--regenerate", "-o", "h.json", "--samples", "20001"],
                 ["equity", "--regenerate", "-o", "h.json", "--deals", "0"],
                 ["equity", "--regenerate", "-o", "h.json", "--seed", "-1"],
                 ["equity", "--regenerate", "-o", "h.json", "--seed", "x"],
                 ["bidmodel", "-o", "b.json", "--deals", "49"],
                 ["bidmodel", "-o", "b.json", "--deals", "100001"],
                 ["bidmodel", "-o", "b.json", "--samples", "20001"],
                 ["selfplay", "--a", "random", "--b", "random", "--batch", "0"],
                 ["selfplay", "--a", "random", "--b", "random", "--batch", "1001"],
                 ["selfplay", "--a", "random", "--b", "random", "--time-limit", "-1"],
                 ["selfplay", "--a", "random", "--b", "random", "--odds-samples", "100001"],
                 ["selfplay", "--a", "random", "--b", "random", "--workers", "65"],
                 ["selfplay", "--a", "random", "--b", "random", "--seed", "-1"],
                 ["selfplay", "--a", "random", "--b", "random", "--hands", "9" * 5000],
                 ["calibrate", FULL_RECORD, "--bins", "101"],
                 ["calibrate", FULL_RECORD, "--card-samples", "100001"],
                 ["calibrate", FULL_RECORD, "--workers", "65"],
                 ["play", "--seed", "-1"], ["play", "--seat", "0"],
                 ["play", "--bots", "pimc:samples=100001"],
                 ["selfplay", "--a", "pimc:samples=100001", "--b", "random"]):
        cases.append(Case("extreme-" + "-".join(a[:12] for a in args[:1] + args[-2:]), args,
                          input="", expect=2))
    return cases


CASES = (option_cases(random.Random(SEED)) + second_round_cases()
         + record_cases(random.Random(SEED + 1), per_file=15))


# --- the oracle ----------------------------------------------------------------------------

class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer after {TIME_LIMIT} s")


def check_outcome(case: Case, code: int, stdout: str, stderr: str) -> None:
    assert code in (0, 2), f"exit {code}: {stderr[-2000:]}"
    assert "Traceback" not in stderr
    if case.expect is not None:
        assert code == case.expect, f"expected exit {case.expect}, got {code}: {stderr[:500]}"
    if code == 2:
        assert "None" not in stderr, stderr[:500]     # never 'seat None'
        lines = stderr.splitlines()
        assert len(lines) == 1, f"{len(lines)} lines on stderr: {stderr[:500]!r}"
        line = lines[0]
        assert line.startswith("error: ") and len(line) <= MAX_LINE, line[:300]
        assert len(line) > len("error: ") + 5
        if case.token and len(case.token) > 60:
            assert case.token[:61] not in line, "a long token is quoted in full"
        if case.says:
            assert case.says in line, line
    else:
        assert stdout.strip(), "exit 0 with no output"
        progress = [x for x in stderr.splitlines() if not x.startswith(f"{case.args[0]}: ")]
        assert not progress, stderr[:500]          # only a command's own progress lines
        if case.record is not None:
            assert replays(case.record), "exit 0 for a record that cannot have happened"


# ids without a backslash: pytest escapes a backslash of an id in place, so a second
# collection in the same process (mutmut's fork server) would not find the first's ids
@pytest.mark.parametrize("case", CASES,
                         ids=[ascii(c.name)[1:-1].replace("\\", "/") for c in CASES])
def test_hostile_input(case: Case):
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        r = runner.invoke(app, case.args, input=case.input)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    check_outcome(case, r.exit_code, r.stdout, r.stderr)


def test_the_suite_is_big_enough():
    assert len(CASES) >= 600
    commands = {c.args[0] for c in CASES}
    assert commands >= {"advise", "hint", "solve", "check", "analyze", "deal", "rules", "bench"}
    assert sum(c.record is not None for c in CASES) >= 300


def test_the_replay_oracle_tells_good_from_bad():
    good = Path(FULL_RECORD).read_text()
    assert replays(good)
    assert not replays(good.replace("1. Sb Ab Cb 3b", "1. Sb Ab Cb 3b Ao"))
    assert not replays(good.replace("2. Ao Ro So Co", "2. Co Ao Ro So"))
    assert not replays(good.replace("3. 3c Sc Cc Rc", "3. 3c Sc Cc Sb"))
    assert not replays(good.split("2. Ao")[0] + "cante 2 oros\n")
    for path in RECORD_FILES:
        assert replays(path.read_text()), path


# --- closed and endless standard streams ----------------------
# These run the installed command in a child process: a closed stream cannot be given to
# CliRunner.  The child's address space is capped, so that an unbounded read fails fast
# (out of memory, exit 1) instead of filling the machine.

import os as _os
import resource as _resource
import subprocess as _subprocess
import sys as _sys

MEMORY_CAP = 1 << 30                        # bytes of address space of a child command
STREAM_TIMEOUT = 60


def run_child(args: list[str], stdin="closed", stdout="pipe", timeout=STREAM_TIMEOUT):
    """Run ``cuatrola ARGS`` in a child: ``stdin`` "closed", a path, or bytes; ``stdout``
    "pipe" or "closed".  Returns (exit code, stdout, stderr)."""
    close = [0] if stdin == "closed" else []
    if stdout == "closed":
        close.append(1)

    def prepare():
        _resource.setrlimit(_resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        for fd in close:
            _os.close(fd)

    source = (_subprocess.DEVNULL if stdin == "closed" else
              _subprocess.PIPE if isinstance(stdin, bytes) else open(stdin, "rb"))
    try:
        r = _subprocess.run([_sys.executable, "-m", "cuatrola_cli.main", *args],
                            stdin=source, input=stdin if isinstance(stdin, bytes) else None,
                            stdout=_subprocess.PIPE, stderr=_subprocess.PIPE,
                            preexec_fn=prepare, timeout=timeout)
    finally:
        if hasattr(source, "close"):
            source.close()
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def one_line_exit_2(code: int, stderr: str, *words: str) -> str:
    assert code == 2, (code, stderr[-1000:])
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr[-1000:]
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


PLAY = ["play", "--bots", "random", "--seed", "1"]


@pytest.mark.parametrize("args, words", [
    (PLAY, "stdin is closed"),
    (["check", "-"], "stdin is closed"),
    (["hint", "-"], "stdin is closed"),
    (["analyze", "-", "--no-bids"], "stdin is closed"),
    (["solve", "--batch", "-"], "it is closed"),
])
def test_a_closed_stdin_is_one_line_and_exit_2(args, words):
    code, _, err = run_child(args, stdin="closed")
    one_line_exit_2(code, err, words)


@pytest.mark.parametrize("args, code", [
    (PLAY, 2),                                  # nowhere to show the game
    (["deal", "--seed", "1"], 0), (["rules"], 0),
    (["check", FULL_RECORD], 0),
])
def test_a_closed_stdout_is_exit_0_or_one_line_and_exit_2(args, code):
    got, _, err = run_child(args, stdin="/dev/null", stdout="closed")
    if code == 2:
        one_line_exit_2(got, err, "stdout is closed")
    else:
        assert got == 0 and not err, (got, err)


@pytest.mark.parametrize("args, words", [
    (PLAY, "more than 1,000 characters"),
    (["solve", "--batch", "-"], "longer than 1,048,576 bytes"),
    (["check", "-"], "too big"),
])
def test_an_endless_stdin_is_refused_in_bounded_memory(args, words):
    """``< /dev/zero``: one line without an end.  The child's address space is capped
    at MEMORY_CAP: a read without a bound would end in 'out of memory' (exit 1)."""
    code, _, err = run_child(args, stdin="/dev/zero")
    one_line_exit_2(code, err, words)


def test_play_stops_on_input_that_never_plays():
    """``yes | cuatrola play``: every entry refused, for ever; the game stops after
    MAX_REFUSED of them in a row at one decision."""
    for entry in ("xx\n", "?\n", "\n"):
        r = runner.invoke(app, PLAY, input=entry * 5000)
        check_outcome(Case("play-endless", PLAY, expect=2), r.exit_code, r.stdout, r.stderr)
        assert "none of them taken" in r.stderr
    # a person's few mistakes are no such thing
    r = runner.invoke(app, PLAY, input="xx\n" * 50 + "paso\n")
    assert r.exit_code == 0 and r.stdout.count("is not a call") == 50


# --- play --bots: three players, each with options --------------------

@pytest.mark.parametrize("bots, players", [
    ("pimc:samples=3,bid=heuristic", ["pimc:samples=3,bid=heuristic"]),   # in every seat
    ("pimc:samples=3,bid=heuristic;random;heuristic",
     ["pimc:samples=3,bid=heuristic", "random", "heuristic"]),
    ("heuristic ; pimc:samples=2,bid=random,match=0 ; random",
     ["heuristic", "pimc:samples=2,bid=random,match=0", "random"]),
    ("pimc:samples=3,random,heuristic", ["pimc:samples=3", "random", "heuristic"]),
    ("random,heuristic,random", ["random", "heuristic", "random"]),
])
def test_play_bots_take_options_each(bots, players):
    from cuatrola_solver.bots.players import parse_player, split_players
    specs = split_players(bots)
    assert [repr(parse_player(x)) for x in specs] == [repr(parse_player(p)) for p in players]
    r = runner.invoke(app, ["play", "--bots", bots, "--seed", "2"], input="")
    assert r.exit_code == 0, r.stderr
    assert "end of input" in r.stdout


@pytest.mark.parametrize("bots, words", [
    ("pimc,random", "got 2"), ("pimc;random", "got 2"), ("a;b;c;d", "got 4"),
    ("pimc,samples=3", "after ':'"), ("pimc:samples=3;;random", "unknown player"),
    ("pimc:samples=0,bid=heuristic", "bad value"), ("pimc:bid=genius;random;random", "bad value"),
])
def test_play_bad_bots_are_one_line(bots, words):
    r = runner.invoke(app, ["play", "--bots", bots, "--seed", "2"], input="")
    check_outcome(Case("play-bots", ["play"], expect=2), r.exit_code, r.stdout, r.stderr)
    assert words in r.stderr


# --- the lab's files: every field of every kind of record -----
# Small runs of every kind are written once; each case changes one field of one line
# (or mutates a line's text) and gives the file to `selfplay --resume` or `calibrate`.
# The oracle: exit 2 with one line, or exit 0 only where the change is one the lab could
# have written (odds null, no p_match) -- and then --resume's summary is the run's own.

LAB_RUNS = {
    "hands": ["--a", "heuristic", "--b", "random", "--hands", "2", "--seed", "1",
              "--odds-samples", "5"],
    "matches": ["--a", "heuristic", "--b", "random", "--matches", "1", "--seed", "1",
                "--odds-samples", "5"],
    "same-lineup": ["--a", "heuristic", "--b", "heuristic", "--hands", "2", "--seed", "1",
                    "--odds-samples", "0"],
    "forced-narro": ["--a", "heuristic", "--b", "random", "--hands", "2", "--seed", "1",
                     "--rules", "narro", "--odds-samples", "5", "--auction",
                     "solo contrasolo paso paso"],
    "pimc-bidder": ["--a", "pimc:samples=2,bid_samples=20", "--b", "heuristic", "--hands",
                    "1", "--seed", "1", "--odds-samples", "5"],
}
FIELD_CASES = 38                 # per kind of run: every kind of field once (37 at most)
TEXT_CASES = 8


def _summary(r) -> dict:
    report = json.loads(r.stdout)
    report.pop("out", None)
    return report


@pytest.fixture(scope="module")
def lab_runs(tmp_path_factory):
    """kind -> (its selfplay options, the run's lines, its --json summary)."""
    folder = tmp_path_factory.mktemp("lab-runs")
    runs = {}
    for kind, args in LAB_RUNS.items():
        path = folder / f"{kind}.jsonl"
        r = runner.invoke(app, ["selfplay", *args, "--out", str(path), "--workers", "1",
                                "--json"])
        assert r.exit_code == 0, r.stderr
        runs[kind] = (args, path.read_text(encoding="utf-8").splitlines(), _summary(r))
    return runs


def _walk(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, path + (i,))


def _wrong_values(value, key) -> list:
    """Values of another type than ``value`` (or out of its range), none of which the lab
    writes at ``key``."""
    if isinstance(value, bool):
        return [False, 1, "true", None]
    if isinstance(value, int):
        return ["x", "3", 1.5, True, None, [], {}, [1], "9" * 5000]
    if isinstance(value, float):
        return (["x", "0.5", True, None, [], float("nan"), float("inf")]
                + ([1.5, -0.1] if key in ("p_win", "p_match") else []))
    if isinstance(value, str):
        return [5, None, [], {}, True, "x", "9" * 5000, ""]
    if isinstance(value, list):
        return [5, "abc", {}, None, [1], [None]]
    if isinstance(value, dict):
        return [5, "x", [], None, [1], {}]
    return ["x", 5, True, [], {}, [1]]            # null: a declarer, the odds


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    if value is _DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


_DELETE = object()


def field_mutations(lines: list[str], rng: random.Random, n: int) -> list[tuple]:
    """``n`` changes of one lab field each: (line index, path, new value or _DELETE,
    whether the lab could have written it).  Every field's kind (its path with the
    list indices left out) is changed once before any is changed twice."""
    places: dict[tuple, list] = {}
    for i, line in enumerate(lines):
        for path, value in _walk(json.loads(line)["lab"], ("lab",)):
            kind = tuple("[]" if isinstance(p, int) else p for p in path)
            places.setdefault(kind, []).append((i, path, value))
    kinds = sorted(places, key=str)
    rng.shuffle(kinds)
    out = []
    while len(out) < n:
        for kind in kinds:
            i, path, value = rng.choice(places[kind])
            key = path[-1]
            ops = [("set", v) for v in _wrong_values(value, key)]
            if len(path) > 1 and isinstance(key, str):
                ops.append(("delete", _DELETE))
            if isinstance(value, dict):
                ops.append(("add", "zz"))
            op, new = rng.choice(ops)
            if op == "add":
                out.append((i, path + ("zz",), 1, False))
            else:
                ok = ((op == "set" and new is None and key == "odds")
                      or (op == "delete" and key in ("p_match", "last")))
                out.append((i, path, new, ok))
            if len(out) == n:
                break
    return out


def _lab_case(lab_runs, tmp_path, kind: str, lines: list[str] | bytes, command: str,
              label: str, could_be: bool):
    args, original, summary = lab_runs[kind]
    path = tmp_path / "run.jsonl"
    if isinstance(lines, bytes):
        path.write_bytes(lines)
    else:
        path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    argv = (["selfplay", *args, "--out", str(path), "--resume", "--workers", "1", "--json"]
            if command == "resume" else [command, str(path), "--json"])
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        r = runner.invoke(app, argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    check_outcome(Case(label, argv), r.exit_code, r.stdout, r.stderr)
    if r.exit_code == 0:
        assert could_be, f"{label}: exit 0 for a file the lab cannot have written"
        if command == "resume":
            assert _summary(r) == summary, f"{label}: the resumed run counts otherwise"
    return r


@pytest.mark.parametrize("kind", sorted(LAB_RUNS))
@pytest.mark.parametrize("i", range(FIELD_CASES))
def test_a_lab_field_of_the_wrong_kind_is_one_line(lab_runs, tmp_path, kind, i):
    _, lines, _ = lab_runs[kind]
    rng = random.Random(f"{SEED}/{kind}")
    line, path, value, could_be = field_mutations(lines, rng, FIELD_CASES)[i]
    obj = json.loads(lines[line])
    _set(obj, path, value)
    changed = list(lines)
    changed[line] = json.dumps(obj)
    label = (f"{kind}: line {line + 1}, {'.'.join(map(str, path))} "
             + ("deleted" if value is _DELETE else f"= {quote(value)}"))
    command = "resume" if i % 2 else "calibrate"
    r = _lab_case(lab_runs, tmp_path, kind, changed, command, label, could_be)
    if r.exit_code == 2 and not could_be and path[-1] != "zz":
        # the message names the line and, for a field of the wrong type, the field
        assert f"line {line + 1}" in r.stderr or "another configuration" in r.stderr, r.stderr


@pytest.mark.parametrize("kind", sorted(LAB_RUNS))
@pytest.mark.parametrize("i", range(TEXT_CASES))
def test_a_lab_line_mutated_is_one_line_or_a_record_that_replays(lab_runs, tmp_path, kind, i):
    _, lines, _ = lab_runs[kind]
    rng = random.Random(f"{SEED}/{kind}/text/{i}")
    line = rng.randrange(len(lines))
    data, how = mutate(lines[line], rng)
    if isinstance(data, bytes):
        body = ("".join(x + "\n" for x in lines[:line]).encode() + data + b"\n"
                + "".join(x + "\n" for x in lines[line + 1:]).encode())
        could_be = False
    else:
        body = lines[:line] + [data] + lines[line + 1:]
        could_be = all(replays(x) for x in data.split("\n") if x.strip())
    command = "resume" if i % 2 else "calibrate"
    _lab_case(lab_runs, tmp_path, kind, body, command, f"{kind}: line {line + 1} {how}",
              could_be)


@pytest.mark.parametrize("kind", ["hands", "same-lineup", "forced-narro"])
@pytest.mark.parametrize("i", range(0, FIELD_CASES, 3))
def test_compare_reads_a_lab_field_of_the_wrong_kind_in_one_line(lab_runs, tmp_path, kind, i):
    """``compare`` reads a run's file as ``--resume`` does: a field the lab cannot have
    written is one line, exit 2, naming the line."""
    _, lines, _ = lab_runs[kind]
    line, path, value, could_be = field_mutations(lines, random.Random(f"{SEED}/{kind}"),
                                                  FIELD_CASES)[i]
    obj = json.loads(lines[line])
    _set(obj, path, value)
    changed = list(lines)
    changed[line] = json.dumps(obj)
    label = f"compare {kind}: line {line + 1}, {'.'.join(map(str, path))}"
    r = _lab_case(lab_runs, tmp_path, kind, changed, "compare", label, could_be)
    if r.exit_code == 2 and not could_be and path[-1] != "zz":
        assert f"line {line + 1}" in r.stderr or "another configuration" in r.stderr, r.stderr


def test_compare_refuses_a_run_of_matches_in_one_line(lab_runs, tmp_path):
    _, lines, _ = lab_runs["matches"]
    r = _lab_case(lab_runs, tmp_path, "matches", lines, "compare", "compare matches", False)
    assert r.exit_code == 2 and "a run of matches" in r.stderr


@pytest.mark.parametrize("change, words", [
    # the cases first reported
    (lambda rows: rows[1]["lab"].pop("result"), "lab: expected the field result"),
    (lambda rows: rows[1]["lab"]["result"].update(game_points="3"), "game_points"),
    (lambda rows: rows[1]["lab"].update(play="0"), "lab.play"),
    (lambda rows: rows[1].update(hands=["Ao", "Ao", "Ao", "Ao"]), "seat 1 holds 1 cards"),
    (lambda rows: rows[1].update(tricks=rows[1]["tricks"][:2]), "not finished"),
    (lambda rows: rows[1]["lab"]["result"].update(winner="X"), "lab.result.winner"),
    (lambda rows: rows[1]["lab"]["result"].update(
        winner="A" if rows[1]["lab"]["result"]["winner"] == "B" else "B"), "not the hand's"),
    (lambda rows: rows.insert(1, rows[0]), "play 0 of board 0 where play 1"),
    (lambda rows: rows[2].update(hands=rows[0]["hands"], muestra=rows[0]["muestra"],
                                 auction=rows[0]["auction"], tricks=rows[0]["tricks"],
                                 lab=dict(rows[2]["lab"], bids=rows[0]["lab"]["bids"],
                                          result=rows[0]["lab"]["result"])),
     "is not the one the run's seed"),
    (lambda rows: rows[1]["lab"].update(seed=5), "seed"),
])
def test_resume_refuses_what_the_run_cannot_have_written(lab_runs, tmp_path, change, words):
    args, lines, _ = lab_runs["hands"]
    rows = [json.loads(x) for x in lines]
    change(rows)
    r = _lab_case(lab_runs, tmp_path, "hands", [json.dumps(x) for x in rows], "resume",
                  "resume", False)
    assert r.exit_code == 2 and words in r.stderr, r.stderr


def test_resume_checks_the_hands_of_a_match_in_order(lab_runs, tmp_path):
    args, lines, _ = lab_runs["matches"]
    rows = [json.loads(x) for x in lines]
    assert len(rows) >= 3 and rows[0]["lab"]["hand"] == 0 and "last" not in rows[0]["lab"]
    for change, words in (
            (lambda rs: rs.pop(1), "where"),
            (lambda rs: rs[1].update(score={"A": 3, "B": 0}), "match score"),
            (lambda rs: rs[0]["lab"].update(last=True), "lab.last says the match ends")):
        rs = [json.loads(x) for x in lines]
        change(rs)
        r = _lab_case(lab_runs, tmp_path, "matches", [json.dumps(x) for x in rs], "resume",
                      "resume-match", False)
        assert words in r.stderr, r.stderr


# --- bidmodel --calls: every field of a call --------------------------

def _calls(deals: int = 50, seed: int = 3) -> list[dict]:
    """Calls as bidmodel --calls keeps them, made by a simple legal bidder (fast)."""
    from cuatrola_solver.game.cards import mask_of, random_deal
    from cuatrola_solver.game.rules import get_rules
    from cuatrola_solver.models.bids import legal_calls
    rules, rng, rows = get_rules("online"), random.Random(seed), []
    for _ in range(deals):
        hands, muestra = random_deal(rng)
        calls: list[str] = []
        for seat in (1, 2, 3, 4):
            legal = legal_calls(rules, calls)
            call = rng.choice(legal)
            rows.append({"hand": mask_of(hands[seat - 1]), "trump": muestra // 5, "seat": seat,
                         "before": list(calls), "legal": legal, "call": call})
            calls.append(call)
    return rows


CALL_CHANGES = [
    (5, "hand", None), (6, "hand", "x"), (7, "hand", -1), (8, "hand", 1 << 20),
    (9, "hand", 31 << 5),
    (10, "hand", True), (11, "hand", 1.5), (12, "trump", 4), (13, "trump", "0"),
    (14, "seat", "x"), (15, "seat", 5), (16, "seat", [1]), (17, "before", 5),
    (18, "before", ["x"]), (19, "before", [None]), (20, "legal", []), (21, "legal", "paso"),
    (22, "legal", ["paso"] * 5), (23, "call", "x"), (24, "call", None), (25, "call", 5),
    (26, "zz", 1), (27, "hand", _DELETE), (28, "call", _DELETE), (29, "seat", 1),
]


@pytest.mark.parametrize("line, key, value", CALL_CHANGES,
                         ids=[f"{k}={v!r}"[:30] for _, k, v in CALL_CHANGES])
def test_a_call_of_the_wrong_kind_is_one_line(tmp_path, line, key, value):
    rows = _calls()
    if value is _DELETE:
        del rows[line][key]
    else:
        rows[line][key] = value
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = runner.invoke(app, ["bidmodel", "--calls", str(path), "-o", str(tmp_path / "m.json")])
    line_ = one_line_exit_2(r.exit_code, r.stderr, f"line {line + 1}")
    assert not (tmp_path / "m.json").exists(), line_


@pytest.mark.parametrize("rows, words", [
    ("empty", "no calls"), (None, "not four"), ("few", "a fit takes 50 deals"),
    ("shuffled", "where seat 1's was expected"), ("other-trump", "trump"),
    ("overlap", "in another seat's hand"),
])
def test_a_calls_file_that_cannot_be_fitted_is_one_line(tmp_path, rows, words):
    good = _calls()
    data = {None: good[:-1], "few": good[:40], "shuffled": good[1:] + good[:1], "empty": [],
            "other-trump": [dict(r, trump=(r["trump"] + 1) % 4) if i == 6 else r
                            for i, r in enumerate(good)],
            "overlap": [dict(r, hand=good[4]["hand"]) if i == 5 else r
                        for i, r in enumerate(good)]}[rows]
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in data))
    r = runner.invoke(app, ["bidmodel", "--calls", str(path), "-o", str(tmp_path / "m.json")])
    one_line_exit_2(r.exit_code, r.stderr, words)


def test_a_good_calls_file_is_fitted(tmp_path):
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _calls()))
    r = runner.invoke(app, ["bidmodel", "--calls", str(path), "-o", str(tmp_path / "m.json")])
    assert r.exit_code == 0, r.stderr
    assert json.loads((tmp_path / "m.json").read_text())["provenance"]["deals"] == 50


# --- outputs that are inputs, paths checked first -------------

def test_no_output_is_one_of_the_inputs(lab_runs, tmp_path):
    _, lines, _ = lab_runs["hands"]
    records = tmp_path / "run.jsonl"
    records.write_text("".join(x + "\n" for x in lines))
    calls = tmp_path / "calls.jsonl"
    calls.write_text("".join(json.dumps(r) + "\n" for r in _calls()))
    (tmp_path / "link.jsonl").symlink_to(records)
    before = {p: p.read_bytes() for p in (records, calls)}
    for args, words in (
            (["calibrate", str(records), "--fit", "-o", str(records)], "is a records file"),
            (["calibrate", str(records), "--fit", "-o", str(tmp_path / "link.jsonl")],
             "is a records file"),
            (["calibrate", str(records), "--fit", "-o",
              str(tmp_path / "." / "run.jsonl")], "is a records file"),
            (["calibrate", str(records), "--plot", str(tmp_path / "p.png"), "--fit", "-o",
              str(tmp_path / "p.png")], "the same file"),
            (["bidmodel", "--calls", str(calls), "-o", str(calls)], "is the --calls file"),
            (["bidmodel", "--calls", str(tmp_path / "new.jsonl"), "-o",
              str(tmp_path / "new.jsonl"), "--deals", "50"], "the same file"),
            (["equity", "--regenerate", "--deals", "1", "-o", str(tmp_path / "e.png"),
              "--plot", str(tmp_path / "e.png")], "the same file"),
            (["equity", "--regenerate", "--deals", "1", "-o", str(tmp_path / "e.json"),
              "--plot", str(tmp_path / "e.bmp")], "bad plot file"),
            (["equity", "--regenerate", "--deals", "1", "--seed", "-1", "-o",
              str(tmp_path / "e.json")], "--seed")):
        r = runner.invoke(app, args)
        one_line_exit_2(r.exit_code, r.stderr, words)
    assert {p: p.read_bytes() for p in (records, calls)} == before
    assert not [p.name for p in tmp_path.iterdir()
                if p.name not in ("run.jsonl", "calls.jsonl", "link.jsonl")]


@pytest.mark.parametrize("args", [
    ["bidmodel", "--deals", "2500", "-o", "/nonexistent/b.json"],
    ["bidmodel", "--deals", "2500", "-o", "."],
    ["bidmodel", "--deals", "2500", "-o", "b.json", "--calls", "/nonexistent/c.jsonl"],
    ["equity", "--regenerate", "--deals", "2000", "-o", "/nonexistent/h.json"],
    ["equity", "--regenerate", "--deals", "2000", "-o", "h.json", "--plot", "/nonexistent/h.png"],
    ["calibrate", FULL_RECORD, "--cards", "--fit", "-o", "/nonexistent/p.json"],
    ["calibrate", FULL_RECORD, "--cards", "--model", "/nonexistent/p.json"],
    ["selfplay", "--a", "pimc", "--b", "pimc", "--hands", "2500", "--out", "/nonexistent/r.jsonl"],
])
def test_a_bad_path_fails_before_any_work(args, tmp_path, monkeypatch):
    import time
    monkeypatch.chdir(tmp_path)
    began = time.monotonic()
    r = runner.invoke(app, args)
    one_line_exit_2(r.exit_code, r.stderr)
    assert time.monotonic() - began < 5, "the path was checked after the work"
    assert not list(tmp_path.iterdir())


# --- calibrate: each record by its own preset's model; no numpy noise ---

def test_calibrate_judges_each_record_by_its_own_presets_model(tmp_path):
    paths = {}
    for rules in ("online", "app"):
        paths[rules] = tmp_path / f"{rules}.jsonl"
        r = runner.invoke(app, ["selfplay", "--a", "heuristic", "--b", "random", "--hands",
                                "3", "--seed", "3", "--rules", rules, "--odds-samples", "10",
                                "--workers", "1", "--out", str(paths[rules])])
        assert r.exit_code == 0, r.stderr

    def report(*files):
        r = runner.invoke(app, ["calibrate", *map(str, files), "--model", "played", "--json"])
        assert r.exit_code == 0, r.stderr
        return {g["group"]: g for g in json.loads(r.stdout)["groups"]}

    both = report(paths["online"], paths["app"])
    other = report(paths["app"], paths["online"])                  # the order is no matter
    assert both.keys() == other.keys()
    for group, g in both.items():
        assert (g["n"], g.get("observed")) == (other[group]["n"], other[group].get("observed"))
        assert g.get("mean_p") == pytest.approx(other[group].get("mean_p")), group
    alone = [report(paths[x])["overall"] for x in ("online", "app")]
    assert both["overall"]["n"] == sum(g["n"] for g in alone)
    assert both["overall"]["mean_p"] == pytest.approx(
        sum(g["n"] * g["mean_p"] for g in alone) / both["overall"]["n"])
    # a model file is one preset's: a record of another is refused
    model = ROOT / "cuatrola_solver" / "models" / "data" / "played_online.json"
    r = runner.invoke(app, ["calibrate", str(paths["online"]), str(paths["app"]), "--model",
                            str(model)])
    one_line_exit_2(r.exit_code, r.stderr, "not app")


def test_calibrate_with_huge_cells_says_nothing_on_stderr(lab_runs, tmp_path):
    _, lines, _ = lab_runs["hands"]
    records = tmp_path / "run.jsonl"
    records.write_text("".join(x + "\n" for x in lines))
    model = json.loads((ROOT / "cuatrola_solver/models/data/played_online.json").read_text())
    model["cells"] = {k: [1e300, -1e300] for k in model["cells"]}
    (tmp_path / "huge.json").write_text(json.dumps(model))
    code, out, err = run_child(["calibrate", str(records), "--model", str(tmp_path / "huge.json")],
                               stdin="/dev/null")
    assert code == 0 and out and not err, err


# --- the shipped data, corrupt -----------------------------------------

@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """The package's data folder replaced by a copy in tmp_path (the package is never
    written): returns the folder; the models' caches are cleared before and after."""
    import importlib.resources as real
    import shutil
    from cuatrola_solver.lab import calibration
    from cuatrola_solver.models import equity, preset, store
    data = tmp_path / "data"
    shutil.copytree(ROOT / "cuatrola_solver" / "models" / "data", data)

    class Resources:
        @staticmethod
        def files(name):
            return tmp_path if name == "cuatrola_solver.models" else real.files(name)

    caches = (equity.load_hand_results, equity.table, preset._bid_model,
              preset._played_model, calibration._bid_model)
    for c in caches:
        c.cache_clear()
    monkeypatch.setattr(store, "resources", Resources)
    yield data
    monkeypatch.undo()
    for c in caches:
        c.cache_clear()


def _corruptions(kind: str) -> list:
    """(name, change of the file's object or its text) of one kind of model file."""
    common = [("not-json", "{"), ("a-list", "[]"), ("empty", ""), ("bom", "\ufeff{}"),
              ("version", lambda o: o.update({"schema" if kind == "hand_results"
                                               else "version": 7})),
              ("preset", lambda o: o.update(rules="narro"))]
    field = {"bids": [("weights-x", lambda o: o.update(weights="x")),
                      ("weights-short", lambda o: o["weights"].update(paso=[1.0])),
                      ("weights-str", lambda o: o["weights"].update(
                          paso=["1"] * len(o["weights"]["paso"])))],
             "played": [("cells-5", lambda o: o.update(cells=5)),
                        ("cell-str", lambda o: o["cells"].update({"solo@1": ["a", "b"]}))],
             "hand_results": [
                 ("tables-5", lambda o: o.update(tables=5)),
                 ("zero-counts", lambda o: o["tables"][0].update(
                     results={"A": {"1": 0}, "B": {"1": 0}})),
                 ("inf-count", lambda o: o["tables"][0]["results"].update(A={"1": 1e400})),
                 ("negative", lambda o: o["tables"][0]["results"].update(A={"1": -5})),
                 ("text-count", lambda o: o["tables"][0]["results"].update(A={"1": "12"})),
                 ("caps-x", lambda o: o["tables"][0].update(caps={"A": "x", "B": 5})),
                 ("points-0", lambda o: o["tables"][0]["results"].update(A={"0": 5}))]}[kind]
    return common + field


SHIPPED = [(kind, name) for kind in ("bids", "played", "hand_results")
           for name, _ in _corruptions(kind)]


@pytest.mark.parametrize("kind, name", SHIPPED, ids=[f"{k}-{n}" for k, n in SHIPPED])
def test_a_corrupt_shipped_file_is_one_line(shipped, kind, name):
    change = dict(_corruptions(kind))[name]
    path = shipped / f"{kind}_online.json"
    if isinstance(change, str):
        path.write_text(change, encoding="utf-8")
    else:
        obj = json.loads(path.read_text(encoding="utf-8"))
        change(obj)
        path.write_text(json.dumps(obj), encoding="utf-8")
    what = {"bids": "bid model", "played": "played-odds model",
            "hand_results": "hand results"}[kind]
    args = {"bids": ["hint", "--hand", "Co Ro Sb Rb 3b", "--muestra", "Ab", "--seat", "2",
                     "--auction", "solo paso paso paso", "--played", "1. Sc", "--samples",
                     "10", "--seed", "1"],
            "played": ["advise", HAND, "--muestra", "3c", "--seat", "2", "--samples", "10",
                       "--seed", "1"],
            "hand_results": ["equity", "--json"]}[kind]
    r = runner.invoke(app, args)
    line = one_line_exit_2(r.exit_code, r.stderr, what, str(path))
    assert any(w in line for w in ("corrupt", "cannot be read", "another version",
                                   "is for rules")), line
    if kind == "hand_results":              # advise --score reads the same file
        r = runner.invoke(app, ["advise", HAND, "--muestra", "3c", "--seat", "1", "--score",
                                "3-5", "--samples", "10", "--seed", "1", "--model", "dd",
                                "--no-inference"])
        one_line_exit_2(r.exit_code, r.stderr, what)


# --- parameter extremes: the equity table -------------------------------

@pytest.mark.parametrize("rules", ["online,target=1000,win_by=1000", "online,target=1000",
                                   "narro,win_by=101", "online,target=101"])
def test_an_equity_table_too_big_to_hold_is_one_line(rules):
    code, _, err = run_child(["equity", "--rules", rules, "--json"], stdin="/dev/null",
                             timeout=30)
    one_line_exit_2(code, err, "at most 100")
    r = runner.invoke(app, ["advise", HAND, "--muestra", "3c", "--seat", "1", "--score",
                            "3-5", "--rules", rules, "--samples", "10", "--model", "dd"])
    one_line_exit_2(r.exit_code, r.stderr, "at most 100")


def test_the_biggest_equity_table_is_held_in_bounded_time_and_memory():
    import time
    began = time.monotonic()
    code, out, err = run_child(["equity", "--rules", "online,target=100,win_by=100", "--json"],
                               stdin="/dev/null", timeout=60)
    assert code == 0, err
    assert len(out) < 10_000_000 and time.monotonic() - began < 30
    rows = json.loads(out)["rows"]
    assert len(rows) == 2 * 199 * 199 - 2 * sum(1 for m in range(199) for t in range(199)
                                                 if (m >= 100 and m - t >= 100)
                                                 or (t >= 100 and t - m >= 100))


# --- bogus cluster addresses on loopback ---------------------------------
# Each fake server speaks some HTTP/2 (or not) but is no Ray head: the probe (grpcio) tells;
# Ray itself, given any of them, retries for minutes.

import socket as _socket
import struct as _struct
import threading as _threading

from cuatrola_solver.lab import selfplay

_SETTINGS = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return _struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + \
        _struct.pack(">I", stream) + payload


def _trailers(status: int, message: str = "") -> bytes:
    block = (b"\x88" + b"\x40\x0ccontent-type\x10application/grpc"
             + b"\x00\x0bgrpc-status" + bytes([len(str(status))]) + str(status).encode())
    if message:
        block += b"\x00\x0cgrpc-message" + bytes([len(message)]) + message.encode()
    return _frame(1, 0x4 | 0x1, 1, block)             # HEADERS, END_HEADERS | END_STREAM


#: servers that are no Ray head, as byte streams sent after the client's first bytes (None:
#: close at once): HTTP/2 that then says nothing, goes away, resets or fails the call,
#: HTTP/1, silence, floods; each is told apart from a Ray head within seconds
FAKES = {
    "silent-http2": _SETTINGS,
    "goaway": _SETTINGS + _frame(7, 0, 0, bytes(8)),
    "reset": _SETTINGS + _frame(3, 0, 1, bytes(4)),
    "unimplemented": _SETTINGS + _trailers(12, "Method not found"),
    "internal": _SETTINGS + _trailers(13),
    "http1": b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
    "closes": None,
    "mute": b"",
    "pings": _SETTINGS + _frame(6, 0, 0, bytes(8)) * 2000,
    "huge-frame": _SETTINGS + b"\xff\xff\xff\x00\x00\x00\x00\x00\x03" + b"x" * 100,
    "endless-settings": _SETTINGS + _frame(4, 0, 0, b"\x00\x04\x00\x00\xff\xff") * 5000,
}


class FakeServer:
    """A loopback server that answers every connection with ``reply`` (None: close at
    once), then keeps it open until the test ends."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply
        self.sock = _socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.open: list = []
        _threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.open.append(conn)
            try:
                if self.reply is None:
                    conn.close()
                    continue
                conn.settimeout(5)
                conn.recv(65536)
                if self.reply:
                    conn.sendall(self.reply)
            except OSError:
                pass

    def close(self) -> None:
        self.sock.close()
        for c in self.open:
            try:
                c.close()
            except OSError:
                pass


@pytest.mark.parametrize("name", sorted(FAKES))
def test_an_address_that_is_not_a_ray_head_fails_within_seconds(name, tmp_path, monkeypatch):
    import time
    reply = FAKES[name]
    monkeypatch.setattr(selfplay, "RAY_TIMEOUT", 1.0)
    server = FakeServer(reply)
    out = tmp_path / "run.jsonl"
    began = time.monotonic()
    try:
        r = runner.invoke(app, ["selfplay", "--a", "random", "--b", "random", "--hands", "1",
                                "--ray", f"127.0.0.1:{server.port}", "--out", str(out)])
    finally:
        server.close()
    line = one_line_exit_2(r.exit_code, r.stderr, f"127.0.0.1:{server.port}",
                           "not as a Ray head")
    assert time.monotonic() - began < 5, line
    assert not out.exists()                    # nothing written for a bad address


@pytest.mark.parametrize("address, words", [
    ("127.0.0.1:99999", "a port 1 to 65535"), ("127.0.0.1:" + "9" * 5000, "a port 1 to 65535"),
    ("127.0.0.1:0", "a port 1 to 65535"), (":80", "HOST:PORT"), ("127.0.0.1:٨٠", "HOST:PORT"),
    ("no-such-host.invalid:6379", "does not answer"), ("127.0.0.1:1", "does not answer"),
    ("\x00:80", "does not answer"),
])
def test_a_bad_cluster_address_is_one_line(address, words, tmp_path):
    r = runner.invoke(app, ["selfplay", "--a", "random", "--b", "random", "--hands", "1",
                            "--ray", address, "--out", str(tmp_path / "r.jsonl")])
    one_line_exit_2(r.exit_code, r.stderr, words)
    assert not (tmp_path / "r.jsonl").exists()


def test_analyze_writes_no_page_or_graph_over_its_record(tmp_path):
    """(--annotate may write the record back over itself: the hand is all kept in it.)"""
    record = tmp_path / "hand.txt"
    record.write_text(Path(FULL_RECORD).read_text(encoding="utf-8"), encoding="utf-8")
    before = record.read_bytes()
    for args, words in (
            (["--html", str(tmp_path / "." / "hand.txt")], "is the record"),
            (["--annotate", str(tmp_path / "a.txt"), "--html", str(tmp_path / "a.txt")],
             "is the --annotate file")):
        r = runner.invoke(app, ["analyze", str(record), "--no-bids", "--samples", "2", *args])
        one_line_exit_2(r.exit_code, r.stderr, words)
    assert record.read_bytes() == before and not (tmp_path / "a.txt").exists()
