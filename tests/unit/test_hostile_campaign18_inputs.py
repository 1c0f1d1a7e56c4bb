"""An eighteenth hostile campaign, on traces recorded by the current releases of the real SDKs (issue 30): each
recording that imported wrong, with the right reading."""

from __future__ import annotations

from typing import Any

from trace_import_support import framework_drill


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
