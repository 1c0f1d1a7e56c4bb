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
from ._roles import (
    FACILITATOR_ROLE,
    IMPORT_SUBMITTER,
    checks_statements,
    console_statements,
    history_statements,
    mark_submitted_function,
    own_sessions_only,
    secure,
    shared_with,
    trainee_checks_policy,
    trainee_refused,
)

__all__ = [
    "Dialect",
    "FACILITATOR_ROLE",
    "IMPORT_SUBMITTER",
    "POSTGRESQL",
    "SQLITE",
    "STORE_ENV",
    "StoreTarget",
    "StoreURLError",
    "checks_statements",
    "connect",
    "console_statements",
    "driver_errors",
    "history_statements",
    "is_unreachable",
    "migrate_schema",
    "own_sessions_only",
    "privilege_hint",
    "read_version",
    "redact",
    "scrub",
    "secure",
    "sessions_columns",
    "shared_with",
    "store_target",
    "mark_submitted_function",
    "trainee_checks_policy",
    "trainee_refused",
    "upgrade_refused",
]
