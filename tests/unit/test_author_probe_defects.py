"""Defects an author met writing format-2 drills from the docs: each message names the place, the key or the id."""

from __future__ import annotations

import pytest

from warroom.core.author._examples import example_path
from warroom.core.load import DrillLoadError, load_drill_text

TEXT = example_path("full").read_text()


def problems(text: str) -> list[str]:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "d.yaml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(("typo", "meant"), [("aftr", "after"), ("evnt", "event")])
def test_an_unknown_key_in_a_deadline_by_reference_lists_its_keys_with_a_did_you_mean(typo: str, meant: str):
    value = "{event: e11, aftr: 4}" if typo == "aftr" else "{evnt: e11}"
    text = TEXT.replace("deadline: 30", f"deadline: {value}")
    found = problems(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "deadline: {" in row)
    col = text.splitlines()[line - 1].index(typo) + 1
    (problem,) = found
    assert problem.startswith(f"d.yaml:{line}:{col}: unknown key `{typo}` in `answer_key.deadline`; "
                              f"did you mean `{meant}`? ")
    assert problem.endswith("allowed keys: after, budget, event")


def test_the_calls_of_a_batch_share_one_agent():
    text = TEXT.replace("{id: e04, t: 3, step: s1, agent: scout,", "{id: e04, t: 3, step: s1, agent: worker,")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "{id: e04," in row)
    col = text.splitlines()[line - 1].index("agent: worker") + len("agent: ") + 1
    assert problems(text) == [
        f"d.yaml:{line}:{col}: tool_call `e04` is in batch `b1` with `e03`, but its agent is `worker` and `e03`'s "
        "is `scout`: a batch is one model turn, so its calls share one agent"]


def test_the_calls_of_a_batch_share_one_model_as_resolved_for_cost():
    same = TEXT.replace("batch: b1}", "batch: b1, model: mini}")  # scout's own model, named: the same turn
    assert load_drill_text(same).event("e04").model == "mini"
    text = TEXT.replace("batch: b1}", "batch: b1, model: small}")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "{id: e04," in row)
    col = text.splitlines()[line - 1].index("model: small") + len("model: ") + 1
    assert problems(text) == [
        f"d.yaml:{line}:{col}: tool_call `e04` is in batch `b1` with `e03`, but its model is `small` and `e03`'s "
        "is `mini`: a batch is one model turn, so its calls share one model"]


def test_a_comparison_of_one_event_listed_twice_is_refused_at_the_item():
    text = TEXT.replace("all_of: [e06, e07]", "all_of: [e06, e06]")
    found = problems(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "all_of: [e06, e06]" in row)
    assert any(p.startswith(f"d.yaml:{line}:") and "`all_of` names `e06` twice" in p for p in found), found


def test_a_field_path_on_a_probe_is_refused_at_the_path():
    text = TEXT.replace("{event: e06, path: next_cursor,", "{event: p1, path: next_cursor,")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "{event: p1, path:" in row)
    col = text.splitlines()[line - 1].index("next_cursor") + 1
    assert problems(text) == [f"d.yaml:{line}:{col}: `p1` is a probe, whose answer is text with no fields for a "
                              "path; list the probe by its id, without `path`"]


def test_a_handoff_to_the_agent_that_hands_off_is_refused_at_to_agent():
    text = TEXT.replace("to_agent: scout", "to_agent: lead")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "to_agent: lead" in row)
    col = text.splitlines()[line - 1].index("to_agent: lead") + len("to_agent: ") + 1
    assert problems(text) == [f"d.yaml:{line}:{col}: handoff `e02` passes work from `lead` to itself: name the "
                              "agent that receives it in `to_agent`"]
