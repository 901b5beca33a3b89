"""Bid advice and a card hint from the Python API (``python examples/advise_api.py``).

The same numbers as ``cuatrola advise "Ac 3c Rc Ce Ao" --muestra 3e --seat 1 --seed 1``.
"""

from cuatrola_solver.advice import bidding, cardplay
from cuatrola_solver.game.cards import format_card, parse_card, parse_cards
from cuatrola_solver.game.hand import Hand
from cuatrola_solver.game.match import Score
from cuatrola_solver.game.rules import get_rules

# Seat 1 speaks first, online rules: every call is open.
advice = bidding.advise(parse_cards("Ac 3c Rc Ce Ao"), parse_card("3e"), seat=1, seed=1)
print(f"{advice.deals} deals, seed {advice.seed}: advice {advice.advice}")
for r in advice.options:
    print(f"  {r.option.bid:9} P(win) {r.p_win:.3f}  95% [{r.ci95[0]:.3f}, {r.ci95[1]:.3f}]"
          f"  EV {r.ev:+.2f}")

# Seat 3 after "paso solo" under the app rules at 9-4: the caps forbid the big bids.
for o in bidding.bid_options(get_rules("app"), 3, "paso solo", Score(9, 4)):
    print(f"  {o.bid:9} " + (f"-> {o.contract} declared by {o.declarer}" if o.allowed
                             else f"refused: {o.reason}"))

# A hint in the middle of a hand: seat 1 won trick 1 and is on lead, holding the 40.
deal = "Ao Ro Co Ac Ae / 3c Rc 3e Re Ab / 3o Sc Ce Se 3b / So Cc Rb Cb Sb"
hand = Hand([parse_cards(h) for h in deal.split("/")], parse_card("So"))
hand.pass_all()
for c in "Ac 3c Sc Cc".split():
    hand.play(parse_card(c))
h = cardplay.hint(hand, samples=1000, seed=1)
print(f"seat {h.seat}, trick {h.trick}: play {format_card(h.best)} ({h.note}; {h.deals} deals)")
for c in h.cards:
    print(f"  {format_card(c.card)}  P(win) {c.p_win:.3f}  tricks {c.tricks:.2f}  margin {c.margin:+.1f}")
