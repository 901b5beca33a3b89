"""``cuatrola play`` driven through stdin, as a pipe would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.game.cards import format_card
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import read_view, replay

from helpers import run

runner = CliRunner()

# An answer for every prompt: 'paso' for a call, 'no' for a cante, then every card in
# turn: the prompt refuses what it cannot take and asks again, so each card prompt
# ends on a legal card.
ANSWERS = "\n".join(["paso", "no"] + [format_card(c) for c in range(20)]) + "\n"


def test_a_whole_hand_through_stdin(tmp_path):
    res = runner.invoke(app, ["play", "--seat", "3", "--bots", "heuristic", "--seed", "4",
                              "--save", str(tmp_path)], input=ANSWERS * 12)
    assert res.exit_code == 0, res.output
    assert "hand 1 over:" in res.output
    assert "would be a renuncio" in res.output or "you do not hold" in res.output
    saved = list(tmp_path.iterdir())
    assert len(saved) == 1
    hand = replay(read_record(saved[0].read_text()))
    assert hand.result() is not None and not hand.renuncios
    # the points split into cards, monte and cantes, as check shows them
    out = res.output
    assert "  result: " in out and "    cards: your pair " in out and "    monte: " in out
    bd = hand.points_breakdown()                  # seat 3 is side A
    assert f"    cards: your pair {bd.cards[0]} - the other pair {bd.cards[1]}" in out


def test_end_of_input_ends_cleanly(tmp_path):
    res = runner.invoke(app, ["play", "--bots", "random", "--seed", "1"], input="")
    assert res.exit_code == 0 and "end of input: game over" in res.output


def test_a_match_through_a_real_pipe(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "cuatrola_cli.main", "play", "--match",
                           "--bots", "random,heuristic,random", "--seed", "2", "--seat", "2",
                           "--save", str(tmp_path)], input=ANSWERS * 400, text=True,
                          capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "match over:" in proc.stdout and "Traceback" not in proc.stderr
    assert "\x1b[" not in proc.stdout          # no colour codes when piped
    saved = sorted(tmp_path.iterdir())
    assert len(saved) == proc.stdout.count(" over:\n") >= 2


def test_bad_bots_exit_2():
    res = runner.invoke(app, ["play", "--bots", "pimc,oracle,random"], input="")
    assert res.exit_code == 2 and "oracle" in res.output
    res = runner.invoke(app, ["play", "--bots", "pimc,random"], input="")
    assert res.exit_code == 2 and "three" in res.output


def test_hints_before_each_decision():
    res = runner.invoke(app, ["play", "--seat", "1", "--bots", "heuristic", "--seed", "5",
                              "--hints"], input=ANSWERS * 12)
    assert res.exit_code == 0, res.output
    assert "hint: advice " in res.output            # the call
    hints = [x for x in res.output.splitlines() if x.startswith("  hint: ") and "%" in x]
    assert any("wins" in x for x in hints) and any("wins" not in x for x in hints)


# --- driven through a real pipe, one answer per prompt -------------------------

PROMPT = re.compile(r"(your call \(.*\)|your card \(.*\)|your card \[.*\]|sing \S+): $")


def drive(args: list[str], answer, timeout: float = 240) -> str:
    """``cuatrola play ARGS`` through a real pipe: each prompt, as it appears, is
    answered with ``answer(prompt)``; the transcript is returned."""
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "play", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    out, answered, began = b"", 0, time.monotonic()
    while True:
        chunk = proc.stdout.read1(65536)
        if not chunk:
            break
        out += chunk
        text = out.decode("utf-8", "replace")
        last = text.rsplit("\n", 1)[-1]
        if len(text) > answered and PROMPT.match(last):
            answered = len(text)
            proc.stdin.write((answer(last) + "\n").encode())
            proc.stdin.flush()
        assert time.monotonic() - began < timeout, text[-2000:]
    proc.stdin.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 0, err
    assert "Traceback" not in err
    return out.decode()


def sensible(prompt: str) -> str:
    """A player who passes, sings what is offered (Enter), plays a forced card with
    Enter and otherwise the first card offered."""
    if prompt.startswith("your call"):
        return "paso"
    if prompt.startswith("sing") or prompt.startswith("your card ["):
        return ""
    return prompt.split("(", 1)[1].split()[0].rstrip("*):")


def test_the_cante_prompt_shows_the_hint_defaults_to_singing_and_confirms(tmp_path):
    """An empty line silently meant 'no' (20 or 40 points lost), no
    hint, no confirmation, a typo listed all four suits."""
    typed = []

    def answer(prompt):
        if prompt.startswith("sing") and not typed:
            typed.append(prompt)
            return "bastso"                      # a typo first, then Enter
        return sensible(prompt)

    out = drive(["--seat", "1", "--bots", "heuristic", "--seed", "1", "--hints",
                 "--save", str(tmp_path)], answer)
    assert typed == ["sing [copas]/no: "]                     # the default is explicit
    lines = out.splitlines()
    k = next(i for i, x in enumerate(lines) if x == "you may sing: copas (20)")
    assert re.fullmatch(r"  hint: (sing copas|keep quiet): your pair wins \d+% "
                        r"(singing copas|without a cante), \d+% (singing copas|without a "
                        r"cante) \(400 deals\)", lines[k + 1]), lines[k + 1]
    assert lines[k + 2] == "sing [copas]/no: bastso"
    assert lines[k + 3] == "  'bastso' is not one of your cantes: answer copas, or no"
    assert lines[k + 4] == "sing [copas]/no: "
    assert lines[k + 5] == "you sing las veinte in copas: +20 for your pair"
    [saved] = list(tmp_path.iterdir())
    rec = read_record(saved.read_text())
    assert (1, 1) in [(c.seat, c.suit) for c in rec.cantes]
    # 'no' keeps quiet, and says so
    out = drive(["--seat", "1", "--bots", "heuristic", "--seed", "1"],
                lambda p: "no" if p.startswith("sing") else sensible(p))
    assert "sing [copas]/no: no\n  you keep quiet\n" in out and "you sing" not in out


def test_the_commands_pass_and_enter_for_a_forced_card():
    """'?' shows the commands, English 'pass' is read, Enter plays a
    forced card (and only a forced card)."""
    seen = []

    def answer(prompt):
        if prompt.startswith("your call") and not seen:
            seen.append("?")
            return "?"
        if prompt.startswith("your call"):
            return "pass"
        if prompt.startswith("your card (") and "empty" not in seen:
            seen.append("empty")
            return ""
        return sensible(prompt)

    out = drive(["--seat", "2", "--bots", "heuristic", "--seed", "4"], answer)
    assert "what you may type:" in out and "paso (or pass)" in out
    assert "your call (paso solo cuatrola quintola): pass\n" in out
    assert "  type a card, as 3o (? shows the commands)" in out     # Enter needs a forced card
    assert re.search(r"your card \[(\w\w)\*?\]: \n  you play \1\*?\n", out)   # forced: Enter
    assert "hand 1 over:" in out


def test_your_cards_in_one_order_and_the_points_after_every_baza(tmp_path):
    """The hand and the prompt listed the cards in two orders; the
    points of each side were not shown as the hand went."""
    out = drive(["--seat", "3", "--bots", "heuristic", "--seed", "4", "--save", str(tmp_path)],
                sensible)
    lines = out.splitlines()
    prompts = 0
    for i, line in enumerate(lines):
        if line.startswith("your cards: "):
            hand = line.split(": ", 1)[1].split()
            prompt = next(x for x in lines[i + 1:] if x.startswith(("your card ", "your call")))
            if prompt.startswith("your card ("):
                offered = prompt.split("(", 1)[1].split(")")[0].split()
                assert offered == [c for c in hand if c in offered], (hand, offered)
                prompts += 1
            suits = [c[-1].rstrip("*") for c in hand]
            trumps = [c for c in hand if c.endswith("*")]
            assert hand[:len(trumps)] == trumps                      # trumps first
            for a, b in zip(hand, hand[1:]):                         # strongest first
                if a[-1] == b[-1] or (a.endswith("*") and b.endswith("*")):
                    assert "A3RCS".index(a[0]) < "A3RCS".index(b[0]), hand
    assert prompts >= 1
    bazas = [x for x in lines if x.startswith("trick ") and " to " in x]
    assert len(bazas) == 5
    assert all(re.search(r": bazas your pair \d - the other pair \d; points your pair \d+ - "
                         r"the other pair \d+$", x) for x in bazas), bazas
    [saved] = list(tmp_path.iterdir())
    res = replay(read_record(saved.read_text())).result()
    mine = "B" if "side B" in out else "A"        # seat 3 is side A
    last = bazas[-1].rsplit("points your pair ", 1)[1]
    assert last == f"{res.points[0]} - the other pair {res.points[1]}"


def test_the_match_display_says_your_pair_and_the_other_pair(tmp_path):
    """The side letters swapped relative to the player every hand, and
    after the last hand it said 'you are seat 4 next hand' before 'match over'."""
    out = drive(["--match", "--seat", "2", "--bots", "random,heuristic,random", "--seed", "2",
                 "--save", str(tmp_path)], sensible, timeout=600)
    lines = out.splitlines()
    headers = [x for x in lines if re.match(r"hand \d+: you are seat", x)]
    overs = [x for x in lines if re.fullmatch(r"hand \d+ over:", x)]
    assert len(headers) == len(overs) == len(list(tmp_path.iterdir())) >= 2
    # no side letter but in the header's note on the record, and in no score
    for x in lines:
        if not re.match(r"hand \d+: you are seat", x):
            assert not re.search(r"\bside [AB]\b|\bA \d+ - B \d+\b", x), x
    assert "next hand" not in out
    assert lines[-1].startswith("match over: ")
    # the score said before each hand is the sum of the hands before it, for your pair
    mine = theirs = 0
    for k, saved in enumerate(sorted(tmp_path.iterdir())):
        header = headers[k]
        assert f"match: your pair {mine} - the other pair {theirs}" in header, header
        rec = read_record(saved.read_text())
        res = replay(rec).result()
        seat = int(re.search(r"you are seat (\d)", header).group(1))
        my_side = "A" if seat % 2 else "B"
        assert f"your pair is side {my_side} in its record" in header
        if str(res.winner) == my_side:
            mine += res.game_points
        else:
            theirs += res.game_points
    assert lines[-1] == (f"match over: {'your pair' if mine > theirs else 'the other pair'} "
                         f"wins, your pair {mine} - the other pair {theirs}")


def test_hints_are_as_sure_as_the_commands(monkeypatch):
    """Play's hints used 40 deals (Sb 73% where hint says 57%).  They
    take hint's and advise's own budgets: every layout when they fit hint's time budget
    (exact_when_few, as hint and analyze decide), else hint's sampled deals."""
    from cuatrola_cli import cmd_play
    from cuatrola_solver.advice.cardplay import DEFAULT_HINT_SAMPLES, EXACT_WORK, FIRST_TRICK_COST
    from cuatrola_solver.hidden.deals import count_deals
    from cuatrola_solver.hidden.inference import knowledge_of
    cards, calls = [], []
    real_hint, real_advise = cmd_play.hint, cmd_play.advise

    def spy_hint(view, budget, models):
        h = real_hint(view, budget, models)
        cards.append((view, budget, h))
        return h

    def spy_advise(view, budget, models):
        a = real_advise(view, budget, models)
        calls.append((budget, a))
        return a

    monkeypatch.setattr(cmd_play, "hint", spy_hint)
    monkeypatch.setattr(cmd_play, "advise", spy_advise)
    res = runner.invoke(app, ["play", "--seat", "1", "--bots", "heuristic", "--seed", "3",
                              "--hints"], input=ANSWERS * 12)
    assert res.exit_code == 0, res.output
    [(budget, advice)] = calls
    assert budget.samples is None and budget.tolerance > 0        # advise's own stopping
    assert advice.deals >= 2000 and f"advice {advice.advice} ({advice.deals:,} deals)" in res.output
    assert len(cards) == 5
    for view, budget, h in cards:
        n = count_deals(knowledge_of(view))
        cost = FIRST_TRICK_COST if view.trick_number == 1 else 1
        fits = n <= DEFAULT_HINT_SAMPLES or n * len(view.legal_cards()) * cost <= EXACT_WORK
        assert budget.samples is None and not budget.exact and h.exact == fits
        assert h.deals == (n if fits else DEFAULT_HINT_SAMPLES)
        shown = "  hint: " + "  ".join(f"{format_card(c.card)} {100 * c.p_played:.0f}%"
                                       for c in h.cards)
        assert shown in res.output
    first = cards[0][2]
    assert not first.exact and first.deals == 1000 and "(1,000 deals)" in res.output
    assert any(h.exact for _, _, h in cards) and "layouts)" in res.output


