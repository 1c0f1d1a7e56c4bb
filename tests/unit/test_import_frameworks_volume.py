"""A second incident recorded by real frameworks (tests/fixtures/frameworks/record_volume.py): three delegations,
the bad result in the second, the damage in the third, so that the natural answer key's origin is neither the first
nor the last plan step. Each trace is compared with the source (the OTLP/JSON spans as recorded) field by field:
agents, plan steps, handoffs, the batch, results and recorded costs; keyed with its natural answer key it validates
and passes `warroom check` with --reading-time and no hand edits of times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, framework_drill, marked_up

from warroom.core.author import run_checks
from warroom.core.play import trace_cost
from warroom.importers.kit import Price, TraceOptions, import_files, recognise

FRAMEWORKS = FIXTURES / "frameworks"
SWALLOWED = {"volume_id": "vol-7", "snapshots": []}
TASKS = ["Describe vol-7: its size and use.", "Check vol-7's snapshots and our quota.", "Resize vol-7 to 200 GB."]


def _spans(path: Path) -> list[dict[str, Any]]:
    """Every span of an OTLP/JSON Lines file, as recorded, attributes as a plain dict."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for rs in json.loads(line)["resourceSpans"]:
            for ss in rs["scopeSpans"]:
                for s in ss["spans"]:
                    attrs = {a["key"]: next(iter(a["value"].values())) for a in s.get("attributes", [])}
                    out.append({**s, "attributes": attrs})
    return out


