"""Chat messages as LangSmith runs and Langfuse observations record them, read as :class:`Message` objects: the one
reader of a chat message, whose text (:func:`message_text`, :func:`part_text`) ``chat`` and OpenInference read too.

Shapes read: LangChain's serialised messages (``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"],
"kwargs": {...}}``), LangChain's plain message dicts (``{"type": "ai", "content": ...}``) and ``messages_to_dict``'s
(``{"type": "ai", "data": {...}}``, what ``FileChatMessageHistory`` stores: :func:`message_fields`), role/content dicts
(OpenAI, Anthropic), LangChain's ``generations`` (``[[{"text", "message"}]]``), OpenAI's ``choices``, and
wrappers holding messages (``{"messages": [...]}``, ``{"message": ...}``, ``{"output": ...}``; LangSmith nests a
chat model's input one list deeper: ``{"messages": [[...]]}``), and LangChain's ``(role, content)`` tuples as JSON
lists (``["user", "hi"]``), and Gemini's ``{"role": "model", "parts": [...]}``. Tool calls come from ``tool_calls``
(LangChain's ``{"name", "args", "id"}``, OpenAI's ``{"id", "function": {"name", "arguments"}}``, a flat ``{"id",
"name", "arguments"}``), ``additional_kwargs.tool_calls``, Anthropic's ``tool_use`` parts, Gemini's
``functionCall`` parts, the legacy ``function_call``, and OpenAI Responses API output items (``message``,
``function_call``, ``function_call_output``, ``reasoning``: a response's ``output``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from warroom.importers.exports._gemini import gemini_answer, gemini_call, gemini_part_text
from warroom.importers.exports._responses import responses_messages
from warroom.importers.exports._values import token_pair
from warroom.importers.spans import Step, as_text

#: LangChain message classes (the last item of a serialised message's ``id``) and ``type`` values, as roles.
_ROLES = {"AIMessage": "assistant", "AIMessageChunk": "assistant", "HumanMessage": "user", "SystemMessage": "system",
          "ToolMessage": "tool", "FunctionMessage": "function", "ai": "assistant", "human": "user",
          "system": "system", "tool": "tool", "function": "function", "AIMessageChunkType": "assistant"}
#: LangChain's message types: ``messages_to_dict``'s (``{"type", "data"}``) and a message dict's ``type``
#: (``chat``, a ChatMessage, holds its role in its data); the one table of them (``import chat`` reads a history
#: of such messages).
LANGCHAIN_TYPES = frozenset({*_ROLES, "chat"})
_THOUGHT_PARTS = ("thinking", "reasoning")
#: A message's own fields holding its thinking, and their mark: Ollama's, and DeepSeek's and vLLM's.
_THOUGHT_FIELDS = {"thinking": "thinking", "reasoning_content": "reasoning"}
#: Content parts that are a tool call or its result, read as the message's calls and as tool messages.
_CALL_PARTS = ("tool_use", "tool_result")
#: OpenAI Responses API output items other than ``message`` that :func:`message` reads.
_RESPONSES_ITEMS = ("function_call", "function_call_output", "reasoning")
#: The roles LangChain accepts in a ``(role, content)`` pair (``graph.invoke({"messages": [("user", "hi")]})``,
#: recorded as the JSON list ``["user", "hi"]``).
_PAIR_ROLES = {"human": "user", "user": "user", "ai": "assistant", "assistant": "assistant", "system": "system",
               "developer": "system", "tool": "tool", "function": "function"}


#: Roles of the messages a model call reads, not writes (its input, and the tools' answers).
NOT_SAID = ("user", "system", "tool", "function")


@dataclass
class Message:
    """One message: its ``role`` (``user``, ``assistant``, ``system``, ``tool``...), its text, the tool calls it
    asks for as ``(id, tool name, arguments as text)``, and for a tool message the call it answers and its status."""

    role: str
    text: str = ""
    calls: list[tuple[str, str, str]] = field(default_factory=list)
    call_id: str = ""
    status: str = ""

    def shown(self) -> str:
        """The text, then each tool call as ``[tool call NAME ARGS]`` (as the other importers show them)."""
        shown = [f"[tool call {name} {args}]".replace(" ]", "]") for _, name, args in self.calls]
        return "\n".join(t for t in [self.text, *shown] if t)


def message_text(body: dict[str, Any]) -> str:
    """A message's text: its thinking when the message holds it in a field of its own (Ollama's ``thinking`` as
    ``[thinking] TEXT``, DeepSeek's and vLLM's ``reasoning_content`` as ``[reasoning] TEXT``), then its ``content``
    verbatim, or the parts of a list (Gemini's ``parts``) joined by newlines (:func:`part_text`); else its
    ``refusal`` (OpenAI's, instead of content)."""
    content, refusal = body.get("content", body.get("parts")), body.get("refusal")
    text = "\n".join(t for t in map(part_text, content) if t is not None) if isinstance(content, list) else content
    text = text if isinstance(text, str) and text else refusal if isinstance(refusal, str) else ""
    thought = [f"[{mark}] {body[key]}" for key, mark in _THOUGHT_FIELDS.items() if isinstance(body.get(key), str)]
    return "\n".join(t for t in [*thought, text] if t)


def part_text(part: Any) -> str | None:
    """One content part as a drill shows it, as every importer reads it: a text part's (or a bare string's) text
    verbatim, an Anthropic ``thinking`` part as ``[thinking] TEXT``, LangChain's standard ``reasoning`` block as
    ``[reasoning] TEXT``, OpenAI's ``refusal`` part its refusal, a Gemini part (no ``type``) as
    :func:`gemini_part_text` shows it, any other part named (:func:`other_part`); None for a tool call or tool
    result part (read as calls and tool messages) and for what is no part (an object without a text ``type``)."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict) and "type" not in part:
        return gemini_part_text(part)
    kind = part.get("type") if isinstance(part, dict) else None
    if not isinstance(kind, str):
        return None
    if kind in _THOUGHT_PARTS and isinstance(part.get(kind, part.get("content")), str):  # GenAI's: `content`
        return f"[{kind}] {part.get(kind, part.get('content'))}"
    for key in ("text", "refusal"):  # OpenAI's refusal part: its text under `refusal`
        if isinstance(part.get(key), str) and key in ("text", kind):
            return str(part[key])
    if kind == "text":  # GenAI's text part holds its text in `content`; one with no text shows nothing
        return part["content"] if isinstance(part.get("content"), str) else None
    if kind in _GENAI_CALLS:
        return _genai_call(part)
    return other_part(part) if kind not in _CALL_PARTS else None


#: OpenTelemetry GenAI's tool call parts (``gen_ai.*.messages``): their names as shown, and their fields shown.
_GENAI_CALLS = {"tool_call": ("tool call", "name", "arguments"), "tool_call_response": (
    "tool call response", "id", "response"), "server_tool_call": ("server tool call", "name", "server_tool_call"),
    "server_tool_call_response": ("server tool call response", "id", "server_tool_call_response")}


def _genai_call(part: dict[str, Any]) -> str | None:
    """A GenAI tool call part as ``[tool call NAME ARGS]`` (as :meth:`Message.shown` shows a call), its response as
    ``[tool call response ID RESPONSE]``, a server tool's (one the provider runs) as ``[server tool call NAME
    CALL]`` and ``[server tool call response ID RESPONSE]``; None for a call without a name."""
    shown, named, held = _GENAI_CALLS[part["type"]]
    if named == "name" and not isinstance(part.get("name"), str):
        return None
    return "[" + " ".join(x for x in (shown, as_text(part.get(named)), as_text(part.get(held))) if x) + "]"


#: Part types named by what they hold: one wording for an image whatever the API calls its part.
_MEDIA_NAMES = {"image_url": "image", "input_image": "image", "input_audio": "audio", "input_file": "file"}


def other_part(part: dict[str, Any]) -> str:
    """A content part with no text, by its type and what it names, never its bytes: ``[image part https://...]``
    (OpenAI's ``image_url`` and the Responses API's ``input_image`` named as Anthropic's and OpenInference's image
    parts are: :data:`_MEDIA_NAMES`), an Anthropic server tool's call ``[server_tool_use part web_search {"query":
    ...}]`` and result (``[web_search_tool_result part: TITLE <URL>; ...]``, or its ``error_code``)."""
    named = [part[k] for k in ("modality", "mime_type", "uri", "file_id") if isinstance(part.get(k), str) and part[k]]
    for key in ("image_url", "source", "file"):  # OpenAI's {"url": ...}, Anthropic's {"type": "url", "url": ...}
        where = part.get(key)
        link = (where.get("url") or where.get("file_id")) if isinstance(where, dict) else (
            where if key == "image_url" else None)  # the Responses API's input_image: the URL as text
        named += [link] if isinstance(link, str) and link else []
    named += _inline_data(part)
    if isinstance(part.get("name"), str):
        named.append(part["name"])
        if "input" in part:
            named.append(json.dumps(part["input"], ensure_ascii=False))
    found = part.get("content")
    if isinstance(found, dict) and isinstance(found.get("error_code"), str):
        named.append(f"error {found['error_code']}")
    results = [f"{r.get('title') or ''} <{r['url']}>".lstrip() for r in (found if isinstance(found, list) else [])
               if isinstance(r, dict) and isinstance(r.get("url"), str)]
    named = [f"{n.split(',', 1)[0]}, {len(n):,} characters" if n.startswith("data:") else n for n in named]
    kind = _MEDIA_NAMES.get(part["type"], part["type"])
    text = " ".join([f"{kind} part", *named])  # a data: URL holds the bytes: only its media type and size
    return f"[{text}: {'; '.join(results)}]" if results else f"[{text}]"


def _inline_data(part: dict[str, Any]) -> list[str]:
    """What a part's inline bytes are, never the bytes: Anthropic's base64 ``source`` (a ``document`` or ``image``:
    ``{"media_type": "application/pdf", "data": ...}``) and OpenAI's ``input_audio`` (``{"format": "wav", "data":
    ...}``) as their media type or format and the size of their data (``application/pdf, 51,220 characters``);
    OpenAI's file parts (the Chat Completions API's ``file``, ``{"file": {"filename", "file_data"}}``, and the
    Responses API's ``input_file``, ``{"filename", "file_data" or "file_url"}``) as their file name and URL, their
    ``file_data`` (a ``data:`` URL, named by :func:`other_part` by its media type and size) by its size."""
    for key, kind in (("source", "media_type"), ("input_audio", "format")):
        held = part.get(key)
        if isinstance(held, dict) and isinstance(held.get("data"), str) and isinstance(held.get(kind), str):
            return [f"{held[kind]}, {len(held['data']):,} characters"]
    held = part["file"] if isinstance(part.get("file"), dict) else part
    named = [held[k] for k in ("filename", "file_url") if isinstance(held.get(k), str) and held[k]]
    data = held.get("file_data")
    if isinstance(data, str) and data:
        named.append(data if data.startswith("data:") else f"{len(data):,} characters")
    return named


def call_form(raw: dict[str, Any]) -> dict[str, Any]:
    """One tool call, of any shape the module reads (OpenAI's ``{"id", "function": {"name", "arguments"}}``,
    LangChain's ``{"id", "name", "args"}``, Anthropic's ``tool_use`` part ``{"id", "name", "input"}``, Gemini's
    ``functionCall`` ``{"id"?, "name", "args"}``, a flat ``{"id", "name", "arguments"}`` as tau2-bench and
    OpenLLMetry's flattened attributes write it, Bedrock's ``toolUse`` block ``{"toolUse": {"toolUseId", "name",
    "input"}}``), as OpenAI's: its id, name and arguments as recorded (no ``arguments`` when it records none), for
    the reader of the shape (:func:`message`, ``chat``, the older GenAI conventions of ``otel``) to check."""
    use: dict[str, Any] = raw["toolUse"] if isinstance(raw.get("toolUse"), dict) else raw
    call_id = use.get("toolUseId", use.get("id"))
    if isinstance(use.get("function"), dict):
        return {"id": call_id, "function": use["function"]}
    key = next((k for k in ("args", "input", "arguments") if k in use), None)
    return {"id": call_id, "function": {"name": use.get("name")} | ({"arguments": use[key]} if key else {})}


def _call(raw: Any) -> tuple[str, str, str] | None:
    """One tool call (:func:`call_form`) as ``(id, name, arguments as text)``; None when it is none (no name)."""
    if not isinstance(raw, dict):
        return None
    form = call_form(raw)
    name, call_id = form["function"].get("name"), form["id"]
    if not isinstance(name, str) or not name:
        return None
    return (call_id if isinstance(call_id, str) else "", name, as_text(form["function"].get("arguments")))


def _calls(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    listed = body.get("tool_calls")
    extra = body.get("additional_kwargs")
    if not listed and isinstance(extra, dict):
        listed = extra.get("tool_calls")
    content = body.get("content")
    raw = list(listed) if isinstance(listed, list) else []
    if not raw and isinstance(content, list):
        raw = [p for p in content if isinstance(p, dict) and p.get("type") == "tool_use"]
    parts = body.get("parts")  # Gemini's: {"functionCall": {"id"?, "name", "args"}}
    if not raw and isinstance(parts, list):
        raw = [c for c in map(gemini_call, parts) if c is not None]
    calls = [c for c in map(_call, raw) if c is not None]
    legacy = body.get("function_call") or (extra.get("function_call") if isinstance(extra, dict) else None)
    if not calls and isinstance(legacy, dict) and (c := _call({"function": legacy})) is not None:
        calls.append(c)
    return calls


def _pair(item: Any) -> bool:
    """Whether ``item`` is a ``[role, content]`` pair, LangChain's tuple message as JSON."""
    return (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
            and item[0].strip().lower() in _PAIR_ROLES and isinstance(item[1], (str, list)))


