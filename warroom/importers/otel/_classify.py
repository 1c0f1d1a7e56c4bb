"""What a span is under the OpenTelemetry GenAI semantic conventions, current and older (≤ 1.36).

Attribute names come from the ``opentelemetry-semantic-conventions`` package (``gen_ai_attributes``), never
hand-copied; the older conventions' events and flattened keys, which the package does not list, are read by
:mod:`._legacy`.
"""

from __future__ import annotations

from typing import Any

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as ga
from opentelemetry.semconv.attributes import error_attributes, server_attributes

from warroom.core.files import record_json
from warroom.importers.otel import _frameworks as frameworks
from warroom.importers.otel import _legacy as legacy
from warroom.importers.otel._messages import (
    message_call_arguments,
    message_tool_calls,
    message_tool_results,
    messages_text,
)
from warroom.importers.spans import (
    MODEL,
    OTHER,
    Span,
    Step,
    as_arguments,
    as_text,
    as_tokens,
    begin_step,
    count_unknown,
    mark_agent,
    mark_tool,
)

#: Operation names (``gen_ai.operation.name``) of each kind of span.
AGENT_OPERATIONS = ("invoke_agent", "create_agent")
MODEL_OPERATIONS = ("chat", "text_completion", "generate_content")
TOOL_OPERATIONS = ("execute_tool",)

#: Every attribute the package names (what the importer may read), and the few general ones it reads.
KNOWN = frozenset(v for k, v in vars(ga).items() if k.startswith("GEN_AI_") and isinstance(v, str)) | {
    error_attributes.ERROR_TYPE, server_attributes.SERVER_ADDRESS, server_attributes.SERVER_PORT, "operation.cost",
    frameworks.SK_FINISH_REASON,
}
#: A model call's recorded cost in USD (Pydantic AI and Logfire write it on each model span).
OPERATION_COST = "operation.cost"


#: The event that may carry a model call's messages instead of the span's attributes (GenAI conventions 1.37+).
DETAILS_EVENT = "gen_ai.client.inference.operation.details"


def _messages(span: Span, key: str) -> Any:
    """The span's ``key`` attribute (``gen_ai.input.messages``, ``gen_ai.output.messages``), else that attribute
    of its ``gen_ai.client.inference.operation.details`` event, else None."""
    if key in span.attributes:
        return span.attributes[key]
    return next((e.attributes[key] for e in span.events if e.name == DETAILS_EVENT and key in e.attributes), None)


def _model(span: Span, step: Step) -> None:
    a = span.attributes
    step.kind = MODEL
    step.model = as_text(a.get(ga.GEN_AI_RESPONSE_MODEL) or a.get(ga.GEN_AI_REQUEST_MODEL)) or None
    step.input_tokens = as_tokens(a.get(ga.GEN_AI_USAGE_INPUT_TOKENS, a.get(ga.GEN_AI_USAGE_PROMPT_TOKENS)))
    step.output_tokens = as_tokens(a.get(ga.GEN_AI_USAGE_OUTPUT_TOKENS, a.get(ga.GEN_AI_USAGE_COMPLETION_TOKENS)))
    out = _messages(span, ga.GEN_AI_OUTPUT_MESSAGES)
    step.content = messages_text(out) if out is not None else legacy.completion_text(span)
    inputs = _messages(span, ga.GEN_AI_INPUT_MESSAGES)
    step.inputs = messages_text(inputs, "user") if inputs is not None else legacy.prompt_text(span)
    step.tool_calls_asked = message_tool_calls(out) if out is not None else legacy.completion_tool_calls(span)
    step.asked_arguments = message_call_arguments(out) if out is not None else {}
    step.told = message_tool_results(inputs) if inputs is not None else []
    cost = a.get(OPERATION_COST)
    step.cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) and cost >= 0 else None
    reasons = a.get(ga.GEN_AI_RESPONSE_FINISH_REASONS)
    if isinstance(reasons, list) and reasons and isinstance(reasons[0], str) and reasons[0].strip():
        step.finish_reason = reasons[0]
    else:
        step.finish_reason = (_output_finish_reason(out) or frameworks.sk_finish_reason(span)
                              or legacy.finish_reason(span))


