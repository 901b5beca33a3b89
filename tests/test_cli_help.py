"""Each command's help and values (cuatrola_cli.command_help, cuatrola_cli.helpnames):
every value named in words (``HAND``, ``N``, ``FILE``), nothing after a flag, and the
values typed on the command line given to the command as its function declares them."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from cuatrola_cli.common import load_command
from cuatrola_cli.helpnames import value_type
from cuatrola_cli.main import COMMANDS

from helpers import one_error_line, run

PLACEHOLDER = re.compile(r"\{\w+\}|<(str|int|float|bool|path|int range|float range)>")


def _parameters():
    for name, (module, _) in COMMANDS.items():
        command = load_command(module)
        annotations = {n: p.annotation for n, p in
                       inspect.signature(command.callback, eval_str=True).parameters.items()}
        for param in command.params:
            yield pytest.param(command, param, annotations[param.name],
                               id=f"{name}-{param.name}")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_names_each_value_in_words(name):
    out = run(name, "--help", columns=200).stdout
    assert not PLACEHOLDER.search(out), out
    assert re.search(rf"Usage: \S+ {name} \[OPTIONS\]", out), out
    command = load_command(COMMANDS[name][0])
    for param in command.params:
        if param.param_type_name == "option" and not param.is_flag and not param.hidden:
            row = next(x for x in out.splitlines()
                       if re.match(rf"│[ *]{{1,5}}{re.escape(param.opts[0])}\b", x))
            assert f" {param.metavar} " in row, row


@pytest.mark.parametrize("command, param, annotation", list(_parameters()))
def test_each_value_is_named(command, param, annotation):
    """A value by a word in capitals (or its choices, ``played|dd``); a flag by none."""
    if getattr(param, "is_flag", False):
        assert param.metavar is None
    else:
        assert param.metavar and (param.metavar.isupper() or "|" in param.metavar)
        if value_type(annotation) is int and not param.metavar.isalpha():
            pytest.fail(f"{param.name}: a number named {param.metavar!r}")


@pytest.mark.parametrize("command, param, annotation", list(_parameters()))
def test_values_reach_the_command_as_its_function_declares(command, param, annotation):
    ctx = command.context_class(command, info_name=command.name)
    kind = value_type(annotation)
    many = param.multiple or param.nargs == -1
    low = getattr(param, "min", None)

    def given(text: str):
        value = param.process_value(ctx, (text,) if many else text)
        return value[0] if many else value

    if kind is bool or getattr(param, "is_flag", False):
        return
    if kind is int:
        number = max(7, low or 7)
        assert given(f"00{number}") == number and type(given(str(number))) is int
        for bad in ["x", "1.5", ""] + ([str(low - 1)] if low is not None else []):
            with pytest.raises(typer.BadParameter):
                given(bad)
    elif kind is float:
        assert given("0.5" if low is None or low <= 0.5 else str(low)) == max(0.5, low or 0)
        with pytest.raises(typer.BadParameter):
            given("half")
    elif isinstance(kind, type) and issubclass(kind, Path):
        assert given("README.md") == Path("README.md")
    elif kind is str:
        assert given("narro,tie_break=mano") == "narro,tie_break=mano"
        assert given("3: void o") == "3: void o"
    else:                                            # pragma: no cover - a new kind
        pytest.fail(f"no check for {kind!r}")


@pytest.mark.parametrize("args, token, option", [
    (["deal", "--count", "1e3"], "'1e3'", "--count"),
    (["deal", "--count", "0"], "'0'", "--count"),
    (["deal", "--seed=-1"], "'-1'", "--seed"),
    (["advise", "Ao 3o Ro Co So", "-m", "3c", "-s", "1", "--samples", "3.5"], "'3.5'",
     "--samples"),
])
def test_a_refused_value_is_one_line_naming_it(args, token, option):
    line = one_error_line(run(*args))
    assert token in line and option in line


def test_a_number_with_zeros_before_it_is_the_number():
    assert run("deal", "--count", "002", "--seed", "5").stdout == \
        run("deal", "--count", "2", "--seed", "5").stdout


@pytest.mark.parametrize("args", [["--help"], ["advise", "--help"]])
def test_the_help_starts_without_typers_help_module_or_pydantic(args):
    """The helps are drawn by cli/group_help.py and cli/command_help.py with rich alone;
    the top-level help checks no value, so Pydantic (Typer's checker) is not loaded."""
    code = ("import sys\nfrom cuatrola_cli.main import main\nsys.argv = ['cuatrola', *"
            f"{args!r}]\ntry:\n    main()\nexcept SystemExit as e:\n    assert not e.code\n"
            "print('typer.rich_utils' in sys.modules, 'pydantic' in sys.modules, "
            "file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    rich_utils, pydantic = r.stderr.split()[-2:]
    assert rich_utils == "False"
    assert pydantic == "False" or args != ["--help"]
