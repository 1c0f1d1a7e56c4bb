"""Shared fixtures of the whole suite.

Every test starts from the same ambient settings whatever the shell that runs pytest has set: the ``WARROOM_*``
variables (trainee, data directory, charset...), ``COLUMNS`` / ``LINES`` (which Rich and click read for the width
of tables) and the colour hints the terminal UI reads are removed for the test, the locale is ``C.UTF-8`` (the
terminal UI falls back to ASCII in other locales) and the cache directory (``WARROOM_CACHE_DIR``) is a fresh folder
of the test's own; a test that needs another value sets it with ``monkeypatch``.
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

#: Variables kept: the fuzz budget is chosen for a whole run (WARROOM_FUZZ, see tests/fuzz/budget.py); the key trace
#: of the served tests' app processes and server is written for a whole run (WARROOM_KEY_TRACE, docs/serve.md).
_KEEP = {"WARROOM_FUZZ", "WARROOM_FUZZ_SCALE", "WARROOM_KEY_TRACE"}
_AMBIENT = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TEXTUAL_COLOR_SYSTEM", "LC_ALL", "LC_CTYPE")


@pytest.fixture(autouse=True)
def _clear_ambient_settings(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in list(os.environ):
        if (name.startswith("WARROOM_") and name not in _KEEP) or name in _AMBIENT:
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    # The drill picker's cache of each test (and of the warroom processes it starts) is its own, never the user's.
    monkeypatch.setenv("WARROOM_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(autouse=True)
def _sessions_play_the_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session of a drill with a twin draws signal or noise from its seed, a noise trial (the drill's healthy twin)
    one time in four (warroom.core.variants, ``DEFAULT_NOISE_RATE``): a test that plays a fault drill would see its
    fault only three times in four. Here sessions play their fault unless the test asks for a trial (``played_as``,
    ``--as``, a drill set's ``noise_rate``) or for the real draw (the :func:`real_noise_draw` fixture)."""
    from warroom.core.variants import _trial

    monkeypatch.setattr(_trial, "DEFAULT_NOISE_RATE", 0.0)


@pytest.fixture
def real_noise_draw(monkeypatch: pytest.MonkeyPatch) -> float:
    """Sessions draw signal or noise as warroom does (the default noise rate); returns that rate."""
    from warroom.core.variants import _trial

    monkeypatch.setattr(_trial, "DEFAULT_NOISE_RATE", _REAL_NOISE_RATE)
    return _REAL_NOISE_RATE


def _real_noise_rate() -> float:
    from warroom.core.variants import _trial

    return _trial.DEFAULT_NOISE_RATE


#: warroom's default noise rate, read before any test changes it.
_REAL_NOISE_RATE = _real_noise_rate()


#: Test files whose tests take many seconds each (real processes and servers, every bundled drill on screen, long
#: fuzz runs), slowest single test first (durations of 2026-12-01, benchmarks/README.md "Test-suite time"). They run
#: first: under ``-n auto --dist worksteal`` the workers share them out at the start (an idle worker takes half of a
#: busy one's queue), and the run ends on short tests instead of one worker finishing a 30-second test alone. A file
#: missing from the tree is ignored.
RUN_FIRST = (
    "tests/tui/test_hygiene_screens.py",
    "tests/tui/test_walkthrough.py",
    "tests/serve/test_browser.py",
    "tests/fuzz/test_loader_fuzz.py",
    "tests/tui/test_annotate.py",
    "tests/tui/test_terminal_lost.py",
    "tests/tui/test_exit_notes.py",
    "tests/tui/test_annotate_signals.py",
    "tests/serve/test_serve_http.py",
    "tests/unit/test_import_yamlemit.py",
    "tests/cli/test_import_cli.py",
    "tests/unit/test_annotate_items.py",
    "tests/unit/test_load_paths.py",
    "tests/tui/test_annotate_items.py",
    "tests/tui/test_keys_and_dialogs.py",
    "tests/tui/test_shape_large.py",
    "tests/tui/test_damage_meter.py",
    "tests/tui/test_shapes_origins_evidence.py",
    "tests/tui/test_annotate_mark_column.py",
    "tests/fuzz/test_journal_fuzz.py",
    "tests/tui/test_debrief_80x24.py",
    "tests/tui/test_shapes.py",
    "tests/unit/test_yamlrs_threads.py",
    "tests/unit/test_shape_drills.py",
    "tests/cli/test_scores_summary.py",
)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown when it is not loaded (-p no:xdist)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: two workers per core this process may run on. A terminal UI test spends most of its time asleep
    in Textual's pilot, which waits for the app to go idle in slices of 20 ms after every key and pause (as the real-
    process tests wait for their processes): with one worker per core the cores sit idle half the run (measured in
    benchmarks/README.md, "Test-suite time"). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still sets the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return 2 * cores


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the tests of :data:`RUN_FIRST` to the front, file by file in its order; each file's tests and every other
    test keep their order (a stable sort, so module-scoped fixtures still see their module's tests together)."""
    rank = {name: i for i, name in enumerate(RUN_FIRST)}
    root = config.rootpath

    def key(item: pytest.Item) -> int:
        try:
            name = item.path.relative_to(root).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(name, len(rank))

    items.sort(key=key)
