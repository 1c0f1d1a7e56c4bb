"""The replay engine (warroom.core.play._replay): trainee actions other than escalation, the cost meter, determinism,
plan step states, and the journal hook."""

from __future__ import annotations

import pytest
from core_support import drill_dict, make_drill

from warroom.core.model import ActionKind, Role
from warroom.core.play import EndReason, Replay, ReplayError, StepState

PLANNER_CALL_USD = (1000 * 5 + 200 * 25) / 1e6  # e01 = the default re-plan usage
REPLAN_EVENT_USD = (2000 * 5 + 400 * 25) / 1e6  # r01


def ids(events):
    return [e.id for e in events]


# -- other actions ------------------------------------------------------------------------------------------------


def test_quit_abandons_and_quit_after_containment_stays_contained():
    r = Replay(make_drill())
    r.advance(5)
    r.quit()
    assert r.ended and r.end_reason is EndReason.ABANDONED and r.end_time == 5
    assert r.actions[-1].kind is ActionKind.QUIT

    r = Replay(make_drill())
    r.advance(10)
    r.escalate("s1")
    r.advance(1)
    r.quit()
    assert r.end_reason is EndReason.CONTAINED


def test_inspect_flag_and_playback_actions_are_logged_with_drill_time():
    seen = []
    r = Replay(make_drill(), on_action=seen.append)
    r.advance(11)
    r.inspect("e03")
    r.flag("e03", "rows are empty")
    r.flag("e02", "")
    r.pause()
    r.set_speed(2)
    r.resume()
    assert [a.kind for a in seen] == ["inspect", "flag", "flag", "pause", "speed", "resume"]
    assert seen == r.actions
    assert all(a.t == 11 for a in seen)
    assert seen[1].note == "rows are empty" and seen[2].note is None and seen[4].speed == 2


def test_inspect_and_flag_refuse_unknown_unreleased_and_ended():
    r = Replay(make_drill())
    r.advance(5)
    with pytest.raises(ReplayError, match="no trace event"):
        r.inspect("zz")
    with pytest.raises(ReplayError, match="not been released"):
        r.flag("e03")
    with pytest.raises(ReplayError, match="not been released"):
        r.inspect("r01")  # a re-plan event exists only after a containment
    r.quit()
    with pytest.raises(ReplayError, match="ended"):
        r.inspect("e01")


# -- cost ---------------------------------------------------------------------------------------------------------


def test_cost_by_role_model_and_step():
    r = Replay(make_drill())
    r.run_to_end()
    c = r.cost
    executor_usd = 3 * (100 * 1 + 10 * 5) / 1e6 + 3 * (200 * 1 + 20 * 5) / 1e6
    assert c.calls == 7
    assert c.usd_by_role[Role.PLANNER] == pytest.approx(PLANNER_CALL_USD)
    assert c.usd_by_role[Role.EXECUTOR] == pytest.approx(executor_usd)
    assert c.usd == pytest.approx(PLANNER_CALL_USD + executor_usd)
    assert c.usd_by_model == pytest.approx({"big": PLANNER_CALL_USD, "small": executor_usd})
    assert c.usd_by_step[None] == pytest.approx(PLANNER_CALL_USD)
    assert c.usd_by_step["s1"] == pytest.approx((100 + 50 + 200 + 100) / 1e6)
    assert c.tokens_by_step == {None: 1200, "s1": 330, "s2": 330, "s3": 330}
    assert c.tokens == 1200 + 3 * 330
    assert c.input_tokens_by_role[Role.EXECUTOR] + c.output_tokens_by_role[Role.EXECUTOR] == 990
    assert c.input_tokens_by_role[Role.PLANNER] == 1000 and c.output_tokens_by_role[Role.PLANNER] == 200


def test_cost_accrues_as_events_are_released():
    r = Replay(make_drill())
    r.advance(0)
    assert r.cost.usd == pytest.approx(PLANNER_CALL_USD) and r.cost.calls == 1
    r.advance(5)
    assert r.cost.calls == 2


# -- determinism --------------------------------------------------------------------------------------------------


def test_same_actions_same_state():
    def play() -> Replay:
        r = Replay(make_drill())
        for _ in range(130):
            r.advance(0.1)
        r.escalate("s2")
        r.advance_to(30)
        r.escalate("s1")
        r.run_to_end()
        return r

    a, b = play(), play()
    assert a.actions == b.actions
    assert (a.damage, a.cost.usd, a.end_time, a.end_reason, a.contained_late) == (
        b.damage, b.cost.usd, b.end_time, b.end_reason, b.contained_late
    )


