"""Hand-made mutants of the statistics and view properties that mutmut 3 does not
mutate (it leaves decorated functions alone: ``@property`` among them).

    python tests/mutation_properties.py

applies each mutant alone to the source, runs the tests named beside it, puts the
source back, and prints whether the tests noticed (killed) or not (survived).  Not
part of the suite: it rewrites the package's files while it runs.  docs/testing.md
has its result.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = [
    ("cuatrola_solver/lab/calibration.py", "for k in range(self.bins)) / self.n", "for k in range(self.bins)) / self.bins", "tests/test_calibration.py"),
    ("cuatrola_solver/lab/calibration.py", "return sum(abs(self.bin_p[k] - self.bin_wins[k])", "return sum((self.bin_p[k] - self.bin_wins[k])", "tests/test_calibration.py"),
    ("cuatrola_solver/lab/calibration.py", "        if not self.n:\n            return None\n        return sum(", "        if not self.n:\n            return 0.0\n        return sum(", "tests/test_calibration.py"),
    ("cuatrola_solver/lab/selfplay.py", "return self.v / self.h if self.h else None", "return self.v / self.n if self.h else None", "tests/test_selfplay.py tests/test_playout.py"),
    ("cuatrola_solver/lab/selfplay.py", "return math.sqrt(ss / (self.n * (self.n - 1))) / hbar", "return math.sqrt(ss / (self.n - 1)) / hbar", "tests/test_selfplay.py tests/test_playout.py"),
    ("cuatrola_solver/lab/selfplay.py", "return math.sqrt(ss / (self.n * (self.n - 1))) / hbar", "return math.sqrt(ss / (self.n * self.n)) / hbar", "tests/test_selfplay.py tests/test_playout.py"),
    ("cuatrola_solver/lab/selfplay.py", "ss = max(0.0, self.vv - 2 * r * self.vh + r * r * self.hh)", "ss = max(0.0, self.vv - r * self.vh + r * r * self.hh)", "tests/test_selfplay.py tests/test_playout.py"),
    ("cuatrola_solver/lab/selfplay.py", "if self.n < 2 or not self.h:", "if self.n < 1 or not self.h:", "tests/test_selfplay.py tests/test_playout.py"),
    ("cuatrola_solver/game/view.py", "return self.hand & ~mask_of(p.card for p in self.seen.plays if p.seat == self.seat)", "return self.hand & ~mask_of(p.card for p in self.seen.plays)", "tests/test_view.py"),
    ("cuatrola_solver/game/view.py", "return len(self.seen.tricks) + 1", "return len(self.seen.tricks)", "tests/test_view.py"),
    ("cuatrola_solver/game/view.py", "        if self.position is None or self.seen.is_over():\n            return None", "        if self.position is None:\n            return None", "tests/test_view.py"),
    ("cuatrola_solver/models/played.py", "    def has_cards(self) -> bool:\n", "    def has_cards(self) -> bool:\n        return True\n", "tests/test_played.py"),
]

def main() -> None:
    results = []
    for path, old, new, tests in MUTANTS:
        p = ROOT / path
        text = p.read_text()
        assert text.count(old) == 1, (path, old)
        p.write_text(text.replace(old, new))
        try:
            r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests.split()],
                               cwd=ROOT, capture_output=True, text=True, timeout=1800)
            killed = r.returncode != 0
        finally:
            p.write_text(text)
        results.append((killed, path, new.strip().splitlines()[-1][:70]))
        print("killed  " if killed else "SURVIVED", path, "|", new.strip().splitlines()[-1][:80], flush=True)
    print(sum(k for k, *_ in results), "of", len(results), "killed")


if __name__ == "__main__":
    main()