def _serialised(item: dict[str, Any]) -> bool:
    """Whether ``item`` is a message LangChain's ``dumpd`` serialised (``{"lc": 1, "id": [...], "kwargs": {...}}``)."""
    ids = item.get("id")
    return item.get("lc") is not None and isinstance(item.get("kwargs"), dict) and isinstance(ids, list) and bool(ids)


def message_fields(item: dict[str, Any]) -> dict[str, Any]:
    """A message's own fields: a LangChain message serialised by ``dumpd`` holds them in ``kwargs``, one written by
    ``messages_to_dict`` in ``data`` (``{"type": "ai", "data": {...}}``, given its ``type``); any other message
    is its own."""
    if _serialised(item):
        return dict(item["kwargs"])
    kind = item.get("type")
    if "role" not in item and isinstance(item.get("data"), dict) and isinstance(kind, str) and kind in LANGCHAIN_TYPES:
        return {**item["data"], "type": item["type"]}
    return item


def message(item: Any) -> Message | None:
    """One message of any shape the module reads, or None when ``item`` is not a message."""
    if _pair(item):
        return Message(_PAIR_ROLES[item[0].strip().lower()], message_text({"content": item[1]}))
    if not isinstance(item, dict):
        return None
    if item.get("type") in _RESPONSES_ITEMS and "role" not in item:
        return _responses_item(item)
    body = message_fields(item)
    role = body.get("role")
    if _serialised(item):
        role = role if item["id"][-1] == "ChatMessage" else _ROLES.get(str(item["id"][-1]))
    elif not isinstance(role, str) and isinstance(body.get("type"), str) and "content" in body:
        role = _ROLES.get(body["type"])
    if not isinstance(role, str) or not role:
        return None
    role = "assistant" if role == "model" else role  # Gemini's name for the model's turns
    status, call_id = body.get("status"), body.get("tool_call_id")
    parts = body["parts"] if isinstance(body.get("parts"), list) else []
    answers = [a for a in map(gemini_answer, parts) if a is not None]
    if answers and len(answers) == len(parts):  # a Gemini turn of function responses: the tools' answers
        role, call_id = "tool", answers[0].get("id")
    return Message(role, message_text(body), _calls(body), call_id if isinstance(call_id, str) else "",
                   status if isinstance(status, str) else "")


