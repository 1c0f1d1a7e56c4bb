"""GenAI messages (``gen_ai.input.messages`` / ``gen_ai.output.messages``: ``{role, parts}`` or ``{role,
content}``) as the text a drill shows (:func:`messages_text`), and the tool calls the output messages ask for
(:func:`message_tool_calls`)."""

from __future__ import annotations

from typing import Any

from warroom.core.files import record_json
from warroom.importers.exports import call_form, gemini_answer, gemini_call, part_text
from warroom.importers.spans import as_text


def messages_text(value: Any, role: str | None = None) -> str:
    """Text of a GenAI messages value (a JSON string or a list of ``{role, parts: [{type, content}]}`` or
    ``{role, content}``), only the messages of ``role`` when given (of ``user`` messages, not their
    ``tool_call_response`` parts: tool results, which Pydantic AI sends in user messages); text parts verbatim,
    joined by newlines."""
    if isinstance(value, str):
        try:
            value = record_json(value)
        except (ValueError, RecursionError):
            return value if role is None else ""
    texts: list[str] = []
    for m in value if isinstance(value, list) else []:
        if not isinstance(m, dict) or (role is not None and m.get("role") != role):
            continue
        if isinstance(m.get("content"), str):
            texts.append(m["content"])
        parts = _message_parts(m)
        if role == "user":  # the user's words: not the tool results that some (Pydantic AI) send in a user message
            parts = [p for p in parts if not (isinstance(p, dict) and p.get("type") == "tool_call_response")
                     and gemini_answer(p) is None]  # Gemini's functionResponse parts too
        texts.extend(t for t in map(_part_text, parts) if t is not None)
    return "\n".join(texts)


def _message_parts(m: dict[str, Any]) -> list[Any]:
    """A GenAI message's ``parts`` (or its ``content`` when that is the list of parts, as some instrumentations write
    the newer conventions' messages: ``{"role", "content": [{"type": "text", "content": ...}]}``), then the tool
    calls of a message in OpenAI's chat-completions shape (``tool_calls`` of ``{"id", "function": {"name",
    "arguments"}}``, as AG2's telemetry records the model's output) as ``tool_call`` parts."""
    listed = m.get("parts") if isinstance(m.get("parts"), list) else m.get("content")
    parts: list[Any] = list(listed) if isinstance(listed, list) else []
    calls = m.get("tool_calls")
    for c in calls if isinstance(calls, list) else []:
        form = call_form(c) if isinstance(c, dict) else None
        if form is not None and isinstance(form["function"], dict):
            parts.append({"type": "tool_call", "id": form.get("id"), "name": form["function"].get("name"),
                          "arguments": form["function"].get("arguments")})
    return parts


def _part_text(p: Any) -> str | None:
    """One part of a GenAI message as text, as the one reader of a content part shows it
    (:func:`~warroom.importers.exports.part_text`: ``[tool call NAME ARGS]``, ``[uri part image image/jpeg
    https://...]``...); a Gemini ``functionCall`` part (google-genai's Content as recorded) as a tool call."""
    call = gemini_call(p)
    return part_text({"type": "tool_call", "name": call.get("name"), "arguments": call.get("args")} if call else p)


def message_tool_calls(value: Any) -> list[tuple[str, str]]:
    """``(id, tool name)`` of the ``tool_call`` parts of GenAI output messages (a JSON string or a list)."""
    calls = []
    for p in _parts(value):
        p = {"type": "tool_call", **call} if (call := gemini_call(p)) else p  # Gemini's functionCall
        if p.get("type") == "tool_call" and isinstance(p.get("id"), str):
            calls.append((p["id"], as_text(p.get("name"))))
    return calls


def _parts(value: Any) -> list[dict[str, Any]]:
    """The parts of GenAI messages (a JSON string or a list), each a mapping (Gemini's as the REST API's)."""
    if isinstance(value, str):
        try:
            value = record_json(value)
        except (ValueError, RecursionError):
            return []
    parts: list[Any] = []
    for m in value if isinstance(value, list) else []:
        if isinstance(m, dict):
            parts.extend(_message_parts(m))
            if m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):  # chat-completions' tool message
                parts.append({"type": "tool_call_response", "id": m["tool_call_id"], "response": m.get("content")})
    return [p for p in parts if isinstance(p, dict)]


def message_call_arguments(value: Any) -> dict[str, str]:
    """The arguments (as text) of each ``tool_call`` part of GenAI output messages, by its id."""
    return {p["id"]: as_text(p.get("arguments")) for p in _parts(value)
            if p.get("type") == "tool_call" and isinstance(p.get("id"), str) and p["id"]}


def message_tool_results(value: Any) -> list[tuple[str, str, bool]]:
    """``(call id, result as text, failed)`` of each ``tool_call_response`` part of GenAI input messages: the tool
    results a model call was sent."""
    return [(p["id"], as_text(p.get("response", p.get("result"))), False) for p in _parts(value)
            if p.get("type") == "tool_call_response" and isinstance(p.get("id"), str) and p["id"]]
