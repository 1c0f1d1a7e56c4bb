"""``warroom import langfuse``: the Langfuse importer as the registry lists it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import TraceImporter, run_import

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, TraceOptions

#: Langfuse's observation types (the first three, and those of its SDKs' newer observation types).
TYPES = ("GENERATION", "SPAN", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EMBEDDING", "EVALUATOR", "GUARDRAIL")


class Langfuse(TraceImporter):
    """Langfuse traces and observations: one drill per trace."""

    name = "langfuse"
    title = "a Langfuse export"
    shape = "`observations` of type GENERATION, SPAN, EVENT"
    help = """Convert Langfuse exports (a trace with its observations, a list of observations or traces,
    {"data": [...]}, or JSON Lines *.jsonl; or the v3+ SDK's OpenTelemetry spans with langfuse.observation.*
    attributes, OTLP/JSON) into drills.

    One drill per trace: observation times are the drill clock, AGENT observations agents, GENERATION ones model
    calls (their recorded costs set the models' prices), TOOL and RETRIEVER ones (and a SPAN without children that
    has an input or output) tool calls and results, level ERROR a failed result. No answer key is written. Exit
    status: 0 when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import langfuse trace.json --out drills/imported
    """

    def recognises(self, values: Sequence[Any]) -> bool:
        from warroom.importers.exports import first_record
        from warroom.importers.otlp import span_convention

        if span_convention(values) == "langfuse":  # the v3+ SDK's OpenTelemetry spans
            return True
        item = first_record(values[0])
        if not isinstance(item, dict):
            return False
        observations = item.get("observations")
        if isinstance(observations, list) and observations:
            return (isinstance(observations[0], dict) and "type" in observations[0]) or isinstance(observations[0], str)
        return item.get("type") in TYPES and ("startTime" in item or "start_time" in item)

    def read(self, path: Path, options: TraceOptions) -> list[DrillData]:
        from warroom.importers.exports import convert_export
        from warroom.importers.langfuse._observations import read_observations

        return convert_export(path, read_observations, self.name, "Langfuse", options, unit="observation")


#: The Langfuse importer (the registry finds it in this package's API).
IMPORTER = Langfuse()
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_langfuse = partial(run_import, IMPORTER)
