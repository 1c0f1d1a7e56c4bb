"""Haystack's chat messages as OpenInference's Haystack instrumentor records them: an LLM span's ``input.value``
(``{"messages": [...]}``) and ``output.value`` (``{"replies": [...]}``) hold Python's ``repr()`` of each
``ChatMessage``, ``ChatMessage(_role=<ChatRole.TOOL: 'tool'>, _content=[ToolCallResult(result='...',
origin=ToolCall(tool_name='list_charges', arguments={...}, id='call_lc', extra=None), error=False)], ...)``.
Its flattened ``llm.*_messages`` give the tool calls without their ids and the tool messages without their
results: :func:`haystack_messages` reads the reprs (never evaluated: parsed, and only literals and keyword calls
read), so that each call keeps its id and each result its text.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from warroom.importers.exports import Message
from warroom.importers.openinference._values import json_value

#: Longest repr of one message read (a longer one, a page a tool returned, leaves the span's messages as flattened).
MAX_REPR = 1_000_000
#: A Python string literal as ``repr()`` writes it (skipped whole), or an enum member's repr,
#: ``<ChatRole.USER: 'user'>`` (no Python expression: read as its value).
_TOKEN = re.compile(r"""[bB]?'[^'\\\n]*(?:\\.[^'\\\n]*)*'|[bB]?"[^"\\\n]*(?:\\.[^"\\\n]*)*"|"""
                    r"""<(?P<enum>[A-Za-z_][\w.]*): (?P<value>'[^'\\\n]*'|"[^"\\\n]*"|-?[0-9]+)>""")


@dataclass(frozen=True)
class _Call:
    """A keyword-only call in a repr (``ToolCall(tool_name=..., ...)``): the class's name and its fields."""

    name: str
    fields: dict[str, Any]


def haystack_messages(value: Any) -> list[Message] | None:
    """The messages of an LLM span's raw ``input.value`` / ``output.value`` when it is Haystack's (a JSON object whose
    ``messages`` or ``replies`` is a list of ``ChatMessage(...)`` reprs), in order; None when it is not, or when a
    repr does not read (then the span's flattened messages are read as they are)."""
    if not isinstance(value, str) or "ChatMessage(" not in value:
        return None
    doc = json_value(value, None)
    listed = next((doc[k] for k in ("messages", "replies") if isinstance(doc, dict) and isinstance(doc.get(k), list)),
                  None)
    if not listed or not all(isinstance(r, str) and r.startswith("ChatMessage(") for r in listed):
        return None
    read = [_message(_parsed(r)) for r in listed]
    return None if any(m is None for m in read) else [m for m in read if m is not None]


def _parsed(text: str) -> Any:
    """One repr read as its literals and keyword calls (:class:`_Call`); None when it is anything else."""
    if len(text) > MAX_REPR:
        return None
    try:
        tree = ast.parse(_TOKEN.sub(lambda m: m["value"] if m["enum"] else m[0], text), mode="eval")
        return _value(tree.body)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _value(node: ast.AST) -> Any:
    """A parsed repr's node as a value: constants, lists, tuples, dicts with constant keys, negative numbers, and
    calls of a name with keyword arguments only; None for anything else (nothing is evaluated)."""
    if isinstance(node, ast.Constant):
        return node.value.decode("utf-8", "replace") if isinstance(node.value, bytes) else node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(e) for e in node.elts]
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return {str(k.value): _value(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[union-attr]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, int | float) and not isinstance(node.operand.value, bool):
        return -node.operand.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args \
            and all(k.arg is not None for k in node.keywords):
        return _Call(node.func.id, {str(k.arg): _value(k.value) for k in node.keywords})
    return None  # anything else (datetime.datetime(...), a name): not read, never evaluated


#: The fields of Haystack's ``ChatMessage`` (2.9 and later; earlier) that hold its content.
_HAYSTACK_FIELDS = frozenset({"_content", "content"})


def _message(call: Any) -> Message | None:
    """A ``ChatMessage`` read (Haystack 2.9 and later: ``_role``, ``_content``; earlier: ``role``, ``content``
    text) as a message: its text parts (``TextContent``) and reasoning, its tool calls (``ToolCall``: id, name,
    arguments as JSON) and, for a tool message, the result it holds (``ToolCallResult``: the call's id, the result's
    text, ``error`` as an error status); None when it is not one."""
    if not isinstance(call, _Call) or call.name != "ChatMessage" or not _HAYSTACK_FIELDS.intersection(call.fields):
        return None  # LlamaIndex's ChatMessage (role, blocks) is none
    role = call.fields.get("_role", call.fields.get("role"))
    content = call.fields.get("_content", call.fields.get("content"))
    if not isinstance(role, str):
        return None
    parts = content if isinstance(content, list) else [content] if isinstance(content, str) else []
    texts: list[str] = []
    calls: list[tuple[str, str, str]] = []
    call_id, status = "", ""
    for part in parts:
        if isinstance(part, _Call) and part.name == "ToolCall":
            calls.append(_tool_call(part))
        elif isinstance(part, _Call) and part.name == "ToolCallResult":
            origin = part.fields.get("origin")
            call_id = _tool_call(origin)[0] if isinstance(origin, _Call) else ""
            status = "error" if part.fields.get("error") is True else status
            texts.append(_text(part.fields.get("result")))
        else:
            texts.append(_text(part))
    return Message(role, "\n".join(t for t in texts if t), calls, call_id=call_id, status=status)


def _tool_call(call: _Call) -> tuple[str, str, str]:
    """A ``ToolCall`` as ``(id, tool name, arguments as JSON text)``."""
    f = call.fields
    args = f.get("arguments")
    shown = json.dumps(args, ensure_ascii=False, default=str) if args not in (None, {}) else ""
    return (f["id"] if isinstance(f.get("id"), str) else "", f["tool_name"] if isinstance(f.get("tool_name"), str)
            else "", shown)


def _text(part: Any) -> str:
    """A content part's text: text as is, a ``TextContent``'s ``text``, a ``ReasoningContent`` as ``[reasoning]
    TEXT``, a list (a tool result of parts) joined by newlines, any other part named by its class (``[ImageContent
    part]``), never its bytes."""
    if isinstance(part, str):
        return part
    if isinstance(part, list):
        return "\n".join(t for t in map(_text, part) if t)
    if not isinstance(part, _Call):
        return "" if part is None else str(part)
    if part.name == "TextContent" and isinstance(part.fields.get("text"), str):
        return str(part.fields["text"])
    if part.name == "ReasoningContent" and isinstance(part.fields.get("reasoning_text"), str):
        return f"[reasoning] {part.fields['reasoning_text']}"
    return f"[{part.name} part]"
