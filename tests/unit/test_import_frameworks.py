"""Traces recorded by real agent frameworks (tests/fixtures/frameworks, recorded by record_frameworks.py there):
the same refund incident in each imports as a multi-agent drill whose agents, steps, handoffs, batches, unwrapped
results and recorded costs match the source; keyed with its natural answer key (origin: the step where the bad
result came back), it validates and passes `warroom check` with --reading-time and no hand edits of times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, framework_drill, marked_up

from warroom.core.author import run_checks
from warroom.core.load import DrillLoadError
from warroom.importers.kit import Price, TraceOptions, convert, import_files, recognise
from warroom.importers.spans._build import NOT_RECORDED

FRAMEWORKS = FIXTURES / "frameworks"
SWALLOWED = '{"status": "ok", "duplicates": []}'


def _by_tool(data: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each tool's (call, result) events."""
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    return {e["tool"]: (e, results[e["id"]]) for e in data["trace"] if e["kind"] == "tool_call"}


def _key(evidence: str, damage: str) -> str:
    return (f"answer_key:\n  fault: {{origin_step: p01, kind: timeout_as_empty, summary: list_charges timed out and "
            f"its wrapper said no duplicates.}}\n  evidence: [{{event: {evidence}, path: duplicates}}]\n"
            f"  cascade: []\n  damage: {{unit: USD refunded wrongly, entries: [{{event: {damage}, amount: 129.9}}]}}\n"
            f"  deadline: {{event: {evidence}, after: 8}}\n  debrief: The empty duplicates list came from a timeout.\n")


def _keyed_passes_check(name: str, tmp_path: Path, evidence_tool: str, damage_tool: str) -> None:
    path = FRAMEWORKS / name
    importer = recognise(path)
    assert importer is not None
    options = importer.make_options({"reading_time": 10.0}, None)
    report = import_files(importer, [path], tmp_path, options)
    [result] = report.imported
    data = _by_tool(framework_drill(name))
    drill = marked_up(result.output, _key(data[evidence_tool][1]["id"], data[damage_tool][1]["id"]))
    assert "Re-timed for reading:" in drill.source
    assert run_checks(drill).passed, run_checks(drill).problems


