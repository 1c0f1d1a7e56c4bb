"""`warroom import otel`: OTLP/JSON GenAI spans (current and older conventions) mapped to format-2 drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, marked_up, only_missing_key, sparse_file

from warroom.importers import otel
from warroom.importers.otlp import read_spans
from warroom.importers.tracekit import MAX_TRACE_BYTES, TraceError

OTEL = FIXTURES / "otel"


def _events(data: dict) -> dict[str, dict]:
    return {ev["id"]: ev for ev in data["trace"]}


def test_current_conventions_map_agents_models_tools_and_errors() -> None:
    [(data, header)] = otel.convert_file(OTEL / "current.json")
    ev = _events(data)
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "lead": "planner", "scout": "executor", "tools": "tool-host"}
    assert data["briefing"]["goal"] == "Reconcile March's vendor invoices and pay what is unpaid, once."
    # the sub-agent (another service, its clock 0.4 s behind) starts before its parent tool span: its handoff is
    # at its own start time (3.98 s), before the planner call that asked for it ended (4.23 s)
    handoff = next(e for e in data["trace"] if e["kind"] == "handoff")
    assert (handoff["from_agent"], handoff["to_agent"], handoff["t"]) == ("lead", "scout", 3.98)
    assert ev["e0003"]["kind"] == "planner_call" and ev["e0003"]["t"] == 4.23
    assert ev["call_scout"]["tool"] == "transfer_to_scout" and ev["call_scout"]["t"] == 4.28
    # the planner's chat spans are planner calls that start plan steps, with the recorded usage and model
    planner_calls = [e for e in data["trace"] if e["kind"] == "planner_call"]
    assert [e["step"] for e in planner_calls] == ["p01", "p02", "p03", "p04"]
    assert planner_calls[0]["usage"] == {"input_tokens": 1850, "output_tokens": 96}
    assert planner_calls[0]["model"] == "gpt-4.1-2025-04-14" and planner_calls[0]["finish_reason"] == "tool_calls"
    assert planner_calls[-1]["finish_reason"] == "stop"
    # parallel tool calls: ids from gen_ai.tool.call.id, one batch (the chat turn that asked for both), overlapping
    assert ev["call_inv"]["batch"] == ev["call_cred"]["batch"] == "e0005"
    assert ev["call_inv"]["arguments"] == {"month": "2026-03"} and ev["call_inv"]["t"] == 6.63
    assert ev["call_cred"]["t"] == 6.65
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    assert json.loads(results["call_inv"]["output"])["next_cursor"] == "c2"
    assert results["call_inv"]["duration_ms"] == 1300.0 and results["call_inv"]["status"] == "ok"
    assert results["call_inv"]["t"] == 7.93 and results["call_cred"]["t"] == 7.65  # the error came back first
    # the tool error: its exception event is the output, its status an error
    assert results["call_cred"]["status"] == "error"
    assert results["call_cred"]["output"] == "TimeoutError: ERP did not answer in 1.0 s"
    # the sub-agent's answer is its tool span's result
    assert results["call_scout"]["output"] == "All March invoices fetched (credits unavailable)."
    # missing usage (a streamed reply) is estimated and says so; the tool-call-only turn shows its calls
    estimated = [e for e in data["trace"] if e.get("usage", {}).get("estimated")]
    assert [e["content"] for e in estimated] == ["All March invoices fetched (credits unavailable)."]
    assert ev["e0005"]["content"].startswith('[tool call erp.list_invoices {"month": "2026-03"}]\n')
    assert "token counts of model spans without usage" in data["source"] and "estimated" in header
    assert "spans that are not agent, model or tool spans (6)" in data["source"]  # the HTTP client spans
    # three per HTTP span: http.request.method, url.full, http.response.status_code
    assert "attributes the importer does not read (18)" in data["source"]
    assert data["models"]["executor"]["name"] == "gpt-4.1-mini-2025-04-14"
    times = [e["t"] for e in data["trace"]]
    assert times == sorted(times) and times[-1] == 24.33


def test_a_trace_split_over_two_files_out_of_order_is_the_same_trace(tmp_path: Path) -> None:
    """The Collector's file exporter's JSON Lines, dealt over two files with the lines shuffled: each file alone is a
    part of the trace; the two files concatenated (as docs/importing.md says) make the same drill as the one
    document."""
    parts = sorted((FIXTURES / "otel-split").glob("*.jsonl"))
    assert len(parts) == 2
    spans = [read_spans(p) for p in parts]
    assert all(spans) and sum(map(len, spans)) == len(read_spans(OTEL / "current.json"))
    starts = [s.start_ns for p in spans for s in p]
    assert starts != sorted(starts)  # out of order, within and across the files
    joined = tmp_path / "current.jsonl"
    joined.write_text("".join(p.read_text(encoding="utf-8") for p in parts), encoding="utf-8")
    [(whole, _)] = otel.convert_file(OTEL / "current.json")
    [(cat, _)] = otel.convert_file(joined)
    for part in ("models", "agents", "plan", "trace", "briefing"):
        assert cat[part] == whole[part], part
    [(first, _)] = otel.convert_file(parts[0])
    assert len(first["trace"]) < len(whole["trace"])


def test_older_conventions_in_json_lines_with_two_traces_and_spans_across_lines() -> None:
    drills = otel.convert_file(OTEL / "legacy.jsonl")
    assert [d["id"] for d, _ in drills] == ["otel-legacy-0", "otel-legacy-1"]
    first = drills[0][0]
    assert first["briefing"]["goal"] == "How many refunds failed yesterday?"  # the gen_ai.content.prompt event
    calls = [e for e in first["trace"] if e["kind"] == "executor_message"]
    assert [e["content"] for e in calls] == ["I will query the refunds table.", "No refunds failed yesterday."]
    assert calls[0]["usage"] == {"input_tokens": 300, "output_tokens": 40}  # gen_ai.usage.prompt_tokens
    assert calls[1]["usage"]["estimated"] is True
    assert [e["t"] for e in calls] == [2.0, 5.5]  # the root span (line 2) is the clock's zero
    second = drills[1][0]
    assert second["trace"][0]["content"] == "Hello." and second["models"]["executor"]["name"] == "claude-sonnet-4"


def test_every_imported_drill_misses_only_the_answer_key(tmp_path: Path) -> None:
    report = otel.import_otel([OTEL], tmp_path / "out")
    assert not report.failed and len(report.imported) == 3
    for r in report.imported:
        assert r.output is not None
        only_missing_key(r.output)
        assert marked_up(r.output).is_all_clear


def _doc(*spans: dict) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]})


def _span(sid: str, parent: str = "", trace: str = "ab" * 16, op: str | None = None) -> dict:
    attrs = {} if op is None else {"gen_ai.operation.name": op}
    return {"traceId": trace, "spanId": sid, "parentSpanId": parent, "name": "s", "startTimeUnixNano": "1000",
            "endTimeUnixNano": "2000",
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]}


@pytest.mark.parametrize(("text", "message"), [
    ('{"resourceSpans": [', "not JSON"),
    ('{"spans": []}', "not OTLP/JSON traces: an object without `resourceSpans`"),
    ("[1, 2]", "not OTLP/JSON traces: a JSON array"),
    (_doc({**_span("01"), "traceId": ""}), "resourceSpans[0].scopeSpans[0].spans[0] has no traceId"),
    (_doc(_span("01", "02"), _span("02", "01")), "are each other's parents (a cycle)"),
    (_doc({**_span("01"), "startTimeUnixNano": "soon"}), "startTimeUnixNano is not a time in nanoseconds"),
    (_doc(_span("01")), "no span of this trace is an agent, model call or tool call"),
    (_doc({**_span("01", op="chat"), "endTimeUnixNano": str(2 * 10**15)}),
     "drills are limited to 1,000,000 s"),
    (_doc(_span("01"), _span("01")), "span 01 appears twice"),
    ('{"resourceSpans": []}\n{"resourceSpans": [}', "line 2: not JSON"),
])
def test_bad_otlp_is_one_line_each(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TraceError) as e:
        otel.convert_file(p)
    assert message in str(e.value)


def test_limits_are_checked_before_reading(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="limited to 8 MiB"):
        read_spans(sparse_file(tmp_path / "big.jsonl", MAX_TRACE_BYTES + 1))
    (tmp_path / "s.json").write_text(_doc(_span("01", op="\\ud800")).replace("\\\\", "\\"),
                                     encoding="utf-8")
    with pytest.raises(TraceError, match="unpaired surrogate"):
        otel.convert_file(tmp_path / "s.json")


def test_token_counts_out_of_range_are_refused(tmp_path: Path) -> None:
    span = _span("01", op="chat")
    span["attributes"].append({"key": "gen_ai.usage.input_tokens", "value": {"intValue": "99999999999"}})
    (tmp_path / "t.json").write_text(_doc(span), encoding="utf-8")
    with pytest.raises(TraceError, match="token count over 10,000,000"):
        otel.convert_file(tmp_path / "t.json")
