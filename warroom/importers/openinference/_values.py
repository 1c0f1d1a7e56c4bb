"""The messages in an LLM span's raw ``output.value`` / ``input.value`` (JSON), for a span that records no
``llm.output_messages`` / ``llm.input_messages``.

An instrumentation that records only the raw response and request leaves JSON there: an OpenAI chat completion
(``{"choices": [{"message": ...}]}``), an OpenAI Responses API response (``{"output": [...]}``), an Anthropic
message (``{"type": "message", "content": [blocks]}``), one message (``{"role", "content"}``), a list of messages,
or a request holding them (``{"messages": [...]}``, Anthropic's or OpenAI's; ``{"input": ...}``, the Responses
API's), or a list of Responses API responses (the OpenAI Agents SDK's streamed Chat Completions call).
:func:`value_messages` reads each as the flattened messages :mod:`._classify` reads from
``llm.*_messages.N.message.*``: a mapping with ``role``, ``content`` (text) or ``contents.K.message_content.*``
(text parts), and ``tool_calls.M.tool_call.{id,function.name,function.arguments}``; anything else is None, and the
value is then kept as text.
"""

from __future__ import annotations

from typing import Any

from warroom.core.files import record_json
from warroom.importers.exports import responses_messages
from warroom.importers.spans import as_text

#: Part types whose ``text`` is message text (OpenAI chat and Responses API, Anthropic).
_TEXT_PARTS = ("text", "output_text", "input_text")
#: Part / item types that are a tool call: Anthropic's ``tool_use``, the Responses API's ``function_call``.
_CALL_PARTS = frozenset({"tool_use", "function_call"})


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


def value_messages(value: Any, mime_type: Any) -> list[dict[str, Any]] | None:
    """The flattened messages of an LLM span's raw ``value`` (see the module's docstring), in order; None when the
    value is not JSON of a shape read here (then it stays as it is)."""
    return _messages_of(json_value(value, mime_type))


def _messages_of(doc: Any) -> list[dict[str, Any]] | None:
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
        return [{"role": "user", "content": doc["input"]}]
    message = _message(doc)  # one message (an Anthropic message is one too)
    return [message] if message is not None else None


def _responses(doc: Any) -> bool:
    """Whether ``doc`` is a list of OpenAI Responses API responses (``{"object": "response", "output": [...]}``),
    as the OpenAI Agents SDK's Chat Completions model records a streamed call's output."""
    return isinstance(doc, list) and bool(doc) and all(
        isinstance(r, dict) and r.get("object") == "response" and isinstance(r.get("output"), list) for r in doc)


#: LangChain's message types (``messages_to_dict``: ``{"type", "data"}``, as LangGraph's state is recorded) as roles.
_LANGCHAIN_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def _message(item: Any) -> dict[str, Any] | None:
    """One message (``{"role", "content", "tool_calls"?}``, or LangChain's ``{"type", "data"}``) flattened, or None
    for anything else."""
    if isinstance(item, dict) and "role" not in item and isinstance(item.get("data"), dict) \
            and isinstance(item.get("type"), str) and item["type"] in _LANGCHAIN_ROLES:
        item = {**item["data"], "role": _LANGCHAIN_ROLES[item["type"]]}
    if not isinstance(item, dict) or not isinstance(item.get("role"), str):
        return None
    content = item.get("content")
    if content is not None and not isinstance(content, (str, list)):
        return None
    flat: dict[str, Any] = {"role": item["role"]}
    calls: list[tuple[Any, Any, Any]] = []
    if isinstance(content, str):
        flat["content"] = content
    elif isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and _kind(p) in _TEXT_PARTS
                 and isinstance(p.get("text"), str)]
        for k, text in enumerate(texts):
            flat[f"contents.{k}.message_content.type"] = "text"
            flat[f"contents.{k}.message_content.text"] = text
        calls += [_part_call(p) for p in content if isinstance(p, dict) and _kind(p) in _CALL_PARTS]
    listed = item.get("tool_calls")
    for call in listed if isinstance(listed, list) else []:  # OpenAI chat: {"id", "function": {"name", ...}}
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            calls.append((call.get("id"), call["function"].get("name"), call["function"].get("arguments")))
    legacy = item.get("function_call")
    if not calls and isinstance(legacy, dict):
        calls.append((None, legacy.get("name"), legacy.get("arguments")))
    for m, (call_id, name, arguments) in enumerate(calls):
        head = f"tool_calls.{m}.tool_call."
        flat[head + "id"] = call_id if isinstance(call_id, str) else ""
        flat[head + "function.name"] = name if isinstance(name, str) else ""
        flat[head + "function.arguments"] = as_text(arguments)
    return flat


def _kind(part: dict[str, Any]) -> str | None:
    """A part's or item's ``type`` when it is text, else None (a list or an object there is no type read here)."""
    kind = part.get("type")
    return kind if isinstance(kind, str) else None


def _part_call(part: dict[str, Any]) -> tuple[Any, Any, Any]:
    """``(id, name, arguments)`` of Anthropic's ``tool_use`` part or the Responses API's ``function_call`` item."""
    if part.get("type") == "function_call":
        return part.get("call_id") or part.get("id"), part.get("name"), part.get("arguments")
    return part.get("id"), part.get("name"), part.get("input")


def _response_items(items: list[Any]) -> list[dict[str, Any]] | None:
    """The Responses API's output (or input) items as messages, read by
    :func:`~warroom.importers.exports.responses_messages` (each ``message`` item one message, and each
    ``function_call`` item a tool call of the assistant message it follows, a message of its own if none) and then
    flattened; other items are not read here."""
    if not all(isinstance(item, dict) for item in items):
        return None
    read = [item for item in items if item.get("type") == "function_call"
            or (item.get("type") in (None, "message") and _message(item) is not None)]
    out = [m for m in map(_message, responses_messages(read, "output")) if m is not None]
    return out or None
