"""Benchmark: migrating a PostgreSQL results store of 1,000,000 sessions from an older schema version to this one.

Run: ``.venv/bin/python benchmarks/bench_migrate.py [--sessions N] [--start V] [--repeat R] [--url URL]``

Set-up (not measured): a store of N sessions filled the way ``bench_pg_store.fill`` fills one (1,000 real-shaped
sessions stored one by one, copied server-side, ``VACUUM ANALYZE``) at this code's schema version, then set back by
hand to schema version ``--start`` (default 20: :data:`UNDO`, then the older version's indexes and ``VACUUM
ANALYZE``): this code's ``insert`` writes the newer columns, so it cannot fill an older store. On a throwaway server
started like ``tests/pg_support.py`` the store is filled once, in a database that each of the R runs copies
(``CREATE DATABASE ... TEMPLATE``, a file copy); with ``--url`` it is made once in a schema ``bench_migrate``
(dropped afterwards) and measured once.

Measured: each later migration alone (the store opened with the target set to that version: one transaction, as
``warroom store migrate`` runs it), then (throwaway server only) the whole upgrade from ``--start`` in one opening
(on a fresh copy: a step that a later one remakes is skipped, ``_migrations.REMADE_BY``), wall-clock seconds, after
a ``CHECKPOINT``. A migration that rewrites or scans the whole table shows as tens of seconds here; the goal is that
none takes more than about 30 s at 1,000,000 sessions (an upgrade holds the table's lock for that long: trainees'
sessions wait, then queue).

Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_pg_store import checkpoint, drop_schema, fill, fresh_schema, server_url, with_schema  # noqa: E402

#: The schema the store is made in (with ``--url``).
SCHEMA = "bench_migrate"


def open_at(data_dir: Path, url: str, version: int) -> float:
    """Open the store at ``url`` with this code's target schema version set to ``version`` (migrating it there);
    returns the seconds the opening took."""
    from warroom.store.results import ResultsStore, _connection

    kept, check = _connection.SCHEMA_VERSION, _connection.StoreConnection._check_columns
    _connection.SCHEMA_VERSION = version
    if version < kept:  # an older schema lacks columns this code's check wants (schema 23's ``chosen``)
        _connection.StoreConnection._check_columns = lambda self: None  # type: ignore[method-assign]
    try:
        t0 = time.perf_counter()
        with ResultsStore(data_dir, url=url) as store:
            took = time.perf_counter() - t0
            assert store.db.schema_version == version, store.db.schema_version
        return took
    finally:
        _connection.SCHEMA_VERSION, _connection.StoreConnection._check_columns = kept, check


#: How a store filled at this code's version is set back to an older one, newest first: version -> the SQL that
#: undoes that migration (the indexes of the older version are made afterwards, once: :func:`older_indexes`). The
#: fill stores sessions through this code's ``insert``, which writes the newer columns, so it cannot fill an older
#: store directly.
UNDO = {
    23: ["DROP INDEX IF EXISTS ix_sessions_facts", "DROP INDEX IF EXISTS ix_sessions_attempts",
         "ALTER TABLE sessions DROP COLUMN chosen"],
    22: ["ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_ends_after_start"],
    21: ["DROP INDEX IF EXISTS ix_sessions_facts", "DROP INDEX IF EXISTS ix_sessions_attempts"],
}  # fmt: skip


def older_indexes(version: int) -> list[str]:
    """The statistics' covering index and the first-attempt index as schema ``version`` (20 to 22) had them."""
    from warroom.store.results._migrations import ATTEMPT_COLUMNS, ATTEMPT_KEY, FACTS_INDEX_21

    if version >= 21:
        return [FACTS_INDEX_21, f"CREATE INDEX ix_sessions_attempts ON sessions({ATTEMPT_KEY['postgresql']}) "
                f"INCLUDE ({', '.join(ATTEMPT_COLUMNS)})"]  # fmt: skip
    return [FACTS_INDEX_21.replace(", stored_seq)", ")"), "CREATE INDEX ix_sessions_attempts ON sessions(trainee, "
            f"drill_id, started_at, session_id) INCLUDE ({', '.join(ATTEMPT_COLUMNS)})"]  # fmt: skip


