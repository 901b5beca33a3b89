"""``cuatrola rules``: the presets and what each parameter means."""

from __future__ import annotations

import shutil
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.rules import PARAMETERS, PRESETS, get_rules

from .common import JsonOption, emit_json, user_errors


def _show(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if value == 0 and not isinstance(value, bool):
        return "0"
    return str(value)


def fit_widths(rows: list[list[str]], headers: list[str], flexible: list[int],
               width: int | None = None) -> list[int | None]:
    """``maxcolwidths`` for tabulate so that the table fits ``width`` columns (the
    terminal's, 80 when piped; ``COLUMNS`` overrides): the widest of the wrappable
    columns (all but the first) is narrowed until the table fits, the ``flexible`` ones
    (long text) down to 18 characters, the others down to 7."""
    if width is None:
        width = shutil.get_terminal_size((80, 24)).columns
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    natural = list(widths)
    floor = [None] + [18 if i in flexible else 7 for i in range(1, len(headers))]
    while sum(widths) + 2 * (len(headers) - 1) > width - 2:
        i = max(range(1, len(widths)), key=lambda k: (widths[k] - floor[k], k in flexible))
        if widths[i] <= floor[i]:
            break
        widths[i] -= 1
    return [None if w == n else w for w, n in zip(widths, natural)]


def register(app: typer.Typer) -> None:
    @app.command("rules")
    @user_errors
    def rules_command(
        preset: Optional[str] = typer.Argument(
            None, help="A preset (with optional overrides, 'narro,tie_break=mano'); "
                       "all presets side by side if omitted."),
        json_out: bool = JsonOption,
    ) -> None:
        """Show the presets: every rule parameter with a one-line explanation."""
        params = [p for p in PARAMETERS.values() if p.name != "name"]
        if preset is None:
            if json_out:
                emit_json({"presets": {n: r.to_dict() for n, r in PRESETS.items()},
                           "parameters": {p.name: {"section": p.section, "meaning": p.meaning}
                                          for p in params}})
                return
            rows = [[p.name] + [_show(getattr(r, p.name)) for r in PRESETS.values()] + [p.meaning]
                    for p in params]
            headers = ["parameter", *PRESETS, "meaning"]
            typer.echo(tabulate(rows, headers=headers,
                                maxcolwidths=fit_widths(rows, headers, [len(headers) - 1])))
            return
        rules = get_rules(preset)
        if json_out:
            emit_json({"rules": rules.name, "parameters": rules.to_dict()})
            return
        rows = []
        for p in params:
            source = p.sources.get(rules.name, "")
            rows.append([p.name, _show(getattr(rules, p.name)), p.meaning, source])
        changed = rules.differences()
        title = f"rules: {rules.name}" + (f" with {', '.join(changed)} changed" if changed else "")
        typer.echo(title)
        headers = ["parameter", "value", "meaning", "source (seed)"]
        typer.echo(tabulate(rows, headers=headers, maxcolwidths=fit_widths(rows, headers, [2, 3])))
