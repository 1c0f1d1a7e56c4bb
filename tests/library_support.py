"""The bundled drills read once per test process: several test modules build tables of every bundled drill when
they are imported (test_drill_library, test_twin_ids, test_all_clear_twins, test_library_coverage, the hygiene
screens, the feature cover of tests/cover_support.py), and every pytest-xdist worker imports every test module to
collect it: each of those tables read and checked all 44 drill files again, in each worker (about 4 CPU-s a worker).

:func:`load_bundled` reads a file once and gives each caller a deep copy of the drill, so that no caller sees
another's changes: the same drill :func:`warroom.core.load.load_drill` returns, for the price of a copy."""

from __future__ import annotations

import functools
from pathlib import Path

from warroom.core.load import load_drill
from warroom.core.model import Drill


def load_bundled(path: Path) -> Drill:
    """The drill at ``path`` (any drill file: a bundled one is the point), as :func:`load_drill` reads it, read from
    its file only the first time this process asks for it."""
    return _read(Path(path).resolve()).model_copy(deep=True)


@functools.cache
def _read(path: Path) -> Drill:
    return load_drill(path)
