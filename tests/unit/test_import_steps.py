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
