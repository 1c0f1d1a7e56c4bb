"""LangSmith runs (``warroom import langsmith``): the run tree of each trace read into spans and classified steps.

A file holds runs as LangSmith's SDK and API give them (``Client.list_runs``, a run's JSON in the UI): a JSON list
of runs, ``{"runs": [...]}``, one run, or JSON Lines of any of these; a run may nest its children in
``child_runs``. A run's parent is its ``parent_run_id``, else the one its ``dotted_order`` names, else the run
whose ``child_runs`` hold it; its trace is its ``trace_id``, else its root's id. What each ``run_type`` becomes is
in :func:`classify_run` and docs/importing.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from warroom.importers.exports import (
    UNFINISHED,
    Recorded,
    ancestors,
    attach_tools,
    error_text,
    messages,
    read_values,
    recorded_prices,
    root_ids,
    time_ns,
)
from warroom.importers.kit import TraceError, json_kind, warn
from warroom.importers.spans import MODEL, OTHER, Span, Step, as_text, mark_agent, mark_tool

MODEL_TYPES = ("llm", "chat_model", "chat model", "chat")
TOOL_TYPES = ("tool", "retriever")
#: Names of chain runs that are agents without LangGraph's node metadata (LangChain's classic agent loop).
AGENT_CHAINS = frozenset({"AgentExecutor"})
_SEGMENT = re.compile(r"^\d{8}T\d{6,}Z(?P<id>.+)$")


def _ids_in_order(dotted: Any) -> list[str]:
    """The run ids a ``dotted_order`` names, root first (``<time>Z<uuid>.<time>Z<uuid>...``)."""
    if not isinstance(dotted, str):
        return []
    return [m.group("id") for seg in dotted.split(".") if (m := _SEGMENT.match(seg))]


def _flatten(value: Any, where: str) -> list[dict[str, Any]]:
    """The runs of one JSON value (a list of runs, ``{"runs": [...]}``, one run), each nested ``child_runs`` run
    after its parent with ``parent_run_id`` and ``trace_id`` filled in from it when missing. Raises TraceError."""
    if isinstance(value, dict) and isinstance(value.get("runs"), list):
        value = value["runs"]
    items = value if isinstance(value, list) else [value]
    out: list[dict[str, Any]] = []
    stack: list[tuple[Any, str, dict[str, Any] | None]] = [
        (item, f"{where}run {i}", None) for i, item in reversed(list(enumerate(items)))]
    while stack:
        run, label, parent = stack.pop()
        if not isinstance(run, dict) or "run_type" not in run:
            kind = "an object without `run_type`" if isinstance(run, dict) else f"a JSON {json_kind(run)}"
            raise TraceError(f"not LangSmith runs: {label} is {kind}")
        if not isinstance(run["run_type"], str):
            raise TraceError(f"{label}.run_type is a JSON {json_kind(run['run_type'])}, not text")
        run = {**run, "run_type": run["run_type"].strip().lower()}
        if parent is not None:
            run = {**run, "parent_run_id": run.get("parent_run_id") or parent.get("id"),
                   "trace_id": run.get("trace_id") or parent.get("trace_id")}
        out.append(run)
        children = run.get("child_runs")
        for j, child in reversed(list(enumerate(children if isinstance(children, list) else []))):
            stack.append((child, f"{label}.child_runs[{j}]", run))
    return out


#: How LangGraph's control-flow exception is recorded as a run's error: ``ParentCommand(Command(graph=...,
#: goto=...))``, raised by a handoff tool's ``Command(graph=Command.PARENT)`` through the subgraph to its parent.
_CONTROL_FLOW = "ParentCommand(Command("


def _span(run: dict[str, Any], label: str, roots: dict[str, str]) -> Span:
    run_id = as_text(run.get("id")).strip().lower()
    if not run_id:
        raise TraceError(f"{label} has no `id`")
    chain = [i.lower() for i in _ids_in_order(run.get("dotted_order"))]
    parent = as_text(run.get("parent_run_id")).strip().lower() or (chain[-2] if len(chain) > 1 else "")
    trace = as_text(run.get("trace_id")).strip().lower() or (chain[0] if chain else "") or roots.get(run_id, "")
    start = time_ns(run.get("start_time"), f"{label}.start_time")
    end = time_ns(run["end_time"], f"{label}.end_time") if run.get("end_time") not in (None, "") else start
    error = error_text(run.get("error")) or ("error status (no message)" if run.get("status") == "error" else "")
    if error.startswith(_CONTROL_FLOW):  # LangGraph hands off by raising its Command: not an error of the run
        error = ""
    return Span(trace or run_id, run_id, parent, as_text(run.get("name")) or as_text(run.get("run_type")), start,
                max(start, end), {}, error=bool(error), status_message=error, ended_before_start=end < start)


#: The fields of a run that make its part of a drill: two copies of one run must agree on each.
_READ_FIELDS = ("run_type", "name", "start_time", "end_time", "parent_run_id", "inputs", "outputs", "error", "status")


def _same_copy(earlier: dict[str, Any], run: dict[str, Any], where: str) -> None:
    """Nothing, when a run given again (listed and nested in its parent's ``child_runs``) says what its first copy
    said (a nested copy's parent, filled in from its nesting, agrees with a listed copy that gives none); else a
    TraceError naming the field: the importer does not choose between two versions of one run."""
    for name in _READ_FIELDS:
        first, again = earlier.get(name), run.get(name)
        if first != again and (name != "parent_run_id" or (first and again)):
            raise TraceError(f"{where}run {as_text(run.get('id')).strip()[:80]!r} is given twice with a different "
                             f"`{name}`: keep one copy of each run (export the trace again)")


def read_runs(path: Path) -> tuple[dict[str, list[Step]], Recorded]:
    """The runs in the file at ``path`` as classified steps by trace id (nothing recorded apart from them). A run
    repeated (listed and also nested in its parent's ``child_runs``) is read once. Raises TraceError."""
    runs: list[dict[str, Any]] = []
    labels: list[str] = []
    seen: dict[str, dict[str, Any]] = {}
    for where, value in _values(path):
        for run in _flatten(value, where):
            key = as_text(run.get("id")).strip().lower()
            if key and key in seen:
                _same_copy(seen[key], run, where)
                continue
            seen[key] = run
            runs.append(run)
            labels.append(f"{where}run {as_text(run.get('id'))[:40] or len(runs) - 1}")
    if not runs:
        raise TraceError("no run in this file")
    roots = root_ids({as_text(r.get("id")).strip().lower(): as_text(r.get("parent_run_id")).strip().lower()
                      for r in runs})
    spans = [_span(run, label, roots) for run, label in zip(runs, labels, strict=True)]
    _warn_lone_roots(runs, spans)
    agents = _agent_runs(runs, spans)
    steps: dict[str, list[Step]] = {}
    seen_inputs: dict[str, set[str]] = {}  # by trace
    for run, span in sorted(zip(runs, spans, strict=True), key=lambda rs: rs[1].start_ns):  # the first agent first
        step = classify_run(run, span, span.span_id in agents, seen_inputs.setdefault(span.trace_id, set()))
        steps.setdefault(span.trace_id, []).append(step)
    for group in steps.values():
        attach_tools(group)
    return steps, Recorded(prices=_prices(runs, spans, steps))


def _values(path: Path) -> list[tuple[str, Any]]:
    """The file's JSON values (:func:`~warroom.importers.exports.read_values`), its ingest payloads (``/runs/batch``
    bodies, a ``/runs/multipart`` body) read as the runs they end with (:mod:`._ingest`)."""
    from warroom.importers.kit import MAX_CHAT_BYTES, multipart_parts, read_text
    from warroom.importers.langsmith._ingest import from_multipart, is_batch, merged_runs

    text = read_text(path, MAX_CHAT_BYTES, TraceError)
    parts = multipart_parts(text, TraceError, "LangSmith runs")
    if parts is not None:
        return [("", merged_runs([from_multipart(parts)]))]
    values = read_values(path, "LangSmith runs")
    batches = [v for _, v in values if is_batch(v)]
    if not batches:
        return values
    return [("", merged_runs(batches))] + [(w, v) for w, v in values if not is_batch(v)]


def _warn_lone_roots(runs: list[dict[str, Any]], spans: list[Span]) -> None:
    """Warn (:func:`~warroom.importers.kit.warn`, once for the file) when traces are a root run alone: a chain
    or agent run with no ``child_runs`` and no other run of its trace (a ``RunTree`` dumped, or ``read_run``
    called, without its children), whose agents, model calls and tool calls are missing. A model or tool run
    alone is a whole trace."""
    count: dict[str, int] = {}
    for span in spans:
        count[span.trace_id] = count.get(span.trace_id, 0) + 1
    lone = [(run, span) for run, span in zip(runs, spans, strict=True)
            if count[span.trace_id] == 1 and not span.parent_id and not run.get("child_runs")
            and run["run_type"] not in (*MODEL_TYPES, *TOOL_TYPES)]
    if not lone:
        return
    run, span = lone[0]
    what = (f"trace {span.trace_id} is its root run alone ({run['run_type']} `{span.name}`)" if len(lone) == 1 else
            f"{len(lone)} traces are each a root run alone ({run['run_type']} `{span.name}`, ...)")
    under = "it" if len(lone) == 1 else "them"
    warn(f"{what}: no `child_runs` and no other run of the trace, so the agents, model calls and tool calls under "
         f"{under} are missing; export the run with its children (`Client.read_run(RUN_ID, load_child_runs=True)`), "
         "or every run of the trace (`Client.list_runs(trace_id=TRACE_ID)`)")


def _prices(runs: list[dict[str, Any]], spans: list[Span], steps: dict[str, list[Step]]
            ) -> dict[str, dict[str, tuple[float, float]]]:
    """Each trace's model prices from the costs its model runs recorded (``prompt_cost`` / ``completion_cost``)."""
    from warroom.importers.langsmith._model import costs

    by_id = {s.span.span_id: s for group in steps.values() for s in group}
    found: dict[str, list[tuple[str, tuple[float, float], tuple[int | None, int | None]]]] = {}
    for run, span in zip(runs, spans, strict=True):
        step = by_id[span.span_id]
        if step.kind == MODEL and step.model and (cost := costs(run)) is not None:
            found.setdefault(span.trace_id, []).append((step.model, cost, (step.input_tokens, step.output_tokens)))
    return {trace_id: recorded_prices(calls) for trace_id, calls in found.items()}


def _agent_runs(runs: list[dict[str, Any]], spans: list[Span]) -> set[str]:
    """Ids of the runs that are agents: a run of type ``agent``, an ``AgentExecutor`` chain, or a LangGraph node
    (``extra.metadata.langgraph_node`` is its name) with a model call under it and no agent above it."""
    by_id = {s.span_id: s for s in spans}
    has_model: set[str] = set()
    for run, span in zip(runs, spans, strict=True):
        if run.get("run_type") in MODEL_TYPES:
            has_model.update(ancestors(span, by_id))
    out: set[str] = set()
    candidates = {s.span_id for run, s in zip(runs, spans, strict=True)
                  if run.get("run_type") == "agent" or (run.get("run_type") == "chain" and (
                      as_text(run.get("name")) in AGENT_CHAINS or _node_name(run) == as_text(run.get("name"))
                      or lc_agent_name(run) is not None))}
    depths: dict[str, int] = {}
    for run, span in sorted(zip(runs, spans, strict=True), key=lambda rs: _depth(rs[1], by_id, depths)):  # outer first
        if span.span_id not in candidates:
            continue
        named = run.get("run_type") == "agent" or as_text(run.get("name")) in AGENT_CHAINS \
            or lc_agent_name(run) is not None
        if named or (span.span_id in has_model and not any(a in out for a in ancestors(span, by_id))):
            out.add(span.span_id)
    return out


def lc_agent_name(run: dict[str, Any]) -> str | None:
    """The name of the agent a chain run is the own run of: LangChain 1's ``create_agent(..., name=NAME)`` graph,
    whose runs carry ``lc_agent_name`` in their metadata and whose own run is named NAME (its ``model`` and
    ``tools`` nodes are not); else None."""
    extra = run.get("extra")
    meta = extra.get("metadata") if isinstance(extra, dict) else None
    if not isinstance(meta, dict):
        return None
    named = meta.get("lc_agent_name")
    if not isinstance(named, str) or not named or named != as_text(run.get("name")):
        return None
    return named if meta.get("langgraph_node") != named else None


def _node_name(run: dict[str, Any]) -> str | None:
    extra = run.get("extra")
    meta = extra.get("metadata") if isinstance(extra, dict) else None
    node = meta.get("langgraph_node") if isinstance(meta, dict) else None
    return node if isinstance(node, str) and node else None


def _depth(span: Span, by_id: dict[str, Span], known: dict[str, int]) -> int:
    """How many parents ``span`` has (a cycle ended); ``known`` keeps the depth of each span walked through on a
    walk that ended at a root, so that the runs of a deep trace are walked once, not once each (quadratic)."""
    path: list[str] = []
    node, seen = span.parent_id, set()
    while node in by_id and node not in seen and node not in known:
        seen.add(node)
        path.append(node)
        node = by_id[node].parent_id
    if node in seen:  # a cycle: counted as before, nothing kept
        return len(path)
    above = known[node] + 1 if node in known else 0  # the parents of the span the walk stopped at, and that span
    for i, walked in enumerate(reversed(path)):
        known[walked] = above + i
    return above + len(path)


def _user_text(inputs: Any) -> str:
    """The user's words in a run's inputs: its user messages, else its ``input`` / ``question`` / ``query`` text."""
    found = messages(inputs)
    text = "\n".join(m.text for m in found or [] if m.role == "user" and m.text)
    if not text and isinstance(inputs, dict):
        text = next((inputs[k] for k in ("input", "question", "query", "task") if isinstance(inputs.get(k), str)),
                    "")
    if not text and isinstance(inputs, dict) and isinstance(inputs.get("prompts"), list):
        text = "\n".join(p for p in inputs["prompts"] if isinstance(p, str))
    return text


def classify_run(run: dict[str, Any], span: Span, agent: bool, seen_inputs: set[str]) -> Step:
    """The :class:`Step` of one run: an agent (``agent`` says so: :func:`_agent_runs`), a model call (``run_type``
    llm), a tool call (tool, retriever), else other (chain, prompt, parser, embedding). The user's words are the
    input of the trace's root run (the goal), and of an agent only the first time they are seen (``seen_inputs``)."""
    from warroom.importers.langsmith._model import model_step, tool_step

    step = Step(span, error=span.status_message)
    run_type = as_text(run.get("run_type")).lower()
    inputs = run.get("inputs")
    if agent:
        text = _user_text(inputs)
        mark_agent(step, span, lc_agent_name(run) or _node_name(run) or span.name,
                   "" if text in seen_inputs else text)
        seen_inputs.add(text)
    elif run_type in MODEL_TYPES:
        model_step(step, run)
    elif run_type in TOOL_TYPES:
        mark_tool(step, span, run.get("name"), None)
        tool_step(step, run, run_type)
        if run.get("end_time") in (None, "") and step.result in (None, {}) and not step.error:
            step.result = UNFINISHED
    else:
        step.kind = OTHER
        if not span.parent_id:
            step.inputs = _user_text(inputs)  # the goal; the first agent still shows it as the user's message
    return step
