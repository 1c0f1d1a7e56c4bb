"""Plan steps that run at once (issue 34, item 5): a format-2 plan step marked ``parallel`` runs at the same time as
the step before it, so work moving between them is no `?` (moved on without a report) cue; work moving on to a later
step still marks each step of the group left unreported. On tests/fixtures/round2/parallel-specialists.yaml (an
all-clear drill: legal s2 and finance s3 at once, then s4)."""

from __future__ import annotations

import pytest
from locations import TESTS

from warroom.core.author import run_checks
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Action, ActionKind
from warroom.core.play import Replay
from warroom.core.scoring import score

DRILL = TESTS / "fixtures" / "round2" / "parallel-specialists.yaml"


def _states(text: str, t: float) -> dict[str, str]:
    replay = Replay(load_drill_text(text))
    replay.advance_to(t)
    return {k: v.value for k, v in replay.step_states.items()}


def test_interleaved_parallel_steps_stay_in_progress_until_they_report() -> None:
    text = DRILL.read_text(encoding="utf-8")
    assert _states(text, 22) == {"s1": "success", "s2": "in_progress", "s3": "in_progress", "s4": "pending"}
    assert _states(text, 25)["s2"] == "success"
    assert _states(text, 31) == {"s1": "success", "s2": "success", "s3": "success", "s4": "in_progress"}


def test_without_parallel_the_interleaving_reads_as_moving_on_without_a_report() -> None:
    serial = DRILL.read_text(encoding="utf-8").replace(", parallel: true}", "}")
    assert _states(serial, 22)["s2"] == "no_report"  # e10 (s3) came while s2 had not reported


def test_a_step_of_the_group_that_never_reports_is_marked_when_work_moves_on() -> None:
    text = DRILL.read_text(encoding="utf-8")
    assert "  - {id: e12, t: 26, step: s3, agent: finance, kind: executor_report," in text
    silent = "\n".join(ln for ln in text.splitlines() if not ln.startswith("  - {id: e12,")) + "\n"
    states = _states(silent, 31)  # s4 started at 30 s; finance (s3) never reported
    assert (states["s2"], states["s3"], states["s4"]) == ("success", "no_report", "in_progress")


def test_the_all_clear_drill_passes_check_and_scores_as_worked_by_hand() -> None:
    drill = load_drill(DRILL)
    report = run_checks(drill)
    assert report.passed, report.problems
    assert score(drill, []).total == 100  # all clear held
    # escalating the finance step on the 45-day term (a distractor): a false alarm, 50 - 10
    escalated = score(drill, [Action(t=22, kind=ActionKind.ESCALATE, step="s3", cites=("e10",))])
    assert (escalated.total, escalated.outcome.value) == (40, "false_alarm")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("objective: The signed contract and its schedules at hand.}",
         "objective: The signed contract and its schedules at hand., parallel: true}",
         "the first plan step `s1` cannot be `parallel`"),
        ("schema_version: 2", "schema_version: 1", "`parallel` is format 2"),
    ],
)
def test_parallel_mistakes_are_refused(old: str, new: str, message: str) -> None:
    text = DRILL.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DrillLoadError) as err:
        load_drill_text(text.replace(old, new), "x.yaml")
    assert message in str(err.value), str(err.value)
