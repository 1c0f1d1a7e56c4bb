"""`warroom import langfuse` on the command line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def test_imports_langfuse_exports_and_reports_a_bad_file(tmp_path: Path) -> None:
    runs = FIXTURES / "thirdparty" / "langsmith-runs.json"  # another tool's export: named, with its importer
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "langfuse", str(FIXTURES / "thirdparty" / "langfuse-trace.json"),
                                       str(FIXTURES / "thirdparty" / "langfuse-planner-executor.json"), str(runs),
                                       "--out", str(out), "-v"])
    assert result.exit_code == 1, result.output
    assert (f"{runs}:1:1: not a Langfuse export: item 0 is an object that is neither a trace with `observations` nor "
            "an observation (`type`, `startTime`); it looks like LangSmith runs (`run_type`, `inputs`, `outputs`): "
            "`warroom import langsmith` reads them") in result.output
    assert "2 drills imported into" in result.output and "from 3 files, 1 failed" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["langfuse-planner-executor.yaml",
                                                     "langfuse-trace.yaml"]
    for path in out.iterdir():
        only_missing_key(path)
    picked = CliRunner().invoke(main, ["import", "langfuse", str(FIXTURES / "thirdparty" / "langfuse-trace.json"),
                                       "--out", str(tmp_path / "one"), "--trace-id", "nope"])
    assert picked.exit_code == 1 and "no trace nope in this file; its trace ids: b7e1c0a4" in picked.output
