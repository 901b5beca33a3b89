"""The messages of the command line for the catalogs (``babel.cfg``, docs/i18n.md): what
Babel's Python extractor finds (``_``, ``ngettext``, ``N_``), and each paragraph of the
docstring of a command's function, which Typer shows as its help and
:func:`~cuatrola_cli.common.plain_help` translates paragraph by paragraph.

Used by ``pybabel extract`` only; the commands never import it."""

from __future__ import annotations

import ast
import re
import inspect
import io
from typing import IO, Any, Iterator

from babel.messages.extract import extract_python


def help_paragraphs(text: str) -> list[str]:
    """The paragraphs of a help text as the help shows them, each on one line: the
    messages :func:`~cuatrola_cli.common.plain_help` looks up."""
    return [" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n") if p.strip()]


#: what an extraction method yields: line, function name, message(s), comments
Found = Iterator[tuple[Any, ...]]


def _is_command(node: ast.AST) -> bool:
    """A command's function: decorated ``@user_errors`` (every command is), or
    ``@app.command(...)`` / ``@something.callback``."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in ("command", "callback"):
            return True
        if isinstance(target, ast.Name) and target.id == "user_errors":
            return True
    return False


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Found:
    """Babel's extraction method for the command line's modules."""
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_command(node):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                lineno = node.body[0].lineno
                for paragraph in help_paragraphs(doc):
                    yield lineno, None, paragraph, ["help of the command"]


#: an element of the page whose text is a message: ``<b data-t>New game</b>``, or
#: ``data-t="the message"`` when the element's text is drawn by the script; the attributes
#: named in ``data-t-attrs="title aria-label"`` are messages too
_TEXT = re.compile(r"<(\w+)([^>]*\bdata-t\b[^>]*)>([^<]*)<", re.S)
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Found:
    """Babel's extraction method for the page's HTML (read by ``static/i18n.js``)."""
    text = fileobj.read().decode("utf-8")
    for m in _TEXT.finditer(text):
        lineno = text.count("\n", 0, m.start()) + 1
        attrs = dict(_ATTR.findall(m.group(2)))
        message = attrs.get("data-t") or " ".join(m.group(3).split())
        if message:
            yield lineno, None, message, []
        for name in attrs.get("data-t-attrs", "").split():
            if attrs.get(name):
                yield lineno, None, attrs[name], []
