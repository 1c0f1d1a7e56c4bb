"""The cohort statistics counted inside the database (``warroom scores summary``): two queries over the matching
sessions instead of a row per session, their rows turned into :class:`~warroom.core.stats.CohortStats` by
:func:`warroom.core.stats.count_first_attempts` and :func:`~warroom.core.stats.stats_from_counts` (the figures are
those of :func:`~warroom.core.stats.summarize` over :func:`~warroom.store.cohort.read_facts`).

Whether a row can be counted (its values' types and ranges, an outcome that fits the kind of drill) is not checked
here: each row's ``countable`` flag (schema version 7, :mod:`warroom.store.results._countable`) was computed by the
database when the row was written, and the queries read it from their indexes.

1. the sessions per mode that can be counted (their flag), matching every filter; those that cannot are read first,
   from their partial index ``ix_sessions_not_countable`` (few), and described one by one; the counted modes are
   chosen from these counts as :func:`~warroom.store.cohort.counted_modes` does (assessment sessions when any
   match);
2. per (trainee, drill) of the counted modes, the **first attempt** (the session the database stored first, by
   ``stored_seq``; those stored before schema version 20 have none and come first, by start time, ties by session id: a
   session's start is its client's word) with every column its trial's figures need, and how many of the pair's sessions
   the ``--since`` and ``--set`` filters keep (the first attempt is found among all of the pair's sessions, whatever
   those filters: a drill first played before the window is a replay in it). It reads :data:`ATTEMPTS_INDEX` (schema
   version 21: each trainee's sessions of each drill in that order), in order, without a sort.

The plans differ where the back ends' SQL differs:

- SQLite takes query 2's first attempt with its ``min()`` aggregate's bare columns (the other columns of a group come
  from the row first in :data:`STORED_ORDER`): one pass over the index, no window.
- PostgreSQL takes it with ``DISTINCT ON`` over the same index, on a second connection in the same snapshot, while
  query 1 (per mode, flag, trainee and drill) runs on the store's own: :mod:`warroom.store.cohort._postgres`.

Every figure is then computed in process from the first attempts (a few per trainee and drill, however many
replays the store holds): the halves of the split-half reliabilities, the medians, the distractor pulls.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from warroom.core.stats import (
    SIGNAL_RESPONSES,
    FirstAttempt,
    SessionFacts,
    count_first_attempts,
    stats_from_counts,
    uncountable,
)
from warroom.errors import WarroomError
from warroom.store.cohort._facts import (
    FACTS_INDEX,
    Counted,
    FactsQuery,
    build_facts,
    counted_modes,
    modes_counted,
    no_trial,
    prepared,
    read_facts,
    window_problems,
)
from warroom.store.results import (
    COLUMN,
    MODES,
    NOT_COUNTABLE,
    NOT_COUNTABLE_INDEX,
    read_pulled,
    valid_facts_sql,
)

if TYPE_CHECKING:
    from warroom.core.stats import CohortStats
    from warroom.store.errors import CorruptSession
    from warroom.store.results import ResultsStore

#: Query 1: the sessions per mode that can be counted (their ``countable`` flag), and all of them.
_CHECKED_SQL = "SELECT mode, count(CASE WHEN {valid} THEN 1 END), count(*) FROM sessions{hint}{where} GROUP BY mode"
#: The index of each trainee's sessions of each drill in the order the database stored them (schema migration 21).
ATTEMPTS_INDEX = "ix_sessions_attempts"
#: The columns of a first attempt, as :func:`first_attempt` reads them (after the trainee and the drill).
ATTEMPT_COLUMNS = (
    "session_id, started_at, mode, response, all_clear, outcome, total, set_id, time_to_detect, wall_time_to_detect, "
    "false_escalations, distractors_shown, distractor_escalations, scoring_version, stored_seq, countable, chosen"
)
#: The order of first attempts as one text (SQLite): the sessions stored before schema version 20 (no ``stored_seq``)
#: first, by start time and session id (``char(1)`` sorts before any character of either), then the others in the
#: order the database stored them (:data:`ATTEMPTS_INDEX`'s order).
STORED_ORDER = ("CASE WHEN stored_seq IS NULL THEN '0' || started_at || char(1) || session_id "
                "ELSE printf('1%020d', stored_seq) END")  # fmt: skip
#: SQLite's query 2: per (trainee, drill) the first attempt in any mode (the bare columns of ``min()``: those of the
#: row first in :data:`STORED_ORDER`, whether it can be counted or not) and the sessions that can be counted of the
#: counted modes (``{counted}``) the window filters keep (``{within}``).
_FIRST_SQL = (
    f"SELECT trainee, drill_id, count(CASE WHEN {{within}} AND {{counted}} AND {COLUMN} THEN 1 END), "
    f"min({STORED_ORDER}), "
    f"{ATTEMPT_COLUMNS} FROM sessions{{hint}}{{where}} GROUP BY trainee, drill_id"
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

    The figures equal :func:`facts_stats` (every session read as a :class:`~warroom.core.stats.SessionFacts`) with the
    same modes (both break ties in start time by session id). Raises ValueError for an unknown mode and
    :class:`~warroom.store.errors.StoreError` when the store cannot be read."""
    if mode not in ("auto", "all", *MODES):
        raise ValueError(f"unknown mode {mode!r} (choose from auto, {', '.join(MODES)}, all)")
    query = query or FactsQuery()
    try:
        query = prepared(store, query)
        return _count(store, query, mode)
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    except _Unusual:  # a store changed by hand in ways the SQL checks do not see: count session by session
        return facts_stats(store, query, mode)


