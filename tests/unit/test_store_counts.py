"""warroom.store.counts: the cohort counts kept at write time (schema version 8) always equal a recount of the stored
sessions, whichever way a row was written (insert, re-score, deletion, import, a hand edit, a raw INSERT), on both
back ends; migration 8 fills them for the sessions already stored; the summary reads them when its filters are on
their key, and scans the sessions otherwise."""

from __future__ import annotations

import io
from pathlib import Path

from counts_support import as_version_7, assert_counts_exact, kept_counts
from stats_support import add, cohort
from store_support import scorecard

from warroom.store.cohort import cohort_stats
from warroom.store.counts import DRILL_TIMES_INDEX, TABLE, TRIGGERS
from warroom.store.facts import FactsQuery, counted_modes, read_facts
from warroom.store.results import ResultsStore
from warroom.store.transfer import import_lines, write_export


def _expected(store: ResultsStore, query: FactsQuery | None = None):
    from warroom.core.stats import summarize

    facts, problems = read_facts(store, query)
    counted = counted_modes(facts, "auto")
    return summarize(facts, modes=counted.modes), counted, len(facts), sorted(map(str, problems))


def _same_as_every_session(store: ResultsStore, query: FactsQuery | None = None) -> None:
    got = cohort_stats(store, query)
    assert (got.stats, got.counted, got.matched, sorted(map(str, got.problems))) == _expected(store, query)


