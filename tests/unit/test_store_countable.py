"""warroom.store.results._countable: each stored session's ``countable`` flag (schema version 7) always equals the row
checks
of the cohort statistics, whichever way the row was written (insert, re-score, import, deletion, a hand edit, a
raw INSERT), on both back ends, and migration 7 fills it for the sessions already stored."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from stats_support import add, cohort
from store_support import scorecard

from warroom.store.backends import POSTGRESQL, SQLITE
from warroom.store.cohort import FactsQuery, cohort_stats
from warroom.store.cohort._facts import FACTS_INDEX
from warroom.store.results import COLUMN, NOT_COUNTABLE_INDEX, ResultsStore, import_lines, write_export
from warroom.store.results._countable import TRIGGERS, flag_sql


def _flags(store: ResultsStore) -> dict[str, tuple[bool, bool]]:
    """session id -> (its stored flag, the checks evaluated now); a NULL flag or check is False."""
    sql = f"SELECT session_id, {COLUMN}, ({flag_sql(store.dialect)}) FROM sessions"
    return {r[0]: (bool(r[1]), bool(r[2])) for r in store.db.conn.execute(sql).fetchall()}


def _assert_flags_follow_the_checks(store: ResultsStore) -> dict[str, bool]:
    flags = _flags(store)
    assert flags, "no session stored"
    wrong = {sid: pair for sid, pair in flags.items() if pair[0] != pair[1]}
    assert not wrong, f"flags that differ from the checks: {wrong}"
    return {sid: stored for sid, (stored, _) in flags.items()}


def _expected(store: ResultsStore, include_unverified: bool = False):
    """The statistics of every session read one by one (a first attempt that cannot be counted leaves its drill
    without a trial: tests/unit/test_issue30_results_leftovers.py)."""
    from warroom.store.cohort._count import facts_stats

    got = facts_stats(store, FactsQuery(include_unverified=include_unverified), "auto")
    return got.stats, got.counted, got.matched, sorted(map(str, got.problems))


def _same_as_every_session(store: ResultsStore, include_unverified: bool = False) -> None:
    got = cohort_stats(store, FactsQuery(include_unverified=include_unverified))
    expected = _expected(store, include_unverified)
    assert (got.stats, got.counted, got.matched, sorted(map(str, got.problems))) == expected


def test_the_flag_follows_every_write(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        assert set(_assert_flags_follow_the_checks(store).values()) == {True}  # stored by ResultsStore.insert
        conn = store.db.conn
        conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")  # contained in an all-clear drill
        conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'eve-c'")  # not a mode
        conn.execute("UPDATE sessions SET distractors_shown = -1 WHERE session_id = 'cy-a'")  # figures marked bad
        conn.execute("UPDATE sessions SET total = 101 WHERE session_id = 'dee-a'")  # out of range
        if store.dialect.name == "sqlite":
            conn.execute("UPDATE sessions SET total = 'lots' WHERE session_id = 'ben-a'")  # the wrong type
        flags = _assert_flags_follow_the_checks(store)
        bad = {"ada-b", "eve-c", "cy-a", "dee-a"} | ({"ben-a"} if store.dialect.name == "sqlite" else set())
        assert {sid for sid, ok in flags.items() if not ok} == bad
        _same_as_every_session(store)

        conn.execute("UPDATE sessions SET total = 40 WHERE session_id = 'dee-a'")  # mended by hand: counted again
        if store.dialect.name == "sqlite":  # (PostgreSQL refuses to set a generated column)
            conn.execute(f"UPDATE sessions SET {COLUMN} = NULL WHERE session_id = 'ada-a'")  # the flag changed by hand
        store.update_scorecard("eve-a", scorecard(outcome="missed", total=12, ttd=None, drill_id="A"))  # a re-score
        flags = _assert_flags_follow_the_checks(store)
        assert flags["dee-a"] and flags["ada-a"] and flags["eve-a"] and not flags["ada-b"]
        _same_as_every_session(store)

        store.delete(["ada-b"])
        add(store, "new-a", "fay", "A", "contained", 77, ttd=9.0)
        conn.execute(
            "INSERT INTO sessions (session_id, trainee, drill_id, started_at, outcome, total, scorecard, actions) "
            "VALUES ('raw-a', 'gus', 'A', '2026-11-03T10:00:00+00:00', 'won', 50, '{}', '[]')"
        )  # written by another program: an outcome warroom does not know
        flags = _assert_flags_follow_the_checks(store)
        assert flags["new-a"] and not flags["raw-a"] and "ada-b" not in flags
        _same_as_every_session(store)


def test_import_recomputes_the_flag(tmp_path: Path, backend_url: str | None):
    """``store export`` does not carry the flag; the store the sessions are imported into computes it (a row broken
    by hand is imported, and flagged there)."""
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        store.db.conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")
        out = io.StringIO()
        assert write_export(store, out) == 16
        assert COLUMN not in out.getvalue()
        before = _expected(store)
        assert store.delete(list(_flags(store))) == 16
        result = import_lines(store, out.getvalue().splitlines(), "export.jsonl")
        assert (result.imported, result.refused) == (16, [])
        flags = _assert_flags_follow_the_checks(store)
        assert [sid for sid, ok in flags.items() if not ok] == ["ada-b"]
        assert _expected(store, include_unverified=True) == before  # counted when asked (issue 30: imported sessions
        _same_as_every_session(store, include_unverified=True)  # are not verified, and left out by default)
        assert cohort_stats(store).stats.trainees == [] and _expected(store)[2] == 0
        _same_as_every_session(store)


def _as_version_6(store: ResultsStore) -> None:
    """Turn the open store back into schema version 6: no flag, no triggers, version 5's facts index."""
    from warroom.store.results._migrations import MIGRATIONS as _MIGRATIONS

    conn = store.db.conn
    conn.execute(f"DROP INDEX {FACTS_INDEX}")
    conn.execute("DROP INDEX ix_sessions_attempts")  # (schema version 12's, and its column)
    conn.execute("ALTER TABLE sessions DROP COLUMN response")
    for trigger in TRIGGERS if store.dialect.name == "sqlite" else ():
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute(f"DROP INDEX {NOT_COUNTABLE_INDEX}")
    conn.execute(f"ALTER TABLE sessions DROP COLUMN {COLUMN}")
    index = [s for s in store.dialect.ddl(_MIGRATIONS[4]) if s.startswith("CREATE INDEX")]
    conn.execute(index[0])
    if store.dialect.name == "sqlite":
        conn.execute("PRAGMA user_version = 6")
    else:
        conn.execute("UPDATE warroom_schema SET version = 6")


