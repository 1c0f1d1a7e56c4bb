"""The results store's connection: opening the database (SQLite file or PostgreSQL), checking its ``sessions`` table,
and migrating its schema forward.

The schema is versioned (SQLite: ``PRAGMA user_version``; PostgreSQL: the ``warroom_schema`` table) and migrated
forward on open, one step per version (:data:`warroom.store.results._migrations.MIGRATIONS`); a database written by
a newer warroom (a higher version than :data:`SCHEMA_VERSION`) raises :class:`~warroom.store.errors.StoreVersionError`
and is never modified. :class:`StoreConnection` is the component of :class:`~warroom.store.results.ResultsStore` that
every read and write goes through: the connection, its dialect, and the turning of the database's errors into
:class:`~warroom.store.errors.StoreError` (:meth:`StoreConnection.error`, :func:`guarded`)."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

from warroom.core.text import clean_name
from warroom.store.backends import SQLITE, Dialect, StoreTarget, scrub, store_target
from warroom.store.datadir import DB_NAME
from warroom.store.errors import (
    DamagedStore,
    DataDirError,
    StoreError,
    StoreVersionError,
    damaged_message,
    empty_message,
    foreign_database_message,
    full_disk_message,
    not_a_store_message,
)
from warroom.store.results._migrations import MIGRATIONS, backfills_to, effective_version, session_columns
from warroom.store.results._rows import FULL_FIELDS, LIST_FIELDS

#: The schema version this code writes (SQLite: ``PRAGMA user_version``; PostgreSQL: the ``warroom_schema`` table).
SCHEMA_VERSION = 25
#: The tables a warroom store holds (a database with none of them and a user version is another program's).
_STORE_TABLES = frozenset({"sessions", "scorecard_history", "session_checks", "facilitator_notes", "live_sessions"})

#: Seconds a writer waits for another writer's lock before giving up.
BUSY_TIMEOUT_S = 30.0


_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(
    read_or_write: Callable[Concatenate[StoreConnection, _P], _R],
) -> Callable[Concatenate[StoreConnection, _P], _R]:
    """A read or write of the store (a function whose first argument is the :class:`StoreConnection`) whose database
    errors become :class:`StoreError` (a damaged file :class:`DamagedStore`), so no caller ever sees a raw
    ``sqlite3`` or ``psycopg`` exception."""
    import functools

    @functools.wraps(read_or_write)
    def run(db: StoreConnection, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return read_or_write(db, *args, **kwargs)
        except db.errors as exc:
            raise db.error(exc) from exc

    return run


#: What os.link raises on a file system without hard links (some network and FUSE file systems).
_NO_HARD_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK})



def sqlite_text(value: bytes) -> str | bytes:
    """A SQLite TEXT value as Python reads it: its UTF-8 text; or, for bytes that are not UTF-8 (written by SQL, as
    ``CAST(x'ff' AS TEXT)``, or by another program), the bytes themselves, so that the row holding them reads as one
    holding a BLOB (a value of the wrong type: skipped and named, the store still usable), where Python's own
    decoding stopped the whole query (``Could not decode to UTF-8 column 'trainee'``): one such value made every
    command that reads the column fail."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return bytes(value)

