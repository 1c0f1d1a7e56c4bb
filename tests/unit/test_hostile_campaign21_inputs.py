"""Campaign 21 (issue 30), the importers and real traces: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, assert_refused, converter, framework_drill, marked_up

from warroom.core.author import run_checks
from warroom.importers import chat, openai_agents, openinference
from warroom.importers.kit import import_files, recognise
from warroom.importers.spans._step import unwrap_result

THIRD = FIXTURES / "thirdparty"


def _seen(data: dict) -> list[tuple[str, str | None, str | None]]:
    """Each event of an imported drill as (kind, what it says or calls, its status)."""
    return [(e["kind"], e.get("tool", e.get("output", e.get("content"))), e.get("status")) for e in data["trace"]]


def test_a_responses_api_request_body_is_a_conversation_with_its_instructions():
    """The body the Agents SDK sends to `responses.create` (`model`, `instructions`, `input` items), as a request
    log keeps it, was refused ("an object without `messages` (or `traj`) is not a conversation"), and the
    instructions had no place to go."""
    [(data, _)] = converter(chat)(THIRD / "chat-responses-request.json")
    seen = _seen(data)
    assert seen[:3] == [("log", "Resolve refund tickets with the tools.", None),
                        ("human_message", "Customer says order 4417 was charged twice. Refund the duplicate charge, "
                                          "once.", None),
                        ("tool_call", "list_charges", None)]
    assert data["trace"][0]["source"] == "system prompt"
    assert [e for e in seen if e[0] == "tool_call"] == [("tool_call", t, None) for t in
                                                       ("list_charges", "get_order", "crm_lookup", "close_ticket")]
    assert ("tool_result", "{'status': 'ok', 'duplicates': []}", None) in seen
    assert data["models"]["executor"]["name"] == "gpt-4.1"


def test_a_responses_api_request_whose_input_is_text_is_the_users_message(tmp_path: Path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"model": "gpt-5", "input": "Refund order 42."}), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert _seen(data) == [("human_message", "Refund order 42.", None)]


def test_a_gemini_request_keeps_its_system_instruction_and_reads_the_sdks_result_responses():
    """google-genai's `generateContent` body (a chat with a `system_instruction`, its automatic function calling
    answering each call with `{"result": ...}` or `{"error": ...}`): the `systemInstruction` was dropped without a
    word (the drill had no system prompt), and each result was shown wrapped as `{"result": {...}}`, so a field-path
    evidence such as `duplicates` did not reach the tool's own result."""
    [(data, _)] = converter(chat)(THIRD / "chat-gemini-request.json")
    seen = _seen(data)
    assert seen[0] == ("log", "Resolve refund tickets with the tools.", None)
    assert seen[5] == ("tool_result", '{"status": "ok", "duplicates": []}', None)
    assert seen[7][0::2] == ("tool_result", "error") and "503 Service Unavailable" in seen[7][1]


def test_a_gemini_system_instruction_in_the_python_sdks_config_is_the_system_prompt(tmp_path: Path):
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps({"model": "gemini-2.5-flash", "config": {"system_instruction": "Be terse."},
                                "contents": [{"role": "user", "parts": [{"text": "Hi"}]},
                                             {"role": "model", "parts": [{"text": "Hello."}]}]}), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert _seen(data) == [("log", "Be terse.", None), ("human_message", "Hi", None),
                           ("executor_message", "Hello.", None)]


def test_an_item_that_is_not_a_message_is_named_where_it_stands(tmp_path: Path):
    """A message list with one object that is no message (a Responses API `item_reference`, an object without a
    role) was read as a list of conversations and refused at its first, well-formed message: `[0]: an object
    without `messages` (or `traj`) is not a conversation`."""
    convert = converter(chat)
    assert_refused(convert, tmp_path / "ref.json", [{"role": "user", "content": "go"},
                                                    {"type": "item_reference", "id": "msg_1"}],
                   "[1]: a Responses API item of type 'item_reference' is not read")
    assert_refused(convert, tmp_path / "norole.json", [{"role": "user", "content": "go"}, {"content": "hi"}],
                   "[1].role is None; expected one of system")


