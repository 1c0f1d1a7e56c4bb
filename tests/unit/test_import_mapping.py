"""Who&When import, the mapping: a record's history as plan steps, trace events and an answer key that can be
played and won (docs/importing.md)."""

from __future__ import annotations

import json

import pytest
from import_support import GOOD, assert_playable, by_id, convert, headline_words

from warroom.importers import kit
from warroom.importers import who_and_when as ww


def test_magentic_one_mapping():
    path = GOOD / "magentic-one" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _data, drill = convert(path)
    ev = by_id(drill)

    assert drill.id == "ww-magentic-one-mini"
    assert drill.briefing.goal == record["question"]
    assert [s.id for s in drill.plan] == ["s00", "s01", "s02", "s03"]
    # Each Orchestrator instruction starts a plan step titled by its agent and number. The plan is shown from 00:00,
    # so neither the title nor the objective may show the instruction before it is given: it is the step's first
    # trace event.
    assert [s.title for s in drill.plan[1:]] == [
        "WebSurfer, instruction 1",
        "ComputerTerminal, instruction 2",
        "Assistant, instruction 3",
    ]
    for step, i in ((drill.plan[1], 3), (drill.plan[3], 11)):
        instruction = record["history"][i]["content"]
        assert instruction not in step.objective and headline_words(instruction) not in step.title
        assert ev[f"h{i:03d}"].content == instruction and ev[f"h{i:03d}"].step == step.id
    assert "WebSurfer carries out the Orchestrator's instruction that opens this step" in drill.plan[1].objective

    assert ev["h000"].kind == "log" and ev["h000"].step == "s00"
    assert ev["h001"].kind == "planner_call" and ev["h001"].usage.estimated  # initial plan
    assert ev["h002"].kind == "planner_call" and ev["h002"].usage is not None  # ledger
    assert ev["h003"].kind == "planner_call" and ev["h003"].usage is None and ev["h003"].step == "s01"  # instruction
    assert ev["h004"].kind == "executor_message" and ev["h004"].step == "s01"
    assert ev["h007"].kind == "log" and ev["h007"].source == "Orchestrator"  # "Next speaker ..."
    call, result = ev["h008-call"], ev["h008"]
    assert call.kind == "tool_call" and call.tool == "ComputerTerminal" and call.arguments == {"code_from": "h006"}
    assert result.kind == "tool_result" and result.call == "h008-call"
    assert result.status == "exitcode: 0 (execution succeeded)" and result.output == record["history"][8]["content"]
    assert ev["h009"].kind == "log" and ev["h009"].level == "warning"  # Stalled.... Replanning...
    assert ev["h010"].kind == "planner_call" and ev["h010"].usage is not None  # New plan
    assert ev["h012"].kind == "executor_message" and ev["h012"].step == "s03"
    assert ev["h014"].kind == "log" and ev["h014"].source == "Orchestrator (termination condition)"

    key = drill.answer_key
    assert key.fault.origin_step == "s01" and key.evidence == ["h004"]
    assert key.cascade == ["s02", "s03"]
    assert key.fault.summary == record["mistake_reason"]
    assert [e.event for e in key.damage.entries] == [f"h{i:03d}" for i in range(5, 15)]
    assert all(e.amount == 1 for e in key.damage.entries) and key.damage.unit == kit.DAMAGE_UNIT
    assert record["ground_truth"] in key.debrief and record["mistake_reason"] in key.debrief
    assert {"imported", "who-and-when", "magentic-one"} <= set(drill.public_tags)
    assert record["mistake_agent"] == "WebSurfer" and "WebSurfer" not in drill.tags  # the answer never leaks
    assert "magentic-one/mini.json" in drill.source and "estimate" in drill.source.lower()
    assert "estimate" in drill.briefing.context
    assert drill.difficulty == 2
    assert_playable(drill)


def mapped(path):
    """The drill the importer maps ``path``'s record to, before `warroom check` judges it."""
    from warroom.core.load import load_drill_text
    from warroom.importers.who_and_when._drill import dump_drill_yaml, record_to_drill_data

    data = record_to_drill_data(ww.parse_record(ww.read_record(path), path.stem, file=path.name))
    return load_drill_text(dump_drill_yaml(data), path=f"{data['id']}.yaml")


def test_magentic_one_mistake_in_the_initial_plan_is_step_s00():
    drill = mapped(GOOD / "magentic-one" / "plan-mistake.json")
    assert [s.id for s in drill.plan] == ["s00"]
    key = drill.answer_key
    assert key.fault.origin_step == "s00" and key.evidence == ["h001"] and key.cascade == []
    assert [e.event for e in key.damage.entries] == ["h002", "h003", "h004"]
    assert drill.difficulty == kit.DEFAULT_DIFFICULTY  # no level in the record
    assert_playable(drill)
    # The plan is the second event: citing both events out then (the task and the plan) is specific, so escalating
    # s00 citing everything wins without reading it; the importer does not write the drill (scoring rules 4).
    with pytest.raises(ww.RecordError, match="fairness rule battery-hit: the cite-everything trainee is a hit"):
        convert(GOOD / "magentic-one" / "plan-mistake.json")


