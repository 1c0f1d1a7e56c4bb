"""Traces as other tools export them (tests/fixtures/thirdparty, README.md there says where each comes from)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, assert_refused, converter, import_missing_only_the_key

from warroom.importers import openinference, otel
from warroom.importers.kit import TraceOptions
from warroom.importers.otlp import read_spans
from warroom.importers.spans import span_id_hex

THIRD = FIXTURES / "thirdparty"
OI_OPENAI = THIRD / "oi-openai.protobuf.json"
OI_ANTHROPIC = THIRD / "oi-anthropic.jsonl"


def test_protobuf_json_base64_ids_are_read_as_the_hex_ids_a_tracing_ui_shows() -> None:
    raw = json.loads(OI_OPENAI.read_text(encoding="utf-8"))
    first = raw["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert first["traceId"] == "05YzKwX9MOojztng31EJ7w=="  # base64, as MessageToJson writes bytes
    spans = read_spans(OI_OPENAI)
    assert {s.trace_id for s in spans} == {"d396332b05fd30ea23ced9e0df5109ef"}
    by_id = {s.span_id: s for s in spans}
    [root] = [s for s in spans if not s.parent_id]
    assert root.name == "agent" and all(s.parent_id == root.span_id for s in spans if s is not root)
    assert len(by_id) == 5
    [(data, _)] = converter(openinference)(OI_OPENAI)
    assert "trace d396332b05fd30ea23ced9e0df5109ef" in data["source"]


@pytest.mark.parametrize("given", ["05YzKwX9MOojztng31EJ7w==", "D396332B05FD30EA23CED9E0DF5109EF"])
def test_trace_id_may_be_given_as_hex_or_base64(given: str) -> None:
    [(data, _)] = converter(openinference)(OI_OPENAI, TraceOptions(trace_id=given))
    assert data["id"] == "openinference-oi-openai.protobuf"


def test_base64_ids_never_merge_by_case() -> None:
    # lower-casing base64 made these two span ids one ("span ... appears twice")
    a, b = "AbCdEfGhIjI=", "abcdefghijI="
    assert span_id_hex(a, 8) != span_id_hex(b, 8)
    assert span_id_hex("00f067aa0ba902b7", 8) == "00f067aa0ba902b7"  # hex stays hex
    assert span_id_hex("not an id", 8) == "not an id"


def test_llm_spans_read_messages_not_the_raw_request_and_response() -> None:
    [(data, _)] = converter(openinference)(OI_OPENAI)
    calls = [e for e in data["trace"] if e["kind"] == "planner_call"]
    # the first turn only asks for tools: shown as otel shows them, never output.value's raw response JSON
    assert calls[0]["content"] == ('[tool call get_invoices {"month": "2026-03"}]\n'
                                   '[tool call get_credits {"month": "2026-03"}]')
    assert calls[0]["finish_reason"] == "tool_calls"
    assert calls[1]["content"] == "All March invoices fetched: 20 invoices."
    assert calls[0]["usage"] == {"input_tokens": 120, "output_tokens": 30}


def test_tool_spans_without_a_call_id_are_the_calls_the_model_asked_for_by_name() -> None:
    # openinference-instrumentation-openai's TOOL spans (made by the agent code) record no tool_call.id; the LLM
    # span before them asked for call_a1 (get_invoices) and call_b2 (get_credits) in one turn
    [(data, _)] = converter(openinference)(OI_OPENAI)
    calls = [e for e in data["trace"] if e["kind"] == "tool_call"]
    assert [(c["id"], c["tool"], c["batch"]) for c in calls] == [
        ("call_a1", "get_invoices", "e0002"), ("call_b2", "get_credits", "e0002")]
    assert [e["call"] for e in data["trace"] if e["kind"] == "tool_result"] == ["call_a1", "call_b2"]


def test_message_contents_parts_are_the_text() -> None:
    drills = converter(openinference)(OI_ANTHROPIC)
    first, second = (d["trace"][0] for d, _ in drills)
    assert first["content"] == 'Let me look that up.\n[tool call get_weather {"city": "Paris"}]'  # once, not twice
    assert first["finish_reason"] == "tool_use"
    assert second["content"] == "It is 18 C in Paris."
    assert all(d["briefing"]["goal"] == "Weather in Paris?" for d, _ in drills)


def test_a_user_message_of_parts_is_the_goal_not_the_request_json(tmp_path: Path) -> None:
    # the LLM span alone (no AGENT span): its user message is recorded only as message_content parts
    doc = json.loads(OI_OPENAI.read_text(encoding="utf-8"))
    spans = doc["resourceSpans"][0]["scopeSpans"][0]["spans"]
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"] = [s for s in spans if s["name"] == "ChatCompletion"][:1]
    doc["resourceSpans"][0]["scopeSpans"] = doc["resourceSpans"][0]["scopeSpans"][:1]
    path = tmp_path / "llm.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    assert data["briefing"]["goal"] == "Reconcile March's invoices."


def test_recorded_traces_import_as_drills_missing_only_the_answer_key(tmp_path: Path) -> None:
    import_missing_only_the_key(openinference.import_openinference, [OI_OPENAI, OI_ANTHROPIC], tmp_path / "out", 3)


def _otel_only(name: str) -> dict:
    [(data, _)] = converter(otel)(THIRD / name)
    return data


def test_pydantic_ai_version_2_tool_arguments_and_response_are_read() -> None:
    # recorded: its `running tool` spans keep arguments and result in tool_arguments / tool_response
    data = _otel_only("pydantic-ai-v2.jsonl")
    ev = {e["id"]: e for e in data["trace"]}
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("ap_agent", "planner"), ("tools", "tool-host")]
    assert ev["e0001"] == {**ev["e0001"], "kind": "human_message", "content": "Reconcile March's invoices."}
    assert ev["call_a1"]["arguments"] == {"month": "2026-03"} and ev["call_a1"]["batch"] == "e0002"
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    assert results["call_a1"]["output"] == '{"returned":20,"total":40,"next_cursor":"c2"}'
    assert (results["call_b2"]["status"], results["call_b2"]["output"]) == (
        "error", "TimeoutError: ERP did not answer")
    assert data["trace"][-1] == {**data["trace"][-1], "kind": "log", "level": "error",
                                 "content": "agent run failed: TimeoutError: ERP did not answer"}


def test_openllmetry_agent_and_tool_decorator_spans_are_agents_and_calls() -> None:
    data = _otel_only("openllmetry-decorators.jsonl")
    ev = {e["id"]: e for e in data["trace"]}
    assert data["briefing"]["goal"] == "Reconcile March's vendor invoices."  # the agent's one text argument
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("ap_agent", "planner"), ("tools", "tool-host")]
    # the tool span records no call id: it is the call the model asked for by name
    assert ev["call_inv"] == {**ev["call_inv"], "kind": "tool_call", "tool": "list_invoices",
                              "arguments": {"month": "2026-03"}}
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    assert results["call_inv"]["output"] == '{"returned": 20, "total": 40, "next_cursor": "c2"}'
    [pay] = [e for e in data["trace"] if e.get("tool") == "pay"]
    assert pay["arguments"] == {"currency": "USD", "args": [["INV-1", "INV-2"]]}
    assert (results[pay["id"]]["status"], results[pay["id"]]["output"]) == (
        "error", "PermissionError: payments are frozen")
    # the workflow span is ignored (its 5 traceloop.* attributes are unknown); on the agent and tool spans only
    # traceloop.workflow.name is (3), on the model span llm.request.type and llm.usage.total_tokens (2)
    assert "spans that are not agent, model or tool spans (1)" in data["source"]
    assert "does not read (10)" in data["source"]


def test_message_events_in_an_events_attribute_are_read() -> None:
    # Logfire's event_mode="attributes" (Pydantic AI instrumentation version 1)
    data = _otel_only("logfire-events-attribute.json")
    [call] = data["trace"]
    assert call == {**call, "kind": "planner_call", "agent": "ap_agent", "content": "INV-7 and INV-9 are unpaid."}
    assert data["briefing"]["goal"] == "Which invoices are unpaid?"


@pytest.mark.parametrize("name", ["pydantic-ai-v2.jsonl", "openllmetry-decorators.jsonl",
                                  "logfire-events-attribute.json"])
def test_recorded_otel_traces_import_as_drills_missing_only_the_answer_key(tmp_path: Path, name: str) -> None:
    import_missing_only_the_key(otel.import_otel, [THIRD / name], tmp_path / "out")


@pytest.mark.parametrize(("text", "hint"), [
    ('{"messages": [{"role": "user", "content": "hi"}]}', "it looks like a chat transcript: `warroom import chat`"),
    ('[{"role": "user", "content": "hi"}]', "it looks like a chat transcript"),
    ('{"name": "x", "context": {"trace_id": "0x5b8a5b8a5b8a5b8a5b8a5b8a5b8a5b8a", "span_id": "0x0515051505150515"}}\n'
     '{"name": "y", "context": {"trace_id": "0x5b8a5b8a5b8a5b8a5b8a5b8a5b8a5b8a", "span_id": "0x0516051605160516"}, '
     '"start_time": "2026-03-20T09:46:40Z"}', "span 0.start_time is not a time"),
    ('{"name": "x", "context": {"trace_id": "0x5b8a5b8a5b8a5b8a5b8a5b8a5b8a5b8a", "span_id": "0x0"}, '
     '"start_time": "2026-03-20T09:46:40Z"}', "span 0 has no context.span_id"),
    ('[{"name": "x", "context": {"trace_id": "0x5b8a5b8a5b8a5b8a5b8a5b8a5b8a5b8a", "span_id": "0x0515051505150515"}, '
     '"start_time": "last Tuesday"}]', "span 0.start_time is not a time: 'last Tuesday'"),
    ('[{"name": "x", "context": {"trace_id": "0x5b8a5b8a5b8a5b8a5b8a5b8a5b8a5b8a", "span_id": "0x0515051505150515"}, '
     '"start_time": 1e30}]', "span 0.start_time is out of range"),
])
def test_other_formats_given_to_otel_say_what_they_look_like(tmp_path: Path, text: str, hint: str) -> None:
    assert_refused(converter(otel), tmp_path / "t.json", text, hint)


def test_the_sdk_console_exporters_concatenated_spans_are_read() -> None:
    # recorded by record_console.py with the SDK's ConsoleSpanExporter: indented objects one after another
    text = (THIRD / "sdk-console.json").read_text(encoding="utf-8")
    assert text.startswith('{\n    "name": ') and '"trace_id": "0x' in text
    data = _otel_only("sdk-console.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["kind"], e.get("agent")) for e in data["trace"]] == [
        ("human_message", "user"), ("planner_call", "lead"), ("tool_call", "lead"), ("tool_result", "tools")]
    assert data["briefing"]["goal"] == "Pay March's unpaid invoices, once."
    assert ev["e0002"]["usage"] == {"input_tokens": 210, "output_tokens": 18}
    assert ev["e0002"]["finish_reason"] == "tool_calls"  # a list attribute stays a list
    assert (ev["e0004"]["call"], ev["e0004"]["status"], ev["e0004"]["output"]) == (
        "call_pay", "error", "PermissionError: payments are frozen until the audit ends")
    trace_id = json.loads(text[:text.index("\n}\n") + 2])["context"]["trace_id"].removeprefix("0x")
    assert f"trace {trace_id}" in data["source"]
    times = [e["t"] for e in data["trace"]]
    assert times[0] == 0 and times == sorted(times) and times[-1] < 5  # ISO times, to the microsecond


def test_phoenix_span_json_with_nested_attributes_is_read() -> None:
    [(data, _)] = converter(openinference)(THIRD / "phoenix-spans.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("support-agent", "planner"), ("tools", "tool-host")]
    assert ev["e0002"] == {**ev["e0002"], "kind": "planner_call", "t": 2.4, "model": "gpt-4o-mini",
                           "content": '[tool call refund {"order_id": 42}]',
                           "usage": {"input_tokens": 64, "output_tokens": 12}}
    assert ev["call_r42"]["arguments"] == {"order_id": 42}
    assert ev["e0004"] == {**ev["e0004"], "t": 4.0, "status": "error", "call": "call_r42",
                           "output": "HTTPError: 503 Service Unavailable; refund service returned 503"}
    assert "does not read (0)" in data["source"]


@pytest.mark.parametrize(("module", "name"), [(otel, "sdk-console.json"), (openinference, "phoenix-spans.json")])
def test_span_json_imports_as_a_drill_missing_only_the_answer_key(tmp_path: Path, module: Any, name: str) -> None:
    importer = otel.import_otel if module is otel else openinference.import_openinference
    import_missing_only_the_key(importer, [THIRD / name], tmp_path / "out")


def test_a_chain_whose_input_is_json_state_is_not_the_goal(tmp_path: Path) -> None:
    # LangGraph under openinference-instrumentation-langchain: the root CHAIN's input.value is the graph's state
    def span(sid: str, parent: str, kind: str, attrs: dict[str, str]) -> dict[str, Any]:
        return {"traceId": "ab" * 16, "spanId": sid, "parentSpanId": parent, "name": kind.lower(),
                "startTimeUnixNano": str(int(sid, 16)), "endTimeUnixNano": "99",
                "attributes": [{"key": k, "value": {"stringValue": v}}
                               for k, v in {"openinference.span.kind": kind, **attrs}.items()]}
    spans = [span("01", "", "CHAIN", {"input.value": '{"messages": [["user", "Refund order 42."]]}',
                                      "input.mime_type": "application/json"}),
             span("02", "01", "LLM", {"llm.input_messages.0.message.role": "user",
                                      "llm.input_messages.0.message.content": "Refund order 42.",
                                      "llm.output_messages.0.message.content": "Done."})]
    path = tmp_path / "langgraph.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    assert data["briefing"]["goal"] == "Refund order 42."


def test_every_openinference_attribute_name_is_known_and_other_kinds_are_ignored() -> None:
    [(data, _)] = converter(openinference)(THIRD / "oi-span-kinds.json")
    # EMBEDDING, RERANKER and the CHAIN are ignored; reranker.*, embedding.*, session.id, the token details are
    # the package's names, not unknown
    assert "spans that are not agent, model or tool spans (3)" in data["source"]
    assert "does not read (0)" in data["source"]
    assert [e["kind"] for e in data["trace"]] == ["tool_call", "tool_result", "executor_message", "log"]
    assert data["trace"][-1]["content"] == "guard failed: answer contradicts the retrieved policy"  # GUARDRAIL
    assert data["briefing"]["goal"] == "What is our refund window?"
    # no agent span: the briefing says so rather than "Agents agent"
    assert data["briefing"]["watching"] == "An agent (the trace names none: `agent`) at work, with tools: retrieve."


def test_the_briefing_names_the_agents_at_work() -> None:
    [(data, _)] = converter(openinference)(FIXTURES / "openinference" / "phoenix.jsonl")
    assert data["briefing"]["watching"].startswith("Agents lead, scout at work, with tools: ")
    assert _otel_only("sdk-console.json")["briefing"]["watching"] == "Agent lead at work, with tools: erp.pay_invoices."


def test_grafana_tempo_answers_are_read(tmp_path: Path) -> None:
    # Tempo's trace API: v1 answers {"batches": [...]} (here with the older instrumentationLibrarySpans), v2
    # {"trace": {"resourceSpans": [...]}}; ids in base64 as Tempo returns them
    doc = json.loads(OI_OPENAI.read_text(encoding="utf-8"))
    v2 = tmp_path / "tempo-v2.json"
    v2.write_text(json.dumps({"trace": doc}), encoding="utf-8")
    for rs in doc["resourceSpans"]:
        rs["instrumentationLibrarySpans"] = rs.pop("scopeSpans")
    v1 = tmp_path / "tempo-v1.json"
    v1.write_text(json.dumps({"batches": doc["resourceSpans"]}), encoding="utf-8")
    [(expected, _)] = converter(openinference)(OI_OPENAI)
    for path in (v1, v2):
        [(data, _)] = converter(openinference)(path)
        assert data["trace"] == expected["trace"] and "trace d396332b05fd30ea23ced9e0df5109ef" in data["source"]


def test_a_jaeger_export_is_read() -> None:
    data = _otel_only("jaeger-export.json")
    ev = {e["id"]: e for e in data["trace"]}
    assert "trace 2a9b1c3d4e5f60718293a4b5c6d7e8f9" in data["source"]
    assert [(e["id"], e["t"], e["kind"]) for e in data["trace"]] == [
        ("e0001", 0.0, "human_message"), ("e0002", 2.0, "planner_call"), ("call_r", 2.1, "tool_call"),
        ("e0004", 6.1, "tool_result")]  # microseconds; a model call at its end
    assert ev["e0002"]["usage"] == {"input_tokens": 64, "output_tokens": 11}  # int64 tags
    assert ev["e0004"] == {**ev["e0004"], "status": "error", "duration_ms": 4000.0,
                           "output": "HTTPError: 503 Service Unavailable; refund service unavailable"}
    # otel.status_code, span.kind, otel.scope.name ... are the span's own, not unknown attributes
    assert "does not read (0)" in data["source"]


@pytest.mark.parametrize(("doc", "message"), [
    ({"data": [{"spans": [{"spanID": "01", "startTime": 1}]}]}, "data[0].spans[0] has no traceID or spanID"),
    ({"data": [{"spans": [{"traceID": "ab" * 16, "spanID": "01", "startTime": "x"}]}]},
     "data[0].spans[0].startTime is not a time in microseconds"),
])
def test_bad_jaeger_spans_are_named(tmp_path: Path, doc: object, message: str) -> None:
    assert_refused(converter(otel), tmp_path / "j.json", doc, message)
