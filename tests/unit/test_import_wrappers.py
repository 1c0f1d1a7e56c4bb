"""Framework wrappers around a tool's input and result (issue 33, gap 3), unwrapped so that the drill shows what
the tool itself took and returned, and LlamaIndex's phantom model calls (gap 6)."""

from __future__ import annotations

import json
from pathlib import Path

from warroom.importers.kit import convert, recognise
from warroom.importers.spans._step import unwrap_arguments, unwrap_result


def test_langchain_tool_message_in_each_form_is_its_content() -> None:
    content = '{"status": "ok", "duplicates": []}'
    assert unwrap_result(json.dumps({"type": "tool", "data": {"content": content, "tool_call_id": "c1"}})) == (
        content, False)
    serialised = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"],
                  "kwargs": {"content": "503", "tool_call_id": "c2", "status": "error"}}
    assert unwrap_result(serialised) == ("503", True)
    assert unwrap_result({"type": "tool", "content": "[]", "status": "success"}) == ("[]", False)


def test_llamaindex_tool_output_is_its_raw_output() -> None:
    output = {"content": "{'status': 'ok'}", "tool_name": "list_charges", "raw_input": {"kwargs": {"order_id": "1"}},
              "raw_output": {"status": "ok", "duplicates": []}, "is_error": False}
    assert unwrap_result(json.dumps(output)) == ({"status": "ok", "duplicates": []}, False)
    assert unwrap_result('{"plain": 1}') == ('{"plain": 1}', False)  # anything else as it is
    assert unwrap_result("text") == ("text", False)


def test_smolagents_and_llamaindex_argument_wrappers_are_the_keyword_arguments() -> None:
    smol = {"args": [], "sanitize_inputs_outputs": True, "kwargs": {"order_id": "4417"}}
    assert unwrap_arguments(json.dumps(smol)) == {"order_id": "4417"}
    assert unwrap_arguments({"kwargs": {"order_id": "4417"}}) == {"order_id": "4417"}
    assert unwrap_arguments({"args": ["x"], "kwargs": {"n": 1}}) == {"n": 1, "args": ["x"]}
    assert unwrap_arguments({"kwargs": {"a": 1}, "other": 2}) == {"kwargs": {"a": 1}, "other": 2}


def _oi(sid: str, parent: str, start: int, name: str, attrs: dict) -> dict:
    return {"traceId": "cd" * 16, "spanId": sid, "parentSpanId": parent, "name": name,
            "startTimeUnixNano": str(start * 10**9), "endTimeUnixNano": str(start * 10**9 + 400_000_000),
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]}


def test_llamaindex_prepare_chat_with_tools_spans_are_not_model_calls(tmp_path: Path) -> None:
    path = tmp_path / "llamaindex.json"
    spans = [_oi("0a", "", 1, "FunctionAgent.run", {"openinference.span.kind": "AGENT", "input.value": "hi"}),
             _oi("0b", "0a", 2, "OpenAI._prepare_chat_with_tools", {"openinference.span.kind": "LLM",
                                                                     "input.value": "x" * 20000}),
             _oi("0c", "0a", 3, "OpenAI.achat", {"openinference.span.kind": "LLM", "output.value": "hello",
                                                 "llm.token_count.prompt": "10"}),
             _oi("0d", "0a", 4, "list_charges", {"openinference.span.kind": "TOOL", "input.value": json.dumps(
                 {"kwargs": {"order_id": "4417"}}), "output.value": json.dumps(
                 {"content": "[]", "tool_name": "list_charges", "raw_input": {}, "raw_output": []})})]
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}), encoding="utf-8")
    importer = recognise(path)
    assert importer is not None and importer.name == "openinference"
    [(data, _)] = convert(importer, path)
    models = [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert [e["content"] for e in models] == ["hello"]  # one model call, not two
    [call] = [e for e in data["trace"] if e["kind"] == "tool_call"]
    [result] = [e for e in data["trace"] if e["kind"] == "tool_result"]
    assert call["arguments"] == {"order_id": "4417"} and result["output"] == []
