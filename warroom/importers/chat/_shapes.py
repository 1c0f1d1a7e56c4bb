"""Other message shapes read as OpenAI chat-completions messages, before they are checked (:mod:`._parse`).

- **Anthropic Messages API** (a request body ``{model, system, messages}``, or its message list): an assistant's
  ``tool_use`` content blocks are its ``tool_calls``; a user message's ``tool_result`` blocks are ``tool``
  messages answering them (``is_error`` kept), its other blocks the user's message; ``system`` (text or text
  blocks) is the system prompt.
- **OpenAI's legacy function calling**: an assistant's ``function_call`` is a tool call (id ``function_call-N``,
  N the message's index), and a ``function`` message (``name``, ``content``) answers the latest call of that name
  not yet answered.
- **OpenAI Responses API items** (``response.output``, the Agents SDK's ``to_input_list()``): read by
  :func:`warroom.importers.exports.responses_messages`, the one reader of them.
- **ShareGPT** (``{"conversations": [{"from": "human", "value": ...}, {"from": "gpt", ...}]}``, a common dataset
  format): ``human`` / ``user`` are user messages, ``gpt`` / ``chatgpt`` / ``assistant`` / ``model`` the
  assistant's, ``system`` the system prompt; other speakers (a dataset's ``function_call`` / ``observation``
  turns) are refused by name.
- **Ollama's own chat API** (``/api/chat``): tool calls without an ``id`` (given ``tool_call-N-J``, N the message's
  index), and ``tool`` messages without ``tool_call_id``, each answering the earliest call (with an id or not) of
  its ``tool_name`` not yet answered (else the earliest call not yet answered), as Ollama's clients append results
  in their calls' order.
- **Gemini API** ``contents`` (``{role: user | model, parts: [...]}``): ``model`` turns are the assistant's, their
  ``functionCall`` parts its tool calls (without an ``id``, given one as Ollama's are) and their other parts its
  content (text, a ``thought`` part as ``[thinking] TEXT``: :func:`warroom.importers.exports.part_text`); each
  ``functionResponse`` part a ``tool`` message answering its call, by ``id`` else by its ``name`` as Ollama's (its
  ``error`` a failed result, its ``output`` the result); the parts' keys in the REST API's camel case or the Python
  SDK's snake case (``function_call``).
- **A tool call id used again** (a server that gives every call the id ``0``): each use after the first is made
  unique (``0#1``), and a ``tool`` message naming that id answers the earliest call of it not yet answered.
- **tau2-bench** and other flat tool calls ``{id, name, arguments}`` (no ``function`` object); a ``tool`` message
  naming its call by ``id`` instead of ``tool_call_id``.

Each message comes back with where it was in the file (``messages[3]``), so that errors name the original place.
"""

from __future__ import annotations

from typing import Any

from warroom.importers.chat._frameworks import is_framework_history
from warroom.importers.exports import (
    ANSWERS_FIELD,
    ITEM_INDEX,
    RESPONSES_ITEMS,
    call_form,
    gemini_part,
    is_responses_items,
)
from warroom.importers.kit import TraceError
from warroom.importers.spans import as_text


def _listed(value: Any) -> list[Any]:
    """A list value as it is; anything else (absent, null, or the wrong type, which :mod:`._parse` refuses) empty."""
    return value if isinstance(value, list) else []


def _blocks(content: Any, kind: str) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict) and b.get("type") == kind] if isinstance(content, list) else []


def _anthropic_assistant(m: dict[str, Any], where: str) -> dict[str, Any]:
    uses = _blocks(m.get("content"), "tool_use")
    if not uses or not isinstance(m.get("tool_calls"), (list, type(None))):
        return m  # no blocks, or a malformed tool_calls that parse refuses
    for b in uses:
        if not (isinstance(b.get("id"), str) and b["id"] and isinstance(b.get("name"), str) and b["name"].strip()):
            raise TraceError(f"{where}.content[{m['content'].index(b)}]: a tool_use block needs an `id` and a "
                             "`name`")
    rest = [b for b in m["content"] if b not in uses]
    calls = [call_form(b) for b in uses]
    return {**m, "content": rest, "tool_calls": [*_listed(m.get("tool_calls")), *calls]}


