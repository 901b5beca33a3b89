"""``cuatrola rules``: the presets and what each parameter means."""

from __future__ import annotations

from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.rules import PARAMETERS, PRESETS, get_rules

from .common import JsonOption, emit_json, user_errors


def _show(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if value == 0 and not isinstance(value, bool):
        return "0"
    return str(value)


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
            typer.echo(tabulate(rows, headers=["parameter", *PRESETS, "meaning"],
                                maxcolwidths=[None, None, None, None, None, 60]))
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
        typer.echo(tabulate(rows, headers=["parameter", "value", "meaning", "source (seed)"],
                            maxcolwidths=[None, None, 50, 50]))
