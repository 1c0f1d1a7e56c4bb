"""What a trainee's PostgreSQL role reads of the class from the server's catalogs and statistics (docs/cohorts.md,
"What the catalogs tell a trainee"): how many rows the results tables hold (the class's sessions, counted by
`pg_stat_user_tables` and `pg_class`), which row-level security cannot hide and a store's owner cannot revoke; and
nothing of their values (the planner's statistics of the columns, `pg_stats`, which hold trainee names among their
most common values, show a trainee nothing of a table under row-level security)."""

from __future__ import annotations

from pathlib import Path

import psycopg
from pg_support import PostgresServer, as_role, secured_roles
from store_support import add_session

from warroom.store.results import ResultsStore


def test_a_trainee_role_reads_how_many_sessions_the_class_has_and_nothing_else(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    ann, _ = secured_roles(postgres_server, store_url, tmp_path)
    with ResultsStore(tmp_path, url=store_url) as store:  # the owner, as a serve host or `store import` stores them
        add_session(store, "s-ann", trainee=ann, total=80)
        for n in range(4):
            add_session(store, f"s-bob-{n}", trainee="bob", total=40, started_at=f"2026-11-0{n + 2}T10:00:00+00:00")
    with psycopg.connect(store_url, autocommit=True) as owner:  # as autovacuum does in its time: counts now
        owner.execute("ANALYZE sessions")  # sets pg_class.reltuples and the statistics' live rows, at once
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM sessions").fetchone() == (1,)  # row-level security: ann's own
        counted = conn.execute(
            "SELECT n_live_tup FROM pg_stat_user_tables WHERE relid = 'sessions'::regclass"
        ).fetchone()
        assert counted == (5,)  # the known leak: the whole class's sessions
        assert conn.execute("SELECT reltuples FROM pg_class WHERE oid = 'sessions'::regclass").fetchone() == (5.0,)
        for view in ("pg_stats", "pg_stats_ext"):  # no value: no trainee's name, score or drill
            rows = conn.execute(
                f"SELECT count(*) FROM {view} WHERE schemaname = current_schema() AND tablename = 'sessions'"
            ).fetchone()
            assert rows == (0,), view
    with psycopg.connect(store_url, autocommit=True) as owner:
        assert owner.execute(
            "SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'sessions'"
        ).fetchone()[0] > 0  # the owner's: they exist, the trainee is not shown them
