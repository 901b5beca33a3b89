"""``cuatrola compare`` (:mod:`cuatrola_solver.lab.compare`): where the two line-ups of a
duplicate run part, and the hands' properties after Long et al.

Three kinds of check: positions and figures worked out by hand (the layouts a seat
cannot tell apart, a last decision where both cards win and one where they do not, a
contract won and one lost double dummy, tallies of made-up boards); tiny real runs
whose partings are recomputed from their JSON lines by a few lines of plain Python
(the first card that differs, its seat from the trick winners, the duplicate
difference from the lab fields); and the command's output and errors.
"""

from __future__ import annotations

import json
import math
import statistics

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice.stats import wilson
from cuatrola_solver.dd import solver
from cuatrola_solver.errors import CuatrolaError, LabError
from cuatrola_solver.game.cards import format_card, parse_card
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.lab import selfplay
from cuatrola_solver.lab.compare import (HandFacts, Parting, Properties, compare, decision,
                                         facts_of, share_interval, tally)
from cuatrola_solver.lab.selfplay import LabConfig, Ratio
from cuatrola_solver.notation.record import record_from_obj
from cuatrola_solver.notation.replay import record_of, replay_deal

from helpers import make_hand

runner = CliRunner()
Z = 1.959964

#: tiny runs: name -> (a, b, rules, auctions, boards); the same calls on both sides of
#: a board unless the line-ups bid differently ("natural")
RUNS = {
    "forced": ("heuristic", "random", "online",
               ("paso paso paso paso", "paso solo paso paso", "paso paso paso cuatrola"), 12),
    "narro": ("heuristic", "random", "narro", ("solo contrasolo paso paso",
                                              "paso paso paso paso"), 6),
    "pimc": ("pimc:samples=4,bid=heuristic", "heuristic", "online", (), 8),
    "natural": ("heuristic", "random", "online", (), 6),
    "same": ("heuristic", "heuristic", "online", (), 3),
}
#: the seed of each run (21 unless said)
SEEDS = {"forced-again": 22}
RUNS["forced-again"] = RUNS["forced"][:4] + (5,)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """name -> (path, its lines, selfplay's summary of the run)."""
    folder = tmp_path_factory.mktemp("compare")
    out = {}
    for name, (a, b, rules, auctions, count) in RUNS.items():
        config = LabConfig.make(a, b, rules, seed=SEEDS.get(name, 21), count=count,
                                odds_samples=0,
                                auctions=auctions)
        path = folder / f"{name}.jsonl"
        summary = selfplay.run(config, str(path), workers=1)
        out[name] = (path, path.read_text(encoding="utf-8").splitlines(), summary.to_dict())
    return out


def _write(path, objs) -> str:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return str(path)


# --- the partings, recomputed plainly ----------------------------------------------------

def _a_minus_b(rec: dict) -> int:
    lab = rec["lab"]
    res = lab["result"]
    a_won = lab["lineup"][res["winner"]] == lab["config"]["a"]
    return res["game_points"] if a_won else -res["game_points"]


