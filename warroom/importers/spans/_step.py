"""What a span means for a drill, whatever the convention that says so: the :class:`Step` a classifier makes of a
span (``otel``'s GenAI semantic conventions, ``openinference``'s span kinds)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warroom.core.files import record_json
from warroom.importers.spans._span import Span

AGENT, MODEL, TOOL, OTHER = "agent", "model", "tool", "other"


@dataclass
class Step:
    """A classified span. ``kind`` is agent, model, tool or other; the rest is what the span recorded (None or
    empty when it did not): an agent's ``name``; a model call's ``model``, ``input_tokens``/``output_tokens``,
    output ``content``, ``finish_reason``, the tool calls it asked for as ``(id, tool name)`` (``tool_calls_asked``:
    the name finds the call of a tool span that records no id; their ids: ``tool_call_ids``); a tool's ``tool`` name,
    ``call_id``, ``arguments`` (a mapping) and ``result``; ``inputs``: the first user text the span saw; ``error``:
    the span's error (status message, exception) or empty; ``unknown``: attributes the classifier does not read."""

    span: Span
    kind: str = OTHER
    name: str | None = None
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    content: str = ""
    finish_reason: str | None = None
    tool_calls_asked: list[tuple[str, str]] = field(default_factory=list)
    tool: str | None = None
    call_id: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    inputs: str = ""
    error: str = ""
    unknown: int = 0
    #: a model call's recorded cost, USD (pydantic-ai and Logfire's ``operation.cost``)
    cost: float | None = None
    #: an agent that is a graph's node (LangGraph's ``metadata.langgraph_node`` is its name): an agent only when a
    #: model call is under it and no agent above it
    graph_node: bool = False
    #: the agent that handed off to this one, by name or by its ``graph_id`` (the ``graph.node.parent_id`` of
    #: OpenInference's instrumentors)
    graph_parent: str | None = None
    #: the agent's own node id in the run's graph (``graph.node.id``: the Agents SDK instrumentor's is the agent's
    #: name, Agno's a hex id of its own), which another agent's ``graph_parent`` may name
    graph_id: str | None = None
    #: a tool span that records neither its arguments nor its result (content capture off)
    not_recorded: bool = False
    #: a tool span whose input the tracer hid (``LANGSMITH_HIDE_INPUTS``, ``OPENINFERENCE_HIDE_INPUTS``): its
    #: arguments are not recorded, not empty
    arguments_hidden: bool = False
    #: the arguments of each tool call a model call asked for, by call id (JSON text), for a tool span whose own
    #: input is one bare value; a call without an id by its place among the calls, ``#0``, ``#1``, ...
    asked_arguments: dict[str, str] = field(default_factory=dict)
    #: the tool results a model call was sent (its input's tool messages), each ``(call id, text, failed)``: the
    #: results of calls that no tool span records (the model instrumented alone)
    told: list[tuple[str, str, bool]] = field(default_factory=list)
    #: a span (not a tool call) that closes a turn's parallel tool calls, which its agent ran after its latest model
    #: call (Google ADK's ``(merged tools)``): that model call asked for them, one batch
    closes_batch: bool = False
    #: a tool call that hands the run to another agent, ``(agent name, message)`` (LlamaIndex AgentWorkflow's
    #: ``handoff`` tool): that agent's next span is handed off to by the agent that asked for the call
    hands_to: tuple[str, str] | None = None
    #: an agent span's output as the agent's report (CrewAI's task output, ``raw``): an event of its own only when
    #: no model span under the agent records what it wrote (the agent instrumentor traced alone)
    report: str = ""

    @property
    def tool_call_ids(self) -> list[str]:
        """The ids of the tool calls the model call asked for, in order."""
        return [i for i, _ in self.tool_calls_asked]


Classifier = Callable[[Span], Step]


def count_unknown(span: Span, known: frozenset[str], prefixes: tuple[str, ...] = (),
                  pattern: re.Pattern[str] | None = None) -> int:
    """How many of ``span``'s attributes a classifier does not read: not in ``known``, not starting with one of
    ``prefixes``, not matching ``pattern`` (flattened keys such as ``gen_ai.prompt.0.content``)."""
    return sum(1 for k in span.attributes if k not in known and not (prefixes and k.startswith(prefixes))
               and not (pattern and pattern.match(k)))