def _output_finish_reason(out: Any) -> str | None:
    """The ``finish_reason`` of the first output message that has one (``gen_ai.output.messages``, a JSON string or
    a list: the conventions put it on each message, and Strands Agents records it only there), else None."""
    if isinstance(out, str):
        try:
            out = record_json(out)
        except (ValueError, RecursionError):
            return None
    said = (m.get("finish_reason") for m in out if isinstance(m, dict)) if isinstance(out, list) else iter(())
    return next((r for r in said if isinstance(r, str) and r.strip()), None)


def classify(span: Span) -> Step:
    """The :class:`Step` of one span: an agent (``invoke_agent``), a model call (``chat``, ``text_completion``,
    ``generate_content``, or an older span with ``gen_ai.system`` and no operation), a tool (``execute_tool``), or
    other; without an operation name, OpenLLMetry's and Pydantic AI's agent and tool spans too
    (:mod:`._frameworks`). What each reads is in docs/importing.md."""
    listed = frameworks.with_attribute_events(span)
    framework_read = listed is not span  # its `events` attribute is read
    span = listed
    a = span.attributes
    op = a.get(ga.GEN_AI_OPERATION_NAME)
    step = begin_step(span, KNOWN, pattern=legacy.FLAT)
    framework_agent = frameworks.agent_name(span, a.get(ga.GEN_AI_AGENT_NAME)) if op is None else None
    if op in AGENT_OPERATIONS:
        inputs = _messages(span, ga.GEN_AI_INPUT_MESSAGES)
        mark_agent(step, span, a.get(ga.GEN_AI_AGENT_NAME),
                   messages_text(inputs, "user") if inputs is not None
                   else legacy.prompt_text(span) or frameworks.first_user_text(span))
        framework_read = framework_read or frameworks.PYDANTIC_MESSAGES in a
    elif op in MODEL_OPERATIONS or (op is None and (a.get(ga.GEN_AI_SYSTEM) or a.get(ga.GEN_AI_PROVIDER_NAME))):
        _model(span, step)
    elif op in TOOL_OPERATIONS and frameworks.is_adk_merged_tools(span):
        step.kind = OTHER
        step.closes_batch = True
    elif op in TOOL_OPERATIONS or (op is None and frameworks.is_tool(span, a.get(ga.GEN_AI_TOOL_NAME))):
        mark_tool(step, span, a.get(ga.GEN_AI_TOOL_NAME) or a.get(frameworks.ENTITY_NAME),
                  a.get(ga.GEN_AI_TOOL_CALL_ID))
        framework_read = True
        args = a.get(ga.GEN_AI_TOOL_CALL_ARGUMENTS)
        named = frameworks.tool_arguments(span) if args is None else None
        step.arguments = (as_arguments(args) if args is not None else named if named is not None
                          else legacy.tool_arguments(span))
        result: Any = a.get(ga.GEN_AI_TOOL_CALL_RESULT)
        result = result if result is not None else frameworks.tool_result(span)
        step.result = result if result is not None else legacy.tool_result(span)
        step.result = frameworks.content_blocks(step.result) if frameworks.is_strands(span) else step.result
        step.not_recorded = not step.arguments and step.result is None and not step.error and not span.error
        step.hands_to = frameworks.handoff_call(step.tool, step.arguments)
    elif framework_agent is not None:
        framework_read = True
        inputs = a.get(ga.GEN_AI_INPUT_MESSAGES)
        mark_agent(step, span, framework_agent,
                   messages_text(inputs, "user") if inputs is not None
                   else legacy.prompt_text(span) or frameworks.entity_input_text(span))
    else:
        step.kind = OTHER
    if framework_read:  # the frameworks' own attributes count as read only on the spans they are read from
        step.unknown = count_unknown(span, KNOWN | frameworks.KNOWN, pattern=legacy.FLAT)
    return step
