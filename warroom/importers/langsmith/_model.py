"""What a LangSmith model run (``run_type`` llm) and tool run (tool, retriever) record, read into a step.

A model run's messages: its ``outputs`` as LangChain's ``generations``, OpenAI's ``choices`` or a message, and its
``inputs`` as LangChain's ``messages`` (:mod:`warroom.importers.exports`). Its model: ``outputs.llm_output.model_name``
or the
response's metadata (the model that answered), else ``extra.invocation_params`` (``model`` / ``model_name``) or
``extra.metadata.ls_model_name`` (the model asked for). Its tokens: the run's ``prompt_tokens`` /
``completion_tokens``, else ``outputs.llm_output.token_usage``, else the message's ``usage_metadata``
(``input_tokens`` / ``output_tokens``), else OpenAI's ``outputs.usage``. Its cost: the run's ``prompt_cost`` /
``completion_cost`` (USD, numbers or text), which make the model's recorded price.
A tool run's arguments are its ``inputs`` (``{"input": ...}`` unwrapped) and its result its ``outputs``
(``{"output": ...}`` unwrapped; a LangChain ``ToolMessage`` as its content, its ``tool_call_id`` the call it
answers, its ``status`` error a failed result); a retriever's result is its documents' ``page_content``.
"""

from __future__ import annotations

import math
from typing import Any

from warroom.importers.exports import (
    generation_info,
    messages,
    model_messages,
    model_said,
    token_pair,
    tool_answer,
    tool_arguments,
)
from warroom.importers.spans import MODEL, Step, as_text, command_handoff


def _get(value: Any, *keys: str) -> Any:
    """``value[k1][k2]...`` through JSON objects, None when any is missing or not an object."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _model_name(run: dict[str, Any]) -> str | None:
    outputs = run.get("outputs")
    for value in (_get(outputs, "llm_output", "model_name"), generation_info(outputs, "model_name"),
                  generation_info(outputs, "model"), _get(outputs, "model"),
                  _get(run, "extra", "invocation_params", "model"),
                  _get(run, "extra", "invocation_params", "model_name"),
                  _get(run, "extra", "metadata", "ls_model_name")):
        if isinstance(value, str) and value.strip():
            return value
    return None


def _tokens(run: dict[str, Any]) -> tuple[int | None, int | None]:
    """``(input, output)`` tokens of a model run (None when it records none; a run's two zeros are none)."""
    outputs = run.get("outputs")
    pairs = [(run.get("prompt_tokens"), run.get("completion_tokens")),
             (_get(outputs, "llm_output", "token_usage", "prompt_tokens"),
              _get(outputs, "llm_output", "token_usage", "completion_tokens"))]
    usage = generation_info(outputs, "usage_metadata") or _get(outputs, "usage_metadata")
    if isinstance(usage, dict):
        pairs.append((usage.get("input_tokens"), usage.get("output_tokens")))
    usage = _get(outputs, "usage")
    if isinstance(usage, dict):
        pairs.append((usage.get("prompt_tokens", usage.get("input_tokens")),
                      usage.get("completion_tokens", usage.get("output_tokens"))))
    return token_pair(pairs)


def _usd(value: Any) -> float | None:
    """A recorded cost in USD: a number, or text of one (a ``Decimal`` as ``run.dict()`` dumped with ``str`` writes
    it); None unless it is finite and at least 0."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    return None


def costs(run: dict[str, Any]) -> tuple[float, float] | None:
    """``(input, output)`` USD that LangSmith recorded for a model run (``prompt_cost`` / ``completion_cost``),
    None unless it records both."""
    pair = _usd(run.get("prompt_cost")), _usd(run.get("completion_cost"))
    return None if pair[0] is None or pair[1] is None else (pair[0], pair[1])


def model_step(step: Step, run: dict[str, Any]) -> None:
    """Make ``step`` the model call that the run ``run`` (``run_type`` llm) records (see the module's docstring)."""
    step.kind = MODEL
    outputs, inputs = run.get("outputs"), run.get("inputs")
    step.model = _model_name(run)
    step.input_tokens, step.output_tokens = _tokens(run)
    model_said(step, model_messages(outputs))
    if not step.content and outputs not in (None, {}, []):
        step.content = as_text(_unwrap(outputs, "output"))  # a @traceable function's text, kept as {"output": ...}
    heard = messages(inputs) or []
    step.inputs = "\n".join(m.text for m in heard if m.role == "user" and m.text)
    if not step.inputs and isinstance(inputs, dict) and isinstance(inputs.get("prompts"), list):
        step.inputs = "\n".join(p for p in inputs["prompts"] if isinstance(p, str))
    if not step.inputs and isinstance(inputs, dict):  # OpenAI's Responses API (`input`), completions (`prompt`)
        step.inputs = next((inputs[k] for k in ("input", "prompt") if isinstance(inputs.get(k), str)), "")
    reason = generation_info(outputs, "finish_reason") or generation_info(outputs, "stop_reason")
    step.finish_reason = reason if isinstance(reason, str) and reason.strip() else None


def _unwrap(value: Any, key: str) -> Any:
    """``value[key]`` when ``value`` is an object holding only ``key`` (LangChain's ``{"input": ...}``)."""
    return value[key] if isinstance(value, dict) and set(value) == {key} else value


def tool_step(step: Step, run: dict[str, Any], run_type: str) -> None:
    """Fill in the arguments and result of ``step``, a tool call (``run_type`` tool or retriever)."""
    inputs, outputs = run.get("inputs"), run.get("outputs")
    if run_type == "retriever":
        query = _get(inputs, "query")
        step.arguments = {"query": query} if query is not None else tool_arguments(inputs)
        docs = _get(outputs, "documents")
        step.result = [d.get("page_content") if isinstance(d, dict) else d for d in docs] \
            if isinstance(docs, list) else outputs
        return
    step.arguments = tool_arguments(_unwrap(inputs, "input"))
    step.arguments_hidden = inputs == {}  # LANGSMITH_HIDE_INPUTS: a tool run's inputs are {"input": ...} otherwise
    result = _unwrap(outputs, "output")
    result = tool_answer(step, result, result)
    call_id = _get(inputs, "tool_call_id") or _get(run, "extra", "metadata", "tool_call_id")
    if not step.call_id and isinstance(call_id, str) and call_id:
        step.call_id = call_id
    step.result = None if result in (None, {}, "") and step.error else result  # a failed run's outputs: {} or none
    command_handoff(step, step.result)
    hidden = outputs == {} or (outputs is None and inputs in (None, {}))  # a tool run's outputs are {"output": ...}
    if hidden and not step.error and run.get("end_time") not in (None, ""):
        # LANGSMITH_HIDE_OUTPUTS sends them as {} (LANGSMITH_HIDE_INPUTS the inputs): not recorded, not an empty result
        step.not_recorded = True
