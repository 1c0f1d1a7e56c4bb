"""Who sees which sessions in a shared PostgreSQL store: database roles with row-level security.

:func:`secure` (``warroom store secure``, run once by the owner of the tables, after ``warroom store migrate``)
creates the store's two group roles (:mod:`._role_names`: ``warroom_trainee`` and ``warroom_facilitator`` in the
default schema, names of the store's own elsewhere) and the policies of the ``sessions`` table:

- ``warroom_trainee``: may store sessions and read them, only where ``trainee`` is the login role's own name
  (``session_user``: a ``SET ROLE`` changes nothing, :data:`LOGIN`): a trainee's database role is named like the
  trainee (``--trainee``, ``$WARROOM_TRAINEE``);
- ``warroom_facilitator``: reads, re-scores and deletes every session (``scores summary`` of the whole cohort,
  ``review`` of any trainee's session).

The facilitator then makes one login role per person: ``CREATE ROLE ann LOGIN PASSWORD '...' IN ROLE
warroom_trainee`` (docs/sessions.md, "Shared store"). The table owner and superusers are not bound by the policies.
A SQLite store has no roles: it is as private as its file.
"""

from __future__ import annotations

from typing import Any, Protocol

from warroom.store.backends._dialect import Dialect
from warroom.store.backends._role_names import (
    DEFAULT_ROLES,
    DEFAULT_SCHEMA,
    Roles,
    cohort_roles,
    ident,
    literal,
    roles_for,
    store_roles,
)
from warroom.store.errors import StoreError


class _Connection(Protocol):
    """What the roles need of an open store's connection (:class:`warroom.store.results.StoreConnection`)."""

    @property
    def conn(self) -> Any: ...
    @property
    def errors(self) -> tuple[type[BaseException], ...]: ...
    def error(self, exc: BaseException) -> StoreError: ...
    @property
    def roles(self) -> Roles: ...


class OpenStore(Protocol):
    """An open results store (:class:`warroom.store.results.ResultsStore`), as the roles use it."""

    @property
    def db(self) -> _Connection: ...
    @property
    def dialect(self) -> Dialect: ...
    @property
    def location(self) -> str: ...

#: The tables ``warroom store secure`` grants to the group roles.
_TABLES = "warroom_schema, sessions, scorecard_history, session_checks, facilitator_notes, live_sessions"


def _statements(schema: str, roles: Roles) -> list[str]:
    trainee, facilitator = roles.sql()
    both = f"{trainee}, {facilitator}"
    return [
        f"GRANT USAGE ON SCHEMA {ident(schema)} TO {both}",
        f"GRANT SELECT ON warroom_schema TO {both}",
        f"GRANT SELECT, INSERT ON sessions TO {trainee}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON sessions TO {facilitator}",
        "ALTER TABLE sessions ENABLE ROW LEVEL SECURITY",
        *sessions_policies(roles),
        *history_statements(roles),
        *checks_statements(roles),
        *console_statements(roles),
    ]


#: Who a trainee role's policies and the trigger name: the login role (``session_user``), never ``current_user``
#: (schema version 25). A login role may ``SET ROLE`` to any role it is a member of (or connect with ``options=-c
#: role=NAME``), its trainee group included: with ``current_user`` in the policies it then stored and read sessions
#: as trainee ``warroom_trainee`` (or as any other role it is a member of), and its not-verified record named that
#: role, so a session genuinely played that way passed ``scores verify`` and counted under a name not its own.
#: ``session_user`` is the role that logged in, whatever ``SET ROLE`` does (only a superuser may change it).
LOGIN = "session_user"


