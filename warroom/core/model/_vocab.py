"""The vocabularies of the drill format: fault kinds (with a description of each), the roles that make model calls,
and the statuses an executor reports. Plain enumerations: no pydantic.
"""

from __future__ import annotations

from enum import StrEnum


class FaultKind(StrEnum):
    """What went wrong at the fault's origin step: kinds from public reports of silent agent failures.

    Each member's description is in :data:`FAULT_KIND_DESCRIPTIONS` (shown in the schema and the docs).
    """

    EMPTY_RESULT = "empty_result"
    SWALLOWED_ERROR = "swallowed_error"
    ERROR_FLAG_IGNORED = "error_flag_ignored"
    HTTP_ERROR_IGNORED = "http_error_ignored"
    TOOL_OUTPUT_MISREAD = "tool_output_misread"
    PHANTOM_TOOL_CALL = "phantom_tool_call"
    UNVERIFIED_WRITE = "unverified_write"
    PARTIAL_WRITE = "partial_write"
    STALE_DATA = "stale_data"
    PAGINATION_TRUNCATED = "pagination_truncated"
    TIMEOUT_AS_EMPTY = "timeout_as_empty"
    RATE_LIMIT_SWALLOWED = "rate_limit_swallowed"
    SCHEMA_DRIFT = "schema_drift"
    WRONG_RECORD = "wrong_record"
    UNIT_CONFUSION = "unit_confusion"
    CONSTRAINT_DROPPED = "constraint_dropped"
    RUNAWAY_LOOP = "runaway_loop"
    FABRICATED_RESULT = "fabricated_result"
    PREMATURE_TERMINATION = "premature_termination"
    DROPPED_HANDOFF = "dropped_handoff"
    BYPASSED_APPROVAL = "bypassed_approval"
    TRUNCATED_TOOL_OUTPUT = "truncated_tool_output"
    INVENTED_CONSTRAINT = "invented_constraint"
    WRONG_TOOL = "wrong_tool"
    ENVIRONMENT_SETUP_FAILED = "environment_setup_failed"
    OTHER = "other"


FAULT_KIND_DESCRIPTIONS: dict[FaultKind, str] = {
    FaultKind.EMPTY_RESULT: (
        "A tool returned an empty result (e.g. []) that the executor took as a real 'nothing found'."
    ),
    FaultKind.SWALLOWED_ERROR: "A tool raised; the error was caught and its text or a default passed on as data.",
    FaultKind.ERROR_FLAG_IGNORED: "A tool result carried an error flag (isError, ok:false) that nothing surfaced.",
    FaultKind.HTTP_ERROR_IGNORED: "An HTTP 4xx/5xx (e.g. a 404 or 403 page) was treated as a successful response.",
    FaultKind.TOOL_OUTPUT_MISREAD: "The tool result was right, but the executor misread what it says.",
    FaultKind.PHANTOM_TOOL_CALL: "The executor reported an action done without ever calling the tool.",
    FaultKind.UNVERIFIED_WRITE: "A write was reported done but never happened (no permission, dry run, wrong path).",
    FaultKind.PARTIAL_WRITE: "Only part of a write or batch succeeded; it was reported complete.",
    FaultKind.STALE_DATA: "A stale cache or replica answered; old data was used as current.",
    FaultKind.PAGINATION_TRUNCATED: "Pagination stopped at the first page; the rest of the data was never read.",
    FaultKind.TIMEOUT_AS_EMPTY: "A timeout was mapped to an empty result.",
    FaultKind.RATE_LIMIT_SWALLOWED: "A rate limit (HTTP 429) was swallowed as 'no results'.",
    FaultKind.SCHEMA_DRIFT: "A field was renamed or moved upstream and read as null or a default.",
    FaultKind.WRONG_RECORD: "The right operation was applied to the wrong record (an ID mix-up).",
    FaultKind.UNIT_CONFUSION: "A unit or currency was confused (cents as dollars, ms as s, EUR as USD).",
    FaultKind.CONSTRAINT_DROPPED: "Truncated context dropped a constraint of the plan or the task.",
    FaultKind.RUNAWAY_LOOP: "A failing or empty tool sent the agent round a loop: a token and cost spike.",
    FaultKind.FABRICATED_RESULT: "The executor invented data or an analysis where a tool failed.",
    FaultKind.PREMATURE_TERMINATION: "The run was declared finished before the task was done.",
    FaultKind.DROPPED_HANDOFF: "A handoff between agents lost the task, a constraint or the context it carried.",
    FaultKind.BYPASSED_APPROVAL: "An action that needed a person's approval went ahead without one.",
    FaultKind.TRUNCATED_TOOL_OUTPUT: "The harness cut a tool's output short; the model worked from the part shown.",
    FaultKind.INVENTED_CONSTRAINT: "A summary or compacted context invented a constraint the task never had.",
    FaultKind.WRONG_TOOL: "A plausible but wrong tool was chosen (a similar name, another environment's tool).",
    FaultKind.ENVIRONMENT_SETUP_FAILED: "The harness set-up failed (tool discovery, credentials, a missing server).",
    FaultKind.OTHER: "A fault outside this vocabulary; describe it in the fault summary.",
}


class Role(StrEnum):
    """Who made a model call: the planner (strong, expensive), the executor (cheap, fast) or, in format 2, a
    sub-agent the executor delegated to (priced at the executor's model unless its agent names another)."""

    PLANNER = "planner"
    EXECUTOR = "executor"
    SUB_AGENT = "sub-agent"


class ReportedStatus(StrEnum):
    """The status an executor *reports* for a plan step; on the silent step it says success while it failed."""

    SUCCESS = "success"
    PARTIAL = "partial"
    FAILED = "failed"
    IN_PROGRESS = "in_progress"
