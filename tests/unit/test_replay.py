"""The replay engine: the drill clock, every escalation rule, the deadline, all-clear drills, quit, cost."""

from __future__ import annotations

import pytest
from core_support import all_clear_drill, drill_dict, make_drill

from warroom.core.actions import ActionKind
from warroom.core.model import Role
from warroom.core.replay import FALSE_ESCALATION_DELAY, EndReason, Replay, ReplayError, StepState

PLANNER_CALL_USD = (1000 * 5 + 200 * 25) / 1e6  # e01 = the default re-plan usage
REPLAN_EVENT_USD = (2000 * 5 + 400 * 25) / 1e6  # r01


def ids(events):
    return [e.id for e in events]


# -- the clock ----------------------------------------------------------------------------------------------------


def test_first_advance_zero_releases_t0_events_and_nothing_more():
    r = Replay(make_drill())
    assert r.released == [] and r.next_event_time == 0
    assert ids(r.advance(0)) == ["e01"]
    assert r.next_event_time == 5
    assert r.advance(4.9) == []
    assert ids(r.advance(0.1)) == ["e02"]  # an event is released when the clock reaches its t


def test_advance_returns_events_in_order_and_tracks_reported_step_states():
    r = Replay(make_drill())
    assert ids(r.advance(11)) == ["e01", "e02", "e03"]
    assert r.step_state("s1") is StepState.IN_PROGRESS
    assert r.step_states == {"s1": StepState.IN_PROGRESS, "s2": StepState.PENDING, "s3": StepState.PENDING}
    r.advance(1)
    assert r.step_state("s1") is StepState.SUCCESS  # the executor's report, a lie on the silent step
    with pytest.raises(KeyError):
        r.step_state("nope")


def test_the_clock_refuses_to_go_back_or_to_infinity():
    r = Replay(make_drill())
    r.advance_to(10)
    with pytest.raises(ValueError):
        r.advance(-1)
    with pytest.raises(ValueError):
        r.advance_to(9)
    with pytest.raises(ValueError):
        r.advance(float("inf"))
    with pytest.raises(ValueError):
        r.advance_to(float("nan"))


def test_advance_to_sets_the_clock_exactly():
    r = Replay(make_drill())
    for _ in range(3):
        r.advance(0.1)
    assert r.now != 0.3  # float drift of small ticks ...
    r.advance_to(12.3)
    assert r.now == 12.3  # ... never reaches an absolute time set with advance_to


def test_end_of_trace_is_a_miss_with_the_full_damage():
    r = Replay(make_drill())
    assert r.full_damage == 400 and r.damage_unit == "rows corrupted"
    r.advance(59)
    assert not r.ended
    r.advance(100)
    assert r.ended and r.end_reason is EndReason.END_OF_TRACE
    assert r.ended_at == 60  # the moment the last event was released, not where the clock went
    assert r.damage == r.full_damage == 400
    assert r.damage_timeline == [(0.0, 0.0), (30, 100), (50, 400)]
    assert r.advance(10) == []  # nothing happens after the end


def test_run_to_end_plays_out_the_rest():
    r = Replay(make_drill())
    r.advance(10)
    released = r.run_to_end()
    assert ids(released)[0] == "e04" and ids(released)[-1] == "e10"
    assert r.end_reason is EndReason.END_OF_TRACE


# -- escalation rules ---------------------------------------------------------------------------------------------


def test_escalating_the_origin_after_evidence_contains_and_plays_the_replan():
    r = Replay(make_drill())
    r.advance(10)
    assert r.evidence_released and r.first_evidence_time == 10
    res = r.escalate("s1", "stale read")
    assert res.contained and not res.late and res.after_evidence and res.replan_usd == 0
    assert r.contained and r.contained_at == 10 and r.time_to_detect == 0
    assert not r.ended  # the re-plan still has to play
    assert r.next_event_time == 12 and r.last_event_time == 12
    assert ids(r.advance(5)) == ["r01"]  # the original trace stopped; the re-plan took its place at +2 s
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.ended_at == 12
    assert r.damage == 0
    assert not r.is_released("e04")
    assert r.cost.usd_by_role[Role.PLANNER] == pytest.approx(PLANNER_CALL_USD + REPLAN_EVENT_USD)


def test_replan_events_at_plus_zero_come_back_with_the_escalation():
    key = make_drill().answer_key.model_dump()
    key["replan"][0]["t"] = 0
    r = Replay(make_drill(answer_key=key))
    r.advance(10)
    res = r.escalate("s1")
    assert ids(res.released) == ["r01"]
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.ended_at == 10


def test_containment_without_replan_events_ends_at_once():
    key = make_drill().answer_key.model_dump()
    key["replan"] = []
    r = Replay(make_drill(answer_key=key))
    r.advance(15)
    assert r.escalate("s1").contained
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.ended_at == 15


