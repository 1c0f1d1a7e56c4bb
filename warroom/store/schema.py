"""The results store's schema and its connection: the ``sessions`` table, its migrations, and opening the file.

The schema is versioned with ``PRAGMA user_version`` and migrated forward on open (:data:`_MIGRATIONS`, one SQL
script per version); a database written by a newer warroom (a higher version than :data:`SCHEMA_VERSION`) raises
:class:`~warroom.store.errors.StoreVersionError` and is never modified. :class:`StoreConnection` is the base of
:class:`~warroom.store.results.ResultsStore`: it opens, checks and migrates the file, and turns SQLite's errors
into :class:`~warroom.store.errors.StoreError` (see :func:`_guard`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

from warroom.store.dialect import DB_NAME as DB_NAME  # the file name's home is dialect.py
from warroom.store.dialect import SQLITE, Dialect, StoreTarget, scrub, store_target
from warroom.store.errors import (
    DamagedStore,
    DataDirError,
    StoreError,
    StoreVersionError,
    damaged_message,
    full_disk_message,
)
from warroom.store.rows import LIST_FIELDS

#: The schema version this code writes (SQLite: ``PRAGMA user_version``; PostgreSQL: the ``warroom_schema`` table).
SCHEMA_VERSION = 8
#: Seconds a writer waits for another writer's lock before giving up.
BUSY_TIMEOUT_S = 30.0

_MIGRATIONS: dict[int, str] = {
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
    # 3: the covering index the cohort statistics read (warroom.store.facts.FACTS_INDEX): every column they need
    # but the scorecard, so `scores summary` never reads the large rows themselves. IF NOT EXISTS: development
    # builds made it on open.
    3: """
        CREATE INDEX IF NOT EXISTS ix_sessions_facts ON sessions(trainee, drill_id, all_clear, outcome, total,
            started_at, false_escalations, time_to_detect, wall_time_to_detect, mode, scoring_version, set_id);
    """,
    # 4: the scorecard's distractor figures as columns (warroom.store.distractors), filled from the stored
    # scorecards by _BACKFILLS[4], and the covering index of the statistics remade to hold them and the session id
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
    # 5: the split-half order of the cohort statistics (warroom.store.cohort.ORDER_INDEX): each trainee's sessions
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
    # warroom.store.countable), held in the statistics' covering index. Made by _BACKFILLS[7]: the flag is a stored
    # generated column on PostgreSQL and a column kept by triggers on SQLite, and both the column and the index's
    # definition come from the checks' code.
    7: "",
    # 8: the cohort counts kept at write time (warroom.store.counts): per (mode, flag, trainee, drill, distractors
    # escalated) the sessions and the summary's counts, in the table session_counts kept by triggers on sessions.
    # Made and filled from the stored sessions by _BACKFILLS[8].
    8: "",
}


def _backfill_4(conn: Any, dialect: Dialect) -> None:
    from warroom.store.distractors import backfill

    backfill(conn)


def _countable_7(conn: Any, dialect: Dialect) -> None:
    from warroom.store import countable

    if dialect.name == "sqlite":
        columns = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
    else:
        from warroom.store import postgres

        columns = postgres.columns(conn)
    countable.migrate(conn, dialect, columns)


def _counts_8(conn: Any, dialect: Dialect) -> None:
    from warroom.store import counts

    counts.migrate(conn, dialect)


#: version -> what a migration does after its SQL (in the same transaction): filling new columns from old data.
_BACKFILLS: dict[int, Callable[[Any, Dialect], None]] = {4: _backfill_4, 7: _countable_7, 8: _counts_8}


_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound="StoreConnection")


def _guard(
    method: Callable[Concatenate[_S, _P], _R],
) -> Callable[Concatenate[_S, _P], _R]:
    """Turn the database's errors in a read or write of the store into :class:`StoreError` (a damaged file into
    :class:`DamagedStore`), so no caller ever sees a raw ``sqlite3`` or ``psycopg`` exception."""
    import functools

    @functools.wraps(method)
    def guarded(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except self._db_errors as exc:
            raise self._error(exc) from exc

    return guarded


class StoreConnection:
    """The open connection to one data directory's results database, created and migrated as needed.

    ``StoreConnection(data_dir)`` opens (creating if needed) ``data_dir/results.sqlite3``, migrating an older schema;
    with ``create`` False a missing file raises :class:`StoreError`; with ``upgrade`` False an existing store of an
    older schema version is not migrated (only :attr:`schema_version` and ``count()`` may be used on it). Raises
    :class:`DataDirError` for a data directory that cannot be used, :class:`StoreVersionError` for a database from a
    newer warroom (left untouched), :class:`DamagedStore` for a damaged one and :class:`StoreError` for a file that
    is not a usable database.
    """

    #: The database errors a read or write may raise (sqlite3's, or psycopg's on PostgreSQL).
    _db_errors: tuple[type[BaseException], ...] = (sqlite3.DatabaseError,)
    #: Where the SQL differs between the back ends.
    dialect: Dialect = SQLITE
    _conn: Any

    def __init__(self, data_dir: Path, *, create: bool = True, url: str | None = None, upgrade: bool = True) -> None:
        from warroom.store.datadir import data_dir_problem

        self.data_dir = Path(data_dir)
        #: False: a store of an older schema version is left as it is (``warroom store status`` reads its version
        #: and counts its sessions; nothing else may be used on it). A new, empty store is still created.
        self._upgrade = upgrade
        self.target: StoreTarget = store_target(self.data_dir, url)  # StoreURLError (a StoreError) for a bad URL
        #: The store for messages: the database file, or the PostgreSQL URL without its password.
        self.location = self.target.location
        if self.target.backend == "postgresql":
            self.path = Path(DB_NAME)  # a PostgreSQL store has no file: messages name self.location
            self._open_postgres(create)
            return
        assert self.target.path is not None
        self.path = self.target.path
        problem = data_dir_problem(self.data_dir)
        if problem:
            raise DataDirError(problem)
        if not create and not self.path.exists():
            raise StoreError(f"no results store at {self.path} (no session has been recorded in this data directory)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder {self.path.parent}: {exc.strerror or exc}") from exc
        try:
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self._conn.row_factory = sqlite3.Row
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the results store {self.path}: {exc}") from exc
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            full = full_disk_message(self.path, exc)
            if full is not None:
                raise StoreError(full) from exc
            if isinstance(exc, sqlite3.OperationalError) or "not a database" in str(exc):
                raise StoreError(f"{self.path} is not a usable warroom results store: {exc}") from exc
            raise DamagedStore(damaged_message(self.path, exc)) from exc
        except StoreError:
            self._conn.close()
            raise

    def _open_postgres(self, create: bool) -> None:
        """Connect to the PostgreSQL store, create or migrate its schema (``create`` False: a database without the
        schema raises :class:`StoreError`) and check its columns."""
        from warroom.store import postgres
        from warroom.store.dialect import POSTGRESQL

        assert self.target.url is not None
        self.dialect = POSTGRESQL
        self._db_errors = postgres.driver_errors()
        self._conn = postgres.connect(self.target)
        try:
            version = postgres.read_version(self._conn)
            if version is None and not create:
                raise StoreError(f"no results store at {self.location} (no session has been recorded there; "
                                 "`warroom store migrate` creates it)")
            if (version or 0) > SCHEMA_VERSION:
                raise StoreVersionError(
                    f"the results store {self.location} has schema version {version}, written by a newer warroom; "
                    f"this warroom reads up to version {SCHEMA_VERSION}. Upgrade warroom (nothing was changed)."
                )
            if version is None or (version < SCHEMA_VERSION and self._upgrade):
                self._migrate_postgres(version)
            if version is None or version >= SCHEMA_VERSION or self._upgrade:
                self._check_columns()
        except self._db_errors as exc:
            self._conn.close()
            raise self._error(exc) from None
        except StoreError:
            self._conn.close()
            raise

    def _migrate_postgres(self, version: int | None) -> None:
        """Migrate the PostgreSQL store from ``version``; raise :class:`StoreError` saying who can when the login
        role may not (a ``warroom store secure`` role meeting a store of an older warroom: only the tables' owner
        can upgrade it)."""
        from warroom.store import postgres

        try:
            postgres.migrate(self._conn, _MIGRATIONS, SCHEMA_VERSION, _BACKFILLS)
        except self._db_errors as exc:
            if not version or getattr(exc, "sqlstate", None) != "42501":
                raise
            raise postgres.upgrade_refused(self._conn, exc, version, SCHEMA_VERSION, self.target) from None

    @property
    def schema_version(self) -> int:
        """The schema version of the open store (:data:`SCHEMA_VERSION` once opened, unless opened with
        ``upgrade=False``: then an older store's own version)."""
        if self.dialect.name == "sqlite":
            return int(self._conn.execute("PRAGMA user_version").fetchone()[0])
        from warroom.store import postgres

        return postgres.read_version(self._conn) or 0

    # -- opening and migrations -----------------------------------------------------------------------------------

    def _open(self) -> None:
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"the results store {self.path} has schema version {version}, written by a newer warroom; this "
                f"warroom reads up to version {SCHEMA_VERSION}. Upgrade warroom (the file was not changed)."
            )
        self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if version == 0 or (version < SCHEMA_VERSION and self._upgrade):
            self._migrate()
        if version == 0 or version >= SCHEMA_VERSION or self._upgrade:
            self._check_columns()

    def _check_columns(self) -> None:
        """Raise :class:`DamagedStore` when the ``sessions`` table is missing or lacks a column this code uses."""
        if self.dialect.name == "sqlite":
            have = {r[1] for r in self._conn.execute("PRAGMA table_info(sessions)")}
        else:
            from warroom.store import postgres

            have = postgres.columns(self._conn)
        need = [*LIST_FIELDS, "scorecard", "actions", "countable"]
        missing = [c for c in need if c not in have]
        if missing:
            what = "has no sessions table" if not have else f"has no column {', '.join(missing)} in its sessions table"
            if self.dialect.name != "sqlite":
                raise DamagedStore(
                    f"the results store {self.location} {what}: it was changed by another program or by hand, and "
                    "warroom cannot use it (nothing was changed). Use another database or schema."
                )
            raise DamagedStore(
                f"the results store {self.path} {what}: it was changed by another program or by hand, and warroom "
                f"cannot use it (the file was not changed). Move it aside with its -wal and -shm files (e.g. rename "
                f"it to {self.path.name}.damaged) to start a new store, or put back a copy from a backup."
            )

    def _error(self, exc: BaseException) -> StoreError:
        """The :class:`StoreError` for a database error met while using the store (on PostgreSQL the message names
        the URL without its password)."""
        text = str(exc)
        if self.dialect.name != "sqlite":
            from warroom.store import postgres
            from warroom.store.errors import StoreUnreachable

            assert self.target.url is not None
            kind = StoreUnreachable if postgres.is_unreachable(exc) else StoreError
            text += postgres.privilege_hint(exc)
            return kind(scrub(f"cannot use the results store {self.location}: {text}", self.target.url))
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
            return StoreError(f"the results store {self.path} stayed locked by another warroom: {text}; try again")
        if isinstance(exc, sqlite3.OperationalError) and "malformed" not in text:
            return StoreError(f"cannot use the results store {self.path}: {text}")
        return DamagedStore(damaged_message(self.path, exc))

    @_guard
    def verify(self) -> None:
        """Check the whole database file (SQLite's ``PRAGMA quick_check``: every page and b-tree readable).

        Raises :class:`DamagedStore` naming the file and what to do when it is damaged. Reads the whole file, so
        it costs about as much as reading every session once. On PostgreSQL (which checks its own pages) it reads
        one row, which fails when the server cannot read the table."""
        if self.dialect.name != "sqlite":
            self._conn.execute("SELECT 1 FROM sessions LIMIT 1").fetchone()
            return
        problems = [r[0] for r in self._conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DamagedStore(damaged_message(self.path, sqlite3.DatabaseError("; ".join(problems))))

    def _migrate(self) -> None:
        conn = self._conn
        self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            if version > SCHEMA_VERSION:  # pragma: no cover - a newer warroom migrated between our two reads
                raise StoreVersionError(f"the results store {self.path} was upgraded to version {version} meanwhile")
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[v].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                if v in _BACKFILLS:
                    _BACKFILLS[v](conn, SQLITE)
                conn.execute(f"PRAGMA user_version = {v}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _retry(fn: Callable[[], _R], attempts: int = 200) -> _R:
        """Run ``fn``, retrying while SQLite reports the database locked (a lock not covered by busy_timeout), at
        most ``attempts`` times in all and no longer than :data:`BUSY_TIMEOUT_S` seconds from the first (each
        attempt may itself wait up to the busy timeout: a lock held for good must not cost 200 of them); the last
        attempt's error propagates."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        for _ in range(attempts - 1):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.05)
        return fn()

    def close(self) -> None:
        """Close the connection. Safe to call twice."""
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
