"""Issue 34, item 7: a step's approval applies to the tools (or event kinds) the drill names (``approval_for``),
not to the step's first tool call of any tool (tests/fixtures/round2/approval-scope.yaml)."""

from __future__ import annotations

import pytest
from round2_support import ROUND2, esc, load_error, text_of

from warroom.core.author import run_checks
from warroom.core.load import load_drill, load_drill_text
from warroom.core.model import ApprovalScope, Outcome
from warroom.core.play import Replay, missing_approvals
from warroom.core.scoring import score

DRILL = load_drill(ROUND2 / "approval-scope.yaml")
# s2 requires an approval for payments.wire; e05 (10 s) a delegation, e07 (14 s) the request, e08 (18 s) timed out,
# e09 (20 s) proceeds anyway (the evidence), e10 (34 s) the wire; deadline 30 s.


def _released_until(t: float) -> list:
    return [e for e in DRILL.trace if e.t <= t]


def test_the_approval_gates_the_wire_not_the_delegation():
    assert DRILL.step("s2").approval_for == ApprovalScope(tools=["payments.wire"])
    assert missing_approvals(DRILL.plan, _released_until(30)) == {}  # the delegation at 10 s needs none
    assert missing_approvals(DRILL.plan, _released_until(34)) == {"s2": "e10"}
    report = run_checks(DRILL)
    assert report.passed, report.problems


def test_without_approval_for_the_first_tool_call_of_any_tool_is_flagged_as_before():
    unscoped = load_drill_text(text_of("approval-scope").replace("    approval_for: {tools: [payments.wire]}\n", ""))
    assert missing_approvals(unscoped.plan, [e for e in unscoped.trace if e.t <= 10]) == {"s2": "e05"}


def test_a_kind_may_be_gated_too():
    from warroom.tui.logic import TraceIndex
    from warroom.tui.render import describe_event

    text = text_of("approval-scope").replace("{tools: [payments.wire]}", "{kinds: [executor_message]}")
    gated = load_drill_text(text)
    assert missing_approvals(gated.plan, gated.trace) == {"s2": "e09"}
    shown = describe_event(gated.event("e09"), TraceIndex(gated)).plain  # the inspector names the event
    assert "approval  none granted in s2 before this event (s2 requires one)" in shown


def test_the_replay_marks_the_step_only_when_the_wire_goes_out():
    replay = Replay(DRILL)
    replay.advance_to(20)
    assert replay.approvals.missing == {}
    replay.advance_to(34)
    assert replay.approvals.missing == {"s2": "e10"}


@pytest.mark.parametrize(
    ("actions", "total", "outcome"),
    [
        # 1 s after the evidence, window 10 s: 25 x (1 - 1/10) = 22.5 -> 23; 50 + 23 + 25
        ([esc(21, "s2", "e09")], 98, Outcome.CONTAINED),
        ([esc(21, "s2", "e08")], 98, Outcome.CONTAINED),  # the timed-out approval is accepted evidence
        ([esc(21, "s2", "e05")], 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # the delegation shows nothing
        ([esc(13, "s2", "e05")], 0, Outcome.FALSE_ALARM),  # before the evidence: an early escalation
    ],
)
def test_escalations_score_as_a_fair_judge_would(actions, total, outcome):
    card = score(DRILL, actions, rules="4")
    assert (card.outcome, card.total) == (outcome, total), card.lines


def test_approval_for_is_checked_with_hints():
    text = text_of("approval-scope")
    message = load_error(text.replace("tools: [payments.wire]", "tools: [payments.wir]"))
    assert "step `s2`'s approval gates tool `payments.wir`, which no tool call of the step calls (did you mean " \
        "`payments.wire`?)" in message
    message = load_error(text.replace("    requires_approval: true\n", ""))
    assert "`approval_for` says what the step's approval gates: set `requires_approval: true` too" in message
    message = load_error(text.replace("{tools: [payments.wire]}", "{}"))
    assert "`approval_for` needs `tools`, `kinds` or both" in message
    message = load_error(text.replace("{tools: [payments.wire]}", "{kinds: [tool_result]}"))
    assert "tool_result" in message
    message = load_error(text.replace("schema_version: 2", "schema_version: 1"))
    assert "`approval_for` is format 2" in message
