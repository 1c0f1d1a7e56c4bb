"""``warroom import otel``: the OpenTelemetry GenAI importer as the registry lists it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.importers.otlp import ConventionImporter

if TYPE_CHECKING:
    from warroom.importers.kit import ImportReport, Progress, TraceOptions


class OpenTelemetryGenAI(ConventionImporter):
    """OTLP/JSON traces whose spans follow OpenTelemetry's GenAI conventions: one drill per trace."""

    name = "otel"
    title = "OpenTelemetry GenAI traces"
    shape = "OTLP/JSON spans"
    needs = ("opentelemetry.semconv", "the GenAI attribute names")
    help = """Convert OpenTelemetry GenAI traces (OTLP/JSON *.json, Collector JSON Lines *.jsonl) into drills.

    One drill per trace: span times are the drill clock, invoke_agent spans agents, chat spans model calls,
    execute_tool spans tool calls and results, error statuses error results. Both the current GenAI attributes
    and the older ones (gen_ai.system, prompt/completion events) are read. No answer key is written. Exit status:
    0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import otel traces.jsonl --out drills/imported
    """

    convention = "OpenTelemetry GenAI"
    classifier = "warroom.importers.otel._classify"


#: The OpenTelemetry GenAI importer (the registry finds it in this package's API).
IMPORTER = OpenTelemetryGenAI()


def import_otel(paths: Iterable[Path], out_dir: Path, options: TraceOptions | None = None, *,
                force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Import every file under ``paths`` into drills in ``out_dir`` (:func:`warroom.importers.kit.import_files`)."""
    from warroom.importers.kit import import_files

    return import_files(IMPORTER, paths, out_dir, options, force=force, progress=progress)
