"""An eighteenth hostile campaign, on traces recorded by the current releases of the real SDKs (issue 30): each
recording that imported wrong, with the right reading."""

from __future__ import annotations

from typing import Any

from trace_import_support import FIXTURES, framework_drill

from warroom.importers.kit import convert, recognise


def _by_tool(data: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each tool's (call, result) events."""
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    return {e["tool"]: (e, results[e["id"]]) for e in data["trace"] if e["kind"] == "tool_call"}


def test_agents_sdk_streamed_over_openinference_reads_the_assembled_response() -> None:
    # Runner.run_streamed with the Chat Completions model: the LLM span's output.value is a list holding the
    # Response the SDK assembled from the chunks; its calls keep their ids and their batch, its text is the text
    data = framework_drill("openai-agents-openinference-streamed.jsonl")
    models = [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert [m["content"] for m in models] == [
        "[tool call transfer_to_refunds {}]",
        '[tool call list_charges {"order_id": "4417"}]\n[tool call get_order {"order_id": "4417"}]\n'
        '[tool call crm_lookup_tool {"order_id": "4417"}]',
        '[tool call close_ticket {"ticket": "4417", "resolution": "no duplicate charge"}]',
        "No duplicate charge on order 4417: list_charges found none. Ticket closed."]
    tools = _by_tool(data)
    assert {t: c["id"] for t, (c, _) in tools.items()} == {
        "list_charges": "call_lc", "get_order": "call_go", "crm_lookup_tool": "call_crm", "close_ticket": "call_close"}
    assert {tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup_tool")} == {models[1]["id"]}
    assert tools["list_charges"][1]["output"] == '{"status": "ok", "duplicates": []}'


def test_autogen_runtime_traces_beside_the_agents_are_left_out_not_the_whole_file_refused() -> None:
    # AutoGen opens a trace for each message its runtime publishes: 26 traces; the file was refused for its first
    # trace (a create_agent span alone). The traces its runtime's span links join are one run (one drill: the
    # leftovers of campaign 18, tests/unit/test_leftovers15.py); the create_agent traces are left out
    path = FIXTURES / "frameworks" / "autogen-swarm.jsonl"
    importer = recognise(path)
    assert importer is not None and importer.name == "otel"
    drills = [data for data, _ in convert(importer, path, None)]
    tools = [[e["tool"] for e in d["trace"] if e["kind"] == "tool_call"] for d in drills]
    assert tools == [["transfer_to_executor", "list_charges", "get_order", "crm_lookup", "close_ticket"]]
    assert [a["name"] for a in drills[0]["agents"]] == ["planner", "tools", "executor"]
    crm = [e for e in drills[0]["trace"] if e["kind"] == "tool_result"][3]
    assert crm["status"] == "error" and "503 Service Unavailable" in crm["output"]
    assert all("Traces of the file not imported, none of their spans an agent, model call or tool call: "
               "e184889b9ecae299b1a3f95f6f31aef8, 9bf6b1c431902f235520fdc891e03b9a." in d["source"] for d in drills)



def test_a_langchain_tool_error_is_said_once_without_the_traceback_of_the_recording_machine() -> None:
    # LangGraph's ToolNode over OpenInference: the span's exception event, and a status message that is the same
    # exception's repr glued to its traceback (file paths of the machine that ran the agent)
    data = framework_drill("langgraph-openinference.jsonl")
    crm = _by_tool(data)["crm_lookup"][1]
    assert crm["status"] == "error"
    assert crm["output"] == "RuntimeError: 503 Service Unavailable: crm is down for maintenance"


def _chat(name: str) -> dict[str, Any]:
    path = FIXTURES / "thirdparty" / name
    importer = recognise(path)
    assert importer is not None and importer.name == "chat"
    [data] = [data for data, _ in convert(importer, path, None)]
    return data


def test_a_langchain_message_history_imports_as_a_chat() -> None:
    # messages_to_dict of a LangGraph run's state ({"type": "human" | "ai" | "tool", "data": {...}}): it was refused
    # as "an object without `messages` (or `traj`) is not a conversation"
    data = _chat("chat-langchain-history.json")
    assert data["briefing"]["goal"].startswith("Customer says order 4417 was charged twice")
    tools = _by_tool(data)
    assert {t: (c["id"], c["arguments"]) for t, (c, _) in tools.items()} == {
        "list_charges": ("call_lc", {"order_id": "4417"}), "get_order": ("call_go", {"order_id": "4417"}),
        "crm_lookup": ("call_crm", {"order_id": "4417"}),
        "close_ticket": ("call_close", {"ticket": "4417", "resolution": "no duplicate charge"})}
    assert len({tools[t][0]["batch"] for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][1]["output"] == '{"status": "ok", "duplicates": []}'
    assert "status" not in tools["list_charges"][1]
    # the ToolNode's handled error is a ToolMessage with status "error"
    assert tools["crm_lookup"][1]["status"] == "error" and "503 Service Unavailable" in tools["crm_lookup"][1]["output"]
    said = [e["content"] for e in data["trace"] if e["kind"] == "executor_message"]
    assert said == ["No duplicate charge on order 4417: list_charges found none. Ticket closed."]


def test_a_pydantic_ai_message_history_imports_as_a_chat() -> None:
    # result.all_messages_json(): request / response messages of parts; the retried call's tool-return (outcome
    # "retried") is a failed result, the instructions the system prompt, the response's model_name the model
    data = _chat("chat-pydantic-ai-history.json")
    assert data["models"]["executor"]["name"].startswith("function:scripted")
    assert [e["content"] for e in data["trace"] if e["kind"] == "log"] == ["Resolve refund tickets with the tools."]
    calls = [e for e in data["trace"] if e["kind"] == "tool_call"]
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    assert [(c["id"], c["tool"], c["arguments"]) for c in calls] == [
        ("call_lc", "list_charges", {"order_id": "4417"}), ("call_go", "get_order", {"order_id": "4417"}),
        ("call_lc2", "list_charges", {"order_id": "ORD-4417"}),
        ("call_close", "close_ticket", {"ticket": "4417", "resolution": "no duplicate charge"})]
    assert (results["call_lc"]["status"], results["call_lc"]["output"]) == ("error", "order ids look like ORD-4417")
    assert "status" not in results["call_lc2"] and results["call_lc2"]["output"] == '{"status":"ok","duplicates":[]}'


def test_an_autogen_team_message_log_imports_as_a_chat_of_its_agents() -> None:
    # a Swarm's TaskResult.messages, each model_dump(): AutoGen's traces hold no content, this log is its record;
    # it was refused as "an object without `messages` (or `traj`) is not a conversation"
    data = _chat("chat-autogen-messages.json")
    # the task is a MultiModalMessage: the customer's words and a screenshot, named, never its base64 bytes
    assert data["briefing"]["goal"] == (
        "Customer says order 4417 was charged twice. Refund the duplicate charge, once.\n[image]")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "executor"), ("executor", "sub-agent"), ("tools", "tool-host")]
    tools = _by_tool(data)
    assert {t: c["agent"] for t, (c, _) in tools.items()} == {
        "transfer_to_executor": "planner", "list_charges": "executor", "get_order": "executor",
        "crm_lookup": "executor", "close_ticket": "executor"}
    assert len({tools[t][0]["batch"] for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][1]["output"] == "{'status': 'ok', 'duplicates': []}"
    assert tools["crm_lookup"][1]["status"] == "error" and "503 Service Unavailable" in tools["crm_lookup"][1]["output"]
    # the HandoffMessage and ToolCallSummaryMessages repeat the results: read once
    assert len([e for e in data["trace"] if e["kind"] == "tool_result"]) == 5
    said = [(e["agent"], e["content"]) for e in data["trace"] if e["kind"] == "executor_message"]
    assert said == [
        ("executor", "No duplicate charge on order 4417: list_charges found none. Ticket closed. TERMINATE")]


def test_a_server_tool_call_part_shows_its_tool_and_query_and_its_response() -> None:
    # opentelemetry-util-genai 1.3b0: the planner's output holds a web search the provider ran; it was shown as
    # "[server_tool_call part]", the tool, its query and its results lost
    path = FIXTURES / "thirdparty" / "genai-util-server-tools.jsonl"
    importer = recognise(path)
    assert importer is not None and importer.name == "otel"
    [data] = [data for data, _ in convert(importer, path, None)]
    [plan] = [e["content"] for e in data["trace"] if e["kind"] == "planner_call"]
    assert plan.splitlines() == [
        "[reasoning] The refund policy first, then the executor.",
        '[server tool call web_search {"type": "web_search", "query": "duplicate charge refund policy"}]',
        '[server tool call response ws_1 {"results": [{"title": "Refunds", "snippet": "Refund a duplicate once."}]}]',
        "Handing ticket 4417 to the executor.",
        '[tool call transfer_to_executor {"ticket": "4417"}]']
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == '{"status":"ok","duplicates":[]}'
    assert tools["crm_lookup"][1]["status"] == "error"


def test_langgraph_subgraph_agents_handing_off_by_command_are_named_and_handed_off() -> None:
    # LangGraph's multi-agent pattern: each agent a create_react_agent subgraph (its AGENT span named `agent`), the
    # handoff a tool returning Command(goto=..., graph=Command.PARENT), which LangGraph raises as ParentCommand
    # (an exception event on spans whose status is OK). They imported as one agent `agent`, three error logs
    # "... failed: langgraph.errors.ParentCommand", the Command's JSON as the result and the state's JSON as goal
    data = framework_drill("langgraph-handoff-openinference.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("planner", "planner"), ("tools", "tool-host"), ("executor", "executor")]
    assert data["briefing"]["goal"] == "Customer says order 4417 was charged twice. Refund the duplicate charge, once."
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    assert [e for e in data["trace"] if e["kind"] == "log"] == []
    tools = _by_tool(data)
    assert tools["transfer_to_executor"][0]["agent"] == "planner"
    assert tools["transfer_to_executor"][1]["output"] == "Ticket 4417 handed to the executor."
    assert {tools[t][0]["agent"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")} == {"executor"}
    assert tools["crm_lookup"][1]["status"] == "error"
    assert tools["list_charges"][1]["output"] == '{"status": "ok", "duplicates": []}'


def test_langgraph_handoff_by_command_traced_by_langsmith_is_a_handoff_not_three_errors() -> None:
    # LangChain's tracer records LangGraph's ParentCommand as the error of the tools node and of the planner's runs
    data = framework_drill("langsmith-handoff-batch.jsonl")
    assert [e for e in data["trace"] if e["kind"] == "log"] == []
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert tools["transfer_to_executor"][1]["output"] == "Ticket 4417 handed to the executor."
    assert "status" not in tools["transfer_to_executor"][1] or tools["transfer_to_executor"][1]["status"] == "ok"
    assert {tools[t][0]["agent"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")} == {"executor"}
    assert tools["crm_lookup"][1]["status"] == "error"


def test_langgraph_subgraph_agents_traced_by_langfuse_are_two_agents_not_one_named_agent() -> None:
    # Langfuse's CallbackHandler types each create_react_agent's model node `agent` as an AGENT observation named
    # `agent`: the planner's and the executor's work was one agent's, and the Command was the handoff's result
    data = framework_drill("langfuse-handoff-otel.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("tools", "tool-host"), ("executor", "executor")]
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert tools["transfer_to_executor"][1]["output"] == "Ticket 4417 handed to the executor."
    assert {tools[t][0]["agent"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")} == {"executor"}
    said = [(e["agent"], e["content"]) for e in data["trace"] if e["kind"] == "executor_message"]
    assert said[-1] == ("executor", "No duplicate charge on order 4417: list_charges found none. Ticket closed.")


def test_agents_sdk_function_spans_without_sensitive_data_are_not_recorded_not_empty_results() -> None:
    # RunConfig(trace_include_sensitive_data=False): function spans export `input: null, output: null`; each result
    # was an empty text with status ok, the very shape of a silent failure
    path = FIXTURES / "thirdparty" / "openai-agents-sdk-redacted.jsonl"
    importer = recognise(path)
    assert importer is not None and importer.name == "openai-agents"
    [(data, _)] = convert(importer, path, None)
    results = {c["tool"]: r for c, r in _by_tool(data).values()}
    for tool in ("list_charges", "get_order", "close_ticket"):
        assert results[tool]["output"].startswith("(not recorded: "), results[tool]
    assert results["crm_lookup"]["status"] == "error"
    assert "Error details are redacted" in results["crm_lookup"]["output"]
    assert "Not recorded: the arguments and result of 3 tool call(s)" in data["source"]


def test_openinference_masked_values_are_not_recorded_not_the_text_redacted() -> None:
    # OPENINFERENCE_HIDE_INPUTS / _OUTPUTS: every value written as `__REDACTED__`. It was the goal, three user
    # messages, every model output and every tool result (status ok), and the ToolNode's calls went to a second
    # executor `agent`
    data = framework_drill("langgraph-openinference-hidden.jsonl")
    assert "__REDACTED__" not in str(data)
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [e for e in data["trace"] if e["kind"] == "human_message"] == []
    tools = _by_tool(data)
    assert {c["agent"] for c, _ in tools.values()} == {"executor"}
    for tool in ("list_charges", "get_order", "close_ticket"):
        assert tools[tool][1]["output"].startswith("(not recorded: "), tools[tool]
    assert tools["crm_lookup"][1]["status"] == "error" and "503" in tools["crm_lookup"][1]["output"]


def test_langsmith_runs_sent_with_hidden_inputs_and_outputs_are_not_recorded_not_empty_results() -> None:
    # LANGSMITH_HIDE_INPUTS / LANGSMITH_HIDE_OUTPUTS: the SDK sends every run's inputs and outputs as {}; each tool
    # result was `{}` with status ok
    data = framework_drill("langsmith-hidden-batch.jsonl")
    tools = _by_tool(data)
    for tool in ("list_charges", "get_order", "close_ticket"):
        assert tools[tool][1]["output"].startswith("(not recorded: "), tools[tool]
    assert tools["crm_lookup"][1]["status"] == "error" and "503" in tools["crm_lookup"][1]["output"]
    assert "Not recorded: the arguments and result of 3 tool call(s)" in data["source"]


def test_tool_results_a_user_message_carries_are_not_the_users_words() -> None:
    # Pydantic AI with include_content=False: its user messages hold only the tool_call_response parts (ids) it
    # sends tool results in; the goal and the handoff's message were "[tool call response call_lc]..."
    data = framework_drill("pydantic-ai-no-content.jsonl")
    assert data["briefing"]["goal"].startswith("(the trace records no user request")
    assert "tool call response" not in str([e for e in data["trace"] if e["kind"] in ("human_message", "handoff")])
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"].startswith("(not recorded: ")


def test_gemini_calls_asked_without_ids_keep_their_batch() -> None:
    # openinference-instrumentation-google-genai: Gemini's function calls have no ids, nor have the TOOL spans the
    # agent's code makes for them; the two calls of one model turn were not one batch
    path = FIXTURES / "thirdparty" / "oi-gemini.jsonl"
    importer = recognise(path)
    assert importer is not None and importer.name == "openinference"
    [data] = [data for data, _ in convert(importer, path, None)]
    [model, _] = [e for e in data["trace"] if e["kind"] == "planner_call"]
    tools = _by_tool(data)
    assert [tools[t][0].get("batch") for t in ("get_invoices", "get_credits")] == [model["id"], model["id"]]
    assert tools["get_invoices"][0]["arguments"] == {"month": "2026-03"}


def test_agents_sdk_calls_of_a_turn_whose_output_is_not_in_the_trace_are_one_batch() -> None:
    # a model span without its output (the Responses model's `response` spans always; here generation spans
    # recorded without sensitive data) names no call: the three function calls the SDK ran for that turn, in
    # parallel, were three unbatched calls
    path = FIXTURES / "thirdparty" / "openai-agents-sdk-redacted.jsonl"
    importer = recognise(path)
    assert importer is not None
    [(data, _)] = convert(importer, path, None)
    turns = [e["id"] for e in data["trace"] if e["kind"] == "executor_message"]
    tools = _by_tool(data)
    assert {tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")} == {turns[0]}
    assert tools["close_ticket"][0].get("batch") is None
