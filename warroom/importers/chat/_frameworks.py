"""Agent frameworks' own message histories read as OpenAI chat-completions messages, before they are checked
(:mod:`._parse`), as :mod:`._shapes` reads the APIs' shapes.

- **LangChain** (a LangGraph state's ``messages``, a chat history): a list of messages as
  ``messages_to_dict`` writes them (``{"type": "human" | "ai" | "tool" | "system", "data": {...}}``, what
  ``FileChatMessageHistory`` stores), as ``dumpd`` / ``dumps`` serialise them (``{"lc": 1, "type":
  "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``) or as ``model_dump()`` gives them (``{"type": "ai",
  "content": ...}``): ``human`` is a user message, ``ai`` the assistant's (its ``tool_calls``
  ``{"id", "name", "args"}``; the last one's ``response_metadata.model_name``, else ``model``, the model), ``tool`` a
  tool message answering ``tool_call_id``, ``system`` the system prompt.
- **Pydantic AI** (``result.all_messages_json()``, ``ModelMessagesTypeAdapter``): ``{"kind": "request" |
  "response", "parts": [...]}`` messages; a request's ``system-prompt`` part (and its ``instructions``, once) is
  the system prompt, ``user-prompt`` a user message, ``tool-return`` a tool message answering ``tool_call_id``,
  failed when its ``outcome`` is not ``success`` (``failed``, ``retried``, ``denied``...), ``retry-prompt`` the
  retry the model was sent (a tool message, failed, when it answers a call; else a user message); a response's
  ``text`` and ``thinking`` parts are the assistant's text (``[thinking] TEXT``), its ``tool-call`` parts its tool
  calls, and its ``model_name`` the model.
- **AutoGen AgentChat** (a team's ``TaskResult.messages``, each ``model_dump()``): messages with a ``type`` and the
  ``source`` agent; a ``TextMessage`` from ``user`` is a user message, from an agent that agent's (``name``), a
  ``ToolCallRequestEvent`` its tool calls (``{"id", "name", "arguments"}``), a ``ToolCallExecutionEvent`` a tool
  message for each result (``call_id``, ``is_error``), a ``ThoughtEvent`` its ``[thinking] TEXT``, a
  ``MultiModalMessage`` its text with each image as ``[image]``; a
  ``HandoffMessage`` and a ``ToolCallSummaryMessage`` repeat the results before them and are not read again.
"""

from __future__ import annotations

import json
from typing import Any

from warroom.importers.exports import (
    ITEM_INDEX,
    LANGCHAIN_TYPES,
    call_form,
    message,
    message_fields,
    message_usage,
    token_pair,
)

_PYDANTIC_KINDS = frozenset({"request", "response"})
#: AutoGen AgentChat's message types that repeat what the messages before them hold.
_AUTOGEN_REPEATS = frozenset({"HandoffMessage", "ToolCallSummaryMessage"})


def _langchain(item: Any) -> bool:
    """Whether ``item`` is a LangChain message dict: ``messages_to_dict``'s ``{"type", "data"}``, ``dumpd``'s
    ``{"lc", "id", "kwargs"}``, or a message dict with its ``type`` and ``content``."""
    if not isinstance(item, dict) or "role" in item:
        return False
    if item.get("lc") is not None and isinstance(item.get("kwargs"), dict) and isinstance(item.get("id"), list):
        return True
    kind = item.get("type")
    return isinstance(kind, str) and kind in LANGCHAIN_TYPES \
        and (isinstance(item.get("data"), dict) or "content" in item)


def _pydantic(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("kind"), str) and item["kind"] in _PYDANTIC_KINDS \
        and isinstance(item.get("parts"), list)


def _autogen(item: Any) -> bool:
    return isinstance(item, dict) and "role" not in item and isinstance(item.get("source"), str) \
        and isinstance(item.get("type"), str) and (item["type"].endswith(("Message", "Event")))