def sessions_policies(roles: Roles) -> list[str]:
    """The policies of ``sessions``: a trainee role stores and reads only the sessions whose trainee is its login's
    name (:data:`LOGIN`), a facilitator role all of them."""
    trainee, facilitator = roles.sql()
    return [
        "DROP POLICY IF EXISTS warroom_trainee_own ON sessions",
        f"CREATE POLICY warroom_trainee_own ON sessions TO {trainee} "
        f"USING (trainee = {LOGIN}) WITH CHECK (trainee = {LOGIN})",
        "DROP POLICY IF EXISTS warroom_facilitator_all ON sessions",
        f"CREATE POLICY warroom_facilitator_all ON sessions TO {facilitator} USING (true) WITH CHECK (true)",
    ]


#: The current transaction's id (64 bits, as a number) and how far the 32-bit ``xmin`` of a row ``s`` is after it,
#: modulo 2**32.
_TOP = "pg_catalog.pg_current_xact_id()::text::bigint"
_AFTER_TOP = f"((s.xmin::text::bigint - ({_TOP} % 4294967296)) + 4294967296) % 4294967296"


def stored_now(table: str) -> str:
    """The condition that the session of a row of ``table`` was stored by the current transaction (schema version
    20), for a trainee role's policies: its row's ``xmin`` is the transaction's own id or the id of one of its
    subtransactions (a savepoint: ``warroom store import`` stores each line in one, 500 lines a transaction). The
    ``xmin`` of a row stored in a savepoint is the subtransaction's id, never the transaction's
    (``pg_current_xact_id()``), which is why version 16's ``xmin = pg_current_xact_id()`` refused every such row.
    A row the role can see whose inserting transaction is still in progress (``pg_xact_status``) is one its own
    transaction stored (another transaction's rows are not visible until it commits), and a transaction's
    subtransactions have ids after its own: so the row's 32-bit ``xmin`` is widened to the 64-bit id nearest after
    the transaction's (a row of a transaction before it, committed, is never in progress; the ``CASE`` asks
    ``pg_xact_status`` only for an id that is not before the transaction's own)."""
    widened = f"({_TOP} + {_AFTER_TOP})::text::xid8"
    mine = (f"CASE WHEN {_AFTER_TOP} < 2147483648 THEN pg_catalog.pg_xact_status({widened}) = 'in progress' "
            "ELSE false END")  # fmt: skip
    return f"EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = {table}.session_id AND {mine})"


def history_statements(roles: Roles) -> list[str]:
    """The rights and row-level security of the scorecard history (schema version 11; narrowed in 18): a trainee
    reads the history of the sessions they may read (their own) and adds history only as ``warroom store import``
    does, with the session, in the transaction that stores it (:func:`stored_now`): never to a session stored before,
    where a made-up "re-scored by the facilitator" entry would stand beside a verified session; and only as its own
    (``replaced_by`` its own name, narrowed in 19; its login's, :data:`LOGIN`, from 25), never as a facilitator's
    re-score of its new session. A facilitator reads all of it and adds to it when re-scoring."""
    table = "scorecard_history"
    own = f"EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = {table}.session_id)"
    check = f"{stored_now(table)} AND replaced_by = {LOGIN}"
    trainee, facilitator = roles.sql()
    return [
        f"GRANT SELECT, INSERT ON {table} TO {trainee}, {facilitator}",
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"DROP POLICY IF EXISTS warroom_trainee_own ON {table}",
        f"CREATE POLICY warroom_trainee_own ON {table} TO {trainee} USING ({own}) WITH CHECK ({check})",
        f"DROP POLICY IF EXISTS warroom_facilitator_all ON {table}",
        f"CREATE POLICY warroom_facilitator_all ON {table} TO {facilitator} USING (true) WITH CHECK (true)",
    ]