def _responses_item(item: dict[str, Any]) -> Message | None:
    """An OpenAI Responses API output item that is not a ``message`` (a ``function_call``, its
    ``function_call_output``, a ``reasoning`` item), read by :func:`responses_messages` and then as a message."""
    read = responses_messages([item], "")
    return message(read[0]) if read else Message("assistant")


def messages(value: Any) -> list[Message] | None:
    """Every message in ``value`` (see the module's docstring), in order; None when it holds none."""
    if isinstance(value, list):
        flat = [x for item in value for x in (item if isinstance(item, list) and not _pair(item) else [item])]
        found = [m for m in map(message, flat) if m is not None]
        return found or None
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("generations"), list):
        return _generations(value["generations"])
    if isinstance(value.get("choices"), list):
        chosen = [message(c.get("message")) for c in value["choices"] if isinstance(c, dict)]
        return [m for m in chosen if m is not None] or None
    for key in ("messages", "message", "output", "outputs", "input"):
        if isinstance(value.get(key), (list, dict)) and (held := messages(value[key])):
            return held
    one = message(value)
    return [one] if one is not None else None


def _generations(listed: list[Any]) -> list[Message] | None:
    """LangChain's ``generations`` (a list per prompt of ``{"text", "message"?}``) as the model's messages."""
    flat = [g for item in listed for g in (item if isinstance(item, list) else [item]) if isinstance(g, dict)]
    out = []
    for g in flat:
        m = message(g.get("message"))
        if m is None and isinstance(g.get("text"), str):
            m = Message("assistant", g["text"])
        if m is not None:
            out.append(m)
    return out or None


