"""A twentieth hostile campaign, on traces of the frameworks and instrumentors not recorded before (issue 30): the
shapes of their recordings (tests/fixtures/frameworks, read in test_import_frameworks.py) in the odd forms a
hand-edited or truncated export may take."""

from __future__ import annotations

from typing import Any

import pytest

from warroom.importers.otel._classify import classify
from warroom.importers.otel._frameworks import content_blocks, handoff_call, sk_finish_reason
from warroom.importers.spans import Span
from warroom.importers.spans._step import unwrap_result


def _span(**attributes: Any) -> Span:
    return Span(trace_id="t", span_id="s", parent_id="", name="chat", start_ns=0, end_ns=1,
                attributes=attributes)


@pytest.mark.parametrize(("value", "reason"), [
    ("FinishReason.TOOL_CALLS", "tool_calls"), ("FinishReason.STOP", "stop"), ("length", "length"),
    (["FinishReason.STOP"], None), (7, None), ("  ", None), (None, None)])
def test_semantic_kernel_finish_reason_of_any_type(value: Any, reason: str | None) -> None:
    # only text is a finish reason; a list or number (an export edited by hand) is none, not its JSON
    span = _span() if value is None else _span(**{"gen_ai.response.finish_reason": value})
    assert sk_finish_reason(span) == reason


@pytest.mark.parametrize(("value", "read"), [
    ('[{"text": "a"}, {"text": "b"}]', "a\nb"),
    ('[{"json": {"duplicates": []}}]', {"duplicates": []}),
    ([{"text": "{\"duplicates\": []}"}], '{"duplicates": []}'),
    ("[]", "[]"),  # an empty list is the tool's result, not blocks
    ('[{"text": "a", "type": "text"}]', '[{"text": "a", "type": "text"}]'),  # not Bedrock's blocks
    ('[{"text": 1}]', '[{"text": 1}]'),
    ('[{"json": 1}, {"json": 2}]', '[{"json": 1}, {"json": 2}]'),
    ('[{"text": "a"', '[{"text": "a"'),  # cut off: kept as text
])
def test_content_blocks_are_unwrapped_only_when_they_are_blocks(value: Any, read: Any) -> None:
    assert content_blocks(value) == read


NOTES = '[{"text": "note 1"}, {"text": "note 2"}]'


def test_a_list_of_text_objects_is_content_blocks_only_on_strands_spans() -> None:
    # another producer's notes tool returns a list of {"text"} objects: its own result, so `[1].text` reaches it
    assert unwrap_result(NOTES) == (NOTES, False)
    assert unwrap_result('[{"json": {"a": 1}}]') == ('[{"json": {"a": 1}}]', False)
    tool = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "notes", "gen_ai.tool.call.result": NOTES}
    assert classify(_span(**tool)).result == NOTES
    assert classify(_span(**tool, **{"gen_ai.system": "strands-agents"})).result == "note 1\nnote 2"
    assert classify(_span(**tool, **{"gen_ai.provider.name": "strands-agents"})).result == "note 1\nnote 2"


@pytest.mark.parametrize(("tool", "arguments", "hands"), [
    ("transfer_to_agent", {"agent_name": "executor"}, ("executor", "")),
    ("handoff_to_agent", {"agent_name": "executor", "message": "go", "context": {}}, ("executor", "go")),
    ("handoff_to_agent", {"agent_name": "executor", "message": 3}, ("executor", "")),
    ("transfer_to_agent", {"agent_name": "  "}, None),
    ("transfer_to_agent", {"agent_name": ["executor"]}, None),
    ("transfer_to_agent", {}, None),
    ("transfer_to_agent", "executor", None),
    ("list_charges", {"agent_name": "executor"}, None),
])
def test_a_handoff_tool_hands_off_only_to_an_agent_named_by_text(tool: str, arguments: Any,
                                                                  hands: tuple[str, str] | None) -> None:
    assert handoff_call(tool, arguments) == hands


@pytest.mark.parametrize("reason", ["tool_call", "tool_calls", "tool_use"])
def test_the_conventions_own_tool_call_finish_reason_asks_for_the_calls_that_follow(reason: str) -> None:
    # the GenAI conventions' finish reason for a turn that asks for tools is `tool_call` (OpenLLMetry 0.62 writes
    # it): a model call recorded without content that ended so asked for the calls its agent ran next, one batch
    from warroom.importers.otel import classify
    from warroom.importers.spans import trace_to_drill

    def span(sid: str, parent: str, start: int, end: int, **attributes: Any) -> Span:
        return Span(trace_id="t", span_id=sid, parent_id=parent, name=sid, start_ns=start, end_ns=end,
                    attributes=attributes)

    spans = [span("a", "", 0, 100, **{"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "executor"}),
             span("m", "a", 1, 10, **{"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o",
                                       "gen_ai.response.finish_reasons": [reason]}),
             *(span(t, "a", 11 + n, 12 + n, **{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": t,
                                               "gen_ai.tool.call.id": f"call_{t}"})
               for n, t in enumerate(("list_charges", "get_order")))]
    events = trace_to_drill(spans, classify)["trace"]
    [model] = [e for e in events if e["kind"] in ("planner_call", "executor_message")]
    assert [e.get("batch") for e in events if e["kind"] == "tool_call"] == [model["id"], model["id"]]
