"""The replay engine (warroom.core.play._replay): the drill clock, the escalation rules and the deadline. The other
actions, cost, determinism and step states: test_replay_actions.py."""

from __future__ import annotations

import pytest
from core_support import all_clear_drill, make_drill

from warroom.core.model import Role
from warroom.core.play import FALSE_ESCALATION_DELAY, EndReason, Replay, ReplayError, StepState

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
    assert r.step_states["s1"] is StepState.IN_PROGRESS
    assert r.step_states == {"s1": StepState.IN_PROGRESS, "s2": StepState.PENDING, "s3": StepState.PENDING}
    r.advance(1)
    assert r.step_states["s1"] is StepState.SUCCESS  # the executor's report, a lie on the silent step
    assert "nope" not in r.step_states


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
    assert r.end_time == 60  # the moment the last event was released, not where the clock went
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
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.end_time == 12
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
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.end_time == 10


def test_containment_without_replan_events_ends_at_once():
    key = make_drill().answer_key.model_dump()
    key["replan"] = []
    r = Replay(make_drill(answer_key=key))
    r.advance(15)
    assert r.escalate("s1").contained
    assert r.ended and r.end_reason is EndReason.CONTAINED and r.end_time == 15


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