def _calls(data: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    return {e["id"]: (e, results[e["id"]]) for e in data["trace"] if e["kind"] == "tool_call"}


def _plan_of(data: dict[str, Any], event: str) -> str:
    return next(e["step"] for e in data["trace"] if e["id"] == event)


def _assert_shape(data: dict[str, Any], planner: str, executor: str, quota: str) -> dict[str, Any]:
    """What every recording of the incident holds: four plan steps (three delegations and the final reply), the
    executor's calls in the step of the delegation that asked for them, the two calls of the second one batch."""
    assert [s["id"] for s in data["plan"]] == ["p01", "p02", "p03", "p04"]
    calls = _calls(data)
    assert [(c["tool"], _plan_of(data, i)) for i, (c, _) in calls.items()
            if c["agent"] == executor and c["tool"] not in ("final_answer", "handoff")] == [
        ("describe_volume", "p01"), ("list_snapshots", "p02"), (quota, "p02"), ("resize_volume", "p03")]
    assert calls["call_ls"][0]["batch"] is not None and calls["call_ls"][0]["batch"] == calls["call_gq"][0]["batch"]
    assert "batch" not in calls["call_dv"][0] and "batch" not in calls["call_rv"][0]
    assert calls["call_ls"][0]["arguments"] == {"volume_id": "vol-7"}
    assert calls["call_rv"][0]["arguments"] == {"volume_id": "vol-7", "size_gb": 200, "skip_snapshot": True}
    swallowed = calls["call_ls"][1]["output"]  # a JSON text, or the object a framework's wrapper held (unwrapped)
    assert (swallowed if isinstance(swallowed, dict) else json.loads(swallowed)) == SWALLOWED
    assert calls["call_ls"][1]["status"] == "ok"
    roles = {a["name"]: a["role"] for a in data["agents"]}
    assert (roles[planner], roles[executor]) == ("planner", "executor")
    return calls


def _keyed_passes_check(name: str, tmp_path: Path, calls: dict[str, Any]) -> None:
    """The natural key: origin the step where list_snapshots' swallowed result came back (p02), evidence its
    `snapshots`, damage the resize without a snapshot (p03)."""
    path = FRAMEWORKS / name
    importer = recognise(path)
    assert importer is not None
    [result] = import_files(importer, [path], tmp_path, importer.make_options({"reading_time": 10.0}, None)).imported
    evidence, damage = calls["call_ls"][1]["id"], calls["call_rv"][1]["id"]
    drill = marked_up(result.output, (
        "answer_key:\n  fault: {origin_step: p02, kind: swallowed_error, summary: list_snapshots was denied and "
        "its wrapper said there are no snapshots.}\n"
        f"  evidence: [{{event: {evidence}, path: snapshots}}]\n  cascade: [p03]\n"
        f"  damage: {{unit: volumes resized without a snapshot, entries: [{{event: {damage}, amount: 1}}]}}\n"
        f"  deadline: {{event: {evidence}, after: 8}}\n  debrief: No snapshot at all on a production volume is "
        "a wrapper's empty answer, not a fact.\n"))
    assert "Re-timed for reading:" in drill.source
    assert run_checks(drill).passed, run_checks(drill).problems


def test_langgraph_three_delegations_are_three_plan_steps(tmp_path: Path) -> None:
    data = framework_drill("volume-langgraph.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    assert [e["content"] for e in data["trace"] if e["kind"] == "planner_call"] == [
        *(f"Executor: {t}" for t in TASKS), "vol-7 is now 200 GB."]
    # the ToolNode's handled error: the span's error status and exception, not an ok result
    assert calls["call_gq"][1]["status"] == "error"
    assert calls["call_gq"][1]["output"].startswith("RuntimeError: 429 Too Many Requests: quota API rate limit")
    _keyed_passes_check("volume-langgraph.jsonl", tmp_path, calls)


def test_pydantic_ai_three_delegations_keep_handoffs_and_recorded_costs(tmp_path: Path) -> None:
    data = framework_drill("volume-pydantic-ai.jsonl", TraceOptions(price=Price(1.0, 1.0)))
    calls = _assert_shape(data, "planner", "executor", "get_quota_tool")
    assert [(e["from_agent"], e["to_agent"], e["content"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor", t) for t in TASKS]
    assert json.loads(calls["call_gq"][1]["output"]) == {"error": "429 Too Many Requests: quota API rate limit"}
    # each delegation's result is the executor's report, as the planner's tool got it
    assert [calls[f"call_plan_{i}"][1]["output"] for i in (1, 2, 3)] == [
        e["content"] for e in data["trace"] if e["kind"] == "executor_message" and "[tool call" not in e["content"]]
    # recorded costs: the drill's calls, planner's and executor's, cost what the spans recorded, whatever --price
    spans = _spans(FRAMEWORKS / "volume-pydantic-ai.jsonl")
    recorded = sum(s["attributes"]["operation.cost"] for s in spans if "operation.cost" in s["attributes"])
    assert recorded > 0
    drill = marked_up(_written(tmp_path, "volume-pydantic-ai.jsonl", Price(1.0, 1.0)))
    cost = trace_cost(drill)
    assert cost.total.calls == sum(1 for s in spans if "operation.cost" in s["attributes"])
    assert cost.total.usd == pytest.approx(recorded)
    _keyed_passes_check("volume-pydantic-ai.jsonl", tmp_path / "keyed", calls)


def test_agents_sdk_agent_as_tool_three_delegations(tmp_path: Path) -> None:
    data = framework_drill("volume-openai-agents.jsonl")
    calls = _assert_shape(data, "Ops", "Executor", "get_quota_tool")
    # each handoff carries the task the agent-as-tool call gave (the Executor's spans record no input of their own)
    assert [(e["from_agent"], e["to_agent"], e["content"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("Ops", "Executor", t) for t in TASKS]
    assert [calls[f"call_plan_{i}"][0]["arguments"] for i in (1, 2, 3)] == [{"input": t} for t in TASKS]
    # the SDK caught the tool's 429 and gave the model its own message, redacting the details: as recorded
    assert calls["call_gq"][1]["status"] == "error"
    assert calls["call_gq"][1]["output"] == {
        "result": "An error occurred while running the tool. Please try again.",
        "error": "Error running tool (non-fatal): {'tool_name': 'get_quota_tool', 'error': 'Tool execution failed. "
                 "Error details are redacted.'}"}
    _keyed_passes_check("volume-openai-agents.jsonl", tmp_path, calls)


def test_smolagents_managed_agent_called_three_times(tmp_path: Path) -> None:
    """smolagents: the manager calls its managed agent as a tool (no tool span); the tool spans record no call id
    (matched by name to the model's calls), the 429 is raised (the tool span's error, and the step's log)."""
    data = framework_drill("volume-smolagents.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    handoffs = [e for e in data["trace"] if e["kind"] == "handoff"]
    assert [(e["from_agent"], e["to_agent"], _plan_of(data, e["id"])) for e in handoffs] == [
        ("planner", "executor", p) for p in ("p01", "p02", "p03")]
    assert all(t in e["content"] for e, t in zip(handoffs, TASKS, strict=True))  # smolagents' prompt holds the task
    assert calls["call_gq"][1] == {**calls["call_gq"][1], "status": "error",
                                   "output": "RuntimeError: 429 Too Many Requests: quota API rate limit"}
    assert [calls[f"call_final_{i}"][1]["output"] for i in (1, 2, 3)] == [
        "vol-7 is 100 GB, 91% used.", "vol-7 has no snapshots; the quota API is rate limited.",
        "vol-7 resized to 200 GB (no snapshot: it had none)."]
    _keyed_passes_check("volume-smolagents.jsonl", tmp_path, calls)


def test_llama_index_agents_hand_the_run_back_and_forth(tmp_path: Path) -> None:
    """LlamaIndex's AgentWorkflow: planner and executor hand the run to each other with the `handoff` tool, three
    times each way; ToolOutput results unwrapped to the tools' own objects."""
    data = framework_drill("volume-llama-index.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    reports = [c[0]["arguments"]["reason"] for i, c in calls.items() if i.startswith("call_back_")]
    assert [(e["from_agent"], e["to_agent"], e["content"], _plan_of(data, e["id"]))
            for e in data["trace"] if e["kind"] == "handoff"] == [
        x for i, t in enumerate(TASKS) for x in (("planner", "executor", t, f"p0{i + 1}"),
                                                  ("executor", "planner", reports[i], f"p0{i + 1}"))]
    assert calls["call_ls"][1]["output"] == SWALLOWED  # the ToolOutput's raw_output
    assert calls["call_rv"][1]["output"] == {"volume_id": "vol-7", "size_gb": 200, "snapshot": None}
    assert calls["call_gq"][1]["status"] == "error"
    assert calls["call_gq"][1]["output"] == "RuntimeError: 429 Too Many Requests: quota API rate limit"
    _keyed_passes_check("volume-llama-index.jsonl", tmp_path, calls)


def test_langsmith_ingest_of_the_langgraph_run(tmp_path: Path) -> None:
    """The LangGraph run traced by LangSmith's own tracer (the `/runs/batch` bodies it sent): the same steps, batch
    and results as the OpenInference recording of it."""
    data = framework_drill("volume-langsmith-batch.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    other = _calls(framework_drill("volume-langgraph.jsonl"))
    assert {i: (c["tool"], c["arguments"], r["status"]) for i, (c, r) in calls.items()} == {
        i: (c["tool"], c["arguments"], r["status"]) for i, (c, r) in other.items()}
    assert calls["call_gq"][1]["output"] == "RuntimeError('429 Too Many Requests: quota API rate limit')"
    _keyed_passes_check("volume-langsmith-batch.jsonl", tmp_path, calls)


def test_openai_v2_with_util_genai_agents_delegating_three_times(tmp_path: Path) -> None:
    """opentelemetry-instrumentation-openai-v2's chat spans (content on the spans) under opentelemetry-util-genai's
    agent and tool spans: each `delegate` call hands the planner's task to the executor."""
    data = framework_drill("volume-openai-v2-content.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    assert [(e["from_agent"], e["to_agent"], e["content"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor", t) for t in TASKS]
    assert calls["call_gq"][1] == {**calls["call_gq"][1], "status": "error",
                                   "output": "429 Too Many Requests: quota API rate limit"}
    assert data["models"]["planner"]["name"] == "gpt-4o-2024-08-06"
    _keyed_passes_check("volume-openai-v2-content.jsonl", tmp_path, calls)


def test_langfuse_sdk_spans_three_delegations(tmp_path: Path) -> None:
    """The Langfuse SDK's own spans: agent, generation and tool observations; the 429 at level ERROR."""
    data = framework_drill("volume-langfuse-otel.jsonl")
    calls = _assert_shape(data, "planner", "executor", "get_quota")
    assert [(e["from_agent"], e["to_agent"], e["content"]) for e in data["trace"] if e["kind"] == "handoff"] == [
        ("planner", "executor", t) for t in TASKS]
    assert calls["call_gq"][1] == {**calls["call_gq"][1], "status": "error",
                                   "output": "429 Too Many Requests: quota API rate limit"}
    _keyed_passes_check("volume-langfuse-otel.jsonl", tmp_path, calls)


def _written(tmp_path: Path, name: str, price: Price) -> Path:
    path = FRAMEWORKS / name
    importer = recognise(path)
    assert importer is not None
    options = importer.make_options({"price": price}, None)
    [result] = import_files(importer, [path], tmp_path / "priced", options).imported
    assert result.output is not None
    return result.output


def _recorded_cost(span: dict[str, Any]) -> float:
    """What one span recorded as its cost, USD: pydantic-ai's `operation.cost`, Langfuse's cost details."""
    attrs = span["attributes"]
    if "operation.cost" in attrs:
        return float(attrs["operation.cost"])
    details = attrs.get("langfuse.observation.cost_details")
    return float(sum(json.loads(details).values())) if details else 0.0


@pytest.mark.parametrize("name", ["pydantic-ai.jsonl", "langfuse-otel.jsonl", "volume-pydantic-ai.jsonl",
                                  "volume-langfuse-otel.jsonl"])
def test_recorded_costs_are_what_warroom_cost_adds_up(tmp_path: Path, name: str) -> None:
    """Every model call, the planner's and the executor's, costs in the drill what its span recorded, whatever
    --price assumes (issue 33, gap 5): the drill's total is the spans' total, call for call."""
    spans = _spans(FRAMEWORKS / name)
    costs = [c for c in map(_recorded_cost, spans) if c > 0]
    drill = marked_up(_written(tmp_path, name, Price(1.0, 1.0)))
    cost = trace_cost(drill)
    assert cost.total.calls == len(costs) > 0
    assert cost.total.usd == pytest.approx(sum(costs))
