"""The advise form (cuatrola_solver.web.forms): the view it builds from the values its
fields were read into is the one ``View.bidding`` reads from the same text, each text
is read once, and what no single field says is placed at the hand."""

from __future__ import annotations

import pytest

from cuatrola_solver.game import view as view_module
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.game.view import View
from cuatrola_solver.web.forms import FormError, read_advise_form
from cuatrola_solver.web.messages import AdviseAsk

ONLINE = get_rules("online")


def read(body: dict[str, object]):
    """The form of the fields ``body`` (as the page sends them)."""
    return read_advise_form(AdviseAsk.from_json({"page": "p1", **body}), ONLINE)


@pytest.mark.parametrize("hand, muestra, seat, auction, score", [
    ("Ac 3c Ro Co Ab", "So", 1, "", ""),
    ("Ac 3c Ro Co Ab", "So", 3, "paso solo", ""),
    ("Ac 3c Ro Co So", "So", 4, "paso, paso, paso", "3-5"),
])
def test_the_form_s_view_is_the_view_of_the_same_text(hand, muestra, seat, auction, score):
    body = {"hand": hand, "muestra": muestra, "seat": str(seat), "auction": auction,
            "score": score, "seed": "4"}
    form = read(body)
    expected = View.bidding(hand, muestra, seat, auction or None, ONLINE,
                            form.view.score)
    assert form.view == expected and form.view.key() == expected.key()
    assert (form.budget.seed, form.budget.exact, form.budget.workers) == (4, False, 1)


def test_the_form_reads_each_field_once(monkeypatch):
    """The view is built from the values the fields were read into: the text of the
    auction is not read again (View.bidding's reader is not called)."""
    def unread(*args, **kw):
        raise AssertionError("the auction was read a second time")

    monkeypatch.setattr(view_module, "parse_auction", unread)
    form = read({"hand": "Ac 3c Ro Co Ab", "muestra": "So", "seat": "3",
                             "auction": "paso solo"})
    assert form.view.calls == ("paso", "solo")


def test_a_blank_auction_is_every_seat_before_passing():
    form = read({"hand": "Ac 3c Ro Co Ab", "muestra": "So", "seat": "3",
                             "auction": "   "})
    assert form.view.calls == ("paso", "paso")


@pytest.mark.parametrize("hand, muestra, seat, message", [
    ("Ac Ac Ro Co Ab", "So", 1, "appears twice"),
    ("Ac 3c Ro Co", "So", 1, "holds 4 cards"),
    ("Ac 3c Ro Co So", "So", 1, "belongs to seat 4"),
    ("Ac 3c Ro Co Ab", "So", 4, "the dealer keeps it"),
])
def test_what_no_single_field_says_is_said_at_the_hand(hand, muestra, seat, message):
    with pytest.raises(FormError) as e:
        read({"hand": hand, "muestra": muestra, "seat": str(seat)})
    assert list(e.value.errors) == ["hand"] and message in e.value.errors["hand"]
    with pytest.raises(Exception, match=message):      # the command's own message
        View.bidding(hand, muestra, seat, None, ONLINE)
