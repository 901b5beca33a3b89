"""The mutation score of each mutated module, after ``mutmut run`` (docs/testing.md).

Run from the repository's root: ``python tests/mutation_report.py [--survivors]``.
It reads ``mutmut results --all true`` and prints, per module, the mutants killed (a
test failed, or timed out), the survivors and the score (killed over all mutants: one
that no test ran counts against it); ``--survivors`` also lists
the surviving mutants (``mutmut show NAME`` shows one).  Not a test: pytest does not
collect it.
"""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict

KILLED = {"killed", "timeout", "segfault"}


def results() -> list[tuple[str, str]]:
    out = subprocess.run(["mutmut", "results", "--all", "true"], capture_output=True,
                         text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            rows.append((name, status.strip()))
    return rows


def module_of(name: str) -> str:
    """``cuatrola_solver.lab.xǁSummaryǁfeed__mutmut_3`` -> ``cuatrola_solver.lab``."""
    parts = name.split(".")
    return ".".join(p for p in parts[:-1])


def main(argv: list[str]) -> int:
    by_module: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for name, status in results():
        by_module[module_of(name)].append((name, status))
    print(f"{'module':32} {'mutants':>8} {'killed':>8} {'survived':>9} {'other':>6} {'score':>7}")
    for module in sorted(by_module):
        rows = by_module[module]
        killed = sum(s in KILLED for _, s in rows)
        survived = sum(s == "survived" for _, s in rows)
        other = len(rows) - killed - survived
        score = f"{100 * killed / len(rows):.1f}%"      # not checked counts as not killed
        print(f"{module:32} {len(rows):8} {killed:8} {survived:9} {other:6} {score:>7}")
    if "--survivors" in argv:
        for module in sorted(by_module):
            for name, status in by_module[module]:
                if status not in KILLED:
                    print(f"{status:10} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
