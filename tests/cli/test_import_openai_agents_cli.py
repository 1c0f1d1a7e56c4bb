"""`warroom import openai-agents` on the command line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main

THIRD = FIXTURES / "thirdparty"


def test_imports_agents_sdk_traces_and_reports_a_bad_file(tmp_path: Path) -> None:
    runs = THIRD / "langsmith-runs.json"  # another tool's export: named, with its importer
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "openai-agents", str(THIRD / "openai-agents-handoff.json"),
                                       str(THIRD / "openai-agents-responses.jsonl"), str(runs), "--out", str(out),
                                       "-v"])
    assert result.exit_code == 1, result.output
    assert (f"{runs}:1:1: not OpenAI Agents SDK traces: item 0 is an object that is neither a trace "
            "(`\"object\": \"trace\"`) nor a span (`span_data`); it looks like LangSmith runs (`run_type`, "
            "`inputs`, `outputs`): `warroom import langsmith` reads them") in result.output
    assert "2 drills imported into" in result.output and "from 3 files, 1 failed" in result.output
    assert sorted(p.name for p in out.iterdir()) == ["openai-agents-handoff.yaml",
                                                     "openai-agents-responses.yaml"]
    for path in out.iterdir():
        only_missing_key(path)
    picked = CliRunner().invoke(main, ["import", "openai-agents", str(THIRD / "openai-agents-handoff.json"),
                                       "--out", str(tmp_path / "one"), "--trace-id", "nope"])
    assert picked.exit_code == 1
    assert "no trace nope in this file; its trace ids: trace_7d3e1a9c0b2f4e6d8a1c3b5e7f9d0a2c" in picked.output


def test_other_importers_name_the_openai_agents_importer(tmp_path: Path) -> None:
    path = THIRD / "openai-agents-trace.json"
    for command in ("langsmith", "langfuse", "chat", "otel"):
        result = CliRunner().invoke(main, ["import", command, str(path), "--out", str(tmp_path / command)])
        assert result.exit_code == 1, (command, result.output)
        assert ("it looks like OpenAI Agents SDK traces (`span_data`): `warroom import openai-agents` reads them"
                in result.output), (command, result.output)
