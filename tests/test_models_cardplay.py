"""The card-play model (cuatrola_solver.models.cardplay): the weight it gives each
hidden deal, counted by hand on small cases; the public contexts of the play are the ones
the fit saw; its fit, file and command; what hint and the players read with it."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.advice import cardplay
from cuatrola_solver.advice.budget import Budget
from cuatrola_solver.errors import ModelError
from cuatrola_solver.game.cards import mask_of, parse_cards
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.hidden.deals import sample_deals
from cuatrola_solver.hidden.inference import knowledge_of
from cuatrola_solver.lab import fit_cards
from cuatrola_solver.models.cardplay import (CardModel, FEATURE_NAMES, card_weights,
                                             context_at, contexts_of, features, load_model)
from cuatrola_solver.models.preset import Models
from cuatrola_solver.notation.replay import read_view, record_of, replay, replay_cards, view_of

from helpers import random_game

ONLINE = get_rules("online")
runner = CliRunner()


def model(floor: float = 0.0, **weights: float) -> CardModel:
    w = [weights.get(name, 0.0) for name in FEATURE_NAMES]
    return CardModel(json.dumps("online"), tuple(w), floor, {})


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def row(*hands: str) -> list[int]:
    return [m(h) for h in hands]


# seat 3 sees seat 1 lead the as de copas and seat 2 follow with the sota (oros trumps)
VIEW = read_view("Rc Ab Cb Re 3o", "So", 3, "paso paso paso paso", "1. Ac Sc", "online")


def test_uniform_model_weighs_a_deal_by_the_legal_cards_of_each_play():
    """All weights 0, no floor: each card played is one of the seat's legal cards, chosen
    uniformly.  Seat 1 led (5 legal cards: 1/5); seat 2 had to follow copas below the
    as: 1/(its copas)."""
    dealt = np.array([
        row("Ac Ao Rb Ce Se", "Sc Cc Ro Co Ae", "Rc Ab Cb Re 3o", "So 3c 3b Sb 3e"),  # 2 copas
        row("Ac Ao Rb Ce Se", "Sc 3c Cc Ro Co", "Rc Ab Cb Re 3o", "So Ae 3b Sb 3e"),  # 3 copas
        row("Ac Ao Rb Ce Se", "Sc Ro Co Ae 3e", "Rc Ab Cb Re 3o", "So 3c Cc 3b Sb"),  # 1 copa
    ], dtype=np.uint32)
    w = card_weights(dealt, VIEW, model())
    assert w == pytest.approx([1 / 5 * 1 / 2, 1 / 5 * 1 / 3, 1 / 5 * 1])


def test_a_weighted_feature_and_the_floor_counted_by_hand():
    """'lead:trump' weighs ln 3: a trump lead is three times as likely as a plain one.
    Seat 1 led a plain card: with t trumps of 5, P = 1 / (3t + 5 - t); with floor f,
    (1 - f) P + f / 5.  Seat 2's copas as above (1 or 2 of them)."""
    dealt = np.array([
        row("Ac Ao Co Ce Se", "Sc Cc Ro Rb Ae", "Rc Ab Cb Re 3o", "So 3c 3b Sb 3e"),  # t=2, 2 copas
        row("Ac Sb Rb Ce Se", "Sc Ro Co Ao Ae", "Rc Ab Cb Re 3o", "So 3c Cc 3b 3e"),  # t=0, 1 copa
    ], dtype=np.uint32)
    w = card_weights(dealt, VIEW, model(**{"lead:trump": math.log(3)}))
    assert w == pytest.approx([1 / 9 * 1 / 2, 1 / 5 * 1])
    f = 0.1
    w = card_weights(dealt, VIEW, model(f, **{"lead:trump": math.log(3)}))
    # seat 2's copas give each legal card 1/k whatever the floor
    assert w == pytest.approx([((1 - f) / 9 + f / 5) / 2, 1 / 5])


def test_the_seats_own_cards_and_the_renuncios_weigh_nothing():
    # seat 2 looks at its own card: only seat 1's lead counts (1/5)
    view = read_view("Sc Cc Ro Co Ae", "So", 2, "paso paso paso paso", "1. Ac Sc", "online")
    dealt = np.array([row("Ac Ao Rb Ce Se", "Sc Cc Ro Co Ae", "Rc Ab Cb Re 3o",
                          "So 3c 3b Sb 3e")], dtype=np.uint32)
    assert card_weights(dealt, view, model()) == pytest.approx([1 / 5])
    # no card played yet: every deal weighs 1
    view = read_view("Sc Cc Ro Co Ae", "So", 2, "paso paso paso paso", None, "online")
    assert card_weights(dealt, view, model(**{"lead:trump": 2.0})) == pytest.approx([1.0])


