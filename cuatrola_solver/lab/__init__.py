"""The self-play lab: duplicate tournaments between line-ups of players
(:mod:`.selfplay`, on local processes or Ray, whose head :mod:`.grpc_probe` asks
first), how well odds match the table (:mod:`.calibration`), the fitting of the models
(:mod:`.fit_bids`, :mod:`.fit_played`, :mod:`.measure_equity`), the benchmarks
(:mod:`.bench`), and the one reader of the lab's files (:mod:`.records`: every record
checked as ``check`` checks it).  Imported explicitly: it is not part of the package's
face."""
