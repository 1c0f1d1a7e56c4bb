"""The system's Chromium for the browser tests (Playwright drives it; no browser is ever downloaded).

:func:`chromium_executable` finds ``chromium`` (Debian's package, installed by ``.ci/run`` when missing) or
``chromium-browser`` / ``google-chrome`` on ``PATH``, else ``$WARROOM_CHROMIUM``. When none is there the test
skips, unless ``$CI`` is set, which makes it a failure: CI must run the browser tests.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

#: Read once: the suite clears WARROOM_* per test, not CI.
_EXPLICIT = os.environ.get("WARROOM_CHROMIUM", "")
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_executable() -> str:
    """The path of the system's Chromium; skips the test (fails it when ``$CI`` is set) when there is none."""
    if _EXPLICIT and Path(_EXPLICIT).is_file():
        return _EXPLICIT
    for name in _NAMES:
        found = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").is_file() else None)
        if found:
            return found
    message = "no system Chromium (apt-get install chromium); the browser tests need it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def sync_playwright():  # type: ignore[no-untyped-def]
    """Playwright's synchronous API (skips, or fails under ``$CI``, when the package is missing)."""
    try:
        from playwright.sync_api import sync_playwright as start
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the playwright package is missing (pip install -e '.[test]')")
        pytest.skip("the playwright package is missing")
    return start()


def async_playwright():  # type: ignore[no-untyped-def]
    """Playwright's asynchronous API (skips, or fails under ``$CI``, when the package is missing): for a test that
    drives a browser and simulated trainees in one event loop."""
    try:
        from playwright.async_api import async_playwright as start
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("the playwright package is missing (pip install -e '.[test]')")
        pytest.skip("the playwright package is missing")
    return start()
