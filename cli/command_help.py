"""``cuatrola COMMAND --help``: a command's help, in the boxes of the top-level help.

Drawn here with rich's console, panel, table and columns, in the layout of Typer's own
help (usage, description, an Arguments box, an Options box), from the command's public
click attributes: each value named by its ``metavar`` (cli/helpnames.py), nothing after
a flag, ``[default: ...]`` and ``[required]`` after the text.  Typer's help would show
its ``{hand}`` and ``<str>`` placeholders, which no public option of it removes.  This
module is imported only for a help."""

from __future__ import annotations

import inspect
from enum import Enum
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cuatrola_solver.i18n import _

from .group_help import BORDER_STYLE, OPTION_STYLE, USAGE_STYLE, help_console

#: Typer's styles for what a help's boxes hold (typer.rich_utils)
SWITCH_STYLE = "bold green"
NEGATIVE_STYLE = "bold magenta"
TYPE_STYLE = "bold yellow"
REQUIRED_STYLE = "red"
REQUIRED_TEXT_STYLE = "dim red"
DEFAULT_STYLE = "dim"
MORE_HELP_STYLE = "dim"


def print_command_help(command: Any, ctx: Any) -> None:
    """Print the help of ``command`` (a click command) to stdout."""
    console = help_console()
    usage = Text.assemble((_("Usage: "), USAGE_STYLE), usage_line(command, ctx))
    console.print(Padding(usage, 1), style="bold")
    if command.help:
        first, *more = command.help.split("\n\n")
        parts: list[RenderableType] = [Text.from_markup(first)]
        if more:
            parts += [Text(""), Text.from_markup("\n\n".join(more), style=MORE_HELP_STYLE)]
        console.print(Padding(Group(*parts), (0, 1, 1, 1)))
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    for title, kind in ((_("Arguments"), "argument"), (_("Options"), "option")):
        rows = [p for p in params if p.param_type_name == kind]
        if rows:
            console.print(_panel(title, rows, ctx))


def value_name(param: Any) -> str:
    """An argument as the usage line and the help name it: ``HAND``, ``RECORDS...``."""
    name = str(param.metavar or (param.name or "").upper())
    return name + "..." if param.nargs != 1 and not name.endswith("...") else name


def usage_line(command: Any, ctx: Any) -> str:
    """``cuatrola advise [OPTIONS] HAND``: the command, then each argument (optional
    ones in brackets)."""
    pieces = [ctx.command_path, command.options_metavar or ""]
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            name = value_name(param)
            pieces.append(name if param.required else f"[{name}]")
    return " ".join(p for p in pieces if p)


def default_text(param: Any, ctx: Any) -> str | None:
    """What ``[default: ...]`` says of ``param``; None when the help says nothing."""
    if isinstance(param.show_default, str):
        return f"({param.show_default})"
    if not (param.show_default or ctx.show_default):
        return None
    value = param.get_default(ctx, call=False)
    if getattr(param, "is_bool_flag", False):
        if param.secondary_opts:         # --bids / --no-bids: the name of the default
            return str((param.opts if value else param.secondary_opts)[0]).lstrip("-")
        return None if not value else str(value)
    if value is None:
        return None
    values = value if isinstance(value, (list, tuple)) else [value]
    texts = ["(dynamic)" if inspect.isfunction(v) else
             str(v.value) if isinstance(v, Enum) else str(v) for v in values]
    return ", ".join(texts) or None


def range_text(param: Any) -> str | None:
    """``x>=1``, ``1<=x<=64``: the bounds of a number; None without."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is None and high is None:
        return None
    if low is None:
        return f"x<={high}"
    return f"x>={low}" if high is None else f"{low}<=x<={high}"


def _help_cell(param: Any, ctx: Any) -> Columns:
    items = []
    if param.help:
        items.append(Text.from_markup(param.help.replace("\n\n", "\n")))
    default = default_text(param, ctx)
    if default:
        items.append(Text(_("[default: {value}]").format(value=default), style=DEFAULT_STYLE))
    if param.required:
        items.append(Text(_("[required]"), style=REQUIRED_TEXT_STYLE))
    return Columns(items)


def _row(param: Any, ctx: Any) -> list[RenderableType]:
    """The columns of one parameter: long names, short names, the long and short names
    of its negation (``--no-bids``), the value's name and range, the help."""
    if param.param_type_name == "argument":
        names = ["", value_name(param), "", ""]
        kind = ""
    else:
        names = [",".join(o for o in opts if o.startswith("--") is long)
                 for opts in (param.opts, param.secondary_opts) for long in (True, False)]
        kind = "" if param.is_flag else str(param.metavar or "")
    bounds = range_text(param)
    kind += f" [{bounds}]" if bounds else ""
    return [Text(names[0], style=OPTION_STYLE), Text(names[1], style=SWITCH_STYLE),
            Text(names[2], style=NEGATIVE_STYLE), Text(names[3], style=NEGATIVE_STYLE),
            Text(kind, style=TYPE_STYLE, overflow="fold"), _help_cell(param, ctx)]


def _panel(title: str, params: list[Any], ctx: Any) -> Panel:
    table = Table(show_header=False, expand=True, box=None, pad_edge=False,
                  padding=(0, 1))
    required = any(p.required for p in params)
    for param in params:
        row = _row(param, ctx)
        if required:
            row.insert(0, Text("*" if param.required else "", style=REQUIRED_STYLE))
        table.add_row(*row)
    return Panel(table, border_style=BORDER_STYLE, title=title, title_align="left")
