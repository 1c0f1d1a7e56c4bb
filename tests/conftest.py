"""Shared fixtures of the whole suite.

Every test starts from the same ambient settings whatever the shell that runs pytest has set: the ``WARROOM_*``
variables (trainee, data directory, charset...), ``COLUMNS`` / ``LINES`` (which Rich and click read for the width
of tables) and the colour hints the terminal UI reads are removed for the test, and the locale is ``C.UTF-8`` (the
terminal UI falls back to ASCII in other locales); a test that needs another value sets it with ``monkeypatch``.
Support modules (``locations``, ``malformed_cases``, ``core_support``, ``store_support``, ``screen_support``,
``import_support``) are importable from every folder (``pythonpath`` in pyproject.toml).
"""

from __future__ import annotations

import os
import sys

import pytest
from pg_support import backend_url, own_postgres_server, postgres_server, store_url  # noqa: F401 - the PostgreSQL fixtures, for every test folder

# Bytecode caches on, whatever the shell says (some CI images set PYTHONDONTWRITEBYTECODE): without them every
# `warroom` process a test starts compiles warroom's sources again, and every xdist worker rewrites the test modules'
# assertions afresh. The caches go to __pycache__ folders, which git ignores. Set here, before the test modules are
# imported and the xdist workers started, so that they and every child process inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

#: Variables kept: the fuzz budget is chosen for a whole run (WARROOM_FUZZ, see tests/fuzz/budget.py).
_KEEP = {"WARROOM_FUZZ", "WARROOM_FUZZ_SCALE"}
_AMBIENT = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TEXTUAL_COLOR_SYSTEM", "LC_ALL", "LC_CTYPE")


@pytest.fixture(autouse=True)
def _clear_ambient_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if (name.startswith("WARROOM_") and name not in _KEEP) or name in _AMBIENT:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
