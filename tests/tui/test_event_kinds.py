"""Every kind of trace event is shown by the terminal UI: the table keyed by event class (labels and styles) names
every class of :data:`~warroom.core.model.TraceEvent`, and the summary, the row marks, the payload size and the
inspector's body handle each one (their ``match`` statements end in ``assert_never``, which mypy checks; here each
kind is run through them). A kind added to the model fails here until the terminal UI shows it."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import TypeAdapter

from warroom.core.load import load_drill
from warroom.core.model import TraceEvent
from warroom.tui.logic import TraceIndex
from warroom.tui.render import KINDS, describe_event, event_body, payload_chars, row_mark, summarize

from .conftest import STALE

#: One event of each kind, as a drill file would spell it.
SAMPLES: list[dict[str, Any]] = [
    {"kind": "planner_call", "id": "p1", "t": 0.0, "content": "the plan"},
    {"kind": "executor_message", "id": "m1", "t": 1.0, "content": "looking it up"},
    {"kind": "tool_call", "id": "c1", "t": 2.0, "tool": "crm.search", "arguments": {"q": "refunds"}},
    {"kind": "tool_result", "id": "r1", "t": 3.0, "call": "c1", "output": {"rows": []}},
    {"kind": "executor_report", "id": "x1", "t": 4.0, "step": "s1", "status": "success", "content": "done"},
    {"kind": "log", "id": "l1", "t": 5.0, "source": "monitor", "content": "all quiet"},
    {"kind": "command_result", "id": "k1", "t": 6.0, "call": "c1", "exit_code": 1, "stderr": "boom"},
    {"kind": "handoff", "id": "h1", "t": 7.0, "from_agent": "lead", "to_agent": "scout", "content": "go"},
    {"kind": "approval", "id": "a1", "t": 8.0, "decision": "granted", "content": "yes"},
    {"kind": "human_message", "id": "u1", "t": 9.0, "content": "stop that"},
]


def _event_classes() -> set[type]:
    union = get_args(TraceEvent)[0]  # TraceEvent is Annotated[A | B | ..., Field(discriminator="kind")]
    return set(get_args(union))


def _events() -> list[TraceEvent]:
    adapter: TypeAdapter[TraceEvent] = TypeAdapter(TraceEvent)
    return [adapter.validate_python(sample) for sample in SAMPLES]


def test_the_samples_hold_one_event_of_every_kind():
    assert {type(e) for e in _events()} == _event_classes()


def test_every_event_kind_has_a_label_and_a_style_of_its_own():
    assert set(KINDS) == _event_classes()
    labels = [kind.label for kind in KINDS.values()]
    assert len(set(labels)) == len(labels)
    assert all(kind.label and len(kind.label) <= 9 for kind in KINDS.values())  # the trace table's kind column


@pytest.mark.parametrize("event", _events(), ids=lambda e: e.kind)
def test_every_event_kind_is_summarized_marked_sized_and_described(event):
    index = TraceIndex(load_drill(STALE))
    assert isinstance(summarize(event), str) and summarize(event, limit=3)
    assert isinstance(row_mark(event, None), str)
    assert payload_chars(event) >= 0
    assert event_body(event, index, None).plain
    text = describe_event(event, index).plain
    assert text.startswith(f"{event.id} · {KINDS[type(event)].label} · ")


@pytest.mark.parametrize("event", [e for e in _events() if "truncated" in type(e).model_fields], ids=lambda e: e.kind)
def test_every_model_call_kind_shows_its_call_metadata(event):
    """A kind with the model-call fields (model, finish reason, max tokens, truncated) shows them, whichever it is."""
    cut = event.model_copy(update={"truncated": True, "model": "small", "finish_reason": "length", "max_tokens": 9})
    assert "✂" in row_mark(cut, None)
    text = describe_event(cut, TraceIndex(load_drill(STALE))).plain
    assert "call      model small · finish length · max_tokens 9\n" in text
    assert "output    cut short (truncated)\n" in text


def test_a_long_call_id_is_shown_short_in_the_row_mark():
    """A real call id (29 characters) crowded the result row's summary (issue 33): the mark keeps its prefix and its
    last 4 characters; a short id stays whole."""
    from warroom.tui.render._kinds import short_id

    result = _events()[3].model_copy(update={"call": "call_afb893b14180880c7368ba40"})
    assert row_mark(result, None) == "↳call_…ba40 "
    assert short_id("toolu_01A2B3C4D5E6F7") == "toolu_…E6F7"
    assert short_id("8f1c2d3e4b5a69788f1c") == "8f1c2d…8f1c"
    assert short_id("call_inv") == "call_inv"
