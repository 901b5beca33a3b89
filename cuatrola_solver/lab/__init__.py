"""The self-play lab: duplicate tournaments between line-ups of players
(:mod:`.selfplay`, on local processes or Ray), how well odds match the table
(:mod:`.calibration`), the fitting of the models (:mod:`.fit_bids`, :mod:`.fit_played`,
:mod:`.measure_equity`), the bidding charts (:mod:`.charts`) and the benchmarks
(:mod:`.bench`).  Imported explicitly: it is
not part of the package's face."""
