"""Card hints (cuatrola_solver.advice.cardplay): agreement with a per-deal brute force,
cantes, workers and seeds, an error in a worker thread, huge sample sizes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cuatrola_solver.advice import budget, cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.dd import objectives, reference, solver
from cuatrola_solver.errors import CuatrolaError
from cuatrola_solver.game.cards import parse_card
from cuatrola_solver.game.hand import HandState
from cuatrola_solver.game.play import play_card, side_of, sing
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.hidden.chunks import sample_deals_seeded
from cuatrola_solver.hidden.deals import enumerate_deals
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.record import read_record
from cuatrola_solver.notation.replay import read_view, replay

from helpers import as_view, deal, hand_knowledge

ONLINE = get_rules("online")


# --- hints --------------------------------------------------------------------------------

def mid_hand(seed: int, rules, contract_calls, cards_played: int) -> HandState:
    rng = random.Random(seed)
    order = list(range(20))
    rng.shuffle(order)
    hands = [sorted(order[5 * i:5 * i + 5]) for i in range(4)]
    h = HandState(hands, order[19], rules)
    for c in contract_calls:
        h.bid(c)
    for _ in range(cards_played):
        h.play(rng.choice(h.legal_cards()))
    return h


def brute_hint(h: HandState):
    """Per card: (mean tricks, mean margin, P(win)) of the seat on turn's view, by the
    reference solver over every consistent deal."""
    seat = h.to_play
    k = hand_knowledge(h, seat)
    deals = enumerate_deals(k)
    rules = h.rules
    mine, d = side_of(seat), h.pos.declaring_side
    measured = mine if h.contract == "paso" else d
    sums = {}
    for row in deals:
        pos = h.pos.with_changes(hands=tuple(int(x) for x in row))
        for c in reference.legal_cards(pos, rules):
            after = play_card(pos, c, rules.monte)
            t = reference.solve(after, rules, "tricks")
            m = reference.solve(after, rules, "margin")
            w = reference.solve(after, rules, "makes")
            s = sums.setdefault(c, [0, 0, 0])
            s[0] += t if measured == d else 5 - t
            s[1] += 0 if m is None else (m if measured == d else -m)
            s[2] += w if mine == d else 1 - w
    return len(deals), {c: [v / len(deals) for v in s] for c, s in sums.items()}


@pytest.mark.parametrize("seed, rules, calls, played", [
    (1, "online", ["paso"] * 4, 11),
    (2, "online", ["solo", "paso", "paso", "paso"], 8),
    (3, "narro", ["paso", "cuatrola", "paso", "paso"], 7),
    (4, "italiano", ["paso"] * 4, 13),
])
def test_exact_hint_matches_brute_force(seed, rules, calls, played):
    h = mid_hand(seed, get_rules(rules), calls, played)
    n, expected = brute_hint(h)
    got = cardplay.hint(as_view(h), Budget(exact=True), Models.NONE)
    assert got.cante is None, "pick a position without a pending cante of the seat on turn"
    assert got.deals == n and got.seat == h.to_play and got.trick == h.trick_number
    assert {c.card for c in got.cards} == set(expected)
    for c in got.cards:
        t, m, w = expected[c.card]
        assert c.tricks == pytest.approx(t) and c.p_win == pytest.approx(w)
        assert (c.margin is None) == (not objectives.points_based(h.contract, h.rules))
        if c.margin is not None:
            assert c.margin == pytest.approx(m)
    keys = [(-c.p_win) for c in got.cards]
    assert keys == sorted(keys)


def test_hint_independent_of_workers():
    h = mid_hand(6, ONLINE, ["paso"] * 4, 5)
    one = cardplay.hint(as_view(h), Budget(samples=120, seed=4, workers=1), Models.NONE)
    assert cardplay.hint(as_view(h), Budget(samples=120, seed=4, workers=3), Models.NONE) == one


def test_hint_with_own_cante_pending():
    h = HandState(deal("Ao Ro Co Ac Ae / 3c Rc 3e Re Ab / 3o Sc Ce Se 3b / So Cc Rb Cb Sb"),
             parse_card("So"), ONLINE)
    h.pass_all()
    for c in "Ac 3c Sc Cc".split():
        h.play(parse_card(c))
    got = cardplay.hint(as_view(h), Budget(samples=200, seed=3), Models.NONE)
    assert got.seat == 1 and got.trick == 2 and got.cante == 0 and "40" in got.note
    # values assume the 40 is sung: the margin includes it
    k = hand_knowledge(h, 1)
    deals = sample_deals_seeded(k, 200, 3, chunk_size=budget.ROUND)
    pos = sing(h.pos, 0, 0)
    c = got.cards[0].card
    total = sum(solver.solve(play_card(pos.with_changes(hands=tuple(int(x) for x in row)), c,
                                       10), ONLINE, "margin") for row in deals)
    assert got.cards[0].margin == pytest.approx(total / 200)


def _hint_one_layout_at_a_time(view):
    """The hint's sums the way it made them before its batches: every layout on its own,
    the seat's cante sung first where the rules let it (``cante_refusal``), then
    ``solve_cards`` of each objective."""
    from cuatrola_solver.game.play import cante_refusal
    k = knowledge_of(view)
    base, seat = view.position, view.seat
    mine, d = side_of(seat), base.declaring_side
    measured = mine if base.contract == "paso" else d
    options = view.cante_options()
    sums = {}
    deals = enumerate_deals(k)
    for row in deals:
        pos = base.with_changes(hands=tuple(int(x) for x in row))
        if options and cante_refusal(pos, view.rules, seat, options[0]) is None:
            pos = sing(pos, mine, options[0])
        tr = solver.solve_cards(pos, view.rules, "tricks")
        mk = solver.solve_cards(pos, view.rules, "makes")
        mg = (solver.solve_cards(pos, view.rules, "margin")
              if objectives.points_based(base.contract, view.rules) else None)
        for c, t in tr.items():
            s = sums.setdefault(c, [0.0, 0.0, 0.0])
            s[0] += t if measured == d else 5 - t
            if mg is not None:
                s[1] += mg[c] if measured == d else -mg[c]
            s[2] += mk[c] if mine == d else 1 - mk[c]
    return len(deals), sums


@pytest.mark.parametrize("rules, seed", [
    ("online", 0), ("narro", 17), ("italiano", 24),
    # forty_first: the 20 is refused in the layouts where the partner holds the 40
    # (40 of 700, 16 of 40, 20 of 420 layouts)
    ("italiano", 150), ("italiano", 227), ("italiano", 245)])
def test_exact_hint_with_a_cante_equals_one_layout_at_a_time(rules, seed):
    """With the seat's own cante pending, the batched hint equals the layout-by-layout
    sums, float for float."""
    h = mid_hand(seed, get_rules(rules), ["paso"] * 4, 8)
    view = as_view(h)
    assert view.cante_options() and view.to_play == view.seat
    n, sums = _hint_one_layout_at_a_time(view)
    got = cardplay.hint(view, Budget(exact=True), Models.NONE)
    assert got.deals == n and got.cante == view.cante_options()[0]
    assert {c.card for c in got.cards} == set(sums)
    for c in got.cards:
        t, m, w = sums[c.card]
        assert (c.tricks, c.p_win) == (t / n, w / n)
        assert c.margin is None or c.margin == m / n


def test_hint_refuses_a_finished_hand():
    h = mid_hand(5, ONLINE, ["paso"] * 4, 20)
    with pytest.raises(CuatrolaError, match="over"):
        cardplay.hint(as_view(h), Budget(samples=10), Models.NONE)


def test_hint_seeded_reproducible():
    h = mid_hand(6, ONLINE, ["paso"] * 4, 5)
    a = cardplay.hint(as_view(h), Budget(samples=100, seed=9), Models.NONE).to_dict()
    assert a == cardplay.hint(as_view(h), Budget(samples=100, seed=9), Models.NONE).to_dict() and a["seed"] == 9


def test_typed_figures_are_the_json_figures():
    """What the human answer reads from the Hint (the side, the declarer, played odds,
    the effective deals) is what its JSON says."""
    view = read_view("Sc 3c Se 3e Sb", "Rc", 2, "paso solo paso paso", "1. Rb", ONLINE)
    h = cardplay.hint(view, Budget(samples=200, seed=3), Models.of(ONLINE))
    d = h.to_dict()
    assert (h.side_name, solver.shown_declarer(h.declarer)) == (d["side"], d["declarer"]) \
        == ("B", 2)
    assert h.played == (d["model"] == "played")
    assert h.effective_deals_shown is not None
    assert h.effective_deals_shown == d["effective_deals"]
    assert [c.p_played for c in h.cards] == [c.get("p_played") for c in d["cards"]]


ROOT = Path(__file__).resolve().parent.parent


EXAMPLES = ROOT / "examples"


def test_worker_thread_error_in_hint_is_raised(monkeypatch):
    rec = read_record((EXAMPLES / "advice" / "hint-trick3.txt").read_text())
    hand = replay(rec)

    if solver._compiled is None:
        pytest.skip("the threads are the compiled backend's")

    class Broken:                       # the search context a hint's worker thread borrows
        def figures_from(self, *args):
            raise OverflowError("boom in a hint worker")

    monkeypatch.setattr(solver, "_borrow", lambda *sizes: Broken())
    monkeypatch.setattr(solver, "_give_back", lambda s, slot=None: None)
    with pytest.raises(OverflowError, match="boom in a hint worker"):
        cardplay.hint(as_view(hand), Budget(samples=50, seed=1, workers=2), Models.NONE)


def test_hint_with_huge_samples_stops_near_settled():
    rec = read_record((EXAMPLES / "advice" / "hint-trick3.txt").read_text())
    h = cardplay.hint(as_view(replay(rec)), Budget(samples=10 ** 12, seed=3),
                      Models.NONE)
    assert h.deals <= budget.SETTLED
    # a small sample is unchanged by the stopping rule (it stops after MIN_ROUNDS only)
    small = cardplay.hint(as_view(replay(rec)), Budget(samples=1500, seed=3),
                          Models.NONE)
    assert small.deals == 1500


# --- what a hint works out once -------------------------------------------------------

def _counting_knowledge(monkeypatch) -> list[int]:
    """Count the calls of knowledge_of made by the hint's module."""
    calls = []

    def counted(view):
        calls.append(view.seat)
        return knowledge_of(view)

    monkeypatch.setattr(cardplay, "knowledge_of", counted)
    return calls


@pytest.mark.parametrize("exact", [False, True])
def test_a_hint_works_out_what_its_seat_knows_once(monkeypatch, exact):
    rec = read_record((EXAMPLES / "advice" / "hint-trick3.txt").read_text())
    view = as_view(replay(rec))
    plain = cardplay.hint(view, Budget(exact=exact, samples=50, seed=2), Models.NONE)
    calls = _counting_knowledge(monkeypatch)
    again = cardplay.hint(view, Budget(exact=exact, samples=50, seed=2), Models.NONE)
    assert calls == [view.seat] and again == plain


def test_a_cante_hint_works_out_what_its_seat_knows_once(monkeypatch):
    """Seat 3 may sing the 20 in oros while its partner, seat 1, is to lead."""
    view = read_view("So Co Ro Cc 3e", "Rc", 3, None, "1. Sc 3c Cc Ac 2. Re Ae Ce 3e",
                     ONLINE)
    plain = cardplay.hint(view, Budget(samples=30, seed=1), Models.NONE)
    calls = _counting_knowledge(monkeypatch)
    again = cardplay.hint(view, Budget(samples=30, seed=1), Models.NONE)
    assert calls == [3] and again == plain and again.cante == 0
