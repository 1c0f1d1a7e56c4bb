"""Semantic rules of a drill (warroom.core.rules): one test per rule, on models built in memory. Ids and
references, the fault, evidence, damage and deadline, answer key or all clear. Also: test_validation_types.py (time
order and numbers), test_validation_files.py (rules across files, bounded work, ids shown as they are)."""

from __future__ import annotations

from pathlib import Path

import pytest
from validation_support import issues_of, only

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import load_drill
from warroom.core.rules import validate_drill


def test_the_base_drill_has_no_issues():
    assert issues_of(lambda d: None) == []


@pytest.mark.parametrize("path", find_drill_files([bundled_drills_dir()]), ids=lambda p: p.stem)
def test_bundled_drills_have_no_issues(path: Path):
    assert validate_drill(load_drill(path)) == []


# -- unique ids ---------------------------------------------------------------------------------------------------


def test_plan_step_ids_are_unique():
    def edit(d):
        d["plan"].append({"id": "s1", "title": "Again", "objective": "Twice."})

    issue = only(issues_of(edit))
    assert issue.loc == ("plan", 2, "id") and issue.related == ("plan", 0, "id")
    assert "duplicate plan step id `s1`" in issue.message


def test_trace_event_ids_are_unique():
    def edit(d):
        d["trace"][3]["id"] = "e2"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 3, "id") and issue.related == ("trace", 1, "id")


def test_replan_event_ids_do_not_reuse_trace_event_ids():
    def edit(d):
        d["answer_key"]["replan"][0]["id"] = "e1"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "replan", 0, "id") and "trace event #1 has it too" in issue.message


# -- references ---------------------------------------------------------------------------------------------------


def test_event_step_is_a_plan_step():
    def edit(d):
        d["trace"][5]["step"] = "s3"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 5, "step") and "step `s3` is not a plan step" in issue.message


def test_executor_report_step_is_a_plan_step_with_a_suggestion():
    def edit(d):
        d["plan"][1]["id"] = "summarise"
        for e in d["trace"][4:]:
            e["step"] = "summarise"
        d["answer_key"]["cascade"] = ["summarise"]
        d["trace"][3]["step"] = "sumarise"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 3, "step") and "(did you mean `summarise`?)" in issue.message


def test_replan_event_step_is_a_plan_step():
    def edit(d):
        d["answer_key"]["replan"][0]["step"] = "s9"

    assert only(issues_of(edit)).loc == ("answer_key", "replan", 0, "step")


def test_tool_result_call_names_an_existing_event():
    def edit(d):
        d["trace"][2]["call"] = "e9"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 2, "call") and "there is no tool_call `e9` before it" in issue.message


def test_tool_result_call_names_a_tool_call():
    def edit(d):
        d["trace"][2]["call"] = "e1"

    assert "`e1` is a planner_call event, not a tool_call" in only(issues_of(edit)).message


def test_tool_result_comes_after_its_tool_call():
    def edit(d):
        d["trace"][1], d["trace"][2] = d["trace"][2], d["trace"][1]
        d["trace"][1]["t"], d["trace"][2]["t"] = 5, 8

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 1, "call") and "comes after this result" in issue.message


def test_replan_tool_result_may_answer_a_replan_or_trace_tool_call():
    def edit(d):
        d["answer_key"]["replan"] += [
            {
                "id": "r2", "t": 3, "kind": "tool_call", "step": "s1", "tool": "crm.search",
                "arguments": {"customer": 42},
            },
            {"id": "r3", "t": 4, "kind": "tool_result", "step": "s1", "call": "r2", "output": []},
            {"id": "r4", "t": 5, "kind": "tool_result", "step": "s1", "call": "e2", "output": []},
        ]

    assert issues_of(edit) == []


def test_fault_origin_step_is_a_plan_step():
    def edit(d):
        d["answer_key"]["fault"]["origin_step"] = "s7"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "fault", "origin_step") and "is not a plan step" in issue.message


def test_cascade_steps_are_plan_steps():
    def edit(d):
        d["answer_key"]["cascade"] = ["s2", "s5"]

    assert only(issues_of(edit)).loc == ("answer_key", "cascade", 1)


def test_evidence_events_are_trace_events():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "e99"]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "evidence", 1) and "`e99` is not a trace event" in issue.message


