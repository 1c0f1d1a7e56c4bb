"""`warroom import otel`: OTLP/JSON GenAI spans (current and older conventions) mapped to format-2 drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, converter, marked_up, only_missing_key, sparse_file

from warroom.importers import otel
from warroom.importers.kit import MAX_TRACE_BYTES, TraceError
from warroom.importers.otlp import read_spans
from warroom.importers.spans import group_traces

OTEL = FIXTURES / "otel"


def _events(data: dict) -> dict[str, dict]:
    return {ev["id"]: ev for ev in data["trace"]}


def test_current_conventions_map_agents_models_tools_and_errors() -> None:
    [(data, header)] = converter(otel)(OTEL / "current.json")
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
    [(whole, _)] = converter(otel)(OTEL / "current.json")
    [(cat, _)] = converter(otel)(joined)
    for part in ("models", "agents", "plan", "trace", "briefing"):
        assert cat[part] == whole[part], part
    [(first, _)] = converter(otel)(parts[0])
    assert len(first["trace"]) < len(whole["trace"])


def _legacy_spans() -> dict[str, list]:
    """The legacy fixture's spans by trace id, in the order the traces first appear in the file."""
    return group_traces(read_spans(OTEL / "legacy.jsonl"))


def test_the_legacy_fixture_is_recorded_in_the_older_conventions() -> None:
    """What the older-conventions tests below rely on: the run's spans carry only the older attribute set (so the
    tests cannot pass by reading the current one), each of its three generations on its own spans."""
    run, followup = _legacy_spans().values()
    keys = {k for s in run + followup for k in s.attributes}
    assert keys.isdisjoint({"gen_ai.provider.name", "gen_ai.input.messages", "gen_ai.output.messages",
                            "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"})
    assert all(s.attributes.get("gen_ai.system") == "openai" for s in run + followup if s.name != "POST"
               and "traceloop.span.kind" not in s.attributes)
    events = {(s.service, s.name.split()[0], e.name) for s in run for e in s.events}
    assert ("ap-planner", "chat", "gen_ai.content.prompt") in events  # 1.26: the planner's model client
    assert ("ap-planner", "chat", "gen_ai.content.completion") in events
    assert {("ap-executor", "chat", f"gen_ai.{m}.message") for m in ("system", "user", "assistant", "tool")} <= events
    assert {("ap-executor", "chat", "gen_ai.choice"), ("ap-planner", "execute_tool", "gen_ai.tool.message"),
            ("ap-executor", "invoke_agent", "gen_ai.user.message")} <= events
    planner_chats = [s for s in run if s.service == "ap-planner" and s.name.startswith("chat ")]
    assert planner_chats and all("gen_ai.usage.prompt_tokens" in s.attributes and "gen_ai.operation.name" not in
                                 s.attributes for s in planner_chats)
    assert any(k.startswith("gen_ai.prompt.1.") for k in keys)  # the follow-up's flattened attributes


def test_older_conventions_read_as_the_same_run_as_the_current_ones() -> None:
    """The same scripted run, recorded under the older conventions (otel/legacy.jsonl) and the current ones
    (otel/current.json), makes the same drill: agents, plan, and every trace event with its text and numbers."""
    drills = converter(otel)(OTEL / "legacy.jsonl")
    assert [d["id"] for d, _ in drills] == ["otel-legacy-0", "otel-legacy-1"]
    legacy = drills[0][0]
    [(current, _)] = converter(otel)(OTEL / "current.json")
    for part in ("models", "agents", "plan", "trace", "briefing"):
        assert legacy[part] == current[part], part
    ev = _events(legacy)
    # the values behind that equality, each from an older-conventions place
    assert ev["e0001"]["content"] == "Reconcile March's vendor invoices and pay what is unpaid, once."  # user event
    handoff = ev["e0002"]
    assert (handoff["kind"], handoff["to_agent"], handoff["content"]) == (
        "handoff", "scout", "Fetch all March 2026 vendor invoices and credit notes from the ERP.")
    assert ev["e0003"]["usage"] == {"input_tokens": 1850, "output_tokens": 96}  # gen_ai.usage.prompt_tokens
    assert ev["e0003"]["content"].startswith("Plan: scout fetches")  # gen_ai.content.completion
    assert ev["e0005"]["usage"] == {"input_tokens": 640, "output_tokens": 58}  # gen_ai.usage.input_tokens
    assert ev["e0005"]["content"] == ('[tool call erp.list_invoices {"month": "2026-03"}]\n'
                                      '[tool call erp.list_credits {"month": "2026-03"}]')  # gen_ai.choice
    assert ev["call_inv"]["batch"] == ev["call_cred"]["batch"] == "e0005"  # the choice's tool_calls ids
    assert ev["call_inv"]["arguments"] == {"month": "2026-03"}  # the tool span's gen_ai.tool.message event
    results = {e["call"]: e for e in legacy["trace"] if e["kind"] == "tool_result"}
    assert json.loads(results["call_pay"]["output"]) == {"paid": 20, "amount_usd": 48210.5}  # its gen_ai.choice
    assert results["call_scout"]["output"] == "All March invoices fetched (credits unavailable)."
    assert (results["call_cred"]["status"], results["call_cred"]["output"]) == (
        "error", "TimeoutError: ERP did not answer in 1.0 s")
    [estimated] = [e for e in legacy["trace"] if e.get("usage", {}).get("estimated")]  # the streamed reply
    assert (estimated["content"], estimated["finish_reason"]) == (
        "All March invoices fetched (credits unavailable).", "stop")


