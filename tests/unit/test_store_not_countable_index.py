"""Schema migration 24: the partial index of the sessions that cannot be counted (``ix_sessions_not_countable``),
which migration 7 makes, is made for a store that lacks it. Schema version 7 was first released (commit cd9c2a8c)
without it; a store made by that release went on to later versions without it (migration 7 is not run again), and
the summary then either failed (its SQLite hint named a missing index) or read every row to find those few."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from stats_support import add
from store_support import set_version

from warroom.store.cohort import cohort_stats
from warroom.store.results import NOT_COUNTABLE_INDEX, SCHEMA_VERSION, ResultsStore


def _first_version_7_store(data: Path, url: str | None) -> None:
    """A store as schema 7's first release made it: migrations 1 to 7 and their steps, without migration 7's index
    of the sessions that cannot be counted (which that release did not have)."""
    from warroom.store.backends import SQLITE, connect, migrate_schema
    from warroom.store.results._migrations import MIGRATIONS, backfills_to

    first = {v: MIGRATIONS[v] for v in range(1, 8)}
    if url is None:
        db = sqlite3.connect(data / "results.sqlite3", isolation_level=None)
        for v, script in first.items():
            for statement in SQLITE.ddl(script):
                db.execute(statement)
            if v in backfills_to(7):
                backfills_to(7)[v](db, SQLITE)
        db.execute(f"DROP INDEX {NOT_COUNTABLE_INDEX}")
        db.execute("PRAGMA user_version = 7")
        db.close()
        return
    conn = connect(url)
    try:
        migrate_schema(conn, first, 7, backfills_to(7))
        conn.execute(f"DROP INDEX {NOT_COUNTABLE_INDEX}")
    finally:
        conn.close()


def _upgraded_without_the_index(data: Path, url: str | None) -> None:
    """A store of schema version 23 as an upgrade from that release left it: every other index, not that one."""
    with ResultsStore(data, url=url) as store:
        store.db.conn.execute(f"DROP INDEX {NOT_COUNTABLE_INDEX}")
        set_version(store, 23)


def _index_definition(store: ResultsStore) -> str | None:
    if store.dialect.name == "sqlite":
        sql = "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?"
    else:
        sql = "SELECT indexdef FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()"
    row = store.db.conn.execute(sql, (NOT_COUNTABLE_INDEX,)).fetchone()
    return None if row is None else str(row[0])


@pytest.mark.parametrize("made", [_first_version_7_store, _upgraded_without_the_index], ids=["7", "23"])
def test_an_upgrade_makes_the_index_the_first_schema_7_lacked(tmp_path: Path, backend_url: str | None, made):
    made(tmp_path, backend_url)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        definition = _index_definition(store)
        assert definition is not None and "countable IS NOT TRUE" in definition, definition
        add(store, "ok", "ann", "d1", "contained", 90, ttd=5.0)
        add(store, "odd", "bob", "d1", "contained", 90, ttd=5.0)
        store.db.conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'odd'")  # cannot be counted
        got = cohort_stats(store)
        assert [t.trainee for t in got.stats.trainees] == ["ann"]
        assert len(got.problems) == 1 and "stored session odd" in str(got.problems[0]), got.problems


def test_a_store_that_has_the_index_keeps_it_as_it_is(tmp_path: Path, backend_url: str | None):
    """Migration 24 on a store that has the index (every store made by warroom since schema 7's second release)
    changes nothing."""
    with ResultsStore(tmp_path, url=backend_url) as store:
        before = _index_definition(store)
        set_version(store, 23)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION and _index_definition(store) == before is not None
