"""Turning a typed option's text into its value without Pydantic, where that is plain.

Typer checks every parameter's value with a Pydantic ``TypeAdapter``: importing
Pydantic and building the adapters costs about 0.1 s of each command's start, more than
the whole of ``cuatrola rules``.  :func:`quick_coercion` puts :class:`QuickParam` in
their place.  It takes the values whose meaning is plain -- text; a whole number or a
decimal written only with digits, within the option's ``min``/``max``; a path; a list
of those -- and gives every other value to Typer's own adapter, built on first need.
So a value Typer would refuse is refused by Typer, with its message, and a value it
would take comes out the same (tests/test_cli_coercion.py compares the two on every
option of every command)."""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path
from typing import Any, get_args

import typer.core
from typer import _coercion
from typer._param_types import coerce_cli_path

#: numbers as the quick path takes them: digits, an optional sign, at most 18 digits
#: before the point (a longer one, or 1e3, 1_000, ' 3' and the like go to Typer)
_INT = re.compile(r"-?[0-9]{1,18}")
_FLOAT = re.compile(r"-?[0-9]{1,18}(\.[0-9]{1,18})?")


#: Typer's own coercion of a parameter, which the quick one falls back on
_typer_build = _coercion.build_runtime_param


class _NotPlain(Exception):
    """The value is not one the quick path takes: Typer's adapter decides."""


@dataclasses.dataclass(frozen=True)
class QuickParam(_coercion.RuntimeParam):
    """A parameter's coercion: the quick path, else Typer's (built when first needed)."""

    descriptor: _coercion.TypeDescriptor

    @functools.cached_property
    def typer_param(self) -> _coercion.RuntimeParam:
        return _typer_build(self.descriptor)

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self._quick(value, param, ctx)
        except _NotPlain:
            return self.typer_param._coerce_value(value, param=param, ctx=ctx)

    def _quick(self, value: Any, param: Any, ctx: Any) -> Any:
        if self.descriptor.is_list:
            (item,) = get_args(self.annotation)
            items = value if isinstance(value, (list, tuple)) else [value]
            return [self._leaf(item, v, param, ctx) for v in items]
        return self._leaf(self.annotation, value, param, ctx)

    def _leaf(self, annotation: Any, value: Any, param: Any, ctx: Any) -> Any:
        info = self.parameter_info
        if annotation is str:
            if isinstance(value, str):
                return value
        elif annotation is int or annotation is float:
            if type(value) is annotation:
                number = value
            elif isinstance(value, str) and (_INT if annotation is int
                                             else _FLOAT).fullmatch(value):
                number = annotation(value)
            else:
                raise _NotPlain
            if ((info.min is None or number >= info.min)
                    and (info.max is None or number <= info.max)):
                return number
        elif annotation is Path and info.path_type is None:
            if isinstance(value, (str, Path)):
                return coerce_cli_path(Path(value), info, path_type=Path, param=param,
                                       ctx=ctx)
        raise _NotPlain


def _plain(descriptor: _coercion.TypeDescriptor) -> bool:
    """Whether the quick path may serve this parameter at all (no parser, no clamping,
    no file to open: those are Typer's alone)."""
    info = descriptor.parameter_info
    return (descriptor.file_annotation is None and info.parser is None
            and getattr(info, "click_type", None) is None and not info.clamp)


def build_runtime_param(descriptor: _coercion.TypeDescriptor) -> _coercion.RuntimeParam:
    if not _plain(descriptor):
        return _typer_build(descriptor)
    return QuickParam(annotation=descriptor.annotation,
                      parameter_info=descriptor.parameter_info, descriptor=descriptor)


def quick_coercion() -> None:
    """Install :class:`QuickParam` as the coercion of every Typer parameter (once; it
    leaves Typer alone if this version builds its coercion elsewhere or in another
    shape)."""
    fields = {f.name for f in dataclasses.fields(_coercion.RuntimeParam)}
    if (getattr(typer.core, "build_runtime_param", None) is _typer_build
            and fields == {"parameter_info", "annotation"}):
        typer.core.build_runtime_param = build_runtime_param  # type: ignore[attr-defined]
