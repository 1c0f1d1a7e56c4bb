"""`warroom import otel|openinference --trace-id`: an id that can name no trace (empty, only spaces, only zeros)
is a usage error (exit 2) saying so, before any file is read; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from trace_import_support import FIXTURES

from warroom.cli import main

LEGACY = FIXTURES / "otel" / "legacy.jsonl"
PHOENIX = FIXTURES / "openinference" / "phoenix.jsonl"


@pytest.mark.parametrize(("fmt", "src"), [("otel", LEGACY), ("openinference", PHOENIX)])
@pytest.mark.parametrize(("given", "problem"), [
    ("", "is empty; give the id of the trace to import"),
    ("   ", "is empty; give the id of the trace to import"),
    ("00000000000000000000000000000000", "'00000000000000000000000000000000' is all zeros, which OTLP uses for no "
                                         "trace id"),
])
def test_a_trace_id_that_names_no_trace_is_a_usage_error(tmp_path: Path, fmt: str, src: Path, given: str,
                                                         problem: str) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", fmt, str(src), "--out", str(out), "--trace-id", given])
    assert result.exit_code == 2, result.output
    assert f"Error: Invalid value for '--trace-id': {problem}" in result.output
    assert "no trace  in this file" not in result.output and "imported" not in result.output
    assert not out.exists()


def test_a_trace_id_with_spaces_around_it_still_picks_its_trace(tmp_path: Path) -> None:
    followup = "be44341307f6f41ac2d0e1fdc38e73b2"  # the second trace of otel/legacy.jsonl
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "otel", str(LEGACY), "--out", str(out), "--trace-id",
                                       f"  {followup}\t"])
    assert result.exit_code == 0, result.output
    assert followup in (out / "otel-legacy.yaml").read_text(encoding="utf-8")