def test_evidence_events_are_not_replan_events():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "r1"]

    assert "is a re-plan event; it must be an event of the trace" in only(issues_of(edit)).message


def test_damage_events_are_trace_events():
    def edit(d):
        d["answer_key"]["damage"]["entries"][0]["event"] = "e55"

    assert only(issues_of(edit)).loc == ("answer_key", "damage", "entries", 0, "event")


def test_distractor_events_are_trace_events():
    def edit(d):
        d["distractors"][0]["event"] = "e60"

    assert only(issues_of(edit)).loc == ("distractors", 0, "event")



# -- the fault, the evidence and the deadline ----------------------------------------------------------------------


def test_evidence_comes_at_or_after_the_origin_steps_first_event():
    def edit(d):
        d["answer_key"]["evidence"] = ["e1", "e3"]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "evidence", 0)
    assert "its first event `e2` is at t=5 s" in issue.message


def test_evidence_at_the_origin_steps_first_event_is_fine():
    def edit(d):
        d["answer_key"]["evidence"] = ["e2"]

    assert issues_of(edit) == []


def test_origin_step_has_trace_events():
    def edit(d):
        d["plan"].append({"id": "s3", "title": "Never run", "objective": "Nothing."})
        d["answer_key"]["fault"]["origin_step"] = "s3"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "fault", "origin_step") and "has no trace events" in issue.message


def test_damage_before_the_earliest_evidence_cannot_be_prevented():
    def edit(d):
        d["answer_key"]["damage"]["entries"].append({"event": "e2", "amount": 3})

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 1, "event")
    assert issue.message.startswith(
        "damage event `e2` (t=5 s) comes before the earliest evidence `e3` (t=8 s): no trainee could escalate in time"
    )


def test_damage_at_the_same_time_as_the_earliest_evidence_cannot_be_prevented_either():
    def edit(d):
        d["trace"][4]["t"] = 8  # e5, the damage event, now comes at the same drill time as the evidence e3
        d["trace"][3]["t"] = 8

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 0, "event")
    assert "damage event `e5` (t=8 s) comes at the same time as the earliest evidence `e3` (t=8 s)" in issue.message


def test_damage_on_the_evidence_event_itself_is_a_problem_and_later_damage_is_fine():
    def edit(d):
        d["answer_key"]["damage"]["entries"] = [{"event": "e3", "amount": 1}, {"event": "e4", "amount": 2}]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 0, "event") and "`e3` (t=8 s)" in issue.message


def test_the_earliest_evidence_counts_for_damage_not_the_first_listed():
    def edit(d):
        d["answer_key"]["evidence"] = ["e4", "e3"]  # e3 (t=8) is the earliest; e4 at t=10 does damage after it
        d["answer_key"]["damage"]["entries"] = [{"event": "e4", "amount": 1}]

    assert issues_of(edit) == []


def test_deadline_leaves_evidence_at_or_before_it():
    def edit(d):
        d["answer_key"]["deadline"] = 7.5

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "deadline") and "comes before the earliest evidence (t=8 s)" in issue.message


def test_deadline_exactly_at_the_earliest_evidence_is_fine():
    def edit(d):
        d["answer_key"]["deadline"] = 8
        d["answer_key"]["evidence"] = ["e4", "e3"]  # order of the list does not matter: the earliest counts

    assert issues_of(edit) == []


# -- answer key, all clear, distractors -----------------------------------------------------------------------------


def test_all_clear_drill_has_no_answer_key():
    def edit(d):
        d["all_clear"] = {"debrief": "Nothing was wrong."}

    issue = only(issues_of(edit))
    assert issue.loc == ("all_clear",) and "not both" in issue.message


def test_a_drill_has_an_answer_key_or_all_clear():
    def edit(d):
        del d["answer_key"]

    issue = only(issues_of(edit))
    assert issue.loc == () and "needs an answer_key" in issue.message


def test_an_all_clear_drill_is_valid():
    def edit(d):
        del d["answer_key"]
        d["all_clear"] = {"debrief": "The rate limit was retried and the search was right."}

    assert issues_of(edit) == []


def test_evidence_is_not_also_a_distractor():
    def edit(d):
        d["distractors"].append({"event": "e3", "why_harmless": "It is not."})

    issue = only(issues_of(edit))
    assert issue.loc == ("distractors", 1, "event") and "cannot also be a distractor" in issue.message