def test_langgraph_over_openinference_keeps_nodes_batch_and_unwrapped_results(tmp_path: Path) -> None:
    data = framework_drill("langgraph-openinference.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [s["title"] for s in data["plan"]] == [
        "planner turn 1: executor calls list_charges, get_order, crm_lookup and 1 more"]
    tools = _by_tool(data)
    # the ToolNode's calls are the executor's (the node whose model asked for them), one batch
    assert {c["agent"] for c, _ in tools.values()} == {"executor"}
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None
    # a single-argument tool keeps its argument's name; a ToolMessage result is its content
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["list_charges"][1]["output"] == SWALLOWED and tools["list_charges"][1]["status"] == "ok"
    assert tools["crm_lookup"][1]["status"] == "error" and "503" in str(tools["crm_lookup"][1]["output"])
    assert data["briefing"]["goal"].startswith("Customer says order 4417 was charged twice")
    _keyed_passes_check("langgraph-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_agents_sdk_over_openinference_names_the_agents_and_the_handoff(tmp_path: Path) -> None:
    data = framework_drill("openai-agents-openinference.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("Triage", "planner"), ("Refunds", "executor"), ("tools", "tool-host")]
    handoffs = [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"]
    assert handoffs == [("Triage", "Refunds")]
    assert all(e.get("tool") != "handoff to Refunds" for e in data["trace"])
    tools = _by_tool(data)
    assert {tools[t][0]["agent"] for t in tools} == {"Refunds"}
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup_tool")}) == 1
    assert tools["list_charges"][1]["output"] == SWALLOWED
    _keyed_passes_check("openai-agents-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_pydantic_ai_uses_its_recorded_costs(tmp_path: Path) -> None:
    data = framework_drill("pydantic-ai.jsonl", TraceOptions(price=Price(1.0, 1.0)))
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    # every call of gpt-4o recorded operation.cost 0.00165 USD for 420 + 60 tokens: the assumed 1/1 is scaled
    # (ratio kept) so that each call costs what was recorded, whatever --price says
    planner = data["models"]["planner"]
    assert planner["name"] == "gpt-4o-2024-08-06"
    assert (420 * planner["input_usd_per_mtok"] + 60 * planner["output_usd_per_mtok"]) / 1e6 == pytest.approx(0.00165)
    assert "scaled so that its calls cost what the trace recorded (operation.cost)" in data["source"]
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == '{"status":"ok","duplicates":[]}'
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup_tool")}) == 1
    _keyed_passes_check("pydantic-ai.jsonl", tmp_path, "list_charges", "close_ticket")


def test_langfuse_sdk_spans_import_as_its_observations(tmp_path: Path) -> None:
    """The v3+ SDK's OpenTelemetry spans (langfuse.observation.*), refused in a circle before (issue 33, gap 7)."""
    data = framework_drill("langfuse-otel.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert [tools[t][0]["id"] for t in ("list_charges", "get_order", "crm_lookup")] == ["call_lc", "call_go",
                                                                                          "call_crm"]
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert tools["crm_lookup"][1]["status"] == "error"
    assert "from the costs Langfuse recorded" in data["source"]
    _keyed_passes_check("langfuse-otel.jsonl", tmp_path, "list_charges", "close_ticket")


@pytest.mark.parametrize("name", ["langsmith-batch.jsonl", "langsmith-multipart.txt"])
def test_langsmith_ingest_payloads_read_as_their_runs(tmp_path: Path, name: str) -> None:
    """What the langsmith SDK sent to /runs/batch and /runs/multipart (captured on 127.0.0.1) reads as the runs it
    posted and patched: LangGraph's nodes as agents, the ToolNode's calls the executor's, one batch."""
    data = framework_drill(name)
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    tools = _by_tool(data)
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["crm_lookup"][1]["status"] == "error"
    _keyed_passes_check(name, tmp_path, "list_charges", "close_ticket")


def _models(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]


def test_smolagents_over_openinference_unwraps_its_wrappers_and_takes_the_task_as_the_goal(tmp_path: Path) -> None:
    """smolagents' spans: each agent's span is `NAME.run` and records run()'s bound arguments (`{"task": ...,
    "stream": ..., "reset": ...}`) as its input, each tool span `{args, sanitize_inputs_outputs, kwargs}`; the
    manager calls its managed agent as a tool (no tool span: the managed agent's run is under the manager's step)."""
    data = framework_drill("smolagents-openinference.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert data["briefing"]["goal"] == ("Customer says order 4417 was charged twice. Refund the duplicate charge, "
                                        "once.")
    [handoff] = [e for e in data["trace"] if e["kind"] == "handoff"]
    assert (handoff["from_agent"], handoff["to_agent"]) == ("planner", "executor")
    assert handoff["content"].startswith("You're a helpful agent named 'executor'.")  # the task the manager gave
    assert "Ticket 4417: Customer says order 4417 was charged twice" in handoff["content"]
    assert '"stream"' not in handoff["content"]
    tools = _by_tool(data)
    assert [tools[t][0]["id"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")] == [
        "call_lc", "call_go", "call_crm", "call_close"]  # the tool spans record no id: matched by name
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["close_ticket"][0]["arguments"] == {"ticket": "4417", "resolution": "no duplicate charge"}
    assert {tools[t][0]["agent"] for t in ("list_charges", "get_order", "crm_lookup")} == {"executor"}
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None
    assert tools["list_charges"][1]["output"] == SWALLOWED and tools["list_charges"][1]["status"] == "ok"
    assert tools["crm_lookup"][1] == {**tools["crm_lookup"][1], "status": "error",
                                      "output": "RuntimeError: 503 Service Unavailable: crm is down for maintenance"}
    assert [(e["agent"], e["usage"]) for e in _models(data)] == [
        ("planner", {"input_tokens": 420, "output_tokens": 60})] + [
        ("executor", {"input_tokens": 420, "output_tokens": 60})] * 3 + [
        ("planner", {"input_tokens": 420, "output_tokens": 60})]
    # the executor's step span failed with the tool's error, recorded twice as the same exception: said once
    [log] = [e for e in data["trace"] if e["kind"] == "log"]
    assert log["level"] == "error" and log["content"].count("503 Service Unavailable") == 1
    _keyed_passes_check("smolagents-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_llama_index_agent_workflow_names_its_agents_and_drops_phantom_model_calls(tmp_path: Path) -> None:
    """LlamaIndex's AgentWorkflow over openinference-instrumentation-llama-index: no AGENT span; each agent turn is
    an `AgentWorkflow.run_agent_step` CHAIN span whose input names the agent (`current_agent_name='executor'`); the
    `handoff` tool hands the run over; tool results are ToolOutputs, arguments `{kwargs}`; every model call has a
    `_prepare_chat_with_tools` LLM span beside it that calls no model."""
    data = framework_drill("llama-index-openinference.jsonl")
    # in order of appearance: the handoff tool's result comes back before the executor's first turn
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("planner", "planner"), ("tools", "tool-host"), ("executor", "executor")]
    assert data["briefing"]["goal"] == ("Customer says order 4417 was charged twice. Refund the duplicate charge, "
                                        "once.")
    [handoff] = [e for e in data["trace"] if e["kind"] == "handoff"]
    assert (handoff["from_agent"], handoff["to_agent"]) == ("planner", "executor")
    assert handoff["content"] == "Ticket 4417: check order 4417's charges and refund the duplicate once."
    # four model calls (the script's four replies), none of them a _prepare_chat_with_tools span
    assert [(e["agent"], e["usage"]) for e in _models(data)] == [
        ("planner", {"input_tokens": 420, "output_tokens": 60})] + [
        ("executor", {"input_tokens": 420, "output_tokens": 60})] * 3
    assert data["models"]["planner"]["name"] == "gpt-4o-2024-08-06"
    tools = _by_tool(data)
    assert tools["handoff"][0]["agent"] == "planner" and tools["handoff"][0]["id"] == "call_handoff_1"
    assert tools["handoff"][0]["arguments"]["to_agent"] == "executor"  # with the workflow's ctx, as recorded
    assert tools["handoff"][1]["output"].startswith("Agent executor is now handling the request")
    assert {tools[t][0]["agent"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")} == {
        "executor"}
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["list_charges"][1]["output"] == {"status": "ok", "duplicates": []}  # the ToolOutput's raw_output
    assert tools["get_order"][1]["output"]["captures"][1] == {"id": "ch_2", "amount": 129.9}
    assert tools["crm_lookup"][1]["status"] == "error"
    assert tools["crm_lookup"][1]["output"] == "RuntimeError: 503 Service Unavailable: crm is down for maintenance"
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None
    assert [s["title"] for s in data["plan"]] == [
        "planner turn 1: hands off to executor; calls handoff; executor calls list_charges, get_order, crm_lookup "
        "and 1 more"]
    _keyed_passes_check("llama-index-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_openai_v2_without_content_marks_every_result_not_recorded(tmp_path: Path) -> None:
    """opentelemetry-instrumentation-openai-v2's default (content capture off), with opentelemetry-util-genai's
    agent and tool spans: no message, no argument, no result, only names, ids, tokens, finish reasons and errors."""
    data = framework_drill("openai-v2.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert [tools[t][0]["id"] for t in ("list_charges", "get_order", "crm_lookup", "close_ticket")] == [
        "call_lc", "call_go", "call_crm", "call_close"]
    for name in ("transfer_to_executor", "list_charges", "get_order", "close_ticket"):
        assert tools[name][1]["output"] == NOT_RECORDED and tools[name][1]["status"] == "ok"
    # the loud failure was recorded (status and message are not content)
    assert tools["crm_lookup"][1]["status"] == "error"
    assert tools["crm_lookup"][1]["output"] == "503 Service Unavailable: crm is down for maintenance"
    # the three calls ran after the one model call that ended with finish_reason tool_calls: one batch
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None and "batch" not in tools["close_ticket"][0]
    assert "Not recorded: the arguments and result of 4 tool call(s)" in data["source"]
    assert all(e["content"] == "(the model's output is not in the trace)" for e in _models(data))
    # the natural key's evidence is a field of a result the trace does not hold: refused, never keyed blind
    path = FRAMEWORKS / "openai-v2.jsonl"
    importer = recognise(path)
    assert importer is not None
    [result] = import_files(importer, [path], tmp_path, importer.make_options({"reading_time": 10.0}, None)).imported
    with pytest.raises(DrillLoadError, match="duplicates"):
        marked_up(result.output, _key(tools["list_charges"][1]["id"], tools["close_ticket"][1]["id"]))


def test_openai_v2_with_content_keeps_every_fact(tmp_path: Path) -> None:
    """The same run with content capture on the spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only)."""
    data = framework_drill("openai-v2-content.jsonl")
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert data["briefing"]["goal"] == ("Customer says order 4417 was charged twice. Refund the duplicate charge, "
                                        "once.")
    [handoff] = [e for e in data["trace"] if e["kind"] == "handoff"]
    assert (handoff["from_agent"], handoff["to_agent"]) == ("planner", "executor")
    assert handoff["content"] == ("Ticket 4417: Customer says order 4417 was charged twice. Refund the duplicate "
                                  "charge, once.")
    tools = _by_tool(data)
    assert tools["transfer_to_executor"][0]["arguments"] == {"ticket": "4417"}
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert tools["crm_lookup"][1]["status"] == "error"
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None
    assert _models(data)[-1]["content"] == "Ticket 4417 resolved: no duplicate charge."
    assert "Not recorded" not in data["source"]
    _keyed_passes_check("openai-v2-content.jsonl", tmp_path, "list_charges", "close_ticket")


@pytest.mark.parametrize("name", ["strands-agents.jsonl", "strands-agents-latest.jsonl"])
def test_strands_agents_results_are_their_content_blocks_text(tmp_path: Path, name: str) -> None:
    """Strands' tool results are its content blocks (`[{"text": ...}]`): the tool's own result is their text, so
    that a field-path evidence (`duplicates`) reaches it; the agent as a tool hands off, the calls are one batch."""
    data = framework_drill(name)
    assert [(a["name"], a["role"]) for a in data["agents"] if a["role"] != "human"] == [
        ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert tools["close_ticket"][1]["output"] == (
        '{"ticket": "4417", "closed": true, "resolution": "no duplicate charge"}')
    assert tools["crm_lookup"][1]["status"] == "error" and "503" in str(tools["crm_lookup"][1]["output"])
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None
    _keyed_passes_check(name, tmp_path, "list_charges", "close_ticket")


def test_strands_agents_latest_conventions_keep_the_users_request_and_finish_reasons() -> None:
    """With the latest GenAI conventions Strands puts each agent's and model's messages in its own
    `gen_ai.client.inference.operation.details` event, the finish reason inside the output message: the user's
    request is still a human message, and each model call keeps its finish reason."""
    data = framework_drill("strands-agents-latest.jsonl")
    [asked] = [e for e in data["trace"] if e["kind"] == "human_message"]
    assert asked["content"] == data["briefing"]["goal"] and asked["content"].startswith("Customer says order 4417")
    reasons = [e.get("finish_reason") for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert reasons == ["tool_use", "tool_use", "tool_use", "end_turn", "end_turn"]



@pytest.mark.parametrize("name", ["google-adk.jsonl", "google-adk-content.jsonl"])
def test_google_adk_merged_tools_span_is_no_tool_call(name: str) -> None:
    """ADK adds a `(merged tools)` execute_tool span after a turn's parallel calls (the event that merges their
    responses): it calls no tool, and makes no tool call."""
    data = framework_drill(name)
    calls = [e["tool"] for e in data["trace"] if e["kind"] == "tool_call"]
    assert calls == ["transfer_to_agent", "list_charges", "get_order", "crm_lookup", "close_ticket"]
    assert "(merged tools)" not in data["briefing"]["watching"]
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "planner": "planner", "executor": "executor", "tools": "tool-host"}


def test_google_adk_keeps_the_batch_and_the_transfer_to_agent_handoff(tmp_path: Path) -> None:
    """ADK's output messages name the calls by ids of its own (`list_charges_0`), not the ids of the tool spans
    (`adk-...`): the calls it asked for are still one batch, by name; its `transfer_to_agent` tool hands the run to
    the agent its arguments name."""
    data = framework_drill("google-adk-content.jsonl")
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert {tools[t][0]["agent"] for t in tools if t != "transfer_to_agent"} == {"executor"}
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["list_charges"][0]["batch"] is not None and "batch" not in tools["close_ticket"][0]
    assert tools["list_charges"][1]["output"] == SWALLOWED
    _keyed_passes_check("google-adk-content.jsonl", tmp_path, "list_charges", "close_ticket")


def test_semantic_kernel_finish_reason_keeps_the_parallel_calls_one_batch(tmp_path: Path) -> None:
    """Semantic Kernel records a model call's messages in OpenTelemetry logs, not on its span, and its finish reason
    as `gen_ai.response.finish_reason` = `FinishReason.TOOL_CALLS` (the enum's text): that is the finish reason
    `tool_calls`, so the calls the executor's agent ran after that model call are the calls it asked for, one
    batch."""
    data = framework_drill("semantic-kernel.jsonl")
    reasons = [e.get("finish_reason") for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert reasons == ["tool_calls", "tool_calls", "tool_calls", "stop", "stop"]
    tools = _by_tool(data)
    batch = {tools[t][0].get("batch") for t in ("Refunds-list_charges", "Refunds-get_order", "Refunds-crm_lookup")}
    assert len(batch) == 1 and None not in batch and "batch" not in tools["Refunds-close_ticket"][0]
    assert tools["Refunds-list_charges"][1]["output"] == SWALLOWED
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    assert "(7)" not in data["source"]  # the finish reason is read, not counted as unknown
    _keyed_passes_check("semantic-kernel.jsonl", tmp_path, "Refunds-list_charges", "Refunds-close_ticket")


def test_agno_team_member_is_handed_off_to_by_the_team_not_by_its_node_id() -> None:
    """Agno's instrumentor names each agent by `agent.name` and its graph node by a hex id of its own; the member's
    `graph.node.parent_id` is the team's node id: the team hands off to the member, and no agent is named by a node
    id (it was: an agent `abcdd8cbcfca8c06` as the executor, the real executor a sub-agent)."""
    data = framework_drill("agno-openinference.jsonl")
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "planner": "planner", "executor": "executor", "tools": "tool-host"}
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    tools = _by_tool(data)
    assert {tools[t][0]["agent"] for t in tools if t != "delegate_task_to_member"} == {"executor"}
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1


def test_strands_swarm_handoff_tool_hands_the_run_to_the_agent_it_names(tmp_path: Path) -> None:
    """A Strands `Swarm` runs its agents side by side under its `invoke_swarm` span; the planner's `handoff_to_agent`
    call (`{"agent_name": "executor", "message": ...}`) hands the run to the executor: a handoff from the planner,
    not a second request from the user."""
    data = framework_drill("strands-swarm.jsonl")
    assert [(e["from_agent"], e["to_agent"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor")]
    assert len([e for e in data["trace"] if e["kind"] == "human_message"]) == 1
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "planner": "planner", "executor": "executor", "tools": "tool-host"}
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == SWALLOWED
    _keyed_passes_check("strands-swarm.jsonl", tmp_path, "list_charges", "close_ticket")


def test_google_adk_without_content_keeps_the_batch_its_merged_tools_span_closes() -> None:
    """ADK records no content by default, and Gemini's finish reason is `stop` even when it asks for calls: the
    `(merged tools)` span that closes the executor's parallel calls says they were one turn's, one batch of the
    model call before them (the lone call after the next model call is in none)."""
    data = framework_drill("google-adk.jsonl")
    tools = _by_tool(data)
    models = [e for e in data["trace"] if e["kind"] == "executor_message"]
    assert {tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")} == {models[0]["id"]}
    assert "batch" not in tools["close_ticket"][0] and "batch" not in tools["transfer_to_agent"][0]


def test_agno_tool_results_written_with_str_are_read_as_what_the_tools_returned(tmp_path: Path) -> None:
    """Agno's instrumentor records each tool result as Python's `str()` of it (`{'status': 'ok', ...}`): read back
    as the mapping the tool returned (as `openai-agents` reads the SDK's), so that a field-path evidence reaches it."""
    data = framework_drill("agno-openinference.jsonl")
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == {"status": "ok", "duplicates": []}
    assert tools["close_ticket"][1]["output"] == {"ticket": "4417", "closed": True, "resolution": "no duplicate charge"}
    assert tools["crm_lookup"][1]["status"] == "error" and "503" in str(tools["crm_lookup"][1]["output"])
    _keyed_passes_check("agno-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_crewai_traced_alone_keeps_the_request_and_the_agents_reports_and_invents_no_model_call(
        tmp_path: Path) -> None:
    """openinference-instrumentation-crewai alone records no model span: each agent's report is only its
    `ROLE._execute_core` span's output (the task's output as JSON, `raw`). The first task's description is the
    user's request, each agent's `raw` its report (no usage: none is estimated), the executor handed its task with
    the planner's output as context, and the drill says model usage is not recorded (it had no request, no report,
    and only the tool calls)."""
    data = framework_drill("crewai-openinference.jsonl")
    goal = "Customer says order 4417 was charged twice. Refund the duplicate charge, once."
    assert data["briefing"]["goal"] == goal
    said = [e for e in data["trace"] if e["kind"] in ("human_message", "planner_call", "executor_message")]
    plan = "Plan: the executor checks order 4417's charges and refunds the duplicate once."
    assert [(e["kind"], e["agent"], e["content"]) for e in said] == [
        ("human_message", "user", goal), ("planner_call", "planner", plan),
        ("executor_message", "executor", "No duplicate charge on order 4417: list_charges found none. Ticket closed.")]
    assert not any("usage" in e for e in data["trace"])
    assert [(e["from_agent"], e["to_agent"], e["content"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor", f"Carry out the plan for ticket 4417.\n\n{plan}")]
    assert "Not recorded: model usage: the trace has no model span (each agent's report is its own span's output)" \
        in data["source"]
    assert data["trace"][-1]["kind"] == "executor_message"  # the report comes after the tool results it reports on
    tools = _by_tool(data)
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert tools["crm_lookup"][1]["status"] == "error"
    _keyed_passes_check("crewai-openinference.jsonl", tmp_path, "list_charges", "close_ticket")


def test_crewai_agent_whose_model_span_is_recorded_reports_through_it_once(tmp_path: Path) -> None:
    """With a model-call instrumentor beside CrewAI's, an LLM span under the agent records what it wrote: the
    agent span's output is then not a second report (it was read only when no model span is under the agent)."""
    doc = json.loads((FRAMEWORKS / "crewai-openinference.jsonl").read_text(encoding="utf-8"))
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    executor = next(s for s in spans if s["name"] == "executor._execute_core")
    said = "No duplicate charge on order 4417: list_charges found none. Ticket closed."
    attrs = {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o", "llm.token_count.prompt": 420,
             "llm.token_count.completion": 20, "llm.output_messages.0.message.role": "assistant",
             "llm.output_messages.0.message.content": said}
    spans.append({"traceId": executor["traceId"], "spanId": "00000000000000aa", "parentSpanId": executor["spanId"],
                  "name": "ChatCompletion", "kind": "SPAN_KIND_INTERNAL",
                  "startTimeUnixNano": str(int(executor["endTimeUnixNano"]) - 2000),
                  "endTimeUnixNano": str(int(executor["endTimeUnixNano"]) - 1000),
                  "attributes": [{"key": k, "value": {"intValue": str(v)} if isinstance(v, int) else
                                  {"stringValue": v}} for k, v in attrs.items()], "status": {}})
    path = tmp_path / "crewai-with-model.jsonl"
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    importer = recognise(path)
    assert importer is not None
    [(data, _)] = convert(importer, path, None)
    reports = [e for e in data["trace"] if e["kind"] == "executor_message"]
    assert [(e["content"], e["usage"]) for e in reports] == [(said, {"input_tokens": 420, "output_tokens": 20})]
    assert "Not recorded: model usage" not in data["source"]