#: The trigger function that records every session a role of the store's trainee group stores as not verified:
#: the role's client computed its results, which the store cannot trust (docs/cohorts.md, "What a trainee can and
#: cannot do to their results"). It runs as the role that stores (so ``current_user`` is that role, whose rights
#: decide whether it is a trainee's), and records the login (``session_user``, :data:`LOGIN`: the role that logged in,
#: whatever ``SET ROLE`` made ``current_user``; schema version 25); the role may add only such rows (its policy on
#: ``session_checks``) and neither change nor delete them.
_MARK_SUBMITTED = """CREATE OR REPLACE FUNCTION warroom_mark_submitted() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS {tag}
BEGIN
    -- Every relation named with its schema: a session's temporary schema is searched first for a name without one,
    -- so a trainee's TEMP TABLE session_checks (or pg_roles) took the record instead (schema version 17).
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles r
                   WHERE r.rolname = current_user AND (r.rolsuper OR r.rolbypassrls))
       AND NOT pg_catalog.pg_has_role(current_user,
                                      (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = TG_RELID), 'MEMBER')
       AND NOT pg_catalog.pg_has_role(current_user, {facilitator}, 'MEMBER') THEN
        EXECUTE pg_catalog.format('INSERT INTO %I.session_checks (session_id, state, reason, checked_at, checked_by, '
                                  'submitted_by) VALUES ($1, ''unverified'', $2, $3, session_user, session_user) '
                                  'ON CONFLICT (session_id) DO NOTHING', TG_TABLE_SCHEMA)
        USING NEW.session_id, 'stored by the trainee role ' || pg_catalog.quote_ident(session_user)
              || ', whose own client computed its results: not verified yet',
              pg_catalog.to_char(pg_catalog.clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"');
    END IF;
    RETURN NULL;
END {tag}"""


def mark_submitted_function(roles: Roles) -> str:
    """The statement that (re)creates the trigger function recording a trainee role's sessions as not verified
    (those of a member of the store's facilitator group are not: the name, a literal in the body, is quoted, and
    the body's dollar quote is one the name does not hold)."""
    tag = "$$"
    while tag in roles.facilitator:
        tag = f"${tag.strip('$')}w$"
    return _MARK_SUBMITTED.format(facilitator=literal(roles.facilitator), tag=tag)


def checks_statements(roles: Roles) -> list[str]:
    """The rights, row-level security and trigger of the sessions' verification records (``session_checks``,
    schema version 14): every session a trainee role stores is recorded as not verified by the database itself
    (the trigger); a trainee reads the records of their own sessions and may add only such records, never change or
    delete one; a facilitator reads and writes them all (``warroom scores verify``)."""
    table = "session_checks"
    trainee, facilitator = roles.sql()
    return [
        f"GRANT SELECT, INSERT ON {table} TO {trainee}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {facilitator}",
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        *trainee_checks_policy(roles),
        f"DROP POLICY IF EXISTS warroom_facilitator_all ON {table}",
        f"CREATE POLICY warroom_facilitator_all ON {table} TO {facilitator} USING (true) WITH CHECK (true)",
        mark_submitted_function(roles),
        "DROP TRIGGER IF EXISTS sessions_mark_submitted ON sessions",
        "CREATE TRIGGER sessions_mark_submitted AFTER INSERT ON sessions FOR EACH ROW "
        "EXECUTE FUNCTION warroom_mark_submitted()",
    ]


#: The ``submitted_by`` of a session stored by ``warroom store import`` (warroom.store.results._transfer).
IMPORT_SUBMITTER = "warroom store import"


def trainee_checks_policy(roles: Roles) -> list[str]:
    """The trainee's policy on ``session_checks`` (schema version 16; 20 accepts a savepoint): a trainee role reads
    the records of its own sessions, and may add a record only as its own client does, in the transaction that
    stores the session (the trigger's, and ``warroom store import``'s, which the trigger's leaves as it is): for a
    session row inserted by the current transaction or one of its savepoints (:func:`stored_now`), not verified,
    checked by the role's login itself and submitted by it (or by an import; the login, :data:`LOGIN`, from 25). So
    it can neither add a record to a session stored before (one without a record) nor put another user's name in
    ``checked_by`` or ``submitted_by``."""
    table = "session_checks"
    own = f"EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = {table}.session_id)"
    check = (f"{stored_now(table)} AND state = 'unverified' AND checked_by = {LOGIN} "
             f"AND submitted_by IN ({LOGIN}, '{IMPORT_SUBMITTER}')")  # fmt: skip
    return [
        f"DROP POLICY IF EXISTS warroom_trainee_own ON {table}",
        f"CREATE POLICY warroom_trainee_own ON {table} TO {ident(roles.trainee)} USING ({own}) WITH CHECK ({check})",
    ]


