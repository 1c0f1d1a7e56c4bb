"""What a span means for a drill, whatever the convention that says so: the :class:`Step` a classifier makes of a
span (``otel``'s GenAI semantic conventions, ``openinference``'s span kinds)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warroom.importers.otlp.spans import Span

AGENT, MODEL, TOOL, OTHER = "agent", "model", "tool", "other"


@dataclass
class Step:
    """A classified span. ``kind`` is agent, model, tool or other; the rest is what the span recorded (None or
    empty when it did not): an agent's ``name``; a model call's ``model``, ``input_tokens``/``output_tokens``,
    output ``content``, ``finish_reason``, the ``tool_call_ids`` it asked for (and, when known, ``(id, tool name)``
    of each: ``tool_calls_asked``, which names the call of a tool span that records no id); a tool's ``tool`` name,
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
    tool_call_ids: list[str] = field(default_factory=list)
    tool_calls_asked: list[tuple[str, str]] = field(default_factory=list)
    tool: str | None = None
    call_id: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    inputs: str = ""
    error: str = ""
    unknown: int = 0


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
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    return {} if value is None or value == "" else {"arguments": value}


def as_tokens(value: Any) -> int | None:
    """A token count: a whole number (or whole-number text) at least 0, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.isdigit() and len(value) < 20:
        value = int(value)
    return value if isinstance(value, int) and value >= 0 else None


def exception_text(span: Span) -> str:
    """The span's exceptions (``exception`` events: ``type: message``), or its error status message."""
    from opentelemetry.semconv.attributes.exception_attributes import EXCEPTION_MESSAGE, EXCEPTION_TYPE

    parts = [": ".join(str(x) for x in (e.attributes.get(EXCEPTION_TYPE), e.attributes.get(EXCEPTION_MESSAGE)) if x)
             for e in span.events if e.name == "exception"]
    parts = [p for p in parts if p]
    if span.error and span.status_message and not any(span.status_message in p for p in parts):
        parts.append(span.status_message)
    if span.error and not parts:
        parts.append("error (no message)")
    return "; ".join(parts)


def messages_text(value: Any, role: str | None = None) -> str:
    """Text of a GenAI messages value (a JSON string or a list of ``{role, parts: [{type, content}]}`` or
    ``{role, content}``), only the messages of ``role`` when given; text parts verbatim, joined by newlines."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return value if role is None else ""
    texts: list[str] = []
    for m in value if isinstance(value, list) else []:
        if not isinstance(m, dict) or (role is not None and m.get("role") != role):
            continue
        if isinstance(m.get("content"), str):
            texts.append(m["content"])
        parts = m.get("parts")
        texts.extend(t for t in map(_part_text, parts if isinstance(parts, list) else []) if t is not None)
    return "\n".join(texts)


def _part_text(p: Any) -> str | None:
    """One part of a GenAI message as text, None when it is not a part (not an object with a text ``type``): a
    ``text`` part verbatim, a ``reasoning`` part as ``[reasoning] TEXT``, a ``tool_call`` as ``[tool call NAME
    ARGS]``, a ``tool_call_response`` as ``[tool call response ID RESPONSE]``, any other part (``uri``, ``blob``,
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
    named = [p[k] for k in ("modality", "mime_type", "uri", "file_id") if isinstance(p.get(k), str) and p[k]]
    named = [f"{n.split(',', 1)[0]}, {len(n):,} characters" if n.startswith("data:") else n for n in named]
    return f"[{' '.join([kind + ' part', *named])}]"  # a data: URI holds the bytes: only its media type and size


def message_tool_calls(value: Any) -> list[tuple[str, str]]:
    """``(id, tool name)`` of the ``tool_call`` parts of GenAI output messages (a JSON string or a list)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return []
    calls = []
    for m in value if isinstance(value, list) else []:
        for p in (m.get("parts") or []) if isinstance(m, dict) else []:
            if isinstance(p, dict) and p.get("type") == "tool_call" and isinstance(p.get("id"), str):
                calls.append((p["id"], as_text(p.get("name"))))
    return calls


def message_tool_call_ids(value: Any) -> list[str]:
    """The ids of the ``tool_call`` parts of GenAI output messages (a JSON string or a list)."""
    return [i for i, _ in message_tool_calls(value)]
