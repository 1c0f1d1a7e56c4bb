"""The cohort statistics counted inside the database (``warroom scores summary``): a few GROUP BY queries over the
matching sessions instead of a row per session, turned into :class:`~warroom.core.stats.CohortStats` by
:func:`warroom.core.stats.stats_from_counts` (the figures are those of
:func:`~warroom.core.stats.summarize` over :func:`~warroom.store.cohort.read_facts`).

The queries read the covering index ``ix_sessions_facts`` and, for the split-half order,
``ix_sessions_trainee_order`` (:data:`ORDER_INDEX`, schema version 5). Whether a row can be counted (its values'
types and ranges, an outcome that fits the kind of drill) is not checked here: each row's ``countable`` flag
(schema version 7, :mod:`warroom.store.results._countable`) was computed by the database when the row was written, and
the
queries read it from the index.

1. the sessions per mode that can be counted (their flag); those that cannot are read first, from their partial
   index ``ix_sessions_not_countable`` (few), described one by one and left out of the other queries by id;
2. counts per (trainee, drill) of the counted modes (chosen from query 1 as
   :func:`~warroom.store.cohort.counted_modes` does: assessment sessions when any match): sessions, abandoned, hits,
   misses, false alarms, correct rejections, false escalations, distractors shown, score sums;
3. per (trainee, drill) and distinct ``distractor_escalations`` text: how many played sessions escalated those
   distractors (distractors escalated per trainee, pulls per drill);
4. the medians of time to detect (drill and wall seconds) per trainee and per drill;
5. per trainee, the count and score sum of the played sessions at odd and even places in start-time order (ties in
   start time are ordered by session id), for the split-half reliability.

The plans differ where the back ends' costs differ (the SQL is written once per query all the same):

- SQLite runs queries 1 to 3 one after another (its GROUP BY sorts, so folding them into one scan with more groups
  cost more), then reads the played sessions' trainee, drill, score and times from :data:`ORDER_INDEX` in order
  (no sort) and takes the halves and the medians in process: cheaper than a window query and a second scan.
- PostgreSQL runs queries 1 to 3 as one hashed GROUP BY over one scan (each scan of the index costs about as much
  as its grouping there) on the store's connection, while the drills' medians (``percentile_disc`` of two
  fractions, one sort per time) run on a third connection and query 5 with the trainees' medians (one read of
  :data:`ORDER_INDEX` in start-time order) on a second, all in the same snapshot: :mod:`warroom.store.cohort._postgres`.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from warroom.core.model import Outcome
from warroom.core.stats import CohortCounts, PairCounts, stats_from_counts
from warroom.errors import WarroomError
from warroom.store.cohort._facts import (
    FACTS_INDEX,
    Counted,
    FactsQuery,
    build_facts,
    counted_modes,
    prepared,
    read_facts,
)
from warroom.store.results import COLUMN, MODES, NOT_COUNTABLE, NOT_COUNTABLE_INDEX, valid_facts_sql

if TYPE_CHECKING:
    from warroom.core.stats import CohortStats
    from warroom.store.errors import CorruptSession
    from warroom.store.results import ResultsStore

_ABANDONED = f"'{Outcome.ABANDONED.value}'"
_HELD = f"'{Outcome.ALL_CLEAR_HELD.value}'"
_PLAYED = f"outcome <> {_ABANDONED}"
#: Query 2: counts per (trainee, drill) as :class:`PairCounts` counts them: sessions, abandoned, hits... (the columns
#: of :func:`_pairs`' rows after the trainee and the drill)
_PAIR_COUNTS = (
    "count(*), "
    f"count(CASE WHEN NOT ({_PLAYED}) THEN 1 END), "
    f"count(CASE WHEN all_clear = 0 AND {_PLAYED} THEN 1 END), "
    f"count(CASE WHEN all_clear = 0 AND outcome = '{Outcome.CONTAINED.value}' THEN 1 END), "
    f"count(CASE WHEN all_clear <> 0 AND {_PLAYED} THEN 1 END), "
    f"count(CASE WHEN all_clear <> 0 AND {_PLAYED} AND outcome <> {_HELD} THEN 1 END), "
    f"CAST(coalesce(sum(CASE WHEN all_clear <> 0 AND {_PLAYED} THEN false_escalations END), 0) AS BIGINT), "
    f"CAST(coalesce(sum(CASE WHEN {_PLAYED} THEN distractors_shown END), 0) AS BIGINT), "
    f"CAST(coalesce(sum(CASE WHEN {_PLAYED} THEN total END), 0) AS BIGINT), "
    "count(CASE WHEN all_clear = 0 THEN 1 END)"
)
_PAIR_SQL = f"SELECT trainee, drill_id, {_PAIR_COUNTS} FROM sessions{{hint}}{{where}} GROUP BY trainee, drill_id"
#: Query 1: the sessions per mode that can be counted (their ``countable`` flag), and all of them.
_CHECKED_SQL = "SELECT mode, count(CASE WHEN {valid} THEN 1 END), count(*) FROM sessions{hint}{where} GROUP BY mode"
#: Query 3: per (trainee, drill, distractors escalated) the played sessions that escalated some.
_PULLS_SQL = (
    "SELECT trainee, drill_id, distractor_escalations, count(*) FROM sessions{hint}{where} "
    "GROUP BY trainee, drill_id, distractor_escalations"
)
#: The index that gives the split-half order (query 5) without a sort: made by schema migration 5.
ORDER_INDEX = "ix_sessions_trainee_order"
#: SQLite's queries 4 and 5: the played sessions' trainee, drill, score and times in split-half order (each
#: trainee's sessions by start time, ties by session id), read from :data:`ORDER_INDEX` without a sort; the halves
#: and the medians are taken in process (cheaper than a window query and a second scan).
_ORDERED_SQL = (
    "SELECT trainee, drill_id, total, time_to_detect, wall_time_to_detect FROM sessions{hint}{where} "
    "ORDER BY trainee, started_at, session_id"
)


@dataclass(frozen=True)
class CohortResult:
    """What :func:`cohort_stats` found: the statistics, which sessions they count (``counted``), how many valid
    sessions matched (``matched``: counted ones plus those of another mode, ``stats.skipped_by_mode``) and the
    rows left out because they cannot be counted (``problems``)."""

    stats: CohortStats
    counted: Counted
    matched: int
    problems: list[CorruptSession]


def cohort_stats(store: ResultsStore, query: FactsQuery | None = None, mode: str = "auto") -> CohortResult:
    """The cohort statistics of the sessions ``query`` matches, counted in the database; ``mode`` as in
    :func:`~warroom.store.cohort.counted_modes` (``auto``, ``assessment``, ``practice`` or ``all``).

    The figures equal ``summarize(read_facts(store, query))`` with the same modes (both break ties in start time
    by session id in the split-half order). Raises ValueError for an unknown mode and
    :class:`~warroom.store.errors.StoreError` when the store cannot be read."""
    if mode not in ("auto", "all", *MODES):
        raise ValueError(f"unknown mode {mode!r} (choose from auto, {', '.join(MODES)}, all)")
    try:
        query = prepared(store, query or FactsQuery())
        return _count(store, query, mode)
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    except _Unusual:  # a store changed by hand in ways the SQL checks do not see: count session by session
        from warroom.core.stats import summarize

        facts, problems = read_facts(store, query)
        counted = counted_modes(facts, mode)
        return CohortResult(summarize(facts, modes=counted.modes), counted, len(facts), problems)


class _Unusual(WarroomError):
    """A row the SQL checks let through that only a session-by-session read can describe (a ``distractor_escalations``
    column that is not a JSON list of event ids, figures marked bad whose scorecard reads fine)."""


#: At most this many rows that cannot be counted are left out by their ids; with more, every query repeats the checks.
_MAX_LEFT_OUT_BY_ID = 500


def _count(store: ResultsStore, query: FactsQuery, requested: str) -> CohortResult:
    """Run the queries in one read transaction (one snapshot of the store) and build the result."""
    conn = store.db.conn
    begin = not getattr(conn, "in_transaction", False)  # (a test or caller may hold one already)
    if begin:
        conn.execute(store.dialect.begin_read)
    try:
        return _count_in(store, query, requested)
    finally:
        if begin:
            conn.execute("COMMIT")


def _count_in(store: ResultsStore, query: FactsQuery, requested: str) -> CohortResult:
    from warroom.store.cohort._facts import _COLUMNS

    loose, conn = store.dialect.loose_types, store.db.conn
    valid = COLUMN  # the row checks, evaluated when each row was written (schema version 7)
    unindexed = store.dialect.unindexed("")
    hint = store.dialect.indexed_by(FACTS_INDEX)  # the counts read the covering index only
    if store.dialect.name == "postgresql":
        from warroom.store.cohort._postgres import SETTINGS

        for setting in SETTINGS:
            conn.execute(setting)
    # the rows that cannot be counted, found by their partial index (few) and described one by one
    # (a row that cannot be counted is described even when it is not verified either)
    where, params = replace(query, leave_out=False).where(NOT_COUNTABLE, unindexed=unindexed)
    sql = f"SELECT ({valid_facts_sql(loose)}) AS ok, {_COLUMNS} FROM sessions"
    bad_rows = conn.execute(f"{sql}{store.dialect.indexed_by(NOT_COUNTABLE_INDEX)}{where}", params).fetchall()
    left_over, problems = build_facts(store, bad_rows)
    if left_over:
        raise _Unusual

    def where_counted(condition: str) -> tuple[str, list[Any]]:
        """WHERE of the filters, ``condition`` and the rows that can be counted: the checks were evaluated when
        each row was written (its flag); the few rows that fail them are left out by id."""
        if len(bad_rows) > _MAX_LEFT_OUT_BY_ID:
            return query.where(f"{valid} AND {condition}", unindexed=unindexed)
        w, p = query.where(condition, unindexed=unindexed)
        if bad_rows:
            w += f" AND session_id NOT IN ({', '.join('?' for _ in bad_rows)})"
            p += [r[1] for r in bad_rows]
        return w, p

    if store.dialect.name == "postgresql":
        from warroom.store.cohort._postgres import count

        counts, counted, by_mode = count(store, query, requested, where_counted)
    else:  # SQLite: the queries one after another (see the module docstring)
        where, params = query.where("1 = 1", unindexed=unindexed)
        by_mode, _ = _checked(conn.execute(_CHECKED_SQL.format(hint=hint, where=where, valid=valid), params).fetchall())
        counted = _counted(by_mode, requested)
        counts = CohortCounts()
        w, p = where_counted(in_modes(store, counted))
        counts.pairs = _pairs(conn.execute(_PAIR_SQL.format(hint=hint, where=w), p).fetchall())
        played, pp = where_counted(f"{in_modes(store, counted)} AND {_PLAYED}")
        _count_played(store, hint, played, pp, counts)
    counts.skipped_by_mode = sum(n for m, n in by_mode.items() if counted.modes is not None and m not in counted.modes)
    try:
        stats = stats_from_counts(counts)
    except ValueError:  # counts that are not shares: only a store changed by hand has them
        raise _Unusual from None
    return CohortResult(stats, counted, sum(by_mode.values()), problems)


def in_modes(store: ResultsStore, counted: Counted) -> str:
    """The SQL condition of the sessions of the counted modes (the unary + on SQLite: the mode's own index would
    make every large row be read)."""
    if counted.modes is None:
        return "1 = 1"
    modes = ", ".join(f"'{m}'" for m in sorted(counted.modes))
    return f"{store.dialect.unindexed('mode')} IN ({modes})"


def _count_played(store: ResultsStore, hint: str, played: str, pp: list[Any], counts: CohortCounts) -> None:
    """SQLite's queries 3 to 5 of the module docstring over the played sessions (``played``: their WHERE, ``pp`` its
    parameters), into ``counts``: the distractor pulls, then the times (for the medians) and the split-half halves
    from one read of :data:`ORDER_INDEX` in order (no sort, no window query), taken in process."""
    conn = store.db.conn
    pulls_sql = _PULLS_SQL.format(hint=hint, where=f"{played} AND distractor_escalations IS NOT NULL")
    _pulls(conn.execute(pulls_sql, pp).fetchall(), counts)
    rows = conn.execute(_ORDERED_SQL.format(hint=store.dialect.indexed_by(ORDER_INDEX), where=played), pp).fetchall()
    counts.halves = _halves(rows)
    counts.medians.update(_medians(rows))


def _checked(rows: Iterable[tuple[str, int, int]]) -> tuple[dict[str, int], int]:
    """The valid sessions per mode and the number of rows that cannot be counted, from ``(mode, valid, all)``
    counts."""
    by_mode: dict[str, int] = {}
    bad = 0
    for mode, valid, n in rows:
        if valid:
            by_mode[mode] = by_mode.get(mode, 0) + valid
        bad += n - valid
    return by_mode, bad


def _counted(by_mode: dict[str, int], requested: str) -> Counted:
    """The modes counted for ``requested`` (``auto``: assessment when some matching session is one, else all)."""
    if requested == "auto":
        requested = "assessment" if by_mode.get("assessment") else "all"
    if requested == "all":
        return Counted(None, "all")
    return Counted(frozenset({requested}), requested)


def _pairs(rows: list[Any]) -> dict[tuple[str, str], PairCounts]:
    """The :class:`PairCounts` of query 2's rows (the distinct distractors escalated come from query 3)."""
    pairs = {}
    for trainee, drill, n, abandoned, fault, hits, clear, fas, clear_false, shown, score, any_fault in rows:
        pairs[trainee, drill] = PairCounts(
            n, abandoned, fault, hits, clear, fas, clear_false, shown, 0, score, any_fault > 0
        )
    return pairs


