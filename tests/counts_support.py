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


def as_version_8(store: ResultsStore) -> None:
    """PostgreSQL: turn the open store back into schema version 8, whose row triggers upserted each row's counts in
    the order of the rows (the definition migration 8 made before version 9 replaced it)."""
    from warroom.store.counts import FUNCTION, TRIGGERS, _changed, _upsert

    conn = store._conn
    body = (
        f"BEGIN IF TG_OP <> 'INSERT' THEN {_upsert('OLD.', '-')}; END IF; "
        f"IF TG_OP <> 'DELETE' THEN {_upsert('NEW.', '')}; END IF; RETURN NULL; END"
    )
    for trigger in TRIGGERS:
        conn.execute(f"DROP TRIGGER {trigger} ON sessions")
    conn.execute(f"CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $body$ {body} $body$")
    insert, update, delete = TRIGGERS
    row = f"FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()"
    conn.execute(f"CREATE TRIGGER {insert} AFTER INSERT ON sessions {row}")
    conn.execute(f"CREATE TRIGGER {update} AFTER UPDATE ON sessions FOR EACH ROW WHEN ({_changed(store.dialect)}) "
                 f"EXECUTE FUNCTION {FUNCTION}()")  # fmt: skip
    conn.execute(f"CREATE TRIGGER {delete} AFTER DELETE ON sessions {row}")
    conn.execute("UPDATE warroom_schema SET version = 8")


def row_triggers(store: ResultsStore) -> dict[str, bool]:
    """PostgreSQL: the counts' triggers on ``sessions`` -> whether each is a row trigger (not a statement one)."""
    from warroom.store.counts import TRIGGERS

    sql = "SELECT tgname, tgtype & 1 = 1 FROM pg_trigger WHERE tgrelid = to_regclass('sessions') AND NOT tgisinternal"
    return {name: bool(row) for name, row in store._conn.execute(sql).fetchall() if name in TRIGGERS}
