"""The post-game review (cuatrola_solver.analysis.review): per-card losses (double dummy
and from knowledge), labels, renuncios, bid review, summaries, annotations, the same
report whatever the workers.  The example records in examples/analysis were built with
the engine, each with one known fault (see make_examples.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuatrola_solver.advice import budget, cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.analysis import review
from cuatrola_solver.analysis.review import CardReview, DDValue, analyze, annotate, label_of
from cuatrola_solver.dd import solver
from cuatrola_solver.game import play
from cuatrola_solver.game.cards import parse_card
from cuatrola_solver.game.play import side_of
from cuatrola_solver.game.seats import Side
from cuatrola_solver.game.view import View
from cuatrola_solver.hidden.deals import count_deals
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.record import read_record, read_text, write_text
from cuatrola_solver.notation.replay import replay, replay_cards

from helpers import as_view, hand_knowledge

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "analysis"
RENUNCIOS = {"online-asistir": "asistir", "online-montar": "montar",
             "app-fallar": "fallar", "narro-montar-el-fallo": "montar_el_fallo"}


def record(name: str):
    return read_record((EXAMPLES / f"{name}.txt").read_text(encoding="utf-8"))


def card(a, trick: int, position: int):
    return next(c for c in a.cards if (c.trick, c.position) == (trick, position))


@pytest.mark.parametrize("loss,label,symbol", [
    (0.0, None, None), (0.0999, None, None), (0.10, "inaccuracy", "?!"),
    (0.1999, "inaccuracy", "?!"), (0.2, "mistake", "?"), (0.3, "blunder", "??"),
    (1.0, "blunder", "??"), (None, None, None)])
def test_labels(loss, label, symbol):
    assert label_of(loss) == (label, symbol)


def test_blunder_known_by_construction():
    # trick 4, seat 4 plays Ae: Ce keeps the hand (double dummy +1), Ae loses it (-1);
    # seat 4's knowledge leaves 12 consistent deals, valued exactly: 7/12 lost
    a = analyze(record("online-blunder"), Budget(samples=200, seed=3), Models.NONE, bids=False)
    c = card(a, 4, 3)
    assert (c.seat, c.card, c.kind) == (4, parse_card("Ae"), "choice")
    assert c.exact and c.deals == 12
    assert c.loss == pytest.approx(7 / 12)
    assert (c.label, c.symbol) == ("blunder", "??")
    assert c.best == (parse_card("Ce"),)
    assert c.dd_before.makes and not c.dd_after.makes
    assert (c.dd_loss, c.dd_points_lost) == (1, 2)
    assert not c.dd_only
    s = a.summary[3]
    assert (s.blunders, s.dd_errors, s.points_lost, s.choices) == (1, 1, 2, 1)
    assert s.accuracy == 0.0
    # the same value as cardplay.hint on the hand replayed up to that card
    rec = record("online-blunder")
    rec.tricks = rec.tricks[:3] + [rec.tricks[3][:2]]
    h = cardplay.hint(as_view(replay(rec)), Budget(exact=True), Models.NONE)
    p = {x.card: x.p_win for x in h.cards}
    assert p[parse_card("Ce")] - p[parse_card("Ae")] == pytest.approx(7 / 12)


@pytest.mark.parametrize("name,kind", sorted(RENUNCIOS.items()))
def test_renuncios(name, kind):
    rec = record(name)
    a = analyze(rec, Budget(samples=100, seed=1), Models.NONE, bids=False)
    hand = replay(rec)
    assert a.hand.result() == hand.result()
    first = hand.renuncios[0]
    assert first.obligation == kind
    kinds = [c.kind for c in a.cards]
    i = kinds.index("renuncio")
    c = a.cards[i]
    assert (c.trick, c.seat, c.card, c.obligation) == (first.trick, first.seat, first.card,
                                                       kind)
    assert (c.label, c.symbol, c.p_win) == ("renuncio", "??", 0.0)
    assert c.card not in c.legal and set(c.best) <= set(c.legal)
    penalty = 2 if rec.rules.renuncio_penalty == "double" else 1   # paso: base value 1
    assert c.dd_after == DDValue(False, -penalty, None, None)
    assert kinds[i + 1:] and set(kinds[i + 1:]) == {"after_renuncio"}
    assert all(x.dd_before is None and x.p_win is None for x in a.cards[i + 1:])
    assert a.decided_by == first
    assert a.summary[c.seat - 1].renuncios == 1


def test_invariants_and_sides():
    for name in ("online-blunder", "italiano-failed-solo", "narro-montar-el-fallo"):
        rec = record(name)
        a = analyze(rec, Budget(samples=100, seed=5), Models.NONE, bids=False)
        hand = a.hand
        for c in a.cards:
            if c.kind == "choice":
                assert c.dd_before.makes >= c.dd_after.makes
                assert c.dd_before.game_points >= c.dd_after.game_points
                assert c.dd_before.tricks >= c.dd_after.tricks
                assert 0 <= c.p_win <= c.best_p_win <= 1
                assert c.card in c.legal and len(c.legal) > 1
            if c.kind == "forced":
                assert c.legal == (c.card,)
        # the first card, double dummy, is the deal's value for the contract played
        first = a.cards[0]
        pos = play.deal_position(hand.deal, hand.trump, hand.contract, hand.declarer)
        gp = solver.solve(pos, hand.rules, "game_points")
        if side_of(first.seat) != pos.declaring_side:
            gp = -gp
        if first.kind == "choice":
            assert first.dd_before.game_points == gp


def test_seat_view_for_side_b():
    # seat 2 (side B) leads in this solo by seat 3 (seat 1 sits out): values for side B
    a = analyze(read_record((EXAMPLES.parent / "records" / "narro-solo.txt")
                            .read_text(encoding="utf-8")), Budget(samples=100, seed=2), Models.NONE, bids=False)
    c = a.cards[0]
    assert c.seat == 2
    hand = a.hand
    pos = play.deal_position(hand.deal, hand.trump, hand.contract, hand.declarer)
    assert c.dd_before.makes == (not solver.solve(pos, hand.rules, "makes"))
    assert c.dd_before.tricks == 5 - solver.solve(pos, hand.rules, "tricks")


def test_bid_review_missed_cuatrola():
    a = analyze(record("app-missed-cuatrola"), Budget(samples=300, seed=1), Models.NONE)
    b = a.bids[1]
    assert (b.seat, b.call, b.dd_best, b.missed) == (2, "paso", "cuatrola", "cuatrola")
    assert b.dd_makes("cuatrola") and b.dd_game_points("cuatrola") == 4
    assert b.dd_game_points("paso") == 1 and b.dd_points_lost == 3
    assert [x.seat for x in a.bids] == [1, 2, 3, 4]
    # dd values are the dd_table's rows, seen from the seat's side
    rows = {(r.contract, r.declarer): r for r in a.dd_table.rows}
    assert b.dd_game_points("cuatrola") == rows[("cuatrola", (2,))].game_points
    assert b.dd_game_points("paso") == -rows[("paso", ())].game_points
    for r in a.bids:
        assert r.ev_loss >= 0 and r.option(r.advice).option.allowed


def test_bid_review_failed_solo():
    a = analyze(record("italiano-failed-solo"), Budget(samples=300, seed=1), Models.NONE)
    b = a.bids[3]
    assert (b.seat, b.call) == (4, "solo")
    assert b.dd_makes("solo") is False and b.dd_game_points("solo") == -2
    assert b.option("solo").p_win > 0.5
    assert a.hand.result().winner is Side.A


def test_seed_reproducible_and_reported():
    rec = record("online-montar")
    one = analyze(rec, Budget(samples=100, seed=11), Models.NONE, bids=False).to_dict()
    two = analyze(rec, Budget(samples=100, seed=11), Models.NONE, bids=False).to_dict()
    assert one == two and one["seed"] == 11
    drawn = analyze(rec, Budget(samples=50), Models.NONE, bids=False)
    assert isinstance(drawn.seed, int)


def test_annotate_round_trip():
    rec = record("online-blunder")
    a = analyze(rec, Budget(samples=100, seed=3), Models.NONE, bids=False)
    out = annotate(a)
    assert out.annotations[(4, 3)]["symbol"] == "??"
    assert "Ce" in out.annotations[(4, 3)]["comment"]
    assert "seed 3" in out.comment and rec.comment in out.comment
    text = write_text(out)
    back = read_text(text)
    assert back.annotations == out.annotations
    assert replay(back).result() == replay(rec).result()
    again = analyze(back, Budget(samples=100, seed=3), Models.NONE, bids=False)
    assert [c.to_dict() for c in again.cards] == [c.to_dict() for c in a.cards]
    assert write_text(annotate(again)) == text       # idempotent


def test_dd_only_and_unpunished_flags():
    won = DDValue(makes=True, game_points=1, tricks=3, margin=10)
    lost = DDValue(makes=False, game_points=-1, tricks=2, margin=-4)
    sound = CardReview(2, 1, 1, 0, "choice", (0, 1), won, lost, 0.55, 0.60, (1,))
    assert sound.dd_loss == 1 and sound.dd_only and sound.label is None
    assert "sound on what was known" in sound.comment()
    bad = CardReview(2, 1, 1, 0, "choice", (0, 1), won, won, 0.20, 0.60, (1,))
    assert bad.label == "blunder" and bad.unpunished and not bad.dd_only


def test_incomplete_record():
    rec = record("online-blunder")
    rec.tricks = rec.tricks[:2] + [rec.tricks[2][:1]]
    a = analyze(rec, Budget(samples=50, seed=1), Models.NONE, bids=False)
    assert len(a.cards) == 9 and a.hand.result() is None
    assert a.to_dict()["result"] is None


def test_bad_samples():
    from cuatrola_solver.errors import CuatrolaError
    with pytest.raises(CuatrolaError):
        analyze(record("online-blunder"), Budget(samples=0), Models.NONE)


@pytest.mark.slow
def test_exact_cards_match_sampled_late():
    # from trick 4 on, both modes value the cards over every consistent deal
    rec = record("online-blunder")
    ex = analyze(rec, Budget(exact=True), Models.NONE, bids=False)
    sm = analyze(rec, Budget(samples=500, seed=1), Models.NONE, bids=False)
    for a, b in zip(ex.cards, sm.cards):
        if a.trick >= 4 and a.kind == "choice":
            assert a.p_win == b.p_win and a.best == b.best


def test_each_card_is_valued_as_hint_values_it_from_the_seats_view():
    """analyze values a card as hint does on the view of the seat that played it: the
    deals weighed by the calls and by the cards the others played before it (the
    card-play model), its win chance as played (a regression: the card-play model was
    left out, so a card's P(win) read the calls only)."""
    rec = read_record((EXAMPLES / "online-blunder.txt").read_text(encoding="utf-8"))
    models = Models.of(rec.rules)
    assert models.cards is not None
    result = analyze(rec, Budget(seed=1), models, bids=False)
    checked = 0
    for i, (t, j, hand, c) in enumerate(replay_cards(rec)):
        review = result.cards[i]
        if review.p_win is None or t < 2:
            continue
        h = cardplay.hint(View.on_turn(hand), Budget(seed=1 + i), models)
        value = {x.card: x for x in h.cards}[c]
        assert (review.p_win, review.p_played) == (value.p_win, value.p_played), (t, j)
        checked += 1
    assert checked >= 5


# --- the report whatever the workers --------------------------------------------------

@pytest.mark.parametrize("name", ["online-blunder.txt", "narro-montar-el-fallo.txt"])
def test_same_report_whatever_the_workers(name, monkeypatch):
    rec = read_record((EXAMPLES / name).read_text())
    one = review.analyze(rec, Budget(samples=40, seed=3, workers=1), Models.NONE,
                         bids=False).to_dict()
    calls = []
    real = review._review_cards

    def spy(tasks, how, workers):
        calls.append(workers)
        yield from real(tasks, how, workers)

    monkeypatch.setattr(review, "_review_cards", spy)
    seen = []
    two = review.analyze(rec, Budget(samples=40, seed=3, workers=2), Models.NONE, bids=False,
                         progress=lambda done, total: seen.append((done, total))).to_dict()
    assert calls == [2]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert seen[-1][0] == seen[-1][1] == len(two["cards"])          # progress reached the end
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_analyze_huge_samples_does_not_go_exact(monkeypatch):
    seen = []
    real = review.hint

    def spy(view, budget, models, **kw):
        seen.append(budget.exact)
        return real(view, budget, models, **kw)

    monkeypatch.setattr(review, "hint", spy)
    rec = read_record((EXAMPLES / "online-blunder.txt").read_text())
    start = replay(type(rec)(rec.rules, rec.muestra, rec.hands, rec.auction, []))
    assert count_deals(hand_knowledge(start, 1)) > budget.SETTLED
    huge = Budget(samples=10 ** 12, seed=1, workers=1)
    review._hint(start, review._Method(huge, Models.NONE), huge)
    assert seen == [False]