def _halves(rows: list[Any]) -> dict[str, tuple[int, float, int, float]]:
    """Trainee -> (odd count, odd score sum, even count, even score sum) of the played sessions at odd and even
    places of each trainee's split-half order, from :data:`_ORDERED_SQL`'s rows (in that order)."""
    halves: dict[str, list[int]] = {}
    for trainee, _drill, total, _ttd, _wall in rows:
        h = halves.get(trainee)
        if h is None:
            h = halves[trainee] = [0, 0, 0, 0]
        if h[0] == h[2]:  # as many at odd as at even places so far: this one is at an odd place
            h[0] += 1
            h[1] += total
        else:
            h[2] += 1
            h[3] += total
    return {trainee: (h[0], h[1], h[2], h[3]) for trainee, h in halves.items()}


def _medians(rows: list[Any]) -> dict[tuple[str, str], dict[str, float]]:
    """The medians of time to detect (drill and wall seconds) per trainee and per drill, from the played sessions'
    ``(trainee, drill, total, ttd, wall ttd)`` rows (SQLite, in process: cheaper than sorting each figure in a window
    query)."""
    from statistics import median

    values: dict[tuple[str, str], defaultdict[str, list[float]]] = {
        key: defaultdict(list)
        for key in (("trainee", "ttd"), ("trainee", "wall_ttd"), ("drill", "ttd"), ("drill", "wall_ttd"))
    }
    t_ttd, t_wall, d_ttd, d_wall = values.values()
    for trainee, drill, _total, ttd, wall in rows:
        if ttd is not None:
            t_ttd[trainee].append(ttd)
            d_ttd[drill].append(ttd)
        if wall is not None:
            t_wall[trainee].append(wall)
            d_wall[drill].append(wall)
    return {key: {name: median(v) for name, v in groups.items()} for key, groups in values.items()}


def _pulls(rows: list[Any], counts: CohortCounts) -> None:
    """Add the distractors escalated per pair and the pulls per drill to ``counts`` from query 3's ``(trainee,
    drill, distractor_escalations text, played sessions)`` rows (each distinct text parsed once)."""
    parsed: dict[str, tuple[int, list[tuple[str, int]]]] = {}  # text -> (distinct ids, (id, times) pairs)
    for trainee, drill, text, n in rows:
        seen = parsed.get(text)
        if seen is None:
            try:
                ids = json.loads(text)
            except ValueError:
                raise _Unusual from None
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise _Unusual
            seen = parsed[text] = (len(set(ids)), list(Counter(ids).items()))
        distinct, times = seen
        pair = counts.pairs.get((trainee, drill))
        if pair is not None:
            pair.escalated += n * distinct
        pulls = counts.pulls.get(drill)
        if pulls is None:
            pulls = counts.pulls[drill] = Counter()
        for event, k in times:
            pulls[event] += n * k
