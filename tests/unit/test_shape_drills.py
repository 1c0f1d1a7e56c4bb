"""The shape drills of tests/fixtures/shapes (issue 15, "Done when"): each validates without a warning and passes
``warroom check``; each of this slice's files really has its shape (read from the loaded model); and a large drill
(shape 14, over the old 8 MiB limit) is generated in a temporary folder and loads under the 64 MiB limit.

tests/tui/test_shapes.py plays every file of the folder to containment; tests/tui/test_shape_large.py plays the large
drill.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS
from shape_support import large_drill_text

from warroom.cli import main
from warroom.core.author import run_checks
from warroom.core.load import limits, load_drill, load_drill_text, load_drill_with_warnings
from warroom.core.model import Approval, Cast, CommandResult, Drill, ExecutorMessage, FaultKind, ToolCall, ToolResult
from warroom.core.model._agents import AgentRole
from warroom.core.model._events import Handoff, HumanMessage

SHAPES = TESTS / "fixtures" / "shapes"
SHAPE_FILES = sorted(SHAPES.glob("shape-*.yaml"))


@pytest.mark.parametrize("path", SHAPE_FILES, ids=lambda p: p.stem)
def test_a_shape_drill_is_format_2_valid_without_warnings_and_passes_check(path: Path):
    drill, warnings = load_drill_with_warnings(path)
    assert drill.schema_version == 2 and drill.id == path.stem
    assert warnings == []
    report = run_checks(drill)
    assert report.passed, report.problems
    assert not drill.is_all_clear  # the Pilot test plays each one to containment


def test_warroom_validate_and_check_pass_the_whole_folder():
    runner = CliRunner()
    validated = runner.invoke(main, ["validate", str(SHAPES)], catch_exceptions=False)
    assert validated.exit_code == 0, validated.output
    checked = runner.invoke(main, ["check", str(SHAPES)], catch_exceptions=False)
    assert checked.exit_code == 0, checked.output
    n = len(SHAPE_FILES)
    assert f"{n} drills checked: {n} passed, 0 failed." in checked.output


def _events(drill: Drill, cls: type) -> list:
    return [e for e in drill.trace if isinstance(e, cls)]


def _agents(drill: Drill) -> None:
    roles = {a.role for a in drill.agents}
    assert {AgentRole.PLANNER, AgentRole.EXECUTOR, AgentRole.SUB_AGENT} <= roles
    (handoff,) = _events(drill, Handoff)
    assert handoff.id in drill.answer_key.evidence and handoff.to_agent == "refunder"
    assert all(e.agent is not None for e in drill.trace)


def _models(drill: Drill) -> None:
    cast = Cast(drill)
    names = {call.spec.name for e in drill.trace if (call := cast.call(e)) is not None}
    assert names == {"claude-sonnet-4-5", "gpt-4.1-mini", "gemini-2.5-flash", "gpt-4.1"}  # by role, agent, name
    assert cast.call(drill.event("e04")).spec.name == "gemini-2.5-flash"  # the sub-agent's own model
    assert cast.call(drill.event("e07")).spec.name == "gpt-4.1"  # named on the call


def _batches(drill: Drill) -> None:
    batch = [e for e in _events(drill, ToolCall) if e.batch == "b1"]
    assert len(batch) == 3 and sum(e.usage is not None for e in batch) == 1  # one usage for the turn
    answered = [r.call for r in _events(drill, ToolResult) if r.call in {e.id for e in batch}]
    assert answered == ["e06", "e04"]  # completion order, not call order
    assert {e.id for e in batch} - set(answered) == {"e05"}  # a call without a result


def _metadata(drill: Drill) -> None:
    cut = drill.event("e06")
    assert (cut.finish_reason, cut.max_tokens, cut.truncated) == ("length", 1024, True)
    assert cut.usage.output_tokens == cut.max_tokens
    result = drill.event("e03")
    assert isinstance(result, ToolResult) and result.size_bytes == 9210
    assert result.shown is not None and result.shown != result.output


def _repetition(drill: Drill) -> None:
    assert drill.event("e05").repeat.count == 300 and drill.event("e07").repeat.count == 100
    never = run_checks(drill).run("never").scorecard
    assert never.full_damage == pytest.approx(100 * 0.03)  # every repetition of e07 does its damage
    ideal = run_checks(drill).run("ideal").scorecard
    assert ideal.cost_usd < never.cost_usd  # stopping the loop saves what every repetition would cost


def _retries(drill: Drill) -> None:
    retry = drill.event("e06")
    assert isinstance(retry, ToolCall) and retry.retry_of == "e04"
    assert retry.arguments["account"] != drill.event("e04").arguments["account"]


def _approvals(drill: Drill) -> None:
    gated = [s.id for s in drill.plan if s.requires_approval]
    assert gated == ["s2"]
    decisions = [(e.decision, e.request) for e in _events(drill, Approval)]
    assert decisions == [("requested", None), ("denied", "e04")]
    assert len(_events(drill, HumanMessage)) == 1
    first_call = next(e for e in _events(drill, ToolCall) if e.step == "s2")
    assert drill.answer_key.evidence == [first_call.id]  # the call that went ahead without an approval


def _command(drill: Drill) -> None:
    result = drill.event("e06")
    assert isinstance(result, CommandResult) and result.exit_code == 1
    assert result.stdout and "Disk quota exceeded" in result.stderr


def _event_times(drill: Drill) -> None:
    text = (SHAPES / "shape-12-event-times.yaml").read_text(encoding="utf-8")
    assert "  deadline: {event: e08, after: 4}\n" in text
    assert drill.answer_key.deadline == drill.event("e08").t + 4 == 34
    retimed = load_drill_text(text.replace("{id: e08, t: 30,", "{id: e08, t: 31,"))
    assert retimed.answer_key.deadline == 35  # the deadline stays on its event


def _kinds(drill: Drill) -> None:
    format2_kinds = {
        FaultKind.DROPPED_HANDOFF, FaultKind.BYPASSED_APPROVAL, FaultKind.TRUNCATED_TOOL_OUTPUT,
        FaultKind.INVENTED_CONSTRAINT, FaultKind.WRONG_TOOL, FaultKind.RUNAWAY_LOOP,
        FaultKind.ENVIRONMENT_SETUP_FAILED,
    }
    assert drill.answer_key.fault.kind is FaultKind.INVENTED_CONSTRAINT
    assert isinstance(drill.event(drill.answer_key.evidence[0]), ExecutorMessage)
    used = {load_drill(p).answer_key.fault.kind for p in SHAPE_FILES}
    assert len(used & format2_kinds) >= 5, used  # the folder as a whole uses the new kinds


SHAPE_OF: dict[str, Callable[[Drill], None]] = {
    "shape-01-agents": _agents,
    "shape-02-models": _models,
    "shape-03-batches": _batches,
    "shape-04-metadata": _metadata,
    "shape-05-repetition": _repetition,
    "shape-06-retries": _retries,
    "shape-07-approvals": _approvals,
    "shape-08-command": _command,
    "shape-12-event-times": _event_times,
    "shape-13-kinds": _kinds,
}


@pytest.mark.parametrize("stem", sorted(SHAPE_OF))
def test_a_shape_drill_has_its_shape(stem: str):
    SHAPE_OF[stem](load_drill(SHAPES / f"{stem}.yaml"))


# -- shape 14: a large drill (generated: tests/shape_support.py) ------------------------------------------------------


def test_a_large_drill_over_the_old_8_mib_limit_loads_validates_and_checks(tmp_path: Path):
    text, n = large_drill_text(9 * 1024 * 1024)
    path = tmp_path / "shape-14-large.yaml"
    path.write_text(text, encoding="utf-8")
    size = path.stat().st_size
    assert 8 * 1024 * 1024 < size < limits.MAX_FILE_BYTES == 64 * 1024 * 1024
    drill, warnings = load_drill_with_warnings(path)
    assert warnings == [] and len(drill.trace) == n + 10
    assert drill.event(f"a{n - 1:06d}").t == 6 and drill.answer_key.deadline == 34
    # The check battery's verdict does not depend on how many audit lines the generator inserts (harmless log lines
    # of step s1, released at 6 s): it runs on the same drill at 1 MiB (5,166 inserted lines, nearly ten times the
    # longest bundled drill's 538 events), not on the 46,000 lines above, which took most of this test's time. How
    # long the battery takes on the 9 MiB drill is a figure of benchmarks/bench_check.py.
    smaller, m = large_drill_text(1024 * 1024)
    assert m > 5000
    report = run_checks(load_drill_text(smaller, path="shape-14-large.yaml"))
    assert report.passed, report.problems