def console_statements(roles: Roles) -> list[str]:
    """The rights and row-level security of the facilitator's console (schema version 15): a trainee reads the
    facilitator's notes on the sessions they may read (their own); a facilitator reads and writes every note and
    the table of who is live in a served class (which a trainee never reads)."""
    notes = "facilitator_notes"
    own = f"EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = {notes}.session_id)"
    trainee, facilitator = roles.sql()
    return [
        f"GRANT SELECT ON {notes} TO {trainee}",
        f"GRANT SELECT, INSERT, DELETE ON {notes} TO {facilitator}",
        f"ALTER TABLE {notes} ENABLE ROW LEVEL SECURITY",
        f"DROP POLICY IF EXISTS warroom_trainee_own ON {notes}",
        f"CREATE POLICY warroom_trainee_own ON {notes} FOR SELECT TO {trainee} USING ({own})",
        f"DROP POLICY IF EXISTS warroom_facilitator_all ON {notes}",
        f"CREATE POLICY warroom_facilitator_all ON {notes} TO {facilitator} USING (true) WITH CHECK (true)",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON live_sessions TO {facilitator}",
    ]


def _create_role(conn: Any, name: str) -> None:
    if conn.execute("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ?", (name,)).fetchone() is None:
        conn.execute(f"CREATE ROLE {ident(name)} NOLOGIN")


def _chosen_roles(conn: Any, schema: str, cohort: str | None) -> tuple[Roles, Roles | None]:
    """The roles ``warroom store secure`` gives the store, and those it had (None: not secured): ``--cohort``'s;
    else the store's own, kept (the documented pair only in the default schema: elsewhere it is the pair every
    schema shared before each store had its own, and the store moves to its schema's); else its schema's."""
    current = store_roles(conn)
    if cohort is not None:
        return cohort_roles(cohort), current
    if current is not None and (current != DEFAULT_ROLES or schema == DEFAULT_SCHEMA):
        return current, current
    return roles_for(schema), current


def secure(store: OpenStore, cohort: str | None = None) -> tuple[Roles, Roles | None]:
    """Create the store's roles (:func:`_chosen_roles`), grants and row-level security policies (idempotent:
    running it again changes nothing), in one transaction; a store that had other roles is moved to its own (the
    old ones lose every right on it). Returns the two group roles and the pair it had when that differs (else
    None). Raises :class:`StoreError` for a SQLite store, for roles that already secure another store of the
    server (but the documented pair in the default schema: one cohort per database, as before), or when the
    connected role may not do it (it must own the tables and may create roles)."""
    if store.dialect.name != "postgresql":
        raise StoreError(f"{store.location} is a SQLite store: it has no roles (it is as private as its file)")
    conn = store.db.conn
    try:
        schema = str(conn.execute("SELECT current_schema()").fetchone()[0])
        roles, before = _chosen_roles(conn, schema, cohort)
        taken = _reached(conn, roles.facilitator) + _reached(conn, roles.trainee)
        if taken and (roles != DEFAULT_ROLES or schema != DEFAULT_SCHEMA):
            shown = roles.shown()
            raise StoreError(f"the roles {shown.trainee} and {shown.facilitator} already secure the store in "
                             f"{taken[0]} of this server: give this store a cohort name of its own, `warroom store "
                             "secure --cohort NAME` (nothing was changed)")  # fmt: skip
        if before != roles and roles != DEFAULT_ROLES:
            _refuse_left_members(conn, roles)
        conn.execute("BEGIN")
        try:
            _create_role(conn, roles.trainee)
            _create_role(conn, roles.facilitator)
            if before is not None and before != roles:
                old = ", ".join(before.sql())
                conn.execute(f"REVOKE ALL ON SCHEMA {ident(schema)} FROM {old}")
                conn.execute(f"REVOKE ALL ON {_TABLES} FROM {old}")
            for statement in _statements(schema, roles):
                conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    except store.db.errors as exc:
        error = store.db.error(exc)
        if getattr(exc, "sqlstate", None) == "42501":  # insufficient privilege: say who may run it
            error = type(error)(f"{error} (`warroom store secure` must be run as the owner of the tables, the role "
                                "that ran `warroom store migrate`, with CREATEROLE while the two roles do not exist)")
        raise error from exc
    return roles, before if before != roles else None


