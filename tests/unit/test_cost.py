"""Cost math: call cost, money formatting, trace cost by role/model/step, the flat loop, the seed example, CLI."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner
from core_support import drill_yaml, make_drill
from import_support import refund_chat

from warroom.cli import main
from warroom.core.author import seed_example_path
from warroom.core.load import load_drill
from warroom.core.model import (
    ExecutorMessage,
    ExecutorReport,
    LogEvent,
    ModelSpec,
    PlannerCall,
    Role,
    ToolCall,
    ToolResult,
    Usage,
    role_of,
)
from warroom.core.play import trace_cost
from warroom.core.play._cost import NO_STEP
from warroom.core.text import usd


def test_a_model_call_costs_its_tokens_times_the_price_per_million():
    spec = ModelSpec(name="m", input_usd_per_mtok=5, output_usd_per_mtok=25)
    assert spec.cost(Usage(input_tokens=1200, output_tokens=400)) == pytest.approx(0.016)
    assert spec.cost(Usage(input_tokens=0, output_tokens=0)) == 0


def test_model_calls_are_told_by_their_class_with_their_role():
    used = Usage(input_tokens=7, output_tokens=3)
    common = {"id": "e1", "t": 0.0}
    calls = [
        (PlannerCall(**common, kind="planner_call", content="plan", usage=used), Role.PLANNER),
        (ExecutorMessage(**common, kind="executor_message", content="hm", usage=used), Role.EXECUTOR),
        (ToolCall(**common, kind="tool_call", tool="crm.find", usage=used), Role.EXECUTOR),
        (ExecutorReport(**common, kind="executor_report", step="s1", status="success", content="ok", usage=used),
         Role.EXECUTOR),
    ]
    for event, role in calls:
        assert role_of(event) is role
    others = [ToolResult(**common, kind="tool_result", call="e0", output=[]),
              LogEvent(**common, kind="log", source="cron", content="done")]
    for event in others:
        assert role_of(event) is None


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (0, "$0.00"),
        (0.0506, "$0.0506"),
        (0.035 + 0.0156, "$0.0506"),  # float noise never shows
        (0.128, "$0.128"),
        (0.035, "$0.035"),
        (0.00195, "$0.00195"),
        (0.5, "$0.50"),
        (14021, "$14,021.00"),
        (1.005, "$1.01"),  # halves round up, as every number does (core/format)
        (2.675, "$2.68"),
        (0.00000123, "$0.00000123"),
        (-0.035, "-$0.035"),
        (1e26, f"${1e26:,.2f}"),  # past Decimal's 28 digits: the float as it is, not InvalidOperation
        (1.5e300, f"${1.5e300:,.2f}"),
        (1e-9, "$0.000000001"),  # issue 30: bounded, never hundreds of digits, never a negative zero
        (9.9e-10, "<$0.000000001"),
        (5e-320, "<$0.000000001"),
        (-5e-320, ">-$0.000000001"),
        (-0.0, "$0.00"),
    ],
)
def test_usd(amount, text):
    assert usd(amount) == text


def test_round_half_up_keeps_an_infinity_and_a_nan():
    from warroom.core.text._format import round_half_up

    assert round_half_up(float("inf"), 2) == float("inf") and round_half_up(float("-inf")) == float("-inf")
    assert round_half_up(float("nan"), 2) != round_half_up(float("nan"), 2)  # NaN, not InvalidOperation


def test_seed_example_reproduces_the_worked_example_exactly():
    drill = load_drill(seed_example_path())
    tc = trace_cost(drill)
    planner, executor = tc.by_role
    assert (planner.name, planner.calls, planner.input_tokens, planner.output_tokens) == ("planner", 1, 3000, 800)
    assert (executor.name, executor.calls, executor.input_tokens, executor.output_tokens) == ("executor", 8, 9600, 1200)
    assert planner.usd == pytest.approx(0.035)
    assert executor.usd == pytest.approx(0.0156)
    assert tc.total.usd == pytest.approx(0.0506)
    assert tc.flat_loop.calls == 8 and tc.flat_loop.usd == pytest.approx(0.128)
    assert tc.flat_loop.input_tokens == 8 * 1200 and tc.flat_loop.output_tokens == 8 * 400
    assert round(tc.saving_factor, 1) == 2.5
    assert round(tc.saving_percent) == 60
    assert [usd(x) for x in (tc.flat_loop.usd, planner.usd, executor.usd, tc.total.usd)] == [
        "$0.128", "$0.035", "$0.0156", "$0.0506"
    ]


def test_cost_example_command_prints_the_figures():
    result = CliRunner().invoke(main, ["cost", "--example"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "flat loop: 8 steps on frontier-large (9,600 in, 3,200 out) = $0.128" in out
    assert "1 call on frontier-large (3,000 in, 800 out) = $0.035" in out
    assert "8 calls on fast-small (9,600 in, 1,200 out) = $0.0156: $0.0506 in all" in out
    assert "saving: 2.5x cheaper, a 60% cut ($0.128 -> $0.0506)" in out


def test_cost_example_json():
    result = CliRunner().invoke(main, ["cost", "--example", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["drill_id"] == "seed-cost"
    assert data["total"]["usd"] == 0.0506 and data["flat_loop"]["usd"] == 0.128
    assert round(data["saving_percent"]) == 60 and round(data["saving_factor"], 1) == 2.5
    assert {r["name"]: r["usd"] for r in data["by_role"]} == {"planner": 0.035, "executor": 0.0156}
    assert data["planner_usd_per_mtok"] == {"input": 5.0, "output": 25.0}


def test_trace_cost_by_step_model_and_flat_loop_from_own_usage():
    tc = trace_cost(make_drill())
    by_step = {line.name: line for line in tc.by_step}
    assert list(by_step) == ["s1", "s2", "s3", NO_STEP]
    assert by_step["s1"].calls == 2 and by_step["s1"].usd == pytest.approx((100 + 50 + 200 + 100) / 1e6)
    assert by_step[NO_STEP].usd == pytest.approx(0.01)
    assert {m.name for m in tc.by_model} == {"big", "small"}
    # no flat_loop_step_usage: each call's own tokens at the planner's prices
    assert tc.flat_loop.calls == 6
    assert tc.flat_loop.usd == pytest.approx(3 * (100 * 5 + 10 * 25) / 1e6 + 3 * (200 * 5 + 20 * 25) / 1e6)
    assert tc.flat_loop_usage == "each call's own usage"
    assert tc.cascade.calls == 4  # the calls of s2 and s3
    assert tc.replan.calls == 1 and tc.replan.usd == pytest.approx(0.02)
    assert tc.false_escalation.usd == pytest.approx(0.01)
    assert tc.saving_factor == pytest.approx(tc.flat_loop.usd / tc.total.usd)
    json.dumps(tc.to_dict())


def test_cost_of_a_drill_file_and_by_id(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(drill_yaml())
    result = CliRunner().invoke(main, ["cost", str(path)])
    assert result.exit_code == 0, result.output
    assert "by plan step" in result.output and "(no step)" in result.output
    result = CliRunner().invoke(main, ["--drills", str(tmp_path), "cost", "tiny"])
    assert result.exit_code == 0, result.output
    assert "Cost of the trace of tiny" in result.output


def test_cost_of_a_bundled_drill_by_id():
    result = CliRunner().invoke(main, ["cost", "duplicate-charge-refunds"])
    assert result.exit_code == 0, result.output
    assert "total: 15 calls, 24,140 tokens, $0.06174" in result.output


def test_cost_usage_and_load_errors(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["cost"]).exit_code == 2
    assert runner.invoke(main, ["cost", "--example", "x"]).exit_code == 2
    result = runner.invoke(main, ["cost", "no-such-drill"])
    assert result.exit_code == 2
    assert "Invalid value for DRILL: no drill file or drill id 'no-such-drill'" in result.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(drill_yaml().replace("difficulty: 1", "difficulty: 9"))
    result = runner.invoke(main, ["cost", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:" in result.output and "Traceback" not in result.output


def test_flat_loop_of_one_executor_call_says_one_step(tmp_path):
    # A drill with a single executor call with usage: "1 step", not "1 steps".
    import yaml
    from core_support import drill_dict

    drill = drill_dict()
    for ev in drill["trace"]:
        if ev["kind"] != "planner_call":
            ev.pop("usage", None)
    first = next(ev for ev in drill["trace"] if ev["kind"] in ("tool_call", "executor_report", "executor_message"))
    first["usage"] = {"input_tokens": 100, "output_tokens": 50}
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(drill, sort_keys=False))
    result = CliRunner().invoke(main, ["cost", str(path)])
    assert result.exit_code == 0, result.output
    assert "flat loop: 1 step on " in result.output


def _report(tc, answers: bool = True) -> str:
    from warroom.cli.author._cost import cost_report_lines

    return "\n".join(cost_report_lines(tc, answers))


def test_cost_of_an_all_clear_drill_has_no_fault_only_lines():
    from core_support import all_clear_drill

    tc = trace_cost(all_clear_drill())
    out = _report(tc)
    assert "cascade" not in out and "re-plan after a correct escalation" not in out
    assert "What a false escalation costs (an all-clear drill: there is no fault to miss)" in out
    assert "  one false escalation (a planner re-plan call): $0.01" in out
    data = tc.to_dict()
    assert data["all_clear"] is True and data["cascade"] is None and data["replan"] is None
    assert trace_cost(make_drill()).to_dict()["all_clear"] is False


def test_cost_without_answers_reads_the_same_for_fault_and_all_clear_drills():
    """Without --answers the report has nothing from the answer key: a fault drill's escalation lines are the
    all-clear drill's (no cascade, no re-plan, no "all-clear")."""
    from core_support import all_clear_drill

    def tail(tc) -> list[str]:
        lines = _report(tc, answers=False).splitlines()
        return lines[lines.index(next(line for line in lines if line.startswith("What a"))):]

    fault, control = tail(trace_cost(make_drill())), tail(trace_cost(all_clear_drill()))
    assert fault == control
    assert fault[0] == "What a false escalation costs (authors: --answers adds the figures from the answer key)"
    assert not any("all-clear" in line or "re-plan after" in line or "wasted" in line for line in fault)


