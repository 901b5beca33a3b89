"""docs/rules.md against the code: every rule parameter documented, every value right.

The page has two kinds of value tables, both parsed here:

- the summary at its end, ``| parameter | section | online | app | narro | italiano |``;
- one table per parameter, ``| preset | value | the rule document says |``, under the
  heading that names the parameter in backticks.

Values are written as ``cuatrola rules`` writes them: ``true``/``false``, numbers, words,
lists joined with ``", "``.  Section numbers are checked too: code and docs cite
"docs/rules.md 8.7", so the numbered sections they cite must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cuatrola_solver.game.rules import PARAMETERS, PRESETS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
SUMMARY_HEADER = ["parameter", "section", *PRESETS]
PARAM_HEADER = ["preset", "value", "the rule document says"]


def shown(value) -> str:
    """A parameter value as the page writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ", ".join(str(v) for v in value)
    return str(value)


def cells(line: str) -> list[str]:
    return [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]


def is_separator(line: str) -> bool:
    return bool(re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()))


def tables(text: str):
    """Every table of the page: (header cells, rows of cells, h2 heading, h3 heading)."""
    lines = text.splitlines()
    h2 = h3 = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            h2, h3 = line[3:].strip(), ""
        elif line.startswith("### "):
            h3 = line[4:].strip()
        elif line.startswith("|") and i + 1 < len(lines) and is_separator(lines[i + 1]):
            header = cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            yield header, rows, h2, h3
            continue
        i += 1


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_parameter_is_named(text):
    missing = [name for name in PARAMETERS if f"`{name}`" not in text]
    assert not missing, f"docs/rules.md does not name {missing}"


def test_summary_table_matches_presets(text):
    found = [rows for header, rows, _, _ in tables(text) if header == SUMMARY_HEADER]
    assert len(found) == 1, "expected one summary table " + " | ".join(SUMMARY_HEADER)
    rows = {row[0]: row for row in found[0]}
    assert sorted(rows) == sorted(PARAMETERS)
    for name, p in PARAMETERS.items():
        row = rows[name]
        assert len(row) == len(SUMMARY_HEADER), row
        assert row[1] == (p.section or "—"), f"{name}: section {row[1]}, code says {p.section}"
        for preset, cell in zip(PRESETS, row[2:]):
            want = shown(getattr(PRESETS[preset], name))
            assert cell == want, f"{name} under {preset}: page says {cell!r}, code {want!r}"


def test_each_parameter_has_its_table_in_its_section(text):
    seen: dict[str, int] = {}
    for header, rows, h2, h3 in tables(text):
        if header != PARAM_HEADER:
            continue
        named = [n for n in re.findall(r"`([a-z_0-9]+)`", h3) if n in PARAMETERS]
        assert len(named) == 1, f"table under {h3!r} names no single parameter"
        name = named[0]
        seen[name] = seen.get(name, 0) + 1
        section = PARAMETERS[name].section
        assert h2.startswith(section.split(".")[0] + "."), (name, h2, section)
        if "." in section:
            assert h3.startswith(section + " "), (name, h3, section)
        assert [r[0] for r in rows] == list(PRESETS), f"{name}: presets {[r[0] for r in rows]}"
        for row in rows:
            assert len(row) == 3 and row[2], f"{name}: row {row} has no source"
            want = shown(getattr(PRESETS[row[0]], name))
            assert row[1] == want, f"{name} under {row[0]}: page says {row[1]!r}, code {want!r}"
    documented = sorted(n for n in PARAMETERS if n != "name")
    assert sorted(seen) == documented
    assert all(v == 1 for v in seen.values()), seen


def headings(text: str) -> set[str]:
    """The section numbers of the page: '1' ... '8' and '2.1', '8.14', ..."""
    out = set()
    for m in re.finditer(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", text, re.M):
        out.add(m.group(1))
    return out


def test_section_numbering(text):
    have = headings(text)
    want = ({str(n) for n in range(1, 9)} | {f"2.{n}" for n in range(1, 8)}
            | {f"8.{n}" for n in range(1, 15)})
    assert want <= have, f"missing sections {sorted(want - have)}"
    params = {p.section for p in PARAMETERS.values() if p.section}
    assert params <= have, f"sections of PARAMETERS not on the page: {sorted(params - have)}"


CITATION = re.compile(r"(?:RULES\.md|docs/rules\.md)\s*(?:sections?\s+|§)?"
                      r"((?:\d+(?:\.\d+)?)(?:(?:\s*,\s*|\s+and\s+)\d+(?:\.\d+)?)*)")


def test_citations_point_at_sections_that_exist(text):
    have = headings(text)
    bad = []
    for path in ROOT.rglob("*"):
        if (path.suffix not in (".py", ".md", ".pyx") or not path.is_file()
                or {"build", "mutants", ".git"} & set(path.relative_to(ROOT).parts)):
            continue
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in CITATION.finditer(line):
                for number in re.findall(r"\d+(?:\.\d+)?", m.group(1)):
                    if number not in have:
                        bad.append(f"{path.relative_to(ROOT)}:{lineno}: {number}")
    assert not bad, "citations of sections docs/rules.md does not have: " + ", ".join(bad)


def test_page_stands_alone(text):
    for outside in ("RULES.md", "DESIGN.md", "shared/", "seeds/"):
        assert outside not in text, f"docs/rules.md cites {outside}, outside the repository"