def _calls(data: dict) -> list[tuple[str, str, object, str, str]]:
    """Each tool call of a drill with its result: (call id, tool, arguments, output, status)."""
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    return [(e["id"], e["tool"], e["arguments"], results[e["id"]]["output"], results[e["id"]].get("status", "ok"))
            for e in data["trace"] if e["kind"] == "tool_call"]


@pytest.mark.parametrize("name", ["openai-tool-loop-openinference.jsonl", "openai-tool-loop-genai.jsonl"])
def test_a_model_traced_alone_gives_its_tool_calls_and_the_results_it_was_sent(name: str):
    """The OpenAI client traced alone (openinference-instrumentation-openai; opentelemetry-instrumentation-openai-v2
    with content on) in an application's own tool loop: no span for the tools, so the drill had no tool call at all
    ("with tools: none"), the calls only as `[tool call ...]` text, and the swallowed timeout's `duplicates: []`,
    which the next model call was sent, nowhere."""
    data = framework_drill(name)
    order = {"order_id": "4417"}
    assert _calls(data) == [
        ("call_handoff_1", "transfer_to_executor", {"ticket": "4417"}, '{"handed_over": "4417"}', "ok"),
        ("call_lc", "list_charges", order, '{"status": "ok", "duplicates": []}', "ok"),
        ("call_go", "get_order", order, '{"order_id": "4417", "captures": [{"id": "ch_1", "amount": 129.9}, '
                                        '{"id": "ch_2", "amount": 129.9}]}', "ok"),
        ("call_crm", "crm_lookup", order, "Error: 503 Service Unavailable: crm is down for maintenance", "ok"),
        ("call_close", "close_ticket", {"ticket": "4417", "resolution": "no duplicate charge"},
         '{"ticket": "4417", "closed": true, "resolution": "no duplicate charge"}', "ok")]
    asked = next(e for e in data["trace"] if e["kind"] == "executor_message" and "list_charges" in e["content"])
    assert [e.get("batch") for e in data["trace"] if e["kind"] == "tool_call"] == [None, *[asked["id"]] * 3, None]
    ids = [e["id"] for e in data["trace"]]
    result = next(e for e in data["trace"] if e["kind"] == "tool_result" and e["call"] == "call_lc")
    assert ids.index(asked["id"]) < ids.index("call_crm") < ids.index(result["id"])  # the batch, then results
    assert result["t"] >= next(e["t"] for e in data["trace"] if e["id"] == "call_crm")
    assert "with tools: close_ticket, crm_lookup, get_order, list_charges, transfer_to_executor" in \
        data["briefing"]["watching"]
    assert "Read from the model calls: 5 tool call(s), which no span of the trace records" in data["source"]


def test_a_model_only_trace_imported_as_a_user_would_can_be_keyed_on_the_swallowed_result(tmp_path: Path):
    path = FIXTURES / "frameworks" / "openai-tool-loop-openinference.jsonl"
    importer = recognise(path)
    assert importer is not None
    [result] = import_files(importer, [path], tmp_path, importer.make_options({"reading_time": 10.0}, None)).imported
    key = ("answer_key:\n  fault: {origin_step: p02, kind: timeout_as_empty, summary: list_charges timed out and its "
           "wrapper said no duplicates.}\n  evidence: [{event: call_lc, path: duplicates}]\n  cascade: []\n"
           "  damage: {unit: USD, entries: [{event: call_close, amount: 129.9}]}\n"
           "  deadline: {event: EVIDENCE, after: 8}\n"
           "  debrief: The empty duplicates list came from a timeout.\n")
    text = result.output.read_text(encoding="utf-8")
    evidence = _result_of(text, "call_lc")
    drill = marked_up(result.output, key.replace("call_lc", evidence).replace("EVIDENCE", evidence))
    assert run_checks(drill).passed, run_checks(drill).problems


def _result_of(text: str, call: str) -> str:
    """The event id of the result answering ``call`` in a drill file's text."""
    lines = text.splitlines()
    at = lines.index(f"  call: {call}")
    return next(line.split(": ")[1] for line in reversed(lines[:at]) if line.startswith("- id: "))


