"""`warroom import otel` on the command line: JSON and JSON Lines, bad files as `path:line:col: message`, exit 1."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def test_imports_json_and_json_lines_and_reports_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "in" / "broken.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"resourceSpans": [\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(FIXTURES / "otel"), str(bad), "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert f"{bad}:2:1: not JSON" in result.output and "Traceback" not in result.output
    assert "3 drills imported" in result.output and "from 3 files, 1 failed" in result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["otel-current.yaml", "otel-legacy-0.yaml", "otel-legacy-1.yaml"]
    for name in names:
        only_missing_key(out / name)


def test_without_the_import_extra_the_command_says_what_to_install(tmp_path: Path, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "opentelemetry.semconv", None)  # the `import` extra's package is missing
    result = CliRunner().invoke(main, ["import", "otel", str(FIXTURES / "otel"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "pip install 'warroom[import]'" in result.output
    assert not (tmp_path / "o").exists()