def _why_not_opened(path: Path, exc: sqlite3.Error) -> str:
    """Why SQLite could not open the store file ``path`` (its error ``exc``): a symbolic link to a folder that does
    not exist, or one that leads round in a loop, is said with what to do (SQLite says only "unable to open database
    file"); anything else as SQLite says it."""
    from warroom.core.files import why_missing

    return why_missing(path) or str(exc)


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
    errors: tuple[type[BaseException], ...] = (sqlite3.DatabaseError,)
    #: Where the SQL differs between the back ends.
    dialect: Dialect = SQLITE
    #: The open connection (``sqlite3.Connection``, or :class:`~warroom.store.backends.PgConnection`).
    conn: Any
    #: A PostgreSQL store's group roles (:class:`~warroom.store.backends.Roles`), read once it is open, for the
    #: messages naming what to GRANT (:attr:`roles`).
    _roles: Any = None

    @property
    def roles(self) -> Any:
        """The store's group roles (:class:`~warroom.store.backends.Roles`), as read when it was opened (no query:
        a transaction refused since cannot read the catalogs); the documented pair for a SQLite store."""
        from warroom.store.backends import DEFAULT_ROLES

        return self._roles if self._roles is not None else DEFAULT_ROLES

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
        if not create and not _exists(self.path, self.location):
            raise StoreError(f"no results store at {self.location} (no session has been recorded in this data "
                             "directory)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder {clean_name(self.path.parent)}: {exc.strerror or exc}") from exc
        if not _exists(self.path, self.location):
            self._create_sqlite()
        elif self.path.is_file() and self.path.stat().st_size == 0:
            raise DamagedStore(empty_message(self.path))
        try:
            self.conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            self.conn.text_factory = sqlite_text
        except sqlite3.Error as exc:
            why = _why_not_opened(self.path, exc)
            raise StoreError(f"cannot open the results store {self.location}: {why}") from exc
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            full = full_disk_message(self.path, exc)
            if full is not None:
                raise StoreError(full) from exc
            if "not a database" in str(exc):
                raise StoreError(not_a_store_message(self.path, exc)) from exc
            if isinstance(exc, sqlite3.OperationalError):
                raise StoreError(f"{self.location} is not a usable warroom results store: {exc}") from exc
            raise DamagedStore(damaged_message(self.path, exc)) from exc
        except StoreError:
            self.conn.close()
            raise

    def _create_sqlite(self) -> None:
        """Make a new SQLite store whole: its tables are created in a hidden temporary file beside it, which is then
        linked into place (another process making it at the same moment keeps its own), so no process ever sees the
        store file half made (an empty file is never warroom's: :func:`empty_message`)."""
        import secrets

        tmp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(6)}.tmp")
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                self.conn = conn
                self._open()
            finally:
                conn.close()
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass  # made by another process meanwhile: that one is the store
            except OSError as exc:  # a file system without hard links: a rename, unless one was made meanwhile
                if exc.errno not in _NO_HARD_LINKS or self.path.exists():
                    raise
                os.rename(tmp, self.path)
        except (OSError, sqlite3.Error) as exc:
            full = full_disk_message(self.path, exc) if isinstance(exc, sqlite3.DatabaseError) else None
            raise StoreError(full or f"cannot create the results store {self.path}: {exc}") from exc
        finally:
            for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _open_postgres(self, create: bool) -> None:
        """Connect to the PostgreSQL store, create or migrate its schema (``create`` False: a database without the
        schema raises :class:`StoreError`) and check its columns."""
        from warroom.store.backends import POSTGRESQL, connect, connection_roles, driver_errors, read_version

        assert self.target.url is not None
        self.dialect = POSTGRESQL
        self.errors = driver_errors()
        self.conn = connect(self.target)
        # read once, first, though only a refusal's message names them: a statement refused inside a transaction
        # (store import's, outside its savepoints) leaves it failed, and the catalogs can no longer be read then
        self._roles = connection_roles(self.conn, self.errors)
        try:
            version = read_version(self.conn)
            if version is None and not create:
                if self.conn.execute("SELECT current_schema() IS NULL").fetchone()[0]:  # no schema it may use
                    roles = self._roles.shown()
                    raise StoreError(f"no results store at {self.location} that the login role can see: it may use "
                                     "no schema on its search path (the store's tables may be there all the same: "
                                     f"GRANT {roles.trainee}, or {roles.facilitator}, TO it)")  # fmt: skip
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
        except self.errors as exc:
            self.conn.close()
            raise self.error(exc) from None
        except StoreError:
            self.conn.close()
            raise

    def _migrate_postgres(self, version: int | None) -> None:
        """Migrate the PostgreSQL store from ``version``; raise :class:`StoreError` saying who can when the login
        role may not (a ``warroom store secure`` role meeting a store of an older warroom: only the tables' owner
        can upgrade it)."""
        from warroom.store.backends import migrate_schema, upgrade_refused

        try:
            migrate_schema(self.conn, MIGRATIONS, SCHEMA_VERSION, backfills_to(SCHEMA_VERSION),
                           start=lambda conn, v: effective_version(v, session_columns(conn, self.dialect)))
        except self.errors as exc:
            if not version or getattr(exc, "sqlstate", None) != "42501":
                raise
            raise upgrade_refused(self.conn, exc, version, SCHEMA_VERSION, self.target) from None

    @property
    def schema_version(self) -> int:
        """The schema version of the open store (:data:`SCHEMA_VERSION` once opened, unless opened with
        ``upgrade=False``: then an older store's own version)."""
        if self.dialect.name == "sqlite":
            return int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        from warroom.store.backends import read_version

        return read_version(self.conn) or 0

    # -- opening and migrations -----------------------------------------------------------------------------------

    def _open(self) -> None:
        conn = self.conn
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreVersionError(
                f"the results store {self.path} has schema version {version}, written by a newer warroom; this "
                f"warroom reads up to version {SCHEMA_VERSION}. Upgrade warroom (the file was not changed)."
            )
        if version < 0:
            raise self._changed_by_hand(f"has schema version {version}, which no warroom writes")
        self._refuse_foreign(version)
        self.retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if version == 0 or (version < SCHEMA_VERSION and self._upgrade):
            self._migrate()
        if version == 0 or version >= SCHEMA_VERSION or self._upgrade:
            self._check_columns()

    def _refuse_foreign(self, version: int) -> None:
        """Refuse, before anything is written (WAL mode, migrations), a file that is no warroom store: warroom makes
        a store whole (_create_sqlite), so one with tables (or views...) and no version, or a version (another
        program sets SQLite's user_version too) and none of warroom's tables, is another program's database; a
        version with tables of warroom's but no sessions table was changed by hand."""
        objects = self.conn.execute("SELECT type, name FROM sqlite_master ORDER BY type <> 'table', type, name")
        kinds: dict[str, list[str]] = {}
        for kind, name in objects:
            kinds.setdefault(kind, []).append(name)
        tables = kinds.get("table", [])
        if version == 0 and kinds:  # a view, index or trigger alone is another program's too
            kind, names = next(iter(kinds.items()))
            raise StoreError(foreign_database_message(self.path, names[:4], kind=kind))
        if version > 0 and "sessions" not in tables:
            if tables and not _STORE_TABLES & set(tables):
                raise StoreError(foreign_database_message(self.path, tables[:4], version))
            raise self._changed_by_hand("has no sessions table")

    def _check_columns(self) -> None:
        """Raise :class:`DamagedStore` when the ``sessions`` table is missing or lacks a column this code uses."""
        have = session_columns(self.conn, self.dialect)
        need = [*LIST_FIELDS, *FULL_FIELDS, "countable", "stored_seq"]
        missing = [c for c in need if c not in have]
        if missing:
            what = "has no sessions table" if not have else f"has no column {', '.join(missing)} in its sessions table"
            raise self._changed_by_hand(what)

    def _changed_by_hand(self, what: str) -> DamagedStore:
        """The error for a store that ``what`` (``has no sessions table``...): changed by another program or by hand,
        and what to do."""
        if self.dialect.name != "sqlite":
            return DamagedStore(
                f"the results store {self.location} {what}: it was changed by another program or by hand, and "
                "warroom cannot use it (nothing was changed). Use another database or schema."
            )
        return DamagedStore(
            f"the results store {self.path} {what}: it was changed by another program or by hand, and warroom "
            f"cannot use it (the file was not changed). Move it aside with its -wal and -shm files (e.g. rename "
            f"it to {self.path.name}.damaged) to start a new store, or put back a copy from a backup."
        )

    def error(self, exc: BaseException) -> StoreError:
        """The :class:`StoreError` for a database error met while using the store (on PostgreSQL the message names
        the URL without its password)."""
        text = str(exc)
        if self.dialect.name != "sqlite":
            from warroom.store.backends import is_unreachable, privilege_hint
            from warroom.store.errors import StoreUnreachable

            assert self.target.url is not None
            kind = StoreUnreachable if is_unreachable(exc) else StoreError
            if getattr(exc, "sqlstate", None) in ("42501", "3F000"):
                text += privilege_hint(exc, self._roles)
            return kind(scrub(f"cannot use the results store {self.location}: {text}", self.target.url))
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
            return StoreError(f"the results store {self.path} stayed locked by another warroom: {text}; try again")
        if isinstance(exc, sqlite3.OperationalError) and "malformed" not in text:
            return StoreError(f"cannot use the results store {self.path}: {text}")
        return DamagedStore(damaged_message(self.path, exc))

    def verify(self) -> None:
        """Check the whole database file (SQLite's ``PRAGMA quick_check``: every page and b-tree readable).

        Raises :class:`DamagedStore` naming the file and what to do when it is damaged. Reads the whole file, so
        it costs about as much as reading every session once. On PostgreSQL (which checks its own pages) it reads
        one row, which fails when the server cannot read the table."""
        if self.dialect.name != "sqlite":
            self.conn.execute("SELECT 1 FROM sessions LIMIT 1").fetchone()
            return
        problems = [r[0] for r in self.conn.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DamagedStore(damaged_message(self.path, sqlite3.DatabaseError("; ".join(problems))))

    def _migrate(self) -> None:
        conn = self.conn
        self.retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have migrated
            if version > SCHEMA_VERSION:  # pragma: no cover - a newer warroom migrated between our two reads
                raise StoreVersionError(f"the results store {self.path} was upgraded to version {version} meanwhile")
            backfills = backfills_to(SCHEMA_VERSION)
            version = effective_version(version, session_columns(conn, SQLITE))  # (a branch's version 12)
            for v in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[v].split(";"):
                    if statement.strip():
                        conn.execute(statement)
                if v in backfills:
                    backfills[v](conn, SQLITE)
                conn.execute(f"PRAGMA user_version = {v}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    #: Who writes through this connection, as :func:`~warroom.store.results._history.rescored_by` says (None: not
    #: asked yet).
    user_name: str | None = None
    #: How many :meth:`transaction` blocks are open on the connection (the outermost a transaction, the others
    #: savepoints in it).
    _open_transactions = 0

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """One write transaction on the connection (``BEGIN IMMEDIATE`` on SQLite: the write lock is taken at once),
        committed when the block ends and rolled back when it raises; yields the connection. Inside another one (a
        batch of rows written in one commit: ``warroom store import``) it is a savepoint of that transaction: what
        the block wrote is undone when it raises, and the outer transaction goes on (on PostgreSQL too, where an
        error would otherwise abort the whole transaction); nothing is committed until the outermost block ends."""
        depth = self._open_transactions
        self.conn.execute(self.dialect.begin_write if depth == 0 else f"SAVEPOINT warroom_{depth}")
        self._open_transactions = depth + 1
        try:
            yield self.conn
            self.conn.execute("COMMIT" if depth == 0 else f"RELEASE SAVEPOINT warroom_{depth}")
        except BaseException:
            # SQLite rolls a transaction back on its own after some errors (a full disk: "database or disk is full"),
            # and the ROLLBACK then fails, "cannot rollback - no transaction is active", which hid the error that
            # ended the block (the server's log said the live table could not be written for that reason alone)
            with contextlib.suppress(Exception):
                if depth == 0:
                    self.conn.execute("ROLLBACK")
                else:
                    self.conn.execute(f"ROLLBACK TO SAVEPOINT warroom_{depth}")
                    self.conn.execute(f"RELEASE SAVEPOINT warroom_{depth}")
            raise
        finally:
            self._open_transactions = depth

    def write(self, fn: Callable[[], _R]) -> _R:
        """``fn()`` run in one :meth:`transaction`, retried while SQLite reports the database locked (:meth:`retry`)."""

        def once() -> _R:
            with self.transaction():
                return fn()

        return self.retry(once)

    @staticmethod
    def retry(fn: Callable[[], _R], attempts: int = 200) -> _R:
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
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _exists(path: Path, shown: str) -> bool:
    """Whether the results file ``path`` is there; a name the system refuses (too long) is a :class:`StoreError`
    naming it (``shown``), where ``Path.exists`` raised ``OSError`` through to a traceback."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        raise StoreError(f"cannot use the results store {shown}: {exc.strerror or exc}") from exc
    return True
