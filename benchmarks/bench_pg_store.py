"""Benchmark: the shared PostgreSQL results store at 1,000,000 sessions: insert cost and ``warroom scores summary``.

Run: ``.venv/bin/python benchmarks/bench_pg_store.py [--sessions N] [--repeat R] [--url URL [--keep]]``

Without ``--url`` a throwaway PostgreSQL server is started the way the tests start one (``initdb`` + ``pg_ctl`` into
a temporary folder, on a Unix socket only, as ``nobody`` under root: ``tests/pg_support.py``) and removed afterwards.
With ``--url`` (a database you can create schemas in) two schemas ``bench_full`` and ``bench_empty`` are (re)made
there and dropped afterwards.

Set-up (not measured): 1,000 sessions of the real shape (``bench_results._session``: 500 trainees x 40 drills, every
outcome, scorecards and action logs) are stored through :meth:`ResultsStore.insert` in one transaction, given the
distractor figures of scoring rules 2 (:data:`_FIGURES_SQL`), then copied
server-side (``INSERT ... SELECT`` over ``generate_series``, fresh session ids and start times) up to N, then
``VACUUM ANALYZE`` (what autovacuum does to a real store after a bulk load: the planner's statistics and the
visibility map that lets the summary's index-only scans skip the table). The server runs with PostgreSQL's default
``shared_buffers`` (128 MB), smaller than the summary's covering index at 1,000,000 sessions (350 MB). Measured:

- ``warroom --store URL scores summary`` as a whole process (median of R, wall-clock and the process's own CPU
  time, which a loaded machine inflates less; goal < 2 s);
- storing one finished session the way the war room does (:meth:`ResultsStore.insert`, autocommit: one transaction
  per session) into the empty store and into the full one, one into each in turn (the machine's drift falls on both
  alike), after a ``CHECKPOINT`` (the fill's dirty pages written first), median of 100 after 10 untimed: the goal is
  a flat cost (ratio <= 1.5).

Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_results import _session, run_cli_cpu  # noqa: E402

#: Sessions stored one by one before the server-side copies.
SEED = 1_000
#: Gives every stored scorecard the distractor figures of scoring rules 2 (and their columns, as the store's writes
#: do): ``distractors_shown`` 2, ``distractor_escalations`` ``["e12"]`` in sessions with a false escalation.
_FIGURES_SQL = (
    "UPDATE sessions SET scoring_version = '2', distractors_shown = 2, distractor_escalations = CASE WHEN "
    "false_escalations > 0 THEN '[\"e12\"]' END, scorecard = (scorecard::jsonb || jsonb_build_object("
    "'distractors_shown', 2, 'distractor_escalations', CASE WHEN false_escalations > 0 THEN '[\"e12\"]'::jsonb "
    "ELSE '[]'::jsonb END))::text"
)
#: Start time of the sessions stored by :func:`insert_costs` (after every copy's), so that ``--keep`` can remove them.
INSERTED_FROM = datetime(2040, 1, 1, tzinfo=UTC)


@contextmanager
def server_url(url: str | None) -> Iterator[str]:
    """``url`` itself, or the URL of a throwaway server's ``postgres`` database (removed on exit)."""
    if url:
        yield url
        return
    from pg_support import PostgresServer, server_bindir

    bindir = server_bindir()
    if bindir is None:
        raise SystemExit("the PostgreSQL server binaries (initdb, pg_ctl) are not installed; or pass --url")
    server = PostgresServer(bindir)
    try:
        server.start()
        yield server.url()
    finally:
        server.remove()


def with_schema(url: str, schema: str) -> str:
    """``url`` with ``schema`` first on the search path (the same way the tests give each test a store)."""
    from urllib.parse import quote

    return url + ("&" if "?" in url else "?") + "options=" + quote(f"-c search_path={schema}", safe="")


def fresh_schema(url: str, schema: str) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # type: ignore[arg-type]
        conn.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    return with_schema(url, schema)


def drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # type: ignore[arg-type]


