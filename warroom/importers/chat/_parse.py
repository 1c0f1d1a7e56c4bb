"""A chat transcript file checked into :class:`Conversation` objects (shapes and limits in docs/importing.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warroom.importers.chat._frameworks import RECORDED_USAGE, framework_history, is_framework_history, usage_entry
from warroom.importers.chat._shapes import is_responses_request, normalize, request_system, sharegpt, system_prompt
from warroom.importers.exports import (
    ANSWERS_FIELD,
    is_responses_items,
    message_text,
    message_usage,
    part_text,
    responses_messages,
)
from warroom.importers.kit import MAX_CHAT_BYTES, TraceError, json_kind, json_lines, parse_json, read_text

ROLES = ("system", "developer", "user", "assistant", "tool")


@dataclass(frozen=True)
class ToolCall:
    """One call an assistant message asks for: the API's call id, the function name, its arguments (a mapping)."""

    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Message:
    """One message: ``role``, its text (text parts joined), the tool calls it makes, the call id it answers."""

    role: str
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    answers: str | None = None
    name: str | None = None
    error: bool = False
    answers_field: str = "tool_call_id"
    #: the agent a team's planner instructs (``Orchestrator (-> WebSurfer)``: ``WebSurfer``)
    to: str | None = None
    #: the model call's usage as the file recorded it (AutoGen's ``models_usage``, LangChain's ``usage_metadata``,
    #: OpenAI's and Anthropic's ``usage``, Gemini's ``usageMetadata``), None: estimated
    usage: dict[str, int] | None = None


@dataclass
class Conversation:
    """One conversation of a file: ``where`` it is (``[2]`` in an array, empty for the whole file), its messages,
    the model that answered when the file says, and what else the file says about the run (``notes``)."""

    where: str
    index: int | None
    messages: list[Message]
    model: str | None = None
    notes: list[str] = field(default_factory=list)
    #: a team transcript (:mod:`._team`): speakers are agents, the planner's instructions start plan steps
    team: bool = False
    #: the run's id in its dataset (tau-bench's ``task_id``), which its ground truth names
    record_id: str | None = None


def read_conversations(path: Path) -> list[Conversation]:
    """The conversations in the chat transcript file at ``path``: one JSON value, or JSON Lines of conversations
    (one ``{"messages": [...]}`` or message array per line, as OpenAI's fine-tuning and eval files and many logs
    hold them; a last line cut off mid-write is skipped with a warning: :func:`~warroom.importers.kit
    .json_lines`). Raises TraceError (one line, ``line N:`` for JSON Lines) for a file that is not UTF-8 JSON within
    the limits, or not one of the shapes."""
    text = read_text(path, MAX_CHAT_BYTES, TraceError)
    try:
        data = parse_json(text, TraceError, "a chat transcript")
    except TraceError as e:
        return _json_lines(json_lines(text, e, "a chat transcript"))
    return conversations(data)


def _json_lines(lines: list[tuple[int, Any]]) -> list[Conversation]:
    """One conversation per line of JSON Lines (``(line number, value)``); errors name the line."""
    out: list[Conversation] = []
    for i, (n, value) in enumerate(lines):
        try:
            out.append(_conversation(value, f"line {n}", i))
        except TraceError as e:
            raise TraceError(str(e) if str(e).startswith("line ") else f"line {n}: {e}") from None
    return out


def _is_messages(value: Any) -> bool:
    """Whether ``value`` is one conversation's message list: a list holding a message (an object with a text
    ``role``), which a list of conversations never does; its other items are refused where they stand."""
    return isinstance(value, list) and any(isinstance(m, dict) and isinstance(m.get("role"), str) for m in value)


def conversations(data: Any) -> list[Conversation]:
    """The conversations in parsed JSON ``data``: a message list, an object with ``messages`` (or tau-bench's
    ``traj``), or an array of either; messages in the shapes :mod:`._shapes` and :mod:`._frameworks` read too.
    Raises TraceError naming where the shape is wrong (:func:`warroom.importers.kit.refusal` adds the importer
    that reads a file of another format)."""
    if _is_messages(data) or is_responses_items(data) or is_framework_history(data) or isinstance(data, dict):
        return [_conversation(data, "", None)]
    if isinstance(data, list) and data:
        return [_conversation(item, f"[{i}]", i) for i, item in enumerate(data)]
    if isinstance(data, list):
        raise TraceError("not a chat transcript: the top level is an empty JSON array")
    raise TraceError(f"not a chat transcript: the top level is a JSON {json_kind(data)}, not an array or object")


