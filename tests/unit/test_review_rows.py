"""The review timeline's marks write numbers as the rest of warroom does (warroom.core.text._format)."""

from __future__ import annotations

from core_support import drill_dict

from warroom.core.model import Action, Drill
from warroom.store.review import build_review_rows


def test_marks_write_damage_amounts_and_times_with_the_shared_formats():
    d = drill_dict()
    d["answer_key"]["damage"]["entries"] = [{"event": "e07", "amount": 931837.5}, {"event": "e09", "amount": 0.25}]
    drill = Drill.model_validate(d)
    tl = build_review_rows(drill, [Action(t=18.25, kind="inspect", event="e03")])
    rows = {r.event.id: r for r in tl.rows if r.kind == "event"}
    assert "damage 931,837.5 rows corrupted" in rows["e07"].key  # not 931838 (the 6 digits of :g)
    assert "damage 0.25 rows corrupted" in rows["e09"].key
    assert rows["e03"].trainee == ["inspected at 18.3 s"]  # halves up, as in the debrief


def _labels(tl) -> list[tuple[str, float, bool]]:
    return [(r.event.id if r.kind == "event" else r.kind, r.t, r.played) for r in tl.rows]


def test_abandoned_session_keeps_the_deadline_in_time_order():
    drill = Drill.model_validate(drill_dict())
    tl = build_review_rows(drill, [Action(t=20.5, kind="quit")])
    assert _labels(tl) == [
        ("e01", 0, True), ("e02", 5, True), ("e03", 10, True), ("e04", 12, True), ("e05", 20, True),
        ("action", 20.5, True),
        ("e06", 25, False), ("marker", 28, True), ("e07", 30, False), ("e08", 40, False), ("e09", 50, False),
        ("e10", 60, False),
    ]  # fmt: skip


def test_deadline_among_played_rows_when_the_session_reached_it():
    drill = Drill.model_validate(drill_dict())
    tl = build_review_rows(drill, [Action(t=45, kind="quit")])
    labels = [x[0] for x in _labels(tl)]
    assert labels == ["e01", "e02", "e03", "e04", "e05", "e06", "marker", "e07", "e08", "action", "e09", "e10"]


def test_false_escalation_shows_the_replan_and_the_clock_jump():
    drill = Drill.model_validate(drill_dict())
    tl = build_review_rows(drill, [Action(t=11.5, kind="escalate", step="s2", note="odd"), Action(t=60, kind="quit")])
    i = next(n for n, r in enumerate(tl.rows) if r.kind == "action")
    esc = tl.rows[i]
    assert esc.trainee == ["false escalation", "fault was in step s1"]
    # the events the jump released (12 s to 25 s) come next, then the re-plan, at 26.5 s: where the war room lists
    # it, when the trainee had the drill back
    assert [r.event.id for r in tl.rows[i + 1 : i + 4]] == ["e04", "e05", "e06"]
    replan = tl.rows[i + 4]
    assert replan.kind == "replan" and replan.t == 26.5 and replan.action is esc.action
    assert replan.text == (
        "the planner re-planned (one re-plan call, $0.01) and found nothing wrong; the drill clock jumped 15 s, "
        "00:12 -> 00:27"
    )
    assert replan.trainee == ["clock +15 s"]
    assert tl.rows[i + 5].kind == "marker" and tl.rows[i + 5].t == 28  # the deadline, after it


def test_a_false_escalation_in_the_last_seconds_lists_its_replan_after_the_last_event():
    drill = Drill.model_validate(drill_dict())
    last = drill.trace[-1].t
    tl = build_review_rows(drill, [Action(t=last - 4, kind="escalate", step="s2")])
    replan = next(r for r in tl.rows if r.kind == "replan")
    assert replan.t == last - 4 + 15 and replan.trainee == ["clock +15 s"]  # the clock jumps the whole 15 s
    assert tl.rows[-1] is replan and tl.rows[-2].event.id == drill.trace[-1].id  # released by the jump, before it


def test_a_false_escalation_before_the_evidence_says_so_as_the_war_room_and_the_debrief_did():
    """Escalated before the earliest evidence (e03, 10 s), even the right step gives the planner nothing to act on:
    the war room said so, and so does the review (it said "found nothing wrong", which contradicts the answer key
    when the step named was the fault's)."""
    drill = Drill.model_validate(drill_dict())
    right = build_review_rows(drill, [Action(t=8, kind="escalate", step="s1", cites=[]), Action(t=40, kind="quit")])
    esc = next(r for r in right.rows if r.kind == "action" and r.action.kind == "escalate")
    assert esc.trainee == ["false escalation", "the right step, but before the evidence the drill counts",
                           "cited nothing"]  # fmt: skip
    replan = next(r for r in right.rows if r.kind == "replan")
    assert replan.text == (
        "the planner re-planned (one re-plan call, $0.01) with nothing to act on: the escalation came before the "
        "evidence the drill counts; the drill clock jumped 15 s, 00:08 -> 00:23"
    )
    wrong = build_review_rows(drill, [Action(t=8, kind="escalate", step="s2"), Action(t=40, kind="quit")])
    esc = next(r for r in wrong.rows if r.kind == "action" and r.action.kind == "escalate")
    assert esc.trainee == ["false escalation", "before the evidence the drill counts", "fault was in step s1"]
    assert "with nothing to act on" in next(r for r in wrong.rows if r.kind == "replan").text


def test_a_false_alarm_in_an_all_clear_drill_is_not_called_early():
    from core_support import all_clear_drill

    tl = build_review_rows(all_clear_drill(), [Action(t=8, kind="escalate", step="s1")])
    esc = next(r for r in tl.rows if r.kind == "action")
    assert esc.trainee == ["false escalation"]
    replan = next(r for r in tl.rows if r.kind == "replan")
    assert "and found nothing wrong; the drill clock jumped 15 s, 00:08 -> 00:23" in replan.text
