"""OTLP/JSON containers read into :class:`Span` objects, grouped by trace (shared by ``otel`` and
``openinference``).

Two containers: a document ``{"resourceSpans": [...]}`` (the OTLP/HTTP JSON body, ``opentelemetry-proto``'s
``TracesData`` in its JSON mapping), and JSON Lines, one such document per line (what the OpenTelemetry
Collector's file exporter writes). Attribute values (``AnyValue``: ``stringValue``, ``intValue`` as a string or a
number, ``doubleValue``, ``boolValue``, ``arrayValue``, ``kvlistValue``, ``bytesValue``) become plain Python values.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from warroom.importers.kit import MAX_TRACE_BYTES, TraceError, json_kind, json_lines, parse_json, read_text
from warroom.importers.spans import Span, SpanEvent, span_id_hex

#: ``Status.code`` of an error (``STATUS_CODE_ERROR``), as a number or its enum name in OTLP/JSON.
STATUS_ERROR = (2, "STATUS_CODE_ERROR")
#: ``Status.code`` OK (``STATUS_CODE_OK``): set by the application, the span completed successfully.
STATUS_OK = (1, "STATUS_CODE_OK")


def _field(obj: Any, key: str) -> Any:
    """``obj[key]`` when ``obj`` is a JSON object, else None (a field of the wrong shape reads as absent)."""
    return obj.get(key) if isinstance(obj, dict) else None


def any_value(v: Any) -> Any:
    """An OTLP/JSON ``AnyValue`` as a plain value (None for an empty or unknown one)."""
    if not isinstance(v, dict):
        return None
    for key in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        if key in v:
            return v[key]
    if "intValue" in v:
        value = v["intValue"]
        if isinstance(value, float) and not math.isfinite(value):  # NaN, Infinity: Python's json reads them
            return value  # (written as that text, as every non-finite number of a trace is)
        try:
            return int(value)
        except (TypeError, ValueError):
            return None
    if "arrayValue" in v:
        values = _field(v["arrayValue"], "values")
        return [any_value(x) for x in values] if isinstance(values, list) else []
    if "kvlistValue" in v:
        return attributes(_field(v["kvlistValue"], "values"))
    return None


def attributes(items: Any) -> dict[str, Any]:
    """A ``KeyValue`` list as a dict (items that are not ``{"key": ..., "value": ...}`` are skipped)."""
    out: dict[str, Any] = {}
    for kv in items if isinstance(items, list) else []:
        if isinstance(kv, dict) and isinstance(kv.get("key"), str):
            out[kv["key"]] = any_value(kv.get("value"))
    return out


def _nanos(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TraceError(f"{where} is not a time in nanoseconds")
    try:
        n = int(value)
    except ValueError:
        raise TraceError(f"{where} is not a time in nanoseconds: {str(value)[:40]!r}") from None
    if not 0 <= n < 2**64:
        raise TraceError(f"{where} is out of range")
    return n


def _links(raw: Any) -> tuple[tuple[str, str], ...]:
    """A span's ``links`` as (trace id, span id) pairs; a link without both ids is left out."""
    out = []
    for link in raw if isinstance(raw, list) else []:
        trace_raw, span_raw = (link.get("traceId"), link.get("spanId")) if isinstance(link, dict) else (None, None)
        if isinstance(trace_raw, str) and isinstance(span_raw, str):
            out.append((span_id_hex(trace_raw, 16), span_id_hex(span_raw, 8)))
    return tuple(out)


def _span(raw: Any, where: str, service: str) -> Span:
    if not isinstance(raw, dict):
        raise TraceError(f"{where} is a JSON {json_kind(raw)}, not a span")
    trace_raw, span_raw, parent_raw = raw.get("traceId"), raw.get("spanId"), raw.get("parentSpanId")
    trace_id = span_id_hex(trace_raw, 16) if isinstance(trace_raw, str) else ""
    span_id = span_id_hex(span_raw, 8) if isinstance(span_raw, str) else ""
    parent = span_id_hex(parent_raw, 8) if isinstance(parent_raw, str) else ""
    if not trace_id.strip("0"):
        raise TraceError(f"{where} has no traceId")
    if not span_id.strip("0"):
        raise TraceError(f"{where} has no spanId")
    start = _nanos(raw.get("startTimeUnixNano"), f"{where}.startTimeUnixNano")
    end = _nanos(raw.get("endTimeUnixNano", start), f"{where}.endTimeUnixNano")
    status_raw = raw.get("status")
    status: dict[str, Any] = status_raw if isinstance(status_raw, dict) else {}
    events_raw = raw.get("events")
    events = [SpanEvent(str(e.get("name", "")), _nanos(e.get("timeUnixNano", start), f"{where}.events[{i}]"),
                        attributes(e.get("attributes")))
              for i, e in enumerate(events_raw if isinstance(events_raw, list) else []) if isinstance(e, dict)]
    message = status.get("message")
    dropped = raw.get("droppedAttributesCount")
    span = Span(trace_id, span_id, parent.strip("0") and parent,
                str(raw.get("name", "")), start, max(start, end), attributes(raw.get("attributes")), events,
                status.get("code") in STATUS_ERROR, message if isinstance(message, str) else "", service, end < start)
    span.ok = status.get("code") in STATUS_OK
    span.links = _links(raw.get("links"))
    if isinstance(dropped, (int, str)) and str(dropped).isdigit() and str(dropped).isascii() and len(str(dropped)) < 10:
        span.dropped_attributes = int(dropped)
    return span


