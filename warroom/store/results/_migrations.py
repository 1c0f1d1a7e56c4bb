"""The results store's migrations: one SQL script per schema version (:data:`MIGRATIONS`, from version-1 to
version) and, for some versions, a step run after the script in the same transaction (:data:`BACKFILLS`: filling
new columns and tables from old data). :class:`warroom.store.results._connection.StoreConnection` applies them on
open."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from warroom.store import backends
from warroom.store.backends import Dialect

MIGRATIONS: dict[int, str] = {
    # version -> SQL that upgrades from version-1 to version
    1: """
        CREATE TABLE sessions (
            session_id        TEXT PRIMARY KEY,
            trainee           TEXT NOT NULL,
            drill_id          TEXT NOT NULL,
            drill_version     INTEGER,
            drill_sha256      TEXT,
            drill_path        TEXT,
            all_clear         INTEGER NOT NULL DEFAULT 0,
            scoring_version   TEXT,
            started_at        TEXT NOT NULL,
            ended_at          TEXT,
            outcome           TEXT NOT NULL,
            total             INTEGER NOT NULL,
            time_to_detect    REAL,
            damage            REAL,
            full_damage       REAL,
            damage_unit       TEXT,
            false_escalations INTEGER NOT NULL DEFAULT 0,
            cost_usd          REAL,
            recovered         INTEGER NOT NULL DEFAULT 0,
            notes             TEXT NOT NULL DEFAULT '[]',
            scorecard         TEXT NOT NULL,
            actions           TEXT NOT NULL,
            rescored_at       TEXT
        ) WITHOUT ROWID;
        CREATE INDEX ix_sessions_started ON sessions(started_at);
        CREATE INDEX ix_sessions_trainee_started ON sessions(trainee, started_at);
        CREATE INDEX ix_sessions_drill_started ON sessions(drill_id, started_at);
        CREATE INDEX ix_sessions_trainee_drill_total ON sessions(trainee, drill_id, total);
        CREATE INDEX ix_sessions_summary
            ON sessions(trainee, drill_id, all_clear, outcome, total, time_to_detect, false_escalations, started_at);
        CREATE INDEX ix_sessions_drill_summary ON sessions(drill_id, total, trainee, all_clear, outcome, started_at);
        CREATE INDEX ix_sessions_trainee_ttd ON sessions(trainee, time_to_detect, drill_id, started_at);
    """,
    # 2: how the session was played: its mode, drill set and variant seed (start information), and the wall-clock
    # figures of practice sessions (pauses, seconds paused, wall-clock time to detect)
    2: """
        ALTER TABLE sessions ADD COLUMN mode TEXT NOT NULL DEFAULT 'practice';
        ALTER TABLE sessions ADD COLUMN set_id TEXT;
        ALTER TABLE sessions ADD COLUMN seed INTEGER;
        ALTER TABLE sessions ADD COLUMN pauses INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN paused_seconds REAL;
        ALTER TABLE sessions ADD COLUMN wall_time_to_detect REAL;
        CREATE INDEX ix_sessions_mode ON sessions(mode, set_id);
    """,
    # 3: the covering index the cohort statistics read (warroom.store.cohort._facts.FACTS_INDEX): every column they need
    # but the scorecard, so `scores summary` never reads the large rows themselves. IF NOT EXISTS: development
    # builds made it on open.
    3: """
        CREATE INDEX IF NOT EXISTS ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total,
            started_at, false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id);
    """,
    # 4: the scorecard's distractor figures as columns (warroom.store.results._distractors), filled from the stored
    # scorecards by BACKFILLS[4], and the covering index of the statistics remade to hold them and the session id
    # (implicit in a SQLite index of this table; PostgreSQL needs it for index-only scans): `scores summary` no
    # longer parses any scorecard nor reads a whole row.
    4: """
        ALTER TABLE sessions ADD COLUMN distractors_shown INTEGER;
        ALTER TABLE sessions ADD COLUMN distractor_escalations TEXT;
        DROP INDEX IF EXISTS ix_sessions_facts;
        CREATE INDEX ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total, started_at,
            false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id, distractors_shown,
            distractor_escalations, session_id);
    """,
    # 5: the split-half order of the cohort statistics (warroom.store.cohort._count.ORDER_INDEX): each trainee's
    # sessions
    # by start time and session id, with the columns that query filters on, sums and takes medians of, so its
    # window reads them in order from this index alone (no sort, no whole row; less than half the facts index).
    5: """
        CREATE INDEX ix_sessions_trainee_order ON sessions(trainee, started_at, session_id, total, mode, outcome,
            drill_id, set_id, time_to_detect, wall_time_to_detect);
    """,
    # 6: a wall-clock time to detect only where there is a detection: sessions stored before this version as
    # "right step, unsupported" (or re-scored into an outcome without a detection) kept one, which the review and
    # the summary's median wall time to detect then showed; nothing was detected in them.
    6: """
        UPDATE sessions SET wall_time_to_detect = NULL WHERE time_to_detect IS NULL AND wall_time_to_detect IS NOT NULL;
    """,
    # 7: each session's "can be counted" flag (the cohort statistics' row checks, evaluated when the row is written:
    # warroom.store.results._countable), held in the statistics' covering index. Made by BACKFILLS[7]: the flag is a
    # stored
    # generated column on PostgreSQL and a column kept by triggers on SQLite, and both the column and the index's
    # definition come from the checks' code.
    7: "",
    # 8 and 9 kept per-(trainee, drill) cohort counts in a table maintained by triggers (schema 9: statement
    # triggers on PostgreSQL). Migration 10 dropped them: the summary counts the sessions' own rows. A store older
    # than 8 goes through 8 and 9 doing nothing.
    8: "",
    9: "",
    # 10: the kept counts of 8 and 9 dropped (their triggers, trigger functions and table), and on PostgreSQL the
    # index of the drills' medians of time to detect that 8 made beside them (warroom.store.cohort._count) kept or made.
    # Made by BACKFILLS[10] (the statements differ per back end).
    10: "",
    # 11: the history of each session's scorecards (warroom.store.results._history): every scorecard a re-score
    # replaced, with who re-scored, when, by which rules and why; a session's history goes with it when it is
    # deleted. On a PostgreSQL store secured by `warroom store secure`, BACKFILLS[11] gives the table the same roles'
    # rights and row-level security as the sessions.
    11: """
        CREATE TABLE IF NOT EXISTS scorecard_history (
            session_id        TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
            seq               INTEGER NOT NULL,
            replaced_at       TEXT NOT NULL,
            replaced_by       TEXT NOT NULL,
            rules             TEXT,
            reason            TEXT NOT NULL,
            scorecard         TEXT NOT NULL,
            scoring_version   TEXT,
            outcome           TEXT NOT NULL,
            total             INTEGER NOT NULL,
            drill_sha256      TEXT,
            drill_version     INTEGER,
            drill_path        TEXT,
            PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
    """,
    # 12: the trial's response as a column (warroom.store.results._responses), filled by BACKFILLS[12] (recorded by
    # scoring rules 4, approximated from the outcome before), and the index of each trainee's first attempt at each
    # drill (warroom.store.cohort._count.ATTEMPTS_INDEX: sessions of a trainee and drill in start-time order with
    # what a trial's figures need); the statistics' covering index remade with the response; the split-half order
    # index of version 5 and PostgreSQL's drill-medians index of version 10 are dropped (the statistics read the
    # first attempts instead). The statements differ per back end.
    12: "",
    # 13: what each session was as a trial (issue 32): "signal" (the drill's fault) or "noise" (a healthy run: an
    # all-clear drill, or a fault drill's twin). Made by BACKFILLS[13]: the sessions stored before played the drill
    # as written, noise for an all-clear drill, signal for a drill with an answer key (there were no twins).
    13: "",
    # 14: which stored sessions are not verified (warroom.store.results._verification): a row per session stored
    # without a check (by a trainee role, by `store import`) or found wrong by `warroom scores verify`; the statistics
    # leave those out by default. On a PostgreSQL store secured by `warroom store secure`, BACKFILLS[14] gives the
    # table its rights, row-level security and the trigger that records a trainee role's sessions, and records the
    # sessions stored before as not verified (who stored them was not recorded).
    14: """
        CREATE TABLE IF NOT EXISTS session_checks (
            session_id        TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
            state             TEXT NOT NULL,
            reason            TEXT NOT NULL,
            checked_at        TEXT NOT NULL,
            checked_by        TEXT NOT NULL,
            submitted_by      TEXT
        ) WITHOUT ROWID;
    """,
    # 15: the facilitator's console (docs/serve.md, "The facilitator's console"): notes a facilitator leaves on a
    # session, which the trainee reads in their own review (warroom.store.results._notes; a session's notes go with
    # it when it is deleted), and the table of who is live in a served class, written by every `warroom serve`
    # host with a heartbeat (warroom.store.live), so that several hosts in front of one database show one class.
    # BACKFILLS[15] gives both tables the roles' rights on a store secured by `warroom store secure`.
    15: """
        CREATE TABLE IF NOT EXISTS facilitator_notes (
            session_id        TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
            seq               INTEGER NOT NULL,
            written_at        TEXT NOT NULL,
            author            TEXT NOT NULL,
            text              TEXT NOT NULL,
            PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS live_sessions (
            host              TEXT NOT NULL,
            tab               TEXT NOT NULL,
            trainee           TEXT NOT NULL,
            state             TEXT NOT NULL,
            connected_at      TEXT NOT NULL,
            session_id        TEXT,
            drill_id          TEXT,
            mode              TEXT,
            set_id            TEXT,
            drill_time        REAL,
            clock_at          TEXT,
            speed             REAL,
            paused            INTEGER NOT NULL DEFAULT 0,
            actions           INTEGER NOT NULL DEFAULT 0,
            last_action       TEXT,
            last_action_at    TEXT,
            outcome           TEXT,
            total             INTEGER,
            ended_at          TEXT,
            heartbeat_at      TEXT NOT NULL,
            PRIMARY KEY (host, tab)
        ) WITHOUT ROWID;
    """,
    # 16: on a PostgreSQL store secured by `warroom store secure`, BACKFILLS[16] narrows a trainee role's policy on
    # `session_checks`: a record only for a session stored in the same transaction, checked and submitted by the
    # role itself (before, the role could add one to a session stored earlier, naming anyone). SQLite: nothing.
    16: "",
    # 17: on a PostgreSQL store secured by `warroom store secure`, BACKFILLS[17] replaces the trigger function that
    # records a trainee role's sessions as not verified by one naming every relation with its schema: a trainee's
    # TEMP TABLE session_checks (searched first for a name without one) took the record instead. SQLite: nothing.
    17: "",
    # 18: on a PostgreSQL store secured by `warroom store secure`, BACKFILLS[18] narrows a trainee role's policy on
    # `scorecard_history`: history only for a session stored in the same transaction (as `store import` stores it);
    # before, the role could add a made-up re-score to any session of its own, a verified one too. SQLite: nothing.
    18: "",
    # 19: on a PostgreSQL store secured by `warroom store secure`, BACKFILLS[19] narrows that policy again: the
    # history a trainee role brings with its session names the role itself as having re-scored (`replaced_by`);
    # before, it could name the facilitator ("re-scored by" them) on a session of its own. SQLite: nothing.
    19: "",
    # 20: BACKFILLS[20] adds `stored_seq`, the order in which the database stored each session (numbered by the
    # database as it stores a row, whatever the client gives: a trigger; on PostgreSQL from a sequence), from which
    # `scores verify` tells which of two copies was stored later on both back ends, also within one transaction (a
    # `store import` batch); rows stored before keep none. On a PostgreSQL store secured by `warroom store secure`,
    # it also lets a trainee role's policies on `session_checks` and `scorecard_history` accept the session stored
    # in a savepoint of the current transaction (`store import` stores 500 lines a transaction, a savepoint a line).
    20: "",
    # 21: each trainee's first attempt at each drill is the session the database stored first (issue 30: a
    # session's start is its client's word, and a clock set back made a replay played knowing the debrief the
    # first attempt). BACKFILLS[21] remakes the first-attempt index of version 12 ordered by `stored_seq` (the
    # sessions stored before version 20, unnumbered, first, in start order), and the statistics' covering index with
    # `stored_seq`, so that `warroom report` reads the order from it alone.
    21: "",
    # 22: on PostgreSQL, BACKFILLS[22] adds a check that a session ends (`ended_at`) no earlier than it starts: a
    # trainee role writing its own rows in SQL stored one (only `scores verify` named it), where warroom's clients
    # refuse it before writing. Rows stored before are kept (NOT VALID: `scores verify` names them). SQLite, whose
    # file its user may edit anyway: nothing.
    22: "",
    # 23: whether a session's trial was chosen, not drawn (issue 30 of the hostile campaign: `warroom run --as` and
    # `--seed` in practice): BACKFILLS[23] adds `chosen` (0: drawn; the sessions stored before are drawn unless
    # `scores verify` finds otherwise) and remakes the statistics' covering index and the first-attempt index with it,
    # so that the figures leave such a session out (it is a first attempt but no trial) reading those indexes alone.
    23: "",
    # 24: the partial index of the sessions that cannot be counted, which migration 7 makes: schema version 7 was
    # first released (commit cd9c2a8c) without it, and a store made by that release went on to later versions
    # without it (migration 7 is not run again), its summary then reading every row to find those few. Made here when
    # missing (instant when the store has it; on a million sessions a few seconds otherwise).
    24: "CREATE INDEX IF NOT EXISTS ix_sessions_not_countable ON sessions(session_id) WHERE countable IS NOT TRUE",
    # 25: on a PostgreSQL store secured by `warroom store secure`, BACKFILLS[25] makes a trainee role's policies on
    # `sessions`, `session_checks` and `scorecard_history`, and the trigger recording its sessions as not verified,
    # name the login (`session_user`) instead of the current role (issue 30): a trainee's login may `SET ROLE` to its
    # group (or to any role it is a member of), and then stored sessions as trainee `warroom_trainee`, its
    # not-verified record naming that role. SQLite: nothing.
    25: "",
}

#: The columns the first-attempt index holds after its key (trainee, drill_id, started_at, session_id).
ATTEMPT_COLUMNS = ("mode", "countable", "response", "all_clear", "outcome", "total", "set_id", "time_to_detect",
                   "wall_time_to_detect", "false_escalations", "distractors_shown", "distractor_escalations",
                   "scoring_version")  # fmt: skip


def _responses_12(conn: Any, dialect: Dialect) -> None:
    """Migration 12: fill the response column, index the first attempts, drop the indexes no longer read."""
    from warroom.store.results._responses import backfill

    if "response" not in session_columns(conn, dialect):  # (a store set back to an older version by hand has it)
        conn.execute("ALTER TABLE sessions ADD COLUMN response TEXT")
    backfill(conn)
    # the statistics' covering index as migration 7 made it, with the response (read_facts reads it alone)
    conn.execute("DROP INDEX IF EXISTS ix_sessions_facts")
    conn.execute(
        "CREATE INDEX ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total, started_at, "
        "false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id, distractors_shown, "
        "distractor_escalations, session_id, countable, response)"
    )
    key = "trainee, drill_id, started_at, session_id"
    index = "CREATE INDEX IF NOT EXISTS ix_sessions_attempts ON sessions"
    if dialect.name == "sqlite":
        conn.execute(f"{index}({key}, {', '.join(ATTEMPT_COLUMNS)})")
    else:
        conn.execute(f"{index}({key}) INCLUDE ({', '.join(ATTEMPT_COLUMNS)})")
        conn.execute("DROP INDEX IF EXISTS ix_sessions_drill_times")
    conn.execute("DROP INDEX IF EXISTS ix_sessions_trainee_order")


def _backfill_4(conn: Any, dialect: Dialect) -> None:
    from warroom.store.results._distractors import backfill

    backfill(conn)


def session_columns(conn: Any, dialect: Dialect) -> set[str]:
    """The columns the ``sessions`` table has now."""
    if dialect.name == "sqlite":
        return {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
    from warroom.store.backends import sessions_columns

    return set(sessions_columns(conn))


def _countable_7(conn: Any, dialect: Dialect) -> None:
    from warroom.store.results import _countable as countable

    countable.migrate(conn, dialect, session_columns(conn, dialect))


def _drop_kept_counts_10(conn: Any, dialect: Dialect) -> None:
    """Migration 10: drop the cohort counts kept at write time by migrations 8 and 9 (written out here, as they were
    named: a migration never changes with the code that follows it)."""
    triggers = ["sessions_counts_insert", "sessions_counts_update", "sessions_counts_delete"]
    if dialect.name == "sqlite":
        statements = [*(f"DROP TRIGGER IF EXISTS {t}" for t in triggers), "DROP TABLE IF EXISTS session_counts"]
    else:
        statements = [
            *(f"DROP TRIGGER IF EXISTS {t} ON sessions" for t in [*triggers, "sessions_counts_truncate"]),
            "DROP FUNCTION IF EXISTS warroom_session_counts()",
            "DROP FUNCTION IF EXISTS warroom_session_counts_truncate()",
            "DROP TABLE IF EXISTS session_counts",
            "CREATE INDEX IF NOT EXISTS ix_sessions_drill_times ON sessions (mode, drill_id) "
            "INCLUDE (outcome, time_to_detect, wall_time_to_detect)",
        ]
    for statement in statements:
        conn.execute(statement)


def _secured(conn: Any, dialect: Dialect) -> backends.Roles | None:
    """The group roles of a PostgreSQL store secured by ``warroom store secure`` (row-level security on
    ``sessions``; the roles its policies name, the store's own, else the documented pair), None for any other
    store: the migrations of its rights and policies run only there, for its own roles."""
    sql = "SELECT relrowsecurity FROM pg_class WHERE oid = to_regclass('sessions')"
    if dialect.name == "sqlite" or not conn.execute(sql).fetchone()[0]:
        return None
    return backends.store_roles(conn) or backends.DEFAULT_ROLES


def _on_secured(statements: Callable[[backends.Roles], Iterable[str]]) -> Callable[[Any, Dialect], None]:
    """A migration that runs ``statements(roles)`` on a secured PostgreSQL store (:func:`_secured`), and nothing
    elsewhere."""

    def migrate(conn: Any, dialect: Dialect) -> None:
        roles = _secured(conn, dialect)
        if roles is not None:
            for statement in statements(roles):
                conn.execute(statement)

    return migrate


def _played_as_13(conn: Any, dialect: Dialect) -> None:
    """Migration 13: the ``played_as`` column (once: a store whose version was set back keeps its column), each
    older session's trial as it was: noise for an all-clear drill, else signal."""
    if "played_as" in session_columns(conn, dialect):
        return
    conn.execute("ALTER TABLE sessions ADD COLUMN played_as TEXT NOT NULL DEFAULT 'signal'")
    conn.execute("UPDATE sessions SET played_as = 'noise' WHERE all_clear <> 0")


def _secure_checks_14(conn: Any, dialect: Dialect) -> None:
    """Migration 14 on a secured PostgreSQL store: the verification records' rights, policies and trigger, and every
    session stored before recorded as not verified (a trainee role may have stored it, with any values)."""
    roles = _secured(conn, dialect)
    if roles is not None:
        for statement in backends.checks_statements(roles):
            conn.execute(statement)
        conn.execute(
            "INSERT INTO session_checks (session_id, state, reason, checked_at, checked_by, submitted_by) SELECT "
            "session_id, 'unverified', 'stored before schema version 14, which records who stored a session: not "
            """verified yet', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), """
            "current_user, 'unknown (before schema version 14)' FROM sessions ON CONFLICT (session_id) DO NOTHING"
        )


#: The column numbering the sessions in the order the database stored them (schema version 20).
STORED_SEQ = "stored_seq"

#: SQLite's trigger numbering each new row (recursive triggers are off: its update starts no other insert).
_SQLITE_STORED_SEQ = (
    f"CREATE TRIGGER IF NOT EXISTS sessions_stored_seq AFTER INSERT ON sessions BEGIN UPDATE sessions SET {STORED_SEQ} "
    f"= (SELECT coalesce(max({STORED_SEQ}), 0) + 1 FROM sessions) WHERE session_id = NEW.session_id; END"
)
#: PostgreSQL's trigger function numbering each new row from a sequence named with the table's schema (a
#: trainee's temporary sequence of the same name is never taken: migration 17's lesson), as the owner of the tables
#: (SECURITY DEFINER: no role needs a right on the sequence, and whatever value a client gives is replaced).
_PG_STORED_SEQ = f"""CREATE OR REPLACE FUNCTION warroom_stored_seq() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path FROM CURRENT AS $$
BEGIN
    NEW.{STORED_SEQ} := pg_catalog.nextval(pg_catalog.format('%I.sessions_stored_seq', TG_TABLE_SCHEMA)::regclass);
    RETURN NEW;
END $$"""


def _stored_seq_20(conn: Any, dialect: Dialect) -> None:
    """Migration 20: the ``stored_seq`` column and what numbers it; on a secured PostgreSQL store, the trainee's
    policies that accept a session stored in a savepoint."""
    if dialect.name == "sqlite":
        if STORED_SEQ not in session_columns(conn, dialect):
            conn.execute(f"ALTER TABLE sessions ADD COLUMN {STORED_SEQ} INTEGER")
        conn.execute(f"CREATE INDEX IF NOT EXISTS ix_sessions_stored_seq ON sessions({STORED_SEQ})")
        conn.execute(_SQLITE_STORED_SEQ)
        return
    conn.execute(f"ALTER TABLE sessions ADD COLUMN IF NOT EXISTS {STORED_SEQ} BIGINT")
    conn.execute("CREATE SEQUENCE IF NOT EXISTS sessions_stored_seq")
    conn.execute(_PG_STORED_SEQ)
    conn.execute("REVOKE ALL ON FUNCTION warroom_stored_seq() FROM PUBLIC")
    conn.execute("DROP TRIGGER IF EXISTS sessions_stored_seq ON sessions")
    conn.execute("CREATE TRIGGER sessions_stored_seq BEFORE INSERT ON sessions FOR EACH ROW "
                 "EXECUTE FUNCTION warroom_stored_seq()")  # fmt: skip
    roles = _secured(conn, dialect)
    if roles is not None:
        for statement in [*backends.trainee_checks_policy(roles), *backends.history_statements(roles)]:
            conn.execute(statement)


#: The function of migration 22's check: True unless both times read (ISO 8601, none of an offset: UTC, as
#: :func:`warroom.store.timestamps.aware_time` reads them) and the end is before the start; a time PostgreSQL does not
#: read passes (warroom's clients refuse it before writing, and ``scores verify`` names one stored).
_PG_ENDS_AFTER_START = """
CREATE OR REPLACE FUNCTION warroom_ends_after_start(started text, ended text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET TimeZone TO 'UTC' AS $$
BEGIN
    RETURN ended IS NULL OR ended::timestamptz >= started::timestamptz;
EXCEPTION WHEN others THEN
    RETURN true;
END $$
"""


def _ends_after_start_22(conn: Any, dialect: Dialect) -> None:
    """Migration 22: on PostgreSQL, the check that a session stored from now on ends no earlier than it starts."""
    if dialect.name == "sqlite":
        return
    conn.execute(_PG_ENDS_AFTER_START)
    conn.execute("ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_ends_after_start")
    conn.execute("ALTER TABLE sessions ADD CONSTRAINT sessions_ends_after_start "
                 "CHECK (warroom_ends_after_start(started_at, ended_at)) NOT VALID")  # fmt: skip


#: The key of the first-attempt index from schema version 21: each trainee's sessions of each drill in the order the
#: database stored them (unnumbered ones, stored before version 20, first, in start order). PostgreSQL sorts NULL
#: last unless told; SQLite sorts it first.
ATTEMPT_KEY = {"sqlite": f"trainee, drill_id, {STORED_SEQ}, started_at, session_id",
               "postgresql": f"trainee, drill_id, {STORED_SEQ} NULLS FIRST, started_at, session_id"}  # fmt: skip
#: The statistics' covering index from schema version 21 (version 12's with ``stored_seq``).
FACTS_INDEX_21 = (
    "CREATE INDEX ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total, started_at, "
    "false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id, distractors_shown, "
    f"distractor_escalations, session_id, countable, response, {STORED_SEQ})"
)


def _stored_order_21(conn: Any, dialect: Dialect) -> None:
    """Migration 21: the first-attempt index ordered by ``stored_seq``, the covering index holding it."""
    conn.execute("DROP INDEX IF EXISTS ix_sessions_facts")
    conn.execute(FACTS_INDEX_21)
    conn.execute("DROP INDEX IF EXISTS ix_sessions_attempts")
    index = f"CREATE INDEX ix_sessions_attempts ON sessions({ATTEMPT_KEY[dialect.name]}"
    if dialect.name == "sqlite":
        conn.execute(f"{index}, {', '.join(ATTEMPT_COLUMNS)})")
    else:
        conn.execute(f"{index}) INCLUDE ({', '.join(ATTEMPT_COLUMNS)})")


#: The column saying that a session's trial was chosen (``warroom run --as`` or ``--seed``), not drawn (schema 23).
CHOSEN = "chosen"
#: The statistics' covering index from schema version 23 (version 21's with ``chosen``).
FACTS_INDEX_23 = f"{FACTS_INDEX_21[:-1]}, {CHOSEN})"


def _chosen_23(conn: Any, dialect: Dialect) -> None:
    """Migration 23: the ``chosen`` column (0 for every session stored before: drawn, unless ``scores verify`` finds
    its seed drawing another trial), the covering index and the first-attempt index holding it."""
    if CHOSEN not in session_columns(conn, dialect):
        conn.execute(f"ALTER TABLE sessions ADD COLUMN {CHOSEN} INTEGER NOT NULL DEFAULT 0")
    conn.execute("DROP INDEX IF EXISTS ix_sessions_facts")
    conn.execute(FACTS_INDEX_23)
    conn.execute("DROP INDEX IF EXISTS ix_sessions_attempts")
    index = f"CREATE INDEX ix_sessions_attempts ON sessions({ATTEMPT_KEY[dialect.name]}"
    columns = ", ".join((*ATTEMPT_COLUMNS, CHOSEN))
    if dialect.name == "sqlite":
        conn.execute(f"{index}, {columns})")
    else:
        conn.execute(f"{index}) INCLUDE ({columns})")


#: version -> what a migration does after its SQL (in the same transaction): filling new columns from old data, and
#: on a secured PostgreSQL store (:func:`_on_secured`) the rights and policies of: the scorecard history (11), the
#: verification records (14), the notes and the live table (15), the trainee's narrower policy on the verification
#: records (16), the trigger function that names every relation with its schema (17), the trainee's narrower policy
#: on the history (18) and a trainee role's history naming it (19); the order in which the database stores
#: sessions (20) and the indexes reading first attempts in that order (21); on PostgreSQL, the check that a session
#: ends no earlier than it starts (22); whether a session's trial was chosen (23); a trainee role's policies and
#: the trigger naming the login, not the role a ``SET ROLE`` made current (25).
BACKFILLS: dict[int, Callable[[Any, Dialect], None]] = {
    4: _backfill_4, 7: _countable_7, 10: _drop_kept_counts_10,
    11: _on_secured(lambda roles: backends.history_statements(roles)),
    12: _responses_12, 13: _played_as_13, 14: _secure_checks_14,
    15: _on_secured(lambda roles: backends.console_statements(roles)),
    16: _on_secured(lambda roles: backends.trainee_checks_policy(roles)),
    17: _on_secured(lambda roles: [backends.mark_submitted_function(roles)]),
    18: _on_secured(lambda roles: backends.history_statements(roles)),
    19: _on_secured(lambda roles: backends.history_statements(roles)),
    20: _stored_seq_20, 21: _stored_order_21, 22: _ends_after_start_22, 23: _chosen_23,
    25: _on_secured(lambda roles: [*backends.sessions_policies(roles), *backends.trainee_checks_policy(roles),
                                   backends.mark_submitted_function(roles), *backends.history_statements(roles)]),
}  # fmt: skip

#: version -> the later version whose step remakes all that this version's step makes (migration 23 drops and remakes
#: both indexes 21 makes): an upgrade past both skips the earlier step, so that each index is built once (on
#: PostgreSQL at 1,000,000 sessions each of those steps takes about half a minute).
REMADE_BY = {21: 23}


#: A column of ``sessions`` each schema version from its key on has. Version 12 was first released on two branches
#: at once (merged on 2026-12-05): on one it was the trial's response (kept), on the other the table of verification
#: records (now version 14, which makes that table only when it is missing), so a store made on that branch claims
#: version 12 or 13 without the column of either.
VERSION_COLUMNS: dict[int, str] = {12: "response", 13: "played_as"}


def effective_version(version: int, columns: set[str]) -> int:
    """The schema version a store claiming ``version`` is upgraded from: the last version whose columns
    (:data:`VERSION_COLUMNS`) ``columns``, the columns of its ``sessions`` table, all have."""
    for v, column in sorted(VERSION_COLUMNS.items()):
        if version >= v and column not in columns:
            return v - 1
    return version


def backfills_to(target: int) -> dict[int, Callable[[Any, Dialect], None]]:
    """The steps (:data:`BACKFILLS`) of an upgrade to schema version ``target``: those whose work a later step up to
    ``target`` remakes (:data:`REMADE_BY`) left out."""
    return {v: step for v, step in BACKFILLS.items() if REMADE_BY.get(v, target + 1) > target}

