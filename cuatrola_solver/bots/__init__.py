"""Bots: players that call, sing and play from one seat's view (:mod:`.players`), and
hands and matches played out between them (:mod:`.playout`)."""