def facts_stats(store: ResultsStore, query: FactsQuery, mode: str = "auto") -> CohortResult:
    """The cohort statistics of the sessions ``query`` matches, from one :class:`~warroom.core.stats.SessionFacts`
    per stored session of the matching trainees and drills (the first attempts are found among all of them, the
    ``--since`` and ``--set`` filters then keep theirs). Raises ValueError for an unknown mode."""
    from warroom.core.stats import summarize

    query = prepared(store, query)
    facts, problems = read_facts(store, query.partition(), with_left_out=True)
    if query.since is not None or query.set_id is not None:  # only the rows the window filters keep are reported
        problems = window_problems(store, query, facts)
    kept = [f for f in facts if query.within(f)]
    counted = counted_modes(kept, mode)
    stats = summarize(facts, modes=counted.modes, within=query.within)
    return CohortResult(stats, counted, len(kept), problems)


class _Unusual(WarroomError):
    """A row the SQL checks let through that only a session-by-session read can describe (a ``distractor_escalations``
    column that is not a JSON list of event ids, figures marked bad whose scorecard reads fine, a response that does
    not fit what the session was played as)."""


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
    unindexed = store.dialect.unindexed("")
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
    if store.dialect.name == "postgresql":
        from warroom.store.cohort._postgres import count

        rows, counted, by_mode = count(store, query, requested)
    else:  # SQLite: query 1, then query 2 (see the module docstring)
        hint = store.dialect.indexed_by(FACTS_INDEX)
        where, params = query.where("1 = 1", unindexed=unindexed)
        checked = conn.execute(_CHECKED_SQL.format(hint=hint, where=where, valid=COLUMN), params).fetchall()
        by_mode, _ = _checked(checked)
        counted = modes_counted(requested, bool(by_mode.get("assessment")))
        within, wp = query.within_sql(unindexed)
        where, params = query.partition().where(unindexed=unindexed)  # (the first attempt: in any mode, any row)
        hint = store.dialect.indexed_by(ATTEMPTS_INDEX)
        sql = _FIRST_SQL.format(within=within, counted=in_modes(store, counted), hint=hint, where=where)
        rows = [(t, d, kept, *rest) for t, d, kept, _min, *rest in conn.execute(sql, [*wp, *params]).fetchall()]
    skipped = sum(n for m, n in by_mode.items() if counted.modes is not None and m not in counted.modes)
    try:
        attempts = first_attempts(rows, query, counted)
        stats = stats_from_counts(count_first_attempts(attempts, skipped))
    except ValueError:  # a row whose values do not fit together: only a store changed by hand has them
        raise _Unusual from None
    problems = no_trial(problems, (a.first for a in attempts))
    return CohortResult(stats, counted, sum(by_mode.values()), problems)


def first_attempts(rows: Iterable[Any], query: FactsQuery, counted: Counted) -> list[FirstAttempt]:
    """The :class:`~warroom.core.stats.FirstAttempt` of each row of query 2 (trainee, drill, the sessions of the
    ``counted`` modes the window filters keep, then :data:`ATTEMPT_COLUMNS` of the pair's first session in any mode:
    a trial only when its mode is counted and it can be counted). Raises ValueError for a row whose values do not
    fit together."""
    from warroom.store.cohort._facts import approximated

    out = []
    for trainee, drill, kept, sid, started_at, mode, response, all_clear, outcome, total, *rest in rows:
        set_id, ttd, wall, false_esc, shown, text, version, seq, ok, chosen = rest
        if not ok:  # a first attempt that cannot be counted: no trial, the pair's sessions are replays
            if not all(isinstance(v, str) for v in (trainee, drill, sid, started_at)):
                raise _Unusual
            out.append(FirstAttempt(uncountable(trainee, drill, started_at, sid, seq), kept, False))
            continue
        if any(isinstance(v, bytes) for v in (trainee, drill, sid, started_at, mode, response, outcome, set_id)):
            raise _Unusual  # text that is not UTF-8 (read as bytes: ResultsStore's sqlite_text): described row by row
        try:
            pulled = read_pulled(text) if text else ()  # most rows have none: no call
        except ValueError:
            raise _Unusual from None
        signal = response in SIGNAL_RESPONSES if response is not None else not all_clear
        fact = SessionFacts(
            trainee, drill, signal, outcome, total, started_at, false_esc, shown or 0, pulled,
            ttd, wall, mode, sid, response, set_id, response is None or approximated(version), seq, True,
            bool(chosen),
        )  # fmt: skip
        out.append(FirstAttempt(fact, kept, query.within(fact) and (counted.modes is None or mode in counted.modes)))
    return out


def in_modes(store: ResultsStore, counted: Counted) -> str:
    """The SQL condition of the sessions of the counted modes (the unary + on SQLite: the mode's own index would
    make every large row be read)."""
    if counted.modes is None:
        return "1 = 1"
    modes = ", ".join(f"'{m}'" for m in sorted(counted.modes))
    return f"{store.dialect.unindexed('mode')} IN ({modes})"


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