def test_cost_with_no_token_usage_prints_no_empty_tables():
    from dataclasses import replace

    from warroom.core.play._cost import CostLine

    tc = replace(
        trace_cost(make_drill()),
        total=CostLine("total"),
        by_role=(CostLine("planner"), CostLine("executor")),
        by_model=(),
        by_step=(),
        flat_loop=CostLine("flat loop"),
        saving_factor=None,
        saving_percent=None,
    )
    out = _report(tc)
    assert "by model" not in out and "by role" not in out
    assert "  no model calls with token usage: nothing to add up" in out
    assert "no calls besides the planning calls with token usage: nothing to compare" in out and "saving" not in out


@pytest.mark.parametrize(
    ("flat_usd", "expected"),
    [
        (0.01, "  no saving: the planner-executor trace costs the same as the flat loop ($0.01 against $0.01)"),
        (0.010004, "  no saving: the planner-executor trace costs the same as the flat loop ($0.01 against $0.01)"),
        (0.01004, "  no saving: the planner-executor trace costs about the same as the flat loop ($0.01 against "
         "$0.01004)"),
        (0.02, "  saving: 2.0x cheaper, a 50% cut ($0.02 -> $0.01)"),
        (0.005, "  no saving: the planner-executor trace costs 2.0x the flat loop ($0.01 against $0.005)"),
    ],
)
def test_saving_line_never_says_cheaper_at_the_same_cost(flat_usd, expected):
    from dataclasses import replace

    from warroom.core.play._cost import CostLine

    base = trace_cost(make_drill())
    total = CostLine("total", 3, 10, 10, 0.01)
    tc = replace(
        base,
        total=total,
        flat_loop=CostLine("flat loop", 2, 10, 10, flat_usd),
        saving_factor=flat_usd / 0.01,
        saving_percent=(1 - 0.01 / flat_usd) * 100,
    )
    lines = _report(tc).splitlines()
    assert expected in lines


