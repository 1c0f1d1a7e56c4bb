"""Langfuse exports (``warroom import langfuse``): each trace's observations read into spans and classified steps.

A file holds what Langfuse's public API and SDKs give: a trace with its ``observations``
(``GET /api/public/traces/{id}``), a list of observations or traces, ``{"data": [...]}`` of either (the list
endpoints), or JSON Lines of any of these. Fields are read in the API's camelCase (``startTime``,
``parentObservationId``) or the Python SDK's snake_case (``start_time``). An observation's parent is its
``parentObservationId``; its trace its ``traceId``, else the trace that holds it, else its root observation's id.
What each ``type`` becomes is in :func:`classify` and docs/importing.md; the rest of an observation is read by
:mod:`._values`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.importers.exports import (
    UNFINISHED,
    Recorded,
    ancestors,
    attach_tools,
    read_values,
    root_ids,
    time_ns,
)
from warroom.importers.kit import TraceError, json_kind
from warroom.importers.langfuse._values import field, model_step, prices, tool_step, user_text
from warroom.importers.spans import (
    AGENT,
    OTHER,
    Span,
    Step,
    as_text,
    command_handoff,
    langgraph_subgraph,
    mark_agent,
    mark_tool,
)

MODEL_TYPES = ("GENERATION",)
TOOL_TYPES = frozenset({"TOOL", "RETRIEVER"})
#: Names of LangChain runnables that Langfuse's LangChain integration (before observation types) records as a
#: SPAN with an input and an output, like a tool's: never read as tool calls.
NOT_TOOLS = ("Runnable", "ChatPromptTemplate", "PromptTemplate", "StrOutputParser", "JsonOutputParser", "LangGraph")
_OBSERVATIONS_BY_ID = ("lists its observations by id only: export the trace with its observations (the trace "
                       "endpoint, GET /api/public/traces/{id}) or the observations themselves "
                       "(GET /api/public/observations?traceId=...)")


def _is_observation(item: dict[str, Any]) -> bool:
    return isinstance(field(item, "type"), str) and (field(item, "startTime") is not None or "id" in item)


def _observations(value: Any, where: str, recorded: Recorded) -> list[tuple[dict[str, Any], str, str]]:
    """``(observation, label, trace id of the trace holding it)`` of one JSON value; a trace's ``input`` is noted
    as its goal in ``recorded``. Raises TraceError."""
    if isinstance(value, dict) and isinstance(value.get("data"), list):
        value = value["data"]
    items = value if isinstance(value, list) else [value]
    out: list[tuple[dict[str, Any], str, str]] = []
    for i, item in enumerate(items):
        label = f"{where}item {i}" if isinstance(value, list) else f"{where}the document"
        if isinstance(item, dict) and isinstance(item.get("observations"), list):
            trace_id = as_text(item.get("id")).strip().lower()
            goal = user_text(item.get("input"))
            if trace_id and goal:
                recorded.goals.setdefault(trace_id, goal)
            for j, obs in enumerate(item["observations"]):
                if isinstance(obs, str):
                    who = f"{where}item {i}, a trace," if isinstance(value, list) else f"{where}the trace"
                    raise TraceError(f"{who} {_OBSERVATIONS_BY_ID}")
                if not isinstance(obs, dict) or not _is_observation(obs):
                    raise TraceError(f"not a Langfuse export: {label}.observations[{j}] is not an observation "
                                     "(an object with `type` and `startTime`)")
                out.append((obs, f"{label}.observations[{j}]", trace_id))
        elif isinstance(item, dict) and _is_observation(item):
            out.append((item, label, ""))
        else:
            kind = "an object that is neither a trace with `observations` nor an observation (`type`, `startTime`)" \
                if isinstance(item, dict) else f"a JSON {json_kind(item)}"
            raise TraceError(f"not a Langfuse export: {label} is {kind}")
    return out


def _span(obs: dict[str, Any], label: str, trace_id: str) -> Span:
    obs_id = as_text(field(obs, "id")).strip().lower()
    if not obs_id:
        raise TraceError(f"{label} has no `id`")
    name = as_text(field(obs, "name")) or as_text(field(obs, "type")).lower()
    start = time_ns(field(obs, "startTime"), f"{label}.startTime")
    end_raw = field(obs, "endTime")
    end = time_ns(end_raw, f"{label}.endTime") if end_raw not in (None, "") else start
    error = ""
    if as_text(field(obs, "level")).upper() == "ERROR":
        error = as_text(field(obs, "statusMessage")).strip() or "error level (no message)"
    return Span(trace_id, obs_id, as_text(field(obs, "parentObservationId")).strip().lower(), name, start,
                max(start, end), {}, error=bool(error), status_message=error, ended_before_start=end < start)


#: The fields of an observation that make its part of a drill: two copies of one observation must agree on each.
_READ_FIELDS = ("type", "name", "startTime", "endTime", "parentObservationId", "input", "output", "level",
                "statusMessage", "model", "usageDetails", "costDetails")


def _same_copy(earlier: dict[str, Any], obs: dict[str, Any], label: str) -> None:
    """Nothing, when an observation listed again says what its first copy said; else a TraceError naming the
    field: the importer does not choose between two versions of one observation."""
    for name in _READ_FIELDS:
        if field(earlier, name) != field(obs, name):
            raise TraceError(f"{label}: observation {as_text(field(obs, 'id')).strip()[:80]!r} is listed twice "
                             f"with a different `{name}`: keep one copy of each observation (export the trace again)")


def read_observations(path: Path) -> tuple[dict[str, list[Step]], Recorded]:
    """The observations in the file at ``path`` as classified steps by trace id, with the traces' goals and the
    prices their generations' costs come to. An observation listed twice is read once. Raises TraceError."""
    from warroom.importers.langfuse._otel import otel_observations

    recorded = Recorded()
    found: list[tuple[dict[str, Any], str, str]] = []
    seen: dict[str, dict[str, Any]] = {}
    from_otel = otel_observations(path)  # the SDK's OpenTelemetry spans, read as the observations Langfuse makes
    for where, value in ([("", from_otel)] if from_otel is not None else read_values(path, "a Langfuse export")):
        for obs, label, holder in _observations(value, where, recorded):
            key = as_text(field(obs, "id")).strip().lower()
            if key and key in seen:
                _same_copy(seen[key], obs, label)
                continue
            seen[key] = obs
            found.append((obs, label, holder))
    if not found:
        raise TraceError("no observation in this file")
    roots = root_ids({as_text(field(o, "id")).strip().lower(): as_text(field(o, "parentObservationId")).strip()
                      .lower() for o, _, _ in found})
    spans = []
    for obs, label, holder in found:
        obs_id = as_text(field(obs, "id")).strip().lower()
        trace_id = as_text(field(obs, "traceId")).strip().lower() or holder or roots.get(obs_id, obs_id)
        spans.append(_span(obs, label, trace_id))
    parents = {s.parent_id for s in spans}
    agents = {s.span_id for (o, _, _), s in zip(found, spans, strict=True)
              if as_text(field(o, "type")).upper() == "AGENT"}
    by_id = {s.span_id: s for s in spans}
    steps: dict[str, list[Step]] = {}
    seen_inputs: dict[str, set[str]] = {}  # by trace
    for (obs, _, _), span in sorted(zip(found, spans, strict=True), key=lambda os: os[1].start_ns):
        step = classify(obs, span, span.span_id in parents, seen_inputs.setdefault(span.trace_id, set()))
        if step.kind == AGENT and not step.inputs and any(a in agents for a in ancestors(span, by_id)):  # a handoff
            step.inputs = as_text(field(obs, "input"))
        steps.setdefault(span.trace_id, []).append(step)
    for group in steps.values():
        attach_tools(group)
    for trace_id in steps:
        recorded.prices[trace_id] = prices(o for (o, _, _), s in zip(found, spans, strict=True)
                                           if s.trace_id == trace_id)
    return steps, recorded


