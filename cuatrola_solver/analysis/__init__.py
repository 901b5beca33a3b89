"""Post-game analysis: a record's renuncios and result (:mod:`.check`, ``check``), every
card and call of a played hand valued double dummy and from what its player knew
(:mod:`.review`, ``analyze``), the puzzles of played hands -- where the card played lost
and one card was best (:mod:`.puzzles`) -- and the pages to look at: the report with the
graph of the win chances, the puzzles (:mod:`.report`); a match sheet's summary per
player (:mod:`.match_summary`)."""
