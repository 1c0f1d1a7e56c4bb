"""OpenAI Agents SDK traces (``warroom import openai-agents``): each trace's spans read into spans and steps.

A file holds what the SDK's tracing exports: ``trace.export()`` objects (``"object": "trace"``: ``id``,
``workflow_name``, ``group_id``, ``metadata``) and ``span.export()`` objects (``"object": "trace.span"``: ``id``,
``trace_id``, ``parent_id``, ``started_at`` / ``ended_at`` ISO times, ``span_data``, ``error``), as the
``BatchTraceProcessor``'s backend exporter posts them (``{"data": [...]}``), as a JSON list, one object, or JSON
Lines of any of these (a custom ``TracingProcessor`` writing one object per line; a span written when it starts
and again when it ends is read once, as it ended). What each ``span_data.type`` becomes is in :func:`_classify`
and docs/importing.md; the values are read by :mod:`._values`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from warroom.importers.exports import (
    UNFINISHED,
    Recorded,
    attach_tools,
    read_values,
    returned_value,
    time_ns,
    tool_arguments,
)
from warroom.importers.kit import TraceError, json_kind
from warroom.importers.openai_agents._values import generation_step, response_step, span_error, user_texts
from warroom.importers.spans import (
    AGENT,
    MODEL,
    TOOL,
    Span,
    Step,
    agent_id,
    as_text,
    mark_agent,
    mark_tool,
    nearest_agent,
)

#: A model call's content when its span had not ended when the trace was exported (no output recorded yet).
UNFINISHED_CALL = "(no output: the model call had not ended when the trace was exported)"
_OBJECTS = ("trace", "trace.span")


def _items(value: Any, where: str) -> list[tuple[dict[str, Any], str]]:
    """``(trace or span object, label)`` of one JSON value. Raises TraceError."""
    if isinstance(value, dict) and isinstance(value.get("data"), list):
        value = value["data"]
    items = value if isinstance(value, list) else [value]
    out = []
    for i, item in enumerate(items):
        label = f"{where}item {i}" if isinstance(value, list) else f"{where}the document"
        if not isinstance(item, dict) or (item.get("object") not in _OBJECTS and "span_data" not in item):
            kind = "an object that is neither a trace (`\"object\": \"trace\"`) nor a span (`span_data`)" \
                if isinstance(item, dict) else f"a JSON {json_kind(item)}"
            raise TraceError(f"not OpenAI Agents SDK traces: {label} is {kind}")
        if "span_data" in item or item.get("object") == "trace.span":
            data = item.get("span_data")
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise TraceError(f"{label}.span_data is not an object with a `type`")
        out.append((item, label))
    return out


def _name(data: dict[str, Any]) -> str:
    """A span's name for messages and log events: the agent's, function's or guardrail's name, else its type."""
    kind = data["type"]
    name = as_text(data.get("name")).strip()
    if kind in ("agent", "function", "custom") and name:
        return name
    if kind == "guardrail":
        return f"guardrail {name}".strip()
    if kind == "handoff":
        return f"handoff {as_text(data.get('from_agent'))} -> {as_text(data.get('to_agent'))}"
    if kind == "mcp_tools" and as_text(data.get("server")).strip():
        return f"mcp_tools {as_text(data.get('server')).strip()}"
    return kind


def _span(item: dict[str, Any], label: str) -> Span:
    span_id = as_text(item.get("id")).strip().lower()
    if not span_id:
        raise TraceError(f"{label} has no `id`")
    trace_id = as_text(item.get("trace_id")).strip().lower()
    if not trace_id:
        raise TraceError(f"{label} has no `trace_id`")
    start = time_ns(item.get("started_at"), f"{label}.started_at")
    end_raw = item.get("ended_at")
    end = time_ns(end_raw, f"{label}.ended_at") if end_raw not in (None, "") else start
    error = span_error(item.get("error"))
    return Span(trace_id, span_id, as_text(item.get("parent_id")).strip().lower(), _name(item["span_data"]), start,
                max(start, end), {}, error=bool(error), status_message=error, ended_before_start=end < start)


#: The fields of an ended span that make its part of a drill: two ended copies of one span must agree on each.
_READ_FIELDS = ("parent_id", "started_at", "ended_at", "span_data", "error")


def _same_copy(earlier: dict[str, Any], item: dict[str, Any], label: str) -> None:
    """Nothing, when a span written again after it ended says what its ended copy said; else a TraceError naming
    the field: the importer does not choose between two versions of one span."""
    for name in _READ_FIELDS:
        if earlier.get(name) != item.get(name):
            raise TraceError(f"{label}: span {as_text(item.get('id')).strip()[:80]!r} is written twice, ended, with "
                             f"a different `{name}`: keep one copy of each span (export the trace again)")


def _collect(path: Path, recorded: Recorded) -> list[tuple[dict[str, Any], str]]:
    """The spans of the file, each once (a span written again replaces the earlier copy unless that one ended and
    this one did not); each trace's ``workflow_name`` noted in ``recorded``. Raises TraceError."""
    spans: dict[str, tuple[dict[str, Any], str]] = {}
    traces = 0
    for where, value in read_values(path, "OpenAI Agents SDK traces"):
        for item, label in _items(value, where):
            if "span_data" not in item:
                traces += 1
                name = as_text(item.get("workflow_name")).strip()
                trace_id = as_text(item.get("id")).strip().lower()
                if name and trace_id:
                    recorded.notes.setdefault(trace_id, [f"The trace's workflow_name: {name[:200]!r}."])
                continue
            key = as_text(item.get("id")).strip().lower() or label
            earlier = spans.get(key)
            if earlier is not None and earlier[0].get("ended_at") and item.get("ended_at"):
                _same_copy(earlier[0], item, label)
            if earlier is None or item.get("ended_at") or not earlier[0].get("ended_at"):
                spans[key] = (item, earlier[1] if earlier else label)
    if not spans:
        raise TraceError("no span in this file (only traces: export their spans too)" if traces else
                         "no trace or span in this file (an empty export)")
    return list(spans.values())


