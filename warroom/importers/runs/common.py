"""What the LangSmith and Langfuse importers share: their files read as JSON values, times as nanoseconds, and
one trace's records (runs, observations) turned into the :class:`~warroom.importers.otlp.spans.Span` and
:class:`~warroom.importers.otlp.steps.Step` objects that :func:`warroom.importers.otlp.build.trace_to_drill` makes
a drill of (the same drill builder as ``otel`` and ``openinference``)."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warroom.importers.otlp.spans import Span
from warroom.importers.otlp.steps import AGENT, MODEL, TOOL, Step, as_arguments
from warroom.importers.reading import json_lines, parse_json, read_text
from warroom.importers.tracekit import TraceError

#: Epoch numbers above this are nanoseconds or microseconds, not milliseconds (year 5138 in milliseconds).
_MAX_MS = 10**14
#: Epoch numbers below this are seconds, not milliseconds (in seconds, year 5138; in milliseconds, March 1973).
_MAX_S = 10**11
_TRACEBACK = "Traceback (most recent call last)"
#: Largest LangSmith or Langfuse export read, in bytes (64 MiB, checked before reading). Larger than the other
#: importers' limit (``MAX_TRACE_BYTES``, 8 MiB) because such an export is mostly what no drill copies: every model
#: run's input holds the whole conversation so far, so an agent's export grows with the square of its turns while
#: its drill (model outputs, tool calls and results) grows with their number; the drill's own 64 MiB limit still
#: holds.
MAX_EXPORT_BYTES = 64 * 1024 * 1024
#: A tool call's result when its run had not ended when the trace was exported (no end time, no output, no error).
UNFINISHED = "(no result: the tool call had not ended when the trace was exported)"
#: Most USD per million tokens a recorded cost may come to (the dearest hosted models are under 200).
MAX_PRICE = 10_000.0


def read_values(path: Path, what: str) -> list[tuple[str, Any]]:
    """The JSON values of the file at ``path``: one document, or JSON Lines (blank lines skipped; a last line cut
    off mid-write skipped with a warning: :func:`~warroom.importers.reading.json_lines`), each as ``(where,
    value)`` (``where`` is ``""`` or ``"line N: "``). ``what`` names the format in messages. Raises TraceError (one
    line) within the importers' file limits, but for the size: :data:`MAX_EXPORT_BYTES`."""
    text = read_text(path, MAX_EXPORT_BYTES, TraceError)
    try:
        return [("", parse_json(text, TraceError, what))]
    except TraceError as error:
        whole = error
    return [(f"line {n}: ", value) for n, value in json_lines(text, whole, what)]