def generation_info(value: Any, key: str) -> Any:
    """``key`` of the first generation's ``generation_info``, or of its message's ``response_metadata`` /
    ``usage_metadata`` (LangChain), or of the first OpenAI choice; None when none records it."""
    if not isinstance(value, dict):
        return None
    for listed in (value.get("generations"), value.get("choices")):
        flat = [g for item in listed for g in (item if isinstance(item, list) else [item])] \
            if isinstance(listed, list) else []
        for g in flat[:1]:
            if not isinstance(g, dict):
                continue
            msg = g.get("message")
            body = message_fields(msg) if isinstance(msg, dict) else {}
            for holder in (g.get("generation_info"), g, body.get("response_metadata"), body.get("usage_metadata"),
                           body):
                if isinstance(holder, dict) and holder.get(key) is not None:
                    return holder[key]
    return None


#: Where a message records its model call's token counts (``(input, output)`` keys): LangChain's ``usage_metadata``,
#: OpenAI's and Anthropic's ``usage``, Gemini's ``usageMetadata`` (snake case as google-genai dumps it).
_USAGE = (("usage_metadata", "input_tokens", "output_tokens"), ("usage", "prompt_tokens", "completion_tokens"),
          ("usage", "input_tokens", "output_tokens"), ("usageMetadata", "promptTokenCount", "candidatesTokenCount"),
          ("usage_metadata", "prompt_token_count", "candidates_token_count"))