def read_agent_spans(path: Path) -> tuple[dict[str, list[Step]], Recorded]:
    """The spans in the file at ``path`` as classified steps by trace id, with each trace's agents' descriptions
    and what ``source`` must say of it. Raises TraceError."""
    recorded = Recorded()
    found = _collect(path, recorded)
    spans = [_span(item, label) for item, label in found]
    data = {span.span_id: item["span_data"] for (item, _), span in zip(found, spans, strict=True)}
    running = {span.span_id for (item, _), span in zip(found, spans, strict=True) if item.get("ended_at") in (None, "")}
    steps: dict[str, list[Step]] = {}
    counts: dict[str, Counter[str]] = {}
    for span in sorted(spans, key=lambda s: (s.start_ns, s.end_ns)):
        tally = counts.setdefault(span.trace_id, Counter())
        steps.setdefault(span.trace_id, []).append(
            _classify(data[span.span_id], span, tally, ended=span.span_id not in running))
    for trace_id, group in steps.items():
        handoffs = _handoffs(group, data, counts[trace_id])
        _agent_inputs(group, data, handoffs)
        attach_tools(group)
        _turn_calls(group)
        recorded.descriptions[trace_id] = _descriptions(group, data)
        recorded.notes.setdefault(trace_id, []).extend(_notes(counts[trace_id]))
    return steps, recorded


def _classify(data: dict[str, Any], span: Span, tally: Counter[str], *, ended: bool = True) -> Step:
    """The :class:`Step` of one span by its ``span_data.type``: agent an agent, generation and response a model
    call (one not ``ended`` says :data:`UNFINISHED_CALL`), function a tool call (one not ``ended`` with no output
    nor error answers :data:`UNFINISHED`); a handoff is made the agent it hands to by :func:`_handoffs`; a
    guardrail that triggered is failed (a ``log`` event); the rest (custom, mcp_tools, transcription, speech,
    speech_group, a guardrail that passed) other, counted by type in ``tally``."""
    step = Step(span, error=span.status_message)
    kind = data["type"]
    if kind == "agent":
        mark_agent(step, span, data.get("name"), "")
    elif kind == "generation":
        generation_step(step, data)
        tally["generation"] += 1
        tally["no usage"] += step.input_tokens is None and step.output_tokens is None
    elif kind == "response":
        tally["response without output"] += not response_step(step, data)
        tally["response"] += 1
        tally["no usage"] += step.input_tokens is None and step.output_tokens is None
    elif kind == "function":
        mark_tool(step, span, data.get("name"), None)
        step.arguments = tool_arguments(data.get("input"))
        step.result = returned_value(data.get("output"), json_text=True)
        if not ended and step.result is None and not step.error:
            step.result = UNFINISHED
        elif data.get("input") is None and data.get("output") is None and not step.error:
            # `trace_include_sensitive_data=False`: no arguments (always JSON text, `{}` at least, when recorded)
            # and no result; not an empty result
            step.not_recorded = True
    elif kind == "guardrail" and data.get("triggered") is True:
        step.error = step.error or "tripwire triggered"
        tally["guardrail triggered"] += 1
    else:
        tally[f"ignored {kind}"] += 1
    if kind == "handoff":
        step.name = as_text(data.get("to_agent")).strip() or None
    if not ended and step.kind == MODEL and not step.content and not step.tool_calls_asked and not step.error:
        step.content = UNFINISHED_CALL
    return step


def _turn_calls(steps: list[Step]) -> None:
    """A model call whose output the trace does not hold (a ``response`` span as ``span.export()`` writes it) asked
    for the function calls its agent ran after it and before its next model call (the SDK runs one turn's calls,
    then calls the model again): several are one batch. They are named by tool, without ids (function spans hold
    none)."""
    by_id = {s.span.span_id: s for s in steps}
    unread: dict[str, Step] = {}  # agent span id -> its latest model call, when the trace holds no output of it
    for step in steps:
        agent = nearest_agent(step, by_id)
        key = agent.span.span_id if agent is not None else ""
        if step.kind == MODEL:
            unread.pop(key, None)
            if not step.content and not step.tool_calls_asked:
                unread[key] = step
        elif step.kind == TOOL and key in unread and step.span.start_ns >= unread[key].span.end_ns:
            unread[key].tool_calls_asked.append(("", step.tool or step.span.name))