@pytest.mark.parametrize(("module", "name"), [(openai_agents, "openai-agents-sdk-mcp.jsonl"),
                                              (openinference, "oi-agents-mcp.jsonl")])
def test_an_mcp_tools_result_is_its_text_not_the_content_part_around_it(module, name: str):
    """An MCP server's tools called by the Agents SDK (its own trace, and OpenInference's): each result recorded as
    MCP's text content part `{"type": "text", "text": ...}` (the SDK's `str()` of it, or its JSON) was shown as that
    mapping, so a field-path evidence such as `duplicates` did not reach the tool's own result, which is the text:
    what the model was sent."""
    [(data, _)] = converter(module)(THIRD / name)
    [lc, go, crm, close] = _calls(data)
    assert (lc[1], json.loads(lc[3]), lc[4]) == ("list_charges", {"status": "ok", "duplicates": []}, "ok")
    assert json.loads(go[3])["captures"][1]["id"] == "ch_2"
    assert crm[1:] == ("crm_lookup", {"order_id": "4417"}, "Error executing tool crm_lookup", "ok")
    assert json.loads(close[3]) == {"ticket": "4417", "closed": True, "resolution": "no duplicate charge"}


@pytest.mark.parametrize("value", [{"type": "text", "text": "x", "extra": 1}, {"type": "image", "text": "x"},
                                   [{"type": "text", "text": "x"}, {"text": "y"}], {"text": "x"}, []])
def test_only_text_content_parts_are_unwrapped(value):
    assert unwrap_result(value) == (value, False)


def test_a_list_of_text_content_parts_is_their_texts():
    assert unwrap_result([{"type": "text", "text": "a", "annotations": None}, {"type": "text", "text": "b"}]) == \
        ("a\nb", False)


