"""``warroom import openai-agents``: the OpenAI Agents SDK importer as the registry lists it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import TraceImporter, run_import

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, TraceOptions


class OpenAIAgents(TraceImporter):
    """OpenAI Agents SDK traces and spans: one drill per trace."""

    name = "openai-agents"
    title = "OpenAI Agents SDK traces"
    shape = "`span_data`"
    help = """Convert OpenAI Agents SDK traces (trace and span exports: {"data": [...]}, a JSON list, or JSON Lines
    *.jsonl) into drills.

    One drill per trace: span times are the drill clock, agent spans agents, handoff spans handoffs, generation
    and response spans model calls, function spans tool calls and results (an error a failed result), a triggered
    guardrail a log event. --trace-id takes a trace's id (trace_...). No answer key is written. Exit status: 0
    when every file imported, 1 when any failed, 2 on usage errors.

    Example: warroom import openai-agents traces.jsonl --out drills/imported
    """

    def recognises(self, values: Sequence[Any]) -> bool:
        from warroom.importers.exports import first_record

        item = first_record(values[0])
        return isinstance(item, dict) and ("span_data" in item or item.get("object") in ("trace", "trace.span"))

    def read(self, path: Path, options: TraceOptions) -> list[DrillData]:
        from warroom.importers.exports import convert_export
        from warroom.importers.openai_agents._spans import read_agent_spans

        return convert_export(path, read_agent_spans, self.name, "OpenAI Agents SDK", options)


#: The OpenAI Agents SDK importer (the registry finds it in this package's API).
IMPORTER = OpenAIAgents()
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_openai_agents = partial(run_import, IMPORTER)
