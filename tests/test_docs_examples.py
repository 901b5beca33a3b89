"""Every console example of README.md, docs/*.md and examples/*/README.md, run and
compared with its output.

The convention (docs/commands.md says it once for the reader):

- A fenced block marked ```console holds one or more commands, each a line starting
  with ``$ `` (a line ending with ``\\`` goes on on the next line), followed by the
  command's exact output, up to the next ``$ `` line or the end of the block.  Blank
  lines just before the next ``$ `` line separate the examples and are not output.
- Each command is run here from the repository's root with bash (pipes allowed,
  ``pipefail`` on), with the ``cuatrola`` installed beside the Python running the tests,
  colours off (the output is not a terminal), ``COLUMNS=80``.
- A command that succeeds (exit code 0) is compared on its stdout; one that fails on its
  stdout followed by its stderr, which is where its ``error: ...`` line goes.  The
  comparison is exact, character for character (the final newline aside); there is no
  wildcard.  An example that shows only a
  part of an output cuts it with a pipe (``| head -n 9``), so that what is shown is what
  the command prints.
- Paths after ``--html``, ``--plot``, ``--save``, ``--annotate``, ``--out``, ``-o``,
  ``--db`` are rewritten into a temporary folder (a path named twice: the same file), so
  nothing is written into the repository; the temporary path is written back as the
  original one in the output before comparing.
- Output that cannot be reproduced (timings, hours of self-play) is never ```console:
  such blocks are ```sh (commands alone) or ```text (an output said in the prose to come
  from a long run, with its command).

Every ```console block is checked: there is no skip list.  A failure names the file, the
line of the command, the command and a diff of expected against printed.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "examples").glob("*/README.md"))]
FENCE = re.compile(r"^(`{3,})(.*)$")
WRITES = re.compile(r"(?P<opt>--html|--plot|--save|--annotate|--out|-o|--db)(?P<sep>[ =])"
                    r"(?P<path>\"[^\"]+\"|'[^']+'|[^\s|;&]+)")
TIMEOUT = 60


@dataclass
class Example:
    page: Path
    line: int            # 1-based line of the ``$ `` line
    command: str
    expected: str        # the output as shown, lines joined with "\n", no final newline

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def console_blocks(page: Path, text: str):
    """(line of the opening fence, the block's lines, each with its line number)."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        ticks, info = m.group(1), m.group(2).strip()
        start = i
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip() != ticks:
            body.append((i + 1, lines[i]))
            i += 1
        if i == len(lines):
            raise AssertionError(f"{page.relative_to(ROOT)}:{start + 1}: a fenced block "
                                 "that is never closed")
        i += 1
        if info.split()[:1] == ["console"]:
            yield start + 1, body


def examples_of(page: Path, text: str | None = None) -> list[Example]:
    if text is None:
        text = page.read_text(encoding="utf-8")
    found: list[Example] = []
    for fence_line, body in console_blocks(page, text):
        before = len(found)
        current = None
        j = 0
        while j < len(body):
            lineno, text = body[j]
            if text.startswith("$ "):
                command = text[2:]
                while command.endswith("\\") and j + 1 < len(body):
                    j += 1
                    command = command[:-1] + "\n" + body[j][1]
                current = Example(page, lineno, command, "")
                found.append(current)
                current_lines: list[str] = []
            elif current is None:
                raise AssertionError(
                    f"{page.relative_to(ROOT)}:{lineno}: a ```console block (line "
                    f"{fence_line}) must start with a command, a line '$ ...'; got {text!r}")
            else:
                current_lines.append(text)
            if current is not None:
                nxt = j + 1
                if nxt == len(body) or body[nxt][1].startswith("$ "):
                    while current_lines and not current_lines[-1].strip():
                        current_lines.pop()
                    current.expected = "\n".join(current_lines)
            j += 1
        if len(found) == before:
            raise AssertionError(f"{page.relative_to(ROOT)}:{fence_line}: a ```console "
                                 "block without a command")
    return found


EXAMPLES = [e for page in PAGES for e in examples_of(page)]


def environment() -> dict:
    env = dict(os.environ)
    for name in ("CUATROLA_TRACEBACK", "CUATROLA_PUREPYTHON", "FORCE_COLOR", "CLICOLOR_FORCE",
                 "PYTHONWARNINGS"):
        env.pop(name, None)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "80"
    env["NO_COLOR"] = "1"
    env["TERM"] = "dumb"
    return env


def test_cuatrola_is_installed_beside_this_python():
    path = shutil.which("cuatrola", path=environment()["PATH"])
    assert path, (f"no 'cuatrola' next to {sys.executable}: install the package "
                  "(pip install -e .) in the environment that runs the tests")


def test_the_readme_has_its_examples():
    readme = [e for e in EXAMPLES if e.page.name == "README.md"]
    commands = " ".join(e.command for e in readme)
    for needed in ("cuatrola advise", "cuatrola hint", "cuatrola play", "cuatrola analyze",
                   "cuatrola check", "cuatrola solve"):
        assert needed in commands, f"README.md has no ```console example of {needed!r}"


def test_the_parser_reads_a_block():
    text = "x\n```console\n$ echo a \\\n  b\na b\n\n$ true\n```\n```sh\n$ no\n```\n"
    got = [(e.line, e.command, e.expected) for e in examples_of(ROOT / "README.md", text)]
    assert got == [(3, "echo a \n  b", "a b"), (7, "true", "")]


def redirect_writes(command: str, tmp: Path) -> tuple[str, dict[str, str]]:
    """The command with every written path moved into ``tmp``; {tmp path: original}."""
    back: dict[str, str] = {}

    def move(m: re.Match) -> str:
        original = m.group("path").strip("\"'")
        same = [t for t, o in back.items() if o == original]   # one file named twice
        target = Path(same[0]) if same else tmp / f"{len(back)}-{Path(original).name}"
        back[str(target)] = original
        return f"{m.group('opt')}{m.group('sep')}'{target}'"

    return WRITES.sub(move, command), back


def test_written_paths_go_to_the_temporary_folder(tmp_path):
    cmd, back = redirect_writes("cuatrola analyze r.txt --html a/b.html --plot=docs/g.svg "
                                "-o \"x y.json\" --seed 1", tmp_path)
    assert "a/b.html" not in cmd and "docs/g.svg" not in cmd and "--seed 1" in cmd
    assert sorted(back.values()) == ["a/b.html", "docs/g.svg", "x y.json"]
    assert all(k.startswith(str(tmp_path)) for k in back)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.where for e in EXAMPLES])
def test_console_example(example: Example, tmp_path):
    command, back = redirect_writes(example.command, tmp_path)
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT,
                              env=environment(), capture_output=True, text=True,
                              timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{example.where}: `{example.command}` ran for more than {TIMEOUT} s")
    printed = done.stdout if done.returncode == 0 else done.stdout + done.stderr
    for temporary, original in back.items():
        printed = printed.replace(temporary, original)
    printed_lines = printed.rstrip("\n").split("\n") if printed.strip("\n") else []
    expected_lines = example.expected.split("\n") if example.expected else []
    if printed_lines != expected_lines:
        diff = "\n".join(difflib.unified_diff(expected_lines, printed_lines,
                                              "shown in " + example.where, "printed now",
                                              lineterm=""))
        pytest.fail(f"{example.where}: the output of\n  $ {example.command}\n"
                    f"(exit code {done.returncode}) is not the one shown:\n{diff}",
                    pytrace=False)
    for temporary in back:
        assert Path(temporary).exists(), f"{example.where}: {back[temporary]} was not written"
