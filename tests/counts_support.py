"""Checks of the cohort counts kept at write time (schema version 8, :mod:`warroom.store.counts`)."""

from __future__ import annotations

from typing import Any

from warroom.store.counts import COUNTS, KEY, LIVE, TABLE, recount_sql, unmake
from warroom.store.results import ResultsStore


def _rows(store: ResultsStore, sql: str) -> dict[tuple[Any, ...], tuple[int, ...]]:
    width = len(KEY)
    return {tuple(r[:width]): tuple(int(v) for v in r[width:]) for r in store._conn.execute(sql).fetchall()}


def kept_counts(store: ResultsStore) -> dict[tuple[Any, ...], tuple[int, ...]]:
    """The table's rows of keys that have sessions: key -> counts."""
    return _rows(store, f"SELECT {', '.join(KEY + COUNTS)} FROM {TABLE} WHERE {LIVE}")


def assert_counts_exact(store: ResultsStore) -> dict[tuple[Any, ...], tuple[int, ...]]:
    """Assert the kept counts equal a recount of every stored session, and that no key's count went below zero;
    returns them."""
    kept = kept_counts(store)
    assert kept == _rows(store, recount_sql()), "the kept counts differ from a recount of the sessions"
    below = store._conn.execute(f"SELECT count(*) FROM {TABLE} WHERE n < 0").fetchone()[0]
    assert below == 0
    return kept


def as_version_7(store: ResultsStore) -> None:
    """Turn the open store back into schema version 7: no counts table, no triggers keeping it."""
    for statement in unmake(store.dialect):
        store._conn.execute(statement)
    if store.dialect.name == "sqlite":
        store._conn.execute("PRAGMA user_version = 7")
    else:
        store._conn.execute("UPDATE warroom_schema SET version = 7")
