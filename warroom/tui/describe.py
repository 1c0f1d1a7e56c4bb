"""How a trace event is described: its kind's label and style, its one-line summary (the trace table), and its full
inspector view (:func:`describe_event`). Drill text is rendered through :mod:`warroom.tui.text`, never as markup.

Lookups over the whole trace (the tool result answering a call, an event by id) go through :func:`trace_index`, built
once per drill, so that describing an event costs the same on a 100-event and a 100,000-event trace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from rich.text import Text

from warroom.core.model import Cast, Drill, ToolCall, ToolResult
from warroom.core.play import StepState, call_cost
from warroom.tui import format2view as f2
from warroom.tui import text as fmt
from warroom.tui.structured import language_hint, structured

__all__ = [
    "KIND_LABELS", "KIND_STYLES", "STEP_ICONS", "TraceIndex", "describe_event", "summarize", "trace_index",
    "usage_line",
]


#: Short labels for trace event kinds, as the trace table shows them.
KIND_LABELS: dict[str, str] = {
    "planner_call": "planner",
    "executor_message": "executor",
    "tool_call": "tool call",
    "tool_result": "result",
    "executor_report": "report",
    "log": "log",
    **f2.LABELS,
}

#: Style of each kind label in the trace table.
KIND_STYLES: dict[str, str] = {
    "planner_call": "bold magenta",
    "executor_message": "cyan",
    "tool_call": "blue",
    "tool_result": "green",
    "executor_report": "bold cyan",
    "log": "yellow",
    **f2.STYLES,
}

#: Icon and style of each plan step state (the executor's *reported* status).
STEP_ICONS: dict[StepState, tuple[str, str]] = {
    StepState.PENDING: ("·", "dim"),
    StepState.IN_PROGRESS: ("▸", "yellow"),
    StepState.NO_REPORT: ("?", "dim"),
    StepState.SUCCESS: ("✓", "green"),
    StepState.PARTIAL: ("◐", "yellow"),
    StepState.FAILED: ("✗", "red"),
}


def summarize(event: Any, limit: int | None = None) -> str:
    """A one-line summary of a trace event (plain text, not yet cleaned): what the trace table shows.

    With ``limit`` (characters), free text is cut before it is formatted, so a 200 KB result costs no more than a
    short one; the summary is then at least ``limit`` characters long when the full one would be (callers cut it
    to ``limit`` with their ellipsis)."""

    def cut(value: Any) -> Any:
        return value[: limit + 1] if limit is not None and isinstance(value, str) else value

    kind = event.kind
    if kind == "tool_call":
        return f"{event.tool}({fmt.compact_json(event.arguments)[1:-1] if event.arguments else ''})"
    if kind == "tool_result":
        status = f"{event.status} · " if event.status else ""
        return status + fmt.compact_json(cut(event.output))
    if kind == "executor_report":
        return f"{event.status.value.upper()}: {cut(event.content)}"
    if kind == "log":
        return f"{event.source} {event.level}: {cut(event.content)}"
    other = f2.summarize2(event, cut)
    if other is not None:
        return other
    return str(cut(getattr(event, "content", "")))


def usage_line(event: Any, drill: Drill, repeated: int | None = None) -> Text | None:
    """The token usage of a model-call event and its cost in USD (at its agent's or its own model, format 2), or None
    for an event without usage. A repeated event (format 2) costs that each time: the line adds what its
    repetitions cost, so far (``repeated`` of them, while playing) or in all (``None``: not playing)."""
    call = Cast(drill).call(event)
    if call is None:
        return None
    usage, role, spec = call.usage, call.role, call.spec
    out = Text()
    out.append("usage  ", style="bold")
    out.append(f"{usage.input_tokens:,} in / {usage.output_tokens:,} out tokens")
    if usage.estimated:
        out.append(" (estimated)", style="dim")
    out.append(f" · {role.value} ")
    out.append(fmt.clean_line(spec.name))
    out.append(f" at {fmt.usd_price(spec.input_usd_per_mtok)} / {fmt.usd_price(spec.output_usd_per_mtok)} per Mtok = ")
    out.append(fmt.usd(call_cost(usage, spec)), style="bold")
    if event.repeat is not None:
        n = event.repeat.count if repeated is None else repeated
        times = f"{n:,} so far" if repeated is not None else f"×{n:,}"
        out.append(f" each · {times}: ")
        out.append(fmt.usd(call_cost(usage, spec) * n), style="bold")
    return out


class TraceIndex(NamedTuple):
    """Lookups over one drill's whole trace, built once per drill (:func:`trace_index`) so that describing an event
    costs the same on a 100-event and a 100,000-event trace."""

    #: The tool result answering each tool call, by call id (the first in trace order).
    results: Mapping[str, ToolResult]
    #: Every trace event and re-plan event, by id.
    events: Mapping[str, Any]


_INDEXES: dict[int, tuple[Drill, TraceIndex]] = {}
#: Drills whose index is kept (a war room, a review and a test or two at once, at most).
_INDEXES_KEPT = 8


def trace_index(drill: Drill) -> TraceIndex:
    """The :class:`TraceIndex` of ``drill``: built on the first call (time proportional to the trace), then looked
    up (the last :data:`_INDEXES_KEPT` drills are kept; the cache holds the drill, so its ``id`` is not reused)."""
    kept = _INDEXES.get(id(drill))
    if kept is not None and kept[0] is drill:
        return kept[1]
    results: dict[str, ToolResult] = {}
    events: dict[str, Any] = {}
    replan = drill.answer_key.replan if drill.answer_key else ()
    for ev in (*drill.trace, *replan):
        events.setdefault(ev.id, ev)
        if isinstance(ev, ToolResult):
            results.setdefault(ev.call, ev)
    index = TraceIndex(results, events)
    if len(_INDEXES) >= _INDEXES_KEPT:
        del _INDEXES[next(iter(_INDEXES))]
    _INDEXES[id(drill)] = (drill, index)
    return index


def _label(name: str) -> str:
    """A label of the inspector's field column (step, objective, tool, ...), padded so the values line up."""
    return f"{name:<10}"


def _step_lines(event: Any, drill: Drill) -> Text:
    """The inspector's plan-step lines of an event: its step, the step's title and objective (none without a step)."""
    out = Text()
    if event.step is None:
        return out
    try:
        step = drill.step(event.step)
    except KeyError:
        step = None
    out.append(_label("step"), style="bold")
    out.append(fmt.clean_line(event.step))
    if step is not None:
        out.append(" ")
        out.append(fmt.clean_line(step.title))
        out.append("\n" + _label("objective"), style="bold")
        out.append(fmt.clean_line(step.objective), style="italic")
    out.append("\n")
    return out


def _tool_result_body(event: Any, drill: Drill, events: Mapping[str, Any] | None) -> Text:
    """A tool result's status, duration, the call it answers, and its raw output (pretty-printed in the language
    the call's arguments hint at, e.g. the file a read_file call named)."""
    out = Text()
    meta = []
    if event.status:
        meta.append(f"status {fmt.clean_line(event.status)}")
    if event.duration_ms is not None:
        meta.append(f"{event.duration_ms:,.0f} ms")
    language = None
    if events is not None and event.call in events:
        call = events[event.call]
    else:
        call = trace_index(drill).events.get(event.call)  # None: a call the trace does not have
    if isinstance(call, ToolCall):
        meta.append(f"answers {fmt.clean_line(event.call)} ({fmt.clean_line(call.tool)})")
        language = language_hint(call.arguments)
    else:
        meta.append(f"answers {fmt.clean_line(event.call)}")
    out.append(" · ".join(meta) + "\n")
    out.append_text(f2.result_extras(event))
    out.append("output (raw, in full)\n" if event.shown is not None else "output (raw)\n", style="bold")
    out.append_text(structured(event.output, language))
    return out


def _body(event: Any, drill: Drill, events: Mapping[str, Any] | None) -> Text:
    """The inspector's body of an event, by kind: a tool call's tool, result and arguments; a tool result (see
    :func:`_tool_result_body`); a report's status and text; a log line; a message's text."""
    out = Text()
    kind = event.kind
    if kind == "tool_call":
        out.append(_label("tool"), style="bold")
        out.append(fmt.clean_line(event.tool))
        out.append("\n")
        out.append_text(f2.results_lines(event, drill, events))
        out.append("arguments\n", style="bold")
        out.append_text(structured(event.arguments))
    elif kind == "tool_result":
        out.append_text(_tool_result_body(event, drill, events))
    elif kind == "command_result":
        out.append(_label("answers"), style="bold")
        out.append(fmt.clean_line(event.call) + "\n")
        out.append_text(f2.result_extras(event))
    elif kind == "executor_report":
        icon, style = STEP_ICONS[StepState(event.status.value)]
        out.append(_label("reports"), style="bold")
        out.append(f"{icon} {event.status.value}", style=style)
        out.append("\n")
        out.append(fmt.clean(event.content))
    elif kind == "log":
        out.append(_label("source"), style="bold")
        out.append(fmt.clean_line(event.source))
        out.append(f" · {event.level}\n", style="red" if event.level == "error" else "")
        out.append(fmt.clean(event.content))
    else:
        text = f2.summarize2(event, lambda value: value)  # a handoff's agents, an approval's decision
        out.append(fmt.clean(text if text is not None else getattr(event, "content", "")))
    return out


def describe_event(
    event: Any, drill: Drill, events: Mapping[str, Any] | None = None, repeated: int | None = None
) -> Text:
    """The full inspector view of one trace event: header, plan step and objective, body, usage and cost.

    ``events`` (event id to trace event, e.g. :attr:`TraceTable.events`) is used to find the tool call a tool result
    answers; an id missing from it is looked up in ``drill`` (through :func:`trace_index`). ``repeated``: how many
    repetitions of a repeated event have happened so far (format 2; None: not playing), listed with their times.
    """
    out = Text()
    out.append(fmt.clean_line(event.id), style="bold")
    out.append(" · ")
    out.append(KIND_LABELS.get(event.kind, event.kind), style=KIND_STYLES.get(event.kind, ""))
    out.append(f" · {fmt.clock(event.t)}\n")
    out.append_text(_step_lines(event, drill))
    out.append_text(f2.agent_lines(event, drill, repeated))
    out.append_text(_body(event, drill, events))
    line = usage_line(event, drill, repeated)
    if line is not None:
        out.append("\n\n")
        out.append_text(line)
    return out
