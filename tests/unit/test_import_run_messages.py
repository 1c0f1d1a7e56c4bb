"""The chat messages LangSmith runs and Langfuse observations hold, in every shape warroom.importers.runs.messages
reads: LangChain serialised and plain messages, role/content dicts, generations, choices, wrappers."""

from __future__ import annotations

from typing import Any

import pytest

from warroom.importers.exports import Message, generation_info, message, messages


def lc(cls: str, **kwargs: Any) -> dict[str, Any]:
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": kwargs}


@pytest.mark.parametrize(("raw", "expected"), [
    (lc("HumanMessage", content="hi"), Message("user", "hi")),
    (lc("AIMessage", content="", tool_calls=[{"name": "pay", "args": {"id": 7}, "id": "c1"}]),
     Message("assistant", "", [("c1", "pay", '{"id": 7}')])),
    (lc("AIMessage", content="ok", additional_kwargs={"tool_calls": [
        {"id": "c2", "type": "function", "function": {"name": "pay", "arguments": '{"id": 8}'}}]}),
     Message("assistant", "ok", [("c2", "pay", '{"id": 8}')])),
    (lc("AIMessage", content="", additional_kwargs={"function_call": {"name": "pay", "arguments": "{}"}}),
     Message("assistant", "", [("", "pay", "{}")])),
    (lc("ToolMessage", content="[]", tool_call_id="c1", status="error"),
     Message("tool", "[]", call_id="c1", status="error")),
    (lc("ChatMessage", content="note", role="critic"), Message("critic", "note")),
    ({"type": "ai", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
     Message("assistant", "a\nb")),
    ({"role": "assistant", "content": [{"type": "text", "text": "looking"},
                                       {"type": "tool_use", "id": "tu1", "name": "find", "input": {"q": "x"}}]},
     Message("assistant", "looking", [("tu1", "find", '{"q": "x"}')])),
    ({"role": "user", "content": None}, Message("user", "")),
])
def test_one_message_of_each_shape(raw: Any, expected: Message) -> None:
    assert message(raw) == expected


@pytest.mark.parametrize("raw", [None, 3, "text", {"content": "no role"}, {"lc": 1, "id": [], "kwargs": {}},
                                 {"type": "unknown", "content": "x"}])
def test_what_is_not_a_message(raw: Any) -> None:
    assert message(raw) is None


def test_containers_of_messages() -> None:
    said = [Message("assistant", "done")]
    assert messages({"messages": [[lc("HumanMessage", content="q")]]}) == [Message("user", "q")]
    assert messages({"generations": [[{"text": "done"}]]}) == said
    assert messages({"generations": [[{"text": "x", "message": lc("AIMessage", content="done")}]]}) == said
    assert messages({"choices": [{"message": {"role": "assistant", "content": "done"}}]}) == said
    assert messages({"message": {"role": "assistant", "content": "done"}}) == said
    assert messages({"output": lc("AIMessage", content="done")}) == said
    assert messages({"answer": 42}) is None and messages([1, 2]) is None
    assert said[0].shown() == "done"
    assert Message("assistant", "x", [("1", "pay", "{}"), ("2", "log", "")]).shown() == (
        "x\n[tool call pay {}]\n[tool call log]")


def test_generation_info_reads_generations_and_choices() -> None:
    out = {"generations": [[{"generation_info": {"finish_reason": "stop"},
                             "message": lc("AIMessage", content="", response_metadata={"model_name": "m-1"},
                                           usage_metadata={"input_tokens": 3, "output_tokens": 4})}]]}
    assert generation_info(out, "finish_reason") == "stop"
    assert generation_info(out, "model_name") == "m-1"
    assert generation_info(out, "input_tokens") == 3
    assert generation_info({"choices": [{"finish_reason": "length"}]}, "finish_reason") == "length"
    assert generation_info({"generations": [[{"message": {"kwargs": None}}]]}, "model_name") is None
    assert generation_info("text", "model_name") is None
