"""An OTLP/JSON file's traces as drills, whatever the attribute convention: the spans read
(:func:`~warroom.importers.otlp.read_spans`), grouped by trace, each span classified by the importer's convention,
and each trace made a drill by the span importers' builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.importers.kit import TraceOptions
from warroom.importers.otlp._document import read_spans
from warroom.importers.spans import Classifier, group_traces, pick_trace, span_drill, trace_to_drill


def convert_otlp_file(path: Path, classify: Classifier, prefix: str, convention: str,
                      options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every trace in the OTLP/JSON file at ``path`` as ``(drill data, header)``, ``classify`` saying what each
    span is; ``prefix`` starts the drill ids (``otel``), ``convention`` names the attribute set in the text; only
    the trace ``options.trace_id`` when given. Raises TraceError (one line)."""
    options = options or TraceOptions()
    path = Path(path)
    traces = pick_trace(group_traces(read_spans(path)), options.trace_id)
    several = len(traces) > 1
    return [span_drill(trace_to_drill(spans, classify, options=options), path, trace_id, i if several else None,
                   prefix, convention, options)
            for i, (trace_id, spans) in enumerate(traces.items())]
