"""`warroom import langfuse`: Langfuse traces and observations (API and SDK exports, JSON Lines) mapped to drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, marked_up, only_missing_key

from warroom.core.author import run_checks
from warroom.importers.kit import TraceError, TraceOptions, convert
from warroom.importers.langfuse import IMPORTER, import_langfuse

THIRD = FIXTURES / "thirdparty"
PLANNER_EXECUTOR = THIRD / "langfuse-planner-executor.json"
#: The silent failure: the empty invoice list the executor reports as "nothing to pay", then closes the month.
KEY = """answer_key:
  fault: {origin_step: p01, kind: empty_result, summary: "erp_list_invoices returned an empty list for a month with 20 unpaid invoices, and the executor took it as none unpaid."}
  evidence: [e0007]
  cascade: []
  damage: {unit: USD late fees, entries: [{event: e0011, amount: 184.5}]}
  deadline: {event: call_close, after: 0}
  debrief: e0007 is an empty list, yet the close result e0011 says 20 invoices are unpaid.
"""  # noqa: E501


def test_a_planner_executor_trace_maps_to_agents_model_calls_tools_and_prices() -> None:
    [(data, header)] = convert(IMPORTER, PLANNER_EXECUTOR)
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["id"], e["t"], e["kind"]) for e in data["trace"]] == [
        ("e0001", 0.0, "human_message"), ("e0002", 2.9, "planner_call"), ("e0003", 3.0, "handoff"),
        ("e0004", 4.4, "executor_message"), ("call_inv", 4.45, "tool_call"), ("call_cred", 4.46, "tool_call"),
        ("e0007", 5.1, "tool_result"), ("e0008", 5.46, "tool_result"), ("e0009", 12.9, "executor_message"),
        ("call_close", 13.0, "tool_call"), ("e0011", 13.8, "tool_result"), ("e0012", 15.5, "executor_message"),
        ("e0013", 18.2, "planner_call")]
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "planner": "planner", "executor": "executor", "tools": "tool-host"}
    # AGENT under AGENT: a handoff carrying the executor's input
    assert (ev["e0003"]["from_agent"], ev["e0003"]["to_agent"]) == ("planner", "executor")
    assert json.loads(ev["e0003"]["content"])["plan"].startswith("1. List March's unpaid invoices")
    assert ev["e0001"]["content"] == data["briefing"]["goal"] == (
        "Reconcile March's vendor invoices and pay what is unpaid, once.")
    # GENERATION: model, usageDetails, OpenAI tool_calls (one batch), text
    assert (ev["e0002"]["model"], ev["e0002"]["usage"]) == ("gpt-4o-2024-08-06", {"input_tokens": 412,
                                                                                   "output_tokens": 58})
    assert ev["e0004"]["content"] == ('[tool call erp_list_invoices {"month": "2026-03", "status": "unpaid"}]\n'
                                      '[tool call erp_list_credits {"month": "2026-03"}]')
    assert ev["call_inv"]["batch"] == ev["call_cred"]["batch"] == "e0004"
    # TOOL: input as arguments, output as result (the silent failure's []), level ERROR a failed result
    assert ev["call_inv"]["arguments"] == {"month": "2026-03", "status": "unpaid"}
    assert (ev["e0007"]["output"], ev["e0007"]["status"]) == ([], "ok")
    assert (ev["e0008"]["output"], ev["e0008"]["status"]) == ("TimeoutError: ERP did not answer in 1.0 s", "error")
    assert ev["e0011"]["output"] == {"closed": True, "unpaid_left": 20, "late_fees_usd": 184.5}
    # costDetails over usageDetails: USD per million tokens
    assert data["models"]["executor"] == {"name": "gpt-4o-mini-2024-07-18", "input_usd_per_mtok": 0.15,
                                          "output_usd_per_mtok": 0.6}
    assert "prices of gpt-4o-2024-08-06, gpt-4o-mini-2024-07-18 from the costs Langfuse recorded" in data["source"]
    assert "spans that are not agent, model or tool spans (1)" in data["source"]  # the WARNING event, dropped
    assert "`warroom import langfuse`" in header and "answer_key" not in data


def test_the_imported_drill_validates_once_marked_up_and_passes_check(tmp_path: Path) -> None:
    [result] = import_langfuse([PLANNER_EXECUTOR], tmp_path / "out").results
    assert result.output is not None and result.output.name == "langfuse-planner-executor.yaml"
    only_missing_key(result.output)
    assert marked_up(result.output).is_all_clear
    drill = marked_up(result.output, KEY)
    assert run_checks(drill).passed, run_checks(drill).problems


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_observation_lists_data_pages_and_json_lines_read_as_the_trace(tmp_path: Path) -> None:
    trace = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    [(expected, _)] = convert(IMPORTER, PLANNER_EXECUTOR)
    observations = trace["observations"]
    for name, text in (("list.json", json.dumps(observations[::-1])),
                       ("page.json", json.dumps({"data": observations, "meta": {"page": 1, "totalItems": 11}})),
                       ("lines.jsonl", "\n".join(json.dumps(o) for o in observations)),
                       ("traces.json", json.dumps({"data": [trace]}))):
        [(data, _)] = convert(IMPORTER, _write(tmp_path, name, text))
        assert data["trace"] == expected["trace"], name


def test_python_sdk_snake_case_fields_and_older_usage(tmp_path: Path) -> None:
    def snake(key: str) -> str:
        return "".join(f"_{c.lower()}" if c.isupper() else c for c in key)
    trace = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    [(expected, _)] = convert(IMPORTER, PLANNER_EXECUTOR)
    observations = [{snake(k): v for k, v in o.items()} for o in trace["observations"]]
    for o in observations:  # usage as the older API wrote it, no costs
        if "usage_details" in o:
            details = o.pop("usage_details")
            o.pop("cost_details")
            o["usage"] = {"input": details["input"], "output": details["output"], "unit": "TOKENS"}
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "snake.json", json.dumps(observations)))
    assert data["trace"] == expected["trace"]
    assert data["models"]["executor"]["input_usd_per_mtok"] == 2.5  # no costs recorded: the assumed prices


def test_a_span_with_input_and_output_and_no_children_is_a_tool_call() -> None:
    # the SDKs before observation types: a tool is a SPAN; the trace's `input` is the goal
    [(data, _)] = convert(IMPORTER, THIRD / "langfuse-trace.json")
    assert [e["kind"] for e in data["trace"]] == ["executor_message", "tool_call", "tool_result"]
    assert data["trace"][1]["tool"] == "erp.list_invoices" and data["trace"][1]["arguments"] == {"month": "2026-03"}
    assert data["trace"][2]["output"] == {"returned": 20, "total": 40, "next_cursor": "c2"}
    assert data["briefing"]["goal"] == "Reconcile March's vendor invoices."


def test_two_traces_make_two_drills_and_trace_id_picks_one(tmp_path: Path) -> None:
    one = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    two = json.loads((THIRD / "langfuse-trace.json").read_text(encoding="utf-8"))
    path = _write(tmp_path, "two.jsonl", json.dumps(one) + "\n" + json.dumps(two) + "\n")
    assert [d["id"] for d, _ in convert(IMPORTER, path)] == ["langfuse-two-0", "langfuse-two-1"]
    [(picked, _)] = convert(IMPORTER, path, TraceOptions(trace_id="B7E1C0A4F1D44F4D8E1F0C2B3A4D5E6F"))
    assert picked["id"] == "langfuse-two" and len(picked["trace"]) == 3


def test_each_trace_of_a_file_has_its_own_user_message_and_prices(tmp_path: Path) -> None:
    # the same request run twice: the second trace still opens with it; only the first recorded costs
    first = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    second = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8").replace("4c1f9e2a", "5d2a0f3b")
                        .replace('"a1000000000000', '"b2000000000000'))
    for o in second["observations"]:
        o.pop("costDetails", None)
    drills = convert(IMPORTER, _write(tmp_path, "twice.json", json.dumps([first, second])))
    assert [d["trace"][0]["kind"] for d, _ in drills] == ["human_message", "human_message"]
    assert [d["models"]["executor"]["input_usd_per_mtok"] for d, _ in drills] == [0.15, 2.5]


@pytest.mark.parametrize(("text", "message"), [
    ('{"observations": [', "not JSON: Expecting value at line 1 column 19"),
    ('{"resourceSpans": []}', "not a Langfuse export: the document is an object that is neither a trace with "
                              "`observations` nor an observation (`type`, `startTime`)"),
    ('{"id": "t", "observations": ["o1", "o2"]}', "the trace lists its observations by id only: export the trace"),
    ('[{"id": "o", "type": "GENERATION", "startTime": "noon"}]', "item 0.startTime is not an ISO 8601 time"),
    ('[{"id": "o", "type": "GENERATION"}]', "item 0.startTime is missing"),
    ('[{"type": "GENERATION", "startTime": "2026-03-20T09:46:40Z"}]', "item 0 has no `id`"),
    ('[{"id": "o", "type": "EVENT", "startTime": "2026-03-20T09:46:40Z"}]',
     "no observation of this trace is an agent, model call or tool call"),
    ('{"data": []}', "no observation in this file"),
    ('[{"id": "o", "type": "SPAN", "startTime": "2026-03-20T09:46:40Z"}, 7]', "item 1 is a JSON number"),
])
def test_malformed_exports_are_one_line_problems(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TraceError) as e:
        convert(IMPORTER, _write(tmp_path, "bad.json", text))
    assert message in str(e.value) and "\n" not in str(e.value)


def test_flattened_metadata_that_is_not_json_text_stays_as_written(tmp_path: Path) -> None:
    from warroom.importers.langfuse._otel import otel_observations

    recorded = (FIXTURES / "frameworks" / "langfuse-otel.jsonl").read_text(encoding="utf-8")
    assert recorded.count('"\\"call_lc\\""') == 1
    path = tmp_path / "spans.jsonl"
    path.write_text(recorded.replace('"\\"call_lc\\""', '"\\"call_lc"'), encoding="utf-8")
    ids = [o["metadata"]["tool_call_id"] for o in otel_observations(path) or [] if "metadata" in o]
    assert ids == ['"call_lc', "call_go", "call_crm", "call_close"]
