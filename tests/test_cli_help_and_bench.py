"""What a new user meets first: the help, the rules table's width, shell completion,
advise's table and header, and `cuatrola bench`."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from cuatrola_cli.main import app
from cuatrola_solver.lab.bench import (format_answers_bench, format_bench, run_answers_bench,
                                       run_bench)

runner = CliRunner()


def run(*args: str, columns: int = 100):
    return runner.invoke(app, list(args), env={"COLUMNS": str(columns)})


@pytest.mark.parametrize("command", ["advise", "solve", "check", "analyze", "deal", "rules",
                                     "bench"])
def test_help_shows_no_typer_placeholders(command):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert not re.search(r"\{\w+\}|<(str|int|bool|path|int range)>", r.stdout), r.stdout


def test_top_level_help_in_card_players_words():
    out = run("--help").stdout
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
    r = run("advize")
    assert r.exit_code == 2 and "Did you mean 'advise'?" in r.stderr


def _boxed(out: str, title: str) -> list[str]:
    """The text lines of the help's box ``title``, without its frame."""
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"╭─ {title} "))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    return [x[2:-1].rstrip() for x in lines[start + 1:end]]


@pytest.mark.parametrize("columns", [80, 120])
def test_command_list_wraps_at_the_terminal_not_at_the_source(columns):
    """Issue 19: the list broke 'every deal played twice, the' / 'line-ups swapped'
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
    assert "advise [OPTIONS] HAND\n" in run("advise", "--help").stdout.replace(" \n", "\n") \
        or re.search(r"advise \[OPTIONS\] HAND\s", run("advise", "--help").stdout)
    assert "error: missing argument 'RECORD'" in run("check").output


def test_shell_completion_script(monkeypatch):
    # the shell named, not the one detected among the test's parent processes (under a
    # runner that is not a shell's child, detection finds none and the script is refused)
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    r = runner.invoke(app, ["--show-completion", "bash"], prog_name="cuatrola")
    assert r.exit_code == 0
    assert "complete -o default -F _cuatrola_completion cuatrola" in r.stdout


@pytest.mark.parametrize("columns", [80, 120, 200])
def test_rules_fits_the_terminal(columns):
    for args in (["rules"], ["rules", "narro"]):
        out = run(*args, columns=columns).stdout
        widest = max(len(line) for line in out.splitlines())
        assert widest <= max(columns, 90), (args, columns, widest)   # 80: 4 presets need ~86
    assert max(len(x) for x in run("rules", columns=200).stdout.splitlines()) > 120


@pytest.mark.parametrize("columns", [80, 100])
def test_rules_never_cuts_a_word(columns):
    """Issue 19: at 80 columns 'exact_target' came out as 'exact_t' / 'arget'.  A value
    may break after '_' or ',', prose between words; nothing else."""
    from cuatrola_cli.cmd_rules import _show
    from cuatrola_solver.game.rules import PARAMETERS, PRESETS
    pieces = set()
    for p in PARAMETERS.values():
        texts = [p.name, p.meaning, *p.sources.values()] + [_show(getattr(r, p.name))
                                                              for r in PRESETS.values()]
        for word in (w for text in texts for w in str(text).split()):
            cs = re.findall(r"[^_,]+[_,]?|[_,]", word)     # a line holds a run of them
            pieces |= {"".join(cs[i:j]) for i in range(len(cs)) for j in range(i + 1, len(cs) + 1)}
    pieces |= {"parameter", "value", "meaning", "source", "(rule", "document)", "(seed)",
               "rules:", "narro"} | set(PRESETS)
    for args in (["rules"], ["rules", "narro"]):
        out = run(*args, columns=columns).stdout
        words = {w for line in out.splitlines() for w in line.split() if set(w) != {"-"}}
        assert words <= pieces, sorted(words - pieces)[:10]


def test_advise_table_headers_and_the_dealer_header():
    r = run("advise", "Ac 3c Ro Co So", "--muestra", "So", "--seat", "4", "--samples", "300",
            "--seed", "1", columns=200)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    about = next(x for x in lines if x.startswith("seat 4, "))
    assert "later seats pass" not in about                   # nobody speaks after the dealer
    k = next(i for i, x in enumerate(lines) if x.startswith("call "))
    header, dashes = lines[k], lines[k + 1]
    names = re.split(r"\s{2,}", header.strip())
    assert len(names) >= 7 and names[-1] == "note"
    assert any(x.rstrip().endswith("<- advice") for x in lines[k + 2:])
    assert len(dashes.split()) == len(names)                 # no dashed column without a name
    seat2 = run("advise", "Ac 3c Ro Co Ab", "--muestra", "So", "--seat", "2", "--samples",
                "300", "--seed", "1").stdout
    assert "later seats pass" in next(x for x in seat2.splitlines() if x.startswith("seat 2, "))


def test_bench_by_default_is_quick_and_compiled_only():
    r = runner.invoke(app, ["bench", "--deals", "30"])
    assert r.exit_code == 0
    assert "µs" in r.stdout and " us " not in r.stdout and "True" not in r.stdout
    assert "reference" not in r.stdout.splitlines()[1]          # no reference column
    assert "bench: margin4: compiled solver, 30 deals" in r.stderr   # progress on stderr
    assert "reference solver" not in r.stderr
    d = json.loads(runner.invoke(app, ["bench", "--deals", "10", "--json"]).stdout)
    assert all("reference" not in row for row in d["cases"].values())


def test_bench_answers_times_whole_processes_and_a_hint():
    """bench --answers: each row a case with its target, wall and CPU seconds; here the
    start-up commands (one run each) and an exact hint late in a hand."""
    rows = run_answers_bench(presets=[], hint_case=("Ac Re", "3b", 2,
                                                    "1. Sb Ab Cb 3b 2. Ao Ro So Co "
                                                    "3. 3c Sc Cc Rc", "online"),
                             repeat=1)
    cases = [r["case"] for r in rows]
    assert cases == ["hint --exact, trick 4, seat 2", "cuatrola --help (whole process)",
                     "cuatrola rules (whole process)",
                     "cuatrola advise (default, sampled) (whole process)"]
    assert rows[0]["deals"] >= 1 and rows[0]["target_s"] == 0.5
    for r in rows:
        assert r["wall_s"] > 0 and r["cpu_s"] >= 0 and r["meets_target"] == (
            r["wall_s"] <= r["target_s"])
    text = format_answers_bench(rows)
    assert "cuatrola rules (whole process)" in text and "≤ 0.15 s" in text


def test_bench_reference_columns_match_the_readme():
    result = run_bench(deals=3, reference_deals=1, include_reference=True)
    text = format_bench(result)
    header = text.splitlines()[1]
    for column in ("work", "target", "compiled", "wall", "nodes per deal", "reference",
                   "speed-up", "same answers"):
        assert column in header
    assert "yes (1 deal)" in text
    readme = (__import__("pathlib").Path(__file__).resolve().parent.parent / "README.md")
    table = [x for x in readme.read_text().splitlines() if x.startswith("| work ")]
    assert table and [c.strip() for c in table[0].strip("|").split("|")] == [
        "work", "target", "compiled", "wall", "nodes per deal", "reference", "speed-up",
        "same answers"]


def test_bench_players_times_the_pimc_player():
    r = runner.invoke(app, ["bench", "--players", "1", "--json"])
    assert r.exit_code == 0, r.output
    [p] = json.loads(r.stdout)["players"]
    assert p["hands"] == 1 and p["decisions"] > 0 and p["player"] == "pimc"
    assert 0 < p["decision_median_ms"] <= p["decision_p90_ms"] and p["wait_max_ms"] > 0


def test_bench_players_times_each_player_asked():
    r = runner.invoke(app, ["bench", "--players", "1", "--player", "heuristic", "--player",
                            "alphamu:worlds=10", "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)["players"]
    assert [p["player"] for p in got] == ["heuristic", "alphamu:worlds=10,depth=2"]
    assert all(p["decisions"] > 0 for p in got)
    r = runner.invoke(app, ["bench", "--players", "1", "--player", "nobody"])
    assert r.exit_code == 2 and "unknown player 'nobody'" in r.output
    r = runner.invoke(app, ["bench", "--player", "pimc"])
    assert r.exit_code == 2 and "--player needs --players N" in r.output
