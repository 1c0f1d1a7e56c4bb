"""`warroom import langsmith` on the command line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def test_imports_langsmith_runs_and_reports_a_bad_file(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"resourceSpans": []}', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "langsmith", str(FIXTURES / "thirdparty" / "langsmith-runs.json"),
                                       str(FIXTURES / "thirdparty" / "langsmith-planner-executor.json"), str(wrong),
                                       "--out", str(out), "-v"])
    assert result.exit_code == 1, result.output
    assert (f"{wrong}:1:1: not LangSmith runs: run 0 is an object without `run_type`; it looks like OpenTelemetry "
            "GenAI traces (OTLP/JSON spans): `warroom import otel` reads them") in result.output
    assert "2 drills imported into" in result.output and "from 3 files, 1 failed" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["langsmith-planner-executor.yaml",
                                                     "langsmith-runs.yaml"]
    for path in out.iterdir():
        only_missing_key(path)
    again = CliRunner().invoke(main, ["import", "langsmith", str(FIXTURES / "thirdparty" / "langsmith-runs.json"),
                                      "--out", str(out)])
    assert again.exit_code == 1 and "already exists" in again.output  # --force to overwrite, as every importer
    assert CliRunner().invoke(main, ["import", "langsmith", "--out", str(out)]).exit_code == 2
