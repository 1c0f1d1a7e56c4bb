"""The Who&When importer's modules one by one: parse, mapping, pace and prose (warroom/importers/who_and_when/)."""

from __future__ import annotations

import pytest
from import_support import GOOD

from warroom.core.author import MIN_REACTION_WINDOW
from warroom.importers import kit
from warroom.importers import who_and_when as ww
from warroom.importers.who_and_when import Message, Record
from warroom.importers.who_and_when import _mapping as mapping
from warroom.importers.who_and_when import _pace as pace
from warroom.importers.who_and_when import _prose as prose


def _record(history: list[tuple[str, str]], mistake: int, subset: str = ww.MAGENTIC_ONE, **kw) -> Record:
    fields = dict(name="7", file="7.json", subset=subset, question="Find the answer.", ground_truth="42",
                  history=[Message(role, None, text) for role, text in history], mistake_agent="WebSurfer",
                  mistake_step=mistake, mistake_reason="It fabricated the number.", level=None, question_id=None)
    fields.update(kw)
    return Record(**fields)


HISTORY = [
    ("human", "Find the answer."),
    ("Orchestrator (thought)", "Plan: ask the surfer."),
    ("Orchestrator (-> WebSurfer)", "Search for it."),
    ("WebSurfer", "It is 41."),
    ("Orchestrator (thought)", "Next speaker WebSurfer"),
]


def test_parse_reads_the_level_as_a_number_or_digits_only():
    data = ww.read_record(GOOD / "magentic-one" / "mini.json")
    for raw, level in ((3, 3), ("4", 4), (" 2 ", 2), (True, None), ("three", None), ("1" * 10, None)):
        assert ww.parse_record({**data, "level": raw}, "x").level == level, raw


def test_mapping_opens_a_plan_step_per_instruction_and_keeps_every_message():
    draft = mapping.map_record(_record(HISTORY, mistake=3))
    assert [s["id"] for s in draft.plan] == ["s00", "s01"]
    assert draft.plan[1]["title"] == "WebSurfer, instruction 1"
    assert [(e["id"], e["kind"], e.get("step")) for e in draft.events] == [
        ("h000", "log", "s00"),
        ("h001", "planner_call", "s00"),
        ("h002", "planner_call", "s01"),
        ("h003", "executor_message", "s01"),
        ("h004", "log", "s01"),
    ]
    assert draft.agents == ["WebSurfer"]
    assert "usage" not in draft.events[2]  # an instruction relays the ledger's answer: no model call of its own
    assert draft.events[3]["usage"]["estimated"] is True
    assert draft.event_of[3] == "h003"


def test_mapping_adds_the_closing_event_only_when_the_record_stops_at_its_mistake():
    assert "end" not in {e["id"] for e in mapping.map_record(_record(HISTORY, mistake=3)).events}
    last = mapping.map_record(_record(HISTORY, mistake=4)).events[-1]
    assert (last["id"], last["source"]) == (kit.CLOSING_EVENT_ID, ww.IMPORTER_SOURCE)


def test_pace_lays_out_the_clock_by_reading_time_with_the_evidence_and_closing_gaps():
    events = [{"id": "a", "step": "s1"}, {"id": "b", "step": None}, {"id": "c"}, {"id": "end"}]
    texts = ["word " * 40, "", "short", ""]
    pace.lay_out_clock(events, texts, evidence_id="b")
    assert [e["t"] for e in events] == [0.0, 10.0, 10.0 + ww.EVIDENCE_MIN_GAP, 10.0 + ww.EVIDENCE_MIN_GAP + 10.0]
    assert "step" not in events[1] and events[0]["step"] == "s1"


def test_pace_places_the_deadline_before_the_damage():
    assert pace.place_deadline(10.0, 500.0) == 10.0 + kit.DEADLINE_WINDOW
    assert pace.place_deadline(10.0, 60.0) == 60.0 - ww.DEADLINE_BEFORE_DAMAGE
    with pytest.raises(ww.RecordError, match="cannot place a deadline"):
        pace.place_deadline(10.0, 10.0 + MIN_REACTION_WINDOW)


def test_pace_costs_a_call_in_usd():
    usage = kit.model_usage(4 * 1000, "x" * 8)
    assert usage == {"input_tokens": 1000, "output_tokens": 2, "estimated": True}
    assert kit.model_cost(usage, kit.Price(5.0, 25.0)) == pytest.approx((5000 + 50) / 1e6)


def test_prose_headline_section_and_title():
    assert prose.headline("\n## **Find the answer** to this\nmore") == "Find the answer** to this"
    assert prose.headline("x" * 100, 10) == "x" * 9 + "…"
    manager = "## Task description\nAdd two numbers.\n## Plan for solving the task\n1. add\n# Output\nnone"
    assert prose.section(manager, "Task description") == "Add two numbers."
    assert prose.section(manager, "Plan for solving the task") == "1. add"
    assert prose.section(manager, "Missing") == ""
    assert prose.title(_record(HISTORY, 3)) == "Who&When magentic-one #7: Find the answer."


def test_prose_debrief_counts_turns_and_steps_in_words():
    found = prose.Mistake(evidence_id="h003", origin="s01", cascade_steps=1, wasted_usd=0.5)
    text = prose.debrief(_record(HISTORY, 3), found)
    assert "went on for 1 more turn (1 later plan step, about $0.50" in text
    assert "history step 3 (event h003, in plan step s01), by WebSurfer." in text
    assert "The record stops at the mistake" in prose.debrief(_record(HISTORY, 4), found)