#: The login and group roles that are members of a group role, by name.
_MEMBERS = """SELECT m.rolname FROM pg_catalog.pg_auth_members a
JOIN pg_catalog.pg_roles g ON g.oid = a.roleid JOIN pg_catalog.pg_roles m ON m.oid = a.member
WHERE g.rolname = ? ORDER BY 1"""


#: A role of that name that may log in (a person's role, never a group warroom made: those are NOLOGIN).
_CAN_LOGIN = "SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ? AND rolcanlogin"


def _refuse_left_members(conn: Any, roles: Roles) -> None:
    """Refuse (:class:`StoreError`) to secure a store with roles of its own that secure no store yet but already
    have members: roles left on the server by a store dropped since (a cohort's schema dropped and made again, a
    cohort name used again), whose members (last year's facilitator and trainees) would reach this store's
    sessions; or a role of that name that is a login role (a trainee of another cohort named like the group)."""
    from warroom.core.text import clean_name

    login = [role for role in roles
             if conn.execute(_CAN_LOGIN, (role,)).fetchone() is not None]  # fmt: skip
    if login:
        name = clean_name(ident(login[0]))
        raise StoreError(
            f"the role {name} exists already as a login role (a person's, not a group warroom made): as this store's "
            f"group it would be given every right of a {'trainee' if login[0] == roles.trainee else 'facilitator'} "
            "of the store and so would its holder. Give this store a cohort name of its own (`warroom store secure "
            "--cohort NAME`) (nothing was changed)"
        )
    left = [(role, str(m)) for role in roles for (m,) in conn.execute(_MEMBERS, (role,)).fetchall()]
    if not left:
        return
    named = ", ".join(f"{clean_name(m)} (of {clean_name(role)})" for role, m in left[:10])
    more = f" and {len(left) - 10} more" if len(left) > 10 else ""
    revoke = "; ".join(f"REVOKE {ident(role)} FROM {ident(m)}" for role, m in left[:3])
    shown = roles.shown()
    raise StoreError(
        f"the roles {shown.trainee} and {shown.facilitator} secure no store but already have members, left from a "
        f"store secured with them before: {named}{more}; they would read (and a facilitator re-score and delete) "
        f"this store's sessions. Give this store a cohort name of its own (`warroom store secure --cohort NAME`), "
        f"or revoke every member ({clean_name(revoke)}{'; ...' if len(left) > 3 else ''}), run `warroom store "
        "secure` again, then grant this class's login roles (nothing was changed)"
    )