def plain_partings(lines: list[str]) -> dict[int, dict]:
    """board -> what the two plays show, from the JSON alone: the difference a - b, and
    the first card (or cante) that differs, walking the tricks and the cantes between
    them; the seat from a HandState playing the cards up to it."""
    boards: dict[int, dict] = {}
    for line in lines:
        rec = json.loads(line)
        boards.setdefault(rec["lab"]["deal"], {})[rec["lab"]["play"]] = rec
    out = {}
    for board, plays in boards.items():
        p0, p1 = plays[0], plays[1]
        diff = _a_minus_b(p0) + _a_minus_b(p1)
        if p0["auction"] != p1["auction"]:
            out[board] = {"kind": "calls", "diff": diff}
            continue
        calls = p0["auction"]
        bidders = [s for s, c in enumerate(calls, 1) if c != "paso"]
        contract = calls[bidders[-1] - 1] if bidders else "paso"
        declarer = (bidders[0] if contract == "contrasolo" else bidders[-1]) if bidders else 1

        def role(seat):
            if contract == "paso":
                return "side A" if seat % 2 else "side B"
            return "declarer" if seat % 2 == declarer % 2 else "defender"

        def sung(rec, t):
            return [(k["seat"], k["suit"]) for k in rec.get("cantes", ())
                    if k["after_trick"] == t]

        found = {"kind": "none", "diff": diff, "contract": contract}
        played = []                          # the cards both plays played, in order
        for t in range(1, 6):
            c0, c1 = sung(p0, t - 1), sung(p1, t - 1)
            if c0 != c1:
                seat = (c0 or c1)[0][0]
                a_did, b_did = (c0, c1) if seat % 2 else (c1, c0)
                said = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
                found.update(kind="cante", trick=t, seat=seat, role=role(seat),
                             a=f"cante {said[a_did[0][1]]}" if a_did else "no cante",
                             b=f"cante {said[b_did[0][1]]}" if b_did else "no cante")
                break
            if t > len(p0["tricks"]):
                break
            for j, (x, y) in enumerate(zip(p0["tricks"][t - 1], p1["tricks"][t - 1]), 1):
                if x != y:
                    hand = HandState([[parse_card(c) for c in h.split()] for h in p0["hands"]],
                                parse_card(p0["muestra"]), get_rules(p0["rules"]))
                    for call in calls:
                        hand.bid(call)
                    for c in played:
                        hand.play(parse_card(c))
                    seat = hand.pos.to_play
                    a_card, b_card = (x, y) if seat % 2 else (y, x)
                    makes = solver.solve_cards(hand.pos, hand.rules, "makes")
                    ours = (seat % 2 == declarer % 2) if contract != "paso" else seat % 2 == 1
                    keeps = {w: bool(makes[parse_card(c)]) == ours
                             for w, c in (("a", a_card), ("b", b_card))}
                    dd = ("same" if keeps["a"] == keeps["b"] else "a" if keeps["a"] else "b")
                    found.update(kind="card", trick=t, place=j, seat=seat, role=role(seat),
                                 a=a_card, b=b_card, dd=dd)
                    break
                played.append(x)
            if found["kind"] != "none":
                break
        out[board] = found
    return out


def _check_partings(path, lines):
    got = {p.board: p for p in compare(str(path)).partings}
    want = plain_partings(lines)
    assert sorted(got) == sorted(want)
    for board, w in want.items():
        p = got[board]
        assert (p.kind, p.diff) == (w["kind"], w["diff"]), board
        for key in ("contract", "trick", "place", "seat", "role", "a", "b", "dd"):
            if key in w:
                assert getattr(p, key) == w[key], (board, key)
    return got, want


@pytest.mark.parametrize("name", ["forced", "narro", "pimc"])
def test_the_partings_of_a_run_are_the_ones_its_records_show(runs, name):
    path, lines, _ = runs[name]
    got, _ = _check_partings(path, lines)
    # the runs are not trivial: the plays part, at cards, with a spread of results
    assert sum(p.kind == "card" for p in got.values()) >= len(got) // 2
    assert len({p.diff for p in got.values()}) >= 2


def test_boards_whose_calls_differ_are_counted_apart(runs):
    path, lines, _ = runs["natural"]
    c = compare(str(path))
    want = plain_partings(lines)
    assert all(w["kind"] == "calls" for w in want.values())
    d = c.to_dict()["partings"]
    diffs = [w["diff"] for w in want.values()]
    assert d["calls"]["boards"] == len(diffs)
    assert d["calls"]["mean"]["mean"] == pytest.approx(sum(diffs) / (2 * len(diffs)))
    assert d["by_trick"] == d["by_contract"] == d["by_role"] == d["by_seat"] == []
    assert d["calls"]["share"]["mean"] == pytest.approx(c.to_dict()["difference"]["mean"])


def _group_by_hand(diffs_in: list[int], diffs_all: list[int]) -> dict:
    """A group's mean and share per hand, and their SEs, computed plainly: every board is
    two hands, so the ratio estimator is the mean of the differences over 2."""
    n, m = len(diffs_in), len(diffs_all)
    return {"mean": sum(diffs_in) / (2 * n),
            "mean_se": statistics.stdev(diffs_in) / (2 * math.sqrt(n)) if n > 1 else None,
            "share": sum(diffs_in) / (2 * m),
            "share_se": statistics.stdev([d for d in diffs_all]) / (2 * math.sqrt(m))}


