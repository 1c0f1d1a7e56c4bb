"""The cohort statistics' input from the results store: one :class:`~warroom.core.stats.SessionFacts` per stored
session (``warroom report``; ``warroom scores summary`` counts inside the database instead,
:mod:`warroom.store.cohort._count`).

Every figure comes from the session's columns (trainee, drill id, all-clear flag, outcome, total, start time, false
escalations, time to detect, wall-clock time to detect, mode, and the distractor figures ``distractors_shown`` and
``distractor_escalations`` that schema version 4 keeps beside the scorecard, :mod:`warroom.store.results._distractors`),
read
in one scan of a covering index (:data:`FACTS_INDEX`); no scorecard is parsed, except those of the few sessions
whose distractor figures have the wrong shape (to say what is wrong). Both back ends run the same statements but
for the ``typeof`` checks and unary ``+`` that :func:`_sql` leaves out on PostgreSQL.

A row that cannot be counted (a value of the wrong type, an unknown outcome, a containment recorded in an all-clear
drill...) is left out and reported as a :class:`~warroom.store.errors.CorruptSession`; rows are never modified.
Tutorial sessions (mode ``tutorial``, :data:`~warroom.store.results.TUTORIAL`) are not read at all: the guided first
drill is never
counted.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from warroom.core.stats import SessionFacts
from warroom.store.errors import session_id_text
from warroom.store.results import (
    BAD_FIGURES,
    COUNTED_SQL,
    LEFT_OUT_SQL,
    MAX_SHOWN,
    MODES,
    PULLED_KEY,
    SHOWN_KEY,
    TUTORIAL,
    filter_sql,
    read_pulled,
    valid_facts_sql,
    where_sql,
)

if TYPE_CHECKING:
    from warroom.store.errors import CorruptSession
    from warroom.store.results import ResultsStore, SessionCheck




#: The covering index the statistics read (every column they need), made by schema migration 3 and remade with the
#: distractor figures by migration 4 (:data:`warroom.store.results._migrations.MIGRATIONS`): the columns added after
#: version 1
#: sit after the large scorecard and action log in a row, where reading them for 100,000 sessions costs about as
#: much as the rest of the summary's reads.
FACTS_INDEX = "ix_sessions_facts"

#: The columns :func:`read_facts` reads. ``stored_seq`` is read as a whole number, as the summary's SQL orders it
#: (:data:`~warroom.store.cohort._count.STORED_ORDER`: SQLite's ``printf('%d')``, which converts as ``CAST`` does): a
#: SQLite store written by hand may hold text or a blob there, which ``warroom report`` compared with a number (a
#: traceback) where the summary counted the session.
_COLUMNS = (
    "session_id, trainee, drill_id, all_clear, outcome, total, started_at, false_escalations, time_to_detect, "
    "wall_time_to_detect, mode, distractors_shown, distractor_escalations, response, set_id, scoring_version, "
    "CAST(stored_seq AS BIGINT), chosen"
)


@functools.cache
def recorded_versions() -> frozenset[str]:
    """The scoring rules whose scorecards record the trial's response (a session of other rules has its response
    approximated from the outcome: the statistics count those sessions)."""
    from warroom.core.scoring import EDITIONS

    return frozenset(v for v, e in EDITIONS.items() if e.records_response)


def approximated(version: str | None) -> bool:
    """Whether a session scored by the rules ``version`` with a response stored has it approximated from the
    outcome: rules before the trial's response was recorded. Rules newer than this warroom's (a newer warroom wrote
    the session) recorded it, as every version from 4 on does. Not cached: ``version`` is a stored column a trainee
    role may write, and each forged text would be kept for the process's life."""
    from warroom.core.scoring import newer_rules

    return version not in recorded_versions() and not newer_rules(version)


