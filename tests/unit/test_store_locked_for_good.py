"""A results store locked for good by another process (a transaction left open): every command gives up after the
busy timeout with a message, instead of retrying 200 times the busy timeout (an hour and a half)."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner
from store_support import bundled_drill_path, load

import warroom.store.results._connection as schema
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.play import Replay
from warroom.store.journal import SessionRecorder


def test_retry_stops_at_the_busy_timeout(monkeypatch):
    now = [0.0]
    calls = []

    def locked() -> None:  # each attempt waits the busy timeout, then SQLite says locked
        calls.append(now[0])
        now[0] += schema.BUSY_TIMEOUT_S
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(schema.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(schema.time, "sleep", lambda s: None)
    try:
        schema.StoreConnection.retry(locked)
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
    assert len(calls) == 1  # not 200


def test_a_store_locked_by_another_process_is_named_not_waited_on_for_ever(tmp_path, monkeypatch):
    drill_path = bundled_drill_path()
    drill = load(drill_path)
    rec = SessionRecorder.start(tmp_path, "ann", drill_path, drill)  # a session killed mid-drill: to recover
    Replay(drill, on_action=rec.record).advance(5)
    rec.record(Action(t=5.0, kind=ActionKind.PAUSE))
    rec.close()
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(tmp_path / "results.sqlite3", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "store", "sync"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 1, result.output
    assert "locked" in result.stderr and "Traceback" not in result.output
    assert "could not recover" in result.stderr
    assert len(list((tmp_path / "journals").glob("*.jsonl"))) == 1  # kept for the next start