#: The other stores a group role reaches: the schemas of this database holding a store whose ``sessions`` it may
#: use (``USAGE`` on the schema, which ``public`` grants every role, and a right on the table), and the other
#: databases of the server in which it holds a right or is named by a policy (``pg_shdepend``: a role's grants and
#: policies in every database of the server).
_REACHED = """SELECT 'schema', n.nspname FROM pg_catalog.pg_namespace n, pg_catalog.pg_roles r
WHERE r.rolname = ? AND n.nspname <> pg_catalog.current_schema()
  AND EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'warroom_schema')
  AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'USAGE')
  AND EXISTS (SELECT 1 FROM pg_catalog.pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'sessions'
              AND pg_catalog.has_table_privilege(r.oid, c.oid, 'SELECT, INSERT, UPDATE, DELETE'))
UNION ALL
SELECT DISTINCT 'database', d.datname FROM pg_catalog.pg_shdepend s
JOIN pg_catalog.pg_database d ON d.oid = s.dbid
JOIN pg_catalog.pg_roles r ON r.oid = s.refobjid AND s.refclassid = 'pg_catalog.pg_authid'::regclass
WHERE r.rolname = ? AND s.deptype IN ('a', 'r') AND d.datname <> pg_catalog.current_database()
ORDER BY 1, 2"""


def _reached(conn: Any, role: str) -> list[str]:
    """The other stores ``role`` reaches (:data:`_REACHED`), as ``schema `NAME``` or ``database `NAME```."""
    from warroom.core.text import shown_id

    return [f"{kind} {shown_id(name)}" for kind, name in conn.execute(_REACHED, (role, role)).fetchall()]


def shared_with(store: OpenStore) -> tuple[Roles, list[str]] | None:
    """The store's group roles and the other stores of the server they reach too (``schema `NAME``` of this
    database, ``database `NAME```): a store that shares its roles (secured before each store had its own, or in
    the default schema of two databases) is one cohort with those, to a facilitator and a trainee of either;
    None for a SQLite store or an unsecured one. Raises :class:`StoreError` when the catalogs cannot be read."""
    if store.dialect.name != "postgresql":
        return None
    try:
        roles = store_roles(store.db.conn)
        if roles is None:
            return None
        reached = _reached(store.db.conn, roles.facilitator) + _reached(store.db.conn, roles.trainee)
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    return roles, sorted(set(reached))


def group_roles(store: OpenStore) -> Roles:
    """The group roles a login role of the store needs (:func:`._role_names.connection_roles`, read when the store
    was opened: no query); the documented pair for a SQLite store."""
    return store.db.roles


_OWN_ONLY = """SELECT session_user,
    c.relrowsecurity,
    r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'MEMBER'),
    EXISTS (SELECT 1 FROM pg_roles f WHERE f.rolname = ? AND pg_has_role(current_user, f.oid, 'MEMBER'))
FROM pg_class c, pg_roles r
WHERE c.oid = to_regclass('sessions') AND r.rolname = current_user"""


def own_sessions_only(store: OpenStore) -> str | None:
    """The login role's name (``session_user``, whatever ``SET ROLE`` made the current role) when the row-level
    security of ``warroom store secure`` limits it to its own sessions (its current role is of the store's trainee
    group: it may store and read only sessions whose trainee is the login's name); None when it may store any
    trainee's sessions (a SQLite store, no row-level security, a member of the store's facilitator group, the owner
    of the tables or a superuser). Raises :class:`StoreError` when the store
    cannot be read."""
    if store.dialect.name != "postgresql":
        return None
    try:
        roles = store_roles(store.db.conn)
        if roles is None:
            return None
        row = store.db.conn.execute(_OWN_ONLY, (roles.facilitator,)).fetchone()
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    if row is None:
        return None
    user, secured, bypasses, facilitator = row
    return str(user) if secured and not bypasses and not facilitator else None


def trainee_refused(login_role: str | None, trainee: str, roles: Roles) -> str | None:
    """Why sessions of ``trainee`` cannot be stored by a role limited to its own sessions (``login_role``, from
    :func:`own_sessions_only`, a member of ``roles.trainee``), as a clause; None when they can."""
    if login_role is None or login_role == trainee:
        return None
    return (f"the store's login role {login_role!r} is a {roles.shown().trainee} and may store only the sessions of "
            f"trainee {login_role!r}, not of {trainee!r}")
