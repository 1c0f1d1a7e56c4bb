"""Spans as the OpenTelemetry Python SDK's ``ConsoleSpanExporter`` writes them (``ReadableSpan.to_json()``), and as
Arize Phoenix's span JSON does: one JSON object per span, not OTLP/JSON.

The console exporter writes each span as an indented JSON object, one after the other (a file of concatenated
objects, neither one JSON value nor JSON Lines); a JSON array of them is read too. A span object::

    {"name": ..., "context": {"trace_id": "0x<32 hex>", "span_id": "0x<16 hex>"}, "parent_id": "0x..." | null,
     "start_time": "2026-03-20T09:46:40.000000Z", "end_time": ..., "status": {"status_code": "ERROR",
     "description": ...}, "attributes": {...}, "events": [{"name", "timestamp", "attributes"}],
     "resource": {"attributes": {"service.name": ...}}}

Phoenix writes ``span_kind``, ``status_code`` / ``status_message`` at the top level and nests its attributes
(``{"llm": {"model_name": ...}}``): nested objects (and lists of objects) are flattened to the dotted keys OTLP
carries (``llm.input_messages.0.message.role``); lists of plain values stay lists.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from warroom.importers.kit import TraceError
from warroom.importers.spans import Span, SpanEvent, span_id_hex

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def is_sdk_span(value: Any) -> bool:
    """Whether ``value`` is one span object of these shapes (it has ``context.trace_id``)."""
    return isinstance(value, dict) and isinstance(value.get("context"), dict) and "trace_id" in value["context"]


def json_values(text: str) -> list[Any] | None:
    """The JSON values written one after another in ``text`` (whitespace between them), or None when it is not
    that (then the caller's own error stands)."""
    decoder = json.JSONDecoder()
    out: list[Any] = []
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        try:
            value, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            return None
        out.append(value)


def _flatten(value: Any, key: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{key}.{k}" if key else str(k), out)
    elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
        for n, v in enumerate(value):
            _flatten(v, f"{key}.{n}", out)
    else:
        out[key] = value


def _nanos(value: Any, where: str) -> int:
    """A time (ISO 8601 text, UTC when it names no zone; or a number of ns) as ns since the epoch."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not 0 <= value < 2**64:
            raise TraceError(f"{where} is out of range")
        return int(value)
    if not isinstance(value, str):
        raise TraceError(f"{where} is not a time")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise TraceError(f"{where} is not a time: {value[:40]!r}") from None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    ns = (moment - _EPOCH) // _MICROSECOND * 1000
    if not 0 <= ns < 2**64:  # OTLP's range: 1970 to 2554 (9999-12-31T23:59:59-14:00 is in the year 10000 in UTC)
        raise TraceError(f"{where} is out of range: {value[:40]!r}")
    return ns


def _id(value: Any, size: int) -> str:
    text = value if isinstance(value, str) else ""
    return span_id_hex(text.removeprefix("0x"), size)


def sdk_span(raw: dict[str, Any], where: str) -> Span:
    """One span object (see the module docstring) as a :class:`Span`. Raises TraceError naming ``where``."""
    context = raw["context"]
    trace_id, span_id = _id(context.get("trace_id"), 16), _id(context.get("span_id"), 8)
    if not trace_id.strip("0"):
        raise TraceError(f"{where} has no context.trace_id")
    if not span_id.strip("0"):
        raise TraceError(f"{where} has no context.span_id")
    parent = _id(raw.get("parent_id"), 8)
    start = _nanos(raw.get("start_time"), f"{where}.start_time")
    end = _nanos(raw.get("end_time") or raw.get("start_time"), f"{where}.end_time")
    status_raw = raw.get("status")
    status: dict[str, Any] = status_raw if isinstance(status_raw, dict) else {}
    code = status.get("status_code", raw.get("status_code"))
    message = status.get("description", raw.get("status_message"))
    attributes: dict[str, Any] = {}
    _flatten(raw.get("attributes") or {}, "", attributes)
    if isinstance(raw.get("span_kind"), str):  # Phoenix: the OpenInference span kind beside the attributes
        attributes.setdefault("openinference.span.kind", raw["span_kind"])
    events = []
    events_raw = raw.get("events")
    for i, e in enumerate(events_raw if isinstance(events_raw, list) else []):
        if isinstance(e, dict):
            flat: dict[str, Any] = {}
            _flatten(e.get("attributes") or {}, "", flat)
            events.append(SpanEvent(str(e.get("name", "")), _nanos(e.get("timestamp", start),
                                                                   f"{where}.events[{i}].timestamp"), flat))
    resource = raw.get("resource")
    resource_attributes = resource.get("attributes") if isinstance(resource, dict) else None
    service = resource_attributes.get("service.name") if isinstance(resource_attributes, dict) else None
    name = raw.get("name")
    return Span(trace_id, span_id, parent.strip("0") and parent, name if isinstance(name, str) else "", start,
                max(start, end),
                attributes, events, str(code).upper() in ("ERROR", "STATUSCODE.ERROR", "2"),
                message if isinstance(message, str) else "", service if isinstance(service, str) else "", end < start)


def sdk_spans(values: list[Any]) -> list[Span] | None:
    """The spans of ``values`` (span objects, or arrays of them), or None when any value is something else."""
    items = [v for value in values for v in (value if isinstance(value, list) else [value])]
    if not items or not all(is_sdk_span(v) for v in items):
        return None
    return [sdk_span(v, f"span {n}") for n, v in enumerate(items)]


_MICROSECOND = datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC) - _EPOCH
