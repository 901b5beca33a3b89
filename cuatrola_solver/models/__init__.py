"""The fitted models the answers use, as each preset ships them: the bid model (what the
calls reveal, :mod:`.bids`), the card-play model (what the cards played reveal,
:mod:`.cardplay`), the played-odds model (:mod:`.played`), the match-equity table
(:mod:`.equity`), and the bidding charts a player learns from (:mod:`.charts`);
:mod:`.preset` bundles the models as the commands load them and :mod:`.store` is their
one loader.  Fitting them is the lab's work."""
