"""The PostgreSQL back end of the results store, through psycopg 3 (the optional ``postgres`` extra).

:func:`connect` opens a connection that runs the store's statements as they are written for SQLite (``?``
placeholders, translated by :data:`~warroom.store.dialect.POSTGRESQL`), in autocommit mode with explicit
transactions like the SQLite connection, and returns rows readable by column name or position (like
``sqlite3.Row``). The schema version is kept in the one-row table ``warroom_schema`` (SQLite keeps it in
``PRAGMA user_version``); migrations take a transaction-scoped advisory lock, so several warroom processes opening a
new database at once migrate it once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from warroom.store.dialect import POSTGRESQL, scrub
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


def connect(url: str) -> PgConnection:
    """Connect to the PostgreSQL store at ``url``. Raises :class:`StoreError` (the URL redacted) when psycopg is
    missing or the server cannot be reached or refuses the connection."""
    from warroom.store.dialect import redact

    try:
        import psycopg
    except ImportError:
        raise StoreError(
            f"the results store {redact(url)} is PostgreSQL, which needs psycopg: pip install 'warroom[postgres]'"
        ) from None
    try:
        raw = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S, row_factory=_row_factory)
    except psycopg.OperationalError as exc:
        message = scrub(f"cannot connect to the results store {redact(url)}: {exc}", url)
        refusal = refused_for_good(str(exc))
        if refusal is not None:  # the server answered no: waiting and retrying would not mend it
            raise StoreError(f"{message} ({refusal})") from None
        raise StoreUnreachable(message) from None
    except psycopg.Error as exc:
        raise StoreError(scrub(f"cannot connect to the results store {redact(url)}: {exc}", url)) from None
    return PgConnection(raw)


#: libpq's messages (as the server or libpq words them in English) for a connection refused for good: a wrong
#: password or user, no password given, a database that does not exist, a host the server does not admit. Each with
#: what to do. Anything else (refused, timed out, too many clients, starting up) is taken as the store unreachable.
_REFUSED_FOR_GOOD = (
    ("password authentication failed", "check the user and password: in the URL, ~/.pgpass or $PGPASSWORD"),
    ("no password supplied", "give the password in ~/.pgpass, $PGPASSWORD or the URL"),
    ("authentication failed", "check the user and how the server authenticates it (pg_hba.conf)"),
    ("no pg_hba.conf entry", "the server does not admit this host, user or database: ask its administrator"),
    ("is not permitted to log in", "the role is not a LOGIN role: ALTER ROLE ... LOGIN"),
    ("does not exist", "create it (docs/cohorts.md, \"Setting up a class\"), or correct the URL"),
)


def refused_for_good(message: str) -> str | None:
    """What to do when libpq's connection error ``message`` says the server refused the connection for a reason
    that waiting will not mend (a wrong password, an unknown database or role); None when the store may just be
    unreachable for now (then a finished session is queued locally)."""
    for words, advice in _REFUSED_FOR_GOOD:
        if words in message:
            return advice
    return None


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


def migrate(
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


def columns(conn: PgConnection) -> set[str]:
    """The column names of the ``sessions`` table on the connection's search path (empty: no such table)."""
    rows = conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass('sessions') AND attnum > 0 "
        "AND NOT attisdropped"
    )
    return {r[0] for r in rows}
