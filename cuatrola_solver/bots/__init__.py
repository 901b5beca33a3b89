"""Bots: players that call, sing and play from one seat's view (:mod:`.players`), hands
and matches played out between them (:mod:`.playout`), and a person at the table
against three of them, one decision at a time (:mod:`.table`)."""
