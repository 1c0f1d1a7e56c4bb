"""`warroom import langsmith`: LangSmith runs (list_runs exports, child_runs trees, JSON Lines) mapped to drills."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, marked_up, only_missing_key

from warroom.core.author import run_checks
from warroom.importers.exports import time_ns, tool_arguments
from warroom.importers.kit import TraceError, TraceOptions, convert
from warroom.importers.langsmith import IMPORTER, import_langsmith

THIRD = FIXTURES / "thirdparty"
PLANNER_EXECUTOR = THIRD / "langsmith-planner-executor.json"
CHILD_RUNS = THIRD / "langsmith-child-runs.json"
#: The silent failure of the planner-executor run: the empty invoice list the executor reports as "nothing to pay".
KEY = """answer_key:
  fault: {origin_step: p01, kind: empty_result, summary: "erp_list_invoices returned an empty list for a month with 20 unpaid invoices, and the executor took it as none unpaid."}
  evidence: [e0006]
  cascade: []
  damage: {unit: USD late fees, entries: [{event: e0010, amount: 184.5}]}
  deadline: {event: call_close, after: 0}
  debrief: e0006 is an empty list, yet the close result e0010 says 20 invoices are unpaid.
"""  # noqa: E501


def test_a_langgraph_planner_executor_run_maps_to_agents_model_calls_and_tools() -> None:
    [(data, header)] = convert(IMPORTER, PLANNER_EXECUTOR)
    ev = {e["id"]: e for e in data["trace"]}
    assert [(e["id"], e["t"], e["kind"]) for e in data["trace"]] == [
        ("e0001", 0.01, "human_message"), ("e0002", 2.9, "planner_call"), ("e0003", 4.4, "executor_message"),
        ("call_inv", 4.45, "tool_call"), ("call_cred", 4.46, "tool_call"), ("e0006", 5.1, "tool_result"),
        ("e0007", 5.46, "tool_result"), ("e0008", 12.9, "executor_message"), ("call_close", 13.0, "tool_call"),
        ("e0010", 13.8, "tool_result"), ("e0011", 15.5, "executor_message"), ("e0012", 18.2, "planner_call")]
    # LangGraph nodes that call a model are agents; the first is the planner; each planner call a plan step
    assert {a["name"]: a["role"] for a in data["agents"]} == {
        "user": "human", "planner": "planner", "executor": "executor", "tools": "tool-host"}
    assert [p["id"] for p in data["plan"]] == ["p01", "p02"] and ev["e0012"]["step"] == "p02"
    assert data["briefing"]["goal"] == ev["e0001"]["content"] == (
        "Reconcile March's vendor invoices and pay what is unpaid, once.")
    # generations' AIMessage: text, the model that answered, the run's token counts, the finish reason
    assert ev["e0002"]["content"].startswith("1. List March's unpaid invoices in the ERP.")
    assert ev["e0002"]["usage"] == {"input_tokens": 412, "output_tokens": 58}
    assert (ev["e0002"]["model"], ev["e0002"]["finish_reason"]) == ("gpt-4o-2024-08-06", "stop")
    # tool_calls of the AIMessage: shown, one batch, their ids the tool calls' ids (from the ToolMessage)
    assert ev["e0003"]["content"] == ('[tool call erp_list_invoices {"month": "2026-03", "status": "unpaid"}]\n'
                                      '[tool call erp_list_credits {"month": "2026-03"}]')
    assert ev["e0003"]["usage"] == {"input_tokens": 530, "output_tokens": 41}  # usage_metadata
    assert ev["call_inv"]["batch"] == ev["call_cred"]["batch"] == "e0003"
    # the tool's input as LangChain writes it (str of a dict) is its arguments; the ToolMessage content its result
    assert ev["call_inv"]["arguments"] == {"month": "2026-03", "status": "unpaid"}
    assert (ev["e0006"]["output"], ev["e0006"]["status"], ev["e0006"]["call"]) == ("[]", "ok", "call_inv")
    # an error is a failed result: its first line, not the traceback
    assert (ev["e0007"]["output"], ev["e0007"]["status"]) == ("TimeoutError('ERP did not answer in 1.0 s')", "error")
    assert ev["e0010"]["output"] == '{"closed": true, "unpaid_left": 20, "late_fees_usd": 184.5}'
    assert ev["e0011"]["content"] == "Done: every March invoice paid, month closed."
    assert data["models"]["planner"]["name"] == "gpt-4o-2024-08-06"
    assert data["models"]["executor"]["name"] == "gpt-4o-mini-2024-07-18"
    assert "spans that are not agent, model or tool spans (2)" in data["source"]  # the graph and its prompt run
    assert "trace 1f0c5d5e-6a4e-4a43-9d39-3d2b7c1e0a01" in data["source"] and "answer_key" not in data
    assert "`warroom import langsmith`" in header


def test_the_imported_drill_validates_once_marked_up_and_passes_check(tmp_path: Path) -> None:
    [result] = import_langsmith([PLANNER_EXECUTOR], tmp_path / "out").results
    assert result.output is not None and result.output.name == "langsmith-planner-executor.yaml"
    only_missing_key(result.output)
    assert marked_up(result.output).is_all_clear
    drill = marked_up(result.output, KEY)
    assert drill.answer_key is not None and drill.answer_key.evidence == ["e0006"]
    assert run_checks(drill).passed, run_checks(drill).problems


def test_nested_child_runs_openai_choices_a_retriever_and_a_failed_tool() -> None:
    [(data, _)] = convert(IMPORTER, CHILD_RUNS)
    trace = data["trace"]
    assert [(e["t"], e["kind"]) for e in trace] == [
        (2.25, "executor_message"), (2.3, "tool_call"), (3.1, "tool_result"), (3.2, "tool_call"),
        (4.2, "tool_result"), (17.9, "executor_message")]
    assert trace[0]["content"] == '[tool call search_policies {"query": "late invoices"}]'
    assert trace[0]["usage"] == {"input_tokens": 120, "output_tokens": 18}  # OpenAI usage in the outputs
    assert (trace[0]["model"], trace[0]["finish_reason"]) == ("gpt-4o-mini-2024-07-18", "tool_calls")
    assert (trace[1]["id"], trace[1]["arguments"]) == ("call_pol", {"query": "late invoices"})  # asked by name
    assert trace[2]["output"] == ["VP-7: late invoices are paid with the fee."]  # the documents' page_content
    assert trace[3]["arguments"] == {"vendor_id": "V-19"}
    assert (trace[4]["output"], trace[4]["status"]) == ("KeyError('V-19')", "error")
    assert trace[5]["usage"]["estimated"] is True and trace[5]["model"] == "gpt-4o-mini"  # ls_model_name
    assert data["briefing"]["goal"] == "Which vendor policy applies to late invoices?"  # the root's `question`
    assert "trace 0b6f2c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d" in data["source"]  # the root's id: no trace_id recorded


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_json_lines_and_the_runs_wrapper_read_as_the_list(tmp_path: Path) -> None:
    runs = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    [(expected, _)] = convert(IMPORTER, PLANNER_EXECUTOR)
    lines = _write(tmp_path, "langsmith-planner-executor.jsonl", "\n".join(json.dumps(r) for r in runs) + "\n")
    wrapped = _write(tmp_path, "langsmith-planner-executor.json", json.dumps({"runs": runs[::-1]}))
    for path in (lines, wrapped):
        [(data, _)] = convert(IMPORTER, path)
        assert data["trace"] == expected["trace"] and data["agents"] == expected["agents"]


def test_the_parent_comes_from_dotted_order_and_a_repeated_run_is_read_once(tmp_path: Path) -> None:
    runs = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    [(expected, _)] = convert(IMPORTER, PLANNER_EXECUTOR)
    for run in runs:
        run.pop("parent_run_id")
        run.pop("trace_id")
    runs[0]["child_runs"] = [runs[1]]  # listed and nested (list_runs with its children loaded)
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "dotted.json", json.dumps(runs)))
    assert data["trace"] == expected["trace"]


def test_tool_runs_of_a_separate_tools_node_belong_to_the_agent_that_asked(tmp_path: Path) -> None:
    # LangGraph's prebuilt ToolNode runs the calls in a `tools` node beside the agent's node, not under it
    runs = json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8"))
    [(expected, _)] = convert(IMPORTER, PLANNER_EXECUTOR)
    root = runs[0]["id"]
    runs.append({"id": "9e1d0c2b-0000-4000-8000-000000000001", "name": "tools", "run_type": "chain",
                 "start_time": "2026-03-20T09:46:44.440000", "end_time": "2026-03-20T09:46:45.480000",
                 "parent_run_id": root, "trace_id": root, "inputs": {}, "outputs": {},
                 "extra": {"metadata": {"langgraph_node": "tools"}}})
    for run in runs:
        if run["run_type"] == "tool" and run["name"] != "erp_close_month":
            run["parent_run_id"] = runs[-1]["id"]
            del run["dotted_order"]
    [(data, _)] = convert(IMPORTER, _write(tmp_path, "tools-node.json", json.dumps(runs)))
    assert data["trace"] == expected["trace"]
    assert {e["agent"] for e in data["trace"] if e["kind"] == "tool_call"} == {"executor"}
    assert "spans that are not agent, model or tool spans (3)" in data["source"]  # the tools node too


def test_two_traces_make_two_drills_and_trace_id_picks_one(tmp_path: Path) -> None:
    one = json.loads(CHILD_RUNS.read_text(encoding="utf-8"))
    path = _write(tmp_path, "two.json", json.dumps([*json.loads(PLANNER_EXECUTOR.read_text(encoding="utf-8")), one]))
    drills = convert(IMPORTER, path)
    assert [d["id"] for d, _ in drills] == ["langsmith-two-0", "langsmith-two-1"]
    [(picked, _)] = convert(IMPORTER, path, TraceOptions(trace_id="0B6F2C1E-3D4A-4F5B-8C6D-7E8F9A0B1C2D"))
    assert picked["id"] == "langsmith-two" and len(picked["trace"]) == 6
    with pytest.raises(TraceError, match="no trace abc in this file; its trace ids: 1f0c5d5e-"):
        convert(IMPORTER, path, TraceOptions(trace_id="abc"))


@pytest.mark.parametrize(("text", "message"), [
    ('[{"run_type": "llm"', "not JSON: Expecting ',' delimiter at line 1 column 20"),
    ('{"data": []}', "not LangSmith runs: run 0 is an object without `run_type`"),
    ('[{"id": "a", "run_type": "llm"}, 3]', "not LangSmith runs: run 1 is a JSON number"),
    ('[]', "no run in this file"),
    ('[{"run_type": "llm", "start_time": "2026-03-20T09:46:40"}]', "run 0 has no `id`"),
    ('[{"id": "a", "run_type": "llm", "start_time": "yesterday"}]',
     "run a.start_time is not an ISO 8601 time: 'yesterday'"),
    ('[{"id": "a", "run_type": "llm"}]', "run a.start_time is missing (an ISO 8601 time expected)"),
    ('[{"id": "a", "run_type": "chain", "start_time": "2026-03-20T09:46:40"}]',
     "no run of this trace is an agent, model call or tool call"),
    ('{"id": "a", "run_type": "llm", "start_time": "2026-03-20T09:46:40"}\n{"id": "b", "run_type": 1\n'
     '{"id": "c", "run_type": "llm", "start_time": "2026-03-20T09:46:41"}',
     "line 2: not JSON: Expecting ',' delimiter at line 1 column 26"),
    ('[{"id": "a", "run_type": "llm", "start_time": 0, "parent_run_id": "b"}, '
     '{"id": "b", "run_type": "chain", "start_time": 5, "parent_run_id": "a"}]', "are each other's parents (a cycle)"),
])
def test_malformed_exports_are_one_line_problems(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TraceError) as e:
        convert(IMPORTER, _write(tmp_path, "bad.json", text))
    assert message in str(e.value) and "\n" not in str(e.value)


def test_times_with_or_without_a_zone_and_epoch_milliseconds() -> None:
    utc = time_ns("2026-03-20T09:46:40.250000", "t")
    assert time_ns("2026-03-20T09:46:40.25Z", "t") == time_ns("2026-03-20T10:46:40.250+01:00", "t") == utc
    assert time_ns(1774000000250, "t") == 1774000000250 * 10**6
    with pytest.raises(TraceError, match="milliseconds since 1970 expected"):
        time_ns(1774000000250 * 10**6, "t")


def test_tool_inputs_as_langchain_writes_them() -> None:
    assert tool_arguments("{'month': '2026-03', 'ids': [1, 2]}") == {"month": "2026-03", "ids": [1, 2]}
    assert tool_arguments('{"month": "2026-03"}') == {"month": "2026-03"}
    assert tool_arguments("march invoices") == {"input": "march invoices"}
    assert tool_arguments("{not a dict") == {"input": "{not a dict"}
    assert tool_arguments(None) == {}


def _root_alone(run_type: str = "chain", **changes: object) -> dict[str, object]:
    """The child-runs fixture's root run as a `RunTree` dumped without its children."""
    root = json.loads(CHILD_RUNS.read_text(encoding="utf-8"))
    root.pop("child_runs")
    return {**root, "run_type": run_type, **changes}


