"""Classified spans (:mod:`._step`) of one trace as drill data: agents, models, plan, trace events on the spans'
own clock. The mapping, field by field, is in docs/importing.md ("The span mapping")."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from warroom.core.files import record_json
from warroom.core.text import is_valid_id
from warroom.importers.kit import MAX_DRILL_TIME, TraceError, TraceOptions, estimate_tokens
from warroom.importers.spans._span import Span
from warroom.importers.spans._step import AGENT, MODEL, OTHER, TOOL, Classifier, Step, unwrap_arguments, unwrap_result

PLANNER_MODEL, EXECUTOR_MODEL = "planner (not in the trace)", "executor (not in the trace)"
USER, TOOLS, EXECUTOR = "user", "tools", "agent"
MAX_TOKENS = 10_000_000
_NOTHING_TO_PLAY = ("no span of this trace is an agent, model call or tool call (OpenTelemetry GenAI spans are read "
                    "by `warroom import otel`, OpenInference spans by `warroom import openinference`)")


class NothingToPlay(TraceError):
    """A trace with no agent, model call or tool call to play: of a file of several traces, the importers leave it
    out (and name it in the drills' ``source``) instead of refusing the file."""


@lru_cache(maxsize=4096)
def agent_id(name: str) -> str:
    """An agent name as an id (letters, digits, ``-``, ``_``, ``.``; at most 80), ``-agent`` added to a name that
    is ``user`` or ``tools`` (the drill's own human and tool host: a LangGraph node named ``tools`` that holds
    another agent's model calls is an agent, not the tool host), as ``import chat`` names its agents."""
    named = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-._")[:80] or "agent"
    return f"{named}-agent" if named in (USER, TOOLS) else named


def nearest_agent(step: Step | None, by_id: dict[str, Step], memo: dict[str, Step | None] | None = None) -> Step | None:
    """The agent step that ``step`` is or runs under (its parents by span id, a cycle ended), or None. With
    ``memo`` (span id to its answer, kept between calls while the parents do not change), each span is walked
    through once, so asking for every span of a deep trace is linear, not quadratic."""
    node = step
    seen: dict[str, None] = {}
    found: Step | None = None
    while node is not None and node.span.span_id not in seen:
        if memo is not None and node.span.span_id in memo:
            found = memo[node.span.span_id]
            break
        if node.kind == AGENT:
            found = node
            break
        seen[node.span.span_id] = None
        node = by_id.get(node.span.parent_id)
    if memo is not None:
        memo.update(dict.fromkeys(seen, found))
    return found


@dataclass
class _Trace:
    steps: list[Step]
    by_id: dict[str, Step]
    t0: int
    #: the events each span became, by span id (for span-level annotations: TRAIL's ``location``)
    span_events: dict[str, list[str]] = field(default_factory=dict)
    #: span id -> the agent step nearest it (:meth:`agent_of`), filled as spans are asked about
    agents: dict[str, Step | None] = field(default_factory=dict)
    #: ("id", call id) or ("tool", name) -> the model calls that asked for it, in the steps' order (:meth:`asker_of`)
    askers: dict[tuple[str, Any], list[Step]] | None = None

    def agent_of(self, step: Step, *, above: bool = False) -> str | None:
        """The name of the agent span nearest ``step`` (itself unless ``above``), walking up the parents once for
        every span of the trace (:func:`nearest_agent`, its answers kept in :attr:`agents`)."""
        agent = nearest_agent(self.by_id.get(step.span.parent_id) if above else step, self.by_id, self.agents)
        return None if agent is None else agent_id(agent.name or agent.span.name)

    def asker_of(self, step: Step) -> str | None:
        """The agent of the latest model call, ending before tool ``step`` starts, that asked for its call (by id,
        else by tool name): a tool that no agent span holds (LangGraph's ToolNode runs beside the agent's node).
        The model calls are indexed by what they asked for once (:attr:`askers`), not scanned for each tool."""
        if self.askers is None:
            self.askers = {}
            for m in (m for m in self.steps if m.kind == MODEL):
                for asked_for in {k for i, n in m.tool_calls_asked for k in (("id", i), ("tool", n))}:
                    self.askers.setdefault(asked_for, []).append(m)
        key: tuple[str, Any] = ("id", step.call_id) if step.call_id else ("tool", step.tool)
        asked = (m for m in reversed(self.askers.get(key, [])) if m.span.end_ns <= step.span.start_ns)
        latest = next(asked, None)
        return self.agent_of(latest) if latest is not None else None

    def latest_caller(self, step: Step) -> str | None:
        """The agent of the latest model call ending before tool ``step`` starts, for a tool that no agent span
        holds and no model call asked for by id or name (its model calls recorded without their output: a
        LangGraph ToolNode's tool under content masking); None when there is none."""
        before = [m for m in self.steps if m.kind == MODEL and m.span.end_ns <= step.span.start_ns]
        return self.agent_of(before[-1]) if before else None

    def t(self, ns: int) -> float:
        t = round((ns - self.t0) / 1e9, 3)
        if t > MAX_DRILL_TIME:
            raise TraceError(f"the trace lasts {t:,.0f} s; drills are limited to {MAX_DRILL_TIME:,.0f} s")
        return t


def _utc(ns: int) -> str:
    """A time in ns since the epoch as ISO 8601 UTC to the second (``1970-01-01T00:00:00Z``)."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ns // 10**9, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _check_span_times(spans: list[Span]) -> None:
    """Raise TraceError, naming the first span to start and the last to end, when the spans of one trace are
    spread over more than the drill clock's limit: almost always one span with a time of 0 (its exporter wrote
    none) or a time in other units than nanoseconds among the others."""
    first = min(spans, key=lambda s: s.start_ns)
    last = max(spans, key=lambda s: s.end_ns)
    if (last.end_ns - first.start_ns) / 1e9 > MAX_DRILL_TIME:
        raise TraceError(
            f"the trace lasts {(last.end_ns - first.start_ns) / 1e9:,.0f} s, from span {first.span_id} "
            f"{first.name[:60]!r} (starts {_utc(first.start_ns)}) to span {last.span_id} {last.name[:60]!r} (ends "
            f"{_utc(last.end_ns)}); drills are limited to {MAX_DRILL_TIME:,.0f} s: is one of these times 0 (not "
            "recorded) or not in nanoseconds?")


def _usage(step: Step) -> dict[str, Any]:
    tokens = (step.input_tokens, step.output_tokens)
    if any(n is not None and n > MAX_TOKENS for n in tokens):
        raise TraceError(f"span {step.span.span_id}: a token count over {MAX_TOKENS:,}")
    if tokens[0] is None and tokens[1] is None:
        return {"input_tokens": estimate_tokens(len(step.inputs)),
                "output_tokens": max(1, estimate_tokens(len(step.content))), "estimated": True}
    return {"input_tokens": tokens[0] or 0, "output_tokens": tokens[1] or 0}


def _model_event(tr: _Trace, step: Step, planner: str | None) -> dict[str, Any]:
    agent = tr.agent_of(step) or (planner or EXECUTOR)
    ev: dict[str, Any] = {"kind": "planner_call" if agent == planner else "executor_message", "agent": agent,
                          "content": step.content or "(the model's output is not in the trace)",
                          "usage": _usage(step)}
    if step.model:
        ev["model"] = step.model
    if step.finish_reason:
        ev["finish_reason"] = step.finish_reason
    return ev


#: A tool result a span did not record (content capture off): never an empty result.
NOT_RECORDED = "(not recorded: the trace holds no result for this tool call; its content was not captured)"
#: The arguments of a tool call whose input the tracer hid or did not capture: never empty arguments (``{}``).
ARGUMENTS_NOT_RECORDED = {"arguments": "(not recorded: the trace holds no arguments for this tool call; its input "
                                       "was hidden or not captured)"}


def _arguments(tr: _Trace, step: Step) -> dict[str, Any]:
    """A tool span's arguments, unwrapped (:func:`~warroom.importers.spans.unwrap_arguments`); one bare value (a
    single-argument LangChain tool records only the value) under the name the model's call gave it (the call of
    its id, else of its tool, that a model call ending before it asked for with that one value)."""
    if list(step.arguments) != ["arguments"]:
        unwrapped = unwrap_arguments(step.arguments)
        return unwrapped if isinstance(unwrapped, dict) else step.arguments
    args = unwrap_arguments(step.arguments["arguments"])
    if isinstance(args, dict):
        return args
    bare = str(step.arguments["arguments"])
    for model in reversed([m for m in tr.steps if m.kind == MODEL and m.span.end_ns <= step.span.start_ns]):
        for call_id, tool in model.tool_calls_asked:
            if call_id != step.call_id and (step.call_id or tool != step.tool):
                continue
            try:
                named = record_json(model.asked_arguments.get(call_id, ""))
            except (ValueError, RecursionError):
                continue
            if isinstance(named, dict) and len(named) == 1 and str(next(iter(named.values()))) == bare:
                return named
    return step.arguments


def _tool_events(tr: _Trace, step: Step, planner: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    call = {"kind": "tool_call", "agent": tr.agent_of(step) or tr.asker_of(step) or tr.latest_caller(step) or EXECUTOR,
            "tool": step.tool or step.span.name, "arguments": _arguments(tr, step)}
    output, failed = unwrap_result(step.result)
    if step.not_recorded:
        output = NOT_RECORDED
    if (step.arguments_hidden or step.not_recorded) and not call["arguments"]:
        call["arguments"] = dict(ARGUMENTS_NOT_RECORDED)
    result: dict[str, Any] = {"kind": "tool_result", "agent": TOOLS,
                              "output": output if output is not None else (step.error or ""),
                              "status": "error" if step.span.error or step.error or failed else "ok",
                              "duration_ms": round((step.span.end_ns - step.span.start_ns) / 1e6, 3)}
    if step.error and output is not None:
        result["output"] = {"result": output, "error": step.error}
    return call, result


def _handoff_message(tr: _Trace, agent: Step) -> str:
    """What an agent span was handed: its own input, else (an agent run as another agent's tool: the Agents SDK's
    ``Agent.as_tool``) the arguments of the tool span it runs under, one text argument as its text."""
    if agent.inputs:
        return agent.inputs
    node, seen = tr.by_id.get(agent.span.parent_id), set()
    while node is not None and node.kind not in (AGENT, TOOL) and node.span.span_id not in seen:
        seen.add(node.span.span_id)
        node = tr.by_id.get(node.span.parent_id)
    if node is None or node.kind != TOOL:  # under no tool, or a cycle of parents
        return ""
    args = _arguments(tr, node)
    texts = [v for v in args.values() if isinstance(v, str)]
    if len(args) == 1 and len(texts) == 1:
        return texts[0]
    return json.dumps(args, ensure_ascii=False) if args else ""


def _agents_with_model_calls(tr: _Trace) -> set[str]:
    """The span ids of the agents some model span runs under (their model calls record what they wrote)."""
    out = set()
    for step in tr.steps:
        agent = nearest_agent(step, tr.by_id, tr.agents) if step.kind == MODEL else None
        if agent is not None:
            out.add(agent.span.span_id)
    return out


def _report_event(agent: str, planner: str | None, report: str) -> dict[str, Any]:
    """An agent's report read from its own span's output (no model span records it): what it wrote, with no usage
    (no model call is recorded, none is estimated)."""
    return {"kind": "planner_call" if agent == planner else "executor_message", "agent": agent, "content": report}


def _raw_events(tr: _Trace, planner: str | None) -> list[tuple[int, int, Step, dict[str, Any]]]:
    """(time ns, order, step, event) for every event the spans make, unsorted; events have no id/t/step yet."""
    out: list[tuple[int, int, Step, dict[str, Any]]] = []
    spoken = _agents_with_model_calls(tr)
    for step in tr.steps:
        s = step.span
        if step.kind == AGENT:
            parent = agent_id(step.graph_parent) if step.graph_parent else tr.agent_of(step, above=True)
            me = agent_id(step.name or s.name)
            if parent and parent != me:
                out.append((s.start_ns, len(out), step, {"kind": "handoff", "agent": parent, "from_agent": parent,
                                                         "to_agent": me, "content": _handoff_message(tr, step)}))
            elif step.inputs and parent is None:
                out.append((s.start_ns, len(out), step, {"kind": "human_message", "agent": USER,
                                                         "content": step.inputs}))
            if step.report and step.span.span_id not in spoken:
                out.append((s.end_ns, len(out), step, _report_event(me, planner, step.report)))
        elif step.kind == MODEL:
            out.append((s.end_ns, len(out), step, _model_event(tr, step, planner)))
        elif step.kind == TOOL:
            call, result = _tool_events(tr, step, planner)
            out.append((s.start_ns, len(out), step, call))
            out.append((s.end_ns, len(out), step, result))
        if step.kind != TOOL and (s.error or step.error):
            out.append((s.end_ns, len(out), step, {"kind": "log", "source": s.service or s.name, "level": "error",
                                                   "content": f"{s.name} failed: {step.error or 'error status'}"}))
    return out


def _ids_and_plan(tr: _Trace, raw: list[tuple[int, int, Step, dict[str, Any]]], planner: str | None
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Give every event its id, time and plan step (a new step at each planner call); link results and batches."""
    raw.sort(key=lambda r: (r[0], r[1]))
    taken: set[str] = set()
    call_event: dict[str, str] = {}  # span id of a tool span -> its tool_call event id
    batch_of: dict[str, str] = {}  # tool call id -> the model event that asked for it with others
    plan: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    asked: list[tuple[str, str]] = []  # (call id, tool) the latest model call asked for, not yet matched
    unnamed: tuple[str | None, list[str]] = (None, [])  # its batch, and the tools it asked for without an id
    # the call ids tool spans record: a call asked for by an id no tool span has (Google ADK names the calls in its
    # output messages by ids of its own, `list_charges_0`, not the `adk-...` ids of its tool spans) is matched by name
    ran = {s.call_id for s in tr.steps if s.kind == TOOL and s.call_id}
    # No planner call in the trace (the planner is not found): each model turn of an agent is a plan step.
    turns = not any(r[3]["kind"] == "planner_call" for r in raw)
    for n, (ns, _, step, ev) in enumerate(raw, 1):
        eid = f"e{n:04d}"
        if ev["kind"] in ("planner_call", "executor_message"):
            asked = list(step.tool_calls_asked)
            unnamed = (eid, [t for i, t in asked if not i or i not in ran]) if len(asked) > 1 else (None, [])
        elif ev["kind"] == "tool_call" and not step.call_id:  # a tool span without its id: the call asked by name
            match = next((c for c in asked if c[1] == step.tool), None)
            if match is not None:
                asked.remove(match)
                step.call_id = match[0]
        if ev["kind"] == "tool_call" and step.call_id and is_valid_id(step.call_id) \
                and step.call_id not in taken and not re.fullmatch(r"e\d{4,}", step.call_id):
            eid = step.call_id
        taken.add(eid)
        if ev["kind"] == "planner_call" or (turns and ev["kind"] == "executor_message"):
            plan.append({"id": f"p{len(plan) + 1:02d}", "title": ev["agent"], "objective": (
                f"What the planner decides in {eid} is carried out correctly." if ev["kind"] == "planner_call" else
                f"What {ev['agent']} asks for in {eid} is done right, and what it says is what the results say.")})
        if ev["kind"] in ("planner_call", "executor_message") and len(step.tool_call_ids) > 1:
            batch_of.update((c, eid) for c in step.tool_call_ids if c)
        if ev["kind"] == "tool_call":
            call_event[step.span.span_id] = eid
            if step.call_id in batch_of:
                ev["batch"] = batch_of[step.call_id]
            elif step.tool in unnamed[1]:  # one of the calls the model asked for without ids (Gemini's): by name
                unnamed[1].remove(step.tool)
                ev["batch"] = unnamed[0]
        elif ev["kind"] == "tool_result":
            ev["call"] = call_event[step.span.span_id]
        tr.span_events.setdefault(step.span.span_id, []).append(eid)
        head = {"id": eid, "t": tr.t(ns)}
        if plan:
            head["step"] = plan[-1]["id"]
        events.append({**head, **ev})
    _title_steps(plan, events)
    return plan, events


