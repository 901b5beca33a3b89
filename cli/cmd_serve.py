"""``cuatrola serve``: the table in the browser -- play against the bots, advice by
clicking, analysis and puzzles of the games saved, the bidding charts -- on a local
server (:mod:`cuatrola_solver.web`)."""

from __future__ import annotations

import socket
import webbrowser
from pathlib import Path
from typing import Optional

import typer
from starlette.applications import Starlette

from cuatrola_solver.game.rules import RuleSet
from cuatrola_solver.history.database import default_path, open_database
from cuatrola_solver.i18n import N_, _
from cuatrola_solver.web.app import LOOPBACK, host_name, make_app
from cuatrola_solver.web.records import RecordsFolder
from cuatrola_solver.web.server import is_loopback, listen, run, url_of

from .common import RulesOption, load_rules, user_errors

DEFAULT_RECORDS = "cuatrola-records"


def served(rs: RuleSet, host: str, port: int, records: Path, seed: int | None,
           history: Path | None) -> tuple[Starlette, socket.socket, RecordsFolder]:
    """The application and its listening socket (the games database opened, the history
    database checked), and the records folder."""
    folder = RecordsFolder(records)
    hosts = (*LOOPBACK, host_name(host)) if is_loopback(host) else ("*",)
    app = make_app(rs, folder, hosts=hosts, seed=seed, history=history)
    sock = listen(host, port)
    if history is not None:
        open_database(history).close()      # a file that is not ours: said now
    return app, sock, folder


def say_where(rs: RuleSet, host: str, url: str, records: Path, folder: RecordsFolder,
              history: Path | None) -> None:
    """Where the page is, what is kept where, and a warning when served beyond this
    machine."""
    if not is_loopback(host):
        typer.echo(_("warning: serving on {host}: anyone who can reach this machine there "
                     "can use the page (there is no login)").format(host=host), err=True)
    if folder.made:
        typer.echo(_("made the folder {path} for the records").format(path=records))
    typer.echo(_("cuatrola serve, rules {rules}: open {url} (records in {records}; Ctrl-C "
                 "stops)").format(rules=rs.name, url=url, records=records))


@user_errors
def serve_command(
    rules: str = RulesOption,
    port: int = typer.Option(8765, "--port", "-p", min=0, max=65535, metavar="N",
                             help=N_("The port (0: any free one).")),
    host: str = typer.Option("127.0.0.1", "--host", metavar="H", help=N_(
        "The address to listen on: this machine only by default; any other (0.0.0.0: every "
        "network) only when named, with a warning.")),
    records: Path = typer.Option(Path(DEFAULT_RECORDS), "--records", metavar="DIR", help=N_(
        "The folder the games are saved in and read from (made if missing).")),
    open_page: bool = typer.Option(False, "--open", help=N_("Open the page in the browser.")),
    db: Optional[Path] = typer.Option(None, "--db", metavar="FILE", help=N_(
        "The history database the hands played are kept in, for 'Mis partidas' and "
        "'cuatrola history' (default: the one of cuatrola history).")),
    keep_history: bool = typer.Option(True, "--history/--no-history", help=N_(
        "Keep the hands played in the history database.")),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help=N_(
        "Seed of the deals and the bots: the first game started on the server takes it, "
        "the next seed + 1, and so on (default: a fresh one each game).")),
) -> None:
    """The table in the browser: play, advise by clicking, analyse, puzzles."""
    rs = load_rules(rules)
    history = (db or default_path()) if keep_history else None
    app, sock, folder = served(rs, host, port, records, seed, history)
    url = url_of(sock)
    say_where(rs, host, url, records, folder, history)
    if open_page:
        webbrowser.open(url)
    if history is not None:
        typer.echo(_("the hands played are kept in the history {db} ('Mis partidas': "
                     "{url}history)").format(db=history, url=url))
    run(app, sock)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
