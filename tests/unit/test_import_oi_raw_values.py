"""OpenInference LLM spans that record only the raw response and request (``output.value`` / ``input.value``, JSON)
and no ``llm.output_messages`` / ``llm.input_messages``: the assistant's text and tool calls, and the user's words,
are read from the JSON as the message attributes would give them, never shown as raw JSON. The recorded
fixtures (tests/fixtures/thirdparty, real instrumentations) are imported with and without their message
attributes: the same drill. Other shapes (a list of messages, the Responses API) are built here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, converter

from warroom.importers import openinference
from warroom.importers.exports import Message
from warroom.importers.openinference import value_messages

THIRD = FIXTURES / "thirdparty"
MESSAGE_ATTRIBUTES = ("llm.output_messages.", "llm.input_messages.")


def _without_messages(doc: dict[str, Any]) -> dict[str, Any]:
    for resource in doc["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                span["attributes"] = [a for a in span["attributes"] if not a["key"].startswith(MESSAGE_ATTRIBUTES)]
    return doc


def _strip(source: Path, target: Path) -> int:
    """Write ``source`` (OTLP/JSON, or JSON Lines of it) to ``target`` without the message attributes; returns how
    many attributes went."""
    text = source.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip()] if source.suffix == ".jsonl" else [text]
    docs = [json.loads(line) for line in lines]
    before = json.dumps(docs).count('"llm.')
    stripped = [_without_messages(d) for d in docs]
    target.write_text("\n".join(json.dumps(d) for d in stripped) + "\n", encoding="utf-8")
    return before - json.dumps(stripped).count('"llm.')


@pytest.mark.parametrize("name", ["oi-openai.protobuf.json", "oi-anthropic.jsonl"])
def test_raw_values_give_the_drill_the_messages_give(tmp_path: Path, name: str) -> None:
    stripped = tmp_path / name
    assert _strip(THIRD / name, stripped) > 0
    with_messages = converter(openinference)(THIRD / name)
    raw_only = converter(openinference)(stripped)
    assert len(raw_only) == len(with_messages)
    for (raw, _), (full, _) in zip(raw_only, with_messages, strict=True):
        assert raw["trace"] == full["trace"]
        assert raw["briefing"] == full["briefing"]
    contents = [e["content"] for d, _ in raw_only for e in d["trace"] if e["kind"] == "planner_call"]
    assert not any(c.lstrip().startswith("{") for c in contents)


def _llm_span(sid: str, attrs: dict[str, str]) -> dict[str, Any]:
    return {"traceId": "cd" * 16, "spanId": sid, "parentSpanId": "", "name": "llm",
            "startTimeUnixNano": str(int(sid, 16) * 10**9), "endTimeUnixNano": str(int(sid, 16) * 10**9 + 5),
            "attributes": [{"key": k, "value": {"stringValue": v}}
                           for k, v in {"openinference.span.kind": "LLM", **attrs}.items()]}


def _import(tmp_path: Path, *spans: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "raw.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    return data


def _model_events(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of the model spans (no agent span: the one agent's messages)."""
    return [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]


def test_a_list_of_messages_and_a_responses_api_answer(tmp_path: Path) -> None:
    conversation = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Refund order 42."},
                    {"role": "assistant", "content": "Refunding.",
                     "tool_calls": [{"id": "c1", "type": "function",
                                     "function": {"name": "refund", "arguments": "{\"order\": 42}"}}]}]
    response = {"object": "response", "output": [
        {"type": "reasoning", "summary": []},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]},
        {"type": "function_call", "call_id": "c2", "name": "notify", "arguments": "{}"}]}
    data = _import(tmp_path,
                   _llm_span("01", {"input.value": json.dumps(conversation[:2]),
                                    "output.value": json.dumps(conversation)}),
                   _llm_span("02", {"input.value": json.dumps({"model": "gpt-4.1", "input": "Tell the customer."}),
                                    "output.value": json.dumps(response), "output.mime_type": "application/json"}))
    first, second = _model_events(data)
    assert first["content"] == 'Refunding.\n[tool call refund {"order": 42}]'  # the assistant's, not the request's
    assert second["content"] == "Done.\n[tool call notify {}]"
    assert data["briefing"]["goal"] == "Refund order 42."


