"""Why a PostgreSQL store refused a connection, read so that the server's message language does not matter.

A connection refused for good (a wrong password or user, no password given, a database that does not exist, a host
the server does not admit) stops ``warroom`` with exit 1 and what to do; any other failure (no server, refused,
timed out, too many clients, starting up) takes the store as unreachable for now, and a finished session is queued
locally for ``warroom store sync``. :func:`connect_refusal` decides, in this order:

1. the SQLSTATE of the server's error (``exc.sqlstate``), when psycopg gives it: ``28P01`` invalid password,
   ``28000`` invalid authorization (no ``pg_hba.conf`` entry, a role that does not exist or may not log in),
   ``3D000`` no such database, ``42501`` no ``CONNECT`` privilege, ``55000`` a database not accepting connections
   are refusals; classes ``08`` (connection), ``53`` (too many connections, out of memory) and ``57`` (starting
   up, shutting down) are not. (psycopg 3.3 gives no SQLSTATE for a failed connection, so this serves errors
   that carry one.)
2. libpq's own flag that the server asked for a password and none was given (``pgconn.needs_password``).
3. libpq's English words (:func:`refused_for_good` and :data:`_NOT_FOR_GOOD_WORDS`): libpq's own messages are in
   English in warroom (Python leaves the ``LC_MESSAGES`` locale at ``C``), the server's are in its
   ``lc_messages`` language; they give the most precise advice when the server speaks English.
4. otherwise, whether the server answered at all, asked of libpq with ``PQping`` (which reads the SQLSTATE the
   server sent, whatever its language): no answer, or "not accepting connections now" (``57P03``), is
   unreachable; a server that answered and still refused the connection refused it for good. A first attempt
   that used up the whole connect timeout is unreachable without a second one.
"""

from __future__ import annotations

from typing import Any

#: SQLSTATEs of a connection refused for good, with what to do.
_FOR_GOOD_SQLSTATE = {
    "28P01": "check the user and password: in the URL, ~/.pgpass or $PGPASSWORD",
    "28000": "the server does not admit this user, host or database (no such role, a role that may not log in, or "
             "no pg_hba.conf entry): check the user in the URL, or ask the server's administrator",
    "3D000": "create it (docs/cohorts.md, \"Setting up a class\"), or correct the URL",
    "42501": "the role may not connect to this database: GRANT CONNECT ON DATABASE ... TO the role, or use another "
             "role",
    "55000": "the database does not accept connections: ALTER DATABASE ... ALLOW_CONNECTIONS true, or use another "
             "database",
}
#: SQLSTATE classes of a failure that waiting may mend: connection exceptions, insufficient resources (too many
#: connections, out of memory), operator intervention (starting up, shutting down, in recovery).
_NOT_FOR_GOOD_CLASSES = ("08", "53", "57")

#: libpq's messages (as the server or libpq words them in English) for a connection refused for good: a wrong
#: password or user, no password given, a database that does not exist, a host the server does not admit. Each with
#: what to do.
_REFUSED_FOR_GOOD = (
    ("password authentication failed", _FOR_GOOD_SQLSTATE["28P01"]),
    ("no password supplied", "give the password in ~/.pgpass, $PGPASSWORD or the URL"),
    ("authentication failed", "check the user and how the server authenticates it (pg_hba.conf)"),
    ("no pg_hba.conf entry", "the server does not admit this host, user or database: ask its administrator"),
    ("is not permitted to log in", "the role is not a LOGIN role: ALTER ROLE ... LOGIN"),
    ("does not exist", _FOR_GOOD_SQLSTATE["3D000"]),
    ("permission denied for database", _FOR_GOOD_SQLSTATE["42501"]),
    ("is not currently accepting connections", _FOR_GOOD_SQLSTATE["55000"]),
)
#: libpq's English words for a failure that waiting may mend (no need to ask the server again).
_NOT_FOR_GOOD_WORDS = (
    "timeout expired", "Connection refused", "No such file or directory", "could not translate host name",
    "Network is unreachable", "No route to host", "server closed the connection unexpectedly", "Connection reset",
    "too many clients", "too many connections", "remaining connection slots are reserved", "is starting up",
    "is shutting down", "is in recovery mode", "not yet accepting connections", "out of memory",
)
#: What to do when the server answered and refused the connection, in words warroom could not read.
_ANSWERED = ("the server refused the connection (its reason is above): check the user and the database of the URL, "
             "and ask the server's administrator whether this host and user are admitted (pg_hba.conf)")
