"""A results store on a full disk: every command says the disk is full and that nothing is lost, instead of calling
the store unusable. The real case mounts a small tmpfs (root only, skipped elsewhere)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections import namedtuple
from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.store.errors import FULL_DISK_BYTES, full_disk_message
from warroom.store.results import ResultsStore

Usage = namedtuple("Usage", "total used free")


def test_full_disk_message_only_for_a_full_disk(tmp_path, monkeypatch):
    db = tmp_path / "results.sqlite3"
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: Usage(10 << 20, 10 << 20, 4096))
    said = full_disk_message(db, sqlite3.OperationalError("disk I/O error"))
    assert said is not None and said.startswith(f"the disk holding {tmp_path} is full (4,096 bytes free)")
    assert f"sessions not stored yet stay in {tmp_path / 'journals'}" in said
    assert full_disk_message(db, sqlite3.OperationalError("no such table: sessions")) is None
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: Usage(1 << 30, 0, FULL_DISK_BYTES))
    assert full_disk_message(db, sqlite3.OperationalError("disk I/O error")) is None  # space left: another cause
    assert full_disk_message(db, sqlite3.OperationalError("database or disk is full")) is not None


@pytest.fixture
def small_disk(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    where = tmp_path / "disk"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def _fill(disk: Path) -> None:
    with open(disk / "filler", "wb", buffering=0) as f, contextlib.suppress(OSError):  # ENOSPC: the disk is full
        while True:
            f.write(b"x" * 1024)


def test_scores_and_sync_on_a_full_disk_say_so_and_keep_the_journal(small_disk):
    data = small_disk / "data"
    runner = CliRunner()
    ResultsStore(data).close()  # an empty store
    (data / "journals").mkdir(exist_ok=True)
    journal = data / "journals" / "20261201-120000-abcd.jsonl"
    journal.write_text("")  # stands for a session waiting to be stored
    _fill(small_disk)
    for args in (["scores"], ["store", "sync"], ["scores", "summary"]):
        result = runner.invoke(main, ["--data-dir", str(data), *args])
        assert result.exit_code == 1, result.output
        assert f"the disk holding {data} is full" in result.stderr, result.stderr
        assert "not a usable warroom results store" not in result.stderr
    assert journal.exists()