#: Why a document written with protobuf's original field names (``resource_spans``, ``scope_spans``, ``trace_id``)
#: is refused, and how to write the form OTLP/JSON takes.
SNAKE_CASE = (
    "an object with `resource_spans`: the snake_case field names protobuf writes with "
    "`preserving_proto_field_name=True`, which OTLP/JSON does not allow; write the camelCase form (`resourceSpans`, "
    "`scopeSpans`, `traceId`), `MessageToJson`'s default (drop `preserving_proto_field_name`)"
)


def _unwrap(doc: Any) -> Any:
    """Grafana Tempo's trace API answers: ``{"batches": [...]}`` (API v1) and ``{"trace": {"resourceSpans": [...]}}``
    (v2) as the ``{"resourceSpans": [...]}`` document they hold; anything else as it is."""
    if isinstance(doc, dict) and "resourceSpans" not in doc:
        if isinstance(doc.get("batches"), list):
            return {"resourceSpans": doc["batches"]}
        inner = doc.get("trace")
        if isinstance(inner, dict) and ("resourceSpans" in inner or "resource_spans" in inner):
            return inner  # a snake_case one is refused as such (SNAKE_CASE), not as "without resourceSpans"
    return doc


def spans_of_document(doc: Any, where: str) -> list[Span]:
    """The spans of one ``{"resourceSpans": [...]}`` document, or of a Tempo answer that holds one (``where``
    prefixes messages). Raises TraceError."""
    doc = _unwrap(doc)
    if not isinstance(doc, dict) or not isinstance(doc.get("resourceSpans"), list):
        if not isinstance(doc, dict):
            kind = f"a JSON {json_kind(doc)}"
        elif "resourceSpans" in doc:
            kind = f"`resourceSpans` is a JSON {json_kind(doc['resourceSpans'])}, not a list"
        elif "resource_spans" in doc:
            kind = SNAKE_CASE
        else:
            kind = "an object without `resourceSpans`"
        raise TraceError(f"{where}not OTLP/JSON traces: {kind}")
    out: list[Span] = []
    for i, rs in enumerate(doc["resourceSpans"]):
        rs = rs if isinstance(rs, dict) else {}
        service = attributes(_field(rs.get("resource"), "attributes")).get("service.name")
        scopes = rs.get("scopeSpans") or rs.get("instrumentationLibrarySpans") or []
        for j, ss in enumerate(scopes if isinstance(scopes, list) else []):
            spans = ss.get("spans") if isinstance(ss, dict) else None
            for k, raw in enumerate(spans if isinstance(spans, list) else []):
                out.append(_span(raw, f"{where}resourceSpans[{i}].scopeSpans[{j}].spans[{k}]",
                                 service if isinstance(service, str) else ""))
    return out


def read_spans(path: Path) -> list[Span]:
    """Every span in the OTLP/JSON file at ``path``: one document, or JSON Lines of documents (blank lines
    skipped; a last line cut off mid-write skipped with a warning: :func:`~warroom.importers.kit.json_lines`);
    or spans as the OpenTelemetry SDK's console exporter or Phoenix write them (:mod:`._sdkjson`), or a
    Jaeger export (:mod:`._jaeger`). Raises
    TraceError (one line, ``line N:`` for JSON Lines) within the importers' file limits."""
    from warroom.importers.otlp import _jaeger as jaeger
    from warroom.importers.otlp import _sdkjson as sdkjson

    text = read_text(path, MAX_TRACE_BYTES, TraceError)
    console = '"context"' in text[:4000] and '"trace_id"' in text[:4000]
    try:
        data = parse_json(text, TraceError, "OTLP/JSON")
        found = sdkjson.sdk_spans([data]) if console else None
        if found is None and jaeger.is_jaeger(data):
            found = jaeger.jaeger_spans(data)
        return found if found is not None else spans_of_document(data, "")
    except TraceError as error:
        if not str(error).startswith("not JSON"):
            raise
        whole = error
    values = sdkjson.json_values(text) if console else None  # the console exporter's objects, one after another
    found = sdkjson.sdk_spans(values) if values is not None else None
    if found is not None:
        return found
    lines = json_lines(text, whole, "OTLP/JSON")  # `whole` when it is not JSON Lines either
    found = sdkjson.sdk_spans([doc for _, doc in lines]) if console else None  # one a line, the last cut off
    if found is not None:
        return found
    out: list[Span] = []
    for n, doc in lines:
        out.extend(spans_of_document(doc, f"line {n}: "))
    return out