def set_back(url: str, start: int) -> None:
    """Set the store at ``url`` (filled at this code's version) back to schema version ``start``."""
    import psycopg

    from warroom.store.results import _connection

    with psycopg.connect(url, autocommit=True) as conn:
        for version in range(_connection.SCHEMA_VERSION, start, -1):
            for statement in UNDO[version]:
                conn.execute(statement)  # type: ignore[arg-type]
        for statement in older_indexes(start):
            conn.execute(statement)  # type: ignore[arg-type]
        conn.execute("UPDATE warroom_schema SET version = %s", (start,))
        conn.execute("VACUUM ANALYZE sessions")


def database_url(base: str, database: str) -> str:
    """``base`` (a throwaway server's ``postgres`` database) naming ``database`` instead."""
    return base.replace("/postgres?", f"/{database}?", 1)


def copy_filled(base: str) -> str:
    """A new database ``bench_migrate_run`` copying the filled store (a file copy: seconds, not a new fill)."""
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS bench_migrate_run")
        conn.execute("CREATE DATABASE bench_migrate_run TEMPLATE bench_migrate_filled STRATEGY FILE_COPY")
    return with_schema(database_url(base, "bench_migrate_run"), SCHEMA)


def measure(n: int, start: int, url: str | None = None, repeat: int = 1) -> dict[str, list[float]]:
    """Seconds of each migration after ``start`` on a store of ``n`` sessions (key: the version), and of the whole
    upgrade in one opening (key ``START->TARGET``: each index built once), ``repeat`` times. On a throwaway server
    the store is filled once, in a database that each run copies (``CREATE DATABASE ... TEMPLATE``)."""
    import psycopg

    from warroom.store.results import _connection

    target = _connection.SCHEMA_VERSION
    out: dict[str, list[float]] = {str(v): [] for v in range(start + 1, target + 1)}
    with server_url(url) as base, tempfile.TemporaryDirectory() as tmp:
        own = url is None
        if own:
            out[f"{start}->{target}"] = []
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute("CREATE DATABASE bench_migrate_filled")
        filled_url = fresh_schema(database_url(base, "bench_migrate_filled") if own else base, SCHEMA)
        try:
            took = fill(Path(tmp) / "fill", filled_url, n)
            set_back(filled_url, start)
            print(f"filled {n:,} sessions, set back to schema version {start}, in {took:.1f} s", file=sys.stderr)
            for _ in range(repeat if own else 1):
                store_url = copy_filled(base) if own else filled_url
                checkpoint(base)
                for version in range(start + 1, target + 1):
                    out[str(version)].append(open_at(Path(tmp) / "open", store_url, version))
                    print(f"migration {version}: {out[str(version)][-1]:.1f} s", file=sys.stderr)
                    checkpoint(base)
                if own:
                    store_url = copy_filled(base)
                    checkpoint(base)
                    out[f"{start}->{target}"].append(open_at(Path(tmp) / "open", store_url, target))
                    print(f"{start}->{target}: {out[f'{start}->{target}'][-1]:.1f} s", file=sys.stderr)
            return out
        finally:
            if not own:
                drop_schema(base, SCHEMA)


def results(sessions: int = 1_000_000, start: int = 20) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, start)
    return [
        {
            "name": f"PostgreSQL migration {version} ({sessions:,} sessions)",
            "value": f"{max(seconds):.1f} s",
            "goal": "< 30 s",
            "ratio": f"{max(seconds) / 30:.2f}x of goal",
            "ok": max(seconds) < 30,
        }
        for version, seconds in m.items()
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=1_000_000, help="sessions in the store")
    ap.add_argument("--start", type=int, default=20, help="the schema version the store is made at")
    ap.add_argument("--url", help="an existing PostgreSQL database to use (default: a throwaway server)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of the migrations, each on a copy of the filled "
                    "store (throwaway server only)")  # fmt: skip
    args = ap.parse_args()
    m = measure(args.sessions, args.start, args.url, args.repeat)
    for version, seconds in m.items():
        runs = ", ".join(f"{s:.1f}" for s in seconds)
        print(f"migration {version}: {runs} s at {args.sessions:,} sessions (goal < 30 s)")


if __name__ == "__main__":
    main()
