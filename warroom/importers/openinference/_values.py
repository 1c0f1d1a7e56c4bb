"""The messages in an LLM span's raw ``output.value`` / ``input.value`` (JSON), for a span that records no
``llm.output_messages`` / ``llm.input_messages``.

An instrumentation that records only the raw response and request leaves JSON there: an OpenAI chat completion
(``{"choices": [{"message": ...}]}``), an OpenAI Responses API response (``{"output": [...]}``), an Anthropic
message (``{"type": "message", "content": [blocks]}``), one message (``{"role", "content"}``), a list of messages,
or a request holding them (``{"messages": [...]}``, Anthropic's or OpenAI's; ``{"input": ...}``, the Responses
API's), or a list of Responses API responses (the OpenAI Agents SDK's streamed Chat Completions call).
:func:`value_messages` reads each as :func:`~warroom.importers.exports.message` reads any chat message
(its text, thinking included, and tool calls; LangChain's ``{"type", "data"}`` messages too), as :mod:`._classify`
reads ``llm.*_messages.N.message.*``; anything else is None, and the value is then kept as text.
"""

from __future__ import annotations

from typing import Any

from warroom.core.files import record_json
from warroom.importers.exports import RESPONSES_ITEMS, Message, message, message_fields, responses_messages


def json_value(value: Any, mime_type: Any) -> Any:
    """``value`` parsed as JSON when it is text that is JSON (``mime_type`` ``application/json``, or text starting
    with ``{`` or ``[``), else None; None too when its text would hold an unpaired UTF-16 surrogate (an escape
    ``\\ud800`` that JSON allows: not a character, no drill file could hold it; the value then stays as written)."""
    if not isinstance(value, str):
        return None
    if mime_type != "application/json" and value.lstrip()[:1] not in ("{", "["):
        return None
    try:
        doc = record_json(value)
    except (ValueError, RecursionError):
        return None
    if "\\u" in value and _holds_unpaired_surrogate(doc):
        return None
    return doc


def _holds_unpaired_surrogate(doc: Any) -> bool:
    """Whether a text (key or value) anywhere in the parsed JSON ``doc`` cannot be encoded as UTF-8."""
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def value_messages(value: Any, mime_type: Any) -> list[Message] | None:
    """The messages of an LLM span's raw ``value`` (see the module's docstring), in order; None when the
    value is not JSON of a shape read here (then it stays as it is)."""
    return _messages_of(json_value(value, mime_type))


def _messages_of(doc: Any) -> list[Message] | None:
    if _responses(doc):  # the Agents SDK's streamed Chat Completions call: the Response it assembled, in a list
        assembled = [m for r in doc for m in _response_items(r["output"]) or []]
        return assembled or None
    if isinstance(doc, list):
        messages = [m for m in (_message(item) for item in doc) if m is not None]
        return messages if messages and len(messages) == len(doc) else _response_items(doc)
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("choices"), list):  # an OpenAI chat completion
        found = [_message(c.get("message")) for c in doc["choices"] if isinstance(c, dict)]
        return [m for m in found if m is not None] or None
    if isinstance(doc.get("output"), list):  # an OpenAI Responses API response
        return _response_items(doc["output"])
    if isinstance(doc.get("messages"), list):  # a request (OpenAI, Anthropic) or a framework's state
        return _messages_of(doc["messages"])
    if isinstance(doc.get("input"), list):  # a Responses API request
        return _messages_of(doc["input"])
    if isinstance(doc.get("input"), str) and ("model" in doc or "instructions" in doc):
        return [Message("user", doc["input"])]
    message = _message(doc)  # one message (an Anthropic message is one too)
    return [message] if message is not None else None


def _responses(doc: Any) -> bool:
    """Whether ``doc`` is a list of OpenAI Responses API responses (``{"object": "response", "output": [...]}``),
    as the OpenAI Agents SDK's Chat Completions model records a streamed call's output."""
    return isinstance(doc, list) and bool(doc) and all(
        isinstance(r, dict) and r.get("object") == "response" and isinstance(r.get("output"), list) for r in doc)


def _message(item: Any) -> Message | None:
    """One message (``{"role", "content", "tool_calls"?}``, or LangChain's: ``{"type", "data"}`` too) as
    :func:`~warroom.importers.exports.message` reads it (the one reader of a chat message: its text parts, thinking,
    tool calls), or None for anything else (a Responses API item, a message whose content is no text or parts)."""
    if not isinstance(item, dict) or ("role" not in item and item.get("type") in RESPONSES_ITEMS):
        return None
    read = message(item)
    return read if read is not None and isinstance(message_fields(item).get("content"), str | list | None) else None


def _response_items(items: list[Any]) -> list[Message] | None:
    """The Responses API's output (or input) items as messages, read by
    :func:`~warroom.importers.exports.responses_messages` (each ``message`` item one message, and each
    ``function_call`` item a tool call of the assistant message it follows, a message of its own if none) and then
    as any message (:func:`_message`); other items are not read here."""
    if not all(isinstance(item, dict) for item in items):
        return None
    read = [item for item in items if item.get("type") == "function_call"
            or (item.get("type") in (None, "message") and _message(item) is not None)]
    out = [m for m in map(_message, responses_messages(read, "output")) if m is not None]
    return out or None


def failed_results(value: Any) -> set[str]:
    """The ids of the tool calls whose results a raw request (``input.value``, JSON) sends as failed: Anthropic's
    ``tool_result`` blocks with ``is_error: true`` (``tool_use_id``) and Bedrock's ``toolResult`` blocks with
    ``status: "error"`` (``toolUseId``), which the flattened ``llm.input_messages`` do not keep (OpenInference's
    Anthropic instrumentor writes the result's text alone)."""
    doc = json_value(value, "application/json") if isinstance(value, str) and "error" in value else None
    listed = doc.get("messages") if isinstance(doc, dict) else None
    failed: set[str] = set()
    for m in listed if isinstance(listed, list) else []:
        content = m.get("content") if isinstance(m, dict) else None
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            bedrock = block.get("toolResult") if isinstance(block.get("toolResult"), dict) else None
            if block.get("type") == "tool_result" and block.get("is_error") is True \
                    and isinstance(block.get("tool_use_id"), str):
                failed.add(block["tool_use_id"])
            elif bedrock is not None and bedrock.get("status") == "error" and isinstance(bedrock.get("toolUseId"), str):
                failed.add(bedrock["toolUseId"])
    return failed
