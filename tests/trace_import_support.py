"""Shared helpers of the trace importer tests (chat, otel, openinference): the unmarked-drill contract."""

from __future__ import annotations

from pathlib import Path

from locations import TESTS

from warroom.core.loader import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill
from warroom.importers.tracekit import MISSING_KEY

FIXTURES = TESTS / "fixtures"

ALL_CLEAR = "all_clear:\n  debrief: The run was healthy; marked up by a test.\n"


def only_missing_key(path: Path) -> None:
    """`warroom validate` finds exactly one problem in the imported drill at ``path``: the missing answer key."""
    try:
        load_drill(path)
    except DrillLoadError as e:
        assert [p.message for p in e.problems] == [MISSING_KEY], e.problems
    else:  # pragma: no cover - the assertion message says why
        raise AssertionError(f"{path} loaded without an answer key")


def marked_up(path: Path, addition: str = ALL_CLEAR) -> Drill:
    """The drill at ``path`` with ``addition`` (an author's mark-up) appended, loaded: what validate sees then."""
    return load_drill_text(path.read_text(encoding="utf-8") + addition, path=path.name)


def sparse_file(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no disk space (for the size limit)."""
    with path.open("wb") as f:
        f.truncate(size)
    return path
