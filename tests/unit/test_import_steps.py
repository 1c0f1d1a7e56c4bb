"""Plan steps of span-based imports (issue 33, gaps 1 and 9): every drill has steps a trainee can name and an author
can key, titled by what each turn does; a trace whose planner is not found gets a step per model turn."""

from __future__ import annotations

from trace_import_support import FIXTURES

from warroom.importers.kit import convert, recognise


def _plan(name: str) -> tuple[list[tuple[str, str]], list[dict]]:
    path = FIXTURES / name
    importer = recognise(path)
    assert importer is not None
    data, _ = convert(importer, path)[0]
    return [(s["id"], s["title"]) for s in data["plan"]], data["trace"]


def test_planner_steps_are_titled_by_what_the_turn_does() -> None:
    plan, _ = _plan("otel/current.json")
    assert plan == [
        ("p01", "lead turn 1: calls transfer_to_scout; scout calls erp.list_invoices, erp.list_credits"),
        ("p02", "lead turn 2: calls erp.pay_invoices"),
        ("p03", "lead turn 3: calls erp.close_period"),
        ("p04", "lead turn 4: replies"),
    ]


def test_handoffs_and_each_agents_calls_are_named() -> None:
    plan, _ = _plan("thirdparty/langfuse-planner-executor.json")
    assert plan[0] == ("p01", "planner turn 1: hands off to executor; executor calls erp_list_invoices, "
                              "erp_list_credits, erp_close_month")


def test_without_a_planner_each_model_turn_is_a_step() -> None:
    plan, trace = _plan("thirdparty/langsmith-child-runs.json")  # a @traceable function: no agent, no planner
    assert plan == [("p01", "agent turn 1: calls search_policies, fetch_vendor"), ("p02", "agent turn 2: replies")]
    # the tool result of turn 1 (where a bad result would come back) is in p01: an author keys it there
    results = [e for e in trace if e["kind"] == "tool_result"]
    assert results and all(e["step"] == "p01" for e in results)
    assert all(e["kind"] != "planner_call" for e in trace)


def _otlp(tmp_path, *spans: dict):
    import json

    path = tmp_path / "capture-off.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}), encoding="utf-8")
    importer = recognise(path)
    assert importer is not None and importer.name == "otel"
    return convert(importer, path)[0][0]


def _genai(sid: str, start: int, attrs: dict, dropped: int = 0) -> dict:
    return {"traceId": "ab" * 16, "spanId": sid, "name": attrs.get("gen_ai.operation.name", "span"),
            "startTimeUnixNano": str(start * 10**9), "endTimeUnixNano": str(start * 10**9 + 500_000_000),
            "droppedAttributesCount": dropped,
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]}


def test_a_tool_span_without_content_is_not_recorded_and_dropped_attributes_are_named(tmp_path) -> None:
    """Content capture off (issue 33, gap 4): the tool's result is said to be not recorded, never an empty result,
    and the attribute limit's losses are named in `source`."""
    data = _otlp(tmp_path,
                 _genai("01", 1, {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"}),
                 _genai("02", 2, {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "list_charges"}, 7))
    [result] = [e for e in data["trace"] if e["kind"] == "tool_result"]
    assert result["output"].startswith("(not recorded: the trace holds no result for this tool call")
    assert "Not recorded: the arguments and result of 1 tool call(s)" in data["source"]
    assert ("Lost to OpenTelemetry's attribute limit (droppedAttributesCount): span 02 (list_charges):"
            " its arguments and its result (7 attributes dropped)") in data["source"]
