"""The package's layers (docs/architecture.md): the import-linter contract in
pyproject.toml says which layer may import which (``lint-imports``, run by .ci/run); this
test adds what the contract cannot see: no module of the package imports another inside
a function, where an import could dodge a cycle."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cuatrola_solver"
#: the face loads its names on first use (PEP 562), on purpose
LAZY = {PACKAGE / "__init__.py"}


def _imports_in_functions(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and (
                        node.level or (node.module or "").startswith("cuatrola_solver")):
                    found.append((node.lineno, "." * node.level + (node.module or "")))
                elif isinstance(node, ast.Import):
                    found += [(node.lineno, a.name) for a in node.names
                              if a.name.startswith("cuatrola_solver")]
    return found


def test_no_module_of_the_package_imports_another_inside_a_function():
    bad = {str(p.relative_to(PACKAGE.parent)): found
           for p in PACKAGE.rglob("*.py") if p not in LAZY
           for found in [_imports_in_functions(p)] if found}
    assert not bad, bad


def test_every_layer_is_in_the_contract():
    text = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    contract = text[text.index("[tool.importlinter]"):]
    layers = sorted(p.name for p in PACKAGE.iterdir()
                    if p.is_dir() and (p / "__init__.py").exists())
    for name in layers:
        assert re.search(rf"cuatrola_solver\.{name}\b", contract), name
