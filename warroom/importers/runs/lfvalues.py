"""What a Langfuse observation records, read into a step: a generation's model, usage, cost and messages, a
tool's arguments and result (:mod:`.langfuse` says which observation is which).

- A GENERATION's model is its ``model``; its tokens its ``usageDetails`` (``input`` / ``output``; also
  ``prompt_tokens`` / ``completion_tokens``, ``input_tokens`` / ``output_tokens``), else its ``usage``
  (``input`` / ``output``, when its ``unit`` is tokens or not given), else ``promptTokens`` / ``completionTokens``;
  its cost ``costDetails`` (``input`` / ``output``, USD), else ``calculatedInputCost`` / ``calculatedOutputCost``,
  else ``usage.inputCost`` / ``outputCost``. Its ``output`` and ``input`` are read as messages by
  :mod:`.messages` (an OpenAI message or choices, LangChain messages, role/content lists); output text that is
  not messages is kept as it is.
- A tool's arguments are its ``input`` (an object as is, JSON or a Python dict in text parsed, other text as
  ``{"input": TEXT}``), its result its ``output``, its call id ``metadata.tool_call_id``; a RETRIEVER's arguments
  are ``{"query": input}`` when the input is text and its result its documents' text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from warroom.importers.otlp.steps import MODEL, Step, as_text, as_tokens
from warroom.importers.runs import messages as msgs
from warroom.importers.runs.common import tool_arguments

#: Most USD per million tokens a recorded cost may come to (the dearest hosted models are under 200).
MAX_PRICE = 10_000.0


def field(obs: dict[str, Any], name: str) -> Any:
    """``obs[name]`` in the API's camelCase, else in the Python SDK's snake_case (``startTime``, ``start_time``)."""
    if name in obs:
        return obs[name]
    return obs.get(re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower())


def user_text(value: Any) -> str:
    """The user's words in an input: its user messages, else the text itself, else its ``input`` / ``question`` /
    ``query`` / ``task`` text; empty when it has none."""
    found = msgs.messages(value)
    text = "\n".join(m.text for m in found or [] if m.role == "user" and m.text)
    if not text and isinstance(value, str):
        text = value
    if not text and isinstance(value, dict):
        text = next((value[k] for k in ("input", "question", "query", "task") if isinstance(value.get(k), str)), "")
    return text


def _pair(holder: Any, *names: tuple[str, str]) -> tuple[Any, Any]:
    """The first of the ``(input key, output key)`` pairs ``holder`` has either of, as its two values."""
    if not isinstance(holder, dict):
        return None, None
    for a, b in names:
        if holder.get(a) is not None or holder.get(b) is not None:
            return holder.get(a), holder.get(b)
    return None, None


def tokens(obs: dict[str, Any]) -> tuple[int | None, int | None]:
    """``(input, output)`` tokens of a generation, None when it records none (two zeros are none)."""
    usage = field(obs, "usage")
    unit = usage.get("unit") if isinstance(usage, dict) else None
    pairs = [_pair(field(obs, "usageDetails"), ("input", "output"), ("prompt_tokens", "completion_tokens"),
                   ("input_tokens", "output_tokens")),
             _pair(usage, ("input", "output"), ("promptTokens", "completionTokens"))
             if unit in (None, "TOKENS") else (None, None),
             (field(obs, "promptTokens"), field(obs, "completionTokens"))]
    for a, b in pairs:
        got = as_tokens(a), as_tokens(b)
        if got != (None, None) and got != (0, 0):
            return got
    return None, None


def _costs(obs: dict[str, Any]) -> tuple[float, float] | None:
    """``(input, output)`` USD a generation recorded, None unless it records both as numbers of at least 0."""
    usage = field(obs, "usage")
    for a, b in (_pair(field(obs, "costDetails"), ("input", "output")),
                 (field(obs, "calculatedInputCost"), field(obs, "calculatedOutputCost")),
                 _pair(usage, ("inputCost", "outputCost"))):
        if all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
               for x in (a, b)):
            return float(a), float(b)
    return None


def prices(observations: Iterable[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """Each model's ``(input, output)`` price in USD per million tokens, from the generations that record both
    their cost and their tokens: their costs summed over their tokens summed (a model whose price would come to
    more than :data:`MAX_PRICE` is left out: a cost recorded in other units)."""
    sums: dict[str, list[float]] = {}
    for obs in observations:
        model, costs = as_text(field(obs, "model")).strip(), _costs(obs)
        n_in, n_out = tokens(obs)
        if as_text(field(obs, "type")).upper() != "GENERATION" or not model or costs is None or not n_in or not n_out:
            continue
        total = sums.setdefault(model, [0.0, 0.0, 0.0, 0.0])
        for k, x in enumerate((costs[0], n_in, costs[1], n_out)):
            total[k] += x
    out = {}
    for model, (c_in, t_in, c_out, t_out) in sums.items():
        price = (round(c_in / t_in * 1e6, 4), round(c_out / t_out * 1e6, 4))
        if max(price) <= MAX_PRICE:
            out[model] = price
    return out


def model_step(step: Step, obs: dict[str, Any]) -> None:
    """Make ``step`` the model call a GENERATION records (see the module's docstring)."""
    step.kind = MODEL
    output, inputs = field(obs, "output"), field(obs, "input")
    step.model = as_text(field(obs, "model")).strip() or None
    step.input_tokens, step.output_tokens = tokens(obs)
    said = [m for m in msgs.messages(output) or [] if m.role not in ("user", "system", "tool", "function")]
    step.content = "\n".join(t for m in said if (t := m.shown()))
    if not step.content and output is not None:
        step.content = as_text(output)
    step.inputs = user_text(inputs)
    step.tool_calls_asked = [(i, name) for m in said for i, name, _ in m.calls if i]
    step.tool_call_ids = [i for i, _ in step.tool_calls_asked]
    reason = msgs.generation_info(output, "finish_reason")
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
        step.arguments = tool_arguments(inputs)
        step.result = output
    meta = field(obs, "metadata")
    call_id = meta.get("tool_call_id") if isinstance(meta, dict) else None
    if isinstance(call_id, str) and call_id:
        step.call_id = call_id
