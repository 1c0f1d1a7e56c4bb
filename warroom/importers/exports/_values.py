"""The values the export importers (``langsmith``, ``langfuse``, ``openai-agents``) read alike: their files as
JSON values (:func:`read_values`, within :data:`MAX_EXPORT_BYTES`), times as nanoseconds (:func:`time_ns`), recorded
costs as prices (:func:`recorded_prices`), a tool's input as arguments (:func:`tool_arguments`), an error as one
short text (:func:`error_text`), and an export's first record, by which its format is recognised
(:func:`first_record`)."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warroom.core.files import record_json
from warroom.importers.kit import TraceError, json_lines, parse_json, read_text
from warroom.importers.spans import as_arguments, as_tokens

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
    off mid-write skipped with a warning: :func:`~warroom.importers.kit.json_lines`), each as ``(where,
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
    if ns >= 2**64:  # past 2554, where OTLP's nanoseconds end (9999-12-31T23:59:59-14:00 is in the year 10000 in UTC)
        raise TraceError(f"{where} is out of range (after 2554): {value[:40]!r}")
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


def token_pair(pairs: Iterable[tuple[Any, Any]]) -> tuple[int | None, int | None]:
    """The first of the recorded ``(input, output)`` token counts ``pairs`` that records any (each read by
    :func:`~warroom.importers.spans.as_tokens`; two zeros are none), else ``(None, None)``."""
    for a, b in pairs:
        got = as_tokens(a), as_tokens(b)
        if got != (None, None) and got != (0, 0):
            return got
    return None, None


def tool_arguments(value: Any) -> dict[str, Any]:
    """A tool's input as arguments: a mapping as is; text holding a JSON object, or a Python dict as LangChain
    writes a tool's input (``str(dict)``: ``{'month': '2026-03'}``), parsed; other text as ``{"input": text}``;
    nothing as ``{}``."""
    if isinstance(value, str) and value.strip().startswith("{"):
        parsed = as_arguments(value)
        if "arguments" in parsed and len(parsed) == 1 and parsed["arguments"] == value:
            literal = python_literal(value)
            if isinstance(literal, dict) and all(isinstance(k, str) for k in literal):
                return literal
            return {"input": value}
        return parsed
    if isinstance(value, dict):
        return value
    return {} if value is None or (isinstance(value, str) and not value.strip()) else {"input": value}


#: Longest text read as a Python literal (``ast.literal_eval`` of more is slow).
MAX_LITERAL = 100_000


def returned_value(value: Any, *, json_text: bool) -> Any:
    """A tool's result a framework recorded as Python's ``str()`` of what the tool returned (the OpenAI Agents SDK's
    function span ``output``, Agno's through OpenInference: ``{'status': 'ok', 'duplicates': []}``) as that list or
    dict, so that a field path reaches it: a Python list or dict literal parsed (:func:`python_literal`); JSON text
    parsed when ``json_text``, else kept as its text (the span importers keep it verbatim and read it by its value
    later); JSON giving a key twice, other text and a value that is not text as they are."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text or text[0] not in "[{":
        return value
    try:
        parsed = record_json(text)
    except (ValueError, RecursionError):  # not JSON (or a key given twice): perhaps a Python literal
        literal = python_literal(text)
        return value if literal is None else literal
    return parsed if json_text else value


def python_literal(text: str) -> Any:
    """``text`` read as a Python list or dict literal, as frameworks write a value with ``str()`` (``{'month':
    '2026-03'}``), made JSON-ready (what JSON cannot hold as its text); None when it is not one, is longer than
    :data:`MAX_LITERAL`, or a dict in it gives one key twice (Python keeps the last copy, silently: such a value has
    no one reading, and is kept as its text, as JSON text doing so is) or has a key that is not text (JSON's keys
    are text: ``{(1, 2): 3}`` has none, and ``{1: 'x', '1': 'y'}`` or ``{1: 'x', 1.0: 'y'}`` would give one twice)."""
    if len(text) > MAX_LITERAL:
        return None
    try:
        tree = ast.parse(text.strip(), mode="eval")
        literal = ast.literal_eval(tree) if _text_keys(tree) else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(literal, (list, dict)):
        return None
    return json.loads(json.dumps(literal, default=str))


def _text_keys(tree: ast.AST) -> bool:
    """Whether every key of every dict display in ``tree`` (a parsed Python literal) is a text constant, none given
    twice."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else None for k in node.keys]
            if None in keys or len(keys) != len(set(keys)):
                return False
    return True


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


def first_record(value: Any) -> Any:
    """The first record of an export's JSON value (how its format is recognised): the first item of a list, or of
    the ``data`` / ``runs`` / ``traces`` list an object wraps its records in; else ``value`` itself."""
    if isinstance(value, dict):
        for key in ("data", "runs", "traces"):
            if isinstance(value.get(key), list) and value[key]:
                return first_record(value[key])
    return value[0] if isinstance(value, list) and value else value
