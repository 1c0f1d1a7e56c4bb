"""Traces as Jaeger's UI and query API export them (``Download JSON``): ``{"data": [{"traceID", "spans", ...}]}``.

A Jaeger span: ``traceID`` / ``spanID`` hex, ``operationName``, ``references`` (``CHILD_OF`` / ``FOLLOWS_FROM`` a
span), ``startTime`` and ``duration`` in microseconds, ``tags`` (``{key, type, value}``: the span's attributes),
``logs`` (``{timestamp, fields}``: its events, named by the ``event`` field) and ``processID`` (a key of the trace's
``processes``, whose ``serviceName`` is the service). An OpenTelemetry span exported to Jaeger keeps its status in
the ``otel.status_code`` / ``otel.status_description`` tags (older clients: ``error: true``).
"""

from __future__ import annotations

import re
from typing import Any

from warroom.importers.kit import TraceError
from warroom.importers.spans import Span, SpanEvent, span_id_hex

#: Tags Jaeger derives from the span itself (status, kind, scope), not the span's attributes.
_SPAN_TAGS = frozenset({"otel.status_code", "otel.status_description", "error", "span.kind", "otel.scope.name",
                        "otel.scope.version", "otel.library.name", "otel.library.version", "internal.span.format"})


def is_jaeger(doc: Any) -> bool:
    """Whether ``doc`` is a Jaeger export (``{"data": [{"spans": [...]}, ...]}``)."""
    data = doc.get("data") if isinstance(doc, dict) else None
    return isinstance(data, list) and bool(data) and all(isinstance(t, dict) and "spans" in t for t in data)


#: An int64 tag's text: ASCII digits (``str.isdigit`` takes ``²``, which ``int`` refuses, and 5,000 digits).
_INT64 = re.compile(r"-?[0-9]{1,19}")


def _tags(items: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for t in items if isinstance(items, list) else []:
        if isinstance(t, dict) and isinstance(t.get("key"), str):
            value = t.get("value")
            if t.get("type") == "int64" and isinstance(value, str) and _INT64.fullmatch(value):
                value = int(value)
            out[t["key"]] = value
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _micros(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 2**64 // 1000:
        raise TraceError(f"{where} is not a time in microseconds")
    return int(value) * 1000


def _span(raw: Any, where: str, services: dict[str, str]) -> Span:
    if not isinstance(raw, dict):
        raise TraceError(f"{where} is not a span")
    trace_id = span_id_hex(str(raw.get("traceID") or ""), 16)
    span_id = span_id_hex(str(raw.get("spanID") or ""), 8)
    if not trace_id.strip("0") or not span_id.strip("0"):
        raise TraceError(f"{where} has no traceID or spanID")
    refs = [r for r in _list(raw.get("references")) if isinstance(r, dict)]
    parent_ref = next((r for r in refs if r.get("refType") == "CHILD_OF"), refs[0] if refs else None)
    parent = span_id_hex(str(parent_ref.get("spanID") or ""), 8) if parent_ref else ""
    start = _micros(raw.get("startTime"), f"{where}.startTime")
    end = start + _micros(raw.get("duration", 0), f"{where}.duration")
    tags = _tags(raw.get("tags"))
    events = []
    for i, log in enumerate(_list(raw.get("logs"))):
        if isinstance(log, dict):
            fields = _tags(log.get("fields"))
            events.append(SpanEvent(str(fields.pop("event", "log")), _micros(log.get("timestamp", 0),
                                                                            f"{where}.logs[{i}].timestamp"), fields))
    error = str(tags.get("otel.status_code", "")).upper() == "ERROR" or tags.get("error") in (True, "true")
    message = tags.get("otel.status_description")
    name = raw.get("operationName")
    attributes = {k: v for k, v in tags.items() if k not in _SPAN_TAGS}
    return Span(trace_id, span_id, parent.strip("0") and parent, name if isinstance(name, str) else "", start, end,
                attributes, events, error, message if isinstance(message, str) else "",
                services.get(str(raw.get("processID")), ""))


def jaeger_spans(doc: dict[str, Any]) -> list[Span]:
    """Every span of a Jaeger export (see the module docstring). Raises TraceError naming the span at fault."""
    out: list[Span] = []
    for i, trace in enumerate(doc["data"]):
        processes = trace.get("processes") if isinstance(trace.get("processes"), dict) else {}
        services = {k: str(p.get("serviceName", "")) for k, p in processes.items() if isinstance(p, dict)}
        spans = trace.get("spans")
        for j, raw in enumerate(spans if isinstance(spans, list) else []):
            out.append(_span(raw, f"data[{i}].spans[{j}]", services))
    return out
