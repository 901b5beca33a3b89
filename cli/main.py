"""``cuatrola``: the command-line entry point.  Each command parses its arguments,
calls the library and renders the answer; nothing else happens here."""

from __future__ import annotations

import typer

from .common import CommandLine
from . import (cmd_advise, cmd_analyze, cmd_bench, cmd_calibrate, cmd_check, cmd_deal,
               cmd_equity, cmd_hint, cmd_play, cmd_rules, cmd_selfplay, cmd_solve)

app = typer.Typer(
    cls=CommandLine, add_completion=False, no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Hand evaluation, bid advice, double-dummy and post-game analysis for cuatrola.")

for module in (cmd_advise, cmd_hint, cmd_play, cmd_solve, cmd_check, cmd_analyze, cmd_deal,
               cmd_rules, cmd_bench, cmd_equity, cmd_selfplay, cmd_calibrate):
    module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