@dataclass(frozen=True)
class FactsQuery:
    """Which stored sessions to read: each filter matches exactly (None: any); ``trainees`` (when not empty) keeps
    only these trainees. ``since`` is a UTC timestamp text (see :func:`~warroom.store.results.parse_since`):
    sessions started at or after it."""

    trainee: str | None = None
    drill: str | None = None
    since: str | None = None
    set_id: str | None = None
    trainees: tuple[str, ...] = field(default=())
    #: Count the sessions that are not verified too (``--include-unverified``); by default they are left out
    #: (:mod:`warroom.store.results._verification`).
    include_unverified: bool = False
    #: Set by :func:`prepared` when some stored session is not verified and is to be left out: every query then
    #: leaves those out (when none is, the queries are the same as before schema version 14).
    leave_out: bool = False
    #: Set by :func:`prepared` with ``leave_out``: the ids of the sessions left out, which :meth:`within` does not
    #: keep (a first attempt left out is no trial, and the pair's later sessions stay replays).
    left_out_ids: frozenset[str] = frozenset()

    def partition(self) -> FactsQuery:
        """This query without the filters that may leave out a trainee's earlier sessions of a drill (``since``,
        ``set_id``, and the sessions that are not verified): what the first attempts are found among (they are
        counted only when ``within`` keeps them). A session left out of the figures still was played: a drill
        played first in a session that is not verified (a set session of a trainee's own client, one whose drill
        file changed since) is a replay afterwards, as one first played before ``--since`` is."""
        return replace(self, since=None, set_id=None, leave_out=False)

    def within(self, fact: SessionFacts) -> bool:
        """Whether ``fact`` passes the filters :meth:`partition` leaves out (a stand-in for a session that cannot be
        counted never does)."""
        return (
            fact.countable
            and (self.since is None or fact.started_at >= self.since)
            and (self.set_id is None or fact.set_id == self.set_id)
            and fact.session_id not in self.left_out_ids
        )

    def within_sql(self, unindexed: str = "+") -> tuple[str, list[Any]]:
        """The SQL condition of :meth:`within` (``1 = 1`` when there is no such filter) and its parameters."""
        clauses, params = filter_sql(since=self.since, set_id=self.set_id, since_unindexed=unindexed)
        if self.leave_out:
            clauses = [*clauses, COUNTED_SQL]
        return (" AND ".join(clauses) or "1 = 1"), params

    def where(self, *conditions: str, unindexed: str = "+") -> tuple[str, list[Any]]:
        """The SQL WHERE clause of ``conditions`` and the filters (empty when there are none), and its parameters
        (those of the filters: ``conditions`` take none). ``unindexed`` is SQLite's unary ``+`` that keeps a column's
        own index out of the plan (empty for PostgreSQL): a statistic reads every matching row, so scanning the
        covering index beats the ``started_at`` index plus a lookup of each (large) row."""
        clauses, params = filter_sql(
            trainee=self.trainee, drill=self.drill, set_id=self.set_id, trainees=self.trainees, since=self.since,
            since_unindexed=unindexed, counted_only=True,
        )  # fmt: skip
        left_out = [COUNTED_SQL] if self.leave_out else []
        return where_sql([*conditions, *clauses, *left_out]), params


def prepared(store: ResultsStore, query: FactsQuery) -> FactsQuery:
    """``query`` made to leave out the sessions that are not verified (and to know their ids), when there are any
    and it does not ask to include them."""
    leave_out = not query.include_unverified and store.any_left_out()
    try:
        ids = frozenset(_left_out_ids(store)) if leave_out else frozenset()
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    return replace(query, leave_out=leave_out, left_out_ids=ids)


@dataclass(frozen=True)
class Unverified:
    """The matching sessions that are not verified: how many (``count``), whether the figures count them
    (``counted``: ``--include-unverified``), and the first ones with why (``checks``, at most the limit asked for,
    in session id order)."""

    count: int = 0
    counted: bool = False
    checks: tuple[SessionCheck, ...] = ()


