"""How the help and the error messages name values: ``HAND``, ``CARD``, ``N``, ``FILE``
rather than Typer's ``{hand}`` and ``<str>`` placeholders, and nothing after a flag such
as ``--json``.

A parameter's own ``metavar`` wins; otherwise numbers are ``N``, paths ``FILE`` and text
the parameter's name in capitals.  :func:`name_values` gives each parameter of a command
its name as its ``metavar`` (the attribute ``typer.Option(metavar=...)`` sets), read from
the annotations of the command's function."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Union, get_args, get_origin


def value_type(annotation: Any) -> Any:
    """The type of one value of a parameter annotated ``annotation``: ``int`` for
    ``Optional[int]`` and ``List[int]``."""
    while get_origin(annotation) in (Union, list, tuple) and get_args(annotation):
        args = [a for a in get_args(annotation) if a is not type(None)]
        annotation = args[0]
    return annotation


def help_name(param: Any, annotation: Any = None) -> str | None:
    """The word that names the value of ``param`` (a click parameter whose function
    parameter is annotated ``annotation``); None for a flag."""
    if getattr(param, "is_flag", False):
        return None
    if param.metavar is not None:
        return str(param.metavar)
    kind = value_type(annotation)
    ranged = getattr(param, "min", None) is not None or getattr(param, "max", None) is not None
    if kind is int or (kind is float and ranged):
        return "N"
    if isinstance(kind, type) and issubclass(kind, Path):
        return "FILE"
    return (param.name or "value").upper()


def _annotations(callback: Any) -> dict[str, Any]:
    """The annotations of a command's function, evaluated (empty when they cannot be)."""
    try:
        return {name: p.annotation for name, p in
                inspect.signature(callback, eval_str=True).parameters.items()}
    except (NameError, TypeError, ValueError, SyntaxError):   # pragma: no cover
        return {}


def name_values(command: Any) -> None:
    """Set the ``metavar`` of each parameter of ``command`` (a click command) that takes
    a value and has none, to :func:`help_name`."""
    annotations = _annotations(command.callback) if command.callback else {}
    for param in command.params:
        if param.metavar is None and not getattr(param, "is_flag", False):
            param.metavar = help_name(param, annotations.get(param.name))
