"""TRAIL-style annotations: span-level error annotations of OpenTelemetry traces (the TRAIL benchmark, "Trace
Reasoning and Agentic Issue Localization", Patronus AI, MIT License), made into the answer key of the trace's drill
by ``warroom import otel|openinference --ground-truth FILE`` (docs/importing.md, "Annotated failure datasets").

An annotation file is one record or a list of records: ``{"trace_id": ID, "errors": [{"category", "location":
SPAN_ID, "evidence", "description", "impact": "HIGH" | "MEDIUM" | "LOW"}]}``. The error that keys the drill is the
first of the highest impact (in trace order); the others are listed in the debrief.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from warroom.importers.kit import Annotation, TraceError, json_kind, parse_json, read_text

#: TRAIL's error categories (lower case) -> the drill's fault kind; any other is ``other``.
CATEGORY_KINDS = {
    "language-only": "fabricated_result",
    "tool-related": "fabricated_result",
    "tool output misinterpretation": "tool_output_misread",
    "tool selection errors": "wrong_tool",
    "tool definition issues": "environment_setup_failed",
    "environment setup errors": "environment_setup_failed",
    "rate limiting": "rate_limit_swallowed",
    "authentication errors": "http_error_ignored",
    "service errors": "http_error_ignored",
    "resource not found": "http_error_ignored",
    "resource exhaustion": "runaway_loop",
    "resource abuse": "runaway_loop",
    "timeout issues": "timeout_as_empty",
    "context handling failures": "constraint_dropped",
    "task orchestration errors": "dropped_handoff",
}
IMPACT = {"HIGH": 0, "MEDIUM": 1, "LOW": 2}
MAX_ANNOTATION_BYTES = 16 * 1024 * 1024


def is_trail(value: Any) -> bool:
    """Whether ``value`` (an annotation file's JSON) has TRAIL's shape: records with ``errors`` of ``location``s."""
    records = value if isinstance(value, list) else [value]
    return bool(records) and all(isinstance(r, dict) and isinstance(r.get("errors"), list) for r in records)


def read_trail(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The errors of the TRAIL-style file at ``path`` by trace id (lower case; ``""`` for a record naming none).
    Raises TraceError when the file has another shape."""
    try:
        data = parse_json(read_text(path, MAX_ANNOTATION_BYTES, TraceError), TraceError, "an annotation file")
    except TraceError as e:
        raise TraceError(f"{path}: {e}") from None
    if not is_trail(data):
        raise TraceError(f"{path}: not TRAIL-style annotations (records with `errors`, each error's `location` "
                         f"a span id); it is a JSON {json_kind(data)} of another shape")
    out: dict[str, list[dict[str, Any]]] = {}
    for record in data if isinstance(data, list) else [data]:
        key = str(record.get("trace_id") or "").strip().lower()
        out.setdefault(key, []).extend(e for e in record["errors"] if isinstance(e, dict))
    return out


def trail_annotation(errors: list[dict[str, Any]], span_events: dict[str, list[str]], order: dict[str, int]
                     ) -> Annotation:
    """The annotation of a trace's ``errors``: the first error of the highest impact whose ``location`` is a span
    that became events (``span_events``; ``order``: event id -> trace index) keys it. Raises TraceError when none
    does."""
    placed = []
    for e in errors:
        events = span_events.get(str(e.get("location") or "").strip().lower(), [])
        if events:
            placed.append((IMPACT.get(str(e.get("impact")).upper(), 3), min(order[x] for x in events), e, events))
    if not placed:
        raise TraceError("no annotated error is at a span of this trace that became a trace event (each error's "
                         "`location` is a span id)")
    placed.sort(key=lambda p: (p[0], p[1]))
    _, _, chosen, events = placed[0]
    category = str(chosen.get("category") or "")
    kind = CATEGORY_KINDS.get(category.strip().lower(), "other")
    description = str(chosen.get("description") or category or "an annotated error")
    evidence = events[-1:]  # the span's last event: a tool span's result, a model span's output
    lines = [f"The annotators put an error of impact {chosen.get('impact', '?')} at span {chosen.get('location')} "
             f"({', '.join(events)}): {description}", "",
             f"Category: {category or 'none given'}, read as the fault kind {kind}."]
    if chosen.get("evidence"):
        lines += ["", f"Their evidence: {chosen['evidence']}"]
    others = placed[1:]
    if others:
        lines += ["", "The other errors they found:"]
        lines += [f"- span {p[2].get('location')} ({p[2].get('category')}, {p[2].get('impact')}): "
                  f"{p[2].get('description')}" for p in others]
    first = re.split(r"(?<=[.!?])\s", description.strip(), maxsplit=1)[0]
    return Annotation(tuple(evidence), kind, first if first.endswith((".", "!", "?")) else f"{first}.",
                      "\n".join(lines), "The run ends here, with the error unhandled.")
