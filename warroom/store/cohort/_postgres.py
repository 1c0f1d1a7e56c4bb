"""The PostgreSQL side of the cohort statistics counted in the database (:mod:`warroom.store.cohort._count`).

- Query 1 (the sessions per mode that can be counted, matching every filter) is one hashed GROUP BY per mode, flag,
  trainee and drill (:data:`FOLDED_SQL`) over the covering index of the statistics, on the store's own connection;
  its rows also give each (trainee, drill) pair's sessions of the counted modes that the window filters keep.
- Query 2 (each pair's first attempt) is ``DISTINCT ON (trainee, drill_id)`` over the first-attempt index in its
  order (:data:`FIRST_SQL`), on a second connection in the same snapshot (``pg_export_snapshot``), beside query 1:
  the two plans are one process each, and side by side they keep two CPUs busy.
- The counted modes are known before either scan (``auto``: one look for an assessment session that can be counted).
- Session settings for the summary's read transaction (:data:`SETTINGS`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warroom.store.cohort._count import ATTEMPT_COLUMNS
from warroom.store.cohort._facts import modes_counted
from warroom.store.results import COLUMN

if TYPE_CHECKING:
    from warroom.store.cohort._facts import Counted, FactsQuery
    from warroom.store.results import ResultsStore

#: ``SET LOCAL`` settings of the summary's read transaction: no JIT (compiling each query's expressions costs more
#: than it saves here), no incremental sort (the folded GROUP BY is hashed: sorting each trainee's rows by mode and
#: flag cost twice as much), and sorts of up to 64 MB in memory (the medians' sorts of 1,000,000 sessions spilled to
#: disk with the default 4 MB and took half as long again).
SETTINGS: tuple[str, ...] = ("SET LOCAL jit = off", "SET LOCAL enable_incremental_sort = off",
                             "SET LOCAL work_mem = '64MB'")  # fmt: skip

#: Query 1 with each pair's sessions: per (mode, countable flag, trainee, drill) the sessions the window filters keep
#: (``{within}``; ``{where}``: the WHERE of the other filters).
FOLDED_SQL = (
    "SELECT mode, countable, trainee, drill_id, count(CASE WHEN {within} THEN 1 END) FROM sessions{where} "
    "GROUP BY mode, countable, trainee, drill_id"
)
#: Query 2: each pair's first attempt among its sessions of any mode, counted or not (``{where}``), the session
#: the database stored first (the order of the first-attempt index, schema version 21).
FIRST_SQL = (
    f"SELECT DISTINCT ON (trainee, drill_id) trainee, drill_id, {ATTEMPT_COLUMNS} FROM sessions{{where}} "
    "ORDER BY trainee, drill_id, stored_seq NULLS FIRST, started_at, session_id"
)


def count(store: ResultsStore, query: FactsQuery, requested: str) -> tuple[list[Any], Counted, dict[str, int]]:
    """Query 2's rows as :func:`~warroom.store.cohort._count.first_attempts` reads them (trainee, drill, the sessions
    the window filters keep, then the first attempt's columns), the counted modes and the sessions per mode that can
    be counted (matching every filter)."""
    conn = store.db.conn
    w, p = query.where(f"mode = 'assessment' AND {COLUMN}", unindexed="")
    found = conn.execute(f"SELECT EXISTS (SELECT 1 FROM sessions{w})", p).fetchone()[0]
    counted = modes_counted(requested, bool(found))
    within, wp = query.within_sql(unindexed="")
    where, params = query.partition().where(unindexed="")
    first_where, fp = query.partition().where(unindexed="")  # (the first attempt: in any mode, any row)
    by_mode: dict[str, int] = {}
    kept: dict[tuple[str, str], int] = {}

    def folded_scan() -> None:
        for mode, ok, trainee, drill, n in conn.execute(FOLDED_SQL.format(within=within, where=where), [*wp, *params]):
            if not ok:
                continue
            if n:
                by_mode[mode] = by_mode.get(mode, 0) + n
            if counted.modes is None or mode in counted.modes:
                kept[trainee, drill] = kept.get((trainee, drill), 0) + n

    firsts = _beside(store, FIRST_SQL.format(where=first_where), fp, folded_scan)
    rows = [(r[0], r[1], kept.get((r[0], r[1]), 0), *r[2:]) for r in firsts]
    return rows, counted, by_mode


def _beside(store: ResultsStore, sql: str, params: list[Any], work: Callable[[], None]) -> list[Any]:
    """The rows of ``sql``, run by a second connection to the PostgreSQL store in the same snapshot as the store's
    own read transaction (``pg_export_snapshot``), while this thread does ``work`` on the store's connection.

    The split-half window and the medians are plans of one process each; side by side they keep two CPUs busy. The
    database errors of either are raised here (the second connection is closed in every case). When no second
    connection can be opened (the server's connections all in use...), ``work`` and then ``sql`` run on the store's
    own connection."""
    from warroom.store.backends import connect

    assert store.target.url is not None
    from warroom.store.errors import StoreError

    snapshot = store.db.conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
    try:
        other = connect(store.target)
    except StoreError:  # e.g. no connection left on the server: one after the other on the store's own
        work()
        rows_here: list[Any] = store.db.conn.execute(sql, params).fetchall()
        return rows_here
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            other.execute(store.dialect.begin_read)
            other.execute(f"SET TRANSACTION SNAPSHOT '{snapshot}'")
            for setting in SETTINGS:
                other.execute(setting)
            out["rows"] = other.execute(sql, params).fetchall()
            other.execute("COMMIT")
        except BaseException as exc:  # raised in the caller's thread below
            out["error"] = exc

    thread = threading.Thread(target=run, name="warroom-cohort-halves", daemon=True)
    thread.start()
    try:
        work()
    finally:
        thread.join()
        other.close()
    if "error" in out:
        raise out["error"]
    rows: list[Any] = out["rows"]
    return rows