def test_migration_7_flags_the_stored_sessions(tmp_path: Path, backend_url: str | None):
    from warroom.store.results import SCHEMA_VERSION

    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        store.db.conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'eve-c'")  # (then version 6)
        before = _expected(store)  # (read before the store is set back: this code reads version 12's columns)
        _as_version_6(store)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION
        flags = _assert_flags_follow_the_checks(store)
        assert [sid for sid, ok in flags.items() if not ok] == ["eve-c"]
        index_sql = _index_sql(store, FACTS_INDEX)
        assert COLUMN in index_sql, index_sql
        assert "countable IS NOT TRUE" in _index_sql(store, NOT_COUNTABLE_INDEX)
        got = cohort_stats(store)
        assert (got.stats, got.counted, got.matched, sorted(map(str, got.problems))) == before


def _index_sql(store: ResultsStore, index: str) -> str:
    if store.dialect.name == "sqlite":
        sql = "SELECT sql FROM sqlite_master WHERE name = ?"
    else:
        sql = "SELECT indexdef FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()"
    return str(store.db.conn.execute(sql, (index,)).fetchone()[0])


#: The checks the flag was defined with by migration 7 (sha-256 of :func:`flag_sql` per back end). A store keeps the
#: definition it was migrated with: a change to the checks needs a new migration that redefines the column and the
#: triggers, and then a new pair here.
MIGRATION_7_CHECKS = {
    "sqlite": "9185155360a02070fd417778b14d890d06f67bf236d37471a380dd1e1e3b1cf5",
    "postgresql": "9f121014f24cb483ccec275c0ddf9f838f7b4384368e2cc855a6408f6564c634",
}


def test_the_checks_are_those_migration_7_stored():
    got = {d.name: hashlib.sha256(flag_sql(d).encode()).hexdigest() for d in (SQLITE, POSTGRESQL)}
    assert got == MIGRATION_7_CHECKS, "the row checks changed: add a schema migration that redefines the flag"


def test_the_sqlite_insert_gives_every_column_the_checks_read(tmp_path: Path):
    """SQLite's insert computes the flag from the values it is given (countable.insert_sql): every table column the
    checks read must be among them, or the statement could not name it."""
    import re

    from warroom.store.results import _countable as countable

    with ResultsStore(tmp_path) as store:
        table = {r[1] for r in store.db.conn.execute("PRAGMA table_info(sessions)")}
    read = set(re.findall(r"\b(\w+)\b", flag_sql(SQLITE))) & table
    assert read == set(countable._CHECKED)
