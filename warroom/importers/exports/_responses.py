"""OpenAI Responses API items (``response.output``, the Agents SDK's ``to_input_list()``): ``message`` items (and
role-only input messages) are messages, ``function_call`` items (``call_id``, else the item's ``id``; ``name``,
``arguments``) the tool calls of the assistant message they follow, ``function_call_output`` items their results, a
``reasoning`` item's summary an assistant message ``[reasoning] ...``; a hosted tool's item (``web_search_call``,
``file_search_call``, ``code_interpreter_call``, ``image_generation_call``, ``mcp_call``) a tool call of the
assistant message it follows and a ``tool`` message with its outcome (:data:`HOSTED_TOOLS`); a ``computer_call`` or
``local_shell_call`` (tools your code runs: the computer action, the shell command) a tool call like a
``function_call``, answered by its ``computer_call_output`` / ``local_shell_call_output`` (:data:`OWN_TOOLS`); other
item types (``shell_call``, ``apply_patch_call``, ...) are refused by name.

Read here once, as chat-completions messages (``role``, ``content``, ``tool_calls``, ``tool_call_id``), for every
importer that meets them: ``chat`` (whole lists, refusing what it does not read), the exports' messages (one item
at a time: LangSmith, Langfuse, the OpenAI Agents SDK's ``Response`` output) and OpenInference's raw values.
"""

from __future__ import annotations

import json
from typing import Any

from warroom.importers.kit import TraceError
from warroom.importers.spans import as_text

#: Key of a normalized tool message naming the source's field that holds the call it answers (for messages).
ANSWERS_FIELD = "_answers_field"
#: Key of a message made from Responses API items: the index of the item it starts at (for messages' places).
ITEM_INDEX = "_item_index"

#: Item types of OpenAI's Responses API (``input``/``output`` items), which is not a list of chat messages: those
#: read, and others recognised so that they are refused by name (``shell_call``, ``apply_patch_call``, ...).
RESPONSES_ITEMS = frozenset({"function_call", "function_call_output", "reasoning", "web_search_call",
                             "file_search_call", "computer_call", "computer_call_output", "code_interpreter_call",
                             "image_generation_call", "mcp_call", "local_shell_call", "local_shell_call_output",
                             "shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output",
                             "custom_tool_call", "custom_tool_call_output", "mcp_list_tools", "mcp_approval_request",
                             "mcp_approval_response", "item_reference"})

#: Responses API items of tools the provider runs, whose call and outcome are one item: the item type, the tool
#: name (``None``: the item's ``name``, an MCP server's tool), the fields that are the call's arguments and the
#: fields that are its outcome (with ``status``). An image's base64 ``result`` is named by its size only.
HOSTED_TOOLS: dict[str, tuple[str | None, tuple[str, ...], tuple[str, ...]]] = {
    "web_search_call": ("web_search", ("action",), ()),
    "file_search_call": ("file_search", ("queries",), ("results",)),
    "code_interpreter_call": ("code_interpreter", ("code", "container_id"), ("outputs",)),
    "image_generation_call": ("image_generation", ("revised_prompt",), ("result",)),
    "mcp_call": (None, ("server_label", "arguments"), ("output", "error")),
}


#: Responses API items of tools the model asks for and your own code runs, whose call and output are two items (as
#: ``function_call`` and ``function_call_output``): the call's item type, the tool name and the fields that are the
#: call's arguments. The output item is the call's type with ``_output`` and answers the call's ``call_id`` (a
#: ``local_shell_call_output`` names it by ``call_id``, or by ``id`` as the API reference has it); a computer
#: call's output is a screenshot, its base64 image named by its size only.
OWN_TOOLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "computer_call": ("computer", ("action", "actions", "pending_safety_checks")),
    "local_shell_call": ("local_shell", ("action",)),
}


def is_responses_items(value: Any) -> bool:
    """Whether ``value`` is a list of OpenAI Responses API items (``{"type": "function_call", "call_id": ...}``)."""
    return isinstance(value, list) and any(isinstance(m, dict) and isinstance(m.get("type"), str)
                                           and m["type"] in RESPONSES_ITEMS and "role" not in m for m in value)


def responses_messages(items: list[Any], where: str) -> list[Any]:
    """OpenAI Responses API items as chat messages (see the module docstring). Raises TraceError for an item type
    that is not read."""
    out: list[Any] = []
    item_ids: dict[str, Any] = {}  # an own tool call's item `id` -> its `call_id`
    for i, item in enumerate(items):
        made = len(out)
        _responses_item(out, item, i, where, item_ids)
        for m in out[made:]:
            m.setdefault(ITEM_INDEX, i)  # messages name the item they come from: `[5].call_id ...`
    return [{k: v for k, v in m.items() if k != "reasoning"} for m in out]


