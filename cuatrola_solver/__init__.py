"""cuatrola-solver: hand evaluation, bid advice, double-dummy and post-game analysis
for cuatrola."""

__version__ = "0.1.0"
