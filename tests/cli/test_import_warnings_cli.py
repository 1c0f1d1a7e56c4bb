"""`warroom import`'s warnings: what an importer left out of a file it still imported, as `path:line: warning:
message` on stderr, counted in the summary line, the exit status unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES

from warroom.cli import main


def _cut_collector_file(tmp_path: Path) -> tuple[Path, int]:
    """The Collector file export of two traces with a third trace's line cut off at its end, and that line's
    number."""
    lines = (FIXTURES / "otel" / "legacy.jsonl").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "traces.jsonl"
    cut.write_text("\n".join(lines) + "\n" + lines[0][:300], encoding="utf-8")
    return cut, len(lines) + 1


def test_a_cut_off_last_line_is_a_warning_naming_file_and_line_and_the_rest_imports(tmp_path: Path) -> None:
    cut, line = _cut_collector_file(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(cut), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"{cut}:{line}: warning: the last line is cut off: it ends inside a JSON value, after 300 characters (a "
        f"write stopped part-way); it is skipped, and the {line - 1} lines before it are read"]
    assert result.stdout.splitlines()[0] == f"2 drills imported into {out} from 1 file, 0 failed, 1 warning"
    assert sorted(p.name for p in out.iterdir()) == ["otel-traces-0.yaml", "otel-traces-1.yaml"]


def test_a_file_that_fails_still_shows_its_warning_first_and_counts_it(tmp_path: Path) -> None:
    # read as OpenInference, the GenAI spans hold no agent, model or tool span: the file fails, the warning stays
    cut, line = _cut_collector_file(tmp_path)
    result = CliRunner().invoke(main, ["import", "openinference", str(cut), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    warning, error = result.stderr.splitlines()
    assert warning.startswith(f"{cut}:{line}: warning: the last line is cut off")
    assert error.startswith(f"{cut}:1:1: no span of this trace is an agent, model call or tool call")
    out = tmp_path / "out"
    assert result.stdout.splitlines()[0] == f"0 drills imported into {out} from 1 file, 1 failed, 1 warning"


def test_no_warning_no_count(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(FIXTURES / "otel" / "legacy.jsonl"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.splitlines()[0] == f"2 drills imported into {out} from 1 file, 0 failed"


def test_a_langsmith_root_run_alone_is_a_warning_on_the_file_with_the_export_advice(tmp_path: Path) -> None:
    root = json.loads((FIXTURES / "thirdparty" / "langsmith-child-runs.json").read_text(encoding="utf-8"))
    root.pop("child_runs")  # a RunTree dumped without its children
    path = tmp_path / "run.json"
    path.write_text(json.dumps(root), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "langsmith", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    warning, error = result.stderr.splitlines()
    assert warning.startswith(f"{path}: warning: trace 0b6f2c1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d is its root run alone "
                              "(chain `run_agent`): no `child_runs`")
    assert warning.endswith("export the run with its children (`Client.read_run(RUN_ID, load_child_runs=True)`), "
                            "or every run of the trace (`Client.list_runs(trace_id=TRACE_ID)`)")
    assert error == f"{path}:1:1: no run of this trace is an agent, model call or tool call"
