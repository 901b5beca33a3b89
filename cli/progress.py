"""A progress bar on stderr for the long commands (advise, hint, analyze, charts, ...)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

from cuatrola_solver.advice.budget import Progress


@contextmanager
def progress_bar(label: str, enabled: bool | None = None) -> Iterator[Progress | None]:
    """A rich progress bar on stderr (only when stderr is a terminal); yields the
    ``progress(done, total)`` callback the library calls, or None."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
