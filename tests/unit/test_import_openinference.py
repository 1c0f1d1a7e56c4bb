"""`warroom import openinference`: OpenInference span kinds in OTLP/JSON mapped to format-2 drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, converter, marked_up, only_missing_key

from warroom.importers import openinference
from warroom.importers.kit import TraceError

PHOENIX = FIXTURES / "openinference" / "phoenix.jsonl"


def test_span_kinds_map_to_agents_model_calls_tools_and_retrievers() -> None:
    [(data, header)] = converter(openinference)(PHOENIX)
    ev = {e["id"]: e for e in data["trace"]}
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "lead": "planner", "tools": "tool-host", "scout": "executor"}
    assert data["briefing"]["goal"] == "Reconcile March's vendor invoices and pay what is unpaid, once."
    # RETRIEVER: a tool call with the query, its documents the result
    retrieval = next(e for e in data["trace"] if e["kind"] == "tool_call")
    assert retrieval["tool"] == "retrieve-policy"
    assert retrieval["arguments"] == {"query": "vendor payment policy"}
    docs = next(e for e in data["trace"] if e["kind"] == "tool_result")
    assert docs["output"][1] == "A month is closed only when no invoice of it is unpaid."
    # AGENT under an AGENT's TOOL span (another service): a handoff from the planner
    handoff = next(e for e in data["trace"] if e["kind"] == "handoff")
    assert (handoff["from_agent"], handoff["to_agent"]) == ("lead", "scout")
    # LLM: llm.model_name, llm.token_count.*, the tool calls it asked for are one batch
    llm = [e for e in data["trace"] if e["kind"] == "planner_call"]
    assert llm[0]["usage"] == {"input_tokens": 1850, "output_tokens": 96}
    assert llm[0]["model"] == "gpt-4.1-2025-04-14"
    scout = [e for e in data["trace"] if e["kind"] == "executor_message"]
    assert scout[0]["content"] == ('[tool call erp.list_invoices {"month": "2026-03"}]\n'
                                   '[tool call erp.list_credits {"month": "2026-03"}]')  # as otel shows them
    assert ev["call_inv"]["batch"] == ev["call_cred"]["batch"] == scout[0]["id"]
    # TOOL: tool.name, input.value as arguments, output.value as the result; an exception is an error result
    assert ev["call_pay"]["arguments"]["month"] == "2026-03" and len(ev["call_pay"]["arguments"]["invoice_ids"]) == 20
    results = {e.get("call"): e for e in data["trace"] if e["kind"] == "tool_result"}
    assert results["call_close"]["output"] == '{"closed": true, "unpaid_left": 20, "late_fees_usd": 184.5}'
    assert results["call_cred"]["status"] == "error"
    assert results["call_cred"]["output"] == "TimeoutError: ERP did not answer in 1.0 s"
    # output.value when there are no output messages (the streamed reply); usage estimated: no token counts
    assert scout[1]["content"] == "All March invoices fetched (credits unavailable)."
    assert scout[1]["usage"]["estimated"] is True
    assert "spans that are not agent, model or tool spans (1)" in data["source"]  # the CHAIN span
    assert "attributes the importer does not read (0)" in data["source"]
    assert "estimated" in header and "answer_key" not in data


def test_imported_drill_misses_only_the_answer_key(tmp_path: Path) -> None:
    report = openinference.import_openinference([PHOENIX], tmp_path / "out")
    [result] = report.results
    assert result.output is not None
    only_missing_key(result.output)
    assert marked_up(result.output).is_all_clear


def test_spans_without_a_known_kind_make_no_drill(tmp_path: Path) -> None:
    span = {"traceId": "ab" * 16, "spanId": "01", "name": "x", "startTimeUnixNano": "1", "endTimeUnixNano": "2",
            "attributes": [{"key": "openinference.span.kind", "value": {"stringValue": "CHAIN"}}]}
    p = tmp_path / "chain.json"
    p.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    with pytest.raises(TraceError, match="no span of this trace is an agent, model call or tool call"):
        converter(openinference)(p)