def test_no_second_escalation_after_containment():
    r = Replay(make_drill())
    r.advance(10)
    r.escalate("s1")
    with pytest.raises(ReplayError, match="already contained"):
        r.escalate("s1")
    assert len(r.escalations) == 1 and len(r.actions) == 1


def test_escalating_the_origin_before_evidence_is_a_false_escalation():
    r = Replay(make_drill())
    r.advance(6)
    res = r.escalate("s1", "a hunch")
    assert not res.contained and not res.after_evidence
    assert r.false_escalations == 1 and not r.contained
    assert r.now == 6 + FALSE_ESCALATION_DELAY  # the time penalty: the trace ran on while the planner re-planned
    assert ids(res.released) == ["e03", "e04", "e05"]
    assert res.replan_usd == pytest.approx(PLANNER_CALL_USD)  # one planner call at the planner's prices
    assert r.cost.replan_calls == 1 and r.cost.replan_usd == pytest.approx(PLANNER_CALL_USD)
    # the drill goes on, and the trainee can still contain it
    assert r.escalate("s1").contained


def test_escalating_a_wrong_step_after_evidence_is_a_false_escalation():
    r = Replay(make_drill())
    r.advance(10)
    res = r.escalate("s2", "the transform looks odd")
    assert not res.contained and res.after_evidence
    assert r.false_escalations == 1 and not r.ended


def test_false_escalation_time_penalty_can_let_damage_happen():
    r = Replay(make_drill())
    r.advance(20)
    res = r.escalate("s3")
    assert r.now == 35 and "e07" in ids(res.released)
    assert r.damage == 100 and r.deadline_passed


def test_escalation_in_an_all_clear_drill_is_always_false():
    r = Replay(all_clear_drill())
    r.advance(30)
    res = r.escalate("s1")
    assert not res.contained and r.false_escalations == 1
    assert r.full_damage == 0 and r.deadline is None and not r.deadline_passed
    r.run_to_end()
    assert r.end_reason is EndReason.END_OF_TRACE and r.damage == 0


def test_replan_usage_override_prices_a_false_escalation():
    models = make_drill().models.model_dump()
    models["replan_usage"] = {"input_tokens": 1_000_000, "output_tokens": 0}
    r = Replay(make_drill(models=models))
    r.advance(1)
    assert r.escalate("s2").replan_usd == pytest.approx(5.0)


def test_escalation_errors():
    r = Replay(make_drill())
    r.advance(10)
    with pytest.raises(ReplayError, match="no plan step"):
        r.escalate("s9")
    assert r.actions == []  # a refused action is not recorded
    r.run_to_end()
    with pytest.raises(ReplayError, match="ended"):
        r.escalate("s1")


# -- the deadline -------------------------------------------------------------------------------------------------


def test_escalation_at_exactly_the_deadline_is_on_time():
    r = Replay(make_drill())
    r.advance_to(28)
    assert not r.deadline_passed
    res = r.escalate("s1")
    assert res.contained and not res.late and not r.contained_late


def test_escalation_after_the_deadline_contains_late_and_keeps_the_damage():
    r = Replay(make_drill())
    r.advance_to(35)
    assert r.deadline_passed and r.damage == 100
    res = r.escalate("s1")
    assert res.contained and res.late and r.contained_late
    r.run_to_end()
    assert r.end_reason is EndReason.CONTAINED and r.damage == 100  # e09's damage never happens


def test_deadline_is_not_passed_after_an_on_time_containment():
    r = Replay(make_drill())
    r.advance(10)
    r.escalate("s1")
    r.advance_to(30)
    assert not r.deadline_passed


def test_deadline_passes_on_its_own_and_the_drill_runs_on():
    r = Replay(make_drill())
    r.advance_to(28.5)
    assert r.deadline_passed and not r.ended
    r.run_to_end()
    assert r.end_reason is EndReason.END_OF_TRACE


# -- other actions ------------------------------------------------------------------------------------------------


def test_quit_abandons_and_quit_after_containment_stays_contained():
    r = Replay(make_drill())
    r.advance(5)
    r.quit()
    assert r.ended and r.end_reason is EndReason.ABANDONED and r.ended_at == 5
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
    assert c.tokens_by_role(Role.EXECUTOR) == 990
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
    assert (a.damage, a.cost.usd, a.ended_at, a.end_reason, a.contained_late) == (
        b.damage, b.cost.usd, b.ended_at, b.end_reason, b.contained_late
    )


def test_bundled_drill_contains_on_correct_escalation():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.loader import load_drill

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
    from warroom.core.replay import EscalationVerdict
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