def fill(data_dir: Path, url: str, n: int) -> float:
    """Store ``n`` sessions at ``url`` (see the module docstring); returns the seconds it took."""
    from warroom.core.model import Action
    from warroom.store.results import ResultsStore

    rng = random.Random(8)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    t0 = time.perf_counter()
    seed = min(SEED, n)
    with ResultsStore(data_dir, url=url) as store:
        store.db.conn.timeout = None  # the server-side copies take more than the watchdog's 30 s on a busy machine
        store.db.conn.execute("BEGIN")  # one transaction: filling is not what is measured
        for i in range(seed):
            info, card, actions, when, wall = _session(i, rng, start)
            store.insert(info, card, [Action.model_validate(a) for a in actions], ended_at=when, wall=wall)
        store.db.conn.execute("COMMIT")
        store.db.conn.execute(_FIGURES_SQL)  # the seed's scorecards get the distractor figures later rules record
        cols = [r[0] for r in store.db.conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions' "
            "AND table_schema = current_schema() AND is_generated = 'NEVER' ORDER BY ordinal_position"
        )]  # fmt: skip (the server computes the generated columns of each copy)
        copies = -(-n // seed) - 1
        made = {  # each copy g: a new id, started (and ended) g * seed * 5 minutes later (as the seed's own are
            # spread; schema 22 refuses a session that ends before it starts)
            "session_id": "s.session_id || '-' || g",
            **{c: f"to_char((s.{c}::timestamptz + make_interval(mins => g * {seed * 5})) "
                  "AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')" for c in ("started_at", "ended_at")},
        }
        select = ", ".join(made.get(c, f"s.{c}") for c in cols)
        for first in range(1, copies + 1, _COPIES_A_STATEMENT):  # (one statement of a million rows outlasted the
            last = min(copies, first + _COPIES_A_STATEMENT - 1)  # store's 30 s watch on a loaded machine)
            store.db.conn.execute(
                f"INSERT INTO sessions ({', '.join(cols)}) SELECT {select} FROM sessions s, "
                f"generate_series({first}, {last}) g WHERE s.session_id NOT LIKE '%-%-%'"
            )
        store.db.conn.execute(f"DELETE FROM sessions WHERE session_id IN (SELECT session_id FROM sessions "
                            f"ORDER BY started_at DESC LIMIT {seed * (copies + 1) - n})")  # fmt: skip
        store.db.conn.execute("VACUUM ANALYZE sessions")  # as autovacuum would: hint bits, visibility map
        assert store.count() == n, store.count()
    return time.perf_counter() - t0


#: Copies of the seed sessions one fill statement makes (50,000 rows at the default seed of 1,000).
_COPIES_A_STATEMENT = 50


def insert_costs(data_dir: Path, empty_url: str, full_url: str, count: int) -> tuple[float, float]:
    """Median seconds to store one finished session (autocommit, as the war room does) in the empty store at
    ``empty_url`` and in the full one at ``full_url``: one session into each in turn, so that the machine's drift
    (other jobs, the server's checkpoints and autovacuum) falls on both alike; ``count`` timed after 10 untimed."""
    from warroom.core.model import Action
    from warroom.store.results import ResultsStore

    rng = random.Random(10_000_000)
    warm_up = 10
    times: dict[str, list[float]] = {"empty": [], "full": []}
    with ResultsStore(data_dir / "e", url=empty_url) as empty, ResultsStore(data_dir / "f", url=full_url) as full:
        for i in range(10_000_000, 10_000_000 + warm_up + count):
            for name, store in (("empty", empty), ("full", full)) if i % 2 else (("full", full), ("empty", empty)):
                info, card, actions, when, wall = _session(i if name == "empty" else i + 10_000_000, rng,
                                                           INSERTED_FROM)  # fmt: skip
                acts = [Action.model_validate(a) for a in actions]
                t0 = time.perf_counter()
                assert store.insert(info, card, acts, ended_at=when, wall=wall)
                times[name].append(time.perf_counter() - t0)
    return statistics.median(times["empty"][warm_up:]), statistics.median(times["full"][warm_up:])


def checkpoint(url: str) -> None:
    """Write the server's dirty pages now (after a fill), so that the insert timings do not meet the checkpoint
    of a million new rows. When the role may not (``CHECKPOINT`` needs a superuser or pg_checkpoint), says so on
    stderr: the insert figures may then include a checkpoint."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute("CHECKPOINT")
        except psycopg.Error as exc:
            print(f"no CHECKPOINT before the insert timings ({exc.sqlstate}): they may meet one", file=sys.stderr)


def filled(url: str, n: int) -> bool:
    """Whether the schema ``bench_full`` at ``url`` already holds a store of ``n`` sessions (``--keep``)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('bench_full.sessions')").fetchone()[0] is None:  # type: ignore[index]
            return False
        return conn.execute("SELECT count(*) FROM bench_full.sessions").fetchone()[0] == n  # type: ignore[index]


def remove_inserted(url: str) -> None:
    """Delete the sessions :func:`insert_costs` stored, so that a kept store holds the filled ones only."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM sessions WHERE started_at >= %s", (INSERTED_FROM.isoformat(),))
        conn.execute("VACUUM ANALYZE sessions")


def measure(n: int, repeat: int, url: str | None = None, keep: bool = False) -> dict[str, float]:
    with server_url(url) as base, tempfile.TemporaryDirectory() as tmp:
        reuse = keep and filled(base, n)
        full = with_schema(base, "bench_full") if reuse else fresh_schema(base, "bench_full")
        empty = fresh_schema(base, "bench_empty")
        try:
            out = {"fill": float("nan") if reuse else fill(Path(tmp) / "fill", full, n)}
            args = ["--store", full, "--data-dir", str(Path(tmp) / "cli"), "scores", "summary"]
            out["summary"], out["summary_cpu"], text = run_cli_cpu(args, repeat)
            assert "trainee-" in text and "e12 ×" in text, text[:500]
            checkpoint(base)
            out["insert_empty"], out["insert_full"] = insert_costs(Path(tmp), empty, full, 100)
        finally:
            if keep:
                remove_inserted(full)
            else:
                drop_schema(base, "bench_full")
            drop_schema(base, "bench_empty")
    return out


def results(sessions: int = 1_000_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, repeat)
    ratio = m["insert_full"] / m["insert_empty"]
    return [
        {
            "name": f"PostgreSQL scores summary ({sessions:,} sessions)",
            "value": f"{m['summary'] * 1000:.0f} ms (CPU {m['summary_cpu'] * 1000:.0f} ms)",
            "goal": "< 2 s (whole process)",
            "ratio": f"{m['summary'] / 2:.2f}x of goal",
            "ok": m["summary"] < 2.0,
        },
        {
            "name": f"PostgreSQL store one session ({sessions:,} stored)",
            "value": f"{m['insert_full'] * 1000:.2f} ms",
            "goal": "flat: ratio <= 1.5",
            "ratio": f"{ratio:.2f}x vs empty store ({m['insert_empty'] * 1000:.2f} ms)",
            "ok": ratio <= 1.5,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=1_000_000, help="sessions in the full store")
    ap.add_argument("--repeat", type=int, default=3, help="runs of scores summary; the median is reported")
    ap.add_argument("--url", help="an existing PostgreSQL database to use (default: a throwaway server)")
    ap.add_argument("--keep", action="store_true", help="with --url: keep the filled schema bench_full, and reuse "
                    "it when it holds --sessions sessions")  # fmt: skip
    args = ap.parse_args()
    m = measure(args.sessions, args.repeat, args.url, args.keep and bool(args.url))
    if m["fill"] == m["fill"]:  # not NaN: filled now (NaN: --keep reused a filled store)
        print(f"filled {args.sessions:,} sessions in {m['fill']:.1f} s")
    else:
        print(f"reused the filled store of {args.sessions:,} sessions (--keep)")
    print(f"warroom --store URL scores summary: {m['summary'] * 1000:7.0f} ms, CPU {m['summary_cpu'] * 1000:.0f} ms "
          "(goal < 2 s)")  # fmt: skip
    print(
        f"store one session: {m['insert_empty'] * 1000:.2f} ms empty, {m['insert_full'] * 1000:.2f} ms at "
        f"{args.sessions:,}: {m['insert_full'] / m['insert_empty']:.2f}x (goal: flat, <= 1.5x)"
    )


if __name__ == "__main__":
    main()
