"""The PostgreSQL side of the cohort statistics counted in the database (:mod:`warroom.store.cohort._count`): where a
plan that is cheap on SQLite costs more on PostgreSQL, or the reverse.

- Queries 1 to 3 (sessions per mode that can be counted, the per-(trainee, drill) counts, the distractor pulls) are
  one hashed GROUP BY over one scan of the covering index (:data:`FOLDED_SQL`): on PostgreSQL each scan of that
  index costs about as much as its grouping, so one scan with more groups costs less than three (on SQLite, whose
  GROUP BY sorts, the three cost less). The counted modes are then chosen from its rows.
- The counted modes are known before any scan (``auto``: one look for an assessment session that can be counted;
  the sessions that cannot be counted come from their partial index), so the per-trainee query (split-half halves
  and medians, one read of :data:`~warroom.store.cohort._count.ORDER_INDEX` in start-time order) starts at once on a
  second connection in the same snapshot, while the folded scan runs on the store's own and the medians of time
  to detect per drill (a sort of the played sessions by each time) on a third, in the same snapshot too (the
  folded scan then the drills' medians on one connection were the longest path: about 1.3 of 1.8 s).
- The drills' medians read the index ``ix_sessions_drill_times`` (schema migration 10: the played sessions of a
  mode in drill order with their times, a fifth the size of the order index), so they need no sort of them all.
- Session settings for the summary's read transaction (:data:`SETTINGS`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from warroom.core.stats import CohortCounts
from warroom.store.cohort._count import _PAIR_COUNTS, _PLAYED
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

#: Queries 1 to 3 as one: per (mode, countable flag, trainee, drill, distractors escalated) the played sessions and
#: the counts of :data:`~warroom.store.cohort._count._PAIR_SQL` (``{where}``: the filters' WHERE).
FOLDED_SQL = (
    f"SELECT mode, countable, trainee, drill_id, distractor_escalations, count(CASE WHEN {_PLAYED} THEN 1 END), "
    f"{_PAIR_COUNTS} FROM sessions{{where}} GROUP BY mode, countable, trainee, drill_id, distractor_escalations"
)


class Folded:
    """The rows of :data:`FOLDED_SQL`: ``by_mode`` (mode -> sessions that can be counted) and ``bad`` (sessions that
    cannot), then the pair counts and the distractor pulls of the counted modes."""

    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows
        self.by_mode: dict[str, int] = {}
        self.bad = 0
        for mode, ok, _t, _d, _text, _played, n, *_ in rows:
            if ok:
                self.by_mode[mode] = self.by_mode.get(mode, 0) + n
            else:
                self.bad += n

    def _counted(self, modes: frozenset[str] | None) -> list[Any]:
        return [r for r in self.rows if r[1] and (modes is None or r[0] in modes)]

    def pair_rows(self, modes: frozenset[str] | None) -> list[Any]:
        """Rows of :data:`~warroom.store.cohort._count._PAIR_SQL` (trainee, drill, counts) over the sessions of
        ``modes``
        (None: every mode) that can be counted."""
        sums: dict[tuple[str, str], list[int]] = {}
        for _mode, _ok, trainee, drill, _text, _played, *counts in self._counted(modes):
            total = sums.get((trainee, drill))
            if total is None:
                sums[trainee, drill] = list(counts)
            else:
                for i, value in enumerate(counts):
                    total[i] += value
        return [(trainee, drill, *counts) for (trainee, drill), counts in sums.items()]

    def pull_rows(self, modes: frozenset[str] | None) -> list[Any]:
        """Rows of :data:`~warroom.store.cohort._count._PULLS_SQL` (trainee, drill, distractors escalated, played
        sessions)
        over the sessions of ``modes`` that can be counted."""
        return [(r[2], r[3], r[4], r[5]) for r in self._counted(modes) if r[4] is not None and r[5]]


def count(
    store: ResultsStore, query: FactsQuery, requested: str, where_counted: Callable[[str], tuple[str, list[Any]]]
) -> tuple[CohortCounts, Counted, dict[str, int]]:
    """The counts of :func:`warroom.store.cohort.cohort_stats` on PostgreSQL, the counted modes and the sessions per
    mode that can be counted. ``where_counted(condition)`` is the WHERE (and its parameters) of the filters,
    ``condition`` and the sessions that can be counted.

    The counted modes are known before the scans (``auto``: one look for an assessment session that can be
    counted), so the per-trainee query starts on the second connection at once, beside the folded scan on the
    store's own and the drills' medians on a third."""
    from warroom.store.cohort._count import _counted, _pairs, _pulls, in_modes

    conn = store.db.conn
    w, p = query.where(f"mode = 'assessment' AND {COLUMN}", unindexed="")
    found = conn.execute(f"SELECT EXISTS (SELECT 1 FROM sessions{w})", p).fetchone()[0]
    where, params = query.where("1 = 1", unindexed="")
    counted = _counted({"assessment": 1} if found else {}, "auto") if requested == "auto" else _counted({}, requested)
    played, pp = where_counted(f"{in_modes(store, counted)} AND {_PLAYED}")
    counts = CohortCounts()
    by_mode: dict[str, int] = {}

    def folded_scan() -> None:
        rows = Folded(conn.execute(FOLDED_SQL.format(where=where), params).fetchall())
        by_mode.update(rows.by_mode)
        counts.pairs = _pairs(rows.pair_rows(counted.modes))
        _pulls(rows.pull_rows(counted.modes), counts)

    def here() -> None:  # the drills' medians on a third connection, beside the folded scan
        drills = _beside(store, _PG_MEDIANS_SQL.format(group="drill_id", where=played), pp, folded_scan)
        _pg_median_rows(drills, 1, "drill", counts)

    rows = _beside(store, _PG_TRAINEE_SQL.format(where=played), pp, here)
    counts.halves = {r[0]: (r[1], r[2], r[3], r[4]) for r in rows}
    _pg_median_rows(rows, 5, "trainee", counts)
    return counts, counted, by_mode


#: PostgreSQL's medians of a group: the lower and the upper middle value of each time, from one sort per time
#: (``percentile_disc`` of two fractions: the value at place ceil(f * n) in ascending order, so 0.5 gives place n / 2
#: and 0.5 + 1e-12 place n / 2 + 1 for an even count, (n + 1) / 2 for an odd one, for any count under 10^12), NULLs
#: ignored (no value: NULL).
_TIMES = ("time_to_detect", "wall_time_to_detect")
_PG_MEDIANS_SQL = (
    "SELECT {group}, "
    + ", ".join(f"percentile_disc(ARRAY[0.5, 0.500000000001]) WITHIN GROUP (ORDER BY {v})" for v in _TIMES)
    + " FROM sessions{where} GROUP BY {group}"
)
#: PostgreSQL's query 5 with the trainees' medians of query 4: per trainee the count and score sum of the sessions at
#: odd and even places, and both times' middle values (as :data:`_PG_MEDIANS_SQL`), from one read of
#: :data:`ORDER_INDEX` in start-time order.
_PG_TRAINEE_SQL = (
    "SELECT trainee, count(CASE WHEN rn % 2 = 1 THEN 1 END), coalesce(CAST(sum(CASE WHEN rn % 2 = 1 THEN total END) "
    "AS BIGINT), 0), count(CASE WHEN rn % 2 = 0 THEN 1 END), coalesce(CAST(sum(CASE WHEN rn % 2 = 0 THEN total END) "
    "AS BIGINT), 0), "
    + ", ".join(f"percentile_disc(ARRAY[0.5, 0.500000000001]) WITHIN GROUP (ORDER BY {v})" for v in _TIMES)
    + " FROM (SELECT trainee, total, time_to_detect, wall_time_to_detect, row_number() OVER (PARTITION BY trainee "
    "ORDER BY started_at, session_id) AS rn FROM sessions{where}) h GROUP BY trainee"
)


def _pg_median_rows(rows: list[Any], first: int, scope: str, counts: CohortCounts) -> None:
    """Add the medians of ``rows`` (name first, the middle values of both times at ``first`` and after) to
    ``counts``."""
    for figure, i in (("ttd", first), ("wall_ttd", first + 1)):
        values = ((r[0], r[i]) for r in rows if r[i] and r[i][0] is not None)
        counts.medians[scope, figure] = {name: (low + high) / 2 for name, (low, high) in values}


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
