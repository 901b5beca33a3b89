"""The game: cards, seats and sides, the rules as data, the auction, the match, the
rules of play, one hand's state and one seat's view.

Nothing here knows of records, searches or models: every other layer stands on this one.

- :mod:`.cards` -- cards, suits, ranks and card sets (20-bit masks), their notation;
- :mod:`.seats` -- seats 1 to 4 and the two sides (:class:`~.seats.Side`);
- :mod:`.rules` -- :class:`~.rules.RuleSet`, the four presets, every parameter documented;
- :mod:`.auction` -- the calls and what they decide;
- :mod:`.match` -- the score, the target, the caps on bids;
- :mod:`.play` -- the rules of play as pure functions on masks (legal cards, tricks,
  cantes, what a legal card reveals), and the solver's :class:`~.play.Position`;
- :mod:`.hand` -- :class:`~.hand.HandState`, the one rules engine, with any set of hands known;
- :mod:`.view` -- :class:`~.view.View`, exactly what one seat knows: what every answer takes;
- :mod:`.constraints` -- what-if :class:`~.constraints.Constraints` a view may assume
  about the other hands ("3: void o", "4: >=2 triunfo").
"""
