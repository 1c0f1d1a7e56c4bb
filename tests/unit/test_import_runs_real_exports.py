"""`warroom import langsmith` and `langfuse` on exports as the tools really write them: a LangGraph
`create_react_agent` run recorded by LangChain's tracer and dumped with `run.dict()` (tests/fixtures/thirdparty/
langsmith-react-agent.json), and a trace as Langfuse's v3 SDK and LangChain handler record it
(langfuse-langgraph-v3.json). Each test names the defect it pins down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, LANGFUSE_V3_KEY, converter, marked_up, only_missing_key, sparse_file

from warroom.core.author import run_checks
from warroom.importers import langfuse, langsmith
from warroom.importers.exports import MAX_EXPORT_BYTES, Message, error_text, messages, recorded_prices
from warroom.importers.kit import MAX_TRACE_BYTES, TraceError
from warroom.importers.langfuse import import_langfuse

THIRD = FIXTURES / "thirdparty"
REACT = THIRD / "langsmith-react-agent.json"
LANGFUSE_V3 = THIRD / "langfuse-langgraph-v3.json"
GOAL = "Reconcile March's vendor invoices and pay what is unpaid, once."
convert_langfuse = converter(langfuse)
convert_langsmith = converter(langsmith)


def test_langchain_tuple_messages_are_messages() -> None:
    # graph.invoke({"messages": [("user", "...")]}) is recorded with each tuple as a JSON list
    assert messages({"messages": [["user", "hi"], ["ai", "hello"], ["system", "be brief"]]}) == [
        Message("user", "hi"), Message("assistant", "hello"), Message("system", "be brief")]
    assert messages({"messages": [[["human", "nested"]]]}) == [Message("user", "nested")]
    assert messages({"messages": [["critic", "x"]]}) is None  # not a role LangChain accepts in a tuple
    assert messages({"prompts": ["a", "b"]}) is None


def test_an_error_recorded_with_its_traceback_glued_on_is_its_first_part() -> None:
    # LangChain's tracer writes repr(exception) and the traceback with no newline between them
    raw = "TimeoutError('ERP timed out after 30 s')Traceback (most recent call last):\n  File \"x.py\"\nTimeoutError"
    assert error_text(raw) == "TimeoutError('ERP timed out after 30 s')"
    assert error_text("Traceback (most recent call last):\n  File") == "Traceback (most recent call last):"


def test_a_create_react_agent_run_dumped_with_run_dict() -> None:
    [(data, header)] = convert_langsmith(REACT)
    ev = {e["id"]: e for e in data["trace"]}
    # the root's input is LangGraph's tuple message: the goal and the user's message
    assert data["briefing"]["goal"] == ev["e0001"]["content"] == GOAL
    # the react agent's node is named `agent`: a named agent, not the importer's unnamed default
    assert data["briefing"]["watching"].startswith("Agent agent at work, with tools: erp_close_month")
    assert [(e["id"], e["kind"]) for e in data["trace"]] == [
        ("e0001", "human_message"), ("e0002", "planner_call"), ("call_1", "tool_call"), ("e0004", "tool_result"),
        ("call_2", "tool_call"), ("e0006", "tool_result"), ("e0007", "log"), ("e0008", "log")]
    assert ev["call_1"]["batch"] == ev["call_2"]["batch"] == "e0002"
    assert ev["call_1"]["arguments"] == {"month": "2026-03", "status": "unpaid"}
    assert (ev["e0004"]["output"], ev["e0004"]["call"]) == ("[]", "call_1")  # the ToolMessage dict's content
    # the tool raised: its `outputs` is {} and its error the repr glued to the traceback
    assert (ev["e0006"]["output"], ev["e0006"]["status"]) == ("TimeoutError('ERP timed out after 30 s')", "error")
    assert ev["e0008"]["content"] == "LangGraph failed: TimeoutError('ERP timed out after 30 s')"
    assert ev["e0002"]["usage"] == {"input_tokens": 812, "output_tokens": 44}  # the run's prompt/completion tokens
    # prompt_cost / completion_cost (Decimals, written as text by run.dict() + json.dumps(default=str))
    assert data["models"]["planner"] == {"name": "gpt-4o-2024-08-06", "input_usd_per_mtok": 2.0,
                                         "output_usd_per_mtok": 8.0}
    assert "prices of gpt-4o-2024-08-06 from the costs LangSmith recorded" in data["source"]
    assert "prices of gpt-4o-2024-08-06 from the costs LangSmith recorded" in header


def test_langsmith_costs_as_numbers_and_without_tokens(tmp_path: Path) -> None:
    runs = json.loads(REACT.read_text(encoding="utf-8"))
    llm = next(r for r in runs if r["run_type"] == "llm")
    llm.update(prompt_cost=0.002436, completion_cost=0.00066)
    path = tmp_path / "numbers.json"
    path.write_text(json.dumps(runs), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    assert (data["models"]["planner"]["input_usd_per_mtok"], data["models"]["planner"]["output_usd_per_mtok"]) == (
        3.0, 15.0)
    llm.update(prompt_cost="n/a")
    path.write_text(json.dumps(runs), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    assert data["models"]["planner"]["input_usd_per_mtok"] == 2.5 and "recorded" not in data["source"]
    assert recorded_prices([("m", (1.0, 1.0), (None, 5)), (" ", (1.0, 1.0), (5, 5))]) == {}


def test_a_langfuse_v3_langgraph_trace() -> None:
    [(data, _)] = convert_langfuse(LANGFUSE_V3)
    ev = {e["id"]: e for e in data["trace"]}
    assert data["briefing"]["goal"] == ev["e0001"]["content"] == "Zahle die offenen Märzrechnungen – einmal."
    # usageDetails counts cached input and reasoning output apart from `input` / `output`: added back
    assert ev["e0002"]["usage"] == {"input_tokens": 120, "output_tokens": 30}
    # costDetails likewise: (0.0004 + 0.00002) USD / 120 tokens, (0.00048 + 0.00012) / 30
    assert data["models"]["planner"] == {"name": "gpt-4o-2024-08-06", "input_usd_per_mtok": 3.5,
                                         "output_usd_per_mtok": 20.0}
    # the handler's ToolMessage output: its content, the call it answers, an error status failed
    assert (ev["e0005"]["output"], ev["e0005"]["status"], ev["e0005"]["call"]) == ("[]", "ok", "call_A")
    assert (ev["e0006"]["output"], ev["e0006"]["status"], ev["e0006"]["call"]) == (
        "Error: ValueError('no invoice ids')\n Please fix your mistakes.", "error", "call_B")
    # @observe(as_type="tool") records {"args": [...], "kwargs": {...}}: the keyword arguments, args when any
    assert ev["e0007"]["arguments"] == {"args": ["2026-03"], "note": "nothing to pay"}
    assert ev["e0009"] == {**ev["e0009"], "kind": "log", "level": "error",
                           "content": "checkpoint failed: checkpoint write failed"}
    # a generation still running when exported (no endTime, no output)
    assert ev["e0010"]["content"] == "(the model's output is not in the trace)" and ev["e0010"]["t"] == 12.0


def test_the_langfuse_v3_drill_passes_check_once_marked_up(tmp_path: Path) -> None:
    [result] = import_langfuse([LANGFUSE_V3], tmp_path / "out").results
    assert result.output is not None
    only_missing_key(result.output)
    drill = marked_up(result.output, LANGFUSE_V3_KEY)
    report = run_checks(drill)
    assert report.passed, report.problems


def test_an_export_larger_than_a_trace_file_but_whose_drill_is_small_imports(tmp_path: Path) -> None:
    # every model run's input repeats the conversation: a long agent's export passes 8 MiB, its drill does not
    runs = json.loads(REACT.read_text(encoding="utf-8"))
    llm = next(r for r in runs if r["run_type"] == "llm")
    llm["inputs"] = {"messages": [[{"role": "user", "content": GOAL}, *[{"role": "tool", "content": "x" * 1000,
                                                                         "tool_call_id": f"c{i}"}
                                                                        for i in range(MAX_TRACE_BYTES // 1000)]]]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(runs), encoding="utf-8")
    assert MAX_TRACE_BYTES < path.stat().st_size < MAX_EXPORT_BYTES
    [(data, _)] = convert_langsmith(path)
    assert [e["kind"] for e in data["trace"]][:2] == ["human_message", "planner_call"]
    with pytest.raises(TraceError, match=r"the file is 64\.0 MiB; records are limited to 64 MiB"):
        convert_langfuse(sparse_file(tmp_path / "huge.json", MAX_EXPORT_BYTES + 1))


def test_a_models_thinking_and_reasoning_blocks_are_shown() -> None:
    # ChatAnthropic with extended thinking; LangChain 1.x standard content blocks (output_version="v1")
    anthropic = {"type": "ai", "content": [
        {"type": "thinking", "thinking": "The list is empty; check the cursor.", "signature": "EqQB..."},
        {"type": "text", "text": "Nothing to pay."},
        {"type": "tool_use", "id": "toolu_1", "name": "close", "input": {}}]}
    assert messages(anthropic) == [Message("assistant", "[thinking] The list is empty; check the cursor.\n"
                                                        "Nothing to pay.", [("toolu_1", "close", "{}")])]
    standard = {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "Page 1 of 2."},
                                                 {"type": "text", "text": "Done."}]}
    assert messages(standard) == [Message("assistant", "[reasoning] Page 1 of 2.\nDone.")]


def test_langfuse_inputs_and_outputs_recorded_as_json_text(tmp_path: Path) -> None:
    # the v3 SDK sends input and output as OpenTelemetry attributes, JSON text: read as the values they encode
    trace = json.loads(LANGFUSE_V3.read_text(encoding="utf-8"))
    [expected] = convert_langfuse(LANGFUSE_V3)
    for obs in [trace, *trace["observations"]]:
        for key in ("input", "output"):
            if isinstance(obs.get(key), (dict, list)):
                obs[key] = json.dumps(obs[key], ensure_ascii=False)
    path = tmp_path / "langfuse-langgraph-v3.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    [(data, _)] = convert_langfuse(path)
    ev = {e["id"]: e for e in data["trace"]}
    assert data["briefing"]["goal"] == expected[0]["briefing"]["goal"]
    assert ev["e0002"]["content"] == expected[0]["trace"][1]["content"]
    assert (ev["e0005"]["output"], ev["e0006"]["status"]) == ("[]", "error")


def test_an_observe_decorated_functions_one_text_argument_is_the_users_words() -> None:
    from warroom.importers.langfuse import user_text

    assert user_text({"args": ["Pay March's invoices"], "kwargs": {}}) == "Pay March's invoices"
    assert user_text({"args": [], "kwargs": {"question": "Which?", "limit": 3}}) == "Which?"
    assert user_text({"args": ["a", "b"], "kwargs": {}}) == ""  # two texts: neither is the goal
    assert user_text('{"args": ["from JSON text"], "kwargs": {}}') == "from JSON text"


def test_a_traceable_llm_functions_text_output_is_its_content(tmp_path: Path) -> None:
    # @traceable(run_type="llm") on a function returning text: LangSmith keeps it as {"output": TEXT}
    run = {"id": "b2c3", "name": "summarise", "run_type": "llm", "start_time": "2026-03-20T09:46:40Z",
           "end_time": "2026-03-20T09:46:41Z", "inputs": {"text": "..."}, "outputs": {"output": "Nichts offen."}}
    path = tmp_path / "traceable.json"
    path.write_text(json.dumps([run]), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    assert data["trace"][0]["content"] == "Nichts offen."


def test_a_tool_call_still_running_when_exported_says_so(tmp_path: Path) -> None:
    from warroom.importers.exports import UNFINISHED

    runs = json.loads(REACT.read_text(encoding="utf-8"))
    tool = next(r for r in runs if r["name"] == "erp_list_invoices")
    tool.update(end_time=None, outputs=None, status="pending")
    path = tmp_path / "pending.json"
    path.write_text(json.dumps(runs), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    result = next(e for e in data["trace"] if e["kind"] == "tool_result" and e["call"] == "call_1")
    assert (result["output"], result["status"], result["duration_ms"]) == (UNFINISHED, "ok", 0.0)
    trace = json.loads(LANGFUSE_V3.read_text(encoding="utf-8"))
    audit = next(o for o in trace["observations"] if o["name"] == "audit_log")
    audit.update(endTime=None, output=None)
    path = tmp_path / "running.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    [(data, _)] = convert_langfuse(path)
    assert next(e for e in data["trace"] if e.get("call") == "e0007")["output"] == UNFINISHED


def test_chat_anthropic_through_langchain(tmp_path: Path) -> None:
    # ChatAnthropic: content blocks (text and tool_use) besides tool_calls, `model` and `stop_reason` in the
    # response metadata, usage in usage_metadata (llm_output.usage is Anthropic's own shape)
    message = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": {
        "content": [{"type": "text", "text": "Ich prüfe."},
                    {"type": "tool_use", "id": "toolu_01", "name": "list_invoices", "input": {"month": "2026-03"}}],
        "tool_calls": [{"name": "list_invoices", "args": {"month": "2026-03"}, "id": "toolu_01", "type": "tool_call"}],
        "usage_metadata": {"input_tokens": 120, "output_tokens": 30, "total_tokens": 150},
        "response_metadata": {"id": "msg_1", "model": "claude-sonnet-4-5-20250929", "stop_reason": "tool_use"},
        "type": "ai"}}
    run = {"id": "c3d4", "name": "ChatAnthropic", "run_type": "llm", "start_time": "2026-03-20T09:46:40Z",
           "end_time": "2026-03-20T09:46:41Z", "inputs": {"messages": [[["human", "Rechnungen?"]]]},
           "outputs": {"generations": [[{"text": "", "type": "ChatGeneration", "message": message}]],
                       "llm_output": {"id": "msg_1", "model": "claude-sonnet-4-5-20250929",
                                      "usage": {"input_tokens": 120, "output_tokens": 30}}},
           "extra": {"invocation_params": {"model": "claude-sonnet-4-5"}}}
    path = tmp_path / "anthropic.json"
    path.write_text(json.dumps([run]), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    [event] = data["trace"]
    assert event["content"] == 'Ich prüfe.\n[tool call list_invoices {"month": "2026-03"}]'  # the call once
    assert (event["model"], event["finish_reason"]) == ("claude-sonnet-4-5-20250929", "tool_use")
    assert event["usage"] == {"input_tokens": 120, "output_tokens": 30}
    assert data["briefing"]["goal"] == "Rechnungen?"


def test_openai_responses_api_output_items(tmp_path: Path) -> None:
    # langfuse.openai records a Responses API call's `output` items (one item as itself); wrap_openai (LangSmith)
    # records the Response object, whose `output` holds them
    items = [{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "List, then pay."}]},
             {"type": "function_call", "id": "fc_1", "call_id": "call_L", "name": "erp_list_invoices",
              "arguments": '{"month": "2026-03"}', "status": "completed"},
             {"type": "function_call", "id": "fc_2", "call_id": "call_P", "name": "erp_pay", "arguments": "{}",
              "status": "completed"}]
    assert messages(items) == [Message("assistant", "[reasoning] List, then pay."),
                               Message("assistant", "", [("call_L", "erp_list_invoices", '{"month": "2026-03"}')]),
                               Message("assistant", "", [("call_P", "erp_pay", "{}")])]
    assert messages({"type": "function_call_output", "call_id": "call_L", "output": "[]"}) == [
        Message("tool", "[]", call_id="call_L")]
    run = {"id": "d4e5", "name": "OpenAI", "run_type": "llm", "start_time": "2026-03-20T09:46:40Z",
           "end_time": "2026-03-20T09:46:42Z", "inputs": {"input": "Pay March.", "model": "gpt-5"},
           "outputs": {"id": "resp_1", "object": "response", "model": "gpt-5-2025-08-07", "output": items,
                       "usage": {"input_tokens": 50, "output_tokens": 70}}}
    names = ("erp_list_invoices", "erp_pay")
    tools = [{"id": f"t{i}", "name": name, "run_type": "tool", "parent_run_id": "d4e5",
              "start_time": "2026-03-20T09:46:43Z", "end_time": "2026-03-20T09:46:44Z",
              "inputs": {"month": "2026-03"}, "outputs": {"output": "[]"}} for i, name in enumerate(names)]
    path = tmp_path / "responses.json"
    path.write_text(json.dumps([run, *tools]), encoding="utf-8")
    [(data, _)] = convert_langsmith(path)
    ev = {e["id"]: e for e in data["trace"]}
    assert ev["e0001"]["content"] == ('[reasoning] List, then pay.\n[tool call erp_list_invoices {"month": "2026-03"}]'
                                      "\n[tool call erp_pay {}]")
    assert ev["e0001"]["model"] == "gpt-5-2025-08-07"
    assert ev["e0001"]["usage"] == {"input_tokens": 50, "output_tokens": 70}
    assert [e["id"] for e in data["trace"] if e["kind"] == "tool_call"] == ["call_L", "call_P"]
    assert {e.get("batch") for e in data["trace"] if e["kind"] == "tool_call"} == {"e0001"}
    assert data["briefing"]["goal"] == "Pay March."


def test_epoch_seconds_are_not_read_as_milliseconds() -> None:
    from warroom.importers.exports import time_ns

    # time.time() in seconds (a float) and Date.now() in milliseconds name the same moment
    assert time_ns(1774000000.25, "t") == time_ns(1774000000250, "t") == time_ns("2026-03-20T09:46:40.25Z", "t")