@pytest.mark.parametrize("key", ["trick", "contract", "role", "seat"])
def test_the_tallies_of_a_run_are_the_plain_sums(runs, key):
    path, lines, summary = runs["forced"]
    c = compare(str(path))
    report = c.to_dict()
    want = plain_partings(lines)
    # the run's difference is selfplay's own
    assert report["difference"]["mean"] == pytest.approx(
        summary["points_per_hand"]["difference"]["mean"])
    assert report["difference"]["se"] == pytest.approx(
        summary["points_per_hand"]["difference"]["se"])
    rows = report["partings"][f"by_{key}"]
    values = sorted({w[key] for w in want.values() if w["kind"] in ("card", "cante")},
                    key=str)
    assert sorted((r[key] for r in rows), key=str) == values
    total = 0.0
    for r in rows:
        inside = [w["diff"] for w in want.values()
                  if w["kind"] in ("card", "cante") and w[key] == r[key]]
        every = [w["diff"] if w["kind"] in ("card", "cante") and w[key] == r[key] else 0
                 for w in want.values()]
        plain = _group_by_hand(inside, every)
        assert r["boards"] == len(inside)
        assert r["mean"]["mean"] == pytest.approx(plain["mean"])
        if plain["mean_se"] is not None:
            assert r["mean"]["se"] == pytest.approx(plain["mean_se"])
        assert r["share"]["mean"] == pytest.approx(plain["share"])
        assert r["share"]["se"] == pytest.approx(
            statistics.stdev(every) / (2 * math.sqrt(len(every))))
        assert (r["a_ahead"], r["level"], r["a_behind"]) == (
            sum(d > 0 for d in inside), sum(d == 0 for d in inside), sum(d < 0 for d in inside))
        dd = [w["dd"] for w in want.values() if w["kind"] == "card" and w[key] == r[key]]
        assert r["dd"] == {x: dd.count(x) for x in ("a", "same", "b")}
        total += r["share"]["mean"]
    # the groups' shares, the boards that part nowhere and the calls add up to a - b
    assert total + report["partings"]["calls"]["share"]["mean"] == pytest.approx(
        report["difference"]["mean"])


# --- boards made by hand: no difference, a cante -----------------------------------------

def _as_play_1(obj0: dict, **changes) -> dict:
    """Play 0's record played again by the other line-up, with ``changes`` to the
    record; the result is the hand's replayed."""
    obj = json.loads(json.dumps(obj0))
    obj.update(changes)
    obj = {k: v for k, v in obj.items() if v != []}
    lab = obj["lab"]
    lab["play"] = 1
    lab["lineup"] = {"A": lab["lineup"]["B"], "B": lab["lineup"]["A"]}
    result = replay_deal(record_from_obj(obj)).result()
    lab["result"] = {"winner": str(result.winner), "game_points": result.game_points}
    return obj


def test_a_board_played_alike_twice_parts_nowhere(runs, tmp_path):
    path, lines, _ = runs["forced"]
    objs = [json.loads(x) for x in lines]
    objs[3] = _as_play_1(objs[2])                  # board 1, play 1: play 0's cards
    c = compare(_write(tmp_path / "alike.jsonl", objs))
    p = c.partings[1]
    assert (p.kind, p.diff, p.trick, p.seat) == ("none", 0, None, None)
    assert p.contract == "solo"
    d = c.to_dict()["partings"]
    assert d["none"] == 1
    assert sum(r["boards"] for r in d["by_trick"]) == len(c.partings) - 1
    # the board's 0 still counts in the run's difference
    assert c.to_dict()["difference"]["mean"] == pytest.approx(
        sum(x.diff for x in c.partings) / (2 * len(c.partings)))


def test_a_cante_sung_in_one_play_only_is_where_they_part(runs, tmp_path):
    path, lines, _ = runs["forced"]
    objs = [json.loads(x) for x in lines]
    i = next(i for i in range(0, len(objs), 2) if objs[i].get("cantes"))
    first = objs[i]["cantes"][0]
    objs[i + 1] = _as_play_1(objs[i], cantes=[])     # play 1: the same cards, no cante
    new = tmp_path / "cante.jsonl"
    _write(new, objs)
    got, _ = _check_partings(new, new.read_text(encoding="utf-8").splitlines())
    p = got[objs[i]["lab"]["deal"]]
    suit = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}[first["suit"]]
    sang, silent = f"cante {suit}", "no cante"
    assert (p.kind, p.trick, p.place, p.seat) == ("cante", first["after_trick"] + 1, None,
                                                  first["seat"])
    # play 0 seats line-up a at side A: a sang when the singer is of side A
    assert (p.a, p.b) == ((sang, silent) if first["seat"] % 2 else (silent, sang))