def _title_steps(plan: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
    """Title each plan step (its ``title`` holds the agent whose turn opens it) by what the turn does: ``scout
    turn 3: calls list_charges, get_order``, ``lead turn 1: hands off to scout; scout calls erp.list_invoices``,
    ``scout turn 4: replies``."""
    calls: dict[str, dict[str, list[str]]] = {}  # step -> agent -> tools it called, in order
    handoffs: dict[str, list[str]] = {}
    for ev in events:
        if "step" in ev and ev["kind"] == "tool_call":
            tools = calls.setdefault(ev["step"], {}).setdefault(ev["agent"], [])
            if ev["tool"] not in tools:
                tools.append(ev["tool"])
        elif "step" in ev and ev["kind"] == "handoff" and ev["to_agent"] not in handoffs.get(ev["step"], []):
            handoffs.setdefault(ev["step"], []).append(ev["to_agent"])
    turns: dict[str, int] = {}
    for step in plan:
        agent = step["title"]
        turns[agent] = turns.get(agent, 0) + 1
        does = [f"hands off to {', '.join(handoffs[step['id']])}"] if step["id"] in handoffs else []
        by_agent = calls.get(step["id"], {})
        for who in sorted(by_agent, key=lambda a: a != agent):  # the turn's own agent first
            called = by_agent[who]
            more = f" and {len(called) - 3} more" if len(called) > 3 else ""
            does.append(f"{'' if who == agent else who + ' '}calls {', '.join(called[:3])}{more}")
        step["title"] = f"{agent} turn {turns[agent]}: {'; '.join(does) or 'replies'}"


def _models(events: list[dict[str, Any]], options: TraceOptions) -> dict[str, Any]:
    """The planner's first model, the first model of the other agents' calls (the planner's own when they use the
    same: it is in the trace), and the rest as ``others``."""
    planner = next((e["model"] for e in events if e["kind"] == "planner_call" and "model" in e), PLANNER_MODEL)
    executor = next((e["model"] for e in events if e["kind"] == "executor_message" and "model" in e), None)
    names = list(dict.fromkeys(e["model"] for e in events if "model" in e and e["model"] not in (planner, executor)))
    executor = executor or (names.pop(0) if names else EXECUTOR_MODEL)
    models: dict[str, Any] = {"planner": options.price.model(planner), "executor": options.price.model(executor)}
    if names:
        models["others"] = [options.price.model(n) for n in names]
    return models


def _agents(tr: _Trace, events: list[dict[str, Any]], planner: str | None) -> list[dict[str, Any]]:
    used = list(dict.fromkeys(n for e in events for n in (e.get("agent"), e.get("from_agent"), e.get("to_agent"))
                              if n))
    if not used and planner:  # an agent span whose run failed before any model call (a guardrail): only log events
        used = [planner]
    roles = {USER: "human", TOOLS: "tool-host", EXECUTOR: "executor"}
    executor_named = False
    out = []
    for name in used:
        role = "planner" if name == planner else roles.get(name)
        if role is None:
            role = "sub-agent" if executor_named else "executor"
        executor_named = executor_named or role == "executor"
        out.append({"name": name, "role": role})
    return out


def trace_to_drill(spans: list[Span], classify: Classifier, *, options: TraceOptions | None = None,
                   calls_from_models: bool = False) -> dict[str, Any]:
    """The drill parts made from one trace's ``spans`` (sorted by start): ``models``, ``agents``, ``plan``,
    ``trace`` and what the description needs (``goal``, ``tools``, ``ignored_spans``, ``unknown_attributes``, and
    the spans read otherwise than recorded: ``orphans`` whose parent is not in the file, read as roots, and
    ``ended_before_start``, read as ending at their start).
    ``calls_from_models``: a trace with no tool span has the tool calls its model spans asked for
    (:func:`_calls_without_spans`: OTLP traces, where a model client is often instrumented alone; an export of a
    platform's runs records its tools, and a cut-off one is not made up from its model calls).
    Raises TraceError for a trace too long for the drill clock or a token count out of range; NothingToPlay for no
    agent, model or tool span (the other convention's trace, say)."""
    steps = [classify(s) for s in spans]
    if not any(s.kind in (AGENT, MODEL, TOOL) for s in steps):  # error spans alone made a drill of log events
        raise NothingToPlay(_NOTHING_TO_PLAY)
    _check_span_times(spans)
    tr = _Trace(steps, {s.span.span_id: s for s in steps}, min(s.start_ns for s in spans))
    _graph_nodes(tr)
    _graph_parents(tr)
    _handoff_tools(tr)
    _asked_in_order(tr)
    unspanned = _calls_without_spans(tr) if calls_from_models else []
    roots = [s for s in steps if s.kind == AGENT and not s.graph_parent and tr.agent_of(s, above=True) is None]
    planner = agent_id(roots[0].name or roots[0].span.name) if roots else None
    plan, events = _ids_and_plan(tr, _raw_events(tr, planner), planner)
    if not plan:
        plan = [{"id": "p01", "title": "The run", "objective": "The agents do what they were asked."}]
    if not events:
        raise NothingToPlay(_NOTHING_TO_PLAY)
    goal = next((s.inputs for s in steps if s.inputs.strip()), "")
    return {
        "models": _priced(_models(events, options or TraceOptions()), steps),
        "agents": _agents(tr, events, planner),
        "plan": plan,
        "trace": events,
        "goal": goal,
        "tools": sorted({e["tool"] for e in events if e["kind"] == "tool_call"}),
        "ignored_spans": sum(1 for s in steps if s.kind == OTHER and not (s.span.error or s.error)),
        "unknown_attributes": sum(s.unknown for s in steps),
        "orphans": sum(1 for s in spans if s.parent_id and s.parent_id not in tr.by_id),
        "ended_before_start": sum(1 for s in spans if s.ended_before_start),
        "not_recorded": sum(1 for s in steps if s.kind == TOOL and s.not_recorded),
        "unspanned": (len(unspanned), sum(1 for s in unspanned if s.result == NO_TOOL_SPAN)),
        "dropped": _dropped(steps),
        "span_events": tr.span_events,
        "no_model_spans": not any(s.kind == MODEL for s in steps),
        "reports": sum(1 for s in steps if s.kind == AGENT and s.report),
        "costs_recorded": sorted({s.model for s in steps if s.kind == MODEL and s.cost is not None and s.model}),
    }


def _dropped(steps: list[Step]) -> list[str]:
    """The spans that OpenTelemetry's attribute limit cost what the drill shows (``droppedAttributesCount`` on a
    model span without its output or tokens, or a tool span without its arguments or result), each named with what
    it lost: ``span 9f1c… (list_charges): its result (12 attributes dropped)``."""
    out = []
    for s in steps:
        lost = []
        if s.span.dropped_attributes and s.kind == MODEL:
            lost = [w for w, gone in (("its output", not s.content), ("its token counts", s.input_tokens is None
                                                                       and s.output_tokens is None)) if gone]
        elif s.span.dropped_attributes and s.kind == TOOL:
            lost = [w for w, gone in (("its arguments", not s.arguments), ("its result", s.result is None)) if gone]
        if lost:
            out.append(f"span {s.span.span_id} ({s.tool or s.model or s.span.name}): {' and '.join(lost)} "
                       f"({s.span.dropped_attributes} attributes dropped)")
    return out


def _graph_nodes(tr: _Trace) -> None:
    """A graph node is an agent only when a model call is under it and no agent is above it (a router, a tools node
    and a subgraph's nodes are not): the others are made other spans."""
    with_model: set[str] = set()
    for step in tr.steps:
        node = tr.by_id.get(step.span.parent_id) if step.kind == MODEL else None
        while node is not None and node.span.span_id not in with_model:
            with_model.add(node.span.span_id)
            node = tr.by_id.get(node.span.parent_id)
    for step in tr.steps:  # in start order: a node above is decided before the nodes under it
        if step.graph_node and step.kind == AGENT and (
                step.span.span_id not in with_model or tr.agent_of(step, above=True) is not None):
            step.kind = OTHER


def _graph_parents(tr: _Trace) -> None:
    """An agent's ``graph_parent`` that is another agent's graph node id (Agno's instrumentor names the agents by
    ``agent.name`` and their nodes by hex ids) is that agent's name; one that names no agent of the trace, by id or
    by name, is dropped (the agent is handed off to by the agent it runs under, if any), never made an agent."""
    agents = [s for s in tr.steps if s.kind == AGENT]
    by_node = {s.graph_id: s.name for s in agents if s.graph_id and s.name}
    names = {s.name for s in agents}
    for step in agents:
        if step.graph_parent and step.graph_parent not in names:
            step.graph_parent = by_node.get(step.graph_parent)
        if step.graph_parent == step.name:
            step.graph_parent = None


#: Finish reasons that say the model call stopped to have tools called (OpenAI's, Anthropic's, legacy functions, and
#: the GenAI conventions' own `tool_call`, which OpenLLMetry writes).
_ASKS_FOR_TOOLS = frozenset({"tool_calls", "tool_use", "function_call", "tool_call"})


def _asked_in_order(tr: _Trace) -> None:
    """A model call that records no tool call (content capture off) but ended to have tools called, or whose
    turn a span closes as a batch (:attr:`Step.closes_batch`: Gemini says `stop` when it asks for calls): the tool
    spans with their call ids that its agent ran after it, before its agent's next model call, are the calls it
    asked for (so that several make one batch)."""
    models = [s for s in tr.steps if s.kind == MODEL]
    closers = [s for s in tr.steps if s.closes_batch]  # usually none: only they are looked through for each call
    for n, model in enumerate(models):
        if model.tool_calls_asked:
            continue
        agent = tr.agent_of(model)
        until = next((m.span.start_ns for m in models[n + 1:] if tr.agent_of(m) == agent), None)

        turn = (model.span.end_ns, until, agent)
        if model.finish_reason not in _ASKS_FOR_TOOLS and not any(_in_turn(tr, s, turn) for s in closers):
            continue
        ran = [s for s in tr.steps if s.kind == TOOL and _in_turn(tr, s, turn)]
        if ran and all(s.call_id for s in ran):
            model.tool_calls_asked = [(s.call_id or "", s.tool or s.span.name) for s in ran]


#: The result of a tool call that no span records and no later model call was sent.
NO_TOOL_SPAN = ("(not recorded: the trace holds no span of this tool call, and no later model call's input holds "
                "its result)")


def _calls_without_spans(tr: _Trace) -> list[Step]:
    """A trace with no tool span whose model calls asked for tools (the model instrumented alone, or a framework's
    instrumentor that traces no tool, as Haystack's): each call asked for a tool step of its own, from the model
    call's end to its agent's next model call, with the arguments it was asked with and the result that next calls'
    input holds for its id (else :data:`NO_TOOL_SPAN`); the steps added to ``tr``, and returned. The results are
    those of the next call's tool messages that this call was not sent already (a conversation is sent whole each
    time): a call id used again (a server that gives every call the id ``0``) takes the first of them not taken."""
    if any(s.kind == TOOL for s in tr.steps):
        return []
    models = [s for s in tr.steps if s.kind == MODEL]
    asked = Counter(call_id for m in models for call_id, _ in m.tool_calls_asked)
    made: list[Step] = []
    for n, model in enumerate(models):
        agent = tr.agent_of(model)
        nxt = next((m for m in models[n + 1:] if tr.agent_of(m) == agent), None)
        end = max(model.span.end_ns, nxt.span.start_ns) if nxt else model.span.end_ns
        fresh = _new_results(model.told, nxt.told if nxt else [])
        for j, (call_id, tool) in enumerate(model.tool_calls_asked):
            told = next((t for t in fresh if call_id and t[0] == call_id), None)
            if told is not None:
                fresh.remove(told)
            elif (later := _later_result(models[n + 1:], call_id, asked)) is not None:
                told, end = later[0], max(model.span.end_ns, later[1])
            span = Span(model.span.trace_id, f"{model.span.span_id}#{j}", model.span.parent_id, tool or "tool",
                        model.span.end_ns, end if told else model.span.end_ns, {}, service=model.span.service,
                        error=bool(told and told[2]))
            step = Step(span, TOOL, tool=tool or None, call_id=call_id or None,
                        arguments=_asked_arguments(model.asked_arguments.get(call_id or f"#{j}")),
                        result=told[1] if told else NO_TOOL_SPAN)
            tr.by_id[span.span_id] = step
            made.append(step)
    tr.steps.extend(made)
    return made


def _later_result(later: list[Step], call_id: str, asked: Counter[str]) -> tuple[tuple[str, str, bool], int] | None:
    """The result of the call ``call_id`` in the input of the first of the ``later`` model calls that holds it, with
    that call's start: the agent that asked for it is not always the next to call its model (agents the trace does
    not name apart, as Haystack's agents as tools: the asking agent's next call comes after the other's). None when
    none holds it, or when the id is not one call's alone (``asked`` counts each id asked for)."""
    if not call_id or asked[call_id] != 1:
        return None
    return next(((t, m.span.start_ns) for m in later for t in m.told if t[0] == call_id), None)


def _new_results(sent: list[tuple[str, str, bool]], then: list[tuple[str, str, bool]]) -> list[tuple[str, str, bool]]:
    """The tool results of ``then`` (a model call's input) that ``sent`` (the input of the call before it) did not
    hold, in order: each of ``sent`` takes away one equal result of ``then``."""
    left = list(sent)
    fresh = []
    for result in then:
        if result in left:
            left.remove(result)
        else:
            fresh.append(result)
    return fresh


def _asked_arguments(text: str | None) -> dict[str, Any]:
    """The arguments a model call asked a tool with (JSON text): a JSON object as it is, other text kept as
    ``{arguments: TEXT}``, and none recorded (a convention whose output messages this reader does not take them
    from) as :data:`ARGUMENTS_NOT_RECORDED`, never ``{}``."""
    if text is None:
        return dict(ARGUMENTS_NOT_RECORDED)
    try:
        args = record_json(text) if text.strip() else {}
    except (ValueError, RecursionError):
        args = text
    return args if isinstance(args, dict) else {"arguments": text}


def _in_turn(tr: _Trace, step: Step, turn: tuple[int, int | None, str | None]) -> bool:
    """Whether ``step`` starts in the turn ``(after, until, agent)``: from ``after`` (a model call's end) to
    ``until`` (its agent's next model call's start; None: the end), under that agent."""
    after, until, agent = turn
    return step.span.start_ns >= after and (until is None or step.span.start_ns < until) and tr.agent_of(step) == agent


def _handoff_tools(tr: _Trace) -> None:
    """A tool call that hands the run to an agent (:attr:`Step.hands_to`) makes that agent's next span, starting
    after the call and under no other agent, one handed off to by the agent that asked for the call, with the
    call's message (unless the span has its own input)."""
    for tool in [s for s in tr.steps if s.kind == TOOL and s.hands_to]:
        assert tool.hands_to is not None
        target, message = tool.hands_to
        asker = tr.agent_of(tool) or tr.asker_of(tool)
        nxt = next((s for s in tr.steps if s.kind == AGENT and s.span.start_ns >= tool.span.start_ns
                    and agent_id(s.name or s.span.name) == agent_id(target)
                    and tr.agent_of(s, above=True) is None), None)
        if asker and nxt is not None and not nxt.graph_parent and asker != agent_id(target):
            nxt.graph_parent = asker
            nxt.inputs = nxt.inputs or message


def _priced(models: dict[str, Any], steps: list[Step]) -> dict[str, Any]:
    """``models`` with the prices of each model whose calls recorded their cost (``operation.cost``, USD for the
    whole call) scaled so that its calls cost what was recorded: the assumed prices' ratio of input to output is
    kept (a total cost does not say how it splits)."""
    totals: dict[str, list[float]] = {}
    for s in steps:
        if s.kind == MODEL and s.cost is not None and s.model and s.input_tokens is not None \
                and s.output_tokens is not None:
            total = totals.setdefault(s.model, [0.0, 0.0, 0.0])
            total[0] += s.cost
            total[1] += s.input_tokens
            total[2] += s.output_tokens
    for entry in [models["planner"], models["executor"], *models.get("others", [])]:
        cost, n_in, n_out = totals.get(entry["name"], (0.0, 0.0, 0.0))
        assumed = (n_in * entry["input_usd_per_mtok"] + n_out * entry["output_usd_per_mtok"]) / 1e6
        if cost > 0 and assumed > 0:
            factor = cost / assumed
            entry["input_usd_per_mtok"] = round(entry["input_usd_per_mtok"] * factor, 6)
            entry["output_usd_per_mtok"] = round(entry["output_usd_per_mtok"] * factor, 6)
    return models