def unverified_sessions(store: ResultsStore, query: FactsQuery | None = None, limit: int = 100) -> Unverified:
    """The sessions matching ``query``'s filters that are not verified (:class:`Unverified`). Raises
    :class:`~warroom.store.errors.StoreError` when the store cannot be read."""
    query = replace(query or FactsQuery(), leave_out=False)
    try:
        if not store.any_left_out():
            return Unverified(counted=query.include_unverified)
        where, params = query.where(LEFT_OUT_SQL, unindexed=store.dialect.unindexed(""))
        ids = [r[0] for r in store.db.conn.execute(f"SELECT session_id FROM sessions{where}", params).fetchall()]
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    ids.sort(key=session_id_text)  # (a BLOB id written by SQL is named as its SQL literal, never compared with text)
    checks = store.checks(ids[:limit])
    named = tuple(replace(checks[i], session_id=session_id_text(i)) for i in ids[:limit] if i in checks)
    return Unverified(len(ids), query.include_unverified, named)


#: The ``--mode`` of the summary and the report whose figures say how many tutorial sessions they left out (None:
#: the summary's default, ``auto``); ``practice`` and ``assessment`` do not ask for the tutorial's.
TUTORIAL_TOLD_MODES = (None, "auto", "all")


def tutorial_sessions(store: ResultsStore, query: FactsQuery | None = None, mode: str | None = None) -> int:
    """How many sessions of the guided tutorial match ``query``'s filters, for figures of the ``--mode`` ``mode`` to
    say they never count them: 0 for a mode that does not ask for the tutorial's (:data:`TUTORIAL_TOLD_MODES`).
    Raises :class:`~warroom.store.errors.StoreError` when the store cannot be read."""
    if mode not in TUTORIAL_TOLD_MODES:
        return 0
    q = query or FactsQuery()
    clauses, params = filter_sql(trainee=q.trainee, drill=q.drill, set_id=q.set_id, trainees=q.trainees,
                                 since=q.since, mode=TUTORIAL)  # fmt: skip
    try:
        return int(store.db.conn.execute(f"SELECT count(*) FROM sessions{where_sql(clauses)}", params).fetchone()[0])
    except store.db.errors as exc:
        raise store.db.error(exc) from exc


def read_facts(
    store: ResultsStore, query: FactsQuery | None = None, *, with_left_out: bool = False
) -> tuple[list[SessionFacts], list[CorruptSession]]:
    """The :class:`SessionFacts` of every stored session matching ``query`` (every session when None; the sessions
    that are not verified left out unless it includes them, :func:`unverified_sessions`, or ``with_left_out``: to
    find the first attempts among, a query :func:`prepared` then keeping them out), in no particular order,
    and one :class:`CorruptSession` per matching row left out because it cannot be counted (at most 100 rows holding
    values of the wrong type are named). Works on both back ends (SQLite, PostgreSQL).

    Times are seconds (drill time and wall-clock time); the mode is the stored one. Raises
    :class:`~warroom.store.errors.StoreError` when the store cannot be read (locked, damaged, unreachable)."""
    loose = store.dialect.loose_types
    query = replace(query or FactsQuery(), leave_out=False)
    where, params = query.where(unindexed=store.dialect.unindexed(""))
    # One scan: ``ok`` flags the rows whose values have the right types (the others are described one by one).
    sql = f"SELECT ({valid_facts_sql(loose)}) AS ok, {_COLUMNS} FROM sessions{where}"
    try:
        if loose:
            cursor = store.db.conn.cursor()
            cursor.row_factory = None  # plain tuples: the fastest rows sqlite3 makes
            rows = cursor.execute(sql, params).fetchall()
        else:
            rows = store.db.conn.execute(sql, params).fetchall()
        left_out = set() if query.include_unverified or with_left_out else _left_out_ids(store)
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    facts, problems = build_facts(store, rows, stand_ins=with_left_out)
    if left_out:  # (a row that cannot be counted is described even when it is not verified either)
        facts = [f for f in facts if f.session_id not in left_out]
    if with_left_out:
        problems = no_trial(problems, first_of_pairs(facts))
    return facts, problems


def window_problems(store: ResultsStore, query: FactsQuery, facts: list[SessionFacts]) -> list[CorruptSession]:
    """The rows that cannot be counted among those ``query``'s window filters (``--since``, ``--set``) keep, each
    first attempt among them said to be one, ``facts`` being what :func:`read_facts` read of ``query.partition()``
    with ``with_left_out``."""
    return no_trial(read_facts(store, query)[1], first_of_pairs(facts))


