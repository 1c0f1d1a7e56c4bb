"""OTLP/JSON files converted."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from warroom.importers.kit import ImportReport, Progress, TraceOptions, import_files
from warroom.importers.otlp._document import read_spans
from warroom.importers.spans import Classifier, group_traces, pick_trace, span_drill, trace_to_drill

SUFFIXES = (".json", ".jsonl")


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


def import_otlp(paths: Iterable[Path], out_dir: Path, classify: Classifier, prefix: str, convention: str,
                options: TraceOptions | None = None, *, force: bool = False, progress: Progress | None = None
                ) -> ImportReport:
    """Convert every OTLP/JSON file (``*.json``, ``*.jsonl``) under ``paths`` into drills in ``out_dir``;
    ``progress`` is told after each file."""
    return import_files(paths, out_dir, lambda p: convert_otlp_file(p, classify, prefix, convention, options),
                        suffixes=SUFFIXES, force=force, redactor=options.redactor if options else None,
                        progress=progress)
