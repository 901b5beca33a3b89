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


ROOT = PACKAGE.parent
#: the files a reader of the repository reads: code, docs, the build
READ = ["README.md", "README.es.md", "pyproject.toml", "setup.py", "docs/*.md", "docs/es/*.md",
        "examples/**/*.md",
        "examples/**/*.py", "cuatrola_solver/**/*.py", "cli/*.py", "ext/*.pyx", "tests/*.py",
        ".ci/run"]
#: names of files that live outside the repository, which nothing may cite
OUTSIDE = re.compile(r"(?<!docs/)\bRULES\.md\b|\bDESIGN\.md\b|shared/seeds|\.\./shared")


def _read_files() -> list[Path]:
    return sorted({p for pattern in READ for p in ROOT.glob(pattern) if p.is_file()})


def test_nothing_cites_a_file_the_repository_does_not_have():
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in _read_files() if p.name not in ("test_layers.py", "test_rules_doc.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "\n".join(found)


def test_every_relative_link_of_the_docs_leads_somewhere():
    link = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
    broken = []
    for p in _read_files():
        if p.suffix != ".md":
            continue
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for target in link.findall(line):
                if "://" in target or target.startswith("mailto:"):
                    continue
                if not (p.parent / target).exists():
                    broken.append(f"{p.relative_to(ROOT)}:{n}: {target}")
    assert not broken, "\n".join(broken)
