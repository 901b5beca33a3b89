"""What a new user meets first (cuatrola_cli.main): the help, shell completion, and the
one-line contract of every error."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.errors import quote

from helpers import one_error_line, run

runner = CliRunner()


@pytest.mark.parametrize("command", ["advise", "solve", "check", "analyze", "deal", "rules",
                                     "bench"])
def test_help_shows_no_typer_placeholders(command):
    r = run(command, "--help", columns=100)
    assert r.exit_code == 0
    assert not re.search(r"\{\w+\}|<(str|int|bool|path|int range)>", r.stdout), r.stdout


def test_top_level_help_in_card_players_words():
    out = run("--help", columns=100).stdout
    assert "lichess" not in out.lower() and "chess" not in out.lower()
    # each command's line in the list is one whole sentence, not cut in the middle
    for line in re.findall(r"│ (?:check|analyze) +(.*?) +│", out):
        assert line.endswith(".")
    assert "--install-completion" in out


def test_the_help_lists_each_command_with_its_own_first_paragraph():
    """The help's list comes from cuatrola_cli.main.COMMANDS (the modules are not
    loaded for it): each line is the first paragraph of the command's own help."""
    from cuatrola_cli.common import load_command, plain_help
    from cuatrola_cli.main import COMMANDS
    for name, (module, line) in COMMANDS.items():
        command = load_command(module)
        assert command.name == name
        assert plain_help(line) == command.help.split("\n\n")[0], name


@pytest.mark.parametrize("args", [["--help"], ["rules"], ["rules", "narro"], []])
def test_help_and_rules_start_without_numpy_the_models_or_the_solver(args):
    import subprocess
    import sys
    code = ("import sys\n"
            f"sys.argv = ['cuatrola', *{args!r}]\n"
            "from cuatrola_cli.main import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in sys.modules if m == 'numpy' or m.startswith(("
            "'cuatrola_solver.dd', 'cuatrola_solver.models', 'cuatrola_solver.advice'))]\n"
            "print('loaded:', heavy, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stderr.splitlines()[-1] == "loaded: []", done.stderr


def test_a_mistyped_command_is_suggested():
    r = run("advize", columns=100)
    assert r.exit_code == 2 and "Did you mean 'advise'?" in r.stderr


def _boxed(out: str, title: str) -> list[str]:
    """The text lines of the help's box ``title``, without its frame."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"╭─ {title} "))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    return [x[2:-1].rstrip() for x in lines[start + 1:end]]


@pytest.mark.parametrize("columns", [80, 120])
def test_command_list_wraps_at_the_terminal_not_at_the_source(columns):
    """The list broke 'every deal played twice, the' / 'line-ups swapped'
    where the docstring's line ended.  Each description is its first paragraph, and a
    line ends early only when the next word would not fit."""
    lines = _boxed(run("--help", columns=columns).stdout, "Commands")
    width = max(len(x) for x in lines)
    indent = len(lines[0]) - len(lines[0].split(None, 1)[1])
    for a, b in zip(lines, lines[1:]):
        if b[:indent].strip():                  # b starts the next command
            continue
        assert len(a) + 1 + len(b.split()[0]) > width, (a, b)


def test_help_shows_square_brackets_as_typed():
    out = run("analyze", "--help", columns=200).stdout
    assert "pip install 'cuatrola-solver[lab]'" in out


def test_usage_names_the_argument():
    assert "advise [OPTIONS] HAND\n" in run("advise", "--help", columns=100).stdout.replace(" \n", "\n") \
        or re.search(r"advise \[OPTIONS\] HAND\s", run("advise", "--help", columns=100).stdout)
    assert "error: missing argument 'RECORD'" in run("check", columns=100).output


def test_shell_completion_script(monkeypatch):
    # the shell named, not the one detected among the test's parent processes (under a
    # runner that is not a shell's child, detection finds none and the script is refused)
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    r = runner.invoke(app, ["--show-completion", "bash"], prog_name="cuatrola")
    assert r.exit_code == 0
    assert "complete -o default -F _cuatrola_completion cuatrola" in r.stdout


DEAL = "3o 3c Re Cb 3b / Co Cc Se 3e Sb / So Ro Ce Ae Rb / Ao Sc Rc Ac Ab"


# --- the one-line contract ------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "x"], ["'x'", "--seat"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat=uno"], ["'uno'", "--seat"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "-sx"], ["'x'", "--seat / -s"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "1", "--samples", "0"],
     ["'0'", "--samples"]),
    (["advise", "Ao 3o Ro Co So", "--muestra", "3c", "--seat", "1", "--workers", "100000"],
     ["'100000'", "--workers"]),
    (["advise"], ["missing argument"]),
    (["frobnicate"], ["no such command 'frobnicate'"]),
    (["rules", "--bogus"], ["no such option", "--bogus"]),
    (["deal", "--count"], ["--count", "requires an argument"]),
])
def test_usage_errors_are_one_line(args, words):
    line = one_error_line(run(*args))
    for w in words:
        assert w in line


def test_no_command_prints_help_and_one_error_line():
    r = run()
    assert r.exit_code == 2
    assert "Usage" in r.stdout
    import typer.main
    names = typer.main.get_command(app).list_commands(None)     # in the help's order
    assert r.stderr.splitlines() == ["error: no command given: expected one of "
                                     + ", ".join(names)]
    assert {"advise", "hint", "play", "solve", "check", "analyze", "selfplay"} <= set(names)


def test_help_still_exits_0():
    r = run("solve", "--help")
    assert r.exit_code == 0 and "--muestra" in r.stdout and not r.stderr


def test_broken_pipe_exits_0_quietly():
    p = subprocess.Popen([sys.executable, "-m", "cuatrola_cli.main", "deal", "--count", "200000",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=60) == 0
    assert err == b""


def test_long_tokens_are_cut_in_messages():
    r = run("solve", DEAL, "--muestra", "A" * 1_000_000)
    line = one_error_line(r)
    assert len(line) < 300 and "1,000,000 characters" in line
    assert quote("x" * 41).endswith("…' (41 characters)") and quote("Ao") == "'Ao'"


def test_internal_errors_are_one_line_with_exit_1(monkeypatch):
    from cuatrola_cli import cmd_rules

    def broken(*a, **k):
        raise KeyError("oops")

    monkeypatch.setattr(cmd_rules, "get_rules", broken)
    line = one_error_line(run("rules", "online"), code=1)
    assert "internal error (KeyError" in line
