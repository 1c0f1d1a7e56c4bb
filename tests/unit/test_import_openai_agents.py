"""`warroom import openai-agents`: OpenAI Agents SDK traces (backend payloads, JSON lists, JSON Lines of
`trace.export()` / `span.export()`) mapped to drills."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, marked_up, only_missing_key

from warroom.core.author import run_checks
from warroom.importers.kit import TraceError, TraceOptions, convert
from warroom.importers.openai_agents import IMPORTER, import_openai_agents

THIRD = FIXTURES / "thirdparty"
HANDOFF = THIRD / "openai-agents-handoff.json"
RESPONSES = THIRD / "openai-agents-responses.jsonl"
#: The silent failure: list_charges returns [] for an order that get_order shows charged twice; the Refunds agent
#: reports "no duplicate charge" and closes the ticket without the refund.
KEY = """answer_key:
  fault: {origin_step: p01, kind: empty_result, summary: "list_charges returned an empty list for order 4417, which get_order shows captured twice, and the Refunds agent took it as no duplicate charge."}
  evidence: [e0009, e0008]
  cascade: []
  damage: {unit: USD not refunded, entries: [{event: e0013, amount: 89}]}
  deadline: {event: call_ct, after: 0}
  debrief: list_charges (e0009) is empty while get_order (e0008) lists two captures of 89 USD; the ticket is closed unrefunded.
