"""Damaged stores and unusable data directories: one clear message naming the file, exit status 1, in every command
that opens the store (`warroom`, `run`, `scores`, `review`); and values that do not fit the store never get in."""

from __future__ import annotations

import json
import math
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import DRILL_ID, add_session, known_sessions, scorecard

from warroom.cli import main
from warroom.store.datadir import DB_NAME
from warroom.store.errors import DamagedStore, DataDirError, InvalidSession, StoreError
from warroom.store.results import ResultsStore, SessionInfo


@pytest.fixture(autouse=True)
def no_terminal_ui(monkeypatch):
    """The terminal UI must never start in these tests: the store is checked before it would."""
    import warroom.tui.app

    def launch(*args: object, **kwargs: object) -> None:
        raise AssertionError("the terminal UI was started")

    monkeypatch.setattr(warroom.tui.app, "launch", launch)


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def every_command(data_dir: Path) -> dict[str, object]:
    """The result of each command that opens the store, on ``data_dir`` given as ``$WARROOM_DATA_DIR`` (the terminal
    UI never starts: the store is checked before it would)."""
    env = {"WARROOM_DATA_DIR": str(data_dir)}
    return {
        "warroom": invoke(env=env),
        "run": invoke("run", DRILL_ID, env=env),
        "scores": invoke("scores", "--limit", "0", env=env),
        "scores --summary": invoke("scores", "--summary", env=env),
        "scores --format json": invoke("scores", "--format", "json", env=env),
        "review": invoke("review", "s1", env=env),
        "report": invoke("report", "--output", str(data_dir.parent / "report.html"), env=env),
    }


def assert_clear_failure(data_dir: Path, *needles: str) -> None:
    for name, r in every_command(data_dir).items():
        assert r.exit_code == 1, (name, r.exit_code, r.output)
        assert ("Traceback" not in r.output and r.exception is None) or isinstance(r.exception, SystemExit), name
        for needle in needles:
            assert needle in r.output, (name, needle, r.output)


def many_sessions(data_dir: Path, n: int = 300) -> None:
    with ResultsStore(data_dir) as store:
        for i in range(n):
            started_at = f"2026-11-01T10:{i // 60:02d}:{i % 60:02d}+00:00"
            add_session(store, f"s{i}", trainee=f"t{i % 7}", started_at=started_at,
                        total=i % 101)  # fmt: skip


# -- item 5: damaged stores ----------------------------------------------------------------------------------------


