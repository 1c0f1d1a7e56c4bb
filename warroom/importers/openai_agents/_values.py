"""What an OpenAI Agents SDK span's ``span_data`` records, read into a step (:mod:`._spans` says which span is
which): a generation's or a response's model call, a function's tool call and result, a span's error.

- ``generation`` (Chat Completions models, LiteLLM): ``model``; ``usage`` (``input_tokens`` / ``output_tokens``,
  also ``prompt_tokens`` / ``completion_tokens``; two zeros are none); ``output`` the model's messages
  (``ChatCompletionMessage`` dumps: ``content``, ``tool_calls``), or, for a streamed call, the ``Response`` the SDK
  assembled from the chunks (``[{"object": "response", "output": [...]}]``, read as a ``response`` span's);
  ``input`` the messages sent (its ``user`` ones).
- ``response`` (the Responses API, the SDK's default): ``span.export()`` keeps only ``response_id`` and ``usage``;
  a processor that keeps the ``Response`` itself (``response``: ``model``, ``output`` items, ``usage``) and the
  ``input`` gives the model, its ``message`` / ``function_call`` / ``reasoning`` / hosted-tool output items and
  the user's words.
- ``function``: ``input`` (the arguments, JSON text), ``output`` (``str()`` of what the function returned: JSON or
  a Python literal is read back as the value, other text kept).
- ``error`` (any span): ``{"message", "data"}``, shown as ``MESSAGE: data.error`` (else ``MESSAGE (data)``).
"""

from __future__ import annotations

import json
from typing import Any

from warroom.importers.exports import (
    Message,
    error_text,
    message,
    messages,
    model_messages,
    model_said,
    token_pair,
)
from warroom.importers.spans import MODEL, Step, as_text


def span_error(value: Any) -> str:
    """A span's ``error`` (``{"message": ..., "data": {...}}``) as one short text; empty when there is none."""
    if value is None or value == "" or value == {}:
        return ""
    if not isinstance(value, dict):
        return error_text(value)
    message = as_text(value.get("message")).strip()
    data = value.get("data")
    detail = data.get("error") if isinstance(data, dict) else None
    if isinstance(detail, str) and detail.strip():
        text = f"{message}: {detail.strip()}" if message else detail.strip()
    elif isinstance(data, dict) and data:
        text = f"{message} ({json.dumps(data, ensure_ascii=False, default=str)})".strip()
    else:
        text = message
    return error_text(text) or "error (no message)"


def _usage(usage: Any) -> tuple[int | None, int | None]:
    """``(input, output)`` tokens of a ``usage`` object; None for none recorded (two zeros are none)."""
    if not isinstance(usage, dict):
        return None, None
    return token_pair((usage.get(a), usage.get(b))
                      for a, b in (("input_tokens", "output_tokens"), ("prompt_tokens", "completion_tokens")))


def user_texts(value: Any) -> list[str]:
    """The ``user`` messages' texts in a model call's input (chat messages or Responses input items), or the input
    itself when it is text."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [m.text for m in messages(value) or [] if m.role == "user" and m.text]


def generation_step(step: Step, data: dict[str, Any]) -> None:
    """Make ``step`` the model call a ``generation`` span records (see the module's docstring)."""
    step.kind = MODEL
    step.model = as_text(data.get("model")).strip() or None
    step.input_tokens, step.output_tokens = _usage(data.get("usage"))
    output = data.get("output")
    streamed = _responses(output)
    if streamed:  # a streamed Chat Completions call records the Response the SDK assembled from the chunks
        model_said(step, [m for r in streamed for m in _output_items(r.get("output"))])
        step.model = step.model or as_text(streamed[-1].get("model")).strip() or None
        if (step.input_tokens, step.output_tokens) == (None, None):
            step.input_tokens, step.output_tokens = _usage(streamed[-1].get("usage"))
    else:
        model_said(step, model_messages(output))
    if not step.content and not step.tool_calls_asked and output not in (None, [], {}):
        step.content = as_text(output)
    step.inputs = "\n".join(user_texts(data.get("input")))


def _responses(output: Any) -> list[dict[str, Any]]:
    """The ``Response`` objects (``"object": "response"``) a generation's ``output`` list holds, as the SDK's Chat
    Completions model records a streamed call; empty for any other output."""
    if isinstance(output, list) and output and all(isinstance(r, dict) and r.get("object") == "response"
                                                   for r in output):
        return output
    return []


def _output_items(items: Any) -> list[Message]:
    """A Response's ``output`` items as the model's messages, read as the exports read them
    (:func:`~warroom.importers.exports.message`: a ``message`` item's text, its role the model's unless it names
    one, a ``function_call`` a tool call, a ``reasoning`` item's summary ``[reasoning] TEXT``); any other item (a
    hosted tool's call, a call without a name) ``[TYPE]``."""
    out: list[Message] = []
    for item in items if isinstance(items, list) else []:
        kind = item.get("type") if isinstance(item, dict) else None
        said = kind == "message" or (kind is None and isinstance(item, dict) and "role" in item)
        read = message({**item, "role": item.get("role") or "assistant"} if said else item) \
            if said or kind in ("function_call", "reasoning") else None
        if read is not None and (read.text or read.calls):
            out.append(read)
        elif isinstance(kind, str) and kind not in ("message", "reasoning"):
            out.append(Message("assistant", f"[{kind}]"))
    return out


def response_step(step: Step, data: dict[str, Any]) -> bool:
    """Make ``step`` the model call a ``response`` span records; returns whether the span holds the response's
    output (``span.export()`` keeps only its id and usage)."""
    step.kind = MODEL
    response = data.get("response")
    response = response if isinstance(response, dict) else {}
    step.model = as_text(response.get("model")).strip() or None
    step.input_tokens, step.output_tokens = _usage(data.get("usage"))
    if (step.input_tokens, step.output_tokens) == (None, None):
        step.input_tokens, step.output_tokens = _usage(response.get("usage"))
    model_said(step, _output_items(response.get("output")))
    step.inputs = "\n".join(user_texts(data.get("input")))
    return "output" in response
