"""The trace of a drill: one pydantic class per kind of trace event, and :data:`TraceEvent`, their union
discriminated by ``kind``. Code dispatches on the class (``match event: case ToolCall(): ...``), not on ``kind``.
Also what every event may carry in format 2: its repetition (:class:`Repeat`), and the attempt number of a retried
tool call (:func:`attempt_of`).

Part of the drill model (:mod:`warroom.core.model`).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from warroom.core.model._agents import Usage
from warroom.core.model._fields import (
    MAX_DRILL_SECONDS,
    MAX_DURATION_MS,
    TEXT_PATTERN,
    Identifier,
    Seconds,
    Tokens,
    _Strict,
)
from warroom.core.model._vocab import ReportedStatus, Role

#: Most repetitions of one event (``repeat.count``): far above a real runaway loop (the bundled drills repeat an
#: event at most 300 times), low enough that a file of a few lines cannot cost what the largest drill file costs.
MAX_REPEAT = 10_000


#: Most repetitions of all the repeated events of a drill together (those after each one's first; the events written
#: are bounded by the file's size). Each replay holds and releases one entry per repetition,
#: and `warroom check` plays a drill about 130 times: 100,000 repetitions of one event in a 12 KB drill kept `check`
#: busy for 92 s (measured; 1,000,000 by extrapolation half an hour or more); 20,000 take about 8 s.
MAX_TOTAL_REPETITIONS = 20_000
#: Fields of a trace event that name, place or time it, not what it says (the one list of them: the run
#: fingerprint, :mod:`warroom.core.library`, and the rule that a distractor must not say what evidence says,
#: :mod:`warroom.core.rules`, read an event without them; both read the event a ``call`` or ``request`` names
#: by what it says, not by its id).
PLACING_FIELDS = frozenset({"id", "t", "step", "call", "request", "batch", "retry_of", "attempt", "duration_ms"})

#: Largest ``size_bytes`` of a tool result: 1 TiB.
MAX_SIZE_BYTES = 1 << 40
DurationMs = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_DURATION_MS)]

class Repeat(_Strict):
    """The event happens ``count`` times, ``interval`` seconds apart, from its ``t`` (format 2)."""

    count: Annotated[int, Field(strict=True, ge=2, le=MAX_REPEAT)] = Field(
        description=f"How many times in all (2 to {MAX_REPEAT:,}); every repetition costs and does damage."
    )
    interval: Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_DRILL_SECONDS)] = Field(
        default=0, description="Seconds of drill time between two repetitions (0: all at `t`)."
    )


# ---------------------------------------------------------------------------------------------------------------
# The trace
# ---------------------------------------------------------------------------------------------------------------


class _EventBase(_Strict):
    #: The drill format version that introduced this event kind (a version-1 drill may use only kinds of 1).
    FORMAT: ClassVar[int] = 1
    #: The fields a seeded variant's phrasing may replace in an event of this kind (``variants.phrasings``).
    PHRASED: ClassVar[frozenset[str]] = frozenset()

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
    agent: Identifier | None = Field(
        default=None,
        description="Format 2: the agent (a name in `agents`) that produced the event. Default: by its kind.",
    )
    repeat: Repeat | None = Field(
        default=None,
        description=(
            "Format 2: the event happens `count` times, `interval` s apart from `t`; replay, cost, meters and "
            "damage count every repetition."
        ),
    )


class _ModelCall(_EventBase):
    """What a model call says about itself (format 2): its model, why it stopped, its token cap."""

    model: str | None = Field(
        default=None, min_length=1, pattern=TEXT_PATTERN,
        description="Format 2: the model (a name in `models`) of this call. Default: its agent's, else its role's.",
    )
    finish_reason: str | None = Field(
        default=None, min_length=1, pattern=TEXT_PATTERN,
        description="Format 2: why the model stopped, as the API said: 'stop', 'length', 'tool_calls'...",
    )
    max_tokens: Tokens | None = Field(default=None, description="Format 2: the call's output-token cap.")
    truncated: bool = Field(
        strict=True, default=False, description="Format 2: the output was cut short (e.g. at `max_tokens`)."
    )


class PlannerCall(_ModelCall):
    """A model call by the planner: the initial plan, a progress check or a re-plan."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"content"})

    kind: Literal["planner_call"] = Field(description="Event kind.")
    content: str = Field(description="What the planner wrote (the plan, its reasoning or instruction).")
    usage: Usage | None = Field(default=None, description="Token usage of this planner call.")