def test_a_store_damaged_in_the_middle_is_a_clear_error_in_every_command(tmp_path: Path):
    many_sessions(tmp_path)
    db = tmp_path / DB_NAME
    size = db.stat().st_size
    assert not (tmp_path / f"{DB_NAME}-wal").exists() or (tmp_path / f"{DB_NAME}-wal").stat().st_size == 0
    page = 4096
    middle = (size // 2 // page) * page
    with open(db, "r+b") as f:  # overwrite a whole page in the middle of the file with noise
        f.seek(middle)
        f.write(bytes((i * 37 + 11) % 256 for i in range(page)))
    damaged = db.read_bytes()
    with ResultsStore(tmp_path, create=False) as store, pytest.raises(DamagedStore, match="is damaged"):
        store.verify()
    assert_clear_failure(tmp_path, str(db), "is damaged", "Move it aside", "journals")
    assert db.read_bytes() == damaged  # never modified


def test_a_sessions_table_missing_a_column_is_a_clear_error(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("ALTER TABLE sessions DROP COLUMN cost_usd")
    db.close()
    with pytest.raises(DamagedStore, match="has no column cost_usd in its sessions table"):
        ResultsStore(tmp_path)
    assert_clear_failure(tmp_path, str(tmp_path / DB_NAME), "no column cost_usd", "Move it aside")


def test_a_store_without_a_sessions_table_is_a_clear_error(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("ALTER TABLE sessions RENAME TO old_sessions")
    db.close()
    assert_clear_failure(tmp_path, "has no sessions table")


def test_a_data_directory_that_is_a_file_is_a_clear_error(tmp_path: Path):
    data = tmp_path / "data"
    data.write_text("not a folder\n")
    with pytest.raises(DataDirError, match="is a file, not a folder"):
        ResultsStore(data)
    assert_clear_failure(data, f"the data directory {data} is a file, not a folder", "--data-dir")
    r = invoke("scores", "--data-dir", str(data))  # refused by the option itself (a usage error)
    assert r.exit_code == 2 and "is a file" in r.output
    assert data.read_text() == "not a folder\n"


def test_a_results_file_that_is_a_folder_is_a_clear_error(tmp_path: Path):
    (tmp_path / DB_NAME).mkdir()
    assert_clear_failure(tmp_path, f"{tmp_path / DB_NAME} is not a regular file")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any folder")
def test_a_data_directory_without_access_is_a_clear_error(tmp_path: Path):
    data = tmp_path / "data"
    with ResultsStore(data) as store:
        known_sessions(store)
    data.chmod(0)
    try:
        assert_clear_failure(data, f"cannot read or write or open the folder {data}", "belongs to")
    finally:
        data.chmod(0o755)


def test_a_data_directory_of_another_user_is_a_clear_error_simulated(tmp_path: Path, monkeypatch):
    """As root every access is allowed, so the refusal is simulated where warroom asks the system."""
    from warroom.store import datadir

    data = tmp_path / "data"
    with ResultsStore(data) as store:
        known_sessions(store)
    monkeypatch.setattr(datadir, "_can", lambda path, mode: Path(path) != data or mode == os.R_OK)
    assert_clear_failure(data, f"cannot write or open the folder {data}", "belongs to", "mode d", "chmod")


def test_a_results_file_without_write_access_is_a_clear_error_simulated(tmp_path: Path, monkeypatch):
    from warroom.store import datadir

    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    db = tmp_path / DB_NAME
    monkeypatch.setattr(datadir, "_can", lambda path, mode: Path(path) != db or mode != os.W_OK)
    assert_clear_failure(tmp_path, f"cannot write the file {db}")


def test_a_wal_file_removed_while_it_is_checked_is_no_problem(tmp_path: Path, monkeypatch):
    """Another warroom closing the store removes its -wal file between our stat and our access check (a race
    seen with four writers): that is not a permission problem."""
    from warroom.store import datadir

    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    wal = tmp_path / f"{DB_NAME}-wal"
    wal.write_bytes(b"")

    def removed_meanwhile(path: Path, mode: int) -> bool:
        if Path(path) == wal:
            wal.unlink(missing_ok=True)
            return False
        return True

    monkeypatch.setattr(datadir, "_can", removed_meanwhile)
    assert datadir.data_dir_problem(tmp_path) is None


def test_an_unused_data_directory_is_fine_and_a_missing_one_is_created_only_when_needed(tmp_path: Path):
    r = invoke("scores", "--data-dir", str(tmp_path / "nowhere"))
    assert r.exit_code == 0 and "No sessions recorded yet" in r.output
    assert not (tmp_path / "nowhere").exists()


# -- item 8: values that do not fit the store ----------------------------------------------------------------------


INFO = SessionInfo("x1", "ann", "A", 1, None, None, "2026-11-01T10:00:00.000000+00:00")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"total": "abc"}, "total"),
        ({"total": 10**30}, "total"),
        ({"total": 101}, "total"),
        ({"damage": math.nan}, "damage"),
        ({"time_to_detect": 1e308}, "time_to_detect"),
        ({"false_escalations": -1}, "false_escalations"),
        ({"cost_usd": math.inf}, "cost_usd"),
    ],
)
def test_a_scorecard_with_bad_values_is_refused_and_nothing_is_stored(tmp_path: Path, change: dict, field: str):
    from dataclasses import replace

    card = replace(scorecard(drill_id="A"), **change)
    with ResultsStore(tmp_path) as store:
        with pytest.raises(InvalidSession, match=f"session x1 was not stored: {field}"):
            store.insert(INFO, card, [], ended_at=None)
        assert store.count() == 0
        add_session(store, "x2", trainee="ann")
        with pytest.raises(InvalidSession, match=f"session x2 was not updated: {field}"):
            store.update_scorecard("x2", card)
        assert store.get("x2").total == 80


