# The API of warroom.store.review (its __init__.py loads each name on first use, from the module named here).
# keep: build_review_rows

from ._drill import (
    DrillCache,
    DrillResolver,
    DrillUnavailable,
    SessionDrill,
    default_drill_resolver,
    file_sha256,
    load_drill_file,
    resolve_session_drill,
)
from ._rescore import RescoreStatus, apply_rescore, rescore, session_rules
from ._review import ACTION_ROW_KINDS, ReviewData, ReviewRow, build_review_rows, load_review
from ._verify import (
    Verdict,
    other_drill_file,
    scorecard_differences,
    start_differences,
    unverifiable_trial,
    verify_sessions,
)

__all__ = [
    "ACTION_ROW_KINDS",
    "DrillCache",
    "DrillResolver",
    "DrillUnavailable",
    "RescoreStatus",
    "ReviewData",
    "ReviewRow",
    "SessionDrill",
    "Verdict",
    "apply_rescore",
    "build_review_rows",
    "default_drill_resolver",
    "file_sha256",
    "load_drill_file",
    "load_review",
    "other_drill_file",
    "rescore",
    "resolve_session_drill",
    "scorecard_differences",
    "session_rules",
    "start_differences",
    "unverifiable_trial",
    "verify_sessions",
]