def first_of_pairs(facts: Iterable[SessionFacts]) -> list[SessionFacts]:
    """Each (trainee, drill) pair's first session among ``facts`` (:func:`~warroom.core.stats.attempt_order`)."""
    from warroom.core.stats import attempt_order

    first: dict[tuple[str, str], SessionFacts] = {}
    for f in facts:
        now = first.get((f.trainee, f.drill_id))
        if now is None or attempt_order(f) < attempt_order(now):
            first[f.trainee, f.drill_id] = f
    return list(first.values())


def no_trial(problems: list[CorruptSession], firsts: Iterable[SessionFacts]) -> list[CorruptSession]:
    """``problems`` with the sessions among ``firsts`` (first attempts) that cannot be counted said to leave their
    drill without a trial for their trainee (their later sessions of it are replays, never the trial)."""
    from warroom.store.errors import CorruptSession

    pairs = {f.session_id: f for f in firsts if not f.countable}
    if not pairs:
        return problems
    out = []
    for p in problems:
        f = pairs.get(p.session_id)
        if f is not None:
            p = CorruptSession(f"{p}; it is the first attempt of trainee {f.trainee!r} at drill {f.drill_id!r}, so "
                               "that drill gives them no trial (their later sessions of it are replays)",
                               p.session_id)  # fmt: skip
        out.append(p)
    return out


def _left_out_ids(store: ResultsStore) -> set[str]:
    """The ids of the stored sessions left out of the statistics by default (not verified)."""
    if not store.any_left_out():
        return set()
    sql = f"SELECT session_id FROM sessions WHERE {LEFT_OUT_SQL}"
    return {str(r[0]) for r in store.db.conn.execute(sql).fetchall()}


def build_facts(
    store: ResultsStore, rows: list[Any], *, stand_ins: bool = False
) -> tuple[list[SessionFacts], list[CorruptSession]]:
    """The facts of rows read as :func:`read_facts` reads them (``ok`` flag, then :data:`_COLUMNS`), and the rows
    that cannot be counted; with ``stand_ins``, the facts also hold a stand-in for each of those
    (:func:`~warroom.core.stats.uncountable`: the first attempt is found among them too)."""
    facts: list[SessionFacts] = []
    problems: list[CorruptSession] = []
    wrong: list[str] = []
    make, append = SessionFacts, facts.append  # local names: this loop runs once per stored session
    for ok, sid, trainee, drill_id, all_clear, outcome, total, started_at, false_esc, ttd, wall_ttd, *rest in rows:
        mode, shown, text, response, set_id, version, seq, chosen = rest
        if not ok or any(isinstance(v, bytes) for v in (sid, trainee, drill_id, started_at, mode, response, set_id)):
            wrong.append(sid)  # (bytes: text that is not UTF-8, as ResultsStore's sqlite_text reads it)
            if stand_ins:
                _stand_in(facts, sid, trainee, drill_id, started_at, seq)
            continue
        try:
            pulled = read_pulled(text) if text else ()  # most rows have none: no call
            if shown == BAD_FIGURES:
                shown, pulled = _scorecard_figures(store, sid)
            fact = make(trainee, drill_id, not all_clear, outcome, total, started_at, false_esc, shown or 0, pulled,
                        ttd, wall_ttd, mode, sid, response, set_id,
                        response is None or approximated(version), seq, True, bool(chosen))  # fmt: skip
            append(fact)
        except ValueError as exc:
            problems.append(_problem(sid, exc))
            if stand_ins:
                _stand_in(facts, sid, trainee, drill_id, started_at, seq)
    return facts, _wrong_types(store, wrong) + problems


