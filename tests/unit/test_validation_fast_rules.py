"""Short cuts of the semantic rules for large drills: the format-2 rules on a version-1 drill read each event's fields
set once per distinct set object (events whose equal sets are one object, as the fast load path shares them with
warroom.core.load._fast.load._FieldSets, are judged each on its own values); the event rules skip the look at a step
that
is a plan step's id, and still pass over a step of another type."""

from __future__ import annotations

from typing import Any

import yaml

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.load._fast.load import _FieldSets, _trace_event_adapter
from warroom.core.rules import validate_data
from warroom.core.rules._version import version_issues


def _drill_with_agents(share: bool) -> tuple[Any, list[int]]:
    """A bundled drill whose even trace events say ``agent: worker`` (odd ones say nothing), with the events'
    fields sets shared between equal ones when ``share``; and the indexes of the events with an agent."""
    drill = load_drill(sorted(bundled_drills_dir().glob("*.yaml"))[0])
    validate, sets = _trace_event_adapter().validate_python, _FieldSets()
    events = []
    for i, ev in enumerate(drill.trace):
        data = ev.model_dump(exclude_unset=True)
        data.pop("agent", None)
        data |= {"agent": "worker"} if i % 2 == 0 else {}
        events.append(sets.share(validate(data)) if share else validate(data))
    return drill.model_copy(update={"trace": events}), list(range(0, len(events), 2))


def test_each_event_with_a_format2_field_is_named_whether_its_fields_set_is_shared_or_not() -> None:
    for share in (True, False):
        drill, with_agent = _drill_with_agents(share)
        if share:  # the sets are shared indeed: the memo by set object is exercised
            sets = {id(ev.model_fields_set) for ev in drill.trace}
            assert len(sets) < len(drill.trace)
        issues = [i for i in version_issues(drill) if i.loc[0] == "trace" and i.loc[-1] == "agent"]
        assert len(with_agent) > 2
        assert [i.loc for i in issues] == [("trace", n, "agent") for n in with_agent], share
        assert all("`agent` is format 2" in i.message for i in issues)


def test_a_step_that_is_not_text_is_passed_over_and_an_unknown_step_is_named() -> None:
    path = sorted(bundled_drills_dir().glob("*.yaml"))[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["trace"][1]["step"] = ["not", "hashable"]  # a type problem of its own (reported by pydantic), no crash here
    data["trace"][2]["step"] = "no-such-step"
    issues, _ = validate_data(data, [])
    assert [i.loc for i in issues if i.loc[-1] == "step"] == [("trace", 2, "step")]
    assert "`no-such-step` is not a plan step" in next(i.message for i in issues if i.loc == ("trace", 2, "step"))