class ExecutorMessage(_ModelCall):
    """The executor's reasoning or a message it wrote while carrying out a step."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"content"})

    kind: Literal["executor_message"] = Field(description="Event kind.")
    content: str = Field(description="What the executor wrote.")
    usage: Usage | None = Field(default=None, description="Token usage of the executor call that wrote it.")


class ToolCall(_ModelCall):
    """The executor calls a tool with arguments."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"arguments"})

    kind: Literal["tool_call"] = Field(description="Event kind.")
    tool: str = Field(min_length=1, pattern=TEXT_PATTERN, description="The tool's name, e.g. 'crm.search_tickets'.")
    arguments: dict[str, Any] = Field(
        default_factory=dict, description="The call's arguments, as the executor sent them."
    )
    usage: Usage | None = Field(
        default=None, description="Token usage of the executor call that produced this tool call."
    )
    batch: Identifier | None = Field(
        default=None,
        description=(
            "Format 2: tool calls of one model turn share a batch id; the turn's `usage` is given on one of them "
            "and counted once."
        ),
    )
    retry_of: Identifier | None = Field(
        default=None, description="Format 2: the earlier tool_call this call retries."
    )
    attempt: Annotated[int, Field(strict=True, ge=1, le=1_000_000)] | None = Field(
        default=None,
        description="Format 2: which attempt this is (1 = first); default 1, or one more than the call it retries.",
    )


class ToolResult(_EventBase):
    """The raw result a tool returned: shown to the trainee as is (JSON pretty-printed)."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"output", "status"})

    kind: Literal["tool_result"] = Field(description="Event kind.")
    call: Identifier = Field(description="Id of the tool_call event this result answers.")
    output: Any = Field(description="The raw output: a string, or any JSON-like structure (mapping, list, number).")
    status: str | None = Field(
        default=None, description="Transport status as the tool saw it, e.g. 'ok', 'error', 'HTTP 200', 'exit 0'."
    )
    duration_ms: DurationMs | None = Field(
        default=None, description=f"How long the call took, ms (at most {MAX_DURATION_MS:,})."
    )
    size_bytes: Annotated[int, Field(strict=True, ge=0, le=MAX_SIZE_BYTES)] | None = Field(
        default=None, description="Format 2: size of the full output, bytes."
    )
    shown: Any = Field(
        default=None,
        description=(
            "Format 2: what the model was shown when that differs from `output` (cut short by the harness); "
            "`output` is then the full output. Both are viewable in the inspector."
        ),
    )


class ExecutorReport(_ModelCall):
    """The executor reports a plan step's outcome to the planner; the *reported* status may be a lie."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"content"})

    kind: Literal["executor_report"] = Field(description="Event kind.")
    step: Identifier = Field(description="The plan step being reported on.")
    status: ReportedStatus = Field(description="The status the executor claims for the step.")
    content: str = Field(description="The executor's report text.")
    usage: Usage | None = Field(default=None, description="Token usage of the executor call that wrote the report.")


class LogEvent(_EventBase):
    """A line or block of output from the environment: a monitor, a job log, a terminal, an alert."""

    PHRASED: ClassVar[frozenset[str]] = frozenset({"content"})

    kind: Literal["log"] = Field(description="Event kind.")
    source: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="Where the log comes from, e.g. 'stderr', 'billing-monitor'.",
    )
    content: str = Field(description="The log text, verbatim.")
    level: Literal["debug", "info", "warning", "error"] = Field(default="info", description="Log level.")