def test_older_flattened_attributes_in_a_second_trace() -> None:
    """The follow-up question, a second trace in the file: OpenLLMetry's flattened gen_ai.prompt.N.* and
    gen_ai.completion.N.* attributes under a workflow span the importer does not read."""
    followup = converter(otel)(OTEL / "legacy.jsonl")[1][0]
    trace_id = list(_legacy_spans())[1]
    assert f"trace {trace_id}" in followup["source"]
    assert followup["briefing"]["goal"] == "Which March invoices did you pay, and when?"  # the user's, not system's
    [answer] = followup["trace"]
    assert answer["kind"] == "executor_message" and answer["content"].startswith("I paid INV-2026-0301 to")
    assert answer["usage"] == {"input_tokens": 420, "output_tokens": 41} and answer["finish_reason"] == "stop"
    assert answer["model"] == "gpt-4.1-2025-04-14"
    # the workflow span and the HTTP client span; the traceloop.* and llm.* attributes and the HTTP span's three
    assert "spans that are not agent, model or tool spans (2)" in followup["source"]
    assert "attributes the importer does not read (9)" in followup["source"]


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
    (_doc(_span("01"), {**_span("01"), "name": "t"}), "span 01 is written twice with different content"),
    ('{"resourceSpans": []}\n{"resourceSpans": [}', "line 2: not JSON"),
])
def test_bad_otlp_is_one_line_each(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TraceError) as e:
        converter(otel)(p)
    assert message in str(e.value)


def test_limits_are_checked_before_reading(tmp_path: Path) -> None:
    with pytest.raises(TraceError, match="limited to 8 MiB"):
        read_spans(sparse_file(tmp_path / "big.jsonl", MAX_TRACE_BYTES + 1))
    (tmp_path / "s.json").write_text(_doc(_span("01", op="\\ud800")).replace("\\\\", "\\"),
                                     encoding="utf-8")
    with pytest.raises(TraceError, match="unpaired surrogate"):
        converter(otel)(tmp_path / "s.json")


def test_token_counts_out_of_range_are_refused(tmp_path: Path) -> None:
    span = _span("01", op="chat")
    span["attributes"].append({"key": "gen_ai.usage.input_tokens", "value": {"intValue": "99999999999"}})
    (tmp_path / "t.json").write_text(_doc(span), encoding="utf-8")
    with pytest.raises(TraceError, match="token count over 10,000,000"):
        converter(otel)(tmp_path / "t.json")


def test_fields_of_the_wrong_shape_read_as_absent(tmp_path: Path) -> None:
    """A resource, events list or array/kvlist value that is not the JSON shape OTLP gives it is read as absent
    (found by fuzzing the JSON Lines fixture: `"resource": true` was a traceback)."""
    span = _span("01", op="chat")
    span["events"] = 7
    span["attributes"] += [{"key": "gen_ai.response.finish_reasons", "value": {"arrayValue": 5}},
                           {"key": "app.labels", "value": {"kvlistValue": "x"}}]
    doc = {"resourceSpans": [{"resource": True, "scopeSpans": [{"spans": [span]}]}]}
    (tmp_path / "w.json").write_text(json.dumps(doc), encoding="utf-8")
    [(data, _)] = converter(otel)(tmp_path / "w.json")
    [event] = data["trace"]
    assert event["kind"] == "executor_message" and "finish_reason" not in event
    assert read_spans(tmp_path / "w.json")[0].service == ""
