# The API of warroom.store.backends (its __init__.py loads each name on first use, from the module named here).
# keep: redact

from ._dialect import POSTGRESQL, SQLITE, STORE_ENV, Dialect, StoreTarget, StoreURLError, redact, scrub, store_target
from ._postgres import (
    connect,
    driver_errors,
    is_unreachable,
    migrate_schema,
    privilege_hint,
    read_version,
    sessions_columns,
    upgrade_refused,
)
from ._role_names import DEFAULT_ROLES, Roles, connection_roles, roles_for, store_roles
from ._roles import (
    IMPORT_SUBMITTER,
    checks_statements,
    console_statements,
    group_roles,
    history_statements,
    mark_submitted_function,
    own_sessions_only,
    secure,
    shared_with,
    trainee_checks_policy,
    trainee_refused,
)

__all__ = [
    "DEFAULT_ROLES",
    "Dialect",
    "IMPORT_SUBMITTER",
    "POSTGRESQL",
    "SQLITE",
    "STORE_ENV",
    "Roles",
    "StoreTarget",
    "StoreURLError",
    "checks_statements",
    "connect",
    "connection_roles",
    "console_statements",
    "driver_errors",
    "group_roles",
    "history_statements",
    "is_unreachable",
    "migrate_schema",
    "own_sessions_only",
    "privilege_hint",
    "read_version",
    "redact",
    "roles_for",
    "scrub",
    "secure",
    "sessions_columns",
    "shared_with",
    "store_roles",
    "store_target",
    "mark_submitted_function",
    "trainee_checks_policy",
    "trainee_refused",
    "upgrade_refused",
]