def test_cost_warns_when_the_id_differs_from_the_file_name(tmp_path):
    """`warroom validate` fails a drill whose id is not its file name; `cost` still costs it (the figures do not
    depend on the id) but says so on stderr, at the id's line, as a warning."""
    path = tmp_path / "renamed.yaml"
    path.write_text(drill_yaml())  # id: tiny
    line = next(i for i, text in enumerate(drill_yaml().splitlines(), 1) if text.startswith("id:"))
    result = CliRunner().invoke(main, ["cost", str(path)])
    assert result.exit_code == 0, result.output
    assert "Cost of the trace of tiny" in result.stdout
    warnings = result.stderr.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}:{line}:5: warning: ")
    assert "renamed" in warnings[0]
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 1
    json_result = CliRunner().invoke(main, ["cost", str(path), "--format", "json"])
    assert json_result.exit_code == 0 and json.loads(json_result.stdout)["drill_id"] == "tiny"
    assert json_result.stderr == result.stderr
    same = tmp_path / "tiny.yaml"
    same.write_text(drill_yaml())
    assert CliRunner().invoke(main, ["cost", str(same)]).stderr == ""


@pytest.mark.parametrize("price", [5e-320, 1e-7, 9.99e-7])
def test_a_price_below_a_millionth_of_a_dollar_is_refused_at_validation(tmp_path, price):
    """Issue 30: `5e-320` printed a 330-character price. A price is 0 or at least 0.000001 USD per million tokens;
    a smaller one is a typo, refused at its place with what to write."""
    models = {"planner": {"name": "big", "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 25.0},
              "executor": {"name": "small", "input_usd_per_mtok": price, "output_usd_per_mtok": 5.0}}
    path = tmp_path / "tiny.yaml"
    path.write_text(drill_yaml(models=models))
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 1
    assert ("`models.executor.input_usd_per_mtok`: a price is 0 (a free model) or at least 0.000001 USD per million "
            "tokens; write 0 or the model's real price, got") in r.output
    assert CliRunner().invoke(main, ["cost", str(path)]).exit_code == 1


def test_a_negative_zero_price_is_zero_in_cost_json_and_text(tmp_path):
    """Issue 30: `-0.0` prices appeared as -0.0 in `cost --format json`; the least price, 0.000001, is written out."""
    models = {"planner": {"name": "big", "input_usd_per_mtok": -0.0, "output_usd_per_mtok": 0.000001},
              "executor": {"name": "small", "input_usd_per_mtok": -0.0, "output_usd_per_mtok": -0.0}}
    path = tmp_path / "tiny.yaml"
    path.write_text(drill_yaml(models=models))
    r = CliRunner().invoke(main, ["cost", "--format", "json", str(path)])
    assert r.exit_code == 0, r.output
    assert "-0.0" not in r.output

    def floats(value):
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            return [x for v in value for x in floats(v)]
        return [value] if isinstance(value, float) else []

    numbers = floats(json.loads(r.output))
    assert 0.0 in numbers and all(math.copysign(1, x) > 0 for x in numbers if x == 0)  # no negative zero
    text = CliRunner().invoke(main, ["cost", str(path)]).output
    assert "big at $0.00/$0.000001 per million tokens" in text and "-0" not in text and max(map(len, text.split())) < 80


def test_a_cut_that_rounds_to_zero_from_below_is_0_percent():
    """Issue 30: never a negative zero: a saving of -0.3% is written 0%, not -0%."""
    from warroom.cli.author._cost import _pct
    from warroom.core.text import no_negative_zero

    assert (_pct(-0.3), _pct(0.3), _pct(-0.6)) == ("0%", "0%", "-1%")
    assert no_negative_zero({"a": [-0.0, {"b": -0.0}], "c": -1.5}) == {"a": [0.0, {"b": 0.0}], "c": -1.5}
    assert math.copysign(1, no_negative_zero([-0.0])[0]) == 1


def test_cost_says_which_token_counts_are_estimated(tmp_path):
    """An imported trace's token counts are estimated from text length (`usage.estimated: true`): `warroom cost`
    printed its tables and totals with nothing saying so (new-user campaign nu2). It now says how many calls'
    counts are estimates, in text and as `estimated_calls` in JSON; a drill of recorded counts says nothing."""
    import yaml
    from core_support import drill_dict

    drill = drill_dict()
    with_usage = [ev for ev in drill["trace"] if ev.get("usage")]
    assert len(with_usage) >= 2
    with_usage[0]["usage"]["estimated"] = True
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(drill, sort_keys=False))
    text = CliRunner().invoke(main, ["cost", str(path)])
    assert text.exit_code == 0, text.output
    total = sum(1 for _ in with_usage)
    assert (f"  estimated: the token counts of 1 of the {total} calls (`usage.estimated`: an imported trace's, from "
            "the text's length), so every figure here is an estimate") in text.output
    data = json.loads(CliRunner().invoke(main, ["cost", str(path), "--format", "json"]).output)
    assert data["estimated_calls"] == 1
    recorded = CliRunner().invoke(main, ["cost", "duplicate-charge-refunds"])
    assert "estimated" not in recorded.output


