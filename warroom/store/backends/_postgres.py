"""The PostgreSQL back end of the results store, through psycopg 3 (the optional ``postgres`` extra).

:func:`connect` opens a connection that runs the store's statements as they are written for SQLite (``?``
placeholders, translated by :data:`~warroom.store.backends.POSTGRESQL`), in autocommit mode with explicit
transactions like the SQLite connection, and returns rows readable by column name or position (like
``sqlite3.Row``). The schema version is kept in the one-row table ``warroom_schema`` (SQLite keeps it in
``PRAGMA user_version``); migrations take a transaction-scoped advisory lock, so several warroom processes opening a
new database at once migrate it once.

A network or a server that goes silent never freezes warroom (docs/cohorts.md, "Connections"): connecting gives up
after :data:`CONNECT_TIMEOUT_S`; a connection's TCP keepalives and ``tcp_user_timeout`` (:data:`TCP_SETTINGS`) notice
a peer that is gone; a statement that has had no answer after :data:`STATEMENT_TIMEOUT_S` is cut off by a watchdog
(its socket shut down, since a silent proxy still acknowledges TCP) and raises as unreachable, so a finished session
goes to the local queue; the server ends a transaction left idle for :data:`IDLE_IN_TRANSACTION_S`. Schema migrations
alone run without a statement timeout (a migration of a million sessions takes minutes).
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from warroom.store.backends._dialect import POSTGRESQL, StoreTarget, scrub
from warroom.store.backends._refusal import connect_refusal
from warroom.store.backends._role_names import Roles, first_schema, ident
from warroom.store.backends._secret import connection_args
from warroom.store.errors import StoreError, StoreUnreachable

#: Key of the advisory lock held while migrating (any constant; "warroom" in ASCII).
MIGRATION_LOCK = 0x77617272_6F6F6D
#: Seconds an upgrade waits for the migration's advisory lock (another warroom migrating holds it that long at most).
MIGRATION_LOCK_WAIT_S = 300.0
#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT_S = 10
#: Seconds a statement may wait for the server's answer before its connection is given up as unreachable.
STATEMENT_TIMEOUT_S = 30.0
#: Seconds the server keeps a transaction left idle (its client gone silent) before it ends it and frees its locks.
IDLE_IN_TRANSACTION_S = 60
#: libpq's TCP settings, unless the URL gives its own: keepalives after 5 s of silence, every 2 s, 3 missed ones
#: close the connection; data unacknowledged for 15 s closes it too.
TCP_SETTINGS: dict[str, int] = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                                "keepalives_count": 3, "tcp_user_timeout": 15_000}  # fmt: skip


class _Row(tuple[Any, ...]):
    """A row readable by position or column name (``row[0]``, ``row["trainee"]``), like ``sqlite3.Row``."""

    _index: dict[str, int] = {}  # noqa: RUF012 - set per query by a subclass

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Any]:
    description = cursor.description
    if description is None:
        return tuple
    index = {column.name: i for i, column in enumerate(description)}
    return type("Row", (_Row,), {"_index": index})


class PgConnection:
    """One psycopg connection with the ``execute`` / ``close`` of an ``sqlite3.Connection`` (``?`` placeholders),
    whose statements wait at most :attr:`timeout` seconds for the server (None: for ever)."""

    dialect = POSTGRESQL

    def __init__(self, raw: Any, timeout: float | None) -> None:
        self.raw = raw
        self.timeout = timeout
        #: When the statement running now started (``time.monotonic``), None between statements.
        self.since: float | None = None
        #: True once the watchdog cut the connection off (a statement had no answer within the timeout).
        self.cut = False

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns its cursor (``fetchone``, ``fetchall``, iteration, ``rowcount``)."""
        with self._watched():
            if params:
                return self.raw.execute(POSTGRESQL.sql(sql), tuple(params))
            return self.raw.execute(sql)

    def executemany(self, sql: str, params_seq: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter tuple (``?`` placeholders)."""
        with self._watched(), self.raw.cursor() as cursor:
            cursor.executemany(POSTGRESQL.sql(sql), [tuple(p) for p in params_seq])

    @contextmanager
    def _watched(self) -> Iterator[None]:
        """The statement run in the block is watched (:func:`_watchdog`); a connection it cut off raises psycopg's
        OperationalError saying so (the store then takes the server as unreachable)."""
        import psycopg

        if self.timeout is not None:
            _watch(self)
            self.since = time.monotonic()
        try:
            yield
        except psycopg.OperationalError as exc:
            if not self.cut:
                raise
            raise psycopg.OperationalError(
                f"no answer from the server within {self.timeout:g} s (the network or the server went silent): the "
                "connection was given up"
            ) from exc
        finally:
            self.since = None

    def close(self) -> None:
        _WATCHED.discard(self)
        self.raw.close()


_WATCHED: weakref.WeakSet[PgConnection] = weakref.WeakSet()
_WATCHDOG: list[threading.Thread] = []
_WATCH_LOCK = threading.Lock()


def _watch(conn: PgConnection) -> None:
    """Have the watchdog thread (one per process, started on first use) look after ``conn``."""
    with _WATCH_LOCK:
        _WATCHED.add(conn)
        if not _WATCHDOG or not _WATCHDOG[0].is_alive():
            thread = threading.Thread(target=_watchdog, name="warroom-pg-watchdog", daemon=True)
            _WATCHDOG[:] = [thread]
            thread.start()


def _watchdog() -> None:
    """Twice a second, cut off every watched connection whose statement has waited longer than its timeout: its
    socket is shut down, so the statement's wait ends with an error at once (a TCP timeout would not come while a
    silent proxy still acknowledges)."""
    import socket

    while True:
        time.sleep(0.5)
        now = time.monotonic()
        with _WATCH_LOCK:
            late = [c for c in _WATCHED if c.since is not None and c.timeout is not None and now - c.since > c.timeout]
        for conn in late:
            conn.cut = True
            try:
                with socket.socket(fileno=os.dup(conn.raw.pgconn.socket)) as s:
                    s.shutdown(socket.SHUT_RDWR)
            except Exception:  # closed meanwhile: nothing to cut
                pass


def driver_errors() -> tuple[type[BaseException], ...]:
    """The exception classes of the driver (psycopg's base error), or none when psycopg is not installed."""
    try:
        import psycopg
    except ImportError:
        return ()
    return (psycopg.Error,)


def connect(target: StoreTarget | str) -> PgConnection:
    """Connect to the PostgreSQL store ``target`` (a :class:`~warroom.store.backends.StoreTarget`, or its URL).
    Raises :class:`StoreError` (the URL redacted, with what to do) when psycopg is missing or the server refuses
    the connection for good (see :mod:`warroom.store.backends._refusal`), :class:`StoreUnreachable` when the store
    cannot
    be reached now. The password never sits in a stack frame a crash report could print
    (:mod:`warroom.store.backends._secret`)."""
    if isinstance(target, str):
        target = StoreTarget("postgresql", url=target)
    try:
        import psycopg
    except ImportError:
        raise StoreError(
            f"the results store {target.location} is PostgreSQL, which needs psycopg: pip install 'warroom[postgres]'"
        ) from None
    try:
        with connection_args(target) as args:
            started = time.monotonic()
            try:
                raw = psycopg.connect(**args, **_tcp_settings(args["conninfo"]), autocommit=True,
                                      connect_timeout=CONNECT_TIMEOUT_S, row_factory=_row_factory)
            except psycopg.OperationalError as exc:
                refusal = connect_refusal(exc, args, time.monotonic() - started >= CONNECT_TIMEOUT_S)
                raise _connect_error(target, exc, refusal, args.get("passfile")) from None
    except psycopg.Error as exc:
        raise _connect_error(target, exc, "") from None
    except ValueError as exc:  # a password that a password file cannot hold (a line break)
        raise _connect_error(target, exc, "") from None
    conn = PgConnection(raw, STATEMENT_TIMEOUT_S)
    try:
        conn.execute(f"SET idle_in_transaction_session_timeout = '{IDLE_IN_TRANSACTION_S}s'")
    except psycopg.OperationalError as exc:  # gone silent or down right after connecting
        conn.raw.close()
        raise _connect_error(target, exc, None) from None
    return conn


def _tcp_settings(conninfo: str) -> dict[str, Any]:
    """:data:`TCP_SETTINGS` but those the URL sets itself."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        given = conninfo_to_dict(conninfo)
    except Exception:  # (psycopg reports a malformed URL itself when connecting)
        given = {}
    return {k: v for k, v in TCP_SETTINGS.items() if k not in given}


def _connect_error(
    target: StoreTarget, exc: BaseException, refusal: str | None, passfile: str | None = None
) -> StoreError:
    """The error for a failed connection: :class:`StoreUnreachable` when ``refusal`` is None, else a
    :class:`StoreError` ending with ``refusal`` (what to do) in parentheses, or with nothing added for ``""``.
    ``passfile``: the password file warroom handed libpq the URL's password in (:mod:`warroom.store.backends._secret`);
    libpq's ``password retrieved from file "..."`` naming it says ``password taken from the URL`` instead (that file
    is warroom's own, gone already; one the user keeps, such as ~/.pgpass, is still named)."""
    assert target.url is not None
    text = str(exc)
    if passfile:
        text = text.replace(f'password retrieved from file "{passfile}"', "password taken from the URL")
    message = scrub(f"cannot connect to the results store {target.location}: {text}", target.url)
    if refusal is None:
        return StoreUnreachable(message)
    return StoreError(f"{message} ({refusal})" if refusal else message)


def is_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` (a driver error met while using the store) means the server or the network is gone."""
    import psycopg

    return isinstance(exc, psycopg.OperationalError)


def read_version(conn: PgConnection) -> int | None:
    """The schema version of the database (None: no warroom schema yet, 0: a ``sessions`` table from nowhere)."""
    if conn.execute("SELECT to_regclass('warroom_schema')").fetchone()[0] is None:
        return 0 if conn.execute("SELECT to_regclass('sessions')").fetchone()[0] is not None else None
    row = conn.execute("SELECT version FROM warroom_schema").fetchone()
    return 0 if row is None else int(row[0])


def migrate_schema(
    conn: PgConnection,
    migrations: dict[int, str],
    target: int,
    backfills: dict[int, Callable[..., None]] | None = None,
    start: Callable[[PgConnection, int], int] | None = None,
) -> None:
    """Bring the database to schema version ``target`` in one transaction, holding an advisory lock so that
    processes opening a new database at once migrate it once (the lock is taken before the transaction starts, so
    the transaction sees what a migration that held it before committed); ``start`` gives the version a store that
    claims one is upgraded from (a version released twice: warroom.store.results' ``effective_version``). Raises
    :class:`StoreError` for a database migrated past ``target`` meanwhile or a ``sessions`` table that warroom did
    not create."""
    _take_migration_lock(conn)
    timeout, conn.timeout = conn.timeout, None  # a migration of a million sessions takes minutes
    try:
        conn.execute("BEGIN")
        try:
            # a table another session holds (any open transaction that read it, a trainee's included) is waited for
            # as long as the migration's lock, then the upgrade stops, instead of waiting for ever
            conn.execute(f"SET LOCAL lock_timeout = '{int(MIGRATION_LOCK_WAIT_S * 1000)}ms'")
            _migrate(conn, migrations, target, backfills or {}, start)
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
    finally:
        try:
            conn.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))
        except Exception:  # the connection is gone: the server released the lock with it
            pass
        conn.timeout = timeout


def _take_migration_lock(conn: PgConnection) -> None:
    """Take the migration's advisory lock, waiting at most :data:`MIGRATION_LOCK_WAIT_S`: any login role may take an
    advisory lock (a trainee's idle connection holding this key froze an upgrade for ever); raises :class:`StoreError`
    naming who holds it."""
    deadline = time.monotonic() + MIGRATION_LOCK_WAIT_S
    while not conn.execute("SELECT pg_try_advisory_lock(?)", (MIGRATION_LOCK,)).fetchone()[0]:
        if time.monotonic() > deadline:
            holders = conn.execute(
                "SELECT a.usename, a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE "
                "l.locktype = 'advisory' AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = ?",
                (MIGRATION_LOCK,),
            ).fetchall()
            who = ", ".join(f"role {name!r} (process {pid})" for name, pid in holders) or "another session"
            raise StoreError(f"the results store cannot be upgraded: {who} has held warroom's upgrade lock for "
                             f"{MIGRATION_LOCK_WAIT_S:g} s; end that session (pg_terminate_backend) and try "
                             "again")  # fmt: skip
        time.sleep(0.5)


def _migrate(
    conn: PgConnection,
    migrations: dict[int, str],
    target: int,
    backfills: dict[int, Callable[..., None]],
    start: Callable[[PgConnection, int], int] | None,
) -> None:
    version = read_version(conn)
    if version is None:
        _create_url_schema(conn)
        conn.execute("CREATE TABLE warroom_schema (version BIGINT NOT NULL)")
        conn.execute("INSERT INTO warroom_schema (version) VALUES (0)")
        version = 0
    elif version == 0 and conn.execute("SELECT to_regclass('warroom_schema')").fetchone()[0] is None:
        raise StoreError("the database has a sessions table that warroom did not create; use another database")
    if version > target:
        raise StoreError(f"the results store was upgraded to schema version {version} meanwhile")
    if start is not None and version:
        version = start(conn, version)
    for v in range(version + 1, target + 1):
        for statement in POSTGRESQL.ddl(migrations[v]):
            conn.execute(statement)
        if v in backfills:
            backfills[v](conn, POSTGRESQL)
        conn.execute("UPDATE warroom_schema SET version = ?", (v,))


def _create_url_schema(conn: PgConnection) -> None:
    """Create the schema the URL names (``?options=-csearch_path%3DNAME``, a schema per cohort) when no schema of the
    search path exists yet: the first new store of a cohort is made by ``warroom store migrate`` as the owner of the
    tables, who then owns the schema too. A schema that exists but the role may not use, or a role without ``CREATE``
    on the database, is left to the server's refusal (told what to do by :func:`privilege_hint`)."""
    if conn.execute("SELECT current_schema()").fetchone()[0] is not None:
        return
    name = first_schema(conn.execute("SELECT current_setting('search_path')").fetchone()[0])
    if name is None or conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?) "
        "OR NOT has_database_privilege(current_database(), 'CREATE')", (name,)
    ).fetchone()[0]:
        return  # a schema the role may not use, or a role that may not create one: the server's refusal says so
    conn.execute("CREATE SCHEMA " + ident(name))


def _rollback(conn: PgConnection) -> None:
    """Roll back the open transaction, if the connection still works (the first error is the one to report)."""
    with suppress(Exception):  # a connection that is gone: nothing more is sent, the migration's error is raised
        conn.execute("ROLLBACK")


def sessions_columns(conn: PgConnection) -> set[str]:
    """The column names of the ``sessions`` table on the connection's search path (empty: no such table)."""
    rows = conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass('sessions') AND attnum > 0 "
        "AND NOT attisdropped"
    )
    return {r[0] for r in rows}


def upgrade_refused(
    conn: PgConnection, exc: BaseException, version: int, needed: int, target: StoreTarget
) -> StoreError:
    """The error for a login role that may not migrate the store ``target`` (schema ``version``) to ``needed`` (a
    ``warroom store secure`` role meeting a store of an older warroom: only the tables' owner can upgrade it): the
    versions, the role, the server's reason and who runs what; the URL's password never in it."""
    diag = getattr(exc, "diag", None)
    why = getattr(diag, "message_primary", None) or str(exc).splitlines()[0]
    user = conn.execute("SELECT session_user").fetchone()[0]
    assert target.url is not None
    return StoreError(scrub(
        f"the results store {target.location} has schema version {version}, and this warroom needs version "
        f"{needed}; the login role '{user}' may not upgrade it ({why}). The owner of its tables upgrades it once "
        "with `warroom store migrate` (nothing was changed).", target.url
    ))


def privilege_hint(exc: BaseException, roles: Roles) -> str:
    """What to do, in parentheses after the server's message, when ``exc`` is a refusal for want of a privilege
    (SQLSTATE 42501) on warroom's tables; "" otherwise. A role of neither group of ``warroom store secure`` may read
    nothing; a role of its trainee group (``roles``: the store's own, :func:`._role_names.connection_roles`) may store
    and read its own sessions but not change or delete any. A role without ``USAGE`` on the schema the URL names (a
    schema per cohort) sees no schema at all, and the server says only that none is selected to create in (SQLSTATE
    3F000): the same grant is what it lacks."""
    roles = roles.shown()
    if getattr(exc, "sqlstate", None) == "3F000":
        return (" (the login role may use no schema on its search path: the URL's schema, "
                "`?options=-csearch_path%3DNAME`, must exist, made by `warroom store migrate` as the owner of the "
                f"tables, and the role needs a group of `warroom store secure`: GRANT {roles.trainee}, or "
                f"{roles.facilitator}, TO it)")  # fmt: skip
    if getattr(exc, "sqlstate", None) != "42501":
        return ""
    text = str(exc)
    if "warroom_schema" in text:
        return (f" (the login role needs a group of `warroom store secure`: GRANT {roles.trainee}, or "
                f"{roles.facilitator}, TO it)")
    if "permission denied for table sessions" in text:
        return (f" (a {roles.trainee} role may store and read its own sessions only: re-scoring or deleting "
                f"sessions takes a {roles.facilitator} role or the owner of the tables)")
    return ""