"""  # noqa: E501


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _items(path: Path = HANDOFF) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["data"]
    return items


def test_a_triage_handoff_maps_to_agents_model_calls_tools_and_the_handoff() -> None:
    [(data, header)] = convert(IMPORTER, HANDOFF)
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["id"], e["t"], e["kind"]) for e in data["trace"]] == [
        ("e0001", 0.0, "human_message"), ("e0002", 1.9, "planner_call"), ("e0003", 1.95, "handoff"),
        ("e0004", 3.9, "executor_message"), ("call_cu", 3.95, "tool_call"), ("call_lc", 3.96, "tool_call"),
        ("call_go", 3.97, "tool_call"), ("e0008", 4.35, "tool_result"), ("e0009", 4.7, "tool_result"),
        ("e0010", 5.95, "tool_result"), ("e0011", 10.5, "executor_message"), ("call_ct", 10.55, "tool_call"),
        ("e0013", 11.1, "tool_result"), ("e0014", 15.0, "executor_message")]
    assert [(a["name"], a["role"]) for a in data["agents"]] == [
        ("user", "human"), ("Triage", "planner"), ("Refunds", "executor"), ("tools", "tool-host")]
    agents = {a["name"]: a for a in data["agents"]}
    assert agents["Triage"]["description"] == "Hands off to: Refunds, Orders. Output type: str."
    assert agents["Refunds"]["description"] == (
        "Tools: lookup_customer, list_charges, get_order, close_ticket. Output type: str.")
    # the user's words once, as the goal; the handoff span is the handoff event
    assert ev["e0001"]["content"] == data["briefing"]["goal"] == (
        "I was charged twice for order 4417 ($89.00). Please refund the duplicate charge.")
    assert (ev["e0003"]["from_agent"], ev["e0003"]["to_agent"]) == ("Triage", "Refunds")
    # generation spans: model, usage, tool calls (one batch of three), text
    assert (ev["e0002"]["model"], ev["e0002"]["usage"]) == ("gpt-4o-mini-2024-07-18",
                                                            {"input_tokens": 212, "output_tokens": 14})
    assert ev["e0002"]["content"] == "[tool call transfer_to_refunds {}]"
    assert ev["call_cu"]["batch"] == ev["call_lc"]["batch"] == ev["call_go"]["batch"] == "e0004"
    assert ev["e0014"]["agent"] == "Refunds" and ev["e0014"]["content"].startswith("Good news")
    # function spans: input JSON as arguments, str() of the output read back, an error a failed result
    assert ev["call_lc"]["arguments"] == {"order_id": "4417", "status": "duplicate"}
    assert (ev["e0009"]["output"], ev["e0009"]["status"], ev["e0009"]["call"]) == ([], "ok", "call_lc")
    assert len(ev["e0008"]["output"]["payments"]) == 2
    assert ev["e0010"]["status"] == "error"
    assert ev["e0010"]["output"]["error"] == ("Error running tool (non-fatal): TimeoutError: CRM did not answer in "
                                              "2.0 s")
    assert ev["e0013"]["output"] == {"ticket_id": "T-88", "status": "closed", "refunded_usd": 0.0}  # a Python dict
    assert data["models"]["planner"]["name"] == "gpt-4o-mini-2024-07-18"
    assert data["models"]["executor"]["name"] == "gpt-4o-2024-08-06"
    assert "The trace's workflow_name: 'Customer service'." in data["source"]
    assert "Ignored span types: custom (1), guardrail (1), mcp_tools (1)." in data["source"]
    assert "spans that are not agent, model or tool spans (3)" in data["source"]
    assert "`warroom import openai-agents`" in header and "answer_key" not in data


def test_the_imported_drill_validates_once_marked_up_passes_check_and_plays(tmp_path: Path) -> None:
    from import_support import play

    [result] = import_openai_agents([HANDOFF], tmp_path / "out").results
    assert result.output is not None and result.output.name == "openai-agents-handoff.yaml"
    only_missing_key(result.output)
    assert marked_up(result.output).is_all_clear
    drill = marked_up(result.output, KEY)
    assert run_checks(drill).passed, run_checks(drill).problems
    caught = play(drill, escalate_at=4.7)  # when the empty list is on screen
    assert caught.contained and caught.damage == 0
    never = play(drill, None)
    assert not never.contained and never.damage == 89


def test_json_lines_lists_and_spans_written_at_start_and_end_read_as_the_payload(tmp_path: Path) -> None:
    [(expected, _)] = convert(IMPORTER, HANDOFF)
    items = _items()
    started = [{**i, "ended_at": None} for i in items if i["object"] == "trace.span"]  # on_span_start copies
    for name, text in (("list.json", json.dumps(items[::-1])),
                       ("lines.jsonl", "\n".join(json.dumps(i) for i in [items[0], *started, *items[1:], items[0]])),
                       ("one-a-line.jsonl", "\n".join(json.dumps({"data": [i]}) for i in items))):
        [(data, _)] = convert(IMPORTER, _write(tmp_path, name, text))
        assert data["trace"] == expected["trace"], name


def test_a_handoff_without_the_next_agent_span_is_still_the_handoff(tmp_path: Path) -> None:
    # the export cut off after the handoff: the Refunds agent span and its children are missing
    items = [i for i in _items() if i["object"] == "trace" or i["started_at"] < "2026-03-20T10:00:02.1"]
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "cut.json", json.dumps({"data": items})))
    assert [e["kind"] for e in data["trace"]] == ["human_message", "planner_call", "handoff"]
    assert data["trace"][-1]["to_agent"] == "Refunds"


def test_response_spans_without_output_are_model_calls_and_the_source_says_so() -> None:
    # span.export() of a response span keeps only response_id and usage (the Responses API, the SDK's default)
    [(data, _)] = convert(IMPORTER, RESPONSES)
    kinds = [(e["kind"], e.get("agent")) for e in data["trace"]]
    assert kinds == [("planner_call", "Accounts-payable"), ("tool_call", "Accounts-payable"),
                     ("tool_result", "tools"), ("planner_call", "Accounts-payable")]
    first, _, result, last = data["trace"]
    assert first["usage"] == {"input_tokens": 318, "output_tokens": 24}
    assert first["content"] == "(the model's output is not in the trace)"
    assert last["usage"]["estimated"] is True
    assert result["output"] == {"returned": 20, "total": 40, "next_cursor": "c2"}
    assert data["models"]["planner"]["name"] == "planner (not in the trace)"
    assert ("Response spans that hold only the response's id, not its output or model (the SDK's export keeps no "
            "more): 2 of 2.") in data["source"]
    assert "Model calls without usage, their token counts estimated: 1." in data["source"]


def test_a_response_span_holding_the_response_gives_its_model_output_and_input(tmp_path: Path) -> None:
    lines = [json.loads(line) for line in RESPONSES.read_text(encoding="utf-8").splitlines() if line.strip()]
    first = next(i for i in lines if i.get("span_data", {}).get("type") == "response")
    first["span_data"]["input"] = [{"role": "user", "content": "Pay March's unpaid invoices."}]
    first["span_data"]["response"] = {
        "id": first["span_data"]["response_id"], "model": "gpt-4.1-2025-04-14", "usage": {"input_tokens": 1},
        "output": [{"type": "reasoning", "summary": [{"type": "summary_text", "text": "List them first."}]},
                   {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Listing March.", "annotations": []}]},
                   {"type": "function_call", "call_id": "call_li", "name": "list_invoices",
                    "arguments": "{\"month\": \"2026-03\"}"}]}
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "full.jsonl", "\n".join(json.dumps(i) for i in lines)))
    said, call, asked = data["trace"][:3]
    assert said["kind"] == "human_message" and said["content"] == "Pay March's unpaid invoices."
    assert call["model"] == "gpt-4.1-2025-04-14"
    assert call["content"] == ("[reasoning] List them first.\nListing March.\n"
                               "[tool call list_invoices {\"month\": \"2026-03\"}]")
    assert call["usage"] == {"input_tokens": 318, "output_tokens": 24}  # the span's usage first
    assert asked["id"] == "call_li" and data["briefing"]["goal"] == "Pay March's unpaid invoices."
    assert "1 of 2" in data["source"]


def test_a_triggered_guardrail_and_a_failed_agent_are_log_events(tmp_path: Path) -> None:
    items = _items()
    guard = next(i for i in items if i.get("span_data", {}).get("type") == "guardrail")
    guard["span_data"]["triggered"] = True
    items[1]["error"] = {"message": "Guardrail tripwire triggered",
                         "data": {"guardrail": "is_customer_request", "type": "input_guardrail"}}
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "guard.json", json.dumps({"data": items})))
    logs = [e["content"] for e in data["trace"] if e["kind"] == "log"]
    assert logs == ["guardrail is_customer_request failed: tripwire triggered",
                    'Triage failed: Guardrail tripwire triggered ({"guardrail": "is_customer_request", "type": '
                    '"input_guardrail"})']
    assert "Guardrails whose tripwire triggered, each a log event: 1." in data["source"]
    [result] = import_openai_agents([GUARDED], tmp_path / "out").results
    assert result.output is not None
    drill = marked_up(result.output)  # a control drill: nothing went wrong but what the guardrail stopped
    assert drill.is_all_clear and run_checks(drill).passed, run_checks(drill).problems


def test_two_traces_make_two_drills_and_trace_id_picks_one(tmp_path: Path) -> None:
    lines = HANDOFF.read_text(encoding="utf-8").splitlines()[1:-1]
    text = "\n".join(line.rstrip(",") for line in lines) + "\n" + RESPONSES.read_text(encoding="utf-8")
    path = _write(tmp_path, "two.jsonl", text)
    assert [d["id"] for d, _ in convert(IMPORTER, path)] == ["openai-agents-two-0", "openai-agents-two-1"]
    [(picked, _)] = convert(IMPORTER, path, TraceOptions(trace_id=" TRACE_7D3E1A9C0B2F4E6D8A1C3B5E7F9D0A2C "))
    assert picked["id"] == "openai-agents-two" and picked["trace"][2]["kind"] == "handoff"


@pytest.mark.parametrize(("text", "message"), [
    ('{"data": [', "not JSON: Expecting value at line 1 column 11"),
    ('{"resourceSpans": []}', "not OpenAI Agents SDK traces: the document is an object that is neither a trace "
                              "(`\"object\": \"trace\"`) nor a span (`span_data`)"),
    ('[{"run_type": "llm", "inputs": {}}]', "it looks like LangSmith runs"),
    ('{"data": [{"object": "trace", "id": "trace_1"}]}', "no span in this file (only traces: export their spans"),
    ('{"data": []}', "no trace or span in this file (an empty export)"),
    ('[{"object": "trace.span", "id": "s", "trace_id": "t", "span_data": "agent"}]',
     "item 0.span_data is not an object with a `type`"),
    ('[{"object": "trace.span", "trace_id": "t", "started_at": "2026-03-20T10:00:00Z", "span_data": '
     '{"type": "agent", "name": "A"}}]', "item 0 has no `id`"),
    ('[{"object": "trace.span", "id": "s", "started_at": "2026-03-20T10:00:00Z", "span_data": '
     '{"type": "agent", "name": "A"}}]', "item 0 has no `trace_id`"),
    ('[{"object": "trace.span", "id": "s", "trace_id": "t", "started_at": "noon", "span_data": {"type": "agent"}}]',
     "item 0.started_at is not an ISO 8601 time"),
    ('[{"object": "trace.span", "id": "s", "trace_id": "t", "span_data": {"type": "agent"}}]',
     "item 0.started_at is missing"),
    ('[{"object": "trace.span", "id": "s", "trace_id": "t", "started_at": "2026-03-20T10:00:00Z", '
     '"span_data": {"type": "custom", "name": "x", "data": {}}}]',
     "no span of this trace is an agent, model call or tool call"),
    ('[{"object": "trace", "id": "t"}, 7]', "item 1 is a JSON number"),
])
def test_malformed_exports_are_one_line_problems(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TraceError) as e:
        convert(IMPORTER, _write(tmp_path, "bad.json", text))
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_handoff_inside_the_agent_it_names_makes_no_cycle(tmp_path: Path) -> None:
    # a malformed export: an agent hands off to itself, the handoff starting with it; put under the handoff, the
    # agent span would be its own ancestor (was: "spans ... are each other's parents (a cycle)")
    items = [{"object": "trace.span", "id": i, "trace_id": "trace_1", "parent_id": parent,
              "started_at": "2026-03-20T10:00:00Z", "ended_at": "2026-03-20T10:00:01Z", "span_data": data}
             for i, parent, data in (("b", None, {"type": "agent", "name": "Refunds"}),
                                     ("h", "b", {"type": "handoff", "from_agent": "Refunds", "to_agent": "Refunds"}),
                                     ("f", "b", {"type": "function", "name": "get_order", "input": "{}",
                                                 "output": "ok"}))]
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "loop.json", json.dumps(items)))
    assert [(e["kind"], e["agent"]) for e in data["trace"]] == [("tool_call", "Refunds"), ("tool_result", "tools")]


def test_task_and_turn_spans_are_ignored_and_keep_the_agents_and_the_handoff(tmp_path: Path) -> None:
    # newer SDKs can wrap a run in a `task` span and each agent turn in a `turn` span (both exported as custom)
    [(expected, _)] = convert(IMPORTER, HANDOFF)
    items = _items()
    task_data = {"type": "custom", "name": "task", "data": {"sdk_span_type": "task", "name": "Agent workflow"}}
    task = {**items[1], "id": "span_task", "parent_id": None, "started_at": items[1]["started_at"],
            "ended_at": items[5]["ended_at"], "span_data": task_data}
    turns = []
    for agent in (items[1], items[5]):
        agent["parent_id"] = "span_task"
        turn_id = f"span_turn_{agent['span_data']['name']}"
        turns.append({**agent, "id": turn_id, "parent_id": agent["id"], "span_data": {
            "type": "custom", "name": "turn", "data": {"sdk_span_type": "turn", "turn": 1,
                                                       "agent_name": agent["span_data"]["name"]}}})
        for child in items:
            if child.get("parent_id") == agent["id"]:
                child["parent_id"] = turn_id
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "turns.json", json.dumps({"data": [task, *turns, *items]})))
    assert data["trace"] == expected["trace"] and data["agents"] == expected["agents"]
    assert "Ignored span types: custom (4), guardrail (1), mcp_tools (1)." in data["source"]


def test_a_second_run_in_the_trace_opens_with_only_the_users_new_words(tmp_path: Path) -> None:
    # `with trace(...)` around two Runner.run calls: the second run's input repeats the conversation so far
    items = _items()
    again = "Are you sure? My card statement shows two charges of $89.00."
    first_user = items[3]["span_data"]["input"][1]["content"]
    agent = {**items[1], "id": "span_run2", "started_at": "2026-03-20T10:00:20.000000+00:00",
             "ended_at": "2026-03-20T10:00:22.000000+00:00"}
    call = {**items[3], "id": "span_run2_call", "parent_id": "span_run2",
            "started_at": "2026-03-20T10:00:20.100000+00:00", "ended_at": "2026-03-20T10:00:21.900000+00:00",
            "span_data": {**items[3]["span_data"], "input": [
                {"role": "user", "content": first_user}, {"role": "assistant", "content": "Good news: ..."},
                {"role": "user", "content": again}]}}
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "two-runs.json", json.dumps({"data": [*items, agent, call]})))
    said = [e["content"] for e in data["trace"] if e["kind"] == "human_message"]
    assert said == [first_user, again]
    assert data["trace"][-1]["kind"] == "planner_call" and data["trace"][-1]["agent"] == "Triage"
    assert [p["id"] for p in data["plan"]] == ["p01", "p02"]


#: Recorded with openai-agents 0.24.0 (tests/fixtures/thirdparty/README.md): a streamed Chat Completions run, a
#: run exported while its second tool call was still running, a run an input guardrail stopped.
STREAMED = THIRD / "openai-agents-sdk-streamed.jsonl"
UNFINISHED_RUN = THIRD / "openai-agents-sdk-unfinished.jsonl"
GUARDED = THIRD / "openai-agents-sdk-guardrail.jsonl"


def test_a_streamed_generation_reads_the_response_the_sdk_assembled() -> None:
    [(data, _)] = convert(IMPORTER, STREAMED)
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["id"], e["kind"]) for e in data["trace"]] == [
        ("e0001", "human_message"), ("e0002", "planner_call"), ("call_s9_0", "tool_call"), ("e0004", "tool_result"),
        ("e0005", "planner_call")]
    assert ev["e0002"]["content"] == '[tool call get_order {"order_id": "9"}]'
    assert (ev["e0002"]["model"], ev["e0002"]["usage"]) == ("gpt-4o-mini", {"input_tokens": 50, "output_tokens": 7})
    assert ev["call_s9_0"]["arguments"] == {"order_id": "9"} and ev["e0004"]["call"] == "call_s9_0"
    assert ev["e0005"]["content"] == "Order 9 has two captures."


def test_a_streamed_generation_without_usage_takes_the_responses_usage(tmp_path: Path) -> None:
    lines = [json.loads(line) for line in STREAMED.read_text(encoding="utf-8").splitlines()]
    for item in lines:
        if item.get("span_data", {}).get("type") == "generation":
            item["span_data"]["usage"] = None
            item["span_data"]["model"] = None
    path = _write(tmp_path, "s.jsonl", "\n".join(json.dumps(x) for x in lines))
    [(data, _)] = convert(IMPORTER, path)
    [first, *_] = [e for e in data["trace"] if e["kind"] == "planner_call"]
    assert (first["model"], first["usage"]) == ("gpt-4o-mini", {"input_tokens": 50, "output_tokens": 7})


def test_a_tool_call_still_running_when_exported_says_it_had_no_result() -> None:
    [(data, _)] = convert(IMPORTER, UNFINISHED_RUN)
    results = [e for e in data["trace"] if e["kind"] == "tool_result"]
    assert [r["output"] for r in results] == [
        [], "(no result: the tool call had not ended when the trace was exported)"]
    assert results[-1]["call"] == "call_8_0"


def test_a_model_call_still_running_when_exported_says_it_had_no_output(tmp_path: Path) -> None:
    lines = UNFINISHED_RUN.read_text(encoding="utf-8").splitlines()
    last = max(i for i, line in enumerate(lines) if '"type": "generation"' in line and '"ended_at": null' in line)
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "cut.jsonl", "\n".join(lines[:last + 1])))
    calls = [e for e in data["trace"] if e["kind"] == "planner_call"]
    assert [c["content"] for c in calls] == [
        '[tool call list_charges {"order_id": "1"}]',
        "(no output: the model call had not ended when the trace was exported)"]
    assert calls[-1]["usage"]["estimated"] is True


RUN = THIRD / "openai-agents-sdk-run.jsonl"
#: The recorded run's silent failure (its times stretched 100-fold below: the recording's fake model answered in
#: milliseconds, a real one takes seconds).
RUN_KEY = """answer_key:
  fault: {origin_step: p02, kind: empty_result, summary: "list_charges returned an empty list for order 4417, which get_order shows captured twice, and Refunds took it as no duplicate charge."}
  evidence: [e0016, e0017]
  cascade: []
  damage: {unit: USD not refunded, entries: [{event: e0019, amount: 89}]}
  deadline: 70.0
  debrief: list_charges (e0016) is empty while get_order (e0017) shows two captures of 89 USD.
