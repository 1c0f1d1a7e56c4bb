"""Trace exports recognised by shape when they are given to an importer that does not read them, so that the
refusal names them and says which importer does (LangSmith runs, Langfuse traces and observations, OpenAI Agents
SDK traces)."""

from __future__ import annotations

from typing import Any

_LANGSMITH = "LangSmith runs (`run_type`, `inputs`, `outputs`): `warroom import langsmith` reads them"
_LANGFUSE = "a Langfuse export (`observations` of type GENERATION, SPAN, EVENT): `warroom import langfuse` reads it"
_AGENTS_SDK = "OpenAI Agents SDK traces (`span_data`): `warroom import openai-agents` reads them"


#: Langfuse's observation types (the first three, and those of its SDKs' newer observation types).
_LANGFUSE_TYPES = ("GENERATION", "SPAN", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EMBEDDING", "EVALUATOR",
                   "GUARDRAIL")


def _first(doc: Any) -> Any:
    """The first item of ``doc``: of a list, of a ``data`` / ``runs`` / ``traces`` / ``observations`` list
    wrapping one, else ``doc`` itself."""
    if isinstance(doc, dict):
        for key in ("data", "runs", "traces", "observations"):
            if isinstance(doc.get(key), list) and doc[key] and key != "observations":
                return _first(doc[key])
    return doc[0] if isinstance(doc, list) and doc else doc


def unsupported_format(doc: Any) -> str | None:
    """What known export ``doc`` (parsed JSON) is, with the importer that reads it; None when it is none of them."""
    item = _first(doc)
    if not isinstance(item, dict):
        return None
    if "run_type" in item and ("inputs" in item or "outputs" in item):
        return _LANGSMITH
    if "span_data" in item or item.get("object") in ("trace", "trace.span"):
        return _AGENTS_SDK
    observations = item.get("observations")
    if (isinstance(observations, list) and observations and isinstance(observations[0], dict)
            and "type" in observations[0]) or (
            item.get("type") in _LANGFUSE_TYPES and "startTime" in item):
        return _LANGFUSE
    return None