def test_bundled_drill_contains_on_correct_escalation():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    replay = Replay(drill)
    replay.advance(12)
    assert replay.evidence_released
    result = replay.escalate("s1", "cache snapshot from last week")
    assert result.contained and not result.late
    replay.advance(10)
    assert replay.ended and replay.end_reason is EndReason.CONTAINED
    assert replay.damage == 0
    assert replay.full_damage == 14021


def test_playback_actions_are_refused_once_the_drill_has_ended():
    """Pause, resume and speed changes after the end would append to a finished session's journal: refused."""
    replay = Replay(make_drill())
    replay.run_to_end()
    assert replay.ended
    n = len(replay.actions)
    for call in (replay.pause, replay.resume, lambda: replay.set_speed(2.0)):
        with pytest.raises(ReplayError, match="ended"):
            call()
    assert len(replay.actions) == n


def test_a_step_left_without_an_executor_report_shows_no_report():
    """Only the step the executor is working on is in progress; one it left without reporting says so."""
    data = drill_dict()
    data["trace"] = [e for e in data["trace"] if e["kind"] != "executor_report"]
    replay = Replay(make_drill(trace=data["trace"]))
    replay.advance_to(10)
    assert replay.step_states["s1"] is StepState.IN_PROGRESS
    replay.advance_to(20)  # s2 starts; s1 never got a report
    assert replay.step_states == {"s1": StepState.NO_REPORT, "s2": StepState.IN_PROGRESS, "s3": StepState.PENDING}
    replay.advance_to(40)
    assert replay.step_states == {"s1": StepState.NO_REPORT, "s2": StepState.NO_REPORT, "s3": StepState.IN_PROGRESS}


def test_a_reported_step_keeps_its_reported_status_when_the_executor_moves_on():
    replay = Replay(make_drill())
    replay.advance_to(20)
    assert replay.step_states == {"s1": StepState.SUCCESS, "s2": StepState.IN_PROGRESS, "s3": StepState.PENDING}


def test_an_action_the_journal_refuses_is_neither_recorded_nor_applied():
    class Full(Exception):
        pass

    saved = []

    def journal(action):
        if len(saved) == 1:
            raise Full("disk full")
        saved.append(action)

    replay = Replay(make_drill(), on_action=journal)
    replay.advance(0)
    replay.pause()
    with pytest.raises(Full):
        replay.escalate(replay.drill.plan[0].id, "refused")
    assert replay.actions == saved and [a.kind for a in saved] == [ActionKind.PAUSE]
    assert replay.escalations == [] and replay.false_escalations == 0 and not replay.contained
    with pytest.raises(Full):
        replay.quit()
    assert not replay.ended and replay.actions == saved


def test_escalation_verdicts_have_one_set_of_words():
    from warroom.core.play import EscalationVerdict
    from warroom.core.scoring import replay_actions

    drill = make_drill()
    key = drill.answer_key
    other = next(s.id for s in drill.plan if s.id != key.fault.origin_step)
    first_evidence = min(e.t for e in drill.trace if e.id in key.evidence)
    replay = Replay(drill)
    replay.advance_to(0)
    early = replay.escalate(other, "too early")
    replay.advance_to(max(replay.now, first_evidence))
    right = replay.escalate(key.fault.origin_step, "found it", key.evidence)
    assert early.verdict is EscalationVerdict.FALSE_ESCALATION and early.verdict == "false escalation"
    assert right.verdict in (EscalationVerdict.CONTAINED, EscalationVerdict.CONTAINED_LATE)
    # The re-run of the log gives the same verdicts, per action.
    _, results = replay_actions(drill, replay.actions)
    assert [r.verdict for r in results] == [early.verdict, right.verdict]
    # Without the cited evidence, the same containment is the right step, unsupported (rules version 2 only).
    uncited = [a.model_copy(update={"cites": ()}) for a in replay.actions]
    _, results = replay_actions(drill, uncited)
    assert [r.verdict for r in results] == [early.verdict, EscalationVerdict.UNSUPPORTED]
    assert results[1].verdict == "right step, unsupported"
    _, results = replay_actions(drill, uncited, rules="1")
    assert [r.verdict for r in results] == [early.verdict, right.verdict]