def _stand_in(facts: list[SessionFacts], sid: Any, trainee: Any, drill: Any, started_at: Any, seq: Any) -> None:
    """Add the stand-in of a row that cannot be counted to ``facts`` (none when even its names or its order hold
    values of the wrong type: no session of a pair can have those)."""
    from warroom.core.stats import uncountable

    if all(isinstance(v, str) for v in (sid, trainee, drill, started_at)) and (seq is None or type(seq) is int):
        facts.append(uncountable(trainee, drill, started_at, sid, seq))


def _scorecard_figures(store: ResultsStore, session_id: str) -> tuple[int, tuple[str, ...]]:
    """The distractor figures of a session whose columns mark them as having the wrong shape, read again from its
    scorecard so that :class:`SessionFacts` says what is wrong: ``(-1, ())`` for a value of the wrong shape, else
    the values themselves (more distractors escalated than shown)."""
    row = store.db.conn.execute("SELECT scorecard FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
    try:
        card = json.loads(row[0])
        shown, pulled = card.get(SHOWN_KEY), card.get(PULLED_KEY)
        return _shown(shown), _pulled(pulled)
    except (ValueError, TypeError, AttributeError, RecursionError):  # RecursionError: JSON nested too deeply
        return BAD_FIGURES, ()


def _wrong_types(store: ResultsStore, ids: list[str], limit: int = 100) -> list[CorruptSession]:
    """A :class:`CorruptSession` for each of these rows (holding values of the wrong type or range; at most
    ``limit``, in id order), with the store's own description of what is wrong."""
    from warroom.store.errors import CorruptSession, StoreError

    out = []
    for sid in sorted(ids, key=session_id_text)[:limit]:
        if not isinstance(sid, str):  # a BLOB, or text that is not UTF-8: no id to look it up by
            out.append(_problem(session_id_text(sid), ValueError("its session id is not UTF-8 text (written by SQL)")))
            continue
        try:
            store.get(sid)
        except CorruptSession as exc:
            out.append(CorruptSession(str(exc), sid))
        except StoreError as exc:  # e.g. deleted meanwhile by another warroom
            out.append(_problem(sid, exc))
        else:  # the SQL check and the store's read disagree; keep the row reported anyway
            out.append(_problem(sid, ValueError("a value of the wrong type or range")))
    return out


def _problem(session_id: str, exc: Exception) -> CorruptSession:
    from warroom.store.errors import CorruptSession

    return CorruptSession(f"stored session {session_id} cannot be counted in the statistics: {exc}", session_id)


def _shown(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SHOWN:
        raise ValueError(f"its scorecard's {SHOWN_KEY} {value!r} is not a count (from 0 to {MAX_SHOWN:,})")
    return value


def _pulled(value: Any) -> tuple[str, ...]:
    """The event ids of ``distractor_escalations`` (a list parsed from JSON; None when absent)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise ValueError(f"its scorecard's {PULLED_KEY} is not a list of event ids")
    return tuple(value)


@dataclass(frozen=True)
class Counted:
    """Which sessions the cohort statistics count: ``modes`` (a set of session modes, None: every session) and
    ``label`` (``assessment``, ``practice`` or ``all``), as chosen by :func:`counted_modes`."""

    modes: frozenset[str] | None
    label: str


def counted_modes(facts: list[SessionFacts], requested: str = "auto") -> Counted:
    """The sessions to count for ``requested`` (``auto``, ``assessment``, ``practice`` or ``all``).

    ``auto`` (the default) is ``assessment`` when any of ``facts`` is an assessment session, else ``all`` (a store of
    practice sessions only still gets its figures). Raises ValueError for another value."""
    return modes_counted(requested, requested == "auto" and any(f.mode == "assessment" for f in facts))


def modes_counted(requested: str, any_assessment: bool) -> Counted:
    """:func:`counted_modes` of sessions of which ``any_assessment`` says whether any is an assessment session (as
    the statistics counted in the database know it)."""
    if requested == "auto":
        requested = "assessment" if any_assessment else "all"
    if requested == "all":
        return Counted(None, "all")
    if requested not in MODES:
        raise ValueError(f"unknown mode {requested!r} (choose from auto, {', '.join(MODES)}, all)")
    return Counted(frozenset({requested}), requested)