def test_model_only_results_with_a_reused_call_id_answer_each_call_once(tmp_path: Path):
    """The tool-loop trace with every call id `0` (a server that numbers no calls): each result was the first tool
    message of that id in any later input (the conversation is sent whole each time), so all five calls showed the
    handoff's result, `{"handed_over": "4417"}`: the swallowed `duplicates: []` forged away."""
    text = (FIXTURES / "frameworks" / "openai-tool-loop-openinference.jsonl").read_text(encoding="utf-8")
    for call_id in ("call_handoff_1", "call_lc", "call_go", "call_crm", "call_close"):
        text = text.replace(f'"{call_id}"', '"0"')
    path = tmp_path / "reused.jsonl"
    path.write_text(text, encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    assert [(tool, out) for _, tool, _, out, _ in _calls(data)] == [
        ("transfer_to_executor", '{"handed_over": "4417"}'), ("list_charges", '{"status": "ok", "duplicates": []}'),
        ("get_order", '{"order_id": "4417", "captures": [{"id": "ch_1", "amount": 129.9}, {"id": "ch_2", "amount": '
                      '129.9}]}'),
        ("crm_lookup", "Error: 503 Service Unavailable: crm is down for maintenance"),
        ("close_ticket", '{"ticket": "4417", "closed": true, "resolution": "no duplicate charge"}')]


def test_a_gemini_call_without_arguments_dumped_by_the_python_sdk_has_no_arguments(tmp_path: Path):
    """google-genai's `Content.model_dump()` of a call to a tool without parameters writes `args: None` (and every
    other unset field None): the call was imported with an argument `arguments: null` that the model never gave;
    the REST API's form, without `args`, gave `{}`."""
    unset = {"id": None, "partial_args": None, "will_continue": None}
    history = [{"role": "user", "parts": [{"text": "Any open tickets?", "function_call": None}]},
               {"role": "model", "parts": [{"text": None, "function_call": {**unset, "args": None,
                                                                            "name": "list_open_tickets"}}]},
               {"role": "user", "parts": [{"text": None, "function_response": {
                   "id": None, "name": "list_open_tickets", "response": {"output": ["4417"]}}}]},
               {"role": "model", "parts": [{"text": "One: 4417.", "function_call": None}]}]
    path = tmp_path / "history.json"
    path.write_text(json.dumps(history), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [(c[1], c[2], c[3]) for c in _calls(data)] == [("list_open_tickets", {}, '["4417"]')]


@pytest.mark.parametrize("name", ["langchain-create-agent-openinference.jsonl", "langsmith-create-agent-batch.jsonl"])
def test_langchain_create_agent_subagents_are_the_planner_and_the_executor_it_hands_off_to(name: str):
    """LangChain 1's `create_agent` planner calling an executor agent from its tool, over OpenInference and traced
    by LangSmith: the import was refused ("the drill made from this trace does not validate: ... its agent `tools`
    is a tool-host"): the planner's `tools` node, holding the executor's model calls, was read as an agent named
    `tools` (LangSmith's: agents `model` and `tools`, the executor's calls the `tools` agent's)."""
    data = framework_drill(name)
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    [handoff] = [e for e in data["trace"] if e["kind"] == "handoff"]
    assert (handoff["from_agent"], handoff["to_agent"]) == ("planner", "executor")
    assert "(ticket 4417)" in handoff["content"]
    calls = {c[1]: c for c in _calls(data)}
    assert calls["list_charges"][3:] == ('{"status": "ok", "duplicates": []}', "ok")
    assert calls["crm_lookup"][3:] == ("503 Service Unavailable: crm is down for maintenance", "error")
    assert {e["agent"] for e in data["trace"] if e["kind"] == "tool_call"} == {"planner", "executor"}


def test_an_agent_named_tools_is_not_the_tool_host(tmp_path: Path):
    """The same run without `lc_agent_name` (as LangGraph graphs other than create_agent's record it): the node
    `tools` holding a model call is an agent, `tools-agent`, and the drill validates (it was refused)."""
    text = (FIXTURES / "frameworks" / "langchain-create-agent-openinference.jsonl").read_text(encoding="utf-8")
    path = tmp_path / "nodes.jsonl"
    path.write_text(text.replace('\\"lc_agent_name\\"', '\\"lc_agent\\"'), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    names = [a["name"] for a in data["agents"]]
    assert "tools-agent" in names and names.count("tools") == 1


def test_dspy_react_tools_are_named_by_their_tool_not_the_method_called():
    """DSPy's ReAct over OpenInference: TOOL spans without `tool.name`, named `list_charges.__call__`: the drill's
    tools were `list_charges.__call__`, `get_order.__call__` ... (and a damage pattern naming `close_ticket` matched
    no call)."""
    data = framework_drill("dspy-openinference.jsonl")
    assert [(c[1], c[2], c[4]) for c in _calls(data)] == [
        ("list_charges", {"order_id": "4417"}, "ok"), ("get_order", {"order_id": "4417"}, "ok"),
        ("crm_lookup", {"order_id": "4417"}, "error"),
        ("close_ticket", {"ticket": "4417", "resolution": "no duplicate charge"}, "ok"), ("finish", {}, "ok")]


def test_ag2_model_spans_in_the_chat_completions_shape_give_their_calls_and_batch():
    """AG2's TelemetryMiddleware writes each model call's messages in OpenAI's chat-completions shape inside
    `gen_ai.output.messages` (`{"content": null, "tool_calls": [...]}`): every model call was "(the model's output is
    not in the trace)" and the three calls asked at once were no batch."""
    data = framework_drill("ag2-otel.jsonl")
    said = [e["content"] for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert said[0] == '[tool call transfer_to_executor {"ticket": "4417"}]'
    assert "(the model's output is not in the trace)" not in said
    asked = next(e["id"] for e in data["trace"] if e["kind"] == "executor_message")
    assert {e["tool"]: e.get("batch") for e in data["trace"] if e["kind"] == "tool_call"} == {
        "transfer_to_executor": None, "list_charges": asked, "get_order": asked, "crm_lookup": asked,
        "close_ticket": None}


def test_an_executor_on_the_planners_model_is_named_by_it_not_as_missing():
    """Planner and executor both on gpt-4o (LangChain's create_agent run): the drill's executor model was
    `executor (not in the trace)`, at the default price, though every executor call records its model."""
    data = framework_drill("langchain-create-agent-openinference.jsonl")
    assert data["models"]["planner"]["name"] == data["models"]["executor"]["name"] == "gpt-4o-2024-08-06"
