"""The answer-key draft's format-2 parts (warroom.core.author._annotation, warroom.core.author._annotatefile): evidence
items beyond
a whole event and faults in the plan or the set-up are read from a file, toggled, and written back without loss."""

from __future__ import annotations

import re

import pytest

from warroom.core.author import KeyDraft, item_events, item_label, open_for_annotation
from warroom.core.author._annotation import draft_from_data
from warroom.core.author._keywrite import apply_draft
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_yaml_text

ORDER = {"e01": 0, "e03": 1, "e07": 2, "e09": 3, "e12": 4}


def test_evidence_mappings_and_a_plan_origin_are_read_and_written_back():
    data = {"answer_key": {
        "fault": {"origin": "plan", "origin_event": "e01", "kind": "invented_constraint", "summary": "x"},
        "evidence": ["e03", {"event": "e07", "path": "data.next_cursor", "note": "why"},
                     {"all_of": ["e03", "e09"]}, {"event": "e12", "absent": "no approval"}],
    }}
    draft = draft_from_data(data)
    assert draft.origin == "plan" and draft.origin_event == "e01" and draft.origin_step == ""
    assert "answer_key.fault.origin_step" not in draft.missing()
    assert "answer_key.fault.origin_event" not in draft.missing()
    assert draft.evidence_events() == {"e03", "e07", "e09", "e12"}
    key = draft.answer_key_data(ORDER)
    assert key["fault"] == {"origin": "plan", "origin_event": "e01", "kind": "invented_constraint", "summary": "x"}
    assert key["evidence"] == data["answer_key"]["evidence"]  # already in trace order (a comparison at its last)
    assert draft.origin_label() == "the plan at e01"


def test_a_set_up_origin_needs_its_event_and_a_step_origin_drops_it():
    draft = KeyDraft()
    draft.set_origin("setup", "")
    assert draft.missing()[0] == "answer_key.fault.origin_event" and draft.origin_label() == ""
    draft.set_origin("setup", "e02")
    assert draft.origin_label() == "set-up at e02"
    draft.kind, draft.summary = "environment_setup_failed", "the toolset was missing"
    assert draft.answer_key_data({})["fault"] == {"origin": "setup", "origin_event": "e02",
                                                  "kind": "environment_setup_failed",
                                                  "summary": "the toolset was missing"}
    draft.set_origin("step", "s2")
    assert draft.answer_key_data({})["fault"]["origin_step"] == "s2"
    assert "origin" not in draft.answer_key_data({})["fault"] and draft.origin_event == ""
    with pytest.raises(ValueError, match="unknown fault origin"):
        draft.set_origin("planner", "e01")


def test_items_toggle_whatever_their_note_and_a_comparison_in_any_order():
    draft = KeyDraft(evidence=[{"event": "e07", "path": "a.b", "note": "kept from the file"},
                               {"all_of": ["e09", "e03"]}])
    assert draft.toggle_item({"event": "e07", "path": "a.b"}) is False
    assert draft.toggle_item({"all_of": ["e03", "e09"]}) is False
    assert draft.evidence == []
    assert draft.toggle_item({"event": "e07", "path": "a.c"}) is True
    assert draft.toggle_item("e07") is True  # the whole event is another item
    assert draft.evidence == [{"event": "e07", "path": "a.c"}, "e07"]
    assert draft.answer_key_data(ORDER)["evidence"] == [{"event": "e07", "path": "a.c"}, "e07"]


def test_item_events_and_labels():
    assert item_events("e03") == ["e03"] and item_events({"all_of": ["e01", 3, "e12"]}) == ["e01", "e12"]
    assert item_events({"path": "x"}) == [] and item_events(7) == []
    assert item_label({"event": "e07", "path": "data.next_cursor"}) == "e07 data.next_cursor"
    assert item_label({"event": "e12", "absent": "no approval"}) == "e12 absent: no approval"
    assert item_label({"all_of": ["e01", "e12"], "note": "n"}) == "e01 + e12"


@pytest.mark.parametrize("name", ["privilege-screen-production", "dependabot-merge-train",
                                  "compacted-review-criteria"])
def test_the_likeliest_origin_is_the_plan_or_the_set_up_in_format_2_the_plan_or_the_set_up_in_format_2(name):
    file = open_for_annotation(bundled_drills_dir() / f"{name}.yaml")
    key = load_yaml_text((bundled_drills_dir() / f"{name}.yaml").read_text())["answer_key"]["fault"]
    assert file.origins_at(key["origin_event"])[0] == (key["origin"], key["origin_event"])
    stepped = next(e for e in file.drill.trace if e.step is not None)
    assert file.origins_at(stepped.id)[0] == ("step", stepped.step)


#: A one-pair flow mapping inside a flow sequence (``[{Value: x}]``): ruamel.yaml writes it back as ``[Value: x]``,
#: the same data in YAML's compact form.
ONE_PAIR_IN_FLOW_LIST = re.compile(r"\[\{[^,{}\[\]]*\}\]")


def test_every_bundled_drill_saved_unchanged_is_byte_for_byte_the_same():
    """Saving a drill opened with its key keeps every evidence item (mappings too), the fault's origin, the
    distractors' order, and every line as written (but for one ruamel.yaml quirk, which keeps the data)."""
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        data = load_yaml_text(text)
        if "answer_key" not in data:
            continue
        draft = draft_from_data(data)
        order = {e["id"]: i for i, e in enumerate(data["trace"])}
        out = apply_draft(text, draft, order, str(path))
        written = load_yaml_text(out)
        assert written == data, path
        if not ONE_PAIR_IN_FLOW_LIST.search(text.split("\nanswer_key:")[1]):
            assert out == text, path
