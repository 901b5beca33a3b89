"""The command line and the web server show the library's typed results: they read no
result by string key (docs/architecture.md, "A command").

A renderer takes the frozen dataclass a library verb returns (``Advice``, ``Analysis``,
``Hint``, ...) and reads its attributes; the JSON a command prints or the server answers
is written by the type's own ``to_dict()``.  The one place a mapping is read by key is
where *input* is parsed: a request's body, headers and cookies, a file the user gave,
the JSON the load test gets back as a client.  Those functions are listed below, each
with why; any other ``x["key"]`` or ``x.get("key")`` in ``cli/`` or ``web/`` fails."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOWN_BY = [ROOT / "cli", ROOT / "cuatrola_solver" / "web",
            ROOT / "cuatrola_solver" / "analysis" / "report.py"]

#: (file, function) -> why that function reads a mapping by key: input being parsed
READS_INPUT: dict[tuple[str, str], str] = {
    ("cuatrola_solver/web/messages.py", "from_json"): "a request's JSON body",
    ("cuatrola_solver/web/messages.py", "_page_id"): "a request's JSON body",
    ("cuatrola_solver/web/messages.py", "_version"): "a request's JSON body",
    ("cuatrola_solver/web/forms.py", "read_advise_form"): "the advise form's fields",
    ("cuatrola_solver/web/anotar.py", "from_json"): "Anotar's JSON body",
    ("cuatrola_solver/web/loadtest.py", "_page"): "the answers, read as the page's client",
    ("cli/extract_messages.py", "extract_html"): "the attributes of the HTML it extracts",
}

#: what is input by its nature wherever it is read: the environment, an HTTP request's
#: headers, query and cookies, an ASGI scope
INPUT_MAPPINGS = {"environ", "headers", "query_params", "cookies", "scope"}


def _input_mapping(node: ast.expr) -> bool:
    name = (node.attr if isinstance(node, ast.Attribute)
            else node.id if isinstance(node, ast.Name) else None)
    return name in INPUT_MAPPINGS


def key_reads(tree: ast.AST) -> list[tuple[str, int, str]]:
    """(function, line, key) of every string-key read in ``tree``: ``x["key"]`` as a
    value, ``x.get("key")``, ``x.pop("key")``; the function is the innermost ``def``
    around it (``<module>`` at the top level)."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            where = node.name
        key = None
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
                and not _input_mapping(node.value)):
            key = node.slice.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop") and node.args
              and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and not _input_mapping(node.func.value)):
            key = node.args[0].value
        if key is not None:
            found.append((where, getattr(node, "lineno", 0), key))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(tree, "<module>")
    return found


def python_files() -> list[Path]:
    files: list[Path] = []
    for place in SHOWN_BY:
        files += [place] if place.is_file() else sorted(place.rglob("*.py"))
    return files


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_result_is_read_by_string_key(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    reads = [(where, line, key) for where, line, key in key_reads(ast.parse(path.read_text()))
             if (name, where) not in READS_INPUT]
    assert not reads, (f"{name} reads by string key (take the typed value, or list the "
                       f"function in READS_INPUT if it parses input): "
                       + ", ".join(f"{w}:{line} [{k!r}]" for w, line, k in reads))


def test_every_listed_function_still_reads_input() -> None:
    """The list names functions that exist and do read by key (none left over)."""
    reading = {(str(p.relative_to(ROOT)), where)
               for p in python_files() for where, _, _ in key_reads(ast.parse(p.read_text()))}
    assert set(READS_INPUT) <= reading, sorted(set(READS_INPUT) - reading)


def test_the_check_finds_a_read_by_key() -> None:
    """The scan sees the forms a renderer would use."""
    code = ("def render(report):\n"
            "    return report['advice'], report.get('seat'), f(x)['k']\n")
    assert [k for _, _, k in key_reads(ast.parse(code))] == ["advice", "seat", "k"]
    assert key_reads(ast.parse("d['k'] = 1\nx = y.attribute\n")) == []
    assert key_reads(ast.parse("os.environ.get('NO_COLOR'), request.headers['origin']")) == []
