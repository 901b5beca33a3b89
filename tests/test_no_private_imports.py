"""No file of the repository imports a private module of another package
(``from typer._click import ...``, ``import click._compat``, ``from ray._private import
...``, ``importlib.import_module("typer._coercion")``), and the code that ships replaces
nothing of another package (``TyperOption.display_type_rich = ...``,
``setattr(typer.core, ...)``): any release of the package may change its insides without
a word.  The project's own private modules (``cuatrola_solver.dd._solver``) are its own
to import."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the project's own top-level modules: the package, the command line (installed as
#: cuatrola_cli from cli/), and the tests' helpers
OWN = {"cuatrola_solver", "cuatrola_cli", "cli", "helpers", "serve_helpers", "conftest",
       "mutation_properties", "mutation_report"}
#: folders that hold no source of the project (built, installed or generated files)
SKIP = {"build", "dist", "node_modules", "mutants", "__pycache__"}


def _private(dotted: str) -> bool:
    """Whether a dotted name has a private part: ``_x``, not a dunder such as
    ``__future__`` or ``__version__``."""
    return any(part.startswith("_") and not (part.startswith("__") and part.endswith("__"))
               for part in dotted.split("."))


def _module_names(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module (or name from a module) that ``tree`` imports, dotted, with its
    line: ``from a import b`` gives ``a.b``; relative imports are left out (they are
    the project's own)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and (isinstance(node.func, ast.Name) and node.func.id == "__import__"
                   or isinstance(node.func, ast.Attribute)
                   and node.func.attr == "import_module")):
            found.append((node.lineno, node.args[0].value))
    return found


def private_imports(source: str) -> list[tuple[int, str]]:
    """The imports of private modules of other packages in ``source``."""
    return [(line, name) for line, name in _module_names(ast.parse(source))
            if name.split(".")[0] not in OWN and _private(name)]


def patched(source: str) -> list[tuple[int, str]]:
    """Where ``source`` assigns to an attribute of something it imported from another
    package (a module, a class), or sets one with ``setattr``."""
    tree = ast.parse(source)
    foreign = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            root = (node.module if isinstance(node, ast.ImportFrom) else None) or ""
            for alias in node.names:
                if (root or alias.name).split(".")[0] not in OWN:
                    foreign.add(alias.asname or alias.name.split(".")[0])
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("setattr", "delattr") and node.args):
            targets = [ast.Attribute(value=node.args[0], attr="?")]
        for target in targets:
            base = target
            while isinstance(base, ast.Attribute):
                base = base.value
            if (isinstance(target, ast.Attribute) and isinstance(base, ast.Name)
                    and base.id in foreign):
                found.append((node.lineno, ast.unparse(target)))
    return found


def _sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py")
                  if not any(part in SKIP or part.startswith(".") or part.endswith(".egg-info")
                             for part in p.relative_to(ROOT).parts[:-1]))


def test_the_scan_sees_the_whole_repository():
    names = {str(p.relative_to(ROOT)) for p in _sources()}
    assert {"cli/common.py", "cuatrola_solver/lab/selfplay.py", "setup.py",
            "tests/conftest.py"} <= names
    assert any(n.startswith("examples/") for n in names)


def test_no_file_imports_a_private_module_of_another_package():
    bad = {str(p.relative_to(ROOT)): found for p in _sources()
           for found in [private_imports(p.read_text(encoding="utf-8"))] if found}
    assert not bad, bad


def test_the_code_that_ships_patches_no_other_package():
    bad = {str(p.relative_to(ROOT)): found for p in _sources()
           if p.relative_to(ROOT).parts[0] in ("cli", "cuatrola_solver")
           for found in [patched(p.read_text(encoding="utf-8"))] if found}
    assert not bad, bad


@pytest.mark.parametrize("source, found", [
    ("from typer.core import TyperOption\nTyperOption.display_type_rich = f",
     [(2, "TyperOption.display_type_rich")]),
    ("import typer.core\ntyper.core.build_runtime_param = b", [(2, "typer.core.build_runtime_param")]),
    ("import rich.console as rc\ndef f():\n    setattr(rc.Console, 'x', 1)", [(3, "rc.Console.?")]),
    ("import typer\nparam = typer.Option()\nparam.metavar = 'N'", []),
    ("from .common import X\nX.y = 1", []),
])
def test_what_counts_as_patching(source, found):
    assert patched(source) == found


@pytest.mark.parametrize("source, found", [
    ("from typer._click import exceptions", [(1, "typer._click.exceptions")]),
    ("from typer import _coercion", [(1, "typer._coercion")]),
    ("import click._compat as c", [(1, "click._compat")]),
    ("\nfrom ray._private.worker import global_worker", [(2, "ray._private.worker.global_worker")]),
    ("import importlib\nimportlib.import_module('typer._param_types')",
     [(2, "typer._param_types")]),
    ("def f():\n    import rich._loop", [(2, "rich._loop")]),
    ("from typer.core import TyperGroup\nimport typer.main", []),
    ("from __future__ import annotations\nfrom cuatrola_solver import __version__", []),
    ("from cuatrola_solver.dd import _solver\nfrom . import _deals", []),
])
def test_what_counts_as_a_private_import(source, found):
    assert private_imports(source) == found