# --- the properties, by hand ----------------------------------------------------------------

def _played(deal: str, muestra: str, calls: list[str], cards: str) -> HandState:
    hand = make_hand(deal, muestra, auction=calls)
    for c in cards.split():
        hand.play(parse_card(c))
    return hand


def test_a_last_decision_where_every_card_wins():
    """Cuatrola by seat 1, triunfo copas (muestra Cc); seat 1 has taken the first three
    bazas and holds Sc 3b; seat 2 holds Co 3o, seat 4 Re Ae.  Either card takes the
    fourth baza: Sc is the last triunfo, and 3b the last basto with no triunfo left to
    the defenders.  The layouts seat 1 cannot tell apart: seat 2's two cards, seat 4's
    two and the five of seat 3 (sitting out) among the nine it has not seen, with no
    copas left to place: 9! / (2! 2! 5!) = 756."""
    hand = _played("Sc 3c Ac 3b Ab / So Co 3o 3e Rb / Ro Ao Se Ce Sb / Cc Rc Re Ae Cb", "Cc",
                   ["cuatrola", "paso", "paso", "paso"], "Ab Rb Cb Ac 3e Rc 3c So Cc")
    assert hand.pos.to_play == 1 and sorted(map(format_card, hand.legal_cards())) == ["3b", "Sc"]
    assert decision(hand) == (math.factorial(9) // (2 * 2 * 120), True) == (756, True)


def test_a_last_decision_where_one_card_wins_and_the_other_loses():
    """Cuatrola by seat 1, triunfo copas (muestra Sc); seat 1 has taken three bazas and
    holds Ce Sb; seat 2 holds So Ab, seat 4 3o 3b.  Ce takes the fourth baza (nobody
    else has an espada or a copa): made.  Sb loses it to seat 2's Ab, which leads So,
    and seat 4's 3o takes the last: three bazas, down.  The layouts: seats 2 and 4
    have shown they hold no copas (they did not follow seat 1's triunfo leads), so the
    3c is seat 3's, and the other eight unseen cards go two, two and four:
    8! / (2! 2! 4!) = 420."""
    hand = _played("Cc Rc Ac Ce Sb / So Re Cb Rb Ab / Ro Ao 3c Se 3e / Co 3o Sc Ae 3b", "Sc",
                   ["cuatrola", "paso", "paso", "paso"], "Rc Re Sc Cc Rb Ae Ac Cb Co")
    assert hand.pos.to_play == 1
    assert solver.solve_cards(hand.pos, hand.rules, "makes") == {
        parse_card("Ce"): True, parse_card("Sb"): False}
    assert decision(hand) == (420, False)


def test_the_layouts_of_the_first_baza():
    """Seat 1 leads seeing its five cards and the muestra (in seat 4's hand): the other
    14 cards go five, five and four, 14! / (5! 5! 4!) = 252,252.  Seat 2, second, has
    also seen the lead (a lead reveals nothing): 13 cards go four, five and four,
    13! / (4! 5! 4!) = 90,090."""
    f = math.factorial
    assert f(14) // (f(5) * f(5) * f(4)) == 252252 and f(13) // (f(4) * f(5) * f(4)) == 90090
    hand = make_hand("3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab", "Ab")
    assert decision(hand)[0] == 252252
    hand.play(parse_card("Re"))
    assert decision(hand)[0] == 90090         # (its one legal card, 3e, aside)
    facts = facts_of(record_of(_finish(make_hand(
        "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab", "Ab"))))
    assert facts.decisions[0][:3] == (1, 1, 252252)


def _finish(hand: HandState) -> HandState:
    """The hand played to its end, each seat playing its first legal card."""
    while not hand.is_over():
        hand.play(hand.legal_cards()[0])
    return hand


def test_bias_a_contract_won_and_one_lost_double_dummy():
    """Triunfo bastos (muestra Sb, seat 4's).  Seat 1 holds Ab 3b Rb Cb Ao: in a quintola
    it draws seat 4's only triunfo with the first lead and its Ao is then the best
    oros with no triunfo out: five bazas, won double dummy however the others play.  A
    quintola by seat 2 loses: seat 1's Ab takes a baza whatever seat 2 does."""
    deal = "Ab 3b Rb Cb Ao / 3o Ro Co So Ac / 3c Rc Cc Sc Ae / Sb 3e Re Ce Se"
    won = facts_of(record_of(_finish(make_hand(deal, "Sb", auction=[
        "quintola", "paso", "paso", "paso"]))))
    lost = facts_of(record_of(_finish(make_hand(deal, "Sb", auction=[
        "paso", "quintola", "paso", "paso"]))))
    assert (won.contract, won.dd_win) == ("quintola", True)
    assert (lost.contract, lost.dd_win) == ("quintola", False)


def test_the_facts_of_a_record_are_its_decisions_one_by_one(runs):
    """facts_of against a plain walk of the record: every card with two legal cards or
    more, valued by decision."""
    _, lines, _ = runs["forced"]
    for line in lines[:6]:
        rec = record_from_obj(json.loads(line))
        hand = HandState(rec.hands, rec.muestra, rec.rules)
        for call in rec.auction:
            hand.bid(call)
        start = solver.solve(hand.pos, hand.rules, "makes")
        want = []
        for t, trick in enumerate(rec.tricks, 1):
            for j, c in enumerate(trick, 1):
                if len(hand.legal_cards()) > 1:
                    want.append((t, j, *decision(hand)))
                hand.play(c)
            for k in rec.cantes:
                if k.after_trick == t:
                    hand.sing(k.seat, k.suit)
        f = facts_of(rec)
        assert f.decisions == tuple(want)
        assert (f.contract, f.dd_win) == (hand.contract, bool(start))


def test_the_properties_of_made_up_hands_by_hand():
    """Board 1: two paso hands, decisions (trick, place, layouts, alike): (1, 1, 252252,
    no), (4, 1, 6, yes) and (1, 1, 252252, yes), (4, 2, 1, no); won and lost double
    dummy.  Board 2: a solo with (1, 1, 252252, yes), (3, 1, 4, yes), won; a solo without
    a decision, lost."""
    p = Properties()
    p.add_board([HandFacts("paso", True, ((1, 1, 252252, False), (4, 1, 6, True))),
                 HandFacts("paso", False, ((1, 1, 252252, True), (4, 2, 1, False)))])
    p.add_board([HandFacts("solo", True, ((1, 1, 252252, True), (3, 1, 4, True))),
                 HandFacts("solo", False, ())])
    d = p.to_dict()
    assert (d["hands"], d["without_choice"]) == (4, 1)
    by = {t["trick"]: t for t in d["by_trick"]}
    assert sorted(by) == [1, 3, 4]
    b1 = math.log2(252252)
    assert by[1]["decisions"] == 3 and by[1]["layouts_median"] == 252252
    assert by[1]["bits"] == pytest.approx(b1) and by[1]["bits_left"] == pytest.approx(1)
    # dd alike at baza 1: board 1 one of two, board 2 one of one: 2/3 over two boards
    assert by[1]["dd_alike"]["mean"] == pytest.approx(2 / 3)
    # its interval: residuals -1/3 and +1/3, se = sqrt((2/9) / 2) / 1.5 = 2/9, so the
    # effective hands (2/3)(1/3) / (2/9)^2 = 4.5, kept within 2 boards and 3 decisions
    assert by[1]["dd_alike"]["effective"] == 3
    assert by[1]["dd_alike"]["ci95"] == pytest.approx(list(wilson(2, 3)))
    assert by[1]["known"]["mean"] == 0
    assert by[3]["bits"] == pytest.approx(2) and by[3]["bits_left"] == pytest.approx(2 / b1)
    assert by[4]["layouts_median"] == 3.5 and by[4]["bits"] == pytest.approx(math.log2(6) / 2)
    assert by[4]["known"]["mean"] == 0.5 and by[4]["dd_alike"]["mean"] == 0.5
    leaf = {r["contract"]: r for r in d["leaf_correlation"]}
    assert [r["contract"] for r in d["leaf_correlation"]] == ["paso", "solo", "all"]
    assert (leaf["paso"]["hands"], leaf["paso"]["share"]["mean"]) == (2, 0.5)
    assert (leaf["solo"]["hands"], leaf["solo"]["share"]["mean"]) == (1, 1.0)
    assert leaf["all"]["share"]["mean"] == pytest.approx(2 / 3)
    assert leaf["all"]["share"]["ci95"] == pytest.approx(list(wilson(2, 3)))
    bias = {r["contract"]: r for r in d["bias"]}
    assert {c: (r["hands"], r["share"]["mean"]) for c, r in bias.items()} == {
        "paso": (2, 0.5), "solo": (2, 0.5), "all": (4, 0.5)}


def test_a_share_counts_the_hands_that_go_together_as_fewer():
    """Ten boards of two hands, each board's two hands alike (both won in 3 boards):
    the share 6/20 is worth the 10 boards, not 20 hands.  Ten boards of two hands, one
    won and one lost in each: worth more than the 20 hands (se 0 cannot say how many),
    so kept at 20.  Every hand lost: se 0, the boards count."""
    def ratio(pairs):
        r = Ratio()
        for v, h in pairs:
            r.add(v, h)
        return r
    alike = share_interval(ratio([(2, 2)] * 3 + [(0, 2)] * 7))
    assert alike.mean == 0.3 and alike.effective == pytest.approx(10)
    assert alike.ci95 == pytest.approx(wilson(3, 10))
    split = share_interval(ratio([(1, 2)] * 10))
    assert split.effective == 10          # se 0: the boards
    mixed = share_interval(ratio([(1, 2)] * 5 + [(2, 2)] * 2 + [(0, 2)] * 3))
    assert mixed.effective is not None and 10 <= mixed.effective <= 20
    lost = share_interval(ratio([(0, 2)] * 10))
    assert (lost.mean, lost.effective) == (0, 10)
    assert lost.ci95 == pytest.approx(wilson(0, 10))
    assert lost.to_dict()["ci95"] == list(lost.ci95)
    assert share_interval(Ratio()).to_dict() == {"mean": None, "effective": None, "ci95": None}


def test_the_tallies_of_made_up_boards_by_hand():
    """Six boards: +4 and -2 and 0 part at baza 1, +2 at baza 3, 0 part nowhere, +6 bid
    differently.  Baza 1: (4 - 2 + 0) / 6 hands = +1/3 a hand; its share of the run
    (4 - 2) / 12 hands = +1/6; baza 3 the same share, 2 / 12; the calls 6 / 12; and
    1/6 + 1/6 + 1/2 = 10 / 12, the run's a - b."""
    ps = [Parting(0, 4, "card", "paso", 1, 1, 1, "side A", "Ao", "3o", "a"),
          Parting(1, -2, "card", "paso", 1, 2, 2, "side B", "Rc", "Sc", "same"),
          Parting(2, 0, "none", "paso"),
          Parting(3, 2, "card", "solo", 3, 1, 1, "declarer", "Ab", "Sb", "b"),
          Parting(4, 6, "calls"),
          Parting(5, 0, "card", "paso", 1, 1, 1, "side A", "Ce", "Se", "same")]
    rows = {r.value: r for r in tally(ps, "trick")}
    assert sorted(rows) == [1, 3]
    one = rows[1]
    assert one.boards == 3 and one.mean.mean == pytest.approx(1 / 3)
    assert one.mean.se == pytest.approx(statistics.stdev([4, -2, 0]) / (2 * math.sqrt(3)))
    assert one.share.mean == pytest.approx(1 / 6)
    assert one.share.se == pytest.approx(
        statistics.stdev([4, -2, 0, 0, 0, 0]) / (2 * math.sqrt(6)))
    assert (one.a_ahead, one.level, one.a_behind) == (1, 1, 1)
    assert one.dd.to_dict() == {"a": 1, "same": 2, "b": 0}
    assert one.to_dict()["trick"] == 1 and one.to_dict()["dd"] == one.dd.to_dict()
    assert rows[3].mean.mean == 1 and rows[3].mean.se is None
    assert rows[3].share.mean == pytest.approx(1 / 6) and rows[3].dd.b == 1
    roles = [r.value for r in tally(ps, "role")]
    assert roles == ["declarer", "side A", "side B"]
    assert [r.value for r in tally(ps, "contract")] == ["paso", "solo"]


# --- another player asked ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["forced", "pimc"])
def test_line_up_as_own_player_asked_plays_its_cards_again(runs, name):
    """The view and the seed of each decision are the ones the run gave the player: asked
    again, line-up a's player plays every one of its cards."""
    path, lines, _ = runs[name]
    c = compare(str(path), ask=RUNS[name][0])
    assert c.opinions and all(o.a == o.b and o.dd is None for o in c.opinions)
    rows = c.to_dict()["asked"]["by_trick"]
    assert all(r["differ"]["mean"] == 0 for r in rows)


def test_the_decisions_asked_are_line_up_as_with_a_choice(runs):
    path, lines, _ = runs["forced"]
    c = compare(str(path), ask="random")
    want = []                    # (board, trick, place, seat): a's seats, two cards or more
    for line in lines:
        rec = json.loads(line)
        lab = rec["lab"]
        a_side = "A" if lab["lineup"]["A"] == lab["config"]["a"] else "B"
        hand = HandState([[parse_card(c) for c in h.split()] for h in rec["hands"]],
                    parse_card(rec["muestra"]), get_rules(rec["rules"]))
        for call in rec["auction"]:
            hand.bid(call)
        for t, trick in enumerate(rec["tricks"], 1):
            for j, card in enumerate(trick, 1):
                seat = hand.pos.to_play
                if ("A" if seat % 2 else "B") == a_side and len(hand.legal_cards()) > 1:
                    want.append((lab["deal"], t, j, seat))
                hand.play(parse_card(card))
            for k in rec.get("cantes", ()):
                if k["after_trick"] == t:
                    hand.sing(k["seat"], "oceb".index(k["suit"]))
    assert [(o.board, o.trick, o.place, o.seat) for o in c.opinions] == want
    d = c.to_dict()["asked"]
    assert d["player"] == "random" and d["decisions"] == len(want)
    for r in d["by_trick"]:
        mine = [o for o in c.opinions if o.trick == r["trick"]]
        assert r["decisions"] == len(mine)
        assert r["differ"]["mean"] == pytest.approx(
            sum(o.a != o.b for o in mine) / len(mine))
        assert r["dd"] == {w: sum(o.dd == w for o in mine) for w in ("a", "same", "b")}
    # random plays another card somewhere, and the dd judge said who kept more there
    assert any(o.a != o.b for o in c.opinions)
    assert all((o.dd is None) == (o.a == o.b) for o in c.opinions)


# --- reading a run: what is refused, what is left out -----------------------------------------

def test_a_last_board_with_one_play_is_left_out(runs, tmp_path):
    path, lines, _ = runs["forced"]
    cut = tmp_path / "growing.jsonl"
    cut.write_text("".join(x + "\n" for x in lines[:-1]) + lines[-1][:40], encoding="utf-8")
    c = compare(str(cut))
    d = c.to_dict()
    assert (c.boards, d["unfinished"]) == (len(lines) // 2 - 1, 1)
    assert d["runs"] == [{"run": str(cut), "seed": 21, "boards": len(lines) // 2 - 1,
                          "hands": len(lines) - 2, "unfinished": 1}]
    assert d["hands"] == len(lines) - 2


def test_runs_of_the_same_lineups_are_pooled(runs):
    one, two = runs["forced"][0], runs["forced-again"][0]
    both = compare([str(one), str(two)])
    alone = [compare(str(one)), compare(str(two))]
    assert both.partings == alone[0].partings + alone[1].partings
    d = both.to_dict()
    assert [r["seed"] for r in d["runs"]] == [21, 22]
    assert d["boards"] == 12 + 5 and d["hands"] == 2 * 17
    diffs = [p.diff for p in both.partings]
    assert d["difference"]["mean"] == pytest.approx(sum(diffs) / (2 * len(diffs)))
    assert d["properties"]["hands"] == 34


@pytest.mark.parametrize("other, words", [
    ("forced", "is the run"), ("pimc", "a run of other line-ups or rules"),
    ("narro", "a run of other line-ups or rules")])
def test_runs_that_cannot_be_pooled_are_refused(runs, other, words):
    with pytest.raises(LabError, match=words):
        compare([str(runs["forced"][0]), str(runs[other][0])])


def test_a_run_of_one_lineup_has_properties_and_nothing_to_pair(runs):
    path, lines, _ = runs["same"]
    d = compare(str(path)).to_dict()
    assert d["paired"] is False and "partings" not in d and "difference" not in d
    assert d["properties"]["hands"] == len(lines) == 3


@pytest.mark.parametrize("content, words", [
    ("", "holds no finished board"),
    ("{}\n", "line 1: the fields 'muestra' and 'hands' are required"),
    ("not json\n", "line 1: not a JSON record"),
])
def test_a_file_that_is_no_run_is_refused(tmp_path, content, words):
    f = tmp_path / "bad.jsonl"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(CuatrolaError, match=words):
        compare(str(f))


def test_a_run_of_matches_is_refused(tmp_path):
    config = LabConfig.make("heuristic", "random", seed=2, mode="matches", count=1,
                            odds_samples=0)
    path = tmp_path / "matches.jsonl"
    selfplay.run(config, str(path), workers=1)
    with pytest.raises(LabError, match="a run of matches"):
        compare(str(path))


def test_a_board_with_only_its_first_play_is_no_finished_board(runs, tmp_path):
    _, lines, _ = runs["forced"]
    f = tmp_path / "one.jsonl"
    f.write_text(lines[0] + "\n", encoding="utf-8")
    with pytest.raises(LabError, match="holds no finished board"):
        compare(str(f))


# --- the command ------------------------------------------------------------------------------

def test_the_command_prints_the_tallies_and_the_properties(runs):
    path, lines, _ = runs["forced"]
    r = runner.invoke(app, ["compare", str(path)])
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert out.startswith(f"{path}: 12 boards (24 hands), rules online, seed 21\n")
    report = compare(str(path)).to_dict()
    diff = report["difference"]
    assert (f"a - b, match points per hand: {diff['mean']:+.3f} [{diff['ci95'][0]:+.3f}, "
            f"{diff['ci95'][1]:+.3f}]") in out
    for heading in ("by baza of the first difference:", "by contract of the first difference:",
                    "by role of the first difference:", "by seat of the first difference:",
                    "leaf correlation:", "bias:", "disambiguation:"):
        assert heading in out
    # one row per baza of the first difference, its boards as the JSON has them
    for row in report["partings"]["by_trick"]:
        assert any(line.split()[:2] == [str(row["trick"]), str(row["boards"])]
                   for line in out.splitlines()), row


def test_the_command_in_json_is_the_report(runs):
    path, _, _ = runs["forced"]
    r = runner.invoke(app, ["compare", str(path), "--json"])
    assert r.exit_code == 0, r.stderr
    got = json.loads(r.stdout)
    assert got.pop("schema") == 1
    assert got == json.loads(json.dumps(compare(str(path)).to_dict()))


def test_the_command_on_one_lineup_says_there_is_nothing_to_pair(runs):
    path, _, _ = runs["same"]
    r = runner.invoke(app, ["compare", str(path)])
    assert r.exit_code == 0, r.stderr
    assert "nothing to pair" in r.stdout and "leaf correlation" in r.stdout


def test_the_command_asks_another_player(runs):
    path, _, _ = runs["forced"]
    r = runner.invoke(app, ["compare", str(path), "--ask", "random"])
    assert r.exit_code == 0, r.stderr
    decisions = compare(str(path), ask="random").to_dict()["asked"]["decisions"]
    assert f"random asked at each of line-up a's {decisions:,} decisions" in r.stdout


@pytest.mark.parametrize("args, words", [
    (["compare", "/nonexistent/run.jsonl"], "'/nonexistent/run.jsonl' not found"),
    (["compare", "/nonexistent/run.jsonl", "--ask", "pimc:bogus=1"], "bad option 'bogus=1'"),
    (["compare"], "missing argument"),
    (["compare", "run.jsonl", "--bins", "3"], "no such option"),
])
def test_the_command_refuses_bad_input_in_one_line(args, words):
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0].lower()
