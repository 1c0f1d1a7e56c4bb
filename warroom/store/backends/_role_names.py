"""Which two group roles a PostgreSQL store's row-level security names (docs/cohorts.md, "Roles: who sees what").

PostgreSQL roles belong to the whole server, not to a database or a schema: two cohorts' stores granted to the same
two roles are one cohort to them (a facilitator of one reads, re-scores and deletes the other's sessions). So each
store has its own pair: the store in the default schema (``public``) keeps the documented ``warroom_trainee`` and
``warroom_facilitator``; a store in another schema, or secured with ``--cohort NAME``, gets
``warroom_trainee_NAME`` and ``warroom_facilitator_NAME`` (NAME its schema's name, or the cohort's).

The store records its pair where it enforces it: the roles of its policies on ``sessions`` (``warroom_trainee_own``,
``warroom_facilitator_all``), which every login role may read in the catalogs. :func:`store_roles` reads them back;
every check and every message naming a role reads them there (no schema migration keeps them twice).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from warroom.store.errors import StoreError

#: The schema of a store whose roles keep the documented names (one cohort per database, as before).
DEFAULT_SCHEMA = "public"
#: PostgreSQL's longest name, in bytes (NAMEDATALEN - 1): a longer one is cut silently, so two cohorts whose names
#: differ only past it would share roles; such a name is refused instead.
MAX_NAME_BYTES = 63


class Roles(NamedTuple):
    """A store's two group roles."""

    trainee: str
    facilitator: str

    def sql(self) -> Roles:
        """Both names as quoted SQL identifiers."""
        return Roles(ident(self.trainee), ident(self.facilitator))

    def shown(self) -> Roles:
        """Both names as a message shows them, to be pasted in a ``GRANT``: a plain name as it is, any other
        quoted (:func:`ident`), control characters escaped."""
        from warroom.core.text import clean_name

        return Roles(*(clean_name(name if _PLAIN.fullmatch(name) else ident(name)) for name in self))


#: A name SQL takes without quotes.
_PLAIN = re.compile(r"[a-z_][a-z0-9_$]*")

#: The group roles of a store in the default schema.
DEFAULT_ROLES = Roles("warroom_trainee", "warroom_facilitator")


def ident(name: str) -> str:
    """``name`` as a quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    """``text`` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def roles_for(cohort: str | None) -> Roles:
    """The group roles of a store in the schema named ``cohort``: the documented names for None or the default
    schema, else names of its own (:func:`cohort_roles`)."""
    if cohort is None or cohort == DEFAULT_SCHEMA:
        return DEFAULT_ROLES
    return cohort_roles(cohort)


def cohort_roles(cohort: str) -> Roles:
    """The group roles named after ``cohort`` (``--cohort NAME``, or a schema's name): ``warroom_trainee_NAME`` and
    ``warroom_facilitator_NAME``, whatever the name (``--cohort public`` too: the documented pair is a default
    schema's, never a name given). Raises :class:`StoreError` for an empty name or one that makes a role's name
    longer than PostgreSQL's 63 bytes."""
    if not cohort or "\x00" in cohort:
        raise StoreError(f"the cohort name {cohort!r} cannot name a role: give --cohort NAME (letters, digits, _)")
    roles = Roles(f"{DEFAULT_ROLES.trainee}_{cohort}", f"{DEFAULT_ROLES.facilitator}_{cohort}")
    longest = len(roles.facilitator.encode())
    if longest > MAX_NAME_BYTES:
        room = MAX_NAME_BYTES - len(DEFAULT_ROLES.facilitator.encode()) - 1
        raise StoreError(
            f"the cohort name {cohort!r} makes the role name {roles.facilitator!r} {longest} bytes long, and "
            f"PostgreSQL cuts names at {MAX_NAME_BYTES} bytes (two cohorts would share roles): give `warroom store "
            f"secure --cohort NAME` a name of at most {room} bytes (nothing was changed)"
        )
    return roles


#: The roles of the two policies of ``sessions`` in the store's schema (none when it is not secured).
_POLICY_ROLES = """SELECT p.polname, r.rolname FROM pg_catalog.pg_policy p
JOIN pg_catalog.pg_class c ON c.oid = p.polrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_roles r ON r.oid = ANY (p.polroles)
WHERE n.nspname = coalesce(?::text, pg_catalog.current_schema()) AND c.relname = 'sessions'
  AND p.polname IN ('warroom_trainee_own', 'warroom_facilitator_all')"""


def store_roles(conn: Any, schema: str | None = None) -> Roles | None:
    """The group roles the store's policies name (``conn``: an open PostgreSQL connection on the store's schema,
    or ``schema``'s: the catalogs tell them to a login role that may not use the schema too); None when it is not
    secured. Raises the driver's error when the catalogs cannot be read."""
    found = {str(name): str(role) for name, role in conn.execute(_POLICY_ROLES, (schema,)).fetchall()}
    if "warroom_trainee_own" not in found or "warroom_facilitator_all" not in found:
        return None
    return Roles(found["warroom_trainee_own"], found["warroom_facilitator_all"])


def url_schema(conn: Any) -> str | None:
    """The store's schema: ``current_schema()``, or when the login role may use none, the first schema its search
    path names (the URL's ``?options=-csearch_path%3DNAME``)."""
    schema, path = conn.execute("SELECT pg_catalog.current_schema(), pg_catalog.current_setting('search_path')"
                                ).fetchone()  # fmt: skip
    return str(schema) if schema is not None else first_schema(str(path), skip=_SYSTEM_SCHEMAS)


#: The names of a ``search_path`` that name no store's schema: the role's own (``$user``) and the system's.
_SYSTEM_SCHEMAS = ("$user", "pg_catalog", "pg_temp")


def first_schema(search_path: str, skip: tuple[str, ...] = (*_SYSTEM_SCHEMAS, DEFAULT_SCHEMA)) -> str | None:
    """The first schema named by the setting ``search_path`` (``cohort_2026``, ``"Cohort 2026", public``) that is
    not in ``skip``, as PostgreSQL reads it: quotes undone (a quoted name may hold a comma: never split inside one),
    an unquoted name in lower case; None when it names only those in ``skip`` (by default ``$user``, the system's
    schemas and ``public``)."""
    for part in re.findall(r'\s*("(?:[^"]|"")*"|[^,]+)\s*(?:,|$)', search_path):
        name = str(part).strip()
        if name.startswith('"') and name.endswith('"') and len(name) >= 2:
            name = name[1:-1].replace('""', '"')
        else:
            name = name.lower()
        if name and name not in skip:
            return name
    return None


def connection_roles(conn: Any, errors: tuple[type[BaseException], ...]) -> Roles:
    """The group roles a login role of the store needs, to name in a message: the store's own
    (:func:`store_roles`), else those ``warroom store secure`` would make for its schema; the documented names
    when the connection cannot say (a transaction already failed, a connection lost)."""
    try:
        schema = url_schema(conn)
        return store_roles(conn, schema) or roles_for(schema)
    except errors:
        return DEFAULT_ROLES
    except StoreError:  # a schema whose name is too long to name roles after: the documented pair, as before
        return DEFAULT_ROLES
