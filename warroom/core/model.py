"""The drill format: pydantic v2 models for one scripted incident in a planner-executor agent.

A drill file (YAML) is validated into a :class:`Drill`. The shape follows DESIGN.md "The drill, conceptually":

- metadata (``id``, ``title``, ``version``, ``difficulty``, ``tags``, ``author``) and a :class:`Briefing`;
- :class:`Models`: which model plays planner and executor, priced in USD per million input/output tokens;
- ``plan``: ordered :class:`PlanStep` items, each with a checkable objective;
- ``trace``: timed :data:`TraceEvent` items on the drill clock (seconds of drill time, from 0), a discriminated
  union on ``kind``: planner calls, executor messages, tool calls, raw tool results, executor reports (with the
  *reported* status, which lies on the silent step) and environment logs;
- either an :class:`AnswerKey` (the hidden fault, its evidence, cascade, damage, deadline, debrief and optional
  re-plan events) or an :class:`AllClear` section for a control drill with no fault;
- ``distractors``: events that look odd but are harmless, each with the reason why.

Every model forbids unknown keys (``extra="forbid"``) so a typo in a drill is an error, not a silently ignored
key. Type rules live here; rules that relate fields to one another (unique ids, references, time order, the
deadline) live in :mod:`warroom.core.validation`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

#: The drill format version this code reads. Bump it when the format changes incompatibly.
SCHEMA_VERSION = 1

#: Required text (a title, an objective, a debrief...) must hold more than spaces and line breaks.
TEXT_PATTERN = r"\S"

#: An identifier for a drill, plan step or trace event: letters, digits, ``-``, ``_`` and ``.``.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"

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
    FaultKind.OTHER: "A fault outside this vocabulary; describe it in the fault summary.",
}


class Role(StrEnum):
    """Who made a model call: the planner (strong, expensive) or the executor (cheap, fast)."""

    PLANNER = "planner"
    EXECUTOR = "executor"


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

    def spec(self, role: Role) -> ModelSpec:
        """The :class:`ModelSpec` (name and USD-per-million-token prices) of the model playing ``role``."""
        return self.planner if role is Role.PLANNER else self.executor


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


# ---------------------------------------------------------------------------------------------------------------
# The trace
# ---------------------------------------------------------------------------------------------------------------


class _EventBase(_Strict):
    id: Identifier = Field(description="Unique id of the trace event, referenced by the answer key and distractors.")
    t: Seconds = Field(
        description=(
            f"When the event is released, in seconds of drill time (at most {MAX_DRILL_SECONDS:,}). "
            "Non-decreasing in a trace."
        )
    )
    step: Identifier | None = Field(
        default=None, description="The plan step this event belongs to (absent for events outside any step)."
    )


class PlannerCall(_EventBase):
    """A model call by the planner: the initial plan, a progress check or a re-plan."""

    kind: Literal["planner_call"] = Field(description="Event kind.")
    content: str = Field(description="What the planner wrote (the plan, its reasoning or instruction).")
    usage: Usage | None = Field(default=None, description="Token usage of this planner call.")


class ExecutorMessage(_EventBase):
    """The executor's reasoning or a message it wrote while carrying out a step."""

    kind: Literal["executor_message"] = Field(description="Event kind.")
    content: str = Field(description="What the executor wrote.")
    usage: Usage | None = Field(default=None, description="Token usage of the executor call that wrote it.")


class ToolCall(_EventBase):
    """The executor calls a tool with arguments."""

    kind: Literal["tool_call"] = Field(description="Event kind.")
    tool: str = Field(min_length=1, pattern=TEXT_PATTERN, description="The tool's name, e.g. 'crm.search_tickets'.")
    arguments: dict[str, Any] = Field(
        default_factory=dict, description="The call's arguments, as the executor sent them."
    )
    usage: Usage | None = Field(
        default=None, description="Token usage of the executor call that produced this tool call."
    )


class ToolResult(_EventBase):
    """The raw result a tool returned: shown to the trainee as is (JSON pretty-printed)."""

    kind: Literal["tool_result"] = Field(description="Event kind.")
    call: Identifier = Field(description="Id of the tool_call event this result answers.")
    output: Any = Field(description="The raw output: a string, or any JSON-like structure (mapping, list, number).")
    status: str | None = Field(
        default=None, description="Transport status as the tool saw it, e.g. 'ok', 'error', 'HTTP 200', 'exit 0'."
    )
    duration_ms: Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_DURATION_MS)] | None = Field(
        default=None, description=f"How long the call took, ms (at most {MAX_DURATION_MS:,})."
    )


