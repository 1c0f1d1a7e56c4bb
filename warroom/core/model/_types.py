"""The drill format's building blocks: its version, the bounds of its numbers, the annotated types every model
shares (ids, drill seconds, token counts, prices), the strict base model, the vocabularies (fault kinds, roles,
reported statuses), and the parts of a drill around the trace: briefing, models and their prices, plan steps.

Part of the drill model (:mod:`warroom.core.model`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from warroom.core.text import ID_PATTERN

#: The newest drill format version this code reads (it reads every version from 1 up; see docs/authoring.md,
#: "Format version 2"). Bump it when the format changes.
SCHEMA_VERSION = 2

#: Required text (a title, an objective, a debrief...) must hold more than spaces and line breaks.
TEXT_PATTERN = r"\S"


#: Upper bounds of the format's numbers: far above any real drill, low enough that a typo (an extra run of digits)
#: is an error instead of a drill that costs $300,000,000,000,000,000,000.
#: Most tokens in one model call (input or output).
MAX_TOKENS_PER_CALL = 10_000_000
#: Highest price, USD per million tokens.
MAX_USD_PER_MTOK = 10_000
#: Latest drill time (trace and re-plan ``t``, the deadline), in seconds: about 11.6 days.
MAX_DRILL_SECONDS = 1_000_000
#: Longest tool call (``duration_ms``), in milliseconds: the same 1,000,000 s.
MAX_DURATION_MS = 1_000_000_000
#: Largest damage amount of one damage entry, in the drill's damage unit.
MAX_DAMAGE_AMOUNT = 1_000_000_000_000
#: Highest drill revision (``version``).
MAX_VERSION = 1_000_000_000

# Every number of the format is strict: a boolean (an unquoted YAML ``yes``/``no``/``on``/``off`` reads as
# true/false) or a quoted text is never taken as a number, as the JSON Schema says. Strict floats still take ints.
# Infinite and NaN numbers (``.inf``, ``.nan``) are rejected too.
Identifier = Annotated[str, Field(pattern=ID_PATTERN, min_length=1, max_length=80)]
Seconds = Annotated[
    float,
    Field(
        strict=True,
        allow_inf_nan=False,
        ge=0,
        le=MAX_DRILL_SECONDS,
        description=f"Seconds of drill time, counted from the start of the drill (0 to {MAX_DRILL_SECONDS:,}).",
    ),
]
Tokens = Annotated[
    int,
    Field(
        strict=True,
        ge=0,
        le=MAX_TOKENS_PER_CALL,
        description=f"A token count of one model call (a whole number, 0 to {MAX_TOKENS_PER_CALL:,}).",
    ),
]
UsdPerMillion = Annotated[
    float,
    Field(
        strict=True,
        allow_inf_nan=False,
        ge=0,
        le=MAX_USD_PER_MTOK,
        description=f"USD per million tokens (0 to {MAX_USD_PER_MTOK:,}).",
    ),
]


class MappingForm:
    """``Annotated`` metadata of a field whose value may also be written as a mapping that a wrap validator reads
    as ``model`` (the deadline's ``{event: ID, after: S}``): the error walk of the loader then finds that model's
    keys."""

    def __init__(self, model: Any) -> None:
        self.model = model


class _Strict(BaseModel):
    """Base for every drill model: unknown keys are errors and models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------------------------------------------------
# Vocabularies
# ---------------------------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------------------------
# Metadata, models and the plan
# ---------------------------------------------------------------------------------------------------------------


class Briefing(_Strict):
    """What the trainee reads before the drill starts. Never contains the answer."""

    goal: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The agent's goal, as the user gave it to the planner.",
    )
    watching: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What the trainee is watching and what to look out for (the system, its tools, the stakes).",
    )
    context: str | None = Field(
        default=None, description="Optional background: the organisation, the data, anything a new on-call would know."
    )


class ModelSpec(_Strict):
    """One language model and its prices."""

    name: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The model's name as shown to the trainee, e.g. 'frontier-large'.",
    )
    input_usd_per_mtok: UsdPerMillion = Field(
        description=f"Price of input tokens, USD per million tokens (0 to {MAX_USD_PER_MTOK:,})."
    )
    output_usd_per_mtok: UsdPerMillion = Field(
        description=f"Price of output tokens, USD per million tokens (0 to {MAX_USD_PER_MTOK:,})."
    )


class Usage(_Strict):
    """Token usage of one model call."""

    input_tokens: Tokens = Field(
        description=f"Input (prompt) tokens of this model call (at most {MAX_TOKENS_PER_CALL:,})."
    )
    output_tokens: Tokens = Field(
        description=f"Output (completion) tokens of this model call (at most {MAX_TOKENS_PER_CALL:,})."
    )
    estimated: bool = Field(
        strict=True,
        default=False, description="True when the counts are estimates (e.g. from text length in an imported trace)."
    )


class Models(_Strict):
    """The two roles of the planner-executor loop and what their model calls cost."""

    planner: ModelSpec = Field(description="The strong model that writes the plan and re-plans on escalation.")
    executor: ModelSpec = Field(description="The cheap, fast model that carries out plan steps and calls tools.")
    replan_usage: Usage | None = Field(
        default=None,
        description=(
            "Tokens of one planner re-plan call, charged at the planner's prices for each false escalation. "
            "Default: the usage of the first planner_call in the trace."
        ),
    )
    flat_loop_step_usage: Usage | None = Field(
        default=None,
        description=(
            "For `warroom cost`: tokens of one step of the counterfactual flat loop (every executor step run on "
            "the planner's model, re-reasoning each time). Default: each executor call's own usage."
        ),
    )
    others: list[ModelSpec] = Field(
        default_factory=list,
        description=(
            "Format 2: further models with their prices, named by an agent's or a model call's `model`. Every "
            "model name (planner, executor and these) is unique."
        ),
    )

    def spec(self, role: Role) -> ModelSpec:
        """The :class:`ModelSpec` (name and USD-per-million-token prices) of the model playing ``role`` by default
        (a sub-agent: the executor's model)."""
        return self.planner if role is Role.PLANNER else self.executor

    def named(self, name: str) -> ModelSpec | None:
        """The model called ``name`` (the planner's, the executor's or one of ``others``), or None."""
        for spec in (self.planner, self.executor, *self.others):
            if spec.name == name:
                return spec
        return None


class PlanStep(_Strict):
    """One ordered step of the planner's plan, with an objective the executor's work can be checked against."""

    id: Identifier = Field(description="Unique id of the plan step, referenced by trace events and the answer key.")
    title: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Short name of the step, shown in the plan panel.",
    )
    objective: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The checkable objective: what must be true when it is done.",
    )
    requires_approval: bool = Field(
        strict=True, default=False,
        description=(
            "Format 2: the step needs a person's approval (an `approval` event with `decision: granted` and this "
            "`step`) before its first tool call; the war room shows a step that went ahead without one."
        ),
    )
