"""Saving an answer key into a drill file (warroom.core.author._keywrite): comments and layout survive, a partial key
reads
back for editing, and the draft knows what is missing."""

from __future__ import annotations

import pytest

from warroom.core.author import (
    AnnotateError,
    DeadlineMark,
    KeyDraft,
    KeyWriteError,
    findings,
    open_for_annotation,
    write_draft,
)
from warroom.core.author._annotation import draft_from_data
from warroom.core.author._keywrite import apply_draft
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill, load_yaml_text

HAND_WRITTEN = """\
# A hand-written drill: this header comment stays.
schema_version: 1
id: tiny   # an end-of-line comment stays too
title: "Tiny drill"      # quoted, with odd spacing
version: 1
difficulty: 2
tags: ["domain:test",
       wrong_tool]        # a flow list over two lines
author: test
models:
  planner: {name: p, input_usd_per_mtok: 3.0, output_usd_per_mtok: 15.0}
  executor: {name: e, input_usd_per_mtok: 0.8, output_usd_per_mtok: 4.0}
briefing:
    goal: >-
      Folded text that an
      emitter would rewrap.
    watching: 'single quoted, not rewrapped by the save'
plan:
    - {id: s1, title: Look up, objective: find the order}
    - id: s2
      title: Refund
      objective: refund it
trace:
    - {id: e1, t: 0, step: s1, kind: log, source: x, content: start}
    - {id: e2, t: 10, step: s1, kind: log, source: x, content: empty}
    - {id: e3, t: 30, step: s2, kind: log, source: x, content: refunded}
# a comment between the trace and the answer key
answer_key:
  fault: {origin_step: s1, kind: empty_result}   # flow style, summary still missing
  evidence: [e2]  # why e2
# the last line of the file
"""


def complete(draft: KeyDraft) -> KeyDraft:
    draft.summary = "The lookup came back empty."
    draft.damage_unit = "USD"
    draft.set_damage("e3", 120.0, "one refund")
    draft.deadline = DeadlineMark(18)  # format 1: drill seconds (a deadline by reference is format 2)
    draft.debrief = "e2 showed the empty lookup.\nEscalate s1 before the refund."
    draft.distractors["e1"] = "the start of every run"
    return draft


def test_comments_and_layout_survive_the_save(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(HAND_WRITTEN)
    data = load_yaml_text(HAND_WRITTEN)
    draft = complete(draft_from_data(data))
    order = {e["id"]: i for i, e in enumerate(data["trace"])}
    write_draft(path, draft, order)
    text = path.read_text()
    head = HAND_WRITTEN.split("answer_key:")[0]
    assert text.startswith(head)  # every line before the key, byte for byte
    # a changed flow mapping stays a flow mapping, its comment kept
    assert "  fault: {origin_step: s1, kind: empty_result, summary: The lookup came back empty.} # flow style" in text
    assert "  evidence: [e2]  # why e2\n" in text  # an unchanged value keeps its style and comment
    assert text.endswith("# the last line of the file\n")
    assert "debrief: |-\n    e2 showed the empty lookup.\n    Escalate s1 before the refund.\n" in text
    drill = load_drill(path)
    key = drill.answer_key
    assert key is not None and key.fault.summary == "The lookup came back empty." and key.deadline == 18
    assert [(d.event, d.amount, d.note) for d in key.damage.entries] == [("e3", 120.0, "one refund")]
    assert [(d.event, d.why_harmless) for d in drill.distractors] == [("e1", "the start of every run")]
    # saved twice with nothing changed: the same text
    write_draft(path, draft_from_data(load_yaml_text(text)), order)
    assert path.read_text() == text


def test_a_partial_key_is_written_and_read_back(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(HAND_WRITTEN)
    opened = open_for_annotation(path)
    assert opened.draft.origin_step == "s1" and opened.draft.evidence == ["e2"]
    assert opened.draft.missing() == [
        "answer_key.fault.summary", "answer_key.damage.unit", "answer_key.damage.entries", "answer_key.deadline",
        "answer_key.debrief",
    ]
    opened.draft.evidence.remove("e2")
    write_draft(path, opened.draft, opened.event_order)
    again = open_for_annotation(path)
    assert again.draft.evidence == [] and again.draft.kind == "empty_result"
    found = findings(path)
    assert not found.checked
    assert any(":28:1: `answer_key` is missing the required key `evidence`" in p for p in found.problems), found


def test_removing_every_mark_removes_the_key_and_keeps_the_rest(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(HAND_WRITTEN)
    opened = open_for_annotation(path)
    write_draft(path, KeyDraft(), opened.event_order)
    text = path.read_text()
    assert "answer_key" not in text and text.startswith(HAND_WRITTEN.split("answer_key:")[0])
    assert text.endswith("# the last line of the file\n")


def test_a_bundled_drill_opens_with_its_key_for_editing():
    path = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    opened = open_for_annotation(path)
    key = load_drill(path).answer_key
    assert key is not None
    assert not opened.draft.missing() and opened.draft.origin_step == key.fault.origin_step
    assert opened.draft.evidence == list(key.evidence)
    text = path.read_text()
    assert apply_draft(text, opened.draft, opened.event_order).startswith(text.split("\nanswer_key:")[0])


def test_a_flow_style_drill_is_refused_without_writing(tmp_path):
    with pytest.raises(KeyWriteError, match="not a block mapping"):
        apply_draft("{schema_version: 2, id: x}\n", KeyDraft(origin_step="s1"), {})


def test_a_control_drill_and_a_broken_trace_are_refused(tmp_path):
    control = tmp_path / "control.yaml"
    control.write_text(HAND_WRITTEN.split("answer_key:")[0] + "all_clear: {debrief: healthy}\n")
    with pytest.raises(AnnotateError, match="control drill"):
        open_for_annotation(control)
    broken = tmp_path / "broken.yaml"
    broken.write_text(HAND_WRITTEN.replace("step: s2, kind: log", "step: s9, kind: log"))
    with pytest.raises(AnnotateError) as err:
        open_for_annotation(broken)
    assert any(p.startswith(f"{broken}:26:") and "s9" in p for p in err.value.problems), err.value.problems


def test_a_key_of_wrong_types_opens_as_what_is_usable():
    draft = draft_from_data({
        "answer_key": {"fault": "s1", "evidence": "e2", "damage": {"unit": 3, "entries": 7},
                       "deadline": {"event": "e2", "after": "soon"}, "debrief": ["x"], "replan": []},
        "distractors": [{"event": "e1"}, "e3"],
    })
    assert draft.missing() == [
        "answer_key.fault.origin_step", "answer_key.fault.kind", "answer_key.fault.summary", "answer_key.evidence",
        "answer_key.damage.unit", "answer_key.damage.entries", "answer_key.debrief",
    ]
    assert draft.deadline == DeadlineMark(0.0, "e2") and draft.distractors == {"e1": ""}
    assert draft.extra == {"replan": []}  # kept as it was when the key is written back