def _anthropic_user(m: dict[str, Any], where: str) -> list[tuple[str, dict[str, Any]]]:
    results = _blocks(m.get("content"), "tool_result")
    if not results:
        return [(where, m)]
    out = []
    for b in results:
        here = f"{where}.content[{m['content'].index(b)}]"
        if not (isinstance(b.get("tool_use_id"), str) and b["tool_use_id"]):
            raise TraceError(f"{here}: a tool_result block needs the `tool_use_id` of the tool_use it answers")
        out.append((here, {"role": "tool", "tool_call_id": b["tool_use_id"], "content": b.get("content", ""),
                           "is_error": b.get("is_error") is True, ANSWERS_FIELD: "tool_use_id"}))
    rest = [b for b in m["content"] if b not in results]
    if rest:
        out.append((where, {**m, "content": rest}))
    return out


def _gemini(m: dict[str, Any]) -> list[dict[str, Any]]:
    """A Gemini API turn (``parts``, no ``content``) as chat messages: its function responses as ``tool`` messages,
    then the turn (``model``: the assistant's) with its function calls as ``tool_calls``; any other message as it
    is."""
    parts = m.get("parts")
    if "content" in m or not isinstance(parts, list):
        return [m]
    parts = [gemini_part(p) for p in parts]
    asked = [p["functionCall"] for p in parts if isinstance(p, dict) and isinstance(p.get("functionCall"), dict)]
    told = [p["functionResponse"] for p in parts if isinstance(p, dict) and isinstance(p.get("functionResponse"), dict)]
    out = [{"role": "tool", "tool_call_id": r.get("id"), "tool_name": r.get("name")}
           | _gemini_response(r.get("response")) for r in told]
    rest = [p for p in parts if not (isinstance(p, dict) and ({"functionCall", "functionResponse"} & set(p)))]
    turn = {k: v for k, v in m.items() if k != "parts"} | {"role": "assistant" if m.get("role") == "model"
                                                            else m.get("role"), "content": rest}
    if asked:
        turn["tool_calls"] = [call_form(c) for c in asked]
    return out + ([turn] if rest or asked or not told else [])


def _gemini_response(response: Any) -> dict[str, Any]:
    """A Gemini function response's tool message fields: its ``error`` a failed result, its ``output`` the result
    (``result`` as the Python SDK's automatic function calling writes it), else the whole response (the API's
    convention: "use output for the function's output and error for its error details")."""
    if isinstance(response, dict) and response and (set(response) <= {"output", "error"}
                                                    or set(response) <= {"result", "error"}):
        if response.get("error") not in (None, "", {}):
            return {"content": as_text(response["error"]), "is_error": True}
        for key in ("output", "result"):
            if key in response:
                return {"content": as_text(response[key])}
    return {"content": as_text(response)}


def _flat_calls(m: dict[str, Any]) -> dict[str, Any]:
    calls = m.get("tool_calls")
    if not isinstance(calls, list) or not any(isinstance(c, dict) and "function" not in c and "name" in c
                                              for c in calls):
        return m
    fixed = [{**c, **call_form(c)} if isinstance(c, dict) and "function" not in c and "name" in c else c
             for c in calls]
    return {**m, "tool_calls": fixed}


def _unnamed_calls(i: int, m: dict[str, Any], open_calls: list[tuple[str, str, bool]]) -> dict[str, Any]:
    """Ollama's own chat API: an assistant's tool calls without an ``id`` get one (``tool_call-N-J``), and a
    ``tool`` message without ``tool_call_id`` answers the earliest unanswered call of its ``tool_name`` (else of its
    ``name``, else the earliest unanswered call): Ollama's clients append results in their calls' order, naming the
    tool only, also where the calls have ids (later Ollama versions give them): such a call is answered by a
    message with Ollama's ``tool_name`` only, a message with neither being no Ollama message."""
    calls = m.get("tool_calls")
    if m.get("role") == "assistant" and isinstance(calls, list):
        fixed = []
        for j, c in enumerate(calls):
            if isinstance(c, dict) and isinstance(c.get("function"), dict):
                given = c.get("id") not in (None, "")
                c = c if given else {**c, "id": f"tool_call-{i}-{j}"}
                open_calls.append((c["id"], str(c["function"].get("name")), given))
            fixed.append(c)
        return {**m, "tool_calls": fixed}
    answers = m.get("tool_call_id")
    if m.get("role") == "tool" and answers not in (None, ""):  # a result naming its call: that call is answered
        open_calls[:] = [c for c in open_calls if c[0] != answers]
        return m
    ollama = isinstance(m.get("tool_name"), str)
    candidates = [c for c in open_calls if ollama or not c[2]]
    if m.get("role") == "tool" and answers in (None, "") and "id" not in m and candidates:
        named = m.get("tool_name") if ollama else m.get("name")
        match = next((c for c in candidates if c[1] == named), None) or candidates[0]
        open_calls.remove(match)
        return {**m, "tool_call_id": match[0]}
    return m