"""  # noqa: E501


def _stretched(tmp_path: Path, factor: int) -> Path:
    from datetime import datetime

    lines = [json.loads(line) for line in RUN.read_text(encoding="utf-8").splitlines()]
    start = min(datetime.fromisoformat(x["started_at"]) for x in lines if x.get("started_at"))
    for x in lines:
        for key in ("started_at", "ended_at"):
            if x.get(key):
                x[key] = (start + (datetime.fromisoformat(x[key]) - start) * factor).isoformat()
    return _write(tmp_path, "run.jsonl", "\n".join(json.dumps(x, ensure_ascii=False) for x in lines))


def test_a_recorded_sdk_run_keeps_its_agents_handoffs_tools_tokens_and_order() -> None:
    [(data, _)] = convert(IMPORTER, RUN)
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["id"], e["kind"], e.get("agent")) for e in data["trace"]] == [
        ("e0001", "human_message", "user"), ("e0002", "planner_call", "Triage"), ("call_1_0", "tool_call", "Triage"),
        ("e0004", "handoff", "Triage"), ("e0005", "executor_message", "Researcher"),
        ("call_2_0", "tool_call", "Researcher"), ("e0007", "tool_result", "tools"),
        ("e0008", "executor_message", "Researcher"), ("e0009", "tool_result", "tools"),
        ("e0010", "planner_call", "Triage"), ("e0011", "handoff", "Triage"), ("e0012", "executor_message", "Refunds"),
        ("call_5_0", "tool_call", "Refunds"), ("call_5_1", "tool_call", "Refunds"),
        ("call_5_2", "tool_call", "Refunds"),
        ("e0016", "tool_result", "tools"), ("e0017", "tool_result", "tools"), ("e0018", "tool_result", "tools"),
        ("e0019", "executor_message", "Refunds")]
    times = [e["t"] for e in data["trace"]]
    assert times == sorted(times) and (times[0], times[-1]) == (0.009, 0.711)
    assert ev["e0001"]["content"] == "I was charged twice for order 4417 — refund please"
    assert (ev["e0004"]["to_agent"], ev["e0004"]["content"]) == ("Researcher", "history of order 4417")  # as_tool
    assert (ev["e0011"]["from_agent"], ev["e0011"]["to_agent"]) == ("Triage", "Refunds")
    assert [ev[c]["batch"] for c in ("call_5_0", "call_5_1", "call_5_2")] == ["e0012"] * 3
    assert [ev[r]["call"] for r in ("e0016", "e0017", "e0018")] == ["call_5_0", "call_5_1", "call_5_2"]
    assert ev["e0007"]["output"] == "Zürich ☃ 日本 Zürich ☃ 日本 Zürich ☃ 日本 "
    assert (ev["e0016"]["output"], ev["e0016"]["status"]) == ([], "ok")
    assert ev["e0017"]["output"] == "Order(order_id='4417', captures=[89.0, 89.0])"  # a dataclass's str()
    assert ev["e0018"]["status"] == "error" and ev["e0018"]["output"]["error"] == (
        "Error running tool (non-fatal): Tool execution failed. Error details are redacted.")
    assert ev["call_5_2"]["arguments"] == {"customer": "Ana Núñez"}
    assert [ev[m]["usage"] for m in ("e0002", "e0010", "e0019")] == [
        {"input_tokens": 101, "output_tokens": 11}, {"input_tokens": 104, "output_tokens": 14},
        {"input_tokens": 106, "output_tokens": 16}]
    assert (ev["e0002"]["model"], ev["e0019"]["model"]) == ("gpt-4o-mini", "gpt-4o")
    agents = {a["name"]: a for a in data["agents"]}
    assert agents["Triage"]["description"] == "Tools: research. Hands off to: Refunds. Output type: str."
    assert "Ignored span types: custom (9), guardrail (1)." in data["source"]


def test_a_recorded_sdk_run_marked_up_passes_check_and_plays(tmp_path: Path) -> None:
    from import_support import play

    [result] = import_openai_agents([_stretched(tmp_path, 100)], tmp_path / "out").results
    assert result.output is not None
    only_missing_key(result.output)
    drill = marked_up(result.output, RUN_KEY)
    assert run_checks(drill).passed, run_checks(drill).problems
    caught = play(drill, escalate_at=66.0)  # the empty list (64.6 s) is on screen
    assert caught.contained and caught.damage == 0
    never = play(drill, None)
    assert not never.contained and never.damage == 89


def test_a_run_stopped_by_a_guardrail_before_any_model_call_names_its_agent(tmp_path: Path) -> None:
    [(data, _)] = convert(IMPORTER, GUARDED)
    assert data["agents"] == [{"name": "Triage", "role": "planner", "description": "Output type: str."}]
    assert data["briefing"]["watching"] == "Agent Triage at work, with tools: none."
    assert [(e["kind"], e["content"]) for e in data["trace"]] == [
        ("log", "guardrail no_pii failed: tripwire triggered"),
        ("log", 'turn failed: Guardrail tripwire triggered ({"guardrail": "no_pii"})')]
    assert "Guardrails whose tripwire triggered, each a log event: 1." in data["source"]
    [result] = import_openai_agents([GUARDED], tmp_path / "out").results
    assert result.output is not None
    drill = marked_up(result.output)  # a control drill: nothing went wrong but what the guardrail stopped
    assert drill.is_all_clear and run_checks(drill).passed, run_checks(drill).problems


def test_a_trace_of_custom_spans_only_beside_agent_traces_is_left_out_and_named(tmp_path: Path) -> None:
    other = {"object": "trace.span", "id": "span_pre", "trace_id": "trace_prep", "parent_id": None,
             "started_at": "2026-12-01T16:57:55.426260+00:00", "ended_at": "2026-12-01T16:57:55.426328+00:00",
             "span_data": {"type": "custom", "name": "preflight", "data": {"ok": True}}, "error": None}
    text = STREAMED.read_text(encoding="utf-8") + json.dumps(other) + "\n"
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "mixed.jsonl", text))
    assert data["id"] == "openai-agents-mixed-1" and data["trace"][1]["kind"] == "planner_call"  # the file's 2nd trace
    assert data["source"].endswith("Traces of the file not imported, none of their spans an agent, model call or "
                                   "tool call: trace_prep.")
    only_custom = json.dumps(other) + "\n" + json.dumps({**other, "id": "span_2", "trace_id": "trace_two"})
    with pytest.raises(TraceError, match="no span of the file's 2 traces is an agent, model call or tool call"):
        convert(IMPORTER, _write(tmp_path, "idle.jsonl", only_custom))
    with pytest.raises(TraceError, match="no span of this trace is an agent"):
        convert(IMPORTER, _write(tmp_path, "mixed.jsonl", text), TraceOptions(trace_id="trace_prep"))
