"""The trace of a drill: one pydantic class per kind of trace event, and :data:`TraceEvent`, their union
discriminated by ``kind``. Code dispatches on the class (``match event: case ToolCall(): ...``), not on ``kind``.

Part of the drill model; :mod:`warroom.core.model` re-exports every name (see its docstring).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from warroom.core.modelbase import (
    MAX_DRILL_SECONDS,
    MAX_DURATION_MS,
    TEXT_PATTERN,
    Identifier,
    ReportedStatus,
    Role,
    Seconds,
    Usage,
    _Strict,
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

#: Event kinds whose ``usage`` is a model call, and the role that pays for it: for plain data (a ``kind`` read from
#: YAML or JSON). Code holding trace events dispatches on their class instead (:func:`role_of`,
#: :func:`warroom.core.cost.model_call`).
ROLE_OF_KIND: dict[str, Role] = {
    "planner_call": Role.PLANNER,
    "executor_message": Role.EXECUTOR,
    "tool_call": Role.EXECUTOR,
    "executor_report": Role.EXECUTOR,
}


def role_of(event: TraceEvent) -> Role | None:
    """The role whose model made the trace ``event`` when it is a model call (a planner call: the planner; an
    executor message, tool call or executor report: the executor); None for a tool result or a log line."""
    match event:
        case PlannerCall():
            return Role.PLANNER
        case ExecutorMessage() | ToolCall() | ExecutorReport():
            return Role.EXECUTOR
        case _:
            return None
