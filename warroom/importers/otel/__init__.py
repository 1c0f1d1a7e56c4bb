"""OpenTelemetry GenAI traces to drills (``warroom import otel``).

OTLP/JSON (a ``{"resourceSpans": [...]}`` document or the Collector file exporter's JSON Lines) read by
:mod:`warroom.importers.otlp`; spans classified by the GenAI semantic conventions, current and older
(:mod:`.classify`). One drill per trace, on the spans' own clock, with no answer key. docs/importing.md has the
mapping field by field.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from warroom.importers.otel.classify import classify
from warroom.importers.otlp import convert_otlp_file, import_otlp
from warroom.importers.tracekit import TraceOptions
from warroom.importers.who_and_when.files import ImportReport, Progress

PREFIX, CONVENTION = "otel", "OpenTelemetry GenAI"


def convert_file(path: Path, options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every trace in the OTLP/JSON file at ``path`` as ``(drill data, header)``; raises TraceError."""
    return convert_otlp_file(path, classify, PREFIX, CONVENTION, options)


def import_otel(paths: Iterable[Path], out_dir: Path, options: TraceOptions | None = None, *,
                force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Convert every OTLP/JSON file under ``paths`` into drills in ``out_dir``."""
    return import_otlp(paths, out_dir, classify, PREFIX, CONVENTION, options, force=force, progress=progress)


__all__ = ["classify", "convert_file", "import_otel"]
