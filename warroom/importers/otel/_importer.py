"""The importer."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from warroom.importers.kit import ImportReport, Progress, TraceOptions
from warroom.importers.otel._classify import classify
from warroom.importers.otlp import convert_otlp_file, import_otlp

PREFIX, CONVENTION = "otel", "OpenTelemetry GenAI"


def convert_file(path: Path, options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every trace in the OTLP/JSON file at ``path`` as ``(drill data, header)``; raises TraceError."""
    return convert_otlp_file(path, classify, PREFIX, CONVENTION, options)


def import_otel(paths: Iterable[Path], out_dir: Path, options: TraceOptions | None = None, *,
                force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Convert every OTLP/JSON file under ``paths`` into drills in ``out_dir``."""
    return import_otlp(paths, out_dir, classify, PREFIX, CONVENTION, options, force=force, progress=progress)
