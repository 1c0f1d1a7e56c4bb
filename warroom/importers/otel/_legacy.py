"""What the older GenAI conventions (≤ 1.36) put in span events and flattened attributes, read back as text.

Three shapes, as instrumentations of that time recorded them:

- 1.26-1.27: a ``gen_ai.content.prompt`` event whose ``gen_ai.prompt`` attribute is the prompt's messages as JSON,
  and a ``gen_ai.content.completion`` event whose ``gen_ai.completion`` is the completion's;
- 1.28-1.36 (as span events): one event per message, ``gen_ai.system.message``, ``gen_ai.user.message``,
  ``gen_ai.assistant.message``, ``gen_ai.tool.message`` (``content``, ``id``), and ``gen_ai.choice`` (``index``,
  ``finish_reason``, ``message``: the assistant message, JSON with ``content`` and ``tool_calls``, or plain text);
  an ``execute_tool`` span's arguments in its ``gen_ai.tool.message`` event and its result in its ``gen_ai.choice``;
- OpenLLMetry's flattened attributes ``gen_ai.prompt.N.role`` / ``.content``, ``gen_ai.completion.N.role`` /
  ``.content`` / ``.finish_reason`` / ``.tool_calls.M.id`` / ``.name`` / ``.arguments``.

Messages may be chat-completions messages (``content`` a string or a list of content blocks, ``tool_calls``
``[{id, function: {name, arguments}}]``) or lists of content blocks (text blocks, and tool-use blocks: Bedrock's
``toolUse``, Anthropic's ``tool_use``). Text is kept verbatim; a tool call is shown as ``[tool call NAME ARGS]``.
The event names are not in the ``opentelemetry-semantic-conventions`` package, so they are written out here.
"""

from __future__ import annotations

import re
from typing import Any

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as ga

from warroom.importers.exports import call_form
from warroom.importers.spans import Span, as_arguments, as_text, parsed_json

#: The flattened message attributes (read; not counted as unknown).
FLAT = re.compile(r"^gen_ai\.(prompt|completion)\.([0-9]{1,9})\."
                  r"(role|content|finish_reason|tool_call_id|tool_calls\.([0-9]{1,9})\.(id|name|arguments))$")
PROMPT_EVENT, COMPLETION_EVENT = "gen_ai.content.prompt", "gen_ai.content.completion"
USER_EVENT, TOOL_EVENT, CHOICE_EVENT = "gen_ai.user.message", "gen_ai.tool.message", "gen_ai.choice"


def _blocks(content: Any) -> tuple[list[str], list[dict[str, Any]]] | None:
    """A list of content blocks (JSON text or a list) as ``(texts, tool calls)``: text blocks (``{"text": ...}``,
    ``{"type": "text", "text"|"content": ...}``) and tool-use blocks (each as
    :func:`~warroom.importers.exports.call_form` gives it); None when ``content`` is anything else."""
    blocks = parsed_json(content)
    if not (isinstance(blocks, list) and blocks and all(isinstance(b, dict) for b in blocks)):
        return None
    texts, calls = [], []
    for b in blocks:
        if isinstance(b.get("toolUse"), dict) or b.get("type") in ("tool_use", "tool_call", "function_call"):
            calls.append(call_form(b))
        elif b.get("type", "text") == "text" and isinstance(b.get("text", b.get("content")), str):
            texts.append(b.get("text", b.get("content")))
        else:
            return None
    return texts, calls


def _content_text(content: Any) -> str:
    """A message's ``content``: a string verbatim, or the texts of a list of content blocks, else JSON."""
    blocks = _blocks(content)
    if blocks is not None:
        return "\n".join(blocks[0])
    return content if isinstance(content, str) else as_text(content)