_ANSWERED_AFTER_PASSWORD = ("the server refused the connection after the password (its reason is above): check the "
                            "user and password (in the URL, ~/.pgpass or $PGPASSWORD) and the database of the URL")
_NEEDS_PASSWORD = _REFUSED_FOR_GOOD[1][1]


def refused_for_good(message: str) -> str | None:
    """What to do when libpq's connection error ``message`` says, in English, that the server refused the
    connection for a reason that waiting will not mend (a wrong password, an unknown database or role); None when
    the words say no such thing (the store may just be unreachable, or the server speaks another language)."""
    for words, advice in _REFUSED_FOR_GOOD:
        if words in message:
            return advice
    return None


def sqlstate_refusal(sqlstate: str | None) -> tuple[bool, str | None]:
    """``(known, advice)`` for the SQLSTATE of a connection error: ``(True, advice)`` for a refusal for good,
    ``(True, None)`` for a failure that waiting may mend, ``(False, None)`` for no SQLSTATE or one not listed."""
    if not sqlstate:
        return False, None
    if sqlstate in _FOR_GOOD_SQLSTATE:
        return True, _FOR_GOOD_SQLSTATE[sqlstate]
    if sqlstate[:2] in _NOT_FOR_GOOD_CLASSES:
        return True, None
    return False, None


def connect_refusal(exc: BaseException, args: dict[str, Any], timed_out: bool) -> str | None:
    """What to do when the connection that failed with ``exc`` (a ``psycopg.OperationalError``) was refused for
    good; None when the store is taken as unreachable for now. ``args``: the keyword arguments the connection was
    made with (``conninfo`` and perhaps ``password`` / ``passfile``: see :mod:`warroom.store.backends._secret`), used to
    ask the server again with ``PQping`` only when nothing else decided; ``timed_out``: the attempt used up the
    whole connect timeout (then no second attempt is made)."""
    known, advice = sqlstate_refusal(getattr(exc, "sqlstate", None))
    if known:
        return advice
    pgconn = getattr(exc, "pgconn", None)
    if pgconn is not None and getattr(pgconn, "needs_password", False):
        return _NEEDS_PASSWORD
    message = str(exc)
    advice = refused_for_good(message)
    if advice is not None:
        return advice
    if timed_out or any(words in message for words in _NOT_FOR_GOOD_WORDS):
        return None
    if not _server_answered(args):
        return None
    return _ANSWERED_AFTER_PASSWORD if pgconn is not None and getattr(pgconn, "used_password", False) else _ANSWERED


def _server_answered(args: dict[str, Any]) -> bool:
    """Whether the server that ``args`` (``psycopg.connect``'s keyword arguments) connect to is up and answers
    (libpq's ``PQping``: it answered, even with an error other than "not accepting connections now"), within the
    connect timeout."""
    from psycopg import pq
    from psycopg.conninfo import make_conninfo

    from warroom.store.backends._postgres import CONNECT_TIMEOUT_S

    try:
        conninfo = make_conninfo(connect_timeout=CONNECT_TIMEOUT_S, **args)
        return bool(pq.PGconn.ping(conninfo.encode()) == pq.Ping.OK)
    except Exception:  # a URL libpq cannot even parse was refused already: no answer to ask for
        return False
