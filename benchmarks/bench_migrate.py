"""Benchmark: migrating a PostgreSQL results store of 1,000,000 sessions from an older schema version to this one.

Run: ``.venv/bin/python benchmarks/bench_migrate.py [--sessions N] [--start V] [--url URL]``

Set-up (not measured): a store at schema version ``--start`` (default 20) filled with N sessions the way
``bench_pg_store.fill`` fills one (1,000 real-shaped sessions stored one by one, copied server-side, ``VACUUM
ANALYZE``), on a throwaway server started like ``tests/pg_support.py`` (or in a schema ``bench_migrate`` of
``--url``, dropped afterwards). The store is made at the older version by opening it with this code's target
version set back (``_connection.SCHEMA_VERSION``): the migrations up to it run as a real store's did.

Measured: each later migration alone (the store opened with the target set to that version: one transaction, as
``warroom store migrate`` runs it), wall-clock seconds, after a ``CHECKPOINT``. A migration that rewrites or scans
the whole table shows as tens of seconds here; the goal is that none takes more than about 30 s at 1,000,000
sessions (an upgrade holds the table's lock for that long: trainees' sessions wait, then queue).

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

from bench_pg_store import checkpoint, drop_schema, fill, fresh_schema, server_url  # noqa: E402

#: The schema the store is made in (with ``--url``).
SCHEMA = "bench_migrate"


def open_at(data_dir: Path, url: str, version: int) -> float:
    """Open the store at ``url`` with this code's target schema version set to ``version`` (migrating it there);
    returns the seconds the opening took."""
    from warroom.store.results import ResultsStore, _connection

    kept = _connection.SCHEMA_VERSION
    _connection.SCHEMA_VERSION = version
    try:
        t0 = time.perf_counter()
        with ResultsStore(data_dir, url=url) as store:
            took = time.perf_counter() - t0
            assert store.db.schema_version == version, store.db.schema_version
        return took
    finally:
        _connection.SCHEMA_VERSION = kept


def measure(n: int, start: int, url: str | None = None) -> dict[int, float]:
    """Seconds of each migration after ``start`` on a store of ``n`` sessions."""
    from warroom.store.results import _connection

    target = _connection.SCHEMA_VERSION
    with server_url(url) as base, tempfile.TemporaryDirectory() as tmp:
        store_url = fresh_schema(base, SCHEMA)
        try:
            kept = _connection.SCHEMA_VERSION
            _connection.SCHEMA_VERSION = start
            try:
                took = fill(Path(tmp) / "fill", store_url, n)
            finally:
                _connection.SCHEMA_VERSION = kept
            print(f"filled {n:,} sessions at schema version {start} in {took:.1f} s", file=sys.stderr)
            checkpoint(base)
            out = {}
            for version in range(start + 1, target + 1):
                out[version] = open_at(Path(tmp) / "open", store_url, version)
                checkpoint(base)
            return out
        finally:
            drop_schema(base, SCHEMA)


def results(sessions: int = 1_000_000, start: int = 20) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, start)
    return [
        {
            "name": f"PostgreSQL migration {version} ({sessions:,} sessions)",
            "value": f"{seconds:.1f} s",
            "goal": "< 30 s",
            "ratio": f"{seconds / 30:.2f}x of goal",
            "ok": seconds < 30,
        }
        for version, seconds in m.items()
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=1_000_000, help="sessions in the store")
    ap.add_argument("--start", type=int, default=20, help="the schema version the store is made at")
    ap.add_argument("--url", help="an existing PostgreSQL database to use (default: a throwaway server)")
    args = ap.parse_args()
    m = measure(args.sessions, args.start, args.url)
    for version, seconds in m.items():
        print(f"migration {version}: {seconds:6.1f} s at {args.sessions:,} sessions (goal < 30 s)")
    print(f"all ({args.start} -> {max(m, default=args.start)}): {sum(m.values()):.1f} s")


if __name__ == "__main__":
    main()
