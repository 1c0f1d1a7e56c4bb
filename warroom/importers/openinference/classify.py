"""What a span is under the OpenInference conventions (Arize Phoenix and others): ``openinference.span.kind``.

Attribute names come from the ``openinference-semantic-conventions`` package. List attributes are flattened
in OTLP (``llm.output_messages.0.message.content``), and are read back by index.
"""

from __future__ import annotations

import re
from typing import Any

from openinference.semconv.trace import (
    DocumentAttributes,
    MessageAttributes,
    OpenInferenceSpanKindValues,
    SpanAttributes,
    ToolCallAttributes,
)

from warroom.importers.otlp.spans import Span
from warroom.importers.otlp.steps import MODEL, OTHER, Step, as_arguments, as_text, as_tokens
from warroom.importers.tracekit.spankinds import begin_step, mark_agent, mark_tool

_KINDS = OpenInferenceSpanKindValues
_CONSTANTS = [v for cls in (SpanAttributes, MessageAttributes, ToolCallAttributes, DocumentAttributes)
              for k, v in vars(cls).items() if k.isupper() and isinstance(v, str)]
#: Attributes the importer reads or knows (the package's names, and anything under them: flattened lists).
KNOWN = frozenset(_CONSTANTS)
_KNOWN_PREFIXES = (*(f"{v}." for v in _CONSTANTS), "exception.", "error.")


def _indexed(attrs: dict[str, Any], prefix: str, suffix: str) -> list[tuple[int, Any]]:
    """Values of the flattened ``<prefix>.<N>.<suffix>`` attributes, by N."""
    pattern = re.compile(rf"^{re.escape(prefix)}\.(\d+)\.{re.escape(suffix)}$")
    return sorted((int(m.group(1)), v) for k, v in attrs.items() if (m := pattern.match(k)))


def _messages(attrs: dict[str, Any], prefix: str, role: str | None) -> str:
    contents = dict(_indexed(attrs, prefix, MessageAttributes.MESSAGE_CONTENT))
    roles = dict(_indexed(attrs, prefix, MessageAttributes.MESSAGE_ROLE))
    return "\n".join(as_text(v) for n, v in sorted(contents.items()) if role is None or roles.get(n) == role)


def _model(span: Span, step: Step) -> None:
    a = span.attributes
    step.kind = MODEL
    step.model = as_text(a.get(SpanAttributes.LLM_MODEL_NAME)) or None
    step.input_tokens = as_tokens(a.get(SpanAttributes.LLM_TOKEN_COUNT_PROMPT))
    step.output_tokens = as_tokens(a.get(SpanAttributes.LLM_TOKEN_COUNT_COMPLETION))
    step.content = (_messages(a, SpanAttributes.LLM_OUTPUT_MESSAGES, None)
                    or as_text(a.get(SpanAttributes.OUTPUT_VALUE)))
    step.inputs = (_messages(a, SpanAttributes.LLM_INPUT_MESSAGES, "user")
                   or as_text(a.get(SpanAttributes.INPUT_VALUE)))
    pattern = re.compile(rf"^{re.escape(SpanAttributes.LLM_OUTPUT_MESSAGES)}\.\d+\."
                         rf"{re.escape(MessageAttributes.MESSAGE_TOOL_CALLS)}\.\d+\."
                         rf"{re.escape(ToolCallAttributes.TOOL_CALL_ID)}$")
    step.tool_call_ids = [as_text(v) for k, v in sorted(a.items()) if pattern.match(k) and as_text(v)]
    if not step.content:  # a turn that only calls tools: name them
        names = [as_text(v) for k, v in sorted(a.items())
                 if k.startswith(f"{SpanAttributes.LLM_OUTPUT_MESSAGES}.")
                 and k.endswith(f".{ToolCallAttributes.TOOL_CALL_FUNCTION_NAME}")]
        step.content = " ".join(f"[tool call {n}]" for n in names if n)


def classify(span: Span) -> Step:
    """The :class:`Step` of one span by its ``openinference.span.kind``: AGENT an agent, LLM a model call, TOOL and
    RETRIEVER a tool (a retriever's documents are its result), CHAIN and the rest other (a CHAIN's input may be
    the goal). What each reads is in docs/importing.md."""
    a = span.attributes
    kind = str(a.get(SpanAttributes.OPENINFERENCE_SPAN_KIND) or "").upper()
    step = begin_step(span, KNOWN, _KNOWN_PREFIXES)
    if kind == _KINDS.AGENT.value:
        mark_agent(step, span, a.get(SpanAttributes.AGENT_NAME), as_text(a.get(SpanAttributes.INPUT_VALUE)))
    elif kind == _KINDS.LLM.value:
        _model(span, step)
    elif kind in (_KINDS.TOOL.value, _KINDS.RETRIEVER.value):
        mark_tool(step, span, a.get(SpanAttributes.TOOL_NAME), a.get(ToolCallAttributes.TOOL_CALL_ID))
        raw = a.get(SpanAttributes.TOOL_PARAMETERS) if kind == _KINDS.TOOL.value else None
        value = a.get(SpanAttributes.INPUT_VALUE)
        step.arguments = as_arguments(value) if kind == _KINDS.TOOL.value else (
            {"query": value} if value is not None else {})
        if not step.arguments and raw is not None:
            step.arguments = as_arguments(raw)
        docs = _indexed(a, SpanAttributes.RETRIEVAL_DOCUMENTS, DocumentAttributes.DOCUMENT_CONTENT)
        step.result = [v for _, v in docs] if docs else a.get(SpanAttributes.OUTPUT_VALUE)
    else:
        step.kind = OTHER
        step.inputs = as_text(a.get(SpanAttributes.INPUT_VALUE)) if kind == _KINDS.CHAIN.value else ""
    return step