def _conversation(item: Any, where: str, index: int | None) -> Conversation:
    from warroom.importers.chat._team import is_team, team_messages

    notes: list[str] = []
    model = None
    record_id = None
    system: tuple[str, dict[str, Any]] | None = None
    if isinstance(item, dict):
        key = next((k for k in ("messages", "traj", "conversations", "contents") if k in item),
                   "input" if is_responses_request(item) else None)
        if key is None and "trajectory_id" in item and "failures" in item:
            raise TraceError(f"{where or 'the top level'}: this is a ground-truth record (`trajectory_id`, "
                             "`failures`), not a run: give its file with `--ground-truth FILE`, and the runs it "
                             "annotates as PATH")
        if key is None:
            raise TraceError(f"{where or 'the top level'}: an object without `messages` (or `traj`) is not a "
                             "conversation")
        model = item.get("model") if isinstance(item.get("model"), str) and item["model"].strip() else None
        if isinstance(item.get("task_id"), (str, int)) and not isinstance(item.get("task_id"), bool):
            record_id = str(item["task_id"])
        reward = item.get("reward")
        if isinstance(reward, (int, float)) and not isinstance(reward, bool):
            notes.append(f"the run's reward was {reward:g}")
        named, said = request_system(item)  # a request body's system prompt (Anthropic, Responses API, Gemini)
        prompt = system_prompt(said)
        system = (f"{where}.{named}" if where else named, prompt) if prompt else None
        where = f"{where}{': ' if where.startswith('line ') else '.'}{key}" if where else key
        item = item[key] if not isinstance(item[key], str) else [{"role": "user", "content": item[key]}]
    if not isinstance(item, list) or not item:
        raise TraceError(f"{where or 'the top level'}: a conversation is a non-empty array of messages")
    if is_team(item):
        return Conversation(where, index, team_messages(item, where), model, notes, team=True, record_id=record_id)
    if is_responses_items(item):
        item = responses_messages(item, where)
    elif is_framework_history(item):  # LangChain's or Pydantic AI's own message history
        item, said_by = framework_history(item)
        model = model or said_by
    places = ([system] if system else []) + normalize(sharegpt(item, where), where)
    messages = [_message(m, here) for here, m in places]
    _check_answers(messages, [here for here, _ in places])
    return Conversation(where, index, messages, model, notes, record_id=record_id)


def _check_content(content: Any, where: str) -> None:
    """Refuse a message ``content`` that is not text, null or a list of parts (objects with a text ``type``, or
    ``text``); what it shows is read by :func:`~warroom.importers.exports.message_text`, as every importer reads
    it."""
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, dict) or (part_text(part) is None and not isinstance(part.get("type"), str)):
                raise TraceError(f"{where}.content: a content part is an object with `type` (and `text`)")
    elif content is not None and not isinstance(content, str):
        raise TraceError(f"{where}.content is a JSON {json_kind(content)}; it must be text or a list of parts")


def _message(m: Any, where: str) -> Message:
    if not isinstance(m, dict):
        raise TraceError(f"{where} is a JSON {json_kind(m)}, not a message object")
    role = m.get("role")
    if role not in ROLES:
        raise TraceError(f"{where}.role is {role!r}; expected one of {', '.join(ROLES)}")
    _check_content(m.get("content"), where)
    listed = m.get("tool_calls")
    if listed is not None and not isinstance(listed, list):
        raise TraceError(f"{where}.tool_calls is a JSON {json_kind(listed)}, not a list of tool calls")
    calls = tuple(_tool_call(c, f"{where}.tool_calls[{j}]") for j, c in enumerate(listed or []))
    if calls and role != "assistant":
        raise TraceError(f"{where}: only assistant messages make tool calls")
    answers = m.get("tool_call_id")
    if role == "tool" and not (isinstance(answers, str) and answers):
        raise TraceError(f"{where}: a tool message needs the `tool_call_id` of the call it answers")
    name = m.get("name") if isinstance(m.get("name"), str) else None
    recorded = (m.get(RECORDED_USAGE) or usage_entry(message_usage(m))) if role == "assistant" else None
    return Message(role, message_text(m), calls, answers if role == "tool" else None, name,
                   error=m.get("is_error") is True, answers_field=str(m.get(ANSWERS_FIELD, "tool_call_id")),
                   usage=recorded if isinstance(recorded, dict) else None)


def _tool_call(c: Any, where: str) -> ToolCall:
    fn = c.get("function") if isinstance(c, dict) else None
    if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not c["id"] or not isinstance(fn, dict):
        raise TraceError(f"{where}: a tool call is an object with an `id` and a `function`")
    name = fn.get("name")
    if name is not None and not isinstance(name, str):
        raise TraceError(f"{where}.function.name is a JSON {json_kind(name)}, not a tool name")
    if not isinstance(name, str) or not name.strip():
        what = "missing" if "name" not in fn else "null" if name is None else "empty text"
        raise TraceError(f"{where}.function.name is {what}: give the name of the tool called")
    raw = fn.get("arguments", {})
    if isinstance(raw, dict):
        args = raw
    elif raw is None or (isinstance(raw, str) and not raw.strip()):  # a call without arguments, as OpenAI sends it
        args = {}
    else:
        try:
            parsed = parse_json(raw, TraceError, "tool arguments") if isinstance(raw, str) and raw.strip() else None
        except TraceError:
            parsed = None
        args = parsed if isinstance(parsed, dict) else {"arguments": raw}  # kept verbatim when not a JSON object
    return ToolCall(c["id"], name, args)


def _check_answers(messages: list[Message], places: list[str]) -> None:
    """Every tool message answers a call made earlier in the conversation; call ids are unique. ``places`` says
    where each message is in the file."""
    seen: set[str] = set()
    for i, (m, here) in enumerate(zip(messages, places, strict=True)):
        for c in m.tool_calls:
            if c.call_id in seen:
                raise TraceError(f"{here}: tool call id {c.call_id!r} is used twice")
            seen.add(c.call_id)
        if m.answers is not None and m.answers not in seen:
            later = any(c.call_id == m.answers for n in messages[i + 1:] for c in n.tool_calls)
            after = " (its call comes after it in the file: a result must follow its call)" if later else ""
            raise TraceError(f"{here}.{m.answers_field} {m.answers!r} answers no earlier tool call{after}")
