"""Each kind of trace event as the terminal UI shows it: its label and style (:data:`KINDS`), its one-line summary
(:func:`summarize`), the marks before it in the trace table (:func:`row_mark`), the size of its free-form payload
(:func:`payload_chars`) and its body in the inspector (:func:`event_body`).

Code here dispatches on the event's class (``match event: case ToolCall(): ...``), never on its ``kind`` string,
and every ``match`` ends in :func:`typing.assert_never`: a trace event kind added to
:data:`warroom.core.model.TraceEvent` fails mypy here until it is shown, and tests/tui/test_event_kinds.py checks
that :data:`KINDS` names every kind. Adding an event kind touches this module only, in the terminal UI.

Drill text goes through :mod:`warroom.tui.render._text` (literal, control characters escaped), never as markup.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple, assert_never

from rich.text import Text

from warroom.core.model import (
    Approval,
    CommandResult,
    ExecutorMessage,
    ExecutorReport,
    Handoff,
    HumanMessage,
    LogEvent,
    PlannerCall,
    ToolCall,
    ToolResult,
    TraceEvent,
)
from warroom.core.play import StepState
from warroom.core.text import clean, clean_line, seconds
from warroom.tui.logic import TraceIndex
from warroom.tui.render._structured import language_hint, structured
from warroom.tui.render._text import compact_json


class Kind(NamedTuple):
    """How the trace table, the inspector and the review name an event kind: a short label and its style."""

    label: str
    style: str


#: Each event class's label and style (tests/tui/test_event_kinds.py checks that every kind of
#: :data:`~warroom.core.model.TraceEvent` is here).
KINDS: Mapping[type, Kind] = {
    PlannerCall: Kind("planner", "bold magenta"),
    ExecutorMessage: Kind("executor", "cyan"),
    ToolCall: Kind("tool call", "blue"),
    ToolResult: Kind("result", "green"),
    ExecutorReport: Kind("report", "bold cyan"),
    LogEvent: Kind("log", "yellow"),
    CommandResult: Kind("command", "green"),
    Handoff: Kind("handoff", "bold blue"),
    Approval: Kind("approval", "bold yellow"),
    HumanMessage: Kind("human", "bold"),
}

#: Icon and style of each plan step state (the executor's *reported* status): the plan panel's, and a report's.
STEP_ICONS: dict[StepState, tuple[str, str]] = {
    StepState.PENDING: ("·", "dim"),
    StepState.IN_PROGRESS: ("▸", "yellow"),
    StepState.NO_REPORT: ("?", "dim"),
    StepState.SUCCESS: ("✓", "green"),
    StepState.PARTIAL: ("◐", "yellow"),
    StepState.FAILED: ("✗", "red"),
}

#: Most other calls of a batch the inspector names (then how many more).
SHOWN_BATCH_CALLS = 12


# ---------------------------------------------------------------------------------------------------------------
# One line: the trace table
# ---------------------------------------------------------------------------------------------------------------


def summarize(event: TraceEvent, limit: int | None = None) -> str:
    """A one-line summary of a trace event (plain text, not yet cleaned): what the trace table shows.

    With ``limit`` (characters), free text is cut before it is formatted, so a 200 KB result costs no more than a
    short one; the summary is then at least ``limit`` characters long when the full one would be (callers cut it
    to ``limit`` with their ellipsis)."""

    def cut(value: Any) -> Any:
        return value[: limit + 1] if limit is not None and isinstance(value, str) else value

    match event:
        case ToolCall():
            return f"{event.tool}({compact_json(event.arguments)[1:-1] if event.arguments else ''})"
        case ToolResult():
            status = f"{event.status} · " if event.status else ""
            return status + compact_json(cut(event.output))
        case ExecutorReport():
            return f"{event.status.value.upper()}: {cut(event.content)}"
        case LogEvent():
            return f"{event.source} {event.level}: {cut(event.content)}"
        case CommandResult():
            out = f"exit {event.exit_code}"
            if event.stderr:
                out += f" · stderr: {cut(event.stderr)}"
            if event.stdout:
                out += f" · stdout: {cut(event.stdout)}"
            return out
        case Handoff():
            return f"{event.from_agent} → {event.to_agent}: {cut(event.content)}"
        case Approval():
            answers = f" ({event.request})" if event.request else ""
            return f"{event.decision.upper().replace('_', ' ')}{answers}: {cut(event.content)}"
        case PlannerCall() | ExecutorMessage() | HumanMessage():
            return str(cut(event.content))
        case _:
            assert_never(event)


#: Ids longer than this are shown short in the trace table's marks (a real call id is 24 to 40 characters).
SHORT_ID_CHARS = 12


def short_id(event_id: str) -> str:
    """An event id short enough for a trace-table row: as it is up to :data:`SHORT_ID_CHARS` characters, else its
    prefix up to the first ``_`` or ``-`` (``call_``, ``toolu_``; at most 6 characters) and its last 4, joined by
    ``…``: ``call_afb893b14180880c7368ba40`` is ``call_…ba40`` (the inspector shows the whole id)."""
    if len(event_id) <= SHORT_ID_CHARS:
        return event_id
    cut = min((i for i in (event_id.find("_"), event_id.find("-")) if i >= 0), default=-1)
    head = event_id[:cut + 1] if 0 <= cut < 6 else event_id[:6]
    return f"{head}…{event_id[-4:]}"


def row_mark(event: TraceEvent, repetitions: Mapping[str, int] | None) -> str:
    """What the trace table puts before an event's summary, kept short for 80 columns: ``×N`` (repetitions so far,
    or in all without a replay) for a repeated event, ``⇉B`` for a call of the parallel batch B (one model turn),
    ``↻ID`` for a call retrying the call ID, ``↳ID`` for a result (the call it answers), ``✂`` for a model call cut
    short; empty for a plain event. A long id is shown short (:func:`short_id`). The marks come first in the summary so
    that they stay in sight when the trace
    table is narrow (80 columns) and the rest of the summary is cut."""
    marks = []
    if event.repeat is not None:
        n = repetitions.get(event.id, 1) if repetitions is not None else event.repeat.count
        marks.append(f"×{n}")
    if isinstance(event, ToolCall) and event.batch is not None:
        marks.append(f"⇉{short_id(event.batch)}")
    if isinstance(event, ToolCall) and event.retry_of is not None:
        marks.append(f"↻{short_id(event.retry_of)}")
    if isinstance(event, ToolResult | CommandResult):
        marks.append(f"↳{short_id(event.call)}")
    if isinstance(event, PlannerCall | ExecutorMessage | ToolCall | ExecutorReport) and event.truncated:
        marks.append("✂")
    return " ".join(marks) + " " if marks else ""


def payload_chars(event: TraceEvent) -> int:
    """The size of an event's free-form payload in characters: the JSON of a tool call's arguments or a tool
    result's output (a string counts as its length), a command's stdout and stderr, a text event's content."""
    match event:
        case ToolCall():
            return _json_chars(event.arguments)
        case ToolResult():
            return _json_chars(event.output)
        case CommandResult():
            return len(event.stdout) + len(event.stderr)
        case (PlannerCall() | ExecutorMessage() | ExecutorReport() | LogEvent() | Handoff() | Approval()
              | HumanMessage()):
            return len(event.content)
        case _:
            assert_never(event)


