"""The cohort counts kept at write time (schema version 8; by statement triggers on PostgreSQL since version 9):
per (mode, "can be counted" flag, trainee, drill, distractors escalated) the sessions and the counts of the
summary's queries 1 to 3 (:mod:`warroom.store.cohort`), in the table ``session_counts`` (:data:`TABLE`), so that
``warroom scores summary`` reads a few thousand rows instead of grouping every session.

The database keeps the table itself, with triggers on ``sessions`` (after every insert, update and delete: the old
row's counts are taken off its key, the new row's added to its key, in the writing transaction), so every write
path keeps it exact: a finished or recovered session, ``warroom store sync``, ``store import``, a re-score, a
deletion, a row changed by hand or by another program. Concurrent writers add to the same row with an upsert
(``INSERT ... ON CONFLICT DO UPDATE``: the server serialises them on the row; SQLite serialises writers anyway).

- PostgreSQL (schema version 9): statement triggers with transition tables for insert, update and delete, calling
  one PL/pgSQL function (``SECURITY DEFINER``, owned by the role that migrated: a trainee role of ``warroom store
  secure`` may insert sessions without any right on the table) that sums the statement's rows per key and upserts
  the keys in key order (:func:`_statement_upsert`), and a statement trigger that empties the table when
  ``sessions`` is truncated. Every statement thus locks the table's rows in one order: two transactions that each
  change many sessions of the same keys (two facilitators deleting overlapping sets, a re-score during a
  ``store import``) wait for each other and never deadlock on them. (Version 8's row triggers upserted in the
  order of the rows, which could.) warroom writes each transaction's sessions in one statement (a deletion of
  many sessions too); another program whose one transaction changes sessions of the same keys in several
  statements in opposite orders can still deadlock (the server aborts one, which changes nothing);
- SQLite: three triggers of upserts (after insert, update, delete); the flag's own triggers
  (:mod:`warroom.store.countable`) update the row after an insert, which the update trigger follows.

A key whose sessions were all deleted keeps a row with ``n = 0``: readers skip those (:data:`LIVE`). Each count is
the one :data:`~warroom.store.cohort._PAIR_COUNTS` gives over the sessions that can be counted (0 for those that
cannot: only their number ``n`` is kept, the summary describes them one by one). The migration fills the table from
the stored sessions (:func:`migrate`): one GROUP BY of every session (1.8 s at 1,000,000 on PostgreSQL, plus
5.3 s for :data:`DRILL_TIMES_INDEX`; 1.0 s at 100,000 on SQLite).

PostgreSQL's summary (:mod:`warroom.store.cohort_pg`) reads the table when its filters are all on the key (trainee,
drill, mode): not with ``--since`` nor ``--set`` (:func:`serves`), nor for a role that may not read it
(:func:`readable`). SQLite's summary does not read it: its grouped reads of the sessions, in C, cost less there
(benchmarks/README.md); the table is kept all the same, so both back ends hold one schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.core.model import Outcome
from warroom.store.dialect import SQLITE, Dialect

if TYPE_CHECKING:
    from warroom.store.facts import FactsQuery

#: The table of the counts.
TABLE = "session_counts"
#: Its key: mode, the flag (1: can be counted), trainee, drill, whether ``distractor_escalations`` is not NULL (1)
#: and its text ('' when NULL; both are kept for the sessions that can be counted only).
KEY: tuple[str, ...] = ("mode", "countable", "trainee", "drill_id", "escalated", "escalations")
#: The counts, in :class:`~warroom.store.cohort_pg.Folded`'s order: played sessions, then
#: :data:`~warroom.store.cohort._PAIR_COUNTS`' (sessions, abandoned, fault drills played, hits, all-clear drills
#: played, false alarms, false escalations of those, distractors shown, score sum, fault drills).
COUNTS: tuple[str, ...] = ("played", "n", "abandoned", "fault", "hits", "clear", "false_alarms", "clear_false",
                           "shown", "score", "any_fault")  # fmt: skip
#: The rows of keys that still have sessions.
LIVE = "n > 0"
#: The PostgreSQL trigger function and the triggers.
FUNCTION = "warroom_session_counts"
TRIGGERS: tuple[str, ...] = ("sessions_counts_insert", "sessions_counts_update", "sessions_counts_delete")
_TRUNCATE = ("warroom_session_counts_truncate", "sessions_counts_truncate")
#: The columns of ``sessions`` the key and the counts read: an update of none of them leaves the counts.
READS: tuple[str, ...] = ("mode", "countable", "trainee", "drill_id", "distractor_escalations", "outcome",
                          "all_clear", "false_escalations", "distractors_shown", "total")  # fmt: skip

#: PostgreSQL's index of the drills' medians of time to detect (:data:`~warroom.store.cohort_pg._PG_MEDIANS_SQL`),
#: also made by migration 8: the played sessions of a mode come out of it in drill order (no sort of them all) and
#: from pages a fifth the size of :data:`~warroom.store.cohort.ORDER_INDEX`'s (0.55 s of server CPU down to 0.13 s at
#: 1,000,000 sessions). SQLite takes those medians in process from its read of that order index instead.
DRILL_TIMES_INDEX = "ix_sessions_drill_times"
_DRILL_TIMES_SQL = (
    f"CREATE INDEX IF NOT EXISTS {DRILL_TIMES_INDEX} ON sessions (mode, drill_id) "
    "INCLUDE (outcome, time_to_detect, wall_time_to_detect)"
)

_TABLE_SQL = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (mode TEXT NOT NULL, countable INTEGER NOT NULL, trainee TEXT NOT NULL, "
    "drill_id TEXT NOT NULL, escalated INTEGER NOT NULL, escalations TEXT NOT NULL, "
    + ", ".join(f"{c} INTEGER NOT NULL DEFAULT 0" for c in COUNTS)
    + f", PRIMARY KEY ({', '.join(KEY)}))"
)


def _values(p: str) -> list[str]:
    """The key and the counts of one session as SQL expressions over the row ``p`` (``NEW.``, ``OLD.`` or '')."""
    ok = f"{p}countable"
    played = f"{p}outcome <> '{Outcome.ABANDONED.value}'"
    esc = f"{ok} AND {p}distractor_escalations IS NOT NULL"

    def one(condition: str) -> str:
        return f"CASE WHEN {ok} AND {condition} THEN 1 ELSE 0 END"

    def value(condition: str, column: str) -> str:
        return f"CASE WHEN {ok} AND {condition} THEN {column} ELSE 0 END"

    fault, clear = f"{p}all_clear = 0", f"{p}all_clear <> 0"
    return [
        f"{p}mode", f"CASE WHEN {ok} THEN 1 ELSE 0 END", f"{p}trainee", f"{p}drill_id",
        f"CASE WHEN {esc} THEN 1 ELSE 0 END", f"CASE WHEN {esc} THEN {p}distractor_escalations ELSE '' END",
        one(played), "1", one(f"NOT ({played})"), one(f"{fault} AND {played}"),
        one(f"{fault} AND {p}outcome = '{Outcome.CONTAINED.value}'"), one(f"{clear} AND {played}"),
        one(f"{clear} AND {played} AND {p}outcome <> '{Outcome.ALL_CLEAR_HELD.value}'"),
        value(f"{clear} AND {played}", f"{p}false_escalations"),
        value(played, f"coalesce({p}distractors_shown, 0)"), value(played, f"{p}total"), one(fault),
    ]  # fmt: skip


def recount_sql(where: str = "") -> str:
    """The table's rows computed from ``sessions`` (``where``: its WHERE clause, or ''), in the table's column
    order: what the migration fills it with, and what it always equals (its rows with ``n > 0``)."""
    values = _values("")
    keys, counts = values[: len(KEY)], values[len(KEY) :]
    return (
        f"SELECT {', '.join(keys)}, {', '.join(f'sum({c})' for c in counts)} FROM sessions{where} "
        f"GROUP BY {', '.join(keys)}"
    )


def _upsert(p: str, sign: str) -> str:
    """The upsert adding (``sign`` '') or taking off ('-') the counts of the row ``p`` to or from its key."""
    values = _values(p)
    given = values[: len(KEY)] + [f"{sign}({v})" for v in values[len(KEY) :]]
    sets = ", ".join(f"{c} = {TABLE}.{c} + excluded.{c}" for c in COUNTS)
    return (
        f"INSERT INTO {TABLE} ({', '.join(KEY + COUNTS)}) VALUES ({', '.join(given)}) "
        f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {sets}"
    )


def _changed(dialect: Dialect) -> str:
    """The WHEN condition of the update trigger: a column the counts read changed."""
    op = "IS NOT" if dialect.name == "sqlite" else "IS DISTINCT FROM"
    return " OR ".join(f"OLD.{c} {op} NEW.{c}" for c in READS)


def _sqlite_triggers() -> list[str]:
    add, take = _upsert("NEW.", ""), _upsert("OLD.", "-")
    insert, update, delete = TRIGGERS
    return [
        f"CREATE TRIGGER IF NOT EXISTS {insert} AFTER INSERT ON sessions BEGIN {add}; END",
        f"CREATE TRIGGER IF NOT EXISTS {update} AFTER UPDATE ON sessions WHEN {_changed(SQLITE)} "
        f"BEGIN {take}; {add}; END",
        f"CREATE TRIGGER IF NOT EXISTS {delete} AFTER DELETE ON sessions BEGIN {take}; END",
    ]


def _statement_upsert(*sources: tuple[str, str]) -> str:
    """PostgreSQL's upsert of one statement's changes: the rows of the transition tables ``sources`` (name, sign:
    '' adds a row's counts, '-' takes them off) summed per key, the keys whose counts did not change left out, and
    the table's rows upserted in key order, so that every writer locks them in the same order (two statements that
    change the same keys wait for each other and never deadlock)."""
    values = _values("")
    keys, counts = values[: len(KEY)], values[len(KEY) :]
    rows = " UNION ALL ".join(
        f"SELECT {', '.join(keys)}, {', '.join(f'{sign}({c})' for c in counts)} FROM {name}" for name, sign in sources
    )
    key, columns = ", ".join(KEY), ", ".join(KEY + COUNTS)
    sets = ", ".join(f"{c} = {TABLE}.{c} + excluded.{c}" for c in COUNTS)
    return (
        f"INSERT INTO {TABLE} ({columns}) SELECT {key}, {', '.join(f'sum({c})' for c in COUNTS)} FROM ({rows}) AS "
        f"d ({columns}) GROUP BY {key} HAVING {' OR '.join(f'sum({c}) <> 0' for c in COUNTS)} ORDER BY {key} "
        f"ON CONFLICT ({key}) DO UPDATE SET {sets}"
    )


def _postgres_triggers(schema: str) -> list[str]:
    """The trigger functions and the statement triggers (with transition tables) of PostgreSQL (schema 9)."""
    quoted = '"' + schema.replace('"', '""') + '"'
    definer = f"LANGUAGE plpgsql SECURITY DEFINER SET search_path = {quoted}, pg_temp"
    new, old = ("new_rows", ""), ("old_rows", "-")
    body = (
        f"BEGIN IF TG_OP = 'INSERT' THEN {_statement_upsert(new)}; "
        f"ELSIF TG_OP = 'DELETE' THEN {_statement_upsert(old)}; "
        f"ELSE {_statement_upsert(old, new)}; END IF; RETURN NULL; END"
    )
    insert, update, delete = TRIGGERS
    truncate_fn, truncate = _TRUNCATE
    each = f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
    return [
        f"CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger {definer} AS $body$ {body} $body$",
        f"CREATE OR REPLACE FUNCTION {truncate_fn}() RETURNS trigger {definer} AS $body$ BEGIN TRUNCATE {TABLE}; "
        "RETURN NULL; END $body$",
        *(f"DROP TRIGGER IF EXISTS {t} ON sessions" for t in (*TRIGGERS, truncate)),
        f"CREATE TRIGGER {insert} AFTER INSERT ON sessions REFERENCING NEW TABLE AS new_rows {each}",
        f"CREATE TRIGGER {update} AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows "
        f"{each}",
        f"CREATE TRIGGER {delete} AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows {each}",
        f"CREATE TRIGGER {truncate} AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION {truncate_fn}()",
    ]


def statement_triggers(conn: Any, dialect: Dialect) -> None:
    """Schema migration 9 on the open connection ``conn``: PostgreSQL's row triggers of migration 8 replaced by
    statement triggers (:func:`_statement_upsert`: one upsert per statement in key order, where each row's upsert
    in the row's order could deadlock against another writer's). SQLite: nothing (its writers are serialised)."""
    if dialect.name == "sqlite":
        return
    schema = str(conn.execute("SELECT current_schema()").fetchone()[0])  # the triggers' search path
    for statement in _postgres_triggers(schema):
        conn.execute(statement)


def migrate(conn: Any, dialect: Dialect) -> None:
    """Schema migration 8 on the open connection ``conn`` (inside the migration's transaction): create the table,
    fill it from the stored sessions (one GROUP BY of them all) and add the triggers that keep it; on PostgreSQL
    also :data:`DRILL_TIMES_INDEX`, and on a store secured by ``warroom store secure`` give the table the same
    roles' rights and row-level security."""
    for statement in unmake(dialect):  # (a store set back to an older version by hand is migrated again)
        conn.execute(statement)
    for statement in dialect.ddl(_TABLE_SQL):
        conn.execute(statement)
    conn.execute(f"INSERT INTO {TABLE} ({', '.join(KEY + COUNTS)}) {recount_sql()}")
    if dialect.name == "sqlite":
        for statement in _sqlite_triggers():
            conn.execute(statement)
        return
    statement_triggers(conn, dialect)
    conn.execute(_DRILL_TIMES_SQL)
    if conn.execute("SELECT relrowsecurity FROM pg_class WHERE oid = to_regclass('sessions')").fetchone()[0]:
        from warroom.store.roles import counts_statements

        for statement in counts_statements():
            conn.execute(statement)


def unmake(dialect: Dialect) -> list[str]:
    """The statements that drop the table, its triggers and :data:`DRILL_TIMES_INDEX` (migration 8 undone; the
    trigger functions are left)."""
    on = "" if dialect.name == "sqlite" else " ON sessions"
    triggers = [*TRIGGERS, _TRUNCATE[1]] if dialect.name != "sqlite" else list(TRIGGERS)
    index = [f"DROP INDEX IF EXISTS {DRILL_TIMES_INDEX}"] if dialect.name != "sqlite" else []
    return [*(f"DROP TRIGGER IF EXISTS {t}{on}" for t in triggers), f"DROP TABLE IF EXISTS {TABLE}", *index]


def serves(query: FactsQuery) -> bool:
    """Whether the table can answer for the sessions ``query`` matches: its filters are all on the table's key."""
    return query.since is None and query.set_id is None


def readable(conn: Any, dialect: Dialect) -> bool:
    """Whether the connected role may read the table (on PostgreSQL a role of ``warroom store secure`` may once the
    command has run since migration 8; until then the summary scans the sessions, which it may read)."""
    if dialect.name == "sqlite":
        return True
    row = conn.execute(f"SELECT has_table_privilege(to_regclass('{TABLE}'), 'SELECT')").fetchone()
    return bool(row[0])


def folded_sql(where: str) -> str:
    """The table's rows in the shape of :data:`~warroom.store.cohort_pg.FOLDED_SQL`'s (mode, flag, trainee, drill,
    distractors escalated text or NULL, played sessions, the pair counts); ``where``: the filters' WHERE (with
    :data:`LIVE`)."""
    counts = ", ".join(COUNTS)
    return (
        f"SELECT mode, countable <> 0, trainee, drill_id, CASE WHEN escalated <> 0 THEN escalations END, {counts} "
        f"FROM {TABLE}{where}"
    )