def _parts(message: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """One message (a mapping with ``content`` and ``tool_calls``, a list of content blocks, JSON of either, or
    plain text) as ``(texts, tool calls)``."""
    raw, message = message, parsed_json(message)
    if isinstance(message, dict) and {"content", "tool_calls", "role"} & set(message):
        content, listed = message.get("content"), parsed_json(message.get("tool_calls"))
        blocks = _blocks(content)
        texts = blocks[0] if blocks else [] if content in (None, "", []) else [_content_text(content)]
        calls = [call_form(c) for c in (listed if isinstance(listed, list) else []) if isinstance(c, dict)]
        return texts, calls + (blocks[1] if blocks else [])
    blocks = _blocks(message)
    if blocks is not None:
        return blocks
    if raw in (None, "") or message in ({}, []):  # nothing recorded (content capture off)
        return [], []
    return [as_text(raw)], []  # text verbatim, as the span recorded it


def _message_text(message: Any) -> str:
    """One message as text (see :func:`_parts`): its texts, then its tool calls as ``[tool call NAME ARGS]``."""
    texts, calls = _parts(message)
    shown = [f"[tool call {as_text(c['function'].get('name'))} {as_text(c['function'].get('arguments'))}]"
             .replace(" ]", "]") for c in calls]  # fmt: skip
    return "\n".join([*texts, *shown])


def _messages(value: Any) -> list[dict[str, Any]] | None:
    """A JSON list of messages as mappings, or None when ``value`` is not one."""
    value = parsed_json(value)
    if isinstance(value, list) and all(isinstance(m, dict) for m in value):
        return value
    return None


def _flat(span: Span, kind: str) -> dict[int, dict[str, Any]]:
    """The flattened ``gen_ai.<kind>.N.*`` attributes as messages by index (``tool_calls`` rebuilt)."""
    out: dict[int, dict[str, Any]] = {}
    for key, value in span.attributes.items():
        m = FLAT.match(key)
        if not m or m.group(1) != kind:
            continue
        message = out.setdefault(int(m.group(2)), {})
        if m.group(4) is None:
            message[m.group(3)] = value
        else:
            calls = message.setdefault("tool_calls", {})
            calls.setdefault(int(m.group(4)), {})[m.group(5)] = value
    for message in out.values():
        if "tool_calls" in message:
            message["tool_calls"] = [message["tool_calls"][i] for i in sorted(message["tool_calls"])]
    return dict(sorted(out.items()))


def _events(span: Span, name: str) -> list[dict[str, Any]]:
    return [e.attributes for e in span.events if e.name == name]


def prompt_text(span: Span) -> str:
    """The user text a span saw: the ``user`` messages of the ``gen_ai.content.prompt`` event (its raw value when
    it is not a message list), else of the flattened ``gen_ai.prompt.N.*`` attributes (all of them when none has a
    role), else the ``gen_ai.user.message`` events' ``content``; empty when there is none."""
    for attrs in _events(span, PROMPT_EVENT):
        if attrs.get(ga.GEN_AI_PROMPT) is not None:
            messages = _messages(attrs[ga.GEN_AI_PROMPT])
            if messages is None:
                return as_text(attrs[ga.GEN_AI_PROMPT])
            return "\n".join(t for m in messages if m.get("role") == "user" and (t := _message_text(m)))
    flat = list(_flat(span, "prompt").values())
    if flat:
        users = [m for m in flat if m.get("role") == "user"] if any("role" in m for m in flat) else flat
        return "\n".join(t for m in users if (t := _message_text(m)))
    return "\n".join(t for a in _events(span, USER_EVENT) if (t := _content_text(a.get("content") or "")))


def _completions(span: Span) -> list[Any]:
    """The completion's messages, from whichever older shape the span has (see :func:`completion_text`)."""
    for attrs in _events(span, COMPLETION_EVENT):
        if attrs.get(ga.GEN_AI_COMPLETION) is not None:
            messages = _messages(attrs[ga.GEN_AI_COMPLETION])
            return [attrs[ga.GEN_AI_COMPLETION]] if messages is None else messages
    flat = list(_flat(span, "completion").values())
    if flat:
        return flat
    return [a.get("message", a.get("content")) for a in _events(span, CHOICE_EVENT)
            if a.get("message", a.get("content")) is not None]


def completion_text(span: Span) -> str:
    """A model span's output under the older conventions: the ``gen_ai.content.completion`` event's messages, else
    the flattened ``gen_ai.completion.N.*`` attributes, else the ``gen_ai.choice`` events' ``message``; each
    message's text, then its tool calls as ``[tool call NAME ARGS]``; empty when there is none."""
    return "\n".join(t for m in _completions(span) if (t := _message_text(m)))


def completion_tool_calls(span: Span) -> list[tuple[str, str]]:
    """``(id, tool name)`` of the tool calls the completion asked for (see :func:`completion_text` for where)."""
    return [(c["id"], as_text(c["function"].get("name"))) for m in _completions(span) for c in _parts(m)[1]
            if isinstance(c["id"], str) and c["id"]]


def finish_reason(span: Span) -> str | None:
    """The first ``gen_ai.choice`` event's ``finish_reason``, else the flattened
    ``gen_ai.completion.0.finish_reason``; None when neither is a non-empty string."""
    reasons = [a.get("finish_reason") for a in _events(span, CHOICE_EVENT)]
    reasons.append(span.attributes.get("gen_ai.completion.0.finish_reason"))
    return next((r for r in reasons if isinstance(r, str) and r.strip()), None)


def tool_arguments(span: Span) -> dict[str, Any]:
    """An ``execute_tool`` span's arguments from its ``gen_ai.tool.message`` event's ``content`` (a mapping; see
    :func:`~warroom.importers.spans.as_arguments`); empty when it has none."""
    return next((as_arguments(a["content"]) for a in _events(span, TOOL_EVENT) if a.get("content") is not None), {})


def tool_result(span: Span) -> Any:
    """An ``execute_tool`` span's result from its ``gen_ai.choice`` event's ``message`` (else ``content``),
    verbatim; None when it has none."""
    return next((a.get("message", a.get("content")) for a in _events(span, CHOICE_EVENT)
                 if a.get("message", a.get("content")) is not None), None)