def test_the_counts_follow_every_write(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        kept = assert_counts_exact(store)
        assert sum(c[1] for c in kept.values()) == store.count() == 16
        conn = store._conn
        conn.execute("UPDATE sessions SET all_clear = 1 WHERE session_id = 'ada-b'")  # cannot be counted any more
        conn.execute("UPDATE sessions SET mode = 'practice' WHERE session_id = 'eve-c'")  # another key
        conn.execute("UPDATE sessions SET trainee = 'zed', total = 3 WHERE session_id = 'cy-a'")
        conn.execute("""UPDATE sessions SET distractor_escalations = '["e7", "e7"]' WHERE session_id = 'dee-a'""")
        if store.dialect.name == "sqlite":
            conn.execute("UPDATE sessions SET total = 'lots' WHERE session_id = 'ben-a'")  # the wrong type
            conn.execute("UPDATE sessions SET countable = NULL WHERE session_id = 'ada-a'")  # the flag by hand
        assert_counts_exact(store)
        _same_as_every_session(store)

        store.update_scorecard("eve-a", scorecard(outcome="missed", total=12, ttd=None, drill_id="A"))  # a re-score
        store.update_scorecard("ben-b", scorecard(outcome="abandoned", total=0, ttd=None, drill_id="B"))
        assert_counts_exact(store)
        _same_as_every_session(store)

        store.delete(["ada-b", "cy-a"])
        add(store, "new-a", "fay", "A", "contained", 77, ttd=9.0)
        conn.execute(
            "INSERT INTO sessions (session_id, trainee, drill_id, started_at, outcome, total, scorecard, actions) "
            "VALUES ('raw-a', 'gus', 'A', '2026-11-03T10:00:00+00:00', 'won', 50, '{}', '[]')"
        )  # written by another program: an outcome warroom does not know
        conn.execute("UPDATE sessions SET notes = '[\"x\"]'")  # no column the counts read: the counts unchanged
        kept = assert_counts_exact(store)
        assert not any(key[2] == "zed" for key in kept)  # its only session deleted: its row has n = 0
        _same_as_every_session(store)
        _same_as_every_session(store, FactsQuery(trainee="eve"))
        _same_as_every_session(store, FactsQuery(drill="B", trainees=("ben", "eve")))


def test_import_fills_the_counts(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        before = assert_counts_exact(store)
        out = io.StringIO()
        assert write_export(store, out) == 16
        assert store.delete([r.session_id for r in store.query(limit=0)]) == 16
        assert kept_counts(store) == {}
        result = import_lines(store, out.getvalue().splitlines(), "export.jsonl")
        assert (result.imported, result.refused) == (16, [])
        assert import_lines(store, out.getvalue().splitlines(), "export.jsonl").imported == 0  # again: no double
        assert assert_counts_exact(store) == before


def test_emptying_the_sessions_empties_the_counts(tmp_path: Path, backend_url: str | None):
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        assert kept_counts(store)
        store._conn.execute("TRUNCATE sessions" if store.dialect.name == "postgresql" else "DELETE FROM sessions")
        assert kept_counts(store) == {} and assert_counts_exact(store) == {}
        add(store, "again-a", "fay", "A", "contained", 77, ttd=9.0)
        assert sum(c[1] for c in assert_counts_exact(store).values()) == 1


def test_the_summary_reads_the_counts_when_its_filters_are_on_their_key(tmp_path: Path, backend_url: str | None):
    """A count changed by hand in the table shows in a PostgreSQL summary with no filter or with key filters, not
    in one with ``--since`` (which scans the sessions): the table is what the summary reads. SQLite's summary
    always counts the sessions (cheaper there), so the change does not show."""
    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        reads_the_table = store.dialect.name == "postgresql"
        true_stats = cohort_stats(store).stats
        store._conn.execute(f"UPDATE {TABLE} SET score = score + 40 * played WHERE trainee = 'ada'")
        assert (cohort_stats(store).stats != true_stats) is reads_the_table
        ada = cohort_stats(store, FactsQuery(trainee="ada")).stats
        since = cohort_stats(store, FactsQuery(trainee="ada", since="2000-01-01T00:00:00+00:00")).stats
        assert (ada != since) is reads_the_table
        _same_as_every_session(store, FactsQuery(since="2000-01-01T00:00:00+00:00"))
        _same_as_every_session(store, FactsQuery(set_id="none"))


def test_migration_8_fills_the_counts_from_the_stored_sessions(tmp_path: Path, backend_url: str | None):
    from warroom.store.schema import SCHEMA_VERSION

    with ResultsStore(cohort(tmp_path), url=backend_url) as store:
        as_version_7(store)
        store._conn.execute("UPDATE sessions SET mode = 'exam' WHERE session_id = 'eve-c'")  # broken in version 7
        store.delete(["ada-a"])
        add(store, "late-a", "fay", "B", "missed", 10, ttd=None)
        before = _expected(store)
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.schema_version == SCHEMA_VERSION == 9
        kept = assert_counts_exact(store)
        assert sum(c[1] for c in kept.values()) == 16
        got = cohort_stats(store)
        assert (got.stats, got.counted, got.matched, sorted(map(str, got.problems))) == before
        store.delete(["late-a"])  # the triggers keep it from now on
        assert_counts_exact(store)
        if store.dialect.name == "sqlite":
            names = {r[0] for r in store._conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
            assert set(TRIGGERS) <= names
        else:  # the drills' medians' index
            sql = "SELECT indexdef FROM pg_indexes WHERE indexname = ? AND schemaname = current_schema()"
            index = store._conn.execute(sql, (DRILL_TIMES_INDEX,)).fetchone()[0]
            assert "(mode, drill_id) INCLUDE (outcome, time_to_detect, wall_time_to_detect)" in index


def test_roles_store_and_read_the_counts_as_they_store_and_read_sessions(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch
):
    """A trainee's insert keeps the counts (the triggers write as the table owner); a trainee's summary reads only
    their own counts (row-level security, given again by migration 8 to a store secured before it), a
    facilitator's all; without the right to read the table a summary scans the sessions it may read."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    from warroom.store.roles import secure

    def as_role(url: str, role: str) -> str:
        parts = urlsplit(url)
        return urlunsplit((parts.scheme, f"{role}@{parts.netloc.split('@', 1)[1]}", parts.path, parts.query, ""))

    monkeypatch.setenv("WARROOM_STORE", store_url)  # (the cohort is stored there too)
    tag = uuid.uuid4().hex[:8]
    ann, fac = f"ann_{tag}", f"fac_{tag}"
    with ResultsStore(cohort(tmp_path), url=store_url) as store:
        secure(store)
        as_version_7(store)  # secured before version 8: the migration gives the counts the same rights
    for role, group in ((ann, "warroom_trainee"), (fac, "warroom_facilitator")):
        postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group}")
    with ResultsStore(tmp_path, url=store_url) as store:
        assert store.schema_version == 9
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        add(store, "ann-a", ann, "A", "contained", 70, ttd=4.0)
        add(store, "ann-b", ann, "B", "missed", 20, ttd=None)
        assert {key[2] for key in kept_counts(store)} == {ann}
        _same_as_every_session(store)
        assert cohort_stats(store).matched == 2
    with ResultsStore(tmp_path, url=as_role(store_url, fac)) as store:
        store.update_scorecard("ann-b", scorecard(outcome="contained", total=60, ttd=5.0, drill_id="B"))
        store.delete(["ada-a"])
        _same_as_every_session(store)
        assert cohort_stats(store).matched == 17
    with ResultsStore(tmp_path, url=store_url) as store:
        assert_counts_exact(store)
        store._conn.execute(f"REVOKE SELECT ON {TABLE} FROM warroom_trainee")
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:  # no right to the counts: a scan
        _same_as_every_session(store)
        assert cohort_stats(store).matched == 2
