"""What a Langfuse observation records, read into a step: a generation's model, usage, cost and messages, a
tool's arguments and result (:mod:`._observations` says which observation is which).

- A GENERATION's model is its ``model``; its tokens its ``usageDetails`` (``input`` / ``output``, each with its
  parts Langfuse counts apart added back: ``input_cache_read``, ``output_reasoning``...; also
  ``prompt_tokens`` / ``completion_tokens``, ``input_tokens`` / ``output_tokens``), else its ``usage``
  (``input`` / ``output``, when its ``unit`` is tokens or not given), else ``promptTokens`` / ``completionTokens``;
  its cost ``costDetails`` (``input`` / ``output``, USD, with their parts likewise), else ``calculatedInputCost`` /
  ``calculatedOutputCost``, else ``usage.inputCost`` / ``outputCost``. Its ``output`` and ``input`` are read as
  messages by :mod:`warroom.importers.exports` (an OpenAI message or choices, LangChain messages, role/content lists);
  output text
  that is not messages is kept as it is.
- A tool's arguments are its ``input`` (an object as is, ``@observe``'s ``{"args": [...], "kwargs": {...}}`` as the
  keyword arguments (and ``args`` when there are any), JSON or a Python dict in text parsed, other text as
  ``{"input": TEXT}``), its result its ``output`` (a LangChain ``ToolMessage`` as its content, its ``tool_call_id``
  the call, its ``status`` error a failure), its call id ``metadata.tool_call_id``; a RETRIEVER's arguments
  are ``{"query": input}`` when the input is text and its result its documents' text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from warroom.importers.exports import (
    generation_info,
    messages,
    model_messages,
    model_said,
    recorded_prices,
    token_pair,
    tool_answer,
    tool_arguments,
)
from warroom.importers.spans import MODEL, Step, as_text, parsed_json

#: Longest input or output text decoded as JSON (:func:`decoded`); longer text is read as it is.
_MAX_DECODED = 4 * 1024 * 1024


def field(obs: dict[str, Any], name: str) -> Any:
    """``obs[name]`` in the API's camelCase, else in the Python SDK's snake_case (``startTime``, ``start_time``)."""
    if name in obs:
        return obs[name]
    return obs.get(re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower())


def decoded(value: Any) -> Any:
    """``value``, or the JSON object or array it holds when it is text of one: an input or output recorded as a
    JSON string (an OpenTelemetry attribute's text, as Langfuse's v3 SDK sends it) reads as the value it encodes."""
    return value if isinstance(value, str) and len(value) > _MAX_DECODED else parsed_json(value)


def user_text(value: Any) -> str:
    """The user's words in an input (or in the JSON text of one): its user messages, else the text itself, else its
    ``input`` / ``question`` / ``query`` / ``task`` text, else (``@observe``'s ``{"args", "kwargs"}``) the one text
    argument of the call; empty when it has none."""
    value = decoded(value)
    found = messages(value)
    text = "\n".join(m.text for m in found or [] if m.role == "user" and m.text)
    if not text and isinstance(value, str):
        text = value
    if not text and isinstance(value, dict):
        text = next((value[k] for k in ("input", "question", "query", "task") if isinstance(value.get(k), str)), "")
    if not text and value is not (call := _call_of(value)):  # @observe's {"args", "kwargs"}: its one text argument
        texts = [v for v in [*call.get("args", []), *(v for k, v in call.items() if k != "args")] if isinstance(v, str)]
        text = texts[0] if len(texts) == 1 else ""
    return text


def _pair(holder: Any, *names: tuple[str, str]) -> tuple[Any, Any]:
    """The first of the ``(input key, output key)`` pairs ``holder`` has either of, as its two values."""
    if not isinstance(holder, dict):
        return None, None
    for a, b in names:
        if holder.get(a) is not None or holder.get(b) is not None:
            return holder.get(a), holder.get(b)
    return None, None


def _with_parts(details: Any) -> Any:
    """Langfuse's ``usageDetails`` / ``costDetails`` with ``input`` and ``output`` made whole: Langfuse counts a
    prompt's cached tokens (``input_cache_read``, ``input_cached_tokens``, ...) and an answer's reasoning tokens
    (``output_reasoning``) apart from ``input`` / ``output`` (its total is the sum of every key), so those parts are
    added back (``*_priority*`` keys, a service tier rather than a part, are not)."""
    if not isinstance(details, dict) or not any(details.get(k) is not None for k in ("input", "output")):
        return details
    whole = dict(details)
    for side in ("input", "output"):
        parts = [v for k, v in details.items()
                 if k.startswith(f"{side}_") and "priority" not in k and k != f"{side}_tokens"
                 and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0]
        base = details.get(side)
        if parts and isinstance(base, (int, float)) and not isinstance(base, bool):
            whole[side] = base + sum(parts)
    return whole


def tokens(obs: dict[str, Any]) -> tuple[int | None, int | None]:
    """``(input, output)`` tokens of a generation, None when it records none (two zeros are none); ``usageDetails``
    with its cached and reasoning parts added (:func:`_with_parts`)."""
    usage = field(obs, "usage")
    unit = usage.get("unit") if isinstance(usage, dict) else None
    return token_pair([_pair(_with_parts(field(obs, "usageDetails")), ("input", "output"),
                             ("prompt_tokens", "completion_tokens"), ("input_tokens", "output_tokens")),
                       _pair(usage, ("input", "output"), ("promptTokens", "completionTokens"))
                       if unit in (None, "TOKENS") else (None, None),
                       (field(obs, "promptTokens"), field(obs, "completionTokens"))])


def _costs(obs: dict[str, Any]) -> tuple[float, float] | None:
    """``(input, output)`` USD a generation recorded, None unless it records both as numbers of at least 0."""
    usage = field(obs, "usage")
    for a, b in (_pair(_with_parts(field(obs, "costDetails")), ("input", "output")),
                 (field(obs, "calculatedInputCost"), field(obs, "calculatedOutputCost")),
                 _pair(usage, ("inputCost", "outputCost"))):
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
               for x in (a, b)):
            return float(a), float(b)
    return None


def prices(observations: Iterable[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Each model's ``(input, output)`` price in USD per million tokens, from the generations that record both
    their cost and their tokens (:func:`~warroom.importers.exports.recorded_prices`)."""
    found = []
    for obs in observations:
        if as_text(field(obs, "type")).upper() == "GENERATION" and (costs := _costs(obs)) is not None:
            found.append((as_text(field(obs, "model")), costs, tokens(obs)))
    return recorded_prices(found)


def model_step(step: Step, obs: dict[str, Any]) -> None:
    """Make ``step`` the model call a GENERATION records (see the module's docstring)."""
    step.kind = MODEL
    output, inputs = field(obs, "output"), field(obs, "input")
    step.model = as_text(field(obs, "model")).strip() or None
    step.input_tokens, step.output_tokens = tokens(obs)
    model_said(step, model_messages(decoded(output)))
    if not step.content and output is not None:
        step.content = as_text(output)
    step.inputs = user_text(inputs)
    reason = generation_info(decoded(output), "finish_reason")
    step.finish_reason = reason if isinstance(reason, str) and reason.strip() else None


def _document_text(doc: Any) -> Any:
    if isinstance(doc, dict):
        for key in ("page_content", "pageContent", "content", "text"):
            if isinstance(doc.get(key), str):
                return doc[key]
    return doc


def tool_step(step: Step, obs: dict[str, Any], kind: str) -> None:
    """Fill in the arguments, result and call id of ``step``, a tool call (a TOOL, RETRIEVER or tool-like SPAN)."""
    inputs, output = field(obs, "input"), field(obs, "output")
    if kind == "RETRIEVER":
        step.arguments = {"query": inputs} if isinstance(inputs, str) else tool_arguments(inputs)
        docs = output.get("documents") if isinstance(output, dict) else output
        step.result = [_document_text(d) for d in docs] if isinstance(docs, list) else output
    else:
        step.arguments = tool_arguments(_call_of(inputs))
        step.result = tool_answer(step, output, decoded(output))  # a ToolMessage, as Langfuse's handler dumps it
    meta = field(obs, "metadata")
    call_id = meta.get("tool_call_id") if isinstance(meta, dict) else None
    if isinstance(call_id, str) and call_id:
        step.call_id = call_id


def _call_of(inputs: Any) -> Any:
    """A function's input as ``@observe`` records it, ``{"args": [...], "kwargs": {...}}``, as its keyword
    arguments (and its positional ones as ``args`` when there are any); any other input as it is."""
    if not (isinstance(inputs, dict) and set(inputs) == {"args", "kwargs"} and isinstance(inputs["args"], list)
            and isinstance(inputs["kwargs"], dict)):
        return inputs
    return {**({"args": inputs["args"]} if inputs["args"] else {}), **inputs["kwargs"]}
