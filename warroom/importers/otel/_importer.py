"""``warroom import otel``: the OpenTelemetry GenAI importer as the registry lists it."""

from __future__ import annotations

from functools import partial

from warroom.importers.kit import run_import
from warroom.importers.otlp import ConventionImporter


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
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_otel = partial(run_import, IMPORTER)