@pytest.mark.parametrize("value", [
    "Plain words, not JSON.",
    '{"result": "a JSON answer of no message shape"}',
    '[1, 2, 3]',
    '{"choices": "not a list of choices"',  # broken JSON
])
def test_other_values_stay_as_they_are(tmp_path: Path, value: str) -> None:
    assert value_messages(value, "application/json") is None
    data = _import(tmp_path, _llm_span("01", {"output.value": value}))
    [call] = _model_events(data)
    assert call["content"] == value


def test_an_anthropic_message_and_a_legacy_function_call_are_read() -> None:
    anthropic = {"type": "message", "role": "assistant", "content": [
        {"type": "text", "text": "Looking."}, {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"q": "é"}}]}
    assert value_messages(json.dumps(anthropic), None) == [
        Message("assistant", "Looking.", [("t1", "lookup", '{"q": "é"}')])]
    legacy = {"choices": [{"message": {"role": "assistant", "content": None,
                                       "function_call": {"name": "f", "arguments": "{}"}}}]}
    assert value_messages(json.dumps(legacy), "application/json") == [Message("assistant", "", [("", "f", "{}")])]


@pytest.mark.parametrize("value", [
    '{"role": "assistant", "content": "Refunding.", "tool_calls": 5}',  # tool_calls of no list shape
    '{"choices": [{"message": {"role": "assistant", "content": "Refunding.", "tool_calls": true}}]}',
    '{"role": "assistant", "content": [{"type": "text", "text": "Refunding."}, {"type": ["text"], "text": "?"}]}',
    '{"type": "message", "role": "assistant", "content": [{"type": {"a": 1}}, {"type": "text", "text": "Refunding."}]}',
])
def test_odd_fields_of_a_message_shape_are_passed_over_not_a_traceback(tmp_path: Path, value: str) -> None:
    # a field of the wrong JSON type (a number for tool_calls, a list or an object for a part's type) is not read;
    # the rest of the message is
    data = _import(tmp_path, _llm_span("01", {"output.value": value}))
    [call] = _model_events(data)
    assert call["content"] == "Refunding."


@pytest.mark.parametrize("value", [
    '{"role": "assistant"}',  # a message with nothing in it
    '{"role": "assistant", "content": [{"type": ["text"], "text": "hi"}]}',  # no part read
    '[{"role": "tool", "content": "refunded", "tool_call_id": "c1"}]',  # no message of the model's
])
def test_a_value_of_which_nothing_of_the_model_s_is_read_stays_as_written(tmp_path: Path, value: str) -> None:
    # never "(the model's output is not in the trace)" when the trace holds it: the author reads the value
    data = _import(tmp_path, _llm_span("01", {"output.value": value}))
    [call] = _model_events(data)
    assert call["content"] == value


def test_a_value_whose_text_holds_an_unpaired_surrogate_stays_as_written(tmp_path: Path) -> None:
    # "\ud800" is valid JSON but no character: read as a message it could not be written to the drill (the whole
    # trace failed with a UnicodeEncodeError); as written (its escape kept) it can
    value = '{"role": "assistant", "content": "half \\ud800 a pair"}'
    assert value_messages(value, "application/json") is None
    assert value_messages('{"role": "assistant", "content": "\\u00e9 \\ud83d\\ude00"}', None) == [
        Message("assistant", "é 😀")]  # a paired one is a character
    data = _import(tmp_path, _llm_span("01", {"output.value": value}))
    [call] = _model_events(data)
    assert call["content"] == value