class ExecutorReport(_EventBase):
    """The executor reports a plan step's outcome to the planner; the *reported* status may be a lie."""

    kind: Literal["executor_report"] = Field(description="Event kind.")
    step: Identifier = Field(description="The plan step being reported on.")
    status: ReportedStatus = Field(description="The status the executor claims for the step.")
    content: str = Field(description="The executor's report text.")
    usage: Usage | None = Field(default=None, description="Token usage of the executor call that wrote the report.")


class LogEvent(_EventBase):
    """A line or block of output from the environment: a monitor, a job log, a terminal, an alert."""

    kind: Literal["log"] = Field(description="Event kind.")
    source: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Where the log comes from, e.g. 'stderr', 'billing-monitor'.",
    )
    content: str = Field(description="The log text, verbatim.")
    level: Literal["debug", "info", "warning", "error"] = Field(default="info", description="Log level.")


TraceEvent = Annotated[
    PlannerCall | ExecutorMessage | ToolCall | ToolResult | ExecutorReport | LogEvent,
    Field(discriminator="kind"),
]
"""One timed event of the trace; ``kind`` says which."""

#: Event kinds whose ``usage`` is a model call, and the role that pays for it.
ROLE_OF_KIND: dict[str, Role] = {
    "planner_call": Role.PLANNER,
    "executor_message": Role.EXECUTOR,
    "tool_call": Role.EXECUTOR,
    "executor_report": Role.EXECUTOR,
}


# ---------------------------------------------------------------------------------------------------------------
# The answer key, all-clear controls and distractors
# ---------------------------------------------------------------------------------------------------------------


class Fault(_Strict):
    """The hidden silent failure."""

    origin_step: Identifier = Field(description="The plan step where the fault happened: the step to escalate.")
    kind: FaultKind = Field(description="What went wrong, from the fault-kind vocabulary (see docs/authoring.md).")
    summary: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="One sentence: what went wrong (shown in the debrief).",
    )


class DamageEntry(_Strict):
    """Damage one cascade event does when it is released before the incident is contained."""

    event: Identifier = Field(description="The trace event that does the damage.")
    amount: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_DAMAGE_AMOUNT)] = Field(
        description=f"How much damage, in the drill's damage unit (more than 0, at most {MAX_DAMAGE_AMOUNT:,})."
    )
    note: str | None = Field(default=None, description="What the damage is, e.g. '40 refund emails sent'.")


class Damage(_Strict):
    """The damage the cascade does, event by event, in a unit that matters in the drill's domain."""

    unit: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The damage unit, e.g. 'USD refunded in error', 'rows corrupted'.",
    )
    entries: list[DamageEntry] = Field(min_length=1, description="Damage per cascade event.")


class AnswerKey(_Strict):
    """Everything hidden from the trainee until the debrief."""

    fault: Fault = Field(description="The fault's origin step, kind and summary.")
    evidence: list[Identifier] = Field(
        min_length=1,
        description="Trace events that show the fault; the earliest sets when it became detectable.",
    )
    accepted_evidence: list[Identifier] = Field(
        default_factory=list,
        description=(
            "Further trace events the author accepts as showing the fault when an escalation cites them (e.g. a "
            "later symptom of the same fault). Unlike `evidence`, they never set when the fault became detectable."
        ),
    )
    cascade: list[Identifier] = Field(
        default_factory=list, description="Plan steps that build on the bad result, in order."
    )
    damage: Damage = Field(description="The damage the cascade does if nobody escalates.")
    deadline: Seconds = Field(
        description=f"Drill time after which the damage is done; escalate before it (at most {MAX_DRILL_SECONDS:,} s)."
    )
    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="What happened, where the evidence was, what the re-plan should be.",
    )
    replan: list[TraceEvent] = Field(
        default_factory=list,
        description=(
            "Events that play after a correct escalation (the planner's re-plan and what follows). Their `t` is "
            "seconds after the escalation, not absolute drill time."
        ),
    )


class AllClear(_Strict):
    """A control drill: odd-looking but healthy; the right move is not to escalate."""

    debrief: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Why the trace was healthy despite what looked odd.",
    )


class Distractor(_Strict):
    """An event that looks odd but is harmless."""

    event: Identifier = Field(description="The trace event that looks suspicious.")
    why_harmless: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Why it is harmless (shown in the debrief).",
    )