#: The same in LangChain's ``response_metadata``: OpenAI's ``token_usage``, Anthropic's ``usage``.
_META_USAGE = (("token_usage", "prompt_tokens", "completion_tokens"), ("usage", "input_tokens", "output_tokens"))


def message_usage(item: dict[str, Any]) -> tuple[int, int] | None:
    """The ``(input, output)`` token counts a message records for the model call that wrote it (:data:`_USAGE`, then
    LangChain's ``response_metadata``), both read (:func:`token_pair`), else None."""
    body = message_fields(item)
    meta = body.get("response_metadata")
    held = [(body.get(h), i, o) for h, i, o in _USAGE]
    held += [(meta.get(h), i, o) for h, i, o in _META_USAGE] if isinstance(meta, dict) else []
    tokens = token_pair((h.get(i), h.get(o)) for h, i, o in held if isinstance(h, dict))
    return (tokens[0], tokens[1]) if tokens[0] is not None and tokens[1] is not None else None


def model_messages(value: Any) -> list[Message]:
    """The messages of ``value`` (:func:`messages`) that the model wrote: not the user's, the system's or the
    tools' (:data:`NOT_SAID`)."""
    return [m for m in messages(value) or [] if m.role not in NOT_SAID]


def model_said(step: Step, said: list[Message]) -> None:
    """Make ``step``'s content and the tool calls it asks for those of the model's messages ``said``: each
    :meth:`Message.shown`, joined by newlines; each call with an id."""
    step.content = "\n".join(t for m in said if (t := m.shown()))
    step.tool_calls_asked = [(i, name) for m in said for i, name, _ in m.calls if i]


def tool_answer(step: Step, result: Any, value: Any) -> Any:
    """A tool call's ``result``, unless ``value`` (the result, or the value its text holds) is a LangChain
    ``ToolMessage``: then its text, its ``tool_call_id`` the step's call, and its ``status`` error the step's
    error (the text then shown once, as the error: the result is None)."""
    answer = message(value)
    if answer is None or answer.role != "tool":
        return result
    step.call_id = answer.call_id or None
    if answer.status == "error":
        step.error = step.error or answer.text or "error status"
        return None if step.error == answer.text else answer.text
    return answer.text
