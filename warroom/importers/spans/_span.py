"""A trace's spans as every span importer reads them (:class:`Span`, :class:`SpanEvent`): ids as hex text, times
in nanoseconds, attributes as plain values; an id as a tracing UI shows it (:func:`span_id_hex`), and the spans
of a file grouped by trace, each trace checked for repeated ids and parent cycles (:func:`group_traces`)."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from typing import Any

from warroom.importers.kit import TraceError, warn


@dataclass
class SpanEvent:
    """A span event: its name, time (ns since the epoch) and attributes."""

    name: str
    time_ns: int
    attributes: dict[str, Any]


@dataclass
class Span:
    """One span: ids as hex text, times in ns since the epoch, attributes as plain values, its events, whether
    its status is an error (and the status message), and its resource's ``service.name``."""

    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: dict[str, Any]
    events: list[SpanEvent] = field(default_factory=list)
    error: bool = False
    status_message: str = ""
    service: str = ""
    #: The span's recorded end was before its start: ``end_ns`` is its start (the drill's ``source`` says how many).
    ended_before_start: bool = False
    #: Attributes OpenTelemetry's attribute limit dropped from the span (OTLP's ``droppedAttributesCount``).
    dropped_attributes: int = 0
    #: Its status is OK, which only the application sets (OpenTelemetry's Status): an ``exception`` event on it was
    #: handled, not an error (LangGraph's handoff ``Command``s travel as ``ParentCommand`` exceptions).
    ok: bool = False
    #: The spans it links to (OTLP span links), each as (trace id, span id).
    links: tuple[tuple[str, str], ...] = ()


_HEX = re.compile(r"^[0-9a-fA-F]*$")


def span_id_hex(value: str, size: int) -> str:
    """A trace id (``size`` 16 bytes) or span id (8 bytes) as lower-case hex. OTLP/JSON writes ids as hex, but
    protobuf's own JSON mapping (``MessageToJson`` of an export request, as some tools and scripts write it) writes
    these bytes fields as base64 (``05YzKwX9MOojztng31EJ7w==``): an id that is not hex and decodes as base64 to
    ``size`` bytes is converted, so that it is the hex id a tracing UI shows. Anything else is kept, lower-cased."""
    text = value.strip()
    if not _HEX.match(text):
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == size:
            return raw.hex()
    return text.lower()


def group_traces(spans: list[Span]) -> dict[str, list[Span]]:
    """Spans by trace id (in order of first appearance), each trace's spans sorted by start time; a span written
    twice the same (an exporter's retry) is read once, with a warning. Raises TraceError for two different spans
    with one id in a trace, or a parent cycle."""
    traces: dict[str, list[Span]] = {}
    for s in spans:
        traces.setdefault(s.trace_id, []).append(s)
    for trace_id, group in traces.items():
        by_id: dict[str, Span] = {}
        for s in group:
            if s.span_id in by_id and by_id[s.span_id] != s:
                raise TraceError(f"trace {trace_id}: span {s.span_id} is written twice with different content (a "
                                 "span id names one span): the export is damaged or joins two traces; keep one of "
                                 "them")
            if s.span_id in by_id:
                warn(f"span {s.span_id} of trace {trace_id} is written twice, the same both times (an exporter's "
                     "retry?); it is read once")
            by_id.setdefault(s.span_id, s)
        group[:] = list(by_id.values())
        _no_cycles(trace_id, by_id)
        group.sort(key=lambda s: (s.start_ns, s.end_ns))
    return traces


def _no_cycles(trace_id: str, by_id: dict[str, Span]) -> None:
    done: set[str] = set()
    for start in by_id:
        path: list[str] = []
        node: str | None = start
        while node and node in by_id and node not in done:
            if node in path:
                raise TraceError(f"trace {trace_id}: spans {' -> '.join([*path[path.index(node):], node])} are "
                                 "each other's parents (a cycle)")
            path.append(node)
            node = by_id[node].parent_id
        done.update(path)
