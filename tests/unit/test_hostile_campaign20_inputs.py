"""A twentieth hostile campaign, on traces of the frameworks and instrumentors not recorded before (issue 30): the
shapes of their recordings (tests/fixtures/frameworks, read in test_import_frameworks.py) in the odd forms a
hand-edited or truncated export may take."""

from __future__ import annotations

from typing import Any

import pytest

from warroom.importers.otel._frameworks import handoff_call, sk_finish_reason
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
    assert unwrap_result(value) == (read, False)


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
