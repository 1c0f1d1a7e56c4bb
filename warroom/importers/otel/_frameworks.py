"""GenAI spans as two widely used instrumentations write them where they leave the conventions' names out.

- **OpenLLMetry** (traceloop): its decorators' spans carry ``traceloop.span.kind`` (``workflow``, ``task``,
  ``agent``, ``tool``), ``traceloop.entity.name`` and the function's call and return value as JSON,
  ``traceloop.entity.input`` (``{"args": [...], "kwargs": {...}}``) and ``traceloop.entity.output``; no
  ``gen_ai.operation.name``. An ``agent`` span is an agent, a ``tool`` span a tool call.
- **Pydantic AI** (instrumentation version 2, as Logfire shows it): the agent run span ``agent run`` names its
  agent in ``agent_name``; the tool span ``running tool`` has ``gen_ai.tool.name`` and ``gen_ai.tool.call.id`` but
  no operation name (recent releases add ``execute_tool``), and its arguments and result in ``tool_arguments`` /
  ``tool_response``; an agent run's messages are in ``pydantic_ai.all_messages``, the first user message its task.
  Version 1 (and Logfire's ``event_mode="attributes"``) put the message events in one ``events`` attribute, a JSON
  list of ``{"event.name": "gen_ai.user.message", ...}``: they are read as the span events they stand for.

- **Semantic Kernel**: a model span's finish reason is ``gen_ai.response.finish_reason`` (one, not the conventions'
  list), written as its Python enum's text (``FinishReason.TOOL_CALLS``).
- **Google ADK**: after a turn's parallel tool calls it adds an ``execute_tool`` span named ``(merged tools)``
  (the event that merges their responses; it calls no tool), and its ``transfer_to_agent`` tool
  (``{"agent_name": ...}``) hands the run to another agent, as Strands Agents' Swarm's ``handoff_to_agent``
  (``{"agent_name", "message", "context"}``) does.

The names are these tools' own, not the ``opentelemetry-semantic-conventions`` package's, so they are written out.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from warroom.core.files import record_json
from warroom.importers.otel._messages import messages_text
from warroom.importers.spans import Span, SpanEvent, as_arguments, as_text, parsed_json

TRACELOOP_KIND, ENTITY_NAME = "traceloop.span.kind", "traceloop.entity.name"
ENTITY_INPUT, ENTITY_OUTPUT = "traceloop.entity.input", "traceloop.entity.output"
PYDANTIC_AGENT, PYDANTIC_ARGUMENTS, PYDANTIC_RESULT = "agent_name", "tool_arguments", "tool_response"
PYDANTIC_MESSAGES = "pydantic_ai.all_messages"
EVENTS = "events"
#: The attributes read here (not counted as unknown).
KNOWN = frozenset({TRACELOOP_KIND, ENTITY_NAME, ENTITY_INPUT, ENTITY_OUTPUT, PYDANTIC_AGENT, PYDANTIC_ARGUMENTS,
                   PYDANTIC_RESULT, PYDANTIC_MESSAGES, EVENTS})
#: Span names of Pydantic AI's agent runs (version 2 ``agent run``; later ``invoke_agent NAME``).
_AGENT_SPAN_NAMES = ("agent run", "invoke_agent")


def with_attribute_events(span: Span) -> Span:
    """``span`` with the events of its ``events`` attribute (a JSON list of objects with ``event.name``) added as
    span events at its start; the span itself when it has none."""
    raw = span.attributes.get(EVENTS)
    try:
        listed = record_json(raw) if isinstance(raw, str) else None
    except (ValueError, RecursionError):
        listed = None
    if not isinstance(listed, list):
        return span
    extra = [SpanEvent(e["event.name"], span.start_ns, {k: v for k, v in e.items() if k != "event.name"})
             for e in listed if isinstance(e, dict) and isinstance(e.get("event.name"), str)]
    return dataclasses.replace(span, events=[*span.events, *extra]) if extra else span


def is_tool(span: Span, tool_name: Any) -> bool:
    """A span without an operation name that is a tool call: OpenLLMetry's ``tool`` span, or one that names its
    tool (``gen_ai.tool.name``: Pydantic AI's ``running tool``)."""
    return span.attributes.get(TRACELOOP_KIND) == "tool" or bool(as_text(tool_name))


def agent_name(span: Span, named: Any) -> str | None:
    """The agent a span without an operation name runs: OpenLLMetry's ``agent`` span (its entity name), or
    Pydantic AI's agent run span (``gen_ai.agent.name``, given as ``named``, else ``agent_name``); else None."""
    a = span.attributes
    if a.get(TRACELOOP_KIND) == "agent":
        return as_text(a.get(ENTITY_NAME)) or span.name
    if span.name.startswith(_AGENT_SPAN_NAMES):
        return as_text(named) or as_text(a.get(PYDANTIC_AGENT)) or None
    return None


def first_user_text(span: Span) -> str:
    """The first user message of Pydantic AI's ``pydantic_ai.all_messages`` (the run's task); empty without one."""
    raw = span.attributes.get(PYDANTIC_MESSAGES)
    try:
        listed = record_json(raw) if isinstance(raw, str) else raw
    except (ValueError, RecursionError):
        return ""
    first = next((m for m in listed if isinstance(m, dict) and m.get("role") == "user"), None) \
        if isinstance(listed, list) else None
    return messages_text([first], "user") if first else ""


def _entity_call(value: Any) -> dict[str, Any] | None:
    """OpenLLMetry's ``traceloop.entity.input`` (``{"args": [...], "kwargs": {...}}``, JSON) as arguments: the
    keyword arguments, with the positional ones as ``args`` when there are any; None when it is not that shape."""
    try:
        parsed = record_json(value) if isinstance(value, str) else value
    except (ValueError, RecursionError):
        return None
    if not (isinstance(parsed, dict) and {"args", "kwargs"} >= set(parsed) and parsed):
        return None
    args, kwargs = parsed.get("args") or [], parsed.get("kwargs") or {}
    out = dict(kwargs) if isinstance(kwargs, dict) else {"kwargs": kwargs}
    if args:
        out["args"] = args
    return out


def entity_input_text(span: Span) -> str:
    """What an OpenLLMetry agent span was asked: the one text argument of its call, else the call as JSON."""
    call = _entity_call(span.attributes.get(ENTITY_INPUT))
    if call is None:
        return as_text(span.attributes.get(ENTITY_INPUT))
    texts = [v for v in [*call.get("args", []), *(v for k, v in call.items() if k != "args")] if isinstance(v, str)]
    return texts[0] if len(texts) == 1 else as_text(call)


def tool_arguments(span: Span) -> dict[str, Any] | None:
    """A tool span's arguments in these tools' names (``tool_arguments``, ``traceloop.entity.input``), or None."""
    a = span.attributes
    if a.get(PYDANTIC_ARGUMENTS) is not None:
        return as_arguments(a[PYDANTIC_ARGUMENTS])
    if a.get(ENTITY_INPUT) is not None:
        return _entity_call(a[ENTITY_INPUT]) or as_arguments(a[ENTITY_INPUT])
    return None


def tool_result(span: Span) -> Any:
    """A tool span's result in these tools' names (``tool_response``, ``traceloop.entity.output``), verbatim, or
    None."""
    a = span.attributes
    return a.get(PYDANTIC_RESULT, a.get(ENTITY_OUTPUT))


#: ``gen_ai.system`` (later ``gen_ai.provider.name``) on Strands Agents' spans.
STRANDS = "strands-agents"


def is_strands(span: Span) -> bool:
    """A span Strands Agents wrote (its tool results are Bedrock Converse content blocks)."""
    a = span.attributes
    return STRANDS in (a.get("gen_ai.system"), a.get("gen_ai.provider.name"))


def content_blocks(value: Any) -> Any:
    """A Strands tool result out of its Bedrock Converse content blocks: the text of ``[{"text": str}, ...]``
    joined by newlines, one ``[{"json": ...}]`` block's value; ``value`` as it is when it is anything else. Only
    for Strands' spans: another producer's list of ``{"text": ...}`` objects is its tool's own result."""
    blocks = parsed_json(value)
    if not isinstance(blocks, list):
        return value
    if blocks and all(isinstance(b, dict) and len(b) == 1 and isinstance(b.get("text"), str) for b in blocks):
        return "\n".join(b["text"] for b in blocks)
    if len(blocks) == 1 and isinstance(blocks[0], dict) and blocks[0].keys() == {"json"}:
        return blocks[0]["json"]
    return value


#: Google ADK's name for the span of the event that merges a turn's parallel tool responses.
ADK_MERGED_TOOLS = "(merged tools)"
#: The tools that hand the run to the agent their ``agent_name`` argument names: Google ADK's, Strands' Swarm's.
HANDOFF_TOOLS = ("transfer_to_agent", "handoff_to_agent")


def is_adk_merged_tools(span: Span) -> bool:
    """Google ADK's ``(merged tools)`` span: the merge of a turn's parallel tool responses, not a tool call."""
    return span.attributes.get("gen_ai.tool.name") == ADK_MERGED_TOOLS


def handoff_call(tool: str | None, arguments: Any) -> tuple[str, str] | None:
    """The agent that a call of Google ADK's ``transfer_to_agent`` (``{"agent_name": AGENT}``) or Strands' Swarm's
    ``handoff_to_agent`` (``{"agent_name": AGENT, "message": ...}``) hands the run to, with its message, as
    :attr:`~warroom.importers.spans.Step.hands_to`; None for any other call."""
    target = arguments.get("agent_name") if tool in HANDOFF_TOOLS and isinstance(arguments, dict) else None
    if not isinstance(target, str) or not target.strip():
        return None
    message = arguments.get("message")
    return target, message if isinstance(message, str) else ""


#: Semantic Kernel's finish reason of a model span, and the prefix of its enum's text.
SK_FINISH_REASON, _SK_ENUM = "gen_ai.response.finish_reason", "FinishReason."


def sk_finish_reason(span: Span) -> str | None:
    """Semantic Kernel's ``gen_ai.response.finish_reason`` as the finish reason it names (``FinishReason.TOOL_CALLS``:
    ``tool_calls``), None when the span has none."""
    said = span.attributes.get(SK_FINISH_REASON)
    said = said.strip() if isinstance(said, str) else ""
    return said.removeprefix(_SK_ENUM).lower() if said.startswith(_SK_ENUM) else said or None
