"""``warroom import langsmith``: the LangSmith importer as the registry lists it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import TraceImporter, run_import

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, TraceOptions


class LangSmith(TraceImporter):
    """LangSmith runs: one drill per trace (run tree)."""

    name = "langsmith"
    title = "LangSmith runs"
    shape = "`run_type`, `inputs`, `outputs`"
    help = """Convert LangSmith runs (a JSON list, {"runs": [...]}, nested child_runs, or JSON Lines *.jsonl) into
    drills.

    One drill per trace: run times are the drill clock, llm runs model calls, tool and retriever runs tool calls
    and results (an error a failed result), LangGraph nodes and AgentExecutor chains that call a model agents.
    --trace-id takes a run's trace_id (a UUID). No answer key is written. Exit status: 0 when every file
    imported, 1 when any failed, 2 on usage errors.

    Example: warroom import langsmith runs.json --out drills/imported
    """

    def recognises(self, values: Sequence[Any]) -> bool:
        from warroom.importers.exports import first_record
        from warroom.importers.langsmith._ingest import from_multipart, is_batch

        first = values[0]
        if isinstance(first, dict) and any(k.startswith(("post.", "patch.")) for k in first):  # /runs/multipart
            first = from_multipart(first)
        if is_batch(first):  # /runs/batch: the runs it posts or patches
            first = [*first.get("post", []), *first.get("patch", [])]
        run = first_record(first)
        return isinstance(run, dict) and "run_type" in run and ("inputs" in run or "outputs" in run)

    def read(self, path: Path, options: TraceOptions) -> list[DrillData]:
        from warroom.importers.exports import convert_export
        from warroom.importers.langsmith._runs import read_runs

        return convert_export(path, read_runs, self.name, "LangSmith", options, unit="run")


#: The LangSmith importer (the registry finds it in this package's API).
IMPORTER = LangSmith()
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_langsmith = partial(run_import, IMPORTER)