def test_record_that_stops_at_its_mistake_gets_a_closing_event():
    _, drill = convert(GOOD / "magentic-one" / "truncated.json")
    ev = by_id(drill)
    assert "end" in ev and ev["end"].kind == "log" and ev["end"].source == ww.IMPORTER_SOURCE
    assert ev["end"].t - ev["h004"].t >= ww.CLOSING_EVENT_MIN_GAP
    key = drill.answer_key
    assert key.evidence == ["h004"] and [e.event for e in key.damage.entries] == ["end"]
    assert "closing event" in drill.source
    assert "1954" in key.debrief  # a numeric ground truth is kept as text
    assert_playable(drill)


# captain-agent mapping


def test_captain_agent_mapping():
    path = GOOD / "captain-agent" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _, drill = convert(path)
    ev = by_id(drill)

    assert drill.id == "ww-captain-agent-mini"
    # The manager's plan opens step s01; every later expert turn is a plan step; terminal output joins its turn.
    assert [s.id for s in drill.plan] == ["s01", "s02", "s03", "s04"]
    assert drill.plan[0].title == "Excel_Expert: the manager's task and plan"
    assert "2. Extract street numbers." in drill.plan[0].objective
    # Expert turns are titled by expert and turn number: never from the turn's own (later) text.
    assert [s.title for s in drill.plan[1:]] == [
        "DataAnalysis_Expert, turn 2",
        "Verification_Expert, turn 3",
        drill.plan[3].title,
    ]
    assert drill.plan[3].title.endswith(", turn 4")
    assert "Count the clients with even street numbers" in drill.plan[1].objective
    assert "Street numbers may carry suffixes" in drill.plan[1].objective
    manager = record["history"][0]["content"]
    for step in drill.plan[1:]:
        # an expert step's objective is made of the manager's first message (what the planner knew), nothing later
        body = step.objective.split(": ", 1)[1].replace("\n\nConstraints and conditions for completion:\n", "\n")
        assert all(line.strip() in manager for line in body.splitlines() if line.strip())
    for _i, m in enumerate(record["history"][1:], start=1):
        for step in drill.plan:
            assert m["content"].strip()[:30] not in step.title + step.objective

    assert ev["h000"].kind == "planner_call" and ev["h000"].step == "s01" and ev["h000"].usage.estimated
    assert ev["h001-call"].arguments == {"code_from": "h000"} and ev["h001"].step == "s01"
    assert ev["h002"].kind == "executor_message" and ev["h002"].step == "s02"
    assert ev["h003-call"].tool == "Computer_terminal" and ev["h003-call"].arguments == {"code_from": "h002"}
    assert ev["h003"].step == "s02" and ev["h003"].status == "exitcode: 0 (execution succeeded)"
    assert ev["h005"].status == "exitcode: 1 (execution failed)"
    assert ev["h006"].step == "s04"
    assert ev["h001-call"].usage is None  # the code was written (and paid for) in the turn before

    key = drill.answer_key
    assert key.fault.origin_step == "s02" and key.evidence == ["h002"] and key.cascade == ["s03", "s04"]
    assert [e.event for e in key.damage.entries] == ["h003", "h004", "h005", "h006"]
    assert {"imported", "who-and-when", "captain-agent"} <= set(drill.public_tags)
    assert record["mistake_agent"] == "DataAnalysis_Expert" and "DataAnalysis_Expert" not in drill.tags
    assert drill.difficulty == 2  # level "2"
    assert record["ground_truth"] in key.debrief
    assert_playable(drill)


def test_captain_agent_mistake_at_step_zero():
    drill = mapped(GOOD / "captain-agent" / "mistake-zero.json")
    key = drill.answer_key
    assert key.evidence == ["h000"]
    # The user's request opens the chat at 0 s, so the evidence is never the very first event.
    assert drill.trace[0].id == "task" and drill.trace[0].content == drill.briefing.goal
    assert drill.event("h000").t >= kit.MIN_EVENT_GAP
    assert key.fault.origin_step == "s01" and key.cascade == ["s02"]
    assert_playable(drill)
    # ... but the mistake is then the second event, and citing the two events out is specific (rule battery-hit)
    with pytest.raises(ww.RecordError, match="citing task, h000: only 2 events were out by then"):
        convert(GOOD / "captain-agent" / "mistake-zero.json")


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("The agent fabricated the population figures.", "fabricated_result"),
        ("The agent hallucinates the video ID.", "fabricated_result"),
        ("FileSurfer failed to access the article due to a 404 File Not Found error.", "http_error_ignored"),
        ("The expert didn't import the tables, leading to the exhaustion of the step limits.", "runaway_loop"),
        ("The expert directly reached a conclusion without verifying.", "premature_termination"),
        ("WebSurfer misinterpreted the Latin root.", "tool_output_misread"),
        ("The code is wrong.", "other"),
    ],
)
def test_fault_kind_from_the_annotators_reason(reason, kind):
    assert ww.guess_fault_kind(reason) == kind
