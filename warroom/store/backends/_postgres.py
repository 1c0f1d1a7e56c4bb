"""The PostgreSQL back end of the results store, through psycopg 3 (the optional ``postgres`` extra).

:func:`connect` opens a connection that runs the store's statements as they are written for SQLite (``?``
placeholders, translated by :data:`~warroom.store.backends.POSTGRESQL`), in autocommit mode with explicit
transactions like the SQLite connection, and returns rows readable by column name or position (like
``sqlite3.Row``). The schema version is kept in the one-row table ``warroom_schema`` (SQLite keeps it in
``PRAGMA user_version``); migrations take a transaction-scoped advisory lock, so several warroom processes opening a
new database at once migrate it once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from warroom.store.backends._dialect import POSTGRESQL, StoreTarget, scrub
from warroom.store.backends._refusal import connect_refusal
from warroom.store.backends._secret import connection_args
from warroom.store.errors import StoreError, StoreUnreachable

#: Key of the advisory lock held while migrating (any constant; "warroom" in ASCII).
MIGRATION_LOCK = 0x77617272_6F6F6D
#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT_S = 10


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
    row_class = type("Row", (_Row,), {"_index": index})
    return row_class


class PgConnection:
    """One psycopg connection with the ``execute`` / ``close`` of an ``sqlite3.Connection`` (``?`` placeholders)."""

    dialect = POSTGRESQL

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns its cursor (``fetchone``, ``fetchall``, iteration, ``rowcount``)."""
        if params:
            return self.raw.execute(POSTGRESQL.sql(sql), tuple(params))
        return self.raw.execute(sql)

    def executemany(self, sql: str, params_seq: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per parameter tuple (``?`` placeholders)."""
        with self.raw.cursor() as cursor:
            cursor.executemany(POSTGRESQL.sql(sql), [tuple(p) for p in params_seq])

    def close(self) -> None:
        self.raw.close()


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
                raw = psycopg.connect(**args, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                      row_factory=_row_factory)
            except psycopg.OperationalError as exc:
                refusal = connect_refusal(exc, args, time.monotonic() - started >= CONNECT_TIMEOUT_S)
                raise _connect_error(target, exc, refusal, args.get("passfile")) from None
    except psycopg.Error as exc:
        raise _connect_error(target, exc, "") from None
    except ValueError as exc:  # a password that a password file cannot hold (a line break)
        raise _connect_error(target, exc, "") from None
    return PgConnection(raw)


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
    conn: PgConnection, migrations: dict[int, str], target: int, backfills: dict[int, Callable[..., None]] | None = None
) -> None:
    """Bring the database to schema version ``target`` in one transaction, holding an advisory lock so that
    processes opening a new database at once migrate it once (the lock is taken before the transaction starts, so
    the transaction sees what a migration that held it before committed). Raises :class:`StoreError` for a
    database migrated past ``target`` meanwhile or a ``sessions`` table that warroom did not create."""
    conn.execute("SELECT pg_advisory_lock(?)", (MIGRATION_LOCK,))
    try:
        conn.execute("BEGIN")
        try:
            _migrate(conn, migrations, target, backfills or {})
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
    finally:
        try:
            conn.execute("SELECT pg_advisory_unlock(?)", (MIGRATION_LOCK,))
        except Exception:  # the connection is gone: the server released the lock with it
            pass


def _migrate(
    conn: PgConnection, migrations: dict[int, str], target: int, backfills: dict[int, Callable[..., None]]
) -> None:
    version = read_version(conn)
    if version is None:
        conn.execute("CREATE TABLE warroom_schema (version BIGINT NOT NULL)")
        conn.execute("INSERT INTO warroom_schema (version) VALUES (0)")
        version = 0
    elif version == 0 and conn.execute("SELECT to_regclass('warroom_schema')").fetchone()[0] is None:
        raise StoreError("the database has a sessions table that warroom did not create; use another database")
    if version > target:
        raise StoreError(f"the results store was upgraded to schema version {version} meanwhile")
    for v in range(version + 1, target + 1):
        for statement in POSTGRESQL.ddl(migrations[v]):
            conn.execute(statement)
        if v in backfills:
            backfills[v](conn, POSTGRESQL)
        conn.execute("UPDATE warroom_schema SET version = ?", (v,))


def _rollback(conn: PgConnection) -> None:
    """Roll back the open transaction, if the connection still works (the first error is the one to report)."""
    try:
        conn.execute("ROLLBACK")
    except Exception:
        pass


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
    user = conn.execute("SELECT current_user").fetchone()[0]
    assert target.url is not None
    return StoreError(scrub(
        f"the results store {target.location} has schema version {version}, and this warroom needs version "
        f"{needed}; the login role '{user}' may not upgrade it ({why}). The owner of its tables upgrades it once "
        "with `warroom store migrate` (nothing was changed).", target.url
    ))


def privilege_hint(exc: BaseException) -> str:
    """What to do, in parentheses after the server's message, when ``exc`` is a refusal for want of a privilege
    (SQLSTATE 42501) on warroom's tables; "" otherwise. A role of neither group of ``warroom store secure`` may read
    nothing; a ``warroom_trainee`` role may store and read its own sessions but not change or delete any."""
    if getattr(exc, "sqlstate", None) != "42501":
        return ""
    text = str(exc)
    if "warroom_schema" in text:
        return (" (the login role needs a group of `warroom store secure`: GRANT warroom_trainee, or "
                "warroom_facilitator, TO it)")
    if "permission denied for table sessions" in text:
        return (" (a warroom_trainee role may store and read its own sessions only: re-scoring or deleting sessions "
                "takes a warroom_facilitator role or the owner of the tables)")
    return ""
