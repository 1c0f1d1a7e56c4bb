"""`warroom import openinference`: OpenInference span kinds in OTLP/JSON mapped to format-2 drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, marked_up, only_missing_key

from warroom.importers import openinference
from warroom.importers.tracekit import TraceError

PHOENIX = FIXTURES / "openinference" / "phoenix.jsonl"


def test_span_kinds_map_to_agents_model_calls_tools_and_retrievers() -> None:
    [(data, header)] = openinference.convert_file(PHOENIX)
    ev = {e["id"]: e for e in data["trace"]}
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "support-agent": "planner", "tools": "tool-host"}
    assert data["briefing"]["goal"] == "Cancel my order #1042 and refund it to the original card."
    # RETRIEVER: a tool call with the query, its documents the result
    retrieval = next(e for e in data["trace"] if e["kind"] == "tool_call")
    assert retrieval["tool"] == "retrieve-policy"
    assert retrieval["arguments"] == {"query": "refund policy cancelled orders"}
    docs = next(e for e in data["trace"] if e["kind"] == "tool_result")
    assert docs["output"][1] == "Gift-card orders are refunded as store credit."
    # LLM: llm.model_name, llm.token_count.*, the tool calls it asked for are one batch
    llm = [e for e in data["trace"] if e["kind"] == "planner_call"]
    assert llm[0]["usage"] == {"input_tokens": 812, "output_tokens": 64} and llm[0]["model"] == "gpt-4o-mini"
    assert llm[0]["content"] == "[tool call cancel_order] [tool call refund]"
    assert ev["call_cancel"]["batch"] == ev["call_refund"]["batch"] == llm[0]["id"]
    # TOOL: tool.name, input.value as arguments, output.value as the result; an exception is an error result
    assert ev["call_refund"]["arguments"] == {"order_id": 1042, "method": "gift_card"}
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    assert results["call_cancel"]["output"] == '{"status": "cancelled"}'
    assert results["call_refund"]["status"] == "error"
    assert results["call_refund"]["output"] == "PaymentGatewayError: card on file expired"
    # output.value when there are no output messages; usage estimated when the span has no token counts
    assert llm[1]["content"] == "Your order is cancelled and the refund is on its way to your card."
    assert llm[1]["usage"]["estimated"] is True
    assert "spans that are not agent, model or tool spans (1)" in data["source"]  # the CHAIN span
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
        openinference.convert_file(p)