class CommandResult(_EventBase):
    """Format 2: a command's result (a shell, a CLI tool) answering a tool_call: exit code, stdout, stderr."""

    FORMAT: ClassVar[int] = 2

    kind: Literal["command_result"] = Field(description="Event kind.")
    call: Identifier = Field(description="Id of the tool_call event this result answers.")
    exit_code: Annotated[int, Field(strict=True, ge=-1_000_000, le=1_000_000)] = Field(
        description="The command's exit status (0: success)."
    )
    stdout: str = Field(default="", description="Standard output, verbatim.")
    stderr: str = Field(default="", description="Standard error, verbatim.")
    duration_ms: DurationMs | None = Field(default=None, description="How long the command took, ms.")


class Handoff(_EventBase):
    """Format 2: one agent hands the work (or a part of it) to another."""

    FORMAT: ClassVar[int] = 2

    kind: Literal["handoff"] = Field(description="Event kind.")
    from_agent: Identifier = Field(description="The agent handing over (a name in `agents`).")
    to_agent: Identifier = Field(description="The agent taking over (a name in `agents`).")
    content: str = Field(default="", description="What was handed over: the instruction, the context passed on.")


class Approval(_EventBase):
    """Format 2: a person's approval requested, granted, denied or timed out."""

    FORMAT: ClassVar[int] = 2

    kind: Literal["approval"] = Field(description="Event kind.")
    decision: Literal["requested", "granted", "denied", "timed_out"] = Field(
        description="requested, granted, denied or timed_out."
    )
    request: Identifier | None = Field(
        default=None, description="For an answer: the approval event (decision: requested) it answers."
    )
    content: str = Field(default="", description="What was asked, or the answer's words.")


class HumanMessage(_EventBase):
    """Format 2: a message a person wrote into the run (an instruction, a correction, a reply)."""

    FORMAT: ClassVar[int] = 2

    kind: Literal["human_message"] = Field(description="Event kind.")
    content: str = Field(description="What the person wrote.")


TraceEvent = Annotated[
    PlannerCall | ExecutorMessage | ToolCall | ToolResult | ExecutorReport | LogEvent | CommandResult | Handoff
    | Approval | HumanMessage,
    Field(discriminator="kind"),
]
"""One timed event of the trace; ``kind`` says which."""

#: Every trace event class, in the order of :data:`TraceEvent` (the format's event kinds).
EVENT_CLASSES: tuple[type[_EventBase], ...] = typing.get_args(typing.get_args(TraceEvent)[0])
#: The ``kind`` each trace event class is written with (``ToolResult``: ``tool_result``), in the same order.
EVENT_KINDS: dict[type[_EventBase], str] = {c: str(typing.get_args(c.model_fields["kind"].annotation)[0])
                                            for c in EVENT_CLASSES}

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


def last_repetition_at(event: Any) -> float:
    """When the last repetition of ``event`` happens (its ``t`` when it does not repeat): a repeated event is judged
    as a whole, by every repetition, not by its first."""
    repeat = getattr(event, "repeat", None)
    return float(event.t) if repeat is None else float(event.t + (repeat.count - 1) * repeat.interval)


def repetitions_until(event: Any, t: float) -> int:
    """How many repetitions of ``event`` (1 when it does not repeat) happen at or before drill time ``t``."""
    if event.t > t:
        return 0
    repeat = getattr(event, "repeat", None)
    if repeat is None:
        return 1
    if repeat.interval == 0:
        return int(repeat.count)
    return min(int(repeat.count), int((t - event.t) // repeat.interval) + 1)


def attempt_of(call: Any, calls: dict[str, Any]) -> int:
    """The attempt number of a tool ``call`` (of its first repetition, when it repeats): its ``attempt``, else one
    more than the last attempt of the call it retries (in ``calls``, by id: a call repeated ``count`` times made
    ``count`` attempts), else 1. Follows at most 10,000 retries back."""
    n, seen = 0, 0
    while call is not None and seen < 10_000:
        if call.attempt is not None:
            return int(call.attempt) + n
        prev = calls.get(call.retry_of) if call.retry_of is not None else None
        n += 1 if prev is None or prev.repeat is None else prev.repeat.count
        seen += 1
        call = prev
    return n