def _agent_above(step: Step, by_id: dict[str, Step]) -> Step | None:
    """The agent step that ``step`` runs under (not ``step`` itself), or None."""
    return nearest_agent(by_id.get(step.span.parent_id), by_id)


def _handoffs(steps: list[Step], data: dict[str, dict[str, Any]], tally: Counter[str]) -> set[str]:
    """Make each handoff span under an agent the agent it hands to (so the drill has the ``handoff`` event), and
    put that agent's next span (the SDK starts it beside the first, not under it) under the handoff. A handoff
    with no agent above it, or naming no agent, stays other. Returns the ids of the handoffs made agents."""
    by_id = {s.span.span_id: s for s in steps}
    made: set[str] = set()
    agents: dict[str | None, list[Step]] = {}  # agent spans by name, in order (a handoff made one is no target)
    for a in steps:
        if a.kind == AGENT:
            agents.setdefault(a.name, []).append(a)
    for h in [s for s in steps if data[s.span.span_id]["type"] == "handoff" and s.name]:
        if _agent_above(h, by_id) is None:
            continue
        tally["ignored handoff"] -= 1
        h.kind = AGENT
        made.add(h.span.span_id)
        target = next((a for a in agents.get(h.name, ()) if a.span.start_ns >= h.span.start_ns
                       and _agent_above(a, by_id) is None and not _holds(a, h, by_id)), None)
        if target is not None:
            target.span.parent_id = h.span.span_id
    return made


def _holds(outer: Step, inner: Step, by_id: dict[str, Step]) -> bool:
    """Whether ``outer`` is ``inner`` or one of its ancestors (putting it under ``inner`` would make a cycle)."""
    node: Step | None = inner
    seen: set[str] = set()
    while node is not None and node.span.span_id not in seen:
        if node is outer:
            return True
        seen.add(node.span.span_id)
        node = by_id.get(node.span.parent_id)
    return False


def _agent_inputs(steps: list[Step], data: dict[str, dict[str, Any]], handoffs: set[str]) -> None:
    """Give each agent span (not a handoff) the user's words its first model call sent that no earlier model call
    of the trace did: the first agent's are the user's message."""
    by_id = {s.span.span_id: s for s in steps}
    memo: dict[str, Step | None] = {}  # the parents no longer change: each span is walked through once
    seen: set[str] = set()
    done: set[str] = set()
    for m in steps:
        if m.kind != MODEL:
            continue
        texts = user_texts(data[m.span.span_id].get("input"))
        agent = nearest_agent(m, by_id, memo)
        if agent is not None and agent.span.span_id not in done:
            done.add(agent.span.span_id)
            if agent.span.span_id not in handoffs:
                agent.inputs = "\n".join(t for t in dict.fromkeys(texts) if t not in seen)
        seen.update(texts)




def _descriptions(steps: list[Step], data: dict[str, dict[str, Any]]) -> dict[str, str]:
    """What each agent span says of its agent (``tools``, ``handoffs``, ``output_type``), by agent name as the
    drill spells it."""
    out: dict[str, str] = {}
    for s in steps:
        d = data[s.span.span_id]
        if s.kind != AGENT or d["type"] != "agent":
            continue
        parts = [f"{what}: {', '.join(as_text(x) for x in d[key])}." for key, what in
                 (("tools", "Tools"), ("handoffs", "Hands off to")) if isinstance(d.get(key), list) and d[key]]
        if isinstance(d.get("output_type"), str) and d["output_type"].strip():
            parts.append(f"Output type: {d['output_type'].strip()}.")
        if parts:
            out.setdefault(agent_id(s.name or s.span.name), " ".join(parts))
    return out


def _notes(tally: Counter[str]) -> list[str]:
    """What ``source`` says of a trace's model calls, guardrails and ignored spans."""
    notes = []
    if tally["response without output"]:
        notes.append(f"Response spans that hold only the response's id, not its output or model (the SDK's "
                     f"export keeps no more): {tally['response without output']} of {tally['response']}.")
    if tally["no usage"]:
        notes.append(f"Model calls without usage, their token counts estimated: {tally['no usage']}.")
    if tally["guardrail triggered"]:
        notes.append(f"Guardrails whose tripwire triggered, each a log event: {tally['guardrail triggered']}.")
    ignored = [f"{kind.removeprefix('ignored ')} ({n})" for kind, n in sorted(tally.items())
               if kind.startswith("ignored ") and n > 0]
    if ignored:
        notes.append(f"Ignored span types: {', '.join(ignored)}.")
    return notes