@pytest.mark.parametrize(
    "info",
    [
        SessionInfo("x1", "", "A", 1, None, None, "2026-11-01T10:00:00+00:00"),
        SessionInfo("x1", "ann", "A", 1, 12345, None, "2026-11-01T10:00:00+00:00"),  # type: ignore[arg-type]
        SessionInfo("x1", "ann", "A", 1, None, None, "yesterday"),
        SessionInfo("../x1", "ann", "A", 1, None, None, "2026-11-01T10:00:00+00:00"),
        SessionInfo("x1", None, "A", 1, None, None, "2026-11-01T10:00:00+00:00"),  # type: ignore[arg-type]
    ],
)
def test_session_start_values_are_checked_on_write(tmp_path: Path, info: SessionInfo):
    with ResultsStore(tmp_path) as store:
        with pytest.raises(InvalidSession):
            store.insert(info, scorecard(drill_id="A"), [], ended_at=None)
        assert store.count() == 0


def test_only_the_same_session_is_ignored_every_other_failure_is_raised(tmp_path: Path, monkeypatch):
    """A NOT NULL violation (here with the value check switched off) is an error, never a quiet 'already stored'."""
    from warroom.store.results import _writes as writes

    monkeypatch.setattr(writes, "_check_row", lambda session_id, values: None)
    bad = SessionInfo("x1", None, "A", 1, None, None, "2026-11-01T10:00:00+00:00")  # type: ignore[arg-type]
    with ResultsStore(tmp_path) as store:
        with pytest.raises(StoreError, match=r"NOT NULL constraint failed: sessions\.trainee"):
            store.insert(bad, scorecard(drill_id="A"), [], ended_at=None)
        assert store.count() == 0


def poison(data_dir: Path, sql: str) -> None:
    db = sqlite3.connect(data_dir / DB_NAME)
    with db:
        db.execute(sql)
    db.close()


def test_a_poisoned_row_is_skipped_and_reported_in_every_read(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    poison(tmp_path, "UPDATE sessions SET total = 'abc' WHERE session_id = 's6'")
    poison(tmp_path, "UPDATE sessions SET outcome = 'won' WHERE session_id = 's1'")

    r = invoke("scores", "--data-dir", str(tmp_path))
    assert r.exit_code == 1
    assert "s6" not in r.stdout and "s1 " not in r.stdout and "s7" in r.stdout
    assert "skipped: stored session s6 cannot be read: total: Input should be a valid integer (got 'abc')" in r.stderr
    assert "skipped: stored session s1 cannot be read: outcome: not an outcome" in r.stderr

    r = invoke("scores", "--summary", "--format", "json", "--data-dir", str(tmp_path))
    assert r.exit_code == 1 and "Traceback" not in r.output
    figures = json.loads(r.stdout)
    bob = next(t for t in figures["trainees"] if t["trainee"] == "bob")
    assert bob["sessions"] == 2 and bob["mean_score"] == (20 + 30) / 2  # s6 (bob, 85) left out
    ann = next(t for t in figures["trainees"] if t["trainee"] == "ann")
    assert ann["sessions"] == 3  # s1 left out
    assert "skipped: stored session s1" in r.stderr and "skipped: stored session s6" in r.stderr
    assert "2 stored sessions could not be counted and were left out" in r.stderr

    r = invoke("scores", "--summary", "--data-dir", str(tmp_path))
    assert r.exit_code == 1 and "Per trainee" in r.stdout

    with ResultsStore(tmp_path) as store:
        assert store.best_scores("bob") == {"A": 20, "C": 30}  # s6's 'abc' is not a best score
        assert [p.session_id for p in store.invalid_rows()] == ["s1", "s6"]

    r = invoke("review", "s6", "--data-dir", str(tmp_path))
    assert r.exit_code == 1 and "stored session s6 cannot be read" in r.output and "Traceback" not in r.output
