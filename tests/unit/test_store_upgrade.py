"""Upgrading a results store of schema version 20 to this one in one go (both back ends): the schema it ends at is a
new store's (the ``chosen`` column, both indexes the statistics read, read alone by the first-attempt query), each
index is built once (migration 21's indexes, which 23 remakes, are not built first), and an upgrade that fails
half-way leaves the store at version 20, upgraded by the next opening."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from stats_support import add

from warroom.store.errors import StoreError
from warroom.store.results import SCHEMA_VERSION, ResultsStore
from warroom.store.results import _migrations as migrations

INDEXES = ("ix_sessions_attempts", "ix_sessions_facts")


def _fill(store: ResultsStore) -> None:
    for i in range(6):
        add(store, f"s{i}", f"t{i % 2}", f"d{i % 3}", "contained" if i % 2 else "wrong_step", 90 if i % 2 else 20,
            ttd=5.0 if i % 2 else None, mode="practice", day=1 + i)  # fmt: skip


def _definitions(store: ResultsStore) -> dict[str, str]:
    """The definitions of the statistics' two indexes as the database keeps them."""
    if store.dialect.name == "sqlite":
        sql = "SELECT name, sql FROM sqlite_master WHERE name IN (?, ?)"
    else:
        sql = "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname IN (?, ?)"
    return {name: " ".join(text.split()) for name, text in store.db.conn.execute(sql, INDEXES)}


def _as_version_20(store: ResultsStore) -> None:
    """Turn the open store back into schema version 20: no ``chosen`` column nor check of migration 22, the two
    indexes as version 12 made them."""
    from store_support import make_attempts_index, set_version

    from warroom.store.results._migrations import FACTS_INDEX_21

    conn = store.db.conn
    for index in INDEXES:
        conn.execute(f"DROP INDEX {index}")
    conn.execute("ALTER TABLE sessions DROP COLUMN chosen")
    conn.execute(FACTS_INDEX_21.replace(", stored_seq)", ")"))
    make_attempts_index(store, "trainee, drill_id, started_at, session_id")
    if store.dialect.name != "sqlite":
        conn.execute("ALTER TABLE sessions DROP CONSTRAINT sessions_ends_after_start")
    set_version(store, 20)


def _version_20_store(tmp_path: Path, url: str | None) -> dict[str, str]:
    """A store of schema version 20 holding six sessions; returns the index definitions of a new store."""
    with ResultsStore(tmp_path, url=url) as store:
        _fill(store)
        new = _definitions(store)
        _as_version_20(store)
        assert "stored_seq" not in _definitions(store)["ix_sessions_facts"]
    return new


def _first_attempt_plan(store: ResultsStore) -> str:
    """The plan of the first-attempt query (each back end's), as text."""
    conn = store.db.conn
    if store.dialect.name == "sqlite":
        from warroom.store.cohort._count import _FIRST_SQL, ATTEMPTS_INDEX

        sql = _FIRST_SQL.format(within="1 = 1", counted="1 = 1", hint=f" INDEXED BY {ATTEMPTS_INDEX}", where="")
        return "\n".join(r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
    from warroom.store.cohort._postgres import FIRST_SQL

    conn.execute("VACUUM ANALYZE sessions")  # the visibility map an index-only scan needs (autovacuum's work)
    conn.execute("BEGIN")
    try:
        conn.execute("SET LOCAL enable_seqscan = off")  # six rows: the planner would read the table, being small
        conn.execute("SET LOCAL enable_bitmapscan = off")
        return "\n".join(r[0] for r in conn.execute(f"EXPLAIN {FIRST_SQL.format(where='')}"))
    finally:
        conn.execute("ROLLBACK")


def test_an_upgrade_from_20_ends_at_a_new_stores_schema_read_from_the_index_alone(
    tmp_path: Path, backend_url: str | None
):
    new = _version_20_store(tmp_path, backend_url)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION == 25
        assert _definitions(store) == new
        assert {r[0] for r in store.db.conn.execute("SELECT chosen FROM sessions")} == {0}
        plan = _first_attempt_plan(store)
        assert ("COVERING INDEX ix_sessions_attempts" if store.dialect.name == "sqlite"
                else "Index Only Scan using ix_sessions_attempts") in plan, plan  # fmt: skip
        assert store.count() == 6


def test_each_index_is_built_once_in_an_upgrade_past_23(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """Migration 21's step (both indexes ordered by ``stored_seq``) is left out of an upgrade that goes on to 23,
    which remakes both: at 1,000,000 sessions on PostgreSQL each step takes about half a minute."""
    ran: list[int] = []

    def counted(version: int) -> Any:
        step = migrations.BACKFILLS[version]

        def run(conn: Any, dialect: Any) -> None:
            ran.append(version)
            step(conn, dialect)

        return run

    for version in (20, 21, 22, 23):
        monkeypatch.setitem(migrations.BACKFILLS, version, counted(version))
    new = _version_20_store(tmp_path, backend_url)
    ran.clear()
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert _definitions(store) == new
    assert ran == [22, 23]
    assert 21 in migrations.backfills_to(21) and 21 in migrations.backfills_to(22)  # (an upgrade stopping there)


def test_an_upgrade_failing_half_way_leaves_version_20_and_the_next_opening_upgrades(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """Migration 23 fails after building its indexes (a crash, a full disk): the whole upgrade is undone, the store
    keeps version 20 and its indexes, and opening it again upgrades it."""
    new = _version_20_store(tmp_path, backend_url)
    with ResultsStore(tmp_path, url=backend_url, upgrade=False) as store:
        old = _definitions(store)
    step = migrations.BACKFILLS[23]

    def failing(conn: Any, dialect: Any) -> None:
        step(conn, dialect)
        conn.execute("SELECT no_such_column FROM sessions")

    monkeypatch.setitem(migrations.BACKFILLS, 23, failing)
    with pytest.raises(StoreError, match="no_such_column"):
        ResultsStore(tmp_path, url=backend_url)
    with ResultsStore(tmp_path, url=backend_url, upgrade=False) as store:
        assert store.schema_version == 20
        assert _definitions(store) == old
    monkeypatch.setitem(migrations.BACKFILLS, 23, step)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == 25 and _definitions(store) == new