def time_ns(value: Any, where: str) -> int:
    """A record's time as ns since the epoch: ISO 8601 text with or without a zone (none is UTC, as LangSmith
    writes it), or a number of milliseconds since the epoch (LangSmith's JavaScript SDK), or of seconds
    (Python's ``time.time()``) when it is below :data:`_MAX_S` (a time before March 1973 in milliseconds, which
    no trace has). Raises TraceError."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not 0 <= value < _MAX_MS:
            raise TraceError(f"{where} is not a time: {value!r} (milliseconds since 1970 expected)")
        return round(value * (1_000_000 if value < _MAX_S else 1000)) * 1000  # to the microsecond: floats round
    if not isinstance(value, str) or not value.strip():
        raise TraceError(f"{where} is missing (an ISO 8601 time expected)")
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise TraceError(f"{where} is not an ISO 8601 time: {value[:40]!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    ns = (delta.days * 86_400 + delta.seconds) * 10**9 + delta.microseconds * 1000
    if ns < 0:
        raise TraceError(f"{where} is before 1970: {value[:40]!r}")
    return ns


def recorded_prices(calls: Iterable[tuple[str, tuple[float, float], tuple[int | None, int | None]]]
                    ) -> dict[str, tuple[float, float]]:
    """Each model's ``(input, output)`` price in USD per million tokens from its calls that recorded their cost:
    ``calls`` are ``(model name, (input USD, output USD), (input tokens, output tokens))``; a model's costs summed
    over its tokens summed (calls without a model name or without both token counts are left out, and so is a model
    whose price would come to more than :data:`MAX_PRICE`: a cost recorded in other units)."""
    sums: dict[str, list[float]] = {}
    for model, (c_in, c_out), (n_in, n_out) in calls:
        if not model.strip() or not n_in or not n_out:
            continue
        total = sums.setdefault(model.strip(), [0.0, 0.0, 0.0, 0.0])
        for k, x in enumerate((c_in, n_in, c_out, n_out)):
            total[k] += x
    out = {}
    for model, (c_in, t_in, c_out, t_out) in sums.items():
        price = (round(c_in / t_in * 1e6, 4), round(c_out / t_out * 1e6, 4))
        if max(price) <= MAX_PRICE:
            out[model] = price
    return out


def tool_arguments(value: Any) -> dict[str, Any]:
    """A tool's input as arguments: a mapping as is; text holding a JSON object, or a Python dict as LangChain
    writes a tool's input (``str(dict)``: ``{'month': '2026-03'}``), parsed; other text as ``{"input": text}``;
    nothing as ``{}``."""
    if isinstance(value, str) and value.strip().startswith("{"):
        parsed = as_arguments(value)
        if "arguments" in parsed and len(parsed) == 1 and parsed["arguments"] == value and len(value) < 100_000:
            try:
                literal = ast.literal_eval(value.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                literal = None
            if isinstance(literal, dict) and all(isinstance(k, str) for k in literal):
                return json.loads(json.dumps(literal, default=str))
            return {"input": value}
        return parsed
    if isinstance(value, dict):
        return value
    return {} if value is None or value == "" else {"input": value}


def error_text(value: Any) -> str:
    """A recorded error as one short text: its first line, without the traceback LangSmith stores after the
    exception's repr (``TimeoutError('...')Traceback (most recent call last):...``, no newline between); empty when
    there is none."""
    if value is None or value == "":
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    glued = first.find(_TRACEBACK)  # LangChain's tracer writes the repr and the traceback with no newline between
    if glued > 0:
        first = first[:glued].rstrip()
    return first[:500] or "error (no message)"


def root_ids(parent: dict[str, str]) -> dict[str, str]:
    """Each record's root record id, by walking ``parent`` (record id to its parent's id, empty for none) up to a
    record without a parent in it; the records of a parent cycle share one root (the cycle is then refused as
    such by :func:`~warroom.importers.otlp.spans.group_traces`)."""
    out: dict[str, str] = {}
    for record in parent:
        node, seen = record, set()
        while parent.get(node) and parent[node] in parent and node not in seen:
            seen.add(node)
            node = parent[node]
        out[record] = min(seen | {node}) if node in seen else node
    return out


def looks_like(doc: Any) -> str:
    """``; it looks like ...`` naming the export ``doc`` is when another importer reads it (or none does), else
    empty (:func:`warroom.importers.unsupported.unsupported_format`)."""
    from warroom.importers.unsupported import unsupported_format

    known = unsupported_format(doc)
    if known is None and isinstance(doc, dict) and "resourceSpans" in doc:
        known = "OTLP/JSON traces: `warroom import otel` or `warroom import openinference` reads them"
    return f"; it looks like {known}" if known else ""


def nearest_agent(step: Step | None, by_id: dict[str, Step]) -> Step | None:
    """The agent step that ``step`` is or runs under (its parents by span id, a cycle ended), or None."""
    node = step
    seen: set[str] = set()
    while node is not None and node.span.span_id not in seen:
        if node.kind == AGENT:
            return node
        seen.add(node.span.span_id)
        node = by_id.get(node.span.parent_id)
    return None


def agent_above(span: Span, by_id: dict[str, Span], agents: set[str]) -> bool:
    """True when a parent of ``span`` (by span id, up to the root; a cycle ended) is one of the span ids
    ``agents``."""
    node, seen = span.parent_id, set()
    while node in by_id and node not in seen:
        if node in agents:
            return True
        seen.add(node)
        node = by_id[node].parent_id
    return False


def attach_tools(steps: list[Step]) -> int:
    """Give each tool call of one trace that no agent holds (LangGraph's ``tools`` node runs the calls apart from
    the agent that asked for them) the agent of the model call that asked for it: the latest one ending before
    it starts that asked for its call id (or, without one, its tool), made its parent. Returns how many moved."""
    by_id = {s.span.span_id: s for s in steps}
    by_call: dict[str, list[Step]] = {}  # a call id, or a tool name, to the model calls that asked for it
    for m in steps:
        if m.kind == MODEL:
            for key in {k for pair in m.tool_calls_asked for k in (f"id:{pair[0]}", f"tool:{pair[1]}")}:
                by_call.setdefault(key, []).append(m)
    moved = 0
    for tool in steps:
        if tool.kind != TOOL or nearest_agent(tool, by_id) is not None:
            continue
        key = f"id:{tool.call_id}" if tool.call_id else f"tool:{tool.tool}"
        asked = [m for m in by_call.get(key, []) if m.span.end_ns <= tool.span.start_ns]
        agent = nearest_agent(max(asked, key=lambda m: m.span.end_ns), by_id) if asked else None
        if agent is not None:
            tool.span.parent_id = agent.span.span_id
            moved += 1
    return moved