def _json_chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    return len(json.dumps(value, ensure_ascii=False, default=str))


# ---------------------------------------------------------------------------------------------------------------
# The body: the inspector
# ---------------------------------------------------------------------------------------------------------------


def field_label(name: str) -> str:
    """A label of the inspector's field column (step, objective, tool, ...), padded so the values line up."""
    return f"{name:<10}"


def field_line(label: str, value: str, style: str = "") -> Text:
    """One line of the inspector's field column: ``label`` (bold, padded) and ``value`` (literal, in ``style``)."""
    out = Text()
    out.append(field_label(label), style="bold")
    out.append(clean_line(value), style=style)
    out.append("\n")
    return out


def event_body(event: TraceEvent, index: TraceIndex, events: Mapping[str, TraceEvent] | None,
               repeated: int | None = None) -> Text:
    """The inspector's body of an event, by kind: a tool call's tool, results and arguments
    (:func:`_call_results`); a tool result's status, the call it answers and its output (:func:`_result_body`); a
    command's exit code, stdout and stderr; a report's status and text; a log line; a handoff's agents, an
    approval's decision; a message's text. ``events``: the released events (None: the whole trace); ``repeated``:
    the repetitions of a repeated event so far (None: not playing)."""
    out = Text()
    match event:
        case ToolCall():
            out.append(field_label("tool"), style="bold")
            out.append(clean_line(event.tool))
            out.append("\n")
            out.append_text(_call_results(event, index, events, repeated))
            out.append("arguments\n", style="bold")
            out.append_text(structured(event.arguments))
        case ToolResult():
            out.append_text(_result_body(event, index, events))
        case CommandResult():
            out.append(field_label("answers"), style="bold")
            out.append(clean_line(event.call) + "\n")
            out.append_text(_command_output(event))
        case ExecutorReport():
            icon, style = STEP_ICONS[StepState(event.status.value)]
            out.append(field_label("reports"), style="bold")
            out.append(f"{icon} {event.status.value}", style=style)
            out.append("\n")
            out.append(clean(event.content))
        case LogEvent():
            out.append(field_label("source"), style="bold")
            out.append(clean_line(event.source))
            out.append(f" · {event.level}\n", style="red" if event.level == "error" else "")
            out.append(clean(event.content))
        case Handoff() | Approval():
            out.append(clean(summarize(event)))
        case PlannerCall() | ExecutorMessage() | HumanMessage():
            out.append(clean(event.content))
        case _:
            assert_never(event)
    step = index.unapproved.get(event.id) if not isinstance(event, ToolCall) else None
    if step is not None:  # format 2: an event the step's approval gates (approval_for) went ahead without it
        out.append("\n")
        out.append_text(field_line("approval", f"none granted in {step} before this event ({step} requires one)",
                                   "bold red"))
    return out


