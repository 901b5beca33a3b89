"""Bid advice and a card hint from Python (``python examples/advise_api.py``).

The same numbers as ``cuatrola advise "Ac 3c Rc Ce Ao" --muestra 3e --seat 1 --seed 1``:
the library's defaults are the command's (the preset's models, the same budget).
"""

import cuatrola_solver as cs

# Seat 1 speaks first, online rules: every call is open.
view = cs.View.bidding("Ac 3c Rc Ce Ao", "3e", seat=1)
advice = cs.advise(view, cs.Budget(seed=1))
print(f"{advice.deals} deals, seed {advice.seed}: advice {advice.advice}")
for r in advice.options:
    print(f"  {r.option.bid:9} P(win) {r.p_played:.3f} as played, {r.p_win:.3f} double dummy"
          f"  EV {r.ev_played:+.2f}")

# Seat 3 after "paso solo" under the app rules at 9-4: the caps forbid the big bids.
for o in cs.bid_options(cs.get_rules("app"), 3, "paso solo", cs.Score(9, 4)):
    print(f"  {o.bid:9} " + (f"-> {o.contract} declared by {o.declarer}" if o.allowed
                             else f"refused: {o.reason}"))

# A hint in the middle of a hand: seat 1 won trick 1 and is on lead, holding the 40.
deal = "Ao Ro Co Ac Ae / 3c Rc 3e Re Ab / 3o Sc Ce Se 3b / So Cc Rb Cb Sb"
hand = cs.HandState([cs.parse_cards(h) for h in deal.split("/")], cs.parse_card("So"))
hand.pass_all()
for c in "Ac 3c Sc Cc".split():
    hand.play(cs.parse_card(c))
h = cs.hint(cs.View.on_turn(hand), cs.Budget(samples=1000, seed=1))
print(f"seat {h.seat}, trick {h.trick}: play {cs.format_card(h.best)} ({h.note}; "
      f"{h.deals} deals)")
for c in h.cards:
    print(f"  {cs.format_card(c.card)}  P(win) {c.p_win:.3f}  tricks {c.tricks:.2f}  "
          f"margin {c.margin:+.1f}")