def is_framework_history(items: Any) -> bool:
    """Whether ``items`` is a non-empty list of LangChain messages, Pydantic AI model messages or AutoGen
    AgentChat messages."""
    if not isinstance(items, list) or not items:
        return False
    return any(all(read(m) for m in items) for read in (_langchain, _pydantic, _autogen))


def framework_history(items: list[Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The history ``items`` (:func:`is_framework_history`) as chat-completions messages, and the model named."""
    if all(_langchain(m) for m in items):
        return [_langchain_message(m) for m in items], _langchain_model(items)
    if all(_autogen(m) for m in items):
        return [m for i, item in enumerate(items) for m in _autogen_messages(i, item)], None
    out: list[dict[str, Any]] = []
    model = None
    instructions = None
    for i, m in enumerate(items):
        if m["kind"] == "response":
            out.append({**_said(m["parts"]), ITEM_INDEX: i})
            model = m.get("model_name") if isinstance(m.get("model_name"), str) else model
            continue
        if isinstance(m.get("instructions"), str) and m["instructions"] != instructions:
            instructions = m["instructions"]
            out.append({"role": "system", "content": instructions, ITEM_INDEX: f"{i}].instructions["})
        # each part's place in the file, for the checks' messages: [i].parts[j]
        out.extend({**_asked(p), ITEM_INDEX: f"{i}].parts[{j}"} for j, p in enumerate(m["parts"]))
    return out, model


def _langchain_message(item: Any) -> dict[str, Any]:
    """One LangChain message as a chat-completions message (read by the exports' reader of them)."""
    read = message(item)
    if read is None:  # a type the reader does not know: passed on for the checks to refuse by its role
        return {"role": str(item.get("type")), "content": message_fields(item).get("content")}
    out: dict[str, Any] = {"role": read.role, "content": read.text}
    if read.calls:
        out["tool_calls"] = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                             for i, n, a in read.calls]
    if read.role == "tool":
        out["tool_call_id"] = read.call_id
        out["is_error"] = read.status == "error"  # a ToolMessage's status: a failed result
    if (usage := usage_entry(message_usage(item))) is not None:  # an AIMessage's usage_metadata / response_metadata
        out[RECORDED_USAGE] = usage
    return out


def _langchain_model(messages: list[Any]) -> str | None:
    """The model the last ``ai`` message names in its ``response_metadata`` (``model_name``, as OpenAI's and
    Gemini's chat models write it, else ``model``, as Anthropic's and Ollama's do), or None."""
    model = None
    for m in messages:
        meta, read = message_fields(m).get("response_metadata"), message(m)
        if read is None or read.role != "assistant" or not isinstance(meta, dict):
            continue
        name = meta.get("model_name") or meta.get("model")
        model = name if isinstance(name, str) and name.strip() else model
    return model


def _text(content: Any) -> Any:
    """A part's content: text as it is, anything else (a tool's returned value) as compact JSON, as Pydantic AI
    sends it to the model (``pydantic_core.to_json``)."""
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False, default=str, separators=(",", ":"))


def _asked(part: Any) -> dict[str, Any]:
    """A Pydantic AI request part as a chat-completions message."""
    if not isinstance(part, dict):
        return {"role": None, "content": part}  # refused by the checks, by its place
    kind = part.get("part_kind")
    if kind == "system-prompt":
        return {"role": "system", "content": _text(part.get("content"))}
    if kind == "tool-return":  # its `outcome` other than `success` (`failed`, `retried`, ...): a failed result
        return {"role": "tool", "tool_call_id": part.get("tool_call_id"), "content": _text(part.get("content")),
                "is_error": part.get("outcome", "success") != "success"}
    if kind == "retry-prompt":
        content = _text(part.get("content"))
        if part.get("tool_name"):
            return {"role": "tool", "tool_call_id": part.get("tool_call_id"), "content": content, "is_error": True}
        return {"role": "user", "content": content}
    if kind == "user-prompt":
        content = part.get("content")
        if isinstance(content, list):  # text, and media parts (`image-url`, `binary`...) named by their kind
            content = "\n".join(c if isinstance(c, str) else f"[{c.get('kind') if isinstance(c, dict) else c}]"
                                for c in content)
        return {"role": "user", "content": content}
    return {"role": str(kind), "content": _text(part.get("content"))}  # refused by its role, by name


def _said(parts: list[Any]) -> dict[str, Any]:
    """A Pydantic AI response's parts as one assistant message."""
    texts = []
    calls = []
    for p in (p for p in parts if isinstance(p, dict)):
        kind = p.get("part_kind")
        if kind == "text":
            texts.append(_text(p.get("content")))
        elif kind == "thinking":
            texts.append(f"[thinking] {_text(p.get('content'))}")
        elif kind == "tool-call":
            args = p.get("args")
            calls.append({"id": p.get("tool_call_id"), "type": "function", "function": {
                "name": p.get("tool_name"), "arguments": args if isinstance(args, str) else json.dumps(args or {})}})
        else:
            texts.append(f"[{kind}]")
    out: dict[str, Any] = {"role": "assistant", "content": "\n".join(texts)}
    if calls:
        out["tool_calls"] = calls
    return out


#: The key of a message made from a framework's message whose model call recorded its usage (AutoGen's
#: ``models_usage``, LangChain's ``usage_metadata``): that usage, as a drill's (``input_tokens``, ``output_tokens``),
#: read instead of an estimate.
RECORDED_USAGE = "_recorded_usage"


def usage_entry(tokens: tuple[int | None, int | None] | None) -> dict[str, int] | None:
    """The ``(input, output)`` token counts a message records (read by
    :func:`~warroom.importers.exports.token_pair`: two zeros are none recorded) as a drill's ``usage``; None when
    either is not recorded."""
    if tokens is None or tokens[0] is None or tokens[1] is None:
        return None
    return {"input_tokens": tokens[0], "output_tokens": tokens[1]}


def _autogen_messages(i: int, item: dict[str, Any]) -> list[dict[str, Any]]:
    """One AutoGen AgentChat message as chat-completions messages (none for one that repeats others), each with
    its place in the file; the assistant's, with the ``models_usage`` its model call recorded."""
    out = _autogen_said(i, item)
    usage = item.get("models_usage")
    if isinstance(usage, dict) and out and out[0]["role"] == "assistant":
        recorded = usage_entry(token_pair([(usage.get("prompt_tokens"), usage.get("completion_tokens"))]))
        if recorded is not None:
            out[0][RECORDED_USAGE] = recorded
    return out


def _autogen_said(i: int, item: dict[str, Any]) -> list[dict[str, Any]]:
    """What :func:`_autogen_messages` makes of ``item``, without its usage."""
    kind, source, content = item["type"], item["source"], item.get("content")
    if kind in _AUTOGEN_REPEATS:
        return []
    if kind == "ToolCallRequestEvent" and isinstance(content, list):
        calls = [call_form(c) if isinstance(c, dict) else c for c in content]
        return [{"role": "assistant", "name": source, "content": "", "tool_calls": calls, ITEM_INDEX: i}]
    if kind == "ToolCallExecutionEvent" and isinstance(content, list):
        return [{"role": "tool", "tool_call_id": r.get("call_id"), "content": _text(r.get("content")),
                 "is_error": r.get("is_error") is True, ITEM_INDEX: f"{i}].content[{j}"} if isinstance(r, dict)
                else {"role": "tool", "content": r, ITEM_INDEX: f"{i}].content[{j}"} for j, r in enumerate(content)]
    if kind == "ThoughtEvent":
        return [{"role": "assistant", "name": source, "content": f"[thinking] {_text(content)}", ITEM_INDEX: i}]
    if isinstance(content, list):  # a MultiModalMessage: text, and images (`{"data": base64}`) named, not their bytes
        content = "\n".join(c if isinstance(c, str) else "[image]" for c in content)
    if source == "user":
        return [{"role": "user", "content": _text(content), ITEM_INDEX: i}]
    return [{"role": "assistant", "name": source, "content": _text(content), ITEM_INDEX: i}]
