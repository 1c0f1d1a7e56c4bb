"""Each stored session's "can be counted" flag (schema version 7): the row checks of the cohort statistics,
evaluated when a row is written instead of at every ``warroom scores summary``.

The statistics count a session only when its statistics columns hold values of the right type and range and an
outcome that fits the kind of drill (:func:`countable_sql`). Evaluating those checks for every
row was about a third of the SQL of ``scores summary`` on a 100,000-session SQLite store, so the store keeps the
result in the column ``countable`` (true: the row can be counted; false or NULL: it cannot, and the summary
describes it one by one), held in the statistics' covering index (:data:`~warroom.store.cohort._facts.FACTS_INDEX`).

The database itself computes the flag from the one check expression, so every write keeps it right, whichever path
made it (a finished or recovered session, ``warroom store sync``, ``store import``, a re-score, and a row changed
by hand or by another program):

- PostgreSQL: a generated column (``GENERATED ALWAYS AS (...) STORED``), computed by the server on every insert and
  update;
- SQLite: a plain column kept by two triggers (after every insert and every update, the flag is set where it
  differs from the checks). SQLite 3.40 cannot add a stored generated column to an existing table, and it does not
  read a generated column from an index (a summary would then read every whole row).

``store export`` does not write the flag (it is not a column of :data:`~warroom.store.results._rows.LIST_FIELDS`);
``store import`` gets it recomputed by the database. A partial index of the sessions that cannot be counted
(:data:`NOT_COUNTABLE_INDEX`) lets the summary read them, to name them, without a scan. A store keeps the checks
it was migrated with: when the checks change, a new schema migration must redefine the column and the triggers
(``tests/unit/test_store_countable.py`` pins the checks of migration 7 and fails when they change).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from warroom.core.model import CONTAINED_OUTCOMES, Outcome
from warroom.store.backends import SQLITE, Dialect

#: The column holding the flag.
COLUMN = "countable"
#: The SQLite triggers that keep the flag (after an insert, after an update).
TRIGGERS: tuple[str, str] = ("sessions_countable_insert", "sessions_countable_update")
#: The statistics' covering index as schema version 7 makes it: version 4's columns and the flag.
FACTS_INDEX_SQL = (
    "CREATE INDEX ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total, started_at, "
    "false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id, distractors_shown, "
    "distractor_escalations, session_id, countable)"
)

#: A partial index of the sessions that cannot be counted (few): the summary finds them without a scan.
NOT_COUNTABLE_INDEX = "ix_sessions_not_countable"
#: The condition of a session that cannot be counted (the same text on both back ends: the partial index's).
NOT_COUNTABLE = f"{COLUMN} IS NOT TRUE"
_NOT_COUNTABLE_INDEX_SQL = (
    f"CREATE INDEX IF NOT EXISTS {NOT_COUNTABLE_INDEX} ON sessions(session_id) WHERE {NOT_COUNTABLE}"
)


def flag_sql(dialect: Dialect) -> str:
    """The SQL expression of the flag on ``dialect``'s back end (the checks of
    :func:`countable_sql`)."""
    from warroom.store.results._countable import countable_sql

    return countable_sql(dialect.loose_types)


def column_sql(dialect: Dialect) -> str:
    """The ``ALTER TABLE`` adding the flag: a stored generated column on PostgreSQL, a plain column on SQLite."""
    if dialect.name == "sqlite":
        return f"ALTER TABLE sessions ADD COLUMN {COLUMN} INTEGER"
    generated = f"GENERATED ALWAYS AS ({flag_sql(dialect)}) STORED"
    return f"ALTER TABLE sessions ADD COLUMN IF NOT EXISTS {COLUMN} BOOLEAN {generated}"


def trigger_sql(dialect: Dialect) -> list[str]:
    """SQLite's ``CREATE TRIGGER`` statements keeping the flag (none on PostgreSQL): after an insert or an update of
    a row, its flag is set where it differs from the checks (recursive triggers are off, so the trigger's own update
    does not start it again; the update trigger then finds the flag right)."""
    if dialect.name != "sqlite":
        return []
    flag = flag_sql(dialect)
    body = f"UPDATE sessions SET {COLUMN} = ({flag}) WHERE session_id = NEW.session_id AND {COLUMN} IS NOT ({flag})"
    return [
        f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {event} ON sessions BEGIN {body}; END"
        for name, event in zip(TRIGGERS, ("INSERT", "UPDATE"), strict=True)
    ]


#: The columns the flag's checks read.
_CHECKED = ("trainee", "drill_id", "started_at", "outcome", "total", "all_clear", "false_escalations",
            "time_to_detect", "wall_time_to_detect", "mode", "distractors_shown", "distractor_escalations")  # fmt: skip


def insert_sql(columns: list[str], plain: str) -> str:
    """SQLite's INSERT of one row of ``columns`` (``?`` placeholders in that order) that also writes its flag, computed
    from the values themselves, so that the insert trigger finds it right and does not write the row a second time;
    ``plain`` (the INSERT without the flag) when ``columns`` lack a column the checks read. The trigger still
    corrects the flag where a value is stored with another type than it was given (a column's type affinity)."""
    if not set(_CHECKED) <= set(columns):
        return plain
    return _insert_with_flag(tuple(columns))


@functools.cache
def _insert_with_flag(columns: tuple[str, ...]) -> str:
    given = ", ".join(f"? AS {c}" for c in columns)
    return (
        f"INSERT INTO sessions ({', '.join(columns)}, {COLUMN}) SELECT *, ({flag_sql(SQLITE)}) FROM (SELECT {given}) "
        "WHERE TRUE ON CONFLICT(session_id) DO NOTHING"
    )


def migrate(conn: Any, dialect: Dialect, columns: set[str]) -> None:
    """Schema migration 7 on the open connection ``conn`` (inside the migration's transaction): add the flag (unless
    ``columns``, the table's column names, already hold it), compute it for every stored session, add the triggers
    (SQLite), remake the covering index of the statistics with it and index the sessions that cannot be counted."""
    if COLUMN not in columns or dialect.name != "sqlite":
        conn.execute(column_sql(dialect))  # (PostgreSQL's: IF NOT EXISTS; its server fills the column)
    if dialect.name == "sqlite":
        conn.execute(f"UPDATE sessions SET {COLUMN} = ({flag_sql(dialect)})")
    for statement in trigger_sql(dialect):
        conn.execute(statement)
    conn.execute("DROP INDEX IF EXISTS ix_sessions_facts")
    conn.execute(FACTS_INDEX_SQL)
    conn.execute(_NOT_COUNTABLE_INDEX_SQL)


#: The session modes (docs/sessions.md, "Cohort statistics": which sessions count).
MODES: tuple[str, ...] = ("practice", "assessment")
_MODES_SQL = ", ".join(f"'{m}'" for m in MODES)
#: The SQL check of the columns the statistics read that :func:`~warroom.store.results._checks.valid_row_sql` does not
#: cover (SQLite spelling;
#: :func:`_sql` drops the ``typeof`` checks and the unary ``+`` for PostgreSQL, whose columns hold their type).
_EXTRA_VALID_SQL = (
    "(wall_time_to_detect IS NULL OR (typeof(wall_time_to_detect) IN ('integer', 'real') "
    f"AND wall_time_to_detect BETWEEN 0 AND 1e9)) AND typeof(mode) = 'text' AND +mode IN ({_MODES_SQL}) "
    "AND (distractors_shown IS NULL OR typeof(distractors_shown) = 'integer') "
    "AND (distractor_escalations IS NULL OR typeof(distractor_escalations) = 'text')"
)


def _sql(text: str, loose_types: bool) -> str:
    """``text`` (SQLite's spelling) for a back end whose columns may hold other types (``loose_types``, SQLite) or
    not (PostgreSQL: no ``typeof`` check, no unary ``+``)."""
    if loose_types:
        return text
    return re.sub(r"\+(\w)", r"\1", re.sub(r"typeof\(\w+\) (?:IN \([^)]*\)|= '\w+')", "TRUE", text))


_HELD = f"'{Outcome.ALL_CLEAR_HELD.value}'"
_CONTAINED = ", ".join(f"'{o.value}'" for o in sorted(CONTAINED_OUTCOMES))


#: The checks a row must pass beyond its columns' types (:class:`~warroom.core.stats.SessionFacts`' own): an
#: outcome that fits the kind of drill, distractor figures of the right shape.
_FITS_SQL = (
    f"((all_clear = 0 AND outcome <> {_HELD}) OR (all_clear <> 0 AND outcome NOT IN ({_CONTAINED}))) "
    "AND (distractors_shown IS NULL OR distractors_shown >= 0)"
)


def countable_sql(loose_types: bool) -> str:
    """The SQL condition true for a row the cohort statistics can count: :func:`valid_facts_sql` and an outcome that
    fits the kind of drill, distractor figures not marked bad. The store keeps its value with each row (the column
    ``countable``, schema version 7)."""
    return f"({valid_facts_sql(loose_types)} AND {_FITS_SQL})"


def valid_facts_sql(loose_types: bool) -> str:
    """The SQL condition true for a row whose statistics columns hold values of the right type and range (a row
    that fails it is described by :func:`warroom.store.cohort._facts.build_facts`)."""
    from warroom.store.results._checks import valid_row_sql

    return f"{valid_row_sql(loose_types=loose_types)} AND {_sql(_EXTRA_VALID_SQL, loose_types)}"
