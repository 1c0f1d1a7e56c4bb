"""Issue 15 items 9 and 10 in the domain core: faults in the plan or the set-up (the escalation targets ``@plan`` and
``@setup``), and evidence by comparison, by absence and at a field path: loading, validation (path:line:col and a
did-you-mean), replay, scoring, citations and ``warroom check``'s scripted trainees, on the shape drills in
tests/fixtures/shapes/."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.core.author import run_checks
from warroom.core.author._check import play_scripted
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import (
    PLAN,
    SETUP,
    Action,
    ActionKind,
    Outcome,
    detection_events,
    event_target,
    evidence_ids,
    value_at,
)
from warroom.core.play import Replay, ReplayError, describe_citations, is_supported, judge_citations
from warroom.core.play._citations import Cited
from warroom.core.scoring import Scorecard, score

SHAPES = Path(__file__).parent.parent / "fixtures" / "shapes"
MINE = ["shape-09-planner-origin", "shape-09-setup-origin", "shape-10-comparison", "shape-10-absence",
        "shape-10-field-path"]


def _text(name: str) -> str:
    return (SHAPES / f"{name}.yaml").read_text()


def _load_error(text: str) -> str:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "x.yaml")
    return str(info.value)


def _escalate(t: float, step: str, *cites: str) -> Action:
    return Action(t=t, kind=ActionKind.ESCALATE, step=step, cites=cites)


@pytest.mark.parametrize("name", MINE)
def test_every_shape_drill_loads_and_passes_check(name):
    drill = load_drill(SHAPES / f"{name}.yaml")
    report = run_checks(drill)
    assert report.passed, report.problems
    ideal = report.run("ideal")
    assert ideal.scorecard.outcome is Outcome.CONTAINED and ideal.scorecard.total == 100


def test_a_plan_origin_is_contained_only_by_the_plan_after_the_evidence():
    drill = load_drill(SHAPES / "shape-09-planner-origin.yaml")
    assert drill.answer_key.fault.target == PLAN and drill.answer_key.fault.origin_step is None
    assert score(drill, [_escalate(15, PLAN, "e05")]).outcome is Outcome.CONTAINED
    early = score(drill, [_escalate(5, PLAN, "e02")])  # before the evidence: the planner has nothing to act on
    assert early.outcome is Outcome.FALSE_ALARM and early.false_escalations == 1
    wrong = score(drill, [_escalate(15, "s2", "e05")])
    assert wrong.outcome is Outcome.WRONG_STEP
    assert "you escalated s2, but the fault was in the plan" in wrong.outcome_text.replace("After the evidence "
                                                                                          "appeared ", "you ")
    card = score(drill, [_escalate(20, PLAN, "e05")])
    assert card.outcome_text.startswith("You escalated the plan, the fault's origin, at 20 s")
    assert "Escalation of the plan at 20 s cited e05 (evidence)." in card.lines


def test_a_set_up_origin_is_contained_by_set_up():
    drill = load_drill(SHAPES / "shape-09-setup-origin.yaml")
    assert score(drill, [_escalate(2, SETUP, "e02")]).outcome is Outcome.CONTAINED
    assert score(drill, [_escalate(2, PLAN, "e02")]).outcome is Outcome.WRONG_STEP


def test_the_reserved_targets_are_refused_nowhere_but_unknown_steps_are():
    drill = load_drill(SHAPES / "shape-10-comparison.yaml")
    replay = Replay(drill)
    replay.advance_to(17)
    result = replay.escalate(SETUP, "", ("e07",))  # a format-2 drill with a step origin: a false escalation
    assert not result.contained and replay.false_escalations == 1
    with pytest.raises(ReplayError, match="no plan step 'plan'"):
        replay.escalate("plan")


def test_the_scripted_trainees_exercise_the_plan_and_set_up():
    drill = load_drill(SHAPES / "shape-09-planner-origin.yaml")
    assert [a.step for a in play_scripted(drill, "ideal").actions if a.kind is ActionKind.ESCALATE] == [PLAN]
    assert [a.step for a in play_scripted(drill, "late").actions if a.kind is ActionKind.ESCALATE] == [PLAN]
    happy = play_scripted(drill, "trigger-happy")
    assert happy.actions[0].step == PLAN  # the first event is the planner's call
    assert [a.step for a in play_scripted(drill, "wrong-step").actions] == ["s2"]
    setup = load_drill(SHAPES / "shape-09-setup-origin.yaml")
    assert play_scripted(setup, "trigger-happy").actions[0].step == SETUP  # a harness log before step 1
    assert event_target(setup, setup.event("e03")) == PLAN and event_target(setup, setup.event("e04")) == "s1"


def test_a_comparison_counts_once_all_its_events_are_out_and_only_cited_whole():
    drill = load_drill(SHAPES / "shape-10-comparison.yaml")
    (ref, detected), = detection_events(drill)
    assert ref.all_of == ["e03", "e07"] and detected.id == "e07"
    replay = Replay(drill)
    replay.advance_to(10)
    assert replay.first_evidence_time == 16 and not replay.evidence_released  # e03 alone is not the evidence
    assert judge_citations(drill, ["e07"]) == [("e07", Cited.PART)]
    assert not is_supported(drill, ["e07"]) and is_supported(drill, ["e07", "e03"])
    assert describe_citations(drill, ["e03"]) == "e03 (part of a comparison: cite every event of it)"
    assert score(drill, [_escalate(16, "s2", "e07")]).outcome is Outcome.RIGHT_STEP_UNSUPPORTED
    assert score(drill, [_escalate(16, "s2", "e03", "e07")]).total == 100
    # At 10 s only e03 is out: escalating s2 then is before the evidence the drill counts.
    assert score(drill, [_escalate(10, "s2", "e03")]).outcome is Outcome.FALSE_ALARM


def test_an_absence_and_a_field_path_are_cited_by_their_event():
    absence = load_drill(SHAPES / "shape-10-absence.yaml")
    assert score(absence, [_escalate(17, "s3", "e08")]).total == 100
    field = load_drill(SHAPES / "shape-10-field-path.yaml")
    assert evidence_ids(field.answer_key) == ["e03"]
    assert value_at(field.event("e03").output, "data.next_cursor") == (True, "c_8f2a")
    assert value_at(field.event("e03").output, "data.tickets[1].id") == (True, "T-1007")
    assert value_at(field.event("e03").output, "data.tickets[7].id") == (False, None)
    assert value_at('{"a": {"b": [1, 2]}}', "a.b[1]") == (True, 2)  # a JSON string is read as data
    assert score(field, [_escalate(6, "s1", "e03")]).total == 100


def test_a_bad_field_path_is_reported_at_its_line_with_a_did_you_mean():
    text = _text("shape-10-field-path").replace("path: data.next_cursor", "path: data.next_curser")
    message = _load_error(text)
    assert message.startswith("x.yaml:48:13: the field path `data.next_curser` leads nowhere in the output of `e03`")
    assert "did you mean `next_cursor`?" in message and "the keys there: tickets, next_cursor, total" in message
    text = _text("shape-10-field-path").replace("- event: e03\n      path", "- event: e02\n      path")
    assert "event `e02` is a tool_call, which has no output for a field path" in _load_error(text)
    text = _text("shape-10-field-path").replace("path: data.next_cursor", "path: 'data..x'")
    assert "is not a field path for `path` of evidence item #1" in _load_error(text)


def test_a_field_path_through_a_list_gets_the_help_every_path_error_gets_in_the_authors_notation():
    """Issue 35 item 9: a path through a list (`data.tickets.id` where tickets is a list) says it is a list, how an
    item is reached (`[n]`) and the keys of its items; the path is echoed as written (`data.tickets[0].idd`, never
    `data.tickets.0`)."""
    base = _text("shape-10-field-path")
    message = _load_error(base.replace("path: data.next_cursor", "path: data.tickets.id"))
    assert message.startswith("x.yaml:48:13: the field path `data.tickets.id` leads nowhere in the output of `e03`: "
                              "`data.tickets` is a list of 3 items, not a mapping: reach a field of one of its items "
                              "with an index, e.g. `data.tickets[0].id` (items count from 0); the keys of its first "
                              "item: id, customer, age_days")
    message = _load_error(base.replace("path: data.next_cursor", "path: data.tickets[0].idd"))
    assert "`idd` is not at `data.tickets[0]` (did you mean `id`?); the keys there: id, customer, age_days" in message
    assert "data.tickets.0" not in message
    message = _load_error(base.replace("path: data.next_cursor", "path: data.tickets[9].id"))
    assert "`data.tickets` is a list of 3 items (`data.tickets[0]` to `data.tickets[2]`): there is no `[9]`" in message
    message = _load_error(base.replace("path: data.next_cursor", "path: data.tickets.0.id"))
    assert "write an index in brackets, `data.tickets[0]`, not `data.tickets.0`" in message
    message = _load_error(base.replace("path: data.next_cursor", "path: data.total.value"))
    assert "`data.total` is a number, with no fields: the path ends before `value`" in message


def test_origin_rules_are_checked_with_locations_and_hints():
    plan = _text("shape-09-planner-origin")
    message = _load_error(plan.replace("origin_event: e01", "origin_event: e02"))
    assert message.startswith("x.yaml:35:19: the origin_event of a fault in the plan must be the planner_call")
    message = _load_error(plan.replace("origin_event: e01", "origin_event: e1"))
    assert "the fault's origin_event `e1` is not a trace event (did you mean `e01`?)" in message
    message = _load_error(plan.replace("    origin_event: e01\n", ""))
    assert "a fault with `origin: plan` needs `origin_event`" in message
    message = _load_error(plan.replace("origin: plan", "origin: plann"))
    assert "did you mean `plan`?" in message
    setup = _text("shape-09-setup-origin")
    message = _load_error(setup.replace("origin_event: e02", "origin_event: e05"))
    assert "the origin_event of a set-up fault must come before step 1" in message and "belongs to plan step" in message
    # a harness event before step 1 may be both the origin and the evidence
    drill = load_drill_text(setup.replace("evidence: [e02]", "evidence: [e01, e02]").replace(
        "origin_event: e02", "origin_event: e01"), "x.yaml")
    assert evidence_ids(drill.answer_key) == ["e01", "e02"]


def test_evidence_before_the_origin_is_refused_but_a_comparison_may_start_before_it():
    setup = _text("shape-09-setup-origin").replace("evidence: [e02]", "evidence: [e01, e02]")
    message = _load_error(setup.replace("origin_event: e02", "origin_event: e02\n    # e01 is before it"))
    assert "evidence event `e01` (t=0 s) comes before the fault's origin_event `e02` (t=2 s)" in message
    comparison = _text("shape-10-comparison").replace("origin_step: s2", "origin_step: s3")
    message = _load_error(comparison)
    # only the comparison's last event must come at or after the origin: e07 (16 s) is before s3 starts (32 s)
    assert "evidence event `e07` (t=16 s) comes before the fault's origin step `s3` starts" in message
    assert "`e03`" not in message.split("\n")[0]


def test_format_2_parts_in_a_version_1_file_are_named():
    text = _text("shape-10-comparison").replace("schema_version: 2", "schema_version: 1")
    message = _load_error(text)
    assert "an evidence item other than an event id is format 2: set `schema_version: 2`" in message
    text = _text("shape-09-planner-origin").replace("schema_version: 2", "schema_version: 1")
    assert "a fault origin other than `step` is format 2" in _load_error(text)


def test_an_evidence_item_needs_one_form():
    text = _text("shape-10-comparison").replace("- all_of: [e03, e07]", "- all_of: [e03, e07]\n      event: e03")
    assert "an evidence item needs exactly one of `event` and `all_of`" in _load_error(text)
    text = _text("shape-10-comparison").replace("- all_of: [e03, e07]", "- all_of: [e03]")
    assert "`all_of` of evidence item #1 needs at least 2" in _load_error(text)
    text = _text("shape-10-comparison").replace("- all_of: [e03, e07]", "- all_of: [e03, e7]")
    assert "evidence event `e7` is not a trace event (did you mean `e07`?)" in _load_error(text)


def test_scorecards_of_plan_origins_round_trip_and_old_scorecards_still_load():
    drill = load_drill(SHAPES / "shape-09-planner-origin.yaml")
    card = score(drill, [_escalate(15, PLAN, "e05")])
    assert Scorecard.from_dict(card.to_dict()) == card


def test_the_review_names_the_plan_and_marks_the_origin_event():
    from warroom.store.review import build_review_rows

    drill = load_drill(SHAPES / "shape-09-planner-origin.yaml")
    tl = build_review_rows(drill, [_escalate(15, "s2", "e05"), _escalate(31, PLAN, "e05")])
    actions = [r for r in tl.rows if r.kind == "action"]
    assert actions[0].text == "escalated step s2" and "fault was in the plan" in actions[0].trainee
    assert actions[1].text == "escalated the plan" and actions[1].trainee[0] == "contained late"
    events = {r.event.id: r for r in tl.rows if r.kind == "event"}
    assert "fault origin (the plan)" in events["e01"].key and "evidence" in events["e05"].key


def test_judging_many_citations_at_once_gives_each_the_kind_it_has_alone_among_them():
    """judge_citations reads the answer key once for all the cited events (an escalation may cite hundreds): each
    gets the kind the answer key's judge gives it alone among the same citations, comparisons (cited whole or in
    part) included."""
    from warroom.core.play import judge_citations
    from warroom.core.play._citations import _judge_of

    def cited_kind(drill, event_id, cites):
        judge = _judge_of(drill)
        return judge.kind(event_id, judge.cited_events([*cites, event_id]))

    for name in ("shape-10-comparison", "shape-09-setup-origin", "shape-10-field-path"):
        drill = load_drill(SHAPES / f"{name}.yaml")
        ids = [e.id for e in drill.trace] + ["not-an-event"]
        for cites in (ids, ids[::-1], ids[: len(ids) // 2], ["e03", "e07"], ["e07"]):
            assert judge_citations(drill, cites) == [(c, cited_kind(drill, c, cites)) for c in cites]
