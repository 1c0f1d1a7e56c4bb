"""The cohort statistics' input from the results store: one :class:`~warroom.core.stats.SessionFacts` per stored
session (``warroom scores --summary`` and ``warroom report``).

Every figure comes from the session's columns (trainee, drill id, all-clear flag, outcome, total, start time, false
escalations, time to detect, wall-clock time to detect, mode), read in one scan of a covering index
(:data:`FACTS_INDEX`, schema version 3), except the distractor figures, which only the scorecard holds:
``distractors_shown`` (how many distractor events the session released) and ``distractor_escalations`` (the
distractor event ids that pulled an escalation, one entry per escalation), as scoring rules 2 write them
(:class:`~warroom.core.scoring.Scorecard`). A second query reads those inside the database (SQLite's
``json_extract``, PostgreSQL's ``json`` operators), only when some matching session was scored by rules that may
record them and only from scorecards that name them; so a store of scoring-rules-1 scorecards costs nothing extra,
and such a session counts as no distractor shown and none escalated. Both back ends run the same statements but for
the few parts :func:`_sql` spells per dialect.

A row that cannot be counted (a value of the wrong type, an unknown outcome, a containment recorded in an all-clear
drill...) is left out and reported as a :class:`~warroom.store.results.CorruptSession`; rows are never modified.
Tutorial sessions (mode ``tutorial``, :data:`TUTORIAL_MODE`) are not read at all: the guided first drill is never
counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warroom.core.stats import SessionFacts

if TYPE_CHECKING:
    from warroom.store.results import CorruptSession, ResultsStore

#: The scorecard keys of the distractor figures (written by scoring rules that record them).
SHOWN_KEY = "distractors_shown"
PULLED_KEY = "distractor_escalations"

#: The session modes (docs/sessions.md, "Cohort statistics": which sessions count).
MODES: tuple[str, ...] = ("practice", "assessment")

#: The mode of the guided tutorial's sessions (``warroom tutorial``): stored, listed, never counted in the statistics.
TUTORIAL_MODE = "tutorial"

#: The condition that leaves the tutorial's sessions out of every statistic (they are neither counted nor reported).
NOT_TUTORIAL_SQL = f"mode <> '{TUTORIAL_MODE}'"

#: Scoring rules whose scorecards never record the distractor figures (their scorecards are not read).
NO_DISTRACTOR_FIGURES: tuple[str, ...] = ("1",)

#: The covering index the statistics read (every column they need but the scorecard's distractor figures), made by
#: schema migration 3 (:data:`warroom.store.schema._MIGRATIONS`): the columns added by schema 2 sit after the large
#: scorecard and action log in a row, where reading them for 100,000 sessions costs about as much as the rest of the
#: summary's reads.
FACTS_INDEX = "ix_sessions_facts"

_COLUMNS = (
    "session_id, trainee, drill_id, all_clear, outcome, total, started_at, false_escalations, time_to_detect, "
    "wall_time_to_detect, mode, scoring_version"
)
#: Both distractor figures in one parse of the scorecard: a JSON array text ``[shown, escalations]`` (``null`` for a
#: key the scorecard lacks). ``_GUARDED`` is the same for a query that met a scorecard that is not JSON.
_FIGURES_SQL = {
    "sqlite": f"json_extract(scorecard, '$.{SHOWN_KEY}', '$.{PULLED_KEY}')",
    "postgresql": f"json_build_array(scorecard::json -> '{SHOWN_KEY}', scorecard::json -> '{PULLED_KEY}')::text",
}
#: SQLite's query for when some scorecard is not JSON (on PostgreSQL the scorecards' text is parsed here instead).
_GUARDED_FIGURES_SQL = f"CASE WHEN json_valid(scorecard) THEN {_FIGURES_SQL['sqlite']} END"
_MODES_SQL = ", ".join(f"'{m}'" for m in MODES)
#: The SQL check of the two columns the statistics read that the summaries' check does not cover (SQLite spelling;
#: :func:`_sql` drops the ``typeof`` checks and the unary ``+`` for PostgreSQL, whose columns hold their type).
_EXTRA_VALID_SQL = (
    "(wall_time_to_detect IS NULL OR (typeof(wall_time_to_detect) IN ('integer', 'real') "
    f"AND wall_time_to_detect BETWEEN 0 AND 1e9)) AND typeof(mode) = 'text' AND +mode IN ({_MODES_SQL})"
)


def _sql(text: str, loose_types: bool) -> str:
    """``text`` (SQLite's spelling) for a back end whose columns may hold other types (``loose_types``, SQLite) or
    not (PostgreSQL: no ``typeof`` check, no unary ``+``)."""
    if loose_types:
        return text
    return re.sub(r"\+(\w)", r"\1", re.sub(r"typeof\(\w+\) (?:IN \([^)]*\)|= '\w+')", "TRUE", text))


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

    def where(self, *conditions: str, unindexed: str = "+") -> tuple[str, list[Any]]:
        """The SQL WHERE clause of ``conditions`` and the filters (empty when there are none), and its parameters
        (those of the filters: ``conditions`` take none). ``unindexed`` is SQLite's unary ``+`` that keeps a column's
        own index out of the plan (empty for PostgreSQL)."""
        clauses: list[str] = list(conditions)
        params: list[Any] = []
        for column, value in (("trainee", self.trainee), ("drill_id", self.drill), ("set_id", self.set_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(value)
        if self.trainees:
            clauses.append(f"trainee IN ({', '.join('?' for _ in self.trainees)})")
            params.extend(self.trainees)
        if self.since is not None:
            # The unary + keeps the planner on the covering index instead of the started_at index plus a lookup
            # of every (large) row.
            clauses.append(f"{unindexed}started_at >= ?")
            params.append(self.since)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def read_facts(store: ResultsStore, query: FactsQuery | None = None) -> tuple[list[SessionFacts], list[CorruptSession]]:
    """The :class:`SessionFacts` of every stored session matching ``query`` (every session when None), in no
    particular order, and one :class:`CorruptSession` per matching row left out because it cannot be counted (at
    most 100 rows holding values of the wrong type are named). Works on both back ends (SQLite, PostgreSQL).

    Times are seconds (drill time and wall-clock time); the mode is the stored one. Raises
    :class:`~warroom.store.results.StoreError` when the store cannot be read (locked, damaged, unreachable)."""
    from warroom.store.records import valid_row_sql

    query = query or FactsQuery()
    loose = store.dialect.loose_types
    where, params = query.where(NOT_TUTORIAL_SQL, unindexed=store.dialect.unindexed(""))
    valid = f"{valid_row_sql(loose_types=loose)} AND {_sql(_EXTRA_VALID_SQL, loose)}"
    # One scan: ``ok`` flags the rows whose values have the right types (the others are described one by one).
    sql = f"SELECT ({valid}) AS ok, {_COLUMNS} FROM sessions{where}"
    try:
        if loose:
            cursor = store._conn.cursor()
            cursor.row_factory = None  # plain tuples: the fastest rows sqlite3 makes
            rows = cursor.execute(sql, params).fetchall()
        else:
            cursor = store._conn
            rows = cursor.execute(sql, params).fetchall()
        wanted = any(r[12] not in NO_DISTRACTOR_FIGURES for r in rows)
        figures = _distractor_figures(store, cursor, query) if wanted else {}
    except store._db_errors as exc:
        raise store._error(exc) from exc
    return _build(store, rows, figures)


def _build(
    store: ResultsStore, rows: list[Any], figures: dict[str, tuple[int, tuple[str, ...]]]
) -> tuple[list[SessionFacts], list[CorruptSession]]:
    """The facts of the rows :func:`read_facts` read (``figures``: the distractor figures by session id) and the
    rows that cannot be counted."""
    facts: list[SessionFacts] = []
    problems: list[CorruptSession] = []
    wrong: list[str] = []
    no_figures: tuple[int, tuple[str, ...]] = (0, ())
    make, append = SessionFacts, facts.append  # local names: this loop runs once per stored session
    for ok, sid, trainee, drill_id, all_clear, outcome, total, started_at, false_esc, ttd, wall_ttd, mode, _ in rows:
        if not ok:
            wrong.append(sid)
            continue
        shown, pulled = figures.get(sid, no_figures) if figures else no_figures
        try:
            fact = make(
                trainee,
                drill_id,
                not all_clear,
                outcome,
                total,
                started_at,
                false_esc,
                shown,
                pulled,
                ttd,
                wall_ttd,
                mode,
            )
            append(fact)
        except ValueError as exc:
            problems.append(_problem(sid, exc))
    return facts, _wrong_types(store, wrong) + problems


def _distractor_figures(store: ResultsStore, cursor: Any, query: FactsQuery) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Session id -> (distractors shown, distractor event ids escalated) of the matching sessions whose scorecard
    records them, read inside the database (one JSON parse per scorecard). A value of the wrong shape is kept as
    ``(-1, ())``, which :class:`SessionFacts` refuses (so the session is reported, not counted); a scorecard that is
    not JSON at all counts as recording nothing."""
    versions = ", ".join(f"'{v}'" for v in NO_DISTRACTOR_FIGURES)
    where, params = query.where(
        f"(scoring_version IS NULL OR scoring_version NOT IN ({versions}))", unindexed=store.dialect.unindexed("")
    )
    name = store.dialect.name
    try:
        rows = cursor.execute(f"SELECT session_id, {_FIGURES_SQL[name]} FROM sessions{where}", params).fetchall()
    except store._db_errors as exc:
        if name != "sqlite":  # a scorecard that is not JSON: parse their text here
            text_rows = cursor.execute(f"SELECT session_id, scorecard FROM sessions{where}", params).fetchall()
            rows = [(sid, _figures_text(card)) for sid, card in text_rows]
        elif "JSON" in str(exc):
            rows = cursor.execute(f"SELECT session_id, {_GUARDED_FIGURES_SQL} FROM sessions{where}", params).fetchall()
        else:
            raise
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    parsed: dict[str, tuple[int, tuple[str, ...]] | None] = {}  # few distinct texts: parse each once
    for sid, text in rows:
        if text is None:
            continue
        if text not in parsed:
            parsed[text] = _figures(text)
        figures = parsed[text]
        if figures is not None:
            out[sid] = figures
    return out


def _figures_text(scorecard: str) -> str | None:
    """The ``[shown, escalations]`` JSON text of a scorecard's text (None when it is not a JSON object), as the
    database's JSON functions make it."""
    try:
        card = json.loads(scorecard)
    except ValueError:
        return None
    if not isinstance(card, dict):
        return None
    return json.dumps([card.get(SHOWN_KEY), card.get(PULLED_KEY)])


def _figures(text: str) -> tuple[int, tuple[str, ...]] | None:
    """``(shown, escalated event ids)`` from ``[shown, escalations]`` JSON text; None when the scorecard has neither
    key; ``(-1, ())`` when a value has the wrong shape."""
    shown, pulled = json.loads(text)
    if shown is None and pulled is None:
        return None
    try:
        return _shown(shown), _pulled(pulled)
    except ValueError:
        return -1, ()


def _wrong_types(store: ResultsStore, ids: list[str], limit: int = 100) -> list[CorruptSession]:
    """A :class:`CorruptSession` for each of these rows (holding values of the wrong type or range; at most
    ``limit``, in id order), with the store's own description of what is wrong."""
    from warroom.store.results import CorruptSession, StoreError

    out = []
    for sid in sorted(ids)[:limit]:
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
    from warroom.store.results import CorruptSession

    return CorruptSession(f"stored session {session_id} cannot be counted in the statistics: {exc}", session_id)


def _shown(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"its scorecard's {SHOWN_KEY} {value!r} is not a count")
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
    if requested == "auto":
        requested = "assessment" if any(f.mode == "assessment" for f in facts) else "all"
    if requested == "all":
        return Counted(None, "all")
    if requested not in MODES:
        raise ValueError(f"unknown mode {requested!r} (choose from auto, {', '.join(MODES)}, all)")
    return Counted(frozenset({requested}), requested)
