"""``cuatrola --help``: the top-level help, in the boxes of every command's own help.

Typer draws a help with its ``rich_utils``, whose import (rich's Markdown, tracebacks
and columns among it) is most of the start-up of ``cuatrola --help``.  The top-level
help needs only a usage line, the description, the options and the list of commands,
so it is drawn here with rich's console, panel and table alone, in the same style (this
module is imported only for that help); a command's own help (``cuatrola advise
--help``) is drawn alike by cli/command_help.py."""

from __future__ import annotations

import os
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cuatrola_solver.i18n import _

#: the styles of Typer's help (typer.rich_utils), so that both helps look alike
OPTION_STYLE = "bold cyan"
USAGE_STYLE = "yellow"
BORDER_STYLE = "dim"


def print_group_help(group: Any, ctx: Any, commands: list[tuple[str, str]]) -> None:
    """Print the help of ``group`` (a click group) to stdout: usage, its help text,
    its options and ``commands`` as ``(name, line)`` pairs."""
    console = help_console()
    usage = Text.assemble((_("Usage: "), USAGE_STYLE), group.get_usage(ctx).split(": ", 1)[1])
    console.print(Padding(usage, 1), style="bold")
    if group.help:
        paragraphs = [Text.from_markup(p) for p in group.help.split("\n\n")]
        console.print(Padding(Text("\n\n").join(paragraphs), (0, 1, 1, 1)))
    options = [param.get_help_record(ctx) for param in group.get_params(ctx)
               if not getattr(param, "hidden", False)]
    console.print(_panel(_("Options"), [(names, text or "") for names, text in
                                     filter(None, options)]))
    console.print(_panel(_("Commands"), commands))


def help_console() -> Console:
    """The console a help is printed on: stdout, ``TERMINAL_WIDTH`` columns when set
    (as Typer's help reads it), colours when ``FORCE_COLOR`` is set."""
    width = os.environ.get("TERMINAL_WIDTH")
    return Console(width=int(width) if width else None,
                   force_terminal=True if os.environ.get("FORCE_COLOR") else None)


def _panel(title: str, rows: list[tuple[str, str]]) -> Panel:
    table = Table.grid(padding=(0, 2), expand=False)
    table.add_column(style=OPTION_STYLE, no_wrap=True)
    table.add_column()
    for name, text in rows:
        table.add_row(name, Text.from_markup(text))
    return Panel(table, title=title, title_align="left", border_style=BORDER_STYLE)
