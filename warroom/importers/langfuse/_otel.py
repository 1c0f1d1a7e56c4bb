"""Langfuse SDK v3+ spans: OpenTelemetry spans with ``langfuse.observation.*`` attributes (OTLP/JSON, as the SDK
sends them to Langfuse's OTLP endpoint or a Collector forwards them) read back as the observations Langfuse makes of
them, so that they import as an API export does (docs/importing.md, "`warroom import langfuse`")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from warroom.importers.spans import parsed_json

#: Each observation field and the span attribute the SDK writes it in (its ``LangfuseOtelSpanAttributes``).
FIELDS = {
    "input": "langfuse.observation.input",
    "output": "langfuse.observation.output",
    "model": "langfuse.observation.model.name",
    "usageDetails": "langfuse.observation.usage_details",
    "costDetails": "langfuse.observation.cost_details",
    "level": "langfuse.observation.level",
    "statusMessage": "langfuse.observation.status_message",
    "metadata": "langfuse.observation.metadata",
}
TYPE = "langfuse.observation.type"


def _iso(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, UTC).isoformat()


def _metadata_value(value: Any) -> Any:
    """A flattened metadata attribute's value: JSON text (of a string too: ``"call_1"``) decoded; text that is not
    JSON as it is written."""
    decoded = parsed_json(f"[{value}]") if isinstance(value, str) and value[:1] == '"' else None
    return decoded[0] if isinstance(decoded, list) and len(decoded) == 1 else parsed_json(value)


def otel_observations(path: Path) -> list[dict[str, Any]] | None:
    """The observations of the file at ``path`` when it holds Langfuse SDK spans (an OTLP container whose spans
    name their ``langfuse.observation.type``), else None. Raises TraceError for a file of spans that do not read."""
    from warroom.importers.kit import file_values
    from warroom.importers.otlp import read_spans, span_convention

    if span_convention(file_values(path)) != "langfuse":
        return None
    out = []
    for span in read_spans(path):
        a = span.attributes
        obs: dict[str, Any] = {
            "id": span.span_id, "traceId": span.trace_id, "parentObservationId": span.parent_id or None,
            "type": str(a.get(TYPE) or "span").upper(), "name": span.name,
            "startTime": _iso(span.start_ns), "endTime": _iso(span.end_ns),
        }
        for key, attribute in FIELDS.items():
            if attribute in a:
                json_text = key in ("usageDetails", "costDetails", "metadata")
                obs[key] = parsed_json(a[attribute]) if json_text else a[attribute]
        prefix = FIELDS["metadata"] + "."  # the SDK flattens metadata: one attribute per key, its value JSON text
        flat = {k[len(prefix):]: _metadata_value(v) for k, v in a.items() if k.startswith(prefix)}
        if flat:
            meta = obs.get("metadata")
            obs["metadata"] = {**(meta if isinstance(meta, dict) else {}), **flat}
        if span.error and "level" not in obs:
            obs["level"], obs["statusMessage"] = "ERROR", span.status_message or "error status (no message)"
        out.append(obs)
    return out