def test_a_card_the_deal_does_not_give_the_seat_rules_the_deal_out():
    # seat 2 played the sota de copas: a deal that does not give it to seat 2 weighs 0,
    # floor or not
    dealt = np.array([row("Ac Ao Rb Ce Se", "Sc Ro Co Ae 3e", "Rc Ab Cb Re 3o",
                          "So 3c Cc 3b Sb")], dtype=np.uint32)
    dealt[0, 1] = m("Ro Co Ae 3e Sb")        # the sota de copas not in seat 2's hand
    assert card_weights(dealt, VIEW, model(0.05)) == pytest.approx([0.0])


def test_the_public_contexts_are_the_ones_the_fit_saw():
    """What a seat reads from the play (contexts_of, the public history of its view) is
    the context of the real position the fit reads (context_at), card by card, over
    random hands with cantes."""
    rng = random.Random(21)
    checked = sung = 0
    for k in range(300):
        rec = record_of(random_game(rng, ONLINE, ("paso", "solo", "cuatrola")[k % 3],
                                    sing_rate=1.0))
        if not rec.cantes and k % 10:
            continue
        real, played = [], 0
        for _, _, h, c in replay_cards(rec):
            real.append(context_at(h.pos, ONLINE, played))
            played |= 1 << c
        view = view_of(rec, 2)
        public = contexts_of(view.plays, view.cantes, view.active, view.declarer,
                             view.contract, view.trump, ONLINE)
        assert public == real
        checked += len(real)
        sung += bool(rec.cantes)
    assert checked > 200 and sung >= 5


def test_features_legal_cards_are_the_rules_legal_cards():
    rng = random.Random(4)
    for _ in range(10):
        hand = random_game(rng, ONLINE, "paso")
        rec = record_of(hand)
        played = 0
        for _, _, h, c in replay_cards(rec):
            if h.is_over():
                break
            held = h.pos.hand(h.pos.to_play)
            _, legal = features(np.array([held], dtype=np.uint32),
                                context_at(h.pos, ONLINE, played))
            assert set(np.flatnonzero(legal[0])) == set(h.legal_cards())
            played |= 1 << c


def test_the_fit_finds_a_model_back_from_its_own_choices():
    """Decisions drawn from a known model: the fit's weights come back close to it and
    its held-out log-loss beats the uniform choice."""
    rng = np.random.default_rng(3)
    truth = np.zeros(len(FEATURE_NAMES))
    truth[FEATURE_NAMES.index("lead:trump*master")] = 2.0
    truth[FEATURE_NAMES.index("follow:points*lost")] = -2.0
    truth[FEATURE_NAMES.index("follow:points*partner_winning")] = 1.5
    from cuatrola_solver.models.cardplay import probabilities
    hands = []
    g = random.Random(5)
    for _ in range(300):
        game = random_game(g, ONLINE, "paso")
        ds = fit_cards.decisions(record_of(game))
        redrawn = []
        for x, legal, _ in ds:
            p = probabilities(x[None], legal[None], truth, 0.0)[0]
            redrawn.append((x, legal, int(rng.choice(len(p), p=p / p.sum()))))
        hands.append(redrawn)
    fitted = fit_cards.fit(hands, ONLINE, {}, seed=2)
    w = np.array(fitted.weights)
    for name in ("lead:trump*master", "follow:points*lost", "follow:points*partner_winning"):
        i = FEATURE_NAMES.index(name)
        assert abs(w[i] - truth[i]) < 0.8, name
    p = fitted.provenance
    assert p["log_loss"] < p["uniform_log_loss"] and p["hands"] == 300 and p["seed"] == 2
    assert fitted.floor in fit_cards.FLOORS and fitted.floor > 0