def _legacy_function(i: int, m: dict[str, Any], open_calls: list[tuple[str, str]], where: str
                     ) -> dict[str, Any]:
    """An assistant's ``function_call`` as a tool call; a ``function`` message as the ``tool`` message that answers
    the latest unanswered call of its name (else the latest unanswered call)."""
    fc = m.get("function_call")
    if m.get("role") == "assistant" and isinstance(fc, dict) and isinstance(m.get("tool_calls"), (list, type(None))):
        call_id = f"function_call-{i}"
        open_calls.append((call_id, str(fc.get("name"))))
        return {**m, "tool_calls": [*_listed(m.get("tool_calls")), call_form({"id": call_id, "function": fc})]}
    if m.get("role") == "function":
        match = next((c for c in reversed(open_calls) if c[1] == m.get("name")), None)
        match = match or (open_calls[-1] if open_calls else None)
        if match is None:
            raise TraceError(f"{where}: a `function` message answers no earlier `function_call`")
        open_calls.remove(match)
        return {"role": "tool", "tool_call_id": match[0], "content": m.get("content"), "name": m.get("name")}
    return m


_SHAREGPT_ROLES = {"human": "user", "user": "user", "gpt": "assistant", "chatgpt": "assistant",
                   "assistant": "assistant", "model": "assistant", "bard": "assistant", "system": "system"}


def sharegpt(items: list[Any], where: str) -> list[Any]:
    """ShareGPT turns (``{"from", "value"}``, none with a ``role``) as chat messages; other lists unchanged."""
    if not (all(isinstance(m, dict) and "role" not in m for m in items) and any("from" in m for m in items)):
        return items
    out = []
    for i, m in enumerate(items):
        missing = [k for k in ("from", "value") if k not in m]
        if missing:  # was: `[i].role is None; expected one of system, ...`, of a field ShareGPT does not have
            raise TraceError(f"{where}[{i}]: a ShareGPT turn without `{missing[0]}`; each turn is "
                             '{"from": ..., "value": ...}')
        role = _SHAREGPT_ROLES.get(str(m["from"]).lower())
        if role is None:
            raise TraceError(f"{where}[{i}].from is {m['from']!r}; ShareGPT turns are read from "
                             f"{', '.join(_SHAREGPT_ROLES)}")
        out.append({"role": role, "content": m["value"]})
    return out


def normalize(items: list[Any], where: str) -> list[tuple[str, Any]]:
    """``items`` (the messages of one conversation at ``where``) as chat-completions messages, each with the place
    it came from; anything that is not a message object is passed on unchanged for :mod:`._parse` to refuse."""
    out: list[tuple[str, Any]] = []
    open_calls: list[tuple[str, str]] = []  # legacy function calls not yet answered
    unanswered: list[tuple[str, str, bool]] = []  # tool calls not yet answered (id, tool, whether the id is theirs)
    for i, m in ((i, m) for i, item in enumerate(items) for m in (_gemini(item) if isinstance(item, dict) else [item])):
        here = f"{where}[{m.get(ITEM_INDEX, i) if isinstance(m, dict) else i}]"  # a Responses item's own index
        if not isinstance(m, dict):
            out.append((here, m))
            continue
        m = _unnamed_calls(i, _flat_calls(_legacy_function(i, m, open_calls, here)), unanswered)
        if m.get("role") == "tool" and "tool_call_id" not in m and isinstance(m.get("id"), str):
            m = {**m, "tool_call_id": m["id"], ANSWERS_FIELD: "id"}
        if m.get("role") == "assistant":
            out.append((here, _anthropic_assistant(m, here)))
        elif m.get("role") == "user":
            out.extend(_anthropic_user(m, here))
        else:
            out.append((here, m))
    return _reused_ids(out)


