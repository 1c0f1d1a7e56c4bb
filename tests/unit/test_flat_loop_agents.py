"""The flat-loop comparison of a multi-agent drill (issue 34, item 8): every call but the planning calls, whoever
made it, is re-run on the planner's model, and the planner-executor side prices every call by the model it ran on.
tests/fixtures/round2/supervisor-all-clear.yaml, worked by hand: the supervisor `lead` (a planner-role agent on
big, $5/$25) plans (4,000 in, 600 out: $0.035) and reads four contracts itself (6,000 in, 300 out each: 4 x $0.0375
= $0.15); the writer (small, $1/$5) makes four calls of 3,000 in, 200 out ($0.004 each) and the checker (mini,
$0.5/$2) two of 2,000 in, 100 out ($0.0012 each). Trace: $0.2034. Flat loop: the ten non-planning calls on big:
4 x $0.0375 + 4 x (3,000 x 5 + 200 x 25) / 1e6 + 2 x (2,000 x 5 + 100 x 25) / 1e6 = 0.15 + 0.08 + 0.025 = $0.255:
1.25x the trace, "1.3x cheaper". Leaving the supervisor's reads out (the bug) gave $0.105, "1.9x the flat loop"."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.author import run_checks
from warroom.core.load import load_drill, load_drill_text
from warroom.core.play import trace_cost

SUPERVISOR = TESTS / "fixtures" / "round2" / "supervisor-all-clear.yaml"


def test_the_flat_loop_includes_a_planner_role_agents_own_work() -> None:
    tc = trace_cost(load_drill(SUPERVISOR))
    assert tc.total.usd == pytest.approx(0.2034)
    assert (tc.flat_loop.calls, tc.flat_loop_model) == (10, "big")
    assert tc.flat_loop.usd == pytest.approx(0.255)
    assert round(tc.saving_factor, 2) == 1.25
    assert [(c.name, c.calls) for c in tc.planning] == [("big", 1)]
    assert [(c.name, c.calls, round(c.usd, 6)) for c in tc.work] == [
        ("big", 4, 0.15), ("small", 4, 0.016), ("mini", 2, 0.0024)]


def test_warroom_cost_says_how_much_cheaper_and_prices_each_call_by_its_model() -> None:
    out = CliRunner().invoke(main, ["cost", str(SUPERVISOR)]).output
    assert "saving: 1.3x cheaper, a 20% cut ($0.255 -> $0.2034)" in out
    assert ("planner-executor: planning, 1 call on big (4,000 in, 600 out) = $0.035, plus the steps' work, 4 calls on "
            "big (24,000 in, 1,200 out) = $0.15, and 4 calls on small (12,000 in, 800 out) = $0.016, and 2 calls on "
            "mini (4,000 in, 200 out) = $0.0024: $0.2034 in all") in out
    assert "no saving" not in out
    doc = json.loads(CliRunner().invoke(main, ["cost", "--format", "json", str(SUPERVISOR)]).output)
    assert doc["flat_loop_model"] == "big" and doc["flat_loop"]["usd"] == 0.255
    assert [w["name"] for w in doc["work"]] == ["big", "small", "mini"]


def test_the_flat_loop_runs_on_the_model_of_the_planning_calls() -> None:
    """A planner agent on a model of `models.others`: the flat loop runs on it, not on `models.planner`."""
    text = SUPERVISOR.read_text(encoding="utf-8").replace(
        "    - {name: mini, input_usd_per_mtok: 0.5, output_usd_per_mtok: 2}",
        "    - {name: mini, input_usd_per_mtok: 0.5, output_usd_per_mtok: 2}\n"
        "    - {name: huge, input_usd_per_mtok: 10, output_usd_per_mtok: 50}",
    ).replace("{name: lead, role: planner, description:", "{name: lead, role: planner, model: huge, description:")
    tc = trace_cost(load_drill_text(text))
    assert tc.flat_loop_model == "huge"
    assert tc.flat_loop.usd == pytest.approx(2 * 0.255)  # every price doubled


def test_the_multi_agent_all_clear_validates_and_passes_check() -> None:
    report = run_checks(load_drill(SUPERVISOR))
    assert report.passed, report.problems
    assert report.all_clear
