"""The bid model's fit (lab/fit_bids.py) by value: every message of a calls file read by
``bidmodel --calls`` word for word, naming the line and the field, and the guard of
:func:`fit` called from the library."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cuatrola_solver.errors import CuatrolaError, LabError
from cuatrola_solver.game.rules import get_rules
from cuatrola_solver.lab import fit_bids
from cuatrola_solver.models.bids import legal_calls

NARRO = get_rules("narro")
SUIT = [0b11111 << (5 * s) for s in range(4)]      # all five cards of a suit
ALL = (1 << 20) - 1
CALLS = "paso, solo, contrasolo, cuatrola, quintola"


def _deal(calls=("paso", "paso", "paso", "paso"), trump=3):
    """One deal by hand: seat s holds the whole suit s - 1 (oros, copas, espadas, bastos),
    bastos trumps: the dealer, seat 4, holds all five trumps."""
    rows = []
    for seat, call in zip((1, 2, 3, 4), calls):
        before = list(calls[:seat - 1])
        rows.append({"hand": SUIT[seat - 1], "trump": trump, "seat": seat, "before": before,
                     "legal": legal_calls(NARRO, before), "call": call})
    return rows


def _read(tmp_path, rows, name="calls.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return fit_bids.read_calls(path, NARRO)


def _error(tmp_path, rows) -> str:
    with pytest.raises(LabError) as e:
        _read(tmp_path, rows)
    return str(e.value)


def _where(tmp_path, line):
    return f"{tmp_path / 'calls.jsonl'}, line {line}"


def test_a_deal_whose_dealer_holds_five_trumps_is_read(tmp_path):
    # the four calls of the deal pass (the error is the fifth line's); a dealer with every
    # card of the trump suit holds the muestra
    rows = _deal()
    assert _error(tmp_path, rows + [{**rows[0], "seat": 2}]) == (
        f"{_where(tmp_path, 5)}: a call of seat 2 where seat 1's was expected (four calls "
        f"a deal, seats 1 to 4)")
    assert _read(tmp_path, rows * fit_bids.MIN_DEALS) == rows * fit_bids.MIN_DEALS


@pytest.mark.parametrize("change, message", [
    ({"hand": ALL + 1}, "hand: expected a hand: a mask of 5 of the 20 cards, got 1048576"),
    ({"hand": -1}, "hand: expected a hand: a mask of 5 of the 20 cards, got -1"),
    ({"hand": ALL}, "hand: 20 cards (So Co Ro 3o Ao Sc Cc Rc 3c Ac Se Ce Re 3e Ae Sb Cb Rb "
                    "3b Ab): expected a hand of 5"),
    ({"hand": 0}, "hand: 0 cards (): expected a hand of 5"),
    ({"hand": SUIT[0] | 1 << 5}, "hand: 6 cards (So Co Ro 3o Ao Sc): expected a hand of 5"),
    ({"trump": 4}, "trump: expected the trump suit, 0 to 3, got 4"),
    ({"trump": "3"}, "trump: expected the trump suit, 0 to 3, got '3'"),
    ({"seat": 5}, "seat: expected a seat, 1 to 4, got 5"),
    ({"seat": 2}, ": a call of seat 2 where seat 1's was expected (four calls a deal, "
                  "seats 1 to 4)"),
    ({"before": "paso"}, "before: expected a list of calls, got 'paso'"),
    ({"before": ["paso", "doble"]}, f"before[1]: expected one of {CALLS}, got 'doble'"),
    ({"legal": None}, "legal: expected a list of calls, got null"),
    ({"legal": ["paso", 2]}, f"legal[1]: expected one of {CALLS}, got 2"),
    ({"call": "pasa"}, f"call: expected one of {CALLS}, got 'pasa'"),
    ({"before": ["paso"]}, "before: paso here, but the deal's calls before seat 1 are none"),
    ({"before": ["paso", "solo"]},
     "before: paso solo here, but the deal's calls before seat 1 are none"),
    ({"legal": []}, "legal: none here, but after no call the rules of narro allow paso solo "
                    "cuatrola quintola"),
    ({"legal": ["solo", "paso", "cuatrola", "quintola"]},
     "legal: solo paso cuatrola quintola here, but after no call the rules of narro allow "
     "paso solo cuatrola quintola"),
    ({"call": "contrasolo"},
     "call: 'contrasolo' is not one of the legal calls (paso solo cuatrola quintola)"),
])
def test_each_field_of_a_first_call(tmp_path, change, message):
    row = {**_deal()[0], **change}
    sep = "" if message.startswith(":") else ", "
    assert _error(tmp_path, [row]) == f"{_where(tmp_path, 1)}{sep}{message}"


def test_a_call_is_checked_against_the_deal_before_it(tmp_path):
    d = _deal(("solo", "paso", "paso", "paso"))
    cases = [
        (1, {"before": []}, "before: no call here, but the deal's calls before seat 2 are solo"),
        (2, {"before": ["paso", "solo"]},
         "before: paso solo here, but the deal's calls before seat 3 are solo paso"),
        (2, {"before": ["solo"]},
         "before: solo here, but the deal's calls before seat 3 are solo paso"),
        (1, {"trump": 2}, "trump: 2 here, 3 in the deal's first call"),
        (2, {"trump": 0}, "trump: 0 here, 3 in the deal's first call"),
        (1, {"hand": SUIT[0]}, "hand: a card of it is in another seat's hand of the deal"),
        (3, {"hand": SUIT[3] ^ 1 << 15 | 1 << 0},
         "hand: a card of it is in another seat's hand of the deal"),
        (1, {"legal": ["paso", "solo", "cuatrola", "quintola"]},
         "legal: paso solo cuatrola quintola here, but after solo the rules of narro allow "
         "paso contrasolo cuatrola quintola"),
        (3, {"legal": ["paso"]},
         "legal: paso here, but after solo paso paso the rules of narro allow paso "
         "contrasolo cuatrola quintola"),
        (1, {"call": "solo"},
         "call: 'solo' is not one of the legal calls (paso contrasolo cuatrola quintola)"),
    ]
    for i, change, message in cases:
        rows = d[:i] + [{**d[i], **change}]
        assert _error(tmp_path, rows) == f"{_where(tmp_path, i + 1)}, {message}", (i, change)


def test_the_dealer_holds_the_muestra(tmp_path):
    # oros trumps: seat 4 holds bastos only, no card of the muestra's suit
    d = _deal(trump=0)
    assert _error(tmp_path, d) == (f"{_where(tmp_path, 4)}, hand: seat 4, the dealer, holds "
                                   f"the muestra, but has no card of the trump suit")
    # a seat other than the dealer may hold no trump
    d = _deal(trump=3)
    assert _error(tmp_path, d[:3]) == (f"{tmp_path / 'calls.jsonl'}: the last deal has 3 "
                                       f"calls, not four (one per seat)")


def test_what_a_calls_file_lacks(tmp_path, monkeypatch):
    path = tmp_path / "calls.jsonl"
    d = _deal()
    for rows, what in (([], "no calls"), (d, "1 deal"), (d * 2, "2 deals"),
                       (d * (fit_bids.MIN_DEALS - 1), f"{fit_bids.MIN_DEALS - 1} deals")):
        assert _error(tmp_path, rows) == (f"{path}: {what}: a fit takes 50 deals at least "
                                          f"(four calls each, as bidmodel --calls keeps them)")
    for n, calls in ((1, "1 call"), (2, "2 calls"), (3, "3 calls")):
        assert _error(tmp_path, d + d[:n]) == (f"{path}: the last deal has {calls}, not four "
                                               f"(one per seat)")
    monkeypatch.chdir(tmp_path)                     # short names, not cut in the messages
    (tmp_path / "calls").mkdir()
    for name, message in (("none.jsonl", "calls file 'none.jsonl' not found"),
                          ("calls", "cannot read calls file 'calls': it is a directory")):
        with pytest.raises(LabError) as e:
            fit_bids.read_calls(name, NARRO)
        assert str(e.value) == message


def test_fit_wants_two_whole_deals():
    d = _deal()
    for rows in ([], d[:3], d, d + d[:1], d + d[:2], d * 2 + d[:1]):
        with pytest.raises(CuatrolaError) as e:
            fit_bids.fit(rows, NARRO, {})
        assert str(e.value) == (f"a bid model is fitted on two deals at least, four calls "
                                f"each: got {len(rows)} calls")
    two = _deal(("solo", "paso", "paso", "paso")) + d
    p = fit_bids.fit(two, NARRO, {}).provenance
    assert p["held_out_calls"] == 4 and p["calls_seen"] == {
        "paso": 7, "solo": 1, "contrasolo": 0, "cuatrola": 0, "quintola": 0}


@pytest.mark.parametrize("seed, calls", [
    # deals on which the calls change with the seed of each advice (a 63-bit draw instead
    # of the 62-bit one, or no seed, bids otherwise) and with the preset's models (the
    # advisor bidder calls double dummy, Models.NONE, the calls saying nothing)
    (11, ["solo", "contrasolo", "paso", "paso"]),
    (14, ["solo", "paso", "paso", "contrasolo"]),
    (23, ["paso", "paso", "paso", "paso"]),
    (27, ["paso", "paso", "paso", "paso"]),
])
def test_the_advisor_bidders_calls_by_value(seed, calls):
    rows = fit_bids.advisor_calls(1, NARRO, seed=seed, samples=2)
    assert [r["call"] for r in rows] == calls
    assert [r["before"] for r in rows] == [calls[:i] for i in range(4)]
    assert [r["legal"] for r in rows] == [legal_calls(NARRO, calls[:i]) for i in range(4)]


def test_the_fits_first_steps_by_hand():
    # two steps of gradient descent written out: features scaled to at most 1 in absolute
    # value (a column under 1 scaled up, a column of 0 left alone), the step 0.5 times the
    # gradient of mean log-loss + 1e-3 / 2 |w|^2, the weights scaled back
    x = np.array([[1.0, 0.25, 0.0, -3.0], [1.0, 0.0, 0.0, 2.0], [1.0, 0.125, 0.0, 0.0]])
    legal = np.array([[True, True, False, True, False], [True, True, True, False, False],
                      [True, False, False, True, True]])
    y = np.array([1, 2, 4])
    scale = np.array([1.0, 0.25, 1e-9, 3.0])
    xs = x / scale
    w = np.zeros((5, 4))
    for _ in range(2):
        z = np.where(legal, xs @ w.T, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        w = w - 0.5 * ((p - np.eye(5)[y]).T @ xs / 3 + 1e-3 * w)
    assert fit_bids._fit_weights(x, legal, y, steps=2) == pytest.approx(w / scale, abs=1e-12)
    assert not fit_bids._fit_weights(x, legal, y, steps=0).any()


def test_the_fit_takes_3000_steps():
    # the shipped models were fitted with 3000 steps, and the fit has not fully converged
    # by then (on these two deals a 3001st step still moves weights in the sixth decimal
    # the model keeps): the count is part of the recipe
    rows = _deal(("solo", "paso", "paso", "paso")) + _deal()
    x, legal, y = fit_bids._design(rows, NARRO)
    w = fit_bids._fit_weights(x, legal, y)
    assert (w == fit_bids._fit_weights(x, legal, y, steps=3000, lr=0.5, l2=1e-3)).all()
    assert (np.round(w, 6) != np.round(fit_bids._fit_weights(x, legal, y, steps=3001),
                                       6)).any()
    model = fit_bids.fit(rows, NARRO, {})
    assert model.weights == {c: [round(float(v), 6) for v in w[i]]
                             for i, c in enumerate(fit_bids.CALLS)}
