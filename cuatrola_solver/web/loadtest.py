"""The load test of ``cuatrola serve``: N pages at once, each playing hands against the
bots (each move sent with its state's version, as the page sends it, and so written to
the games database) and asking for a hint at each of its decisions, against a server on
loopback (127.0.0.1, a free port) started here; every request's latency is measured and the
median, 95th percentile and worst are printed per kind, with the errors.

    python -m cuatrola_solver.web.loadtest --pages 8 --hands 1

Bounded: each page plays ``--hands`` hands (so a known number of requests) and the
whole run stops after ``--seconds`` whatever is left; only 127.0.0.1 is ever sent to."""

from __future__ import annotations

import argparse
import math
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Sequence

import httpx

from ..game.rules import get_rules
from .app import make_app
from .records import RecordsFolder
from .server import running

__all__ = ["LoadResult", "load_test", "main"]


@dataclass
class LoadResult:
    """The latencies (seconds) of each kind of request, the errors, the hands played."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    hands: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out = [f"{self.hands} hands played, {sum(map(len, self.latencies.values())):,} "
               f"requests in {self.seconds:.1f} s, {len(self.errors)} errors"]
        for kind, xs in sorted(self.latencies.items()):
            out.append(f"  {kind:<8} {len(xs):>5} requests  p50 {_q(xs, 0.5) * 1000:7.0f} ms  "
                       f"p95 {_q(xs, 0.95) * 1000:7.0f} ms  max {max(xs) * 1000:7.0f} ms")
        out += [f"  error: {e}" for e in self.errors[:10]]
        return out


def _q(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank)."""
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def _page(url: str, hands: int, deadline: float, result: LoadResult,
          lock: threading.Lock) -> None:
    headers = {"Origin": url.rstrip("/")}
    with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
        def ask(kind: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
            start = time.monotonic()
            r = client.post(path, json=body)
            took = time.monotonic() - start
            with lock:
                result.latencies[kind].append(took)
            if r.status_code != 200:
                raise RuntimeError(f"{path}: {r.status_code} {r.text[:200]}")
            answer: dict[str, Any] = r.json()
            return answer

        try:
            page = ask("page", "/api/page", {})["page"]
            state = ask("new", "/api/play/new", {"page": page, "seat": 1})
            played = 0
            while time.monotonic() < deadline:
                if "result" in state:
                    played += 1
                    with lock:
                        result.hands += 1
                    if played >= hands or state["match"]["over"]:
                        return
                    state = ask("next", "/api/play/next", {"page": page,
                                                           "version": state["version"]})
                    continue
                turn = state["turn"]
                if turn["kind"] != "cante":
                    ask("hint", "/api/play/hint", {"page": page})
                choice = turn["legal"][0] if turn["kind"] != "cante" else "no"
                state = ask("answer", "/api/play/answer", {"page": page, "choice": choice,
                                                           "version": state["version"]})
        except Exception as e:      # counted and said, the other pages go on
            with lock:
                result.errors.append(f"{type(e).__name__}: {e}")


def load_test(pages: int = 8, hands: int = 1, seconds: float = 600, rules: str = "online",
              bots: str = "best") -> LoadResult:
    """Run ``pages`` pages at once against a server started here on 127.0.0.1."""
    result = LoadResult()
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as records:
        app = make_app(get_rules(rules), RecordsFolder(records), bots=bots)
        with running(app) as url:
            start = time.monotonic()
            threads = [threading.Thread(target=_page, args=(url, hands, start + seconds,
                                                            result, lock))
                       for _ in range(pages)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            result.seconds = time.monotonic() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cuatrola_solver.web.loadtest",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=8, help="pages at once (default 8)")
    ap.add_argument("--hands", type=int, default=1, help="hands each page plays (default 1)")
    ap.add_argument("--seconds", type=float, default=600, help="stop after this long")
    ap.add_argument("--rules", default="online")
    ap.add_argument("--bots", default="best")
    a = ap.parse_args(argv)
    if not (1 <= a.pages <= 64 and 1 <= a.hands <= 50 and 0 < a.seconds <= 3600):
        ap.error("expected 1-64 pages, 1-50 hands and at most 3600 seconds")
    result = load_test(a.pages, a.hands, a.seconds, a.rules, a.bots)
    print(f"load test: {a.pages} pages at once on 127.0.0.1, {a.hands} hand(s) each, "
          f"rules {a.rules}, bots {a.bots}, a hint at every call and card")
    for line in result.lines():
        print(line)
    return 1 if result.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
