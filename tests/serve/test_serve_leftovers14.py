"""What the fourteenth stop left in the served room (issue 30): the serve host died of a SIGBUS when its data folder
became immutable under it (``chattr -R +i``): SQLite memory-maps the WAL index (``results.sqlite3-shm``) of the
live table's connection, which the host kept open, and closing it after a failed write wrote into that map.

The live table's connection now lives in a child process (:mod:`warroom.serve._livestore`). The first test
simulates the fault at that layer (the child killed by SIGBUS, which is what the kernel does to it); the second
makes the folder immutable for real where the machine allows it (root and ``chattr`` on a file system with the
immutable attribute), as the campaign did."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from warroom.serve import LiveClass


def _live(tmp_path: Path) -> LiveClass:
    live = LiveClass("lab:8000#abc123", tmp_path)
    live.tab_opened("tab-1", "ann", None)
    return live


def test_a_fault_of_the_live_tables_connection_ends_its_child_not_the_host(tmp_path: Path) -> None:
    live = _live(tmp_path)
    try:
        live.tick()
        assert live.problem is None and [r.trainee for r in live.snapshot] == ["ann"]
        assert live._store is not None and live._store.pid not in (None, os.getpid())
        os.kill(live._store.pid, signal.SIGBUS)  # what the kernel does on a write into a map it cannot back
        live.tick(datetime.now(UTC) + timedelta(seconds=3))
        assert live.problem is not None and "killed by SIGBUS" in live.problem
        assert "read-only or immutable" in live.problem
        assert [(r.trainee, r.tab) for r in live.snapshot] == [("ann", "tab-1")]  # this host's own tabs
        live.tick(datetime.now(UTC) + timedelta(seconds=6))  # a new child: the table is written and read again
        assert live.problem is None and [r.tab for r in live.snapshot] == ["tab-1"]
    finally:
        live._forget()


def _chattr(*args: str) -> bool:
    return subprocess.run(["chattr", *args], capture_output=True).returncode == 0


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("chattr") is None, reason="chattr +i needs root")
def test_a_data_folder_made_immutable_under_the_host_leaves_it_serving(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    live = _live(data)
    live.tick()
    assert live.problem is None
    if not _chattr("-R", "+i", str(data)):
        live._forget()
        pytest.skip("this file system has no immutable attribute")
    try:
        live.tick(datetime.now(UTC) + timedelta(seconds=3))  # a heartbeat: a write, which fails, then the close
        assert live.problem is not None
        assert [r.tab for r in live.snapshot] == ["tab-1"]
    finally:
        _chattr("-R", "-i", str(data))
        live._forget()
