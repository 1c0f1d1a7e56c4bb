"""No file under warroom/ or tests/ uses Textual's private modules (``textual._…``): they change without notice
between releases. The escalation dialog's ``textual._widget_navigation`` is being removed separately."""

from __future__ import annotations

import re
from pathlib import Path

from locations import REPO

ROOT = REPO  # the repository scanned
#: ``import textual._x``, ``from textual._x import``, ``from textual import _x``, and dotted uses ``textual._x``.
PRIVATE = re.compile(r"\btextual\._\w|\bfrom\s+textual\s+import\s+\(?\s*_\w")


def private_uses() -> dict[str, list[int]]:
    """Python files of warroom/ and tests/ that use ``textual._…``, with the line numbers."""
    found: dict[str, list[int]] = {}
    for path in sorted([*(ROOT / "warroom").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        if path == Path(__file__).resolve():
            continue
        lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PRIVATE.search(line)]
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    return found


def test_the_pattern_finds_private_imports():
    for line in ("from textual._wait import wait_for_idle", "import textual._xterm_parser", "x = textual._compositor",
                 "from textual import _widget_navigation"):
        assert PRIVATE.search(line), line
    for line in ("from textual.widgets import DataTable", "from textual import on, work", "textual_x._y"):
        assert not PRIVATE.search(line), line


def test_no_private_textual_anywhere():
    assert private_uses() == {}