def _responses_item(out: list[Any], item: Any, i: int, where: str, item_ids: dict[str, Any]) -> None:
    """Add the messages of the Responses API item ``item`` (``items[i]``) to ``out``; see
    :func:`responses_messages`."""
    kind = item.get("type", "message") if isinstance(item, dict) else None
    if not isinstance(kind, str | None):  # a list or a mapping as the type: compared, never hashed (HOSTED_TOOLS)
        raise TraceError(f"{where}[{i}].type: a Responses API item's type is text such as `message` or "
                         f"`function_call`, not a {type(kind).__name__} ({str(kind)[:40]}): fix that item")  # fmt: skip
    if kind == "message" or (isinstance(item, dict) and "role" in item and item.get("type") is None):
        out.append({"role": item.get("role"), "content": item.get("content")})
    elif kind == "function_call":
        _add_call(out, {"id": item.get("call_id") or item.get("id"),
                        "function": {k: item[k] for k in ("name", "arguments") if k in item}})
    elif kind in HOSTED_TOOLS and isinstance(item, dict):
        call, result = _hosted_tool(kind, item)
        _add_call(out, call)
        out.append(result)
    elif kind in OWN_TOOLS and isinstance(item, dict):
        name, arguments = OWN_TOOLS[kind]
        if isinstance(item.get("id"), str) and item.get("call_id"):
            item_ids[item["id"]] = item["call_id"]
        _add_call(out, {"id": item.get("call_id") or item.get("id"), "function": {
            "name": name, "arguments": {k: item[k] for k in arguments if item.get(k) not in (None, [], {})}}})
    elif kind in ("computer_call_output", "local_shell_call_output") and isinstance(item, dict):
        out.append(_own_tool_output(kind, item, item_ids))
    elif kind == "function_call_output":
        out.append({"role": "tool", "tool_call_id": item.get("call_id"), "content": _output(item.get("output")),
                    ANSWERS_FIELD: "call_id"})
    elif kind == "reasoning":
        if said := reasoning_text(item):
            out.append({"role": "assistant", "content": said, "reasoning": True})
    else:
        raise TraceError(f"{where}[{i}]: a Responses API item of type {kind!r} is not read (messages, "
                         "function_call, function_call_output, reasoning, computer_call, local_shell_call, their "
                         f"outputs, and hosted tools' items are: {', '.join(HOSTED_TOOLS)})")


def _add_call(out: list[Any], call: dict[str, Any]) -> None:
    """Add ``call`` to the tool calls of the assistant message ``out`` ends with, else to a new one."""
    last = out[-1] if out else None
    if isinstance(last, dict) and last.get("role") == "assistant" and "reasoning" not in last:
        last["tool_calls"] = [*(last.get("tool_calls") or []), call]
    else:
        out.append({"role": "assistant", "content": None, "tool_calls": [call]})


def _hosted_tool(kind: str, item: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A hosted tool's Responses API item (:data:`HOSTED_TOOLS`) as a tool call and the ``tool`` message answering
    it (its outcome as JSON text: ``status`` and the outcome fields)."""
    name, arguments, outcome = HOSTED_TOOLS[kind]
    call_id = item.get("id")
    call = {"id": call_id, "function": {"name": name or item.get("name"),
                                        "arguments": {k: item[k] for k in arguments if item.get(k) is not None}}}
    told = {k: item[k] for k in ("status", *outcome) if item.get(k) is not None}
    if kind == "image_generation_call" and isinstance(told.get("result"), str):
        told["result"] = f"[image, {len(told['result']):,} characters of base64]"
    return call, {"role": "tool", "tool_call_id": call_id, "content": json.dumps(told, ensure_ascii=False)}


def _output(output: Any) -> Any:
    """A ``function_call_output``'s ``output`` as a message's content: text, or a list of content parts
    (``input_text``, ``input_image``, ...) as they are; any other value (an object an SDK recorded as the tool
    returned it) as its JSON, never dropped: a tool result shown empty would read as a failure the trace does not
    hold."""
    if isinstance(output, str) or (isinstance(output, list) and output
                                   and all(isinstance(p, dict) and "type" in p for p in output)):
        return output
    return as_text(output)


def _own_tool_output(kind: str, item: dict[str, Any], item_ids: dict[str, Any]) -> dict[str, Any]:
    """A ``computer_call_output`` or ``local_shell_call_output`` item as the ``tool`` message answering its call
    (by ``call_id``, else by ``id``: the call's ``call_id``, or the call item's own ``id``, looked up in
    ``item_ids``): a shell command's ``output`` verbatim; a computer call's ``status``, ``output`` (the screenshot:
    a ``data:`` URL's base64 named by its size, ``[image, N characters of base64]``) and
    ``acknowledged_safety_checks`` as JSON text."""
    field = "call_id" if item.get("call_id") else "id"
    answers = item.get(field)
    answers = item_ids.get(answers, answers) if field == "id" and isinstance(answers, str) else answers
    if kind == "local_shell_call_output":
        return {"role": "tool", "tool_call_id": answers, "content": item.get("output"), ANSWERS_FIELD: field}
    told = {k: item[k] for k in ("status", "output", "acknowledged_safety_checks") if item.get(k) not in (None, [])}
    shot = told.get("output")
    url = shot.get("image_url") if isinstance(shot, dict) else None
    if isinstance(shot, dict) and isinstance(url, str) and url.startswith("data:"):
        told["output"] = {**shot, "image_url": f"[image, {len(url.partition(',')[2]):,} characters of base64]"}
    return {"role": "tool", "tool_call_id": answers, "content": json.dumps(told, ensure_ascii=False),
            ANSWERS_FIELD: field}


def reasoning_text(item: dict[str, Any]) -> str:
    """A Responses API ``reasoning`` item's summary as ``[reasoning] TEXT`` (its parts' texts joined by newlines),
    as every importer shows it (``chat``, the exports, ``openai-agents``); empty when it holds no text."""
    summary = item.get("summary")
    texts = [p["text"] for p in summary if isinstance(p, dict) and isinstance(p.get("text"), str)] \
        if isinstance(summary, list) else []
    joined = "\n".join(texts)
    return f"[reasoning] {joined}" if joined else ""
