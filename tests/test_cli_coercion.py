"""cuatrola_cli.coercion: the quick coercion of option values gives what Typer's own
gives -- the same value of the same type, or the same refusal -- on every parameter of
every command, and the commands that need no Pydantic start without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from cuatrola_cli import coercion
from cuatrola_cli.main import app

TEXTS = ["3", "-1", "0", "1", "2", "4", "007", "-0", "x", "1.5", "0.01", "1.0", "3.0", "",
         " 3", "3 ", "+3", "1_000", "1e3", ".5", "5.", "-", "9" * 18, "9" * 19, "9" * 5000,
         "0x10", "١", "online", "narro,tie_break=mano", "a b", "/no/such/dir/file",
         "examples", "README.md"]


def _parameters():
    group = typer.main.get_command(app)
    for name in group.list_commands(None):
        command = group.get_command(None, name)
        for param in command.params:
            if getattr(param, "type_descriptor", None) is not None:
                yield pytest.param(command, param, id=f"{name}-{param.name}")


def _values(param) -> list:
    info = param.type_descriptor.parameter_info
    edges = [str(b + d) for b in (info.min, info.max) if b is not None for d in (-1, 0, 1)]
    edges += [str(float(b) + d) for b in (info.min, info.max) if b is not None
              for d in (-0.5, 0.0)]
    plain = [*TEXTS, *edges, 3, 1.5, True, Path("README.md"), b"3"]
    if param.multiple or param.nargs == -1:
        return [tuple(plain[i:i + 3]) for i in range(len(plain))] + [(), ("3",)]
    return plain


def _outcome(runtime, value, param, ctx):
    try:
        got = runtime._coerce_value(value, param=param, ctx=ctx)
    except Exception as e:                 # the refusal itself is what is compared
        return ("refused", type(e).__name__, str(e))
    kinds = [type(v) for v in got] if isinstance(got, (list, tuple)) else type(got)
    return ("value", got, kinds)


@pytest.mark.parametrize("command, param", list(_parameters()))
def test_quick_coercion_agrees_with_typers(command, param):
    descriptor = param.type_descriptor
    ctx = command.context_class(command, info_name=command.name)
    quick = coercion.build_runtime_param(descriptor)
    typers = coercion._typer_build(descriptor)
    for value in _values(param):
        assert _outcome(quick, value, param, ctx) == _outcome(typers, value, param, ctx), \
            (param.name, value)


def test_the_quick_path_serves_the_plain_options():
    """Not all of them sent on to Typer: the test above would then pass by itself."""
    kinds = {type(coercion.build_runtime_param(param.values[1].type_descriptor)).__name__
             for param in _parameters()}
    assert "QuickParam" in kinds


@pytest.mark.parametrize("args", [["rules"], ["--help"],
                                  ["advise", "Ac 3c Ro Co Ab", "--muestra", "So",
                                   "--seat", "2", "--samples", "200", "--seed", "1"]])
def test_plain_commands_start_without_pydantic(args):
    code = ("import sys\nfrom cuatrola_cli.main import main\nsys.argv = ['cuatrola', *"
            f"{args!r}]\ntry:\n    main()\nexcept SystemExit as e:\n    assert not e.code\n"
            "print('pydantic' in sys.modules, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines()[-1] == "False", r.stderr
