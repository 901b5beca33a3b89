"""How the help names values: ``HAND``, ``CARD``, ``N``, ``FILE`` rather than Typer's
``{hand}`` and ``<str>`` placeholders, and nothing after a flag such as ``--json``.

A parameter's own ``metavar`` wins; otherwise numbers are ``N``, paths ``FILE`` and
text the parameter's name in capitals.  :func:`plain_help_names` installs this on
Typer's parameter classes once (it leaves them alone if Typer has no such hooks)."""

from __future__ import annotations

from typing import Any


def help_name(param: Any) -> str | None:
    """The word the help shows for the value of ``param``; None for a flag."""
    if getattr(param, "is_flag", False):
        return None
    if param.metavar is not None:
        return param.metavar
    desc = getattr(param, "type_descriptor", None)
    annotation = getattr(desc, "annotation", None)
    if annotation is int or getattr(desc, "is_ranged", False):
        return "N"
    if getattr(desc, "is_path", False):
        return "FILE"
    return (param.name or "value").upper()


def plain_help_names() -> None:
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:                                   # pragma: no cover
        return
    if not hasattr(TyperOption, "display_type_rich"):     # pragma: no cover
        return

    def option_type(self, ctx):
        return help_name(self)

    def argument_type(self, ctx):
        return None                                       # its name column says it

    def argument_name(self) -> str:
        name = help_name(self)
        assert name is not None, "an argument is no flag"
        return name + ("..." if self.nargs != 1 else "")

    def argument_usage(self) -> str:
        name = argument_name(self)
        return name if self.required else f"[{name}]"

    # Typer's methods replaced by ours (mypy refuses any assignment to a method)
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]
    TyperArgument.display_name_raw = property(help_name)  # type: ignore[method-assign, assignment]
    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign]
    if hasattr(TyperArgument, "_rich_display_name"):
        TyperArgument._rich_display_name = argument_name  # type: ignore[method-assign]
    if hasattr(TyperArgument, "_usage_display_name"):
        TyperArgument._usage_display_name = argument_usage  # type: ignore[method-assign]
