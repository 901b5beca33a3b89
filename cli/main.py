"""``cuatrola``: the command-line entry point.  Each command parses its arguments,
calls the library and renders the answer; nothing else happens here."""

from __future__ import annotations

import typer

from .common import CommandLine
from . import (cmd_advise, cmd_analyze, cmd_bench, cmd_bidmodel, cmd_calibrate,
               cmd_cardmodel, cmd_check, cmd_deal, cmd_equity, cmd_hint, cmd_play, cmd_rules,
               cmd_selfplay, cmd_solve)
from .helpnames import plain_help_names

plain_help_names()

app = typer.Typer(
    cls=CommandLine, add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
    help="Advice, double-dummy tables and post-game reports for cuatrola, the Spanish "
         "card game: should I go solo, what was the best card, what went wrong.\n\n"
         "Cards are a rank and a suit: 3o is the tres de oros, Cc the caballo de copas "
         "(ranks A 3 R C S, suits o c e b). 'cuatrola COMMAND --help' tells more.")

for module in (cmd_advise, cmd_hint, cmd_play, cmd_solve, cmd_check, cmd_analyze, cmd_deal,
               cmd_rules, cmd_bench, cmd_equity, cmd_selfplay, cmd_calibrate, cmd_bidmodel,
               cmd_cardmodel):
    module.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
