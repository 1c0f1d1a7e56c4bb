"""One run's traces joined: AutoGen's agent runtime opens a trace of its own for each message it publishes, linked
(an OTLP span link) to the span that created the message in the trace before, so a team's run is a chain of traces.
:func:`join_linked_runs` makes the traces its runtime's links join into one trace (one drill) of the run.

Span links are general in OpenTelemetry (a batch job's span links the requests it serves, a consumer the producer of
each message): only the links AutoGen's runtime writes are followed, from one of its messaging spans (``autogen
publish …``, ``autogen process …``, with ``messaging.operation``) to another of its messaging spans in the file.
"""

from __future__ import annotations

from warroom.importers.spans._span import Span


def _autogen_messaging(span: Span) -> bool:
    """Whether ``span`` is one of AutoGen's runtime messaging spans (``autogen create|publish|process|send|ack …``)."""
    return span.name.startswith("autogen ") and isinstance(span.attributes.get("messaging.operation"), str)


def join_linked_runs(traces: dict[str, list[Span]]) -> dict[str, list[Span]]:
    """``traces`` (by trace id, in order, each sorted by start time) with the traces AutoGen's runtime links join
    made one: under the first one's id (in ``traces``' order), their spans sorted by start time. Other traces,
    and every link of another producer, as they were."""
    messaging = {(s.trace_id, s.span_id) for group in traces.values() for s in group if _autogen_messaging(s)}
    root = {trace_id: trace_id for trace_id in traces}
    order = {trace_id: n for n, trace_id in enumerate(traces)}

    def find(trace_id: str) -> str:
        while root[trace_id] != trace_id:
            root[trace_id] = root[root[trace_id]]
            trace_id = root[trace_id]
        return trace_id

    for group in traces.values():
        for s in group:
            if not _autogen_messaging(s):
                continue
            for link in s.links:
                if link in messaging and link[0] != s.trace_id:
                    a, b = find(s.trace_id), find(link[0])
                    if a != b:
                        first, second = (a, b) if order[a] < order[b] else (b, a)
                        root[second] = first
    out: dict[str, list[Span]] = {}
    for trace_id, group in traces.items():
        out.setdefault(find(trace_id), []).extend(group)
    for group in out.values():
        group.sort(key=lambda s: (s.start_ns, s.end_ns))
    return out
