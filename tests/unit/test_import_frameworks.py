"""Traces recorded by real agent frameworks (tests/fixtures/frameworks, recorded by record_frameworks.py there):
the same refund incident in each imports as a multi-agent drill whose agents, steps, handoffs, batches, unwrapped
results and recorded costs match the source; keyed with its natural answer key (origin: the step where the bad
result came back), it validates and passes `warroom check` with --reading-time and no hand edits of times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, marked_up

from warroom.core.author import run_checks
from warroom.importers.kit import Price, TraceOptions, convert, import_files, recognise

FRAMEWORKS = FIXTURES / "frameworks"
SWALLOWED = '{"status": "ok", "duplicates": []}'


def _drill(name: str, options: TraceOptions | None = None) -> dict[str, Any]:
    path = FRAMEWORKS / name
    importer = recognise(path)
    assert importer is not None
    [(data, _)] = convert(importer, path, options)
    return data


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
    data = _by_tool(_drill(name))
    drill = marked_up(result.output, _key(data[evidence_tool][1]["id"], data[damage_tool][1]["id"]))
    assert "Re-timed for reading:" in drill.source
    assert run_checks(drill).passed, run_checks(drill).problems


def test_langgraph_over_openinference_keeps_nodes_batch_and_unwrapped_results(tmp_path: Path) -> None:
    data = _drill("langgraph-openinference.jsonl")
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
    data = _drill("openai-agents-openinference.jsonl")
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
    data = _drill("pydantic-ai.jsonl", TraceOptions(price=Price(1.0, 1.0)))
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
    data = _drill("langfuse-otel.jsonl")
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
    data = _drill(name)
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("planner", "planner"), ("executor", "executor"), ("tools", "tool-host")]
    tools = _by_tool(data)
    assert tools["list_charges"][0]["arguments"] == {"order_id": "4417"}
    assert tools["list_charges"][1]["output"] == SWALLOWED
    assert len({tools[t][0].get("batch") for t in ("list_charges", "get_order", "crm_lookup")}) == 1
    assert tools["crm_lookup"][1]["status"] == "error"
    _keyed_passes_check(name, tmp_path, "list_charges", "close_ticket")
