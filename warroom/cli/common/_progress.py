"""A progress bar on stderr for commands that go through many drill files (``warroom validate``, ``warroom check``),
shown only when stderr is a terminal, so that a folder of hundreds of drills is never silent until its summary.

Rich is imported inside :func:`file_progress`, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: Fewer files than this finish before a bar would be worth drawing: none is shown.
MIN_FILES = 2


def stderr_is_terminal() -> bool:
    """True when stderr is a terminal (a bar is drawn there); False for a pipe, a file or a test runner."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stderr
        return False


@contextmanager
def file_progress(
    total: int, what: str, *, live: bool | None = None, console: Any = None
) -> Iterator[Callable[[], None]]:
    """A ``what N/TOTAL`` bar on stderr (a ``rich.progress`` bar, erased when the block ends) while ``total`` files
    are gone through; yields the function to call once per file done.

    ``live`` (default: :func:`stderr_is_terminal`) False, or ``total`` below :data:`MIN_FILES`, draws nothing.
    ``console``: the Rich console to draw on (default: one on stderr, drawn as on a terminal).
    """
    if not (stderr_is_terminal() if live is None else live) or total < MIN_FILES:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = console if console is not None else Console(stderr=True, force_terminal=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(what, total=total)
        yield lambda: progress.advance(task)
