"""`warroom import openinference` on the command line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from trace_import_support import FIXTURES, only_missing_key

from warroom.cli import main


def test_imports_a_phoenix_export_and_refuses_a_wrong_shape(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"data": []}', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "openinference", str(FIXTURES / "openinference"), str(wrong),
                                       "--out", str(out), "-v"])
    assert result.exit_code == 1, result.output
    assert f"{wrong}:1:1: not OTLP/JSON traces: an object without `resourceSpans`" in result.output
    assert "phoenix.jsonl -> " in result.output
    only_missing_key(out / "openinference-phoenix.yaml")
    assert sorted(p.name for p in out.iterdir()) == ["openinference-phoenix.yaml"]