# ---------------------------------------------------------------------------------------------------------------
# The drill
# ---------------------------------------------------------------------------------------------------------------

#: Tag prefixes of the failure taxonomies (MAST, TRAIL, AgentRx; docs/authoring.md); such tags name the fault.
ANSWER_TAG_PREFIXES = ("mast:", "trail:", "agentrx:")
#: Tags that mark a control drill.
CONTROL_TAGS = frozenset({"all-clear", "all_clear", "allclear", "control"})
_FAULT_KIND_TAGS = frozenset(k.value for k in FaultKind) | frozenset(k.value.replace("_", "-") for k in FaultKind)


def _reveals_answer(tag: str) -> bool:
    t = tag.strip().lower()
    return t in _FAULT_KIND_TAGS or t in CONTROL_TAGS or t.startswith(ANSWER_TAG_PREFIXES)



class Drill(_Strict):
    """One incident drill: a scripted planner-executor trace with one hidden silent failure (or none)."""

    schema_version: Literal[1] = Field(description="Drill format version; this warroom reads version 1.")
    id: Identifier = Field(
        description=(
            "Unique id of the drill, e.g. 'refund-pagination'; the file name without .yaml must be the same "
            "(`warroom validate` checks it)."
        )
    )
    title: str = Field(min_length=1, pattern=TEXT_PATTERN, description="Title shown in the drill picker.")
    version: Annotated[int, Field(strict=True, ge=1, le=MAX_VERSION)] = Field(
        default=1, description="The drill's own revision, bumped on edits."
    )
    difficulty: Annotated[int, Field(strict=True, ge=1, le=5)] = Field(description="1 (easy) to 5 (hard).")
    tags: list[str] = Field(default_factory=list, description="Free tags: domain and fault kind in MAST/TRAIL terms.")
    author: str = Field(min_length=1, pattern=TEXT_PATTERN, description="Who wrote the drill.")
    source: str | None = Field(
        default=None,
        description=(
            "Where the trace comes from, when it is not invented: e.g. the corpus and record an imported drill was "
            "made from, and which of its numbers are estimates."
        ),
    )
    briefing: Briefing = Field(description="What the trainee reads before the start.")
    models: Models = Field(description="Planner and executor models with their prices.")
    plan: list[PlanStep] = Field(min_length=1, description="The planner's ordered plan.")
    trace: list[TraceEvent] = Field(min_length=1, description="The timed trace events, in drill-time order.")
    answer_key: AnswerKey | None = Field(
        default=None, description="The hidden fault and its consequences. Absent in an all-clear drill."
    )
    all_clear: AllClear | None = Field(
        default=None, description="Present only in an all-clear control drill (which then has no answer_key)."
    )
    distractors: list[Distractor] = Field(default_factory=list, description="Odd-looking but harmless events.")

    @field_validator("schema_version", mode="before")
    @classmethod
    def _schema_version_is_not_a_boolean(cls, value: Any) -> Any:
        # Literal[1] takes True (True == 1 in Python); the JSON Schema's const 1 does not.
        if isinstance(value, bool):
            raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": "1"})
        return value

    # -- conveniences (not part of the format) ------------------------------------------------------------------

    @property
    def is_all_clear(self) -> bool:
        """True for a control drill with no fault."""
        return self.all_clear is not None

    @property
    def public_tags(self) -> list[str]:
        """The tags a trainee may see before the debrief: ``tags`` without the ones that would give the answer away.

        Hidden: a tag that names a fault kind of the vocabulary (``stale_data``, ``stale-data``), a tag in MAST,
        TRAIL or AgentRx terms (``"TRAIL: timeout"``), and ``all-clear`` / ``control`` (which mark a control drill).
        The full ``tags`` are shown in the debrief and to facilitators.
        """
        return [t for t in self.tags if not _reveals_answer(t)]

    @property
    def duration(self) -> float:
        """Seconds of drill time until the last trace event."""
        return self.trace[-1].t if self.trace else 0.0

    def step(self, step_id: str) -> PlanStep:
        """The plan step with this id; raises KeyError if there is none."""
        for s in self.plan:
            if s.id == step_id:
                return s
        raise KeyError(step_id)

    def event(self, event_id: str) -> TraceEvent:
        """The trace (or re-plan) event with this id; raises KeyError if there is none."""
        for e in self.trace:
            if e.id == event_id:
                return e
        if self.answer_key:
            for e in self.answer_key.replan:
                if e.id == event_id:
                    return e
        raise KeyError(event_id)