def test_exact_when_few():
    from cuatrola_solver.advice.budget import Budget
    from cuatrola_solver.advice.cardplay import exact_when_few
    from cuatrola_solver.hidden.deals import count_deals
    from cuatrola_solver.hidden.inference import knowledge_of
    opening = read_view("Sb Rb Co Sc Ae", "Cb", 1)
    assert exact_when_few(opening, Budget(seed=1)) == Budget(seed=1)     # 250,000 layouts
    late = read_view("Sb Ae", "Cb", 1, None, "1. Co Ro Ao 3o 2. Ac Cc Sc Rc "
                           "3. So Cb Rb 3b 4. 3e Ce Re")
    assert exact_when_few(late, Budget(seed=1)).exact
    assert exact_when_few(late, Budget(samples=1, seed=1)) == Budget(samples=1, seed=1)
    # the second trick's lead: 11,550 layouts, 4 cards to choose from, within the time
    # budget unless a number of samples is asked for (then: no more than it); in the
    # first trick the same work counts three times
    second = read_view("Sb Rb Sc Ae", "Cb", 1, None, "1. Ao Co Ro 3o")
    assert count_deals(knowledge_of(second)) == 11550 and len(second.legal_cards()) == 4
    assert exact_when_few(second, Budget(seed=1)).exact
    assert not exact_when_few(second, Budget(samples=1000, seed=1)).exact
    assert exact_when_few(second, Budget(samples=20000, seed=1)) == Budget(samples=20000, seed=1)
    # the dealer, last to play to the first trick: seat 2 trumped, so it is void in
    # oros; 23,100 layouts, So or Ro to follow: 23,100 x 2 x 3 is within the budget
    dealer = read_view("So Rb Ro Ae Cb", "Cb", 4, None, "1. Ao Sb Co")
    assert count_deals(knowledge_of(dealer)) == 23100 and len(dealer.legal_cards()) == 2
    assert exact_when_few(dealer, Budget(seed=1)).exact
    # seat 3 before it: 34,650 layouts, two oros to choose from: 207,900 is not
    third = read_view("So Rb Ro Ae Cc", "Cb", 3, None, "1. Ao Co")
    assert count_deals(knowledge_of(third)) == 34650 and len(third.legal_cards()) == 2
    assert not exact_when_few(third, Budget(seed=1)).exact


def test_play_save_makes_a_missing_folder_and_says_so(tmp_path):
    folder = tmp_path / "games" / "today"
    r = run("play", "--bots", "random", "--seed", "1", "--save", str(folder), input="")
    assert r.exit_code == 0 and folder.is_dir()
    assert f"made the folder {folder} for the records" in r.stdout
    r = run("play", "--bots", "random", "--seed", "1", "--save", str(folder), input="")
    assert "made the folder" not in r.stdout            # only when it was made
    afile = tmp_path / "a-file"
    afile.write_text("x")
    r = run("play", "--save", str(afile), input="")
    assert r.exit_code == 2 and "it is a file, not a folder" in r.stderr