LONE_ADVICE = ("no `child_runs` and no other run of the trace, so the agents, model calls and tool calls under it are "
               "missing; export the run with its children (`Client.read_run(RUN_ID, load_child_runs=True)`), or every "
               "run of the trace (`Client.list_runs(trace_id=TRACE_ID)`)")


@pytest.mark.parametrize("changes", [{}, {"child_runs": []}, {"child_runs": None}])
def test_a_root_run_alone_says_its_children_are_missing_and_how_to_export_them(tmp_path: Path,
                                                                                changes: dict[str, object]) -> None:
    path = _write(tmp_path, "run.json", json.dumps(_root_alone(**changes)))
    [result] = import_langsmith([path], tmp_path / "out").results
    assert result.error == "no run of this trace is an agent, model call or tool call"
    [warning] = result.warnings
    assert warning.line is None
    assert warning.message == ("trace 0b6f2c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d is its root run alone (chain `run_agent`): "
                               + LONE_ADVICE)


def test_an_agent_run_alone_imports_but_warns_too(tmp_path: Path) -> None:
    path = _write(tmp_path, "run.json", json.dumps(_root_alone("agent")))
    [result] = import_langsmith([path], tmp_path / "out").results
    assert result.error is None
    assert [w.message for w in result.warnings] == [
        "trace 0b6f2c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d is its root run alone (agent `run_agent`): " + LONE_ADVICE]


def test_several_roots_alone_are_one_warning(tmp_path: Path) -> None:
    runs = [_root_alone(), _root_alone(id="aaaaaaaa-3d4a-4f5b-8c6d-7e8f9a0b1c2d", name="second")]
    [result] = import_langsmith([_write(tmp_path, "roots.json", json.dumps(runs))], tmp_path / "out").results
    assert result.error == "no run of the file's 2 traces is an agent, model call or tool call"
    assert [w.message for w in result.warnings] == [
        "2 traces are each a root run alone (chain `run_agent`, ...): " + LONE_ADVICE.replace("under it", "under them")]


@pytest.mark.parametrize("path", [PLANNER_EXECUTOR, CHILD_RUNS, THIRD / "langsmith-runs.json",
                                  THIRD / "langsmith-react-agent.json"])
def test_whole_run_trees_and_a_model_or_tool_run_alone_give_no_warning(tmp_path: Path, path: Path) -> None:
    alone = _write(tmp_path, "llm.json", json.dumps(_root_alone("llm")))
    report = import_langsmith([path, alone], tmp_path / "out")
    assert not report.failed and report.warnings == []