def classify(obs: dict[str, Any], span: Span, has_children: bool, seen_inputs: set[str]) -> Step:
    """The :class:`Step` of one observation by its ``type``: AGENT an agent, GENERATION a model call, TOOL and
    RETRIEVER a tool call, a SPAN without children that has an input or an output a tool call (Langfuse's SDKs
    before observation types recorded tools as such spans; not LangChain's prompt templates, parsers and
    runnables: :data:`NOT_TOOLS`); the rest (CHAIN, EVENT, a SPAN with children, EMBEDDING, EVALUATOR,
    GUARDRAIL) other. An agent's input is the user's words only the first time they are seen (``seen_inputs``;
    an agent under another gets its whole input, the handoff's content, from :func:`read_observations`); a root
    CHAIN's or SPAN's input is the goal."""
    step = Step(span, error=span.status_message)
    kind = as_text(field(obs, "type")).upper()
    inputs, output = field(obs, "input"), field(obs, "output")
    leaf_tool = (kind == "SPAN" and not has_children and (inputs is not None or output is not None)
                 and not span.name.startswith(NOT_TOOLS) and not span.name.endswith("OutputParser"))
    if kind == "AGENT":
        text = user_text(inputs)
        named = langgraph_subgraph(field(obs, "metadata"), span.name)  # LangGraph's subgraph agents' `agent` nodes
        mark_agent(step, span, named or span.name, "" if text in seen_inputs else text)
        seen_inputs.add(text)
    elif kind in MODEL_TYPES:
        model_step(step, obs)
    elif kind in TOOL_TYPES or leaf_tool:
        mark_tool(step, span, span.name, None)
        tool_step(step, obs, kind)
        command_handoff(step, step.result)
        if field(obs, "endTime") in (None, "") and step.result is None and not step.error:
            step.result = UNFINISHED
    else:
        step.kind = OTHER
        if not span.parent_id and kind in ("CHAIN", "SPAN"):
            step.inputs = user_text(inputs)
    return step
