"""No file under warroom/ or tests/ uses Textual's private modules (``textual._…``): they change without notice
between releases; nor do they, or the benchmarks, reach for the private attributes of Textual's objects."""

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


#: Private attributes of Textual's App, Screen, Pilot and widgets that tests and benchmarks once reached for; the
#: public ways: ``App.export_screenshot`` (screen text), ``App.post_message`` (a key), ``pilot.pause(0)`` (messages
#: handled and the screen rendered), ``App.notify`` (notifications), re-adding a DataTable's columns (resizing them).
PRIVATE_ATTRS = re.compile(
    r"\.(_compositor|_driver|_wait_for_screen|_on_timer_update|_clear_caches|_require_update_dimensions"
    r"|_notifications|_return_code|_background_screens|_bindings|_press_keys)\b"
)


def test_no_private_textual_attributes_in_code_tests_or_benchmarks():
    found = {}
    for path in sorted([*(ROOT / "warroom").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
                        *(ROOT / "benchmarks").rglob("*.py")]):
        if path == Path(__file__).resolve():
            continue
        lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if PRIVATE_ATTRS.search(line)]
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    assert found == {}
    assert PRIVATE_ATTRS.search("app.screen._compositor.render_strips()")
    assert not PRIVATE_ATTRS.search("app.export_screenshot()")


def test_the_pattern_finds_private_imports():
    for line in ("from textual._wait import wait_for_idle", "import textual._xterm_parser", "x = textual._compositor",
                 "from textual import _widget_navigation"):
        assert PRIVATE.search(line), line
    for line in ("from textual.widgets import DataTable", "from textual import on, work", "textual_x._y"):
        assert not PRIVATE.search(line), line


def test_no_private_textual_anywhere():
    assert private_uses() == {}