@pytest.mark.parametrize("preset", ["online", "app", "narro", "italiano"])
def test_each_shipped_model_says_how_it_was_made_and_beats_uniform(preset):
    cards = Models.of(preset).cards
    assert cards is not None and json.loads(cards.rules) == preset
    p = cards.provenance
    assert p["command"].startswith(f"cuatrola cardmodel fit-pimc-{preset}.jsonl --rules {preset}")
    assert p["records"][0]["selfplay"]["rules"] == preset
    assert p["log_loss"] < p["uniform_log_loss"] and p["held_out_cards"] > 1000
    assert p["accuracy"] > p["uniform_accuracy"] + 0.2
    assert Models.of(preset, inference=False).cards is None


def test_a_corrupt_card_model_is_one_line(tmp_path):
    good = json.loads(Models.of("online").cards.to_json())
    for change, why in [({"weights": [1.0]}, "features or weights"),
                        ({"floor": 2}, "floor"), ({"version": 9}, "another version")]:
        bad = dict(good, **change)
        p = tmp_path / "cards.json"
        p.write_text(json.dumps(bad))
        with pytest.raises(ModelError) as e:
            load_model(ONLINE, p)
        assert why in str(e.value) and "\n" not in str(e.value)


def test_hint_weighs_the_play_reports_its_effective_deals_and_no_inference_turns_it_off():
    view = read_view("Rc Ab Cb Re 3o", "So", 3, "paso paso paso paso", "1. Ac Sc", "online")
    budget = Budget(samples=200, seed=8)
    calls_only = Models(Models.of("online").bids, None, None)
    both = Models(Models.of("online").bids, None, Models.of("online").cards)
    a = cardplay.hint(view, budget, calls_only)
    b = cardplay.hint(view, budget, both)
    assert b.effective_deals < a.effective_deals <= 200
    assert cardplay.hint(view, budget, Models.NONE).effective_deals is None
    # the weights hint uses are the calls' times the play's
    k = knowledge_of(view)
    dealt = k.dealt_hands(sample_deals(k, 50, np.random.default_rng(1)))
    assert cardplay.deal_weights(view, dealt, both) == pytest.approx(
        cardplay.deal_weights(view, dealt, calls_only) * card_weights(dealt, view, both.cards))
    args = ["hint", "--hand", "Rc Ab Cb Re 3o", "--muestra", "So", "--seat", "3",
            "--played", "1. Ac Sc", "--seed", "3", "--samples", "100", "--model", "dd"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0 and "weighted by the calls and the play" in res.output
    res = runner.invoke(app, args + ["--no-inference"])
    assert res.exit_code == 0 and "weighted" not in res.output


def test_hint_reading_the_play_does_not_depend_on_the_workers():
    hand = random_game(random.Random(9), ONLINE, "paso")
    flat = [c for t in record_of(hand).tricks for c in t]
    for cut in (3, 6, 9):
        r = record_of(hand)
        r.tricks = [flat[:cut][i:i + 4] for i in range(0, cut, 4)]
        r.cantes = [k for k in r.cantes if k.after_trick <= cut // 4]
        v = view_of(r, replay(r).to_play)
        one = cardplay.hint(v, Budget(samples=150, seed=4, workers=1), Models.of("online"))
        two = cardplay.hint(v, Budget(samples=150, seed=4, workers=2), Models.of("online"))
        assert one == two and one.effective_deals < 150


def test_cardmodel_command(tmp_path):
    out = tmp_path / "run.jsonl"
    res = runner.invoke(app, ["selfplay", "--a", "heuristic", "--b", "random", "--hands", "40",
                              "--seed", "3", "--workers", "1", "--odds-samples", "0",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    model_file = tmp_path / "cards.json"
    res = runner.invoke(app, ["cardmodel", str(out), "-o", str(model_file), "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "held out" in res.output and "uniform over the legal cards" in res.output
    got = load_model(ONLINE, model_file)
    assert got.provenance["records"][0]["hands"] == 80
    assert got.provenance["records"][0]["selfplay"]["a"] == "heuristic"
    # one line, exit 2: no -o, a missing file, the output over its input, other rules
    for args, text in [([str(out)], "needs -o FILE"),
                       ([str(tmp_path / "none.jsonl"), "-o", str(model_file)], "not found"),
                       ([str(out), "-o", str(out)], "would overwrite"),
                       ([str(out), "-o", str(model_file), "--rules", "narro"], "not narro")]:
        res = runner.invoke(app, ["cardmodel", *args])
        assert res.exit_code == 2 and text in res.output, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1