def as_text(value: Any) -> str:
    """A value as text: a string as is, None as empty, anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def as_arguments(value: Any) -> dict[str, Any]:
    """Tool-call arguments as a mapping: a mapping as is, JSON text of an object parsed, anything else kept
    verbatim as ``{"arguments": value}``."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            parsed = record_json(value)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    return {} if value is None or (isinstance(value, str) and not value.strip()) else {"arguments": value}


def as_tokens(value: Any) -> int | None:
    """A token count: a whole number (or whole-number text) at least 0, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20:
        value = int(value)
    return value if isinstance(value, int) and value >= 0 else None


#: How a Python traceback starts.
_TRACEBACK = "Traceback (most recent call last)"


def exception_text(span: Span) -> str:
    """The span's exceptions (``exception`` events: ``type: message``; none on a span whose status is OK: they were
    handled), or its error status message."""
    from opentelemetry.semconv.attributes.exception_attributes import EXCEPTION_MESSAGE, EXCEPTION_TYPE

    raised = [] if span.ok else [e for e in span.events if e.name == "exception"]  # OK: the exception was handled
    parts = [": ".join(str(x) for x in (e.attributes.get(EXCEPTION_TYPE), e.attributes.get(EXCEPTION_MESSAGE)) if x)
             for e in raised]
    parts = list(dict.fromkeys(p for p in parts if p))  # one exception recorded twice (smolagents) is said once
    status = span.status_message
    # LangChain's tracer (OpenInference's too) sets the status to the exception's repr glued to its traceback: the
    # same exception as the event's, said once
    said = [str(m) for m in (e.attributes.get(EXCEPTION_MESSAGE) for e in raised) if m]
    if span.error and status and not any(status in p for p in parts) \
            and not (_TRACEBACK in status and any(m in status for m in said)):
        parts.append(status)
    if span.error and not parts:
        parts.append("error (no message)")
    return "; ".join(parts)


def parsed_json(value: Any) -> Any:
    """``value`` parsed when it is JSON text of an object or an array (an attribute recorded as JSON text), else
    ``value`` as it is (text that only looks like JSON too)."""
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "["):
        try:
            return record_json(value)
        except (ValueError, RecursionError):
            return value
    return value


#: The fields of a text content part (MCP's ``TextContent``: ``annotations``, ``_meta``; the Agents SDK's
#: ``ToolOutputText``), whose text is what a model is sent.
_TEXT_PART = frozenset({"type", "text", "annotations", "_meta", "meta"})


def unwrap_result(value: Any) -> tuple[Any, bool]:
    """A tool's result out of the framework's wrapper around it, and whether the wrapper says it failed: LangChain's
    ToolMessage (serialised ``{"lc": 1, "id": [..., "ToolMessage"], "kwargs": {...}}``, ``{"type": "tool", "data":
    {...}}`` or a plain ``{"type": "tool", "content": ...}``) is its ``content`` (``status: error`` a failure);
    LlamaIndex's ToolOutput (``{"content", "tool_name", "raw_input", "raw_output"}``) its ``raw_output``, the
    tool's own result; a text content part (``{"type": "text", "text": ...}``: an MCP tool's ``TextContent``, as
    the Agents SDK records an MCP server's result, and its own ``ToolOutputText``), or a list of them, its text,
    which is what the model was sent. Anything else (a list too: Strands' content blocks, without ``type``, are
    read by the otel importer, which knows its spans) is returned as it is."""
    found = parsed_json(value)
    parts = found if isinstance(found, list) and found else [found]
    if all(isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
           and set(p) <= _TEXT_PART for p in parts):
        return "\n".join(p["text"] for p in parts), False
    if not isinstance(found, dict):
        return value, False
    serialised = isinstance(found.get("id"), list) and found["id"][-1:] == ["ToolMessage"]
    if serialised and isinstance(found.get("kwargs"), dict):
        found = {"type": "tool", **found["kwargs"]}
    if found.get("type") == "tool" and isinstance(found.get("data"), dict):
        found = {"type": "tool", **found["data"]}
    if found.get("type") == "tool" and "content" in found:
        return found["content"], found.get("status") == "error"
    if {"raw_output", "tool_name"} <= found.keys():
        return found["raw_output"], bool(found.get("is_error"))
    return value, False


def unwrap_arguments(value: Any) -> Any:
    """A tool's input out of the framework's wrapper around it: smolagents' ``{"args": [...],
    "sanitize_inputs_outputs": ..., "kwargs": {...}}`` and LlamaIndex's ``{"kwargs": {...}}`` are the keyword
    arguments (with ``args`` when there are positional ones). Anything else is returned as it is."""
    found = parsed_json(value)
    if not isinstance(found, dict) or not isinstance(found.get("kwargs"), dict):
        return value
    if set(found) <= {"args", "kwargs", "sanitize_inputs_outputs"}:
        args = found.get("args")
        return {**found["kwargs"], **({"args": args} if args else {})}
    return value


def begin_step(span: Span, known: frozenset[str], prefixes: tuple[str, ...] = (),
               pattern: re.Pattern[str] | None = None) -> Step:
    """The :class:`Step` of ``span`` before its kind is known: its count of attributes neither in ``known``, nor
    under one of ``prefixes``, nor matching ``pattern`` (:func:`~warroom.importers.spans.count_unknown`), and
    its exception text ("" when it raised none)."""
    return Step(span, unknown=count_unknown(span, known, prefixes, pattern=pattern), error=exception_text(span))


def mark_agent(step: Step, span: Span, name: Any, inputs: str) -> None:
    """Make ``step`` an agent named ``name`` (as text; the span's name when empty) whose input is ``inputs``."""
    step.kind = AGENT
    step.name = as_text(name) or span.name
    step.inputs = inputs


def mark_tool(step: Step, span: Span, tool: Any, call_id: Any) -> None:
    """Make ``step`` a call of tool ``tool`` (as text; the span's name when empty) with the tool-call id
    ``call_id`` (as text; None when empty). The caller sets its arguments and result."""
    step.kind = TOOL
    step.tool = as_text(tool) or span.name
    step.call_id = as_text(call_id) or None


def command_handoff(step: Step, value: Any) -> None:
    """When a tool's result ``value`` (a mapping, or JSON text of one) is the ``Command(goto=AGENT,
    graph=Command.PARENT, update={"messages": [...]})`` that the handoff tools of LangGraph's multi-agent graphs
    return: the call hands the run to AGENT (:attr:`Step.hands_to`), and its result is the tool message the update
    adds (``Transferred to executor``; a LangChain message dict, or ``messages_to_dict``'s ``{"type", "data"}``)."""
    command = parsed_json(value)
    if not isinstance(command, dict) or command.get("graph") != "__parent__" or not isinstance(
            command.get("goto"), str) or not command["goto"]:
        return
    step.hands_to = (command["goto"], "")
    update = command.get("update")
    said = update.get("messages") if isinstance(update, dict) else None
    for m in said if isinstance(said, list) else []:
        body = m.get("data", m) if isinstance(m, dict) else None
        if isinstance(body, dict) and "tool" in (m.get("type"), body.get("type")) \
                and isinstance(body.get("content"), str) and body["content"]:
            step.result = body["content"]
            return


def langgraph_subgraph(meta: Any, name: str) -> str | None:
    r"""The node of the parent graph that the LangGraph node ``name`` of a subgraph runs in, by the run's LangGraph
    ``meta``\ data (``langgraph_node`` ``name``, ``langgraph_checkpoint_ns`` ``planner:<id>|agent:<id>``:
    ``planner``), as each agent of LangGraph's multi-agent graphs is a `create_react_agent` subgraph whose model
    node is ``agent``; None for a node of the top graph, or no LangGraph node."""
    ns = meta.get("langgraph_checkpoint_ns") if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or meta.get("langgraph_node") != name or not isinstance(ns, str) or "|" not in ns:
        return None
    return ns.split("|")[-2].split(":")[0] or None
