"""GenAI messages (``gen_ai.input.messages`` / ``gen_ai.output.messages``: ``{role, parts}`` or ``{role,
content}``) as the text a drill shows (:func:`messages_text`), and the tool calls the output messages ask for
(:func:`message_tool_calls`)."""

from __future__ import annotations

from typing import Any

from warroom.core.files import record_json
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
        listed = m.get("parts")
        parts: list[Any] = listed if isinstance(listed, list) else []
        if role == "user":  # the user's words: not the tool results that some (Pydantic AI) send in a user message
            parts = [p for p in parts if not (isinstance(p, dict) and p.get("type") == "tool_call_response")]
        texts.extend(t for t in map(_part_text, parts) if t is not None)
    return "\n".join(texts)


def _part_text(p: Any) -> str | None:
    """One part of a GenAI message as text, None when it is not a part (not an object with a text ``type``): a
    ``text`` part verbatim, a ``reasoning`` part as ``[reasoning] TEXT``, a ``tool_call`` as ``[tool call NAME
    ARGS]``, a ``tool_call_response`` as ``[tool call response ID RESPONSE]``, a ``server_tool_call`` (a tool the
    provider runs) as ``[server tool call NAME CALL]`` and its ``server_tool_call_response`` as ``[server tool call
    response ID RESPONSE]``, any other part (``uri``, ``blob``,
    ``file``, a generic one) by its type and what names it: ``[uri part image image/jpeg https://...]`` (never a
    blob's base64 bytes)."""
    kind = p.get("type") if isinstance(p, dict) else None
    if not isinstance(kind, str):
        return None
    if kind == "text":
        return p["content"] if isinstance(p.get("content"), str) else None
    if kind == "reasoning" and isinstance(p.get("content"), str):
        return f"[reasoning] {p['content']}"
    if kind == "tool_call":
        return f"[tool call {p['name']} {as_text(p.get('arguments'))}]".replace(" ]", "]") \
            if isinstance(p.get("name"), str) else None
    if kind == "tool_call_response":
        return f"[{' '.join(x for x in ('tool call response', as_text(p.get('id')), as_text(p.get('response'))) if x)}]"
    if kind == "server_tool_call" and isinstance(p.get("name"), str):  # a tool the provider runs (web search...)
        return f"[server tool call {p['name']} {as_text(p.get('server_tool_call'))}]".replace(" ]", "]")
    if kind == "server_tool_call_response":
        return "[" + " ".join(x for x in ("server tool call response", as_text(p.get("id")),
                                          as_text(p.get("server_tool_call_response"))) if x) + "]"
    named = [p[k] for k in ("modality", "mime_type", "uri", "file_id") if isinstance(p.get(k), str) and p[k]]
    named = [f"{n.split(',', 1)[0]}, {len(n):,} characters" if n.startswith("data:") else n for n in named]
    return f"[{' '.join([kind + ' part', *named])}]"  # a data: URI holds the bytes: only its media type and size


def message_tool_calls(value: Any) -> list[tuple[str, str]]:
    """``(id, tool name)`` of the ``tool_call`` parts of GenAI output messages (a JSON string or a list)."""
    if isinstance(value, str):
        try:
            value = record_json(value)
        except (ValueError, RecursionError):
            return []
    calls = []
    for m in value if isinstance(value, list) else []:
        for p in (m.get("parts") or []) if isinstance(m, dict) else []:
            if isinstance(p, dict) and p.get("type") == "tool_call" and isinstance(p.get("id"), str):
                calls.append((p["id"], as_text(p.get("name"))))
    return calls
