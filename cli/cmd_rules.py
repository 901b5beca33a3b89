"""``cuatrola rules``: the presets and what each parameter means."""

from __future__ import annotations

import re
import shutil
from typing import Optional

import typer
from tabulate import tabulate

from cuatrola_solver.game.jsonvalue import JSONObject
from cuatrola_solver.game.rules import PARAMETERS, PRESETS, Parameter, RuleSet, get_rules
from cuatrola_solver.i18n import N_, _

from .common import JsonOption, emit_json, user_errors


#: the project's own notes among the rule documents' sentences (``Parameter.sources``),
#: translated where shown; the documents' sentences are quoted as they are written
NOTES = (N_("interp."), N_("interp.: rule 24 is silent; tute tradition"),
         N_("interp.: 'beat the current best'"), N_("interp.: bids only go up"),
         N_("(no cap stated)"),
         N_("(cantes in the normal hand, solo and contrasolo: all decided on points)"))


def _show(value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if value == 0 and not isinstance(value, bool):
        return "0"
    return str(value)


def chunks(text: str, inside: bool = True) -> list[str]:
    """The pieces of ``text`` a line may end after: its words, and with ``inside``
    (a value, not prose) the parts of a word such as ``exact_target`` or ``paso,solo``
    up to each ``_`` or ``,``."""
    out: list[str] = []
    for word in str(text).split():
        out += re.findall(r"[^_,]+[_,]?|[_,]", word) if inside else [word]
        out[-1] += " "
    if out:
        out[-1] = out[-1].rstrip()
    return out


def wrap_cell(text: str, width: int | None, inside: bool = True) -> str:
    """``text`` in lines of at most ``width`` characters, broken only between the
    :func:`chunks` (never inside a word such as ``carbunco``)."""
    if width is None or len(str(text)) <= width:
        return str(text)
    lines, line = [], ""
    for piece in chunks(text, inside):
        if line and len((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip())
    return "\n".join(lines)


def fit_widths(rows: list[list[str]], headers: list[str], flexible: list[int],
               width: int | None = None) -> list[int | None]:
    """The widths the columns are wrapped to (None: not wrapped) so that the table fits
    ``width`` columns (the terminal's, 80 when piped; ``COLUMNS`` overrides): the widest
    of the wrappable columns (all but the first) is narrowed until the table fits, the
    ``flexible`` ones (prose, wrapped between words) down to 18 characters, the others
    (values, wrapped also after ``_`` and ``,``) down to 7 -- and none below its longest
    unbreakable piece (:func:`chunks`): no word is cut, and a table that cannot fit
    without cutting one is wider than ``width``."""
    if width is None:
        width = shutil.get_terminal_size((80, 24)).columns
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    natural = list(widths)
    # the first column is never narrowed: its floor is not used
    floor = [0] + [max(18 if i in flexible else 7, len(str(headers[i])),
                       *(len(c.rstrip()) for r in rows
                         for c in chunks(r[i], i not in flexible)))
                   for i in range(1, len(headers))]
    while sum(widths) + 2 * (len(headers) - 1) > width - 2:
        i = max(range(1, len(widths)), key=lambda k: (widths[k] - floor[k], k in flexible))
        if widths[i] <= floor[i]:
            break
        widths[i] -= 1
    return [None if w == n else w for w, n in zip(widths, natural)]


def wrapped_table(rows: list[list[str]], headers: list[str], flexible: list[int]) -> str:
    """The table, its long cells wrapped between words to fit the terminal."""
    widths = fit_widths(rows, headers, flexible)
    cells = [[wrap_cell(c, w, i not in flexible) for i, (c, w) in enumerate(zip(r, widths))]
             for r in rows]
    return str(tabulate(cells, headers=headers))


def presets_json() -> JSONObject:
    """``rules --json``: every preset, and what each parameter means."""
    return {"presets": {n: r.to_dict() for n, r in PRESETS.items()},
            "parameters": {p.name: {"section": p.section, "meaning": p.meaning}
                           for p in _parameters()}}


def presets_table() -> str:
    """Every parameter of every preset side by side, with its meaning."""
    rows = [[p.name] + [_show(getattr(r, p.name)) for r in PRESETS.values()]
            + [_(p.meaning)] for p in _parameters()]
    headers = [_("parameter"), *PRESETS, _("meaning")]
    return wrapped_table(rows, headers, [len(headers) - 1])


def preset_text(rules: RuleSet) -> str:
    """One rule set: its name and changes, then every parameter's value, meaning and
    source."""
    rows = []
    for p in _parameters():
        source = p.sources.get(rules.name, "")
        rows.append([p.name, _show(getattr(rules, p.name)), _(p.meaning),
                     _(source) if source else ""])
    changed = rules.differences()
    title = (_("rules: {rules} with {changed} changed").format(
                 rules=rules.name, changed=", ".join(changed)) if changed
             else _("rules: {rules}").format(rules=rules.name))
    headers = [_("parameter"), _("value"), _("meaning"), _("source")]
    return title + "\n" + wrapped_table(rows, headers, [2, 3])


def _parameters() -> list[Parameter]:
    """The rule parameters shown (all but the preset's name)."""
    return [p for p in PARAMETERS.values() if p.name != "name"]


@user_errors
def rules_command(
    preset: Optional[str] = typer.Argument(
        None, help=N_("A preset (with optional overrides, 'narro,tie_break=mano'); "
                      "all presets side by side if omitted.")),
    json_out: bool = JsonOption,
) -> None:
    """Show the presets: every rule parameter with a one-line explanation."""
    if preset is None:
        if json_out:
            emit_json(presets_json())
        else:
            typer.echo(presets_table())
        return
    rules = get_rules(preset)
    if json_out:
        emit_json({"rules": rules.name, "parameters": rules.to_dict()})
    else:
        typer.echo(preset_text(rules))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_command)