def _reused_ids(places: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A tool call id used again (a server that gives every call the id ``0``) made unique, ``ID#N``, and each tool
    message naming a reused id set to answer the earliest call of that id not yet answered (else its latest call:
    a call may have several results)."""
    calls: dict[str, list[str]] = {}
    answered: set[str] = set()
    taken = {c["id"] for _, m in places if isinstance(m, dict) and isinstance(m.get("tool_calls"), list)
             for c in m["tool_calls"] if isinstance(c, dict) and isinstance(c.get("id"), str)}
    out: list[tuple[str, Any]] = []
    for here, m in places:
        if isinstance(m, dict) and m.get("role") == "assistant" and isinstance(m.get("tool_calls"), list):
            fixed = []
            for c in m["tool_calls"]:
                if isinstance(c, dict) and isinstance(c.get("id"), str) and c["id"]:
                    ids = calls.setdefault(c["id"], [])
                    ids.append(c["id"] if not ids else _unused(f"{c['id']}#{len(ids)}", taken))
                    c = {**c, "id": ids[-1]}
                fixed.append(c)
            m = {**m, "tool_calls": fixed}
        elif isinstance(m, dict) and m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
            ids = calls.get(m["tool_call_id"], [])
            if len(ids) > 1:
                m = {**m, "tool_call_id": next((x for x in ids if x not in answered), ids[-1])}
            answered.add(m["tool_call_id"])
        out.append((here, m))
    return out


def _unused(name: str, taken: set[str]) -> str:
    """``name``, or ``name`` with ``'`` added until it is no id of the conversation (a call's own id may be
    ``0#1``), then taken."""
    while name in taken:
        name += "'"
    taken.add(name)
    return name


def system_prompt(value: Any) -> dict[str, Any] | None:
    """A request's system prompt as a system message: an Anthropic request's top-level ``system`` (text, or a list
    of text blocks), a Responses API request's ``instructions`` (text), a Gemini request's ``systemInstruction``
    (a ``Content``, ``{"parts": [{"text": ...}]}``; the Python SDK's text or list of parts too)."""
    if isinstance(value, dict) and isinstance(value.get("parts"), list):
        value = value["parts"]
    if isinstance(value, str) and value.strip():
        return {"role": "system", "content": value}
    if isinstance(value, list) and value:
        return {"role": "system", "content": [{"type": "text", "text": p} if isinstance(p, str)
                                              else gemini_part(p) for p in value]}
    return None


def request_system(item: dict[str, Any]) -> tuple[str, Any]:
    """The field of a request body ``item`` that holds its system prompt, and its value (see
    :func:`system_prompt`): Anthropic's ``system``, the Responses API's ``instructions``, Gemini's
    ``systemInstruction`` (``system_instruction`` as the Python SDK writes it, at the top or in its ``config``);
    ``("system", None)`` when there is none."""
    config: dict[str, Any] = item["config"] if isinstance(item.get("config"), dict) else {}
    for key, value in (*((k, item.get(k)) for k in ("system", "instructions", "systemInstruction",
                                                    "system_instruction")),
                       ("config.system_instruction", config.get("system_instruction")),
                       ("config.systemInstruction", config.get("systemInstruction"))):
        if value is not None:
            return key, value
    return "system", None


def is_responses_request(item: Any) -> bool:
    """Whether ``item`` is a Responses API request body (``responses.create(model=..., instructions=...,
    input=[...])``): an object whose ``input`` is a list of messages or Responses API items, or text beside a
    ``model`` or ``instructions``, and that has no ``messages``."""
    if not isinstance(item, dict) or "messages" in item:
        return False
    given = item.get("input")
    if isinstance(given, list) and given:
        return is_responses_items(given) or all(isinstance(m, dict) and isinstance(m.get("role"), str)
                                                for m in given)
    return isinstance(given, str) and any(isinstance(item.get(k), str) for k in ("model", "instructions"))


def is_chat(value: Any) -> bool:
    """Whether ``value`` (a file's first JSON value) has the shape of a chat transcript: a message (an object with
    a ``role``), a conversation (an object with ``messages``, ``traj``, ``conversations`` or Gemini's ``contents``),
    Responses API items, a LangChain or Pydantic AI message, or an array of these (or of arrays of them)."""
    item = value
    for _ in range(2):  # an array of conversations, each an array of messages
        if isinstance(item, list) and item:
            item = item[0]
    if not isinstance(item, dict):
        return False
    return (any(isinstance(item.get(k), list) for k in ("messages", "traj", "conversations", "contents"))
            or is_responses_request(item) or isinstance(item.get("role"), str)
            or str(item.get("type")) in RESPONSES_ITEMS or is_framework_history([item]))