def _result_body(event: ToolResult, index: TraceIndex, events: Mapping[str, TraceEvent] | None) -> Text:
    """A tool result's status, duration, the call it answers, and its raw output (pretty-printed in the language
    the call's arguments hint at, e.g. the file a read_file call named)."""
    out = Text()
    meta = []
    if event.status:
        meta.append(f"status {clean_line(event.status)}")
    if event.duration_ms is not None:
        meta.append(f"{event.duration_ms:,.0f} ms")
    language = None
    call: TraceEvent | None
    if events is not None and event.call in events:
        call = events[event.call]
    else:
        call = index.events.get(event.call)  # None: a call the trace does not have
    if isinstance(call, ToolCall):
        meta.append(f"answers {clean_line(event.call)} ({clean_line(call.tool)})")
        language = language_hint(call.arguments)
    else:
        meta.append(f"answers {clean_line(event.call)}")
    out.append(" · ".join(meta) + "\n")
    if event.size_bytes is not None:
        out.append_text(field_line("size", f"{event.size_bytes:,} bytes"))
    if event.shown is not None:  # format 2: what the model was shown, beside the full output
        out.append("shown to the model (cut short)\n", style="bold")
        out.append_text(structured(event.shown))
        out.append("\n")
    out.append("output (raw, in full)\n" if event.shown is not None else "output (raw)\n", style="bold")
    out.append_text(structured(event.output, language))
    return out


def _command_output(event: CommandResult) -> Text:
    """A command's exit code, stdout and stderr, each apart (format 2)."""
    out = field_line("exit code", str(event.exit_code), "bold red" if event.exit_code else "green")
    for name, text in (("stdout", event.stdout), ("stderr", event.stderr)):
        out.append(f"{name}\n", style="bold")
        out.append(clean(text) if text else Text("(empty)", style="dim"))
        out.append("\n")
    return out


def _attempts(first: int, call: ToolCall, repeated: int | None) -> str:
    """The attempt numbers of a retried call: ``attempt 2``; a repeated one is one more attempt per repetition:
    ``attempts 2 to 59`` (the repetitions so far while playing: ``repeated``; all of them in the debrief)."""
    if call.repeat is None:
        return f"attempt {first}"
    n = call.repeat.count if repeated is None else max(1, repeated)
    return f"attempt {first}" if n == 1 else f"attempts {first} to {first + n - 1}"


def _call_results(call: ToolCall, index: TraceIndex, events: Mapping[str, TraceEvent] | None,
                  repeated: int | None = None) -> Text:
    """The inspector's ``result`` lines of a tool call: each result answering it that has been released (id and
    time), or that none has returned yet, or that the trace has none; then its batch and retry, and (format 2) that
    it went ahead without the approval its step requires (:attr:`TraceIndex.unapproved`).

    ``events`` are the released events (None: the whole trace, as in the debrief). A call without a result says
    "not returned yet" until the trace's last event is out, as a call whose result is still to come does: saying
    "no result in the trace" earlier would tell the trainee what the rest of the trace holds."""
    out = Text()
    calls = index.calls
    trace = index.drill.trace
    results = calls.results_of(call.id)
    shown = [r for r in results if events is None or r.id in events]
    ended = events is None or not trace or trace[-1].id in events  # times never go back in a trace
    if not results:
        out.append_text(field_line("result", "no result in the trace", "bold yellow") if ended else
                        field_line("result", "not returned yet", "dim"))
    for r in shown:
        out.append_text(field_line("result", f"{r.id} (t={seconds(r.t)})"))
    if results and not shown:  # (never "more to come" once one is out: that too would tell the rest of the trace)
        out.append_text(field_line("result", "not returned yet", "dim"))
    if call.batch is not None:  # the released calls of the batch only (the rest would tell the trace), at most 12
        others = [c for c in calls.batches.get(call.batch, []) if c != call.id and (events is None or c in events)]
        none = "no other call" if events is None else "no other call yet"
        shown_calls = ", ".join(others[:SHOWN_BATCH_CALLS]) or none
        more = f" and {len(others) - SHOWN_BATCH_CALLS:,} more" if len(others) > SHOWN_BATCH_CALLS else ""
        out.append_text(field_line("batch", f"{call.batch} with {shown_calls}{more}"))
    if call.retry_of is not None:
        out.append_text(field_line("retry", f"{_attempts(calls.attempt(call.id), call, repeated)}, retries "
                                   f"{call.retry_of}"))
    step = index.unapproved.get(call.id)
    if step is not None:
        out.append_text(field_line("approval", f"none granted in {step} before this call ({step} requires one)",
                                   "bold red"))
    return out
