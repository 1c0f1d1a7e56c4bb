"""The older GenAI conventions' shapes (warroom.importers.otel.legacy) that the generated fixture does not record:
content blocks, flattened tool calls, plain-text choices and prompts that are not message lists."""

from __future__ import annotations

import json
from typing import Any

from warroom.importers.otel import _legacy as legacy
from warroom.importers.otel import classify
from warroom.importers.spans import MODEL, TOOL, Span, SpanEvent


def _span(attributes: dict[str, Any], *events: tuple[str, dict[str, Any]]) -> Span:
    return Span("ab" * 16, "01", "", "chat", 1, 2, attributes, [SpanEvent(n, 1, a) for n, a in events])


def test_flattened_tool_calls_are_shown_batched_and_not_counted_unknown() -> None:
    span = _span({"gen_ai.system": "openai", "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "Be brief.",
                  "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "Refund order 7.",
                  "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls",
                  "gen_ai.completion.0.tool_calls.1.id": "c2", "gen_ai.completion.0.tool_calls.1.name": "notify",
                  "gen_ai.completion.0.tool_calls.1.arguments": "{}",
                  "gen_ai.completion.0.tool_calls.0.id": "c1", "gen_ai.completion.0.tool_calls.0.name": "refund",
                  "gen_ai.completion.0.tool_calls.0.arguments": '{"order": 7}'})
    step = classify(span)
    assert step.kind == MODEL and step.unknown == 0
    assert step.inputs == "Refund order 7."  # the user's message, not the system prompt
    assert step.content == '[tool call refund {"order": 7}]\n[tool call notify {}]'
    assert step.tool_call_ids == ["c1", "c2"] and step.finish_reason == "tool_calls"


def test_content_blocks_and_plain_text_choices_are_read_verbatim() -> None:
    span = _span({"gen_ai.operation.name": "chat", "gen_ai.system": "aws.bedrock"},
                 ("gen_ai.user.message", {"content": json.dumps([{"text": "Is the  VPN up?"}])}),
                 ("gen_ai.choice", {"finish_reason": "end_turn", "message": "It is up.\n"}))
    step = classify(span)
    assert (step.inputs, step.content, step.finish_reason, step.tool_call_ids) == (
        "Is the  VPN up?", "It is up.\n", "end_turn", [])


def test_a_prompt_that_is_not_a_message_list_is_kept_as_it_is() -> None:
    span = _span({"gen_ai.system": "openai"},
                 ("gen_ai.content.prompt", {"gen_ai.prompt": "Summarise: [1, 2"}),
                 ("gen_ai.content.completion", {"gen_ai.completion": "Two numbers."}))
    assert (legacy.prompt_text(span), legacy.completion_text(span)) == ("Summarise: [1, 2", "Two numbers.")
    only_system = _span({}, ("gen_ai.content.prompt", {"gen_ai.prompt": '[{"role": "system", "content": "x"}]'}))
    assert legacy.prompt_text(only_system) == ""


def test_a_tool_span_without_events_or_attributes_has_no_arguments_or_result() -> None:
    span = _span({"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "ping"})
    step = classify(span)
    assert (step.kind, step.arguments, step.result) == (TOOL, {}, None)
    span.events = [SpanEvent("gen_ai.tool.message", 1, {"content": "host-1", "id": "t1"}),
                   SpanEvent("gen_ai.choice", 2, {"message": "pong", "id": "t1"})]
    step = classify(span)
    assert (step.arguments, step.result) == ({"arguments": "host-1"}, "pong")  # not JSON: kept verbatim


def test_tool_use_content_blocks_are_tool_calls_and_make_the_batch() -> None:
    """A choice whose message is a list of content blocks with tool uses (Bedrock Converse's ``toolUse``, as
    Strands Agents records it; Anthropic's ``tool_use``)."""
    bedrock = [{"text": "Checking both."}, {"toolUse": {"toolUseId": "t1", "name": "disk", "input": {"host": "a"}}},
               {"toolUse": {"toolUseId": "t2", "name": "disk", "input": {"host": "b"}}}]
    span = _span({"gen_ai.operation.name": "chat", "gen_ai.system": "strands-agents"},
                 ("gen_ai.choice", {"finish_reason": "tool_use", "message": json.dumps(bedrock)}))
    step = classify(span)
    assert step.content == 'Checking both.\n[tool call disk {"host": "a"}]\n[tool call disk {"host": "b"}]'
    assert step.tool_call_ids == ["t1", "t2"]
    anthropic = {"role": "assistant", "content": [{"type": "tool_use", "id": "tu_9", "name": "ls", "input": {}}]}
    span = _span({"gen_ai.system": "anthropic"},
                 ("gen_ai.content.completion", {"gen_ai.completion": json.dumps([anthropic])}))
    assert (legacy.completion_text(span), legacy.completion_tool_calls(span)) == ("[tool call ls {}]", [("tu_9", "ls")])
    odd = '[{"image":  {"format": "png"}}]'  # neither text nor a tool use: kept verbatim, spaces and all
    span = _span({"gen_ai.system": "x"}, ("gen_ai.choice", {"message": odd}))
    assert legacy.completion_text(span) == odd and legacy.completion_tool_calls(span) == []


def test_choices_without_content_leave_the_output_to_say_so() -> None:
    """With content capture off, older instrumentations still write the choice event, without the text."""
    for message in ('{"role": "assistant"}', "{}", None):
        attrs = {"index": 0, "finish_reason": "stop"} | ({} if message is None else {"message": message})
        span = _span({"gen_ai.operation.name": "chat", "gen_ai.system": "openai"}, ("gen_ai.choice", attrs))
        step = classify(span)
        assert (step.content, step.finish_reason) == ("", "stop"), message


def test_the_shared_tool_call_reader_reads_bedrocks_tool_use_blocks() -> None:
    """The older conventions' tool calls are read by the importers' one reader (exports.call_form), which reads
    Bedrock's ``toolUse`` block (its id under ``toolUseId``) as it reads the other shapes."""
    from warroom.importers.exports import call_form

    bedrock = {"toolUse": {"toolUseId": "t1", "name": "disk", "input": {"host": "a"}}}
    assert call_form(bedrock) == {"id": "t1", "function": {"name": "disk", "arguments": {"host": "a"}}}
    flat = {"id": "c1", "name": "ls", "arguments": '{"path": "/"}'}  # OpenLLMetry's flattened attributes
    assert call_form(flat) == {"id": "c1", "function": {"name": "ls", "arguments": '{"path": "/"}'}}