def test_a_false_escalation_of_a_chat_imported_without_a_planner_says_why_it_costs_nothing(tmp_path):
    """`warroom import chat` names a planner (`planner (not in the trace)`) for the re-plan a false escalation
    costs, but a chat records no planner call to take that call's tokens from, and the drill gives no
    `models.replan_usage`: `warroom cost` printed `one false escalation (a planner re-plan call): $0.00` with
    nothing said. It says why, and what to give; its JSON says whose tokens the re-plan call has."""
    chat = refund_chat(tmp_path / "chat.json")
    out = tmp_path / "drills"
    imported = CliRunner().invoke(main, ["import", "chat", str(chat), "--out", str(out)])
    assert imported.exit_code == 0, imported.output
    path = out / "chat.yaml"
    path.write_text(path.read_text() + "all_clear: {debrief: The refund was right.}\n")
    result = CliRunner().invoke(main, ["cost", str(path)])
    assert result.exit_code == 0, result.output
    assert ("  one false escalation (a planner re-plan call): $0.00, no tokens to charge: the trace has no planner "
            "call to take them from and the drill gives no models.replan_usage (give it the tokens of one re-plan "
            "call to charge them)") in result.output.splitlines()
    data = json.loads(CliRunner().invoke(main, ["cost", str(path), "--format", "json"]).stdout)
    assert data["false_escalation"]["usd"] == 0
    assert data["false_escalation_usage"] == "none (no planner call in the trace, no models.replan_usage)"
    given = path.read_text().replace("  executor:\n", "  replan_usage: {input_tokens: 1000, output_tokens: 0}\n"
                                                      "  executor:\n", 1)  # fmt: skip
    path.write_text(given)
    result = CliRunner().invoke(main, ["cost", str(path)])
    assert "  one false escalation (a planner re-plan call): $0.0025" in result.output.splitlines(), result.output
    data = json.loads(CliRunner().invoke(main, ["cost", str(path), "--format", "json"]).stdout)
    assert data["false_escalation_usage"] == "models.replan_usage"


def test_the_re_plan_call_of_a_false_escalation_has_the_first_planner_calls_tokens():
    drill = make_drill()
    first = next(e for e in drill.trace if isinstance(e, PlannerCall) and e.usage is not None)
    assert trace_cost(drill).false_escalation_usage == f"the first planner call's, {first.id}"
