"""``cuatrola``: the command-line entry point.  Each command parses its arguments,
calls the library and renders the answer; nothing else happens here.

A command's module is imported when the command runs (or its own ``--help`` is asked
for): ``cuatrola --help`` and ``cuatrola rules`` start without numpy, the models or the
solver.  :data:`COMMANDS` lists each command with the line the help shows for it
(tests/test_cli_main.py checks it against the command's own help)."""

from __future__ import annotations

from typing import Optional

import typer

from cuatrola_solver.i18n import N_

from .common import CommandLine, check_language

#: name -> (module, the first paragraph of its help), in the help's order
COMMANDS: dict[str, tuple[str, str]] = {
    "advise": ("cmd_advise", "Odds and advice for each call this seat may make now (later "
                             "seats assumed to pass)."),
    "hint": ("cmd_hint", "The value of each legal card for the seat on turn, from what it "
                         "knows (best first)."),
    "play": ("cmd_play", "Play one seat against three bots: calls, cantes and cards typed as "
                         "lines."),
    "serve": ("cmd_serve", "The table in the browser: play, advise by clicking, analyse, "
                           "puzzles."),
    "solve": ("cmd_solve", "Double-dummy table: every contract and declarer, all cards "
                           "visible."),
    "check": ("cmd_check", "Check a hand record: every renuncio, the result and where its "
                           "points come from."),
    "record": ("cmd_record", "Take down a hand as it is played: the muestra, the calls, the "
                             "cards, typed as lines."),
    "analyze": ("cmd_analyze", "Post-game report: each card's cost, the mistakes, the bids, "
                               "the points."),
    "history": ("cmd_history", "A player's history across every hand: results, bids "
                               "against the advisor, cards, renuncios."),
    "puzzles": ("cmd_puzzles", "Puzzles from your own hands: where the card played lost "
                               "and one card was best."),
    "charts": ("cmd_charts", "Bidding charts: which hands should call paso, solo, cuatrola "
                             "or quintola."),
    "deal": ("cmd_deal", "Random deals as hand records (JSON lines with --json, else the text "
                         "form)."),
    "rules": ("cmd_rules", "Show the presets: every rule parameter with a one-line "
                           "explanation."),
    "bench": ("cmd_bench", "Benchmark the solver on fixed seeded deals, one core (µs and nodes "
                           "per deal)."),
    "equity": ("cmd_equity", "The chance of winning the match from every score (match "
                             "equity), by preset."),
    "selfplay": ("cmd_selfplay", "Duplicate tournament between two line-ups: every deal "
                                 "played twice, the line-ups swapped, so the luck of the "
                                 "cards cancels."),
    "calibrate": ("cmd_calibrate", "Predicted odds against outcomes: reliability tables, "
                                   "Brier score, expected calibration error and bias, per "
                                   "contract and seat (paso per side); --fit makes the "
                                   "played-odds model that advise uses."),
    "compare": ("cmd_compare", "Where the two line-ups of a duplicate run part: the first "
                               "card that differs, by baza, contract, role and seat; and "
                               "the properties behind PIMC's play (disambiguation, leaf "
                               "correlation, bias)."),
    "bidmodel": ("cmd_bidmodel", "Fit P(call | hand, seat, calls before) on the advisor "
                                 "bidder's calls."),
    "cardmodel": ("cmd_cardmodel", "Fit P(card | what the seat saw) on the cards the "
                                   "self-play players chose."),
}


class _Commands(CommandLine):
    lazy = COMMANDS


app = typer.Typer(
    cls=_Commands, add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    help=N_("Advice, double-dummy tables and post-game reports for cuatrola, the Spanish "
            "card game: should I go solo, what was the best card, what went wrong.")
    + "\n\n" + N_("Cards are a rank and a suit: 3o is the tres de oros, Cc the caballo de "
                   "copas (ranks A 3 R C S, suits o c e b). 'cuatrola COMMAND --help' tells "
                   "more."))


@app.callback()
def _group(
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="es|en", callback=check_language,
        help=N_("The language of everything shown: es (español) or en (English). Default: "
                "the CUATROLA_LANG variable, then the locale (LANG=es_ES.UTF-8 is "
                "Spanish), else English. --json output is the same in both.")),
) -> None:
    pass


def main() -> None:
    app()


if __name__ == "__main__":
    main()
