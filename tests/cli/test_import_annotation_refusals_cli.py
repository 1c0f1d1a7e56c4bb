"""Refusals name what reads the file, whatever it is given: an annotation file (AgentRx-style ground truth,
TRAIL-style span annotations) or a drill given as a trace, and a bad `--ground-truth FILE` (another importer's
annotations, a trace, not UTF-8, empty), which is named itself, before any trace is read, never blamed on the
trace (issue 33)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS
from trace_import_support import FIXTURES

from warroom.cli import main

AGENTRX = TESTS / "fixtures" / "agentrx" / "tau-retail"
GROUND_TRUTH = AGENTRX / "ground_truth.json"
TRAIL = FIXTURES / "trail" / "pydantic-ai.trail.json"
RUN = AGENTRX / "failed"
SPANS = FIXTURES / "frameworks" / "pydantic-ai.jsonl"
READS_GT = "`warroom import chat RUNS... --ground-truth FILE` reads it"
READS_TRAIL = "`warroom import otel|openinference TRACES... --ground-truth FILE` reads it"


def _run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["import", *map(str, args)])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("importer", ["otel", "openinference", "langfuse", "langsmith", "openai-agents",
                                      "who-and-when"])
def test_ground_truth_given_as_a_trace_names_its_reader(importer: str, tmp_path: Path) -> None:
    code, out = _run(importer, GROUND_TRUTH, "--out", tmp_path)
    assert code == 1 and f"{GROUND_TRUTH}:1:1: " in out and READS_GT in out, out


@pytest.mark.parametrize("importer", ["chat", "otel", "langfuse", "who-and-when"])
def test_trail_annotations_given_as_a_trace_name_their_reader(importer: str, tmp_path: Path) -> None:
    code, out = _run(importer, TRAIL, "--out", tmp_path)
    assert code == 1 and f"{TRAIL}:1:1: " in out and READS_TRAIL in out, out


def test_a_drill_given_as_a_trace_is_named_as_a_drill(tmp_path: Path) -> None:
    drill = FIXTURES / "round2" / "retry-loop.yaml"
    code, out = _run("otel", drill, "--out", tmp_path)
    assert code == 1 and "it is a warroom drill, not a trace: `warroom validate FILE` checks it" in out, out


def test_another_importers_annotations_are_refused_naming_the_annotation_file(tmp_path: Path) -> None:
    code, out = _run("otel", SPANS, "--ground-truth", GROUND_TRUTH, "--out", tmp_path)
    assert code == 2 and f"{GROUND_TRUTH}:1:1: not TRAIL-style annotations" in out and READS_GT in out, out
    code, out = _run("chat", RUN, "--ground-truth", TRAIL, "--out", tmp_path)
    assert code == 2 and f"{TRAIL}:1:1: [0] is not a ground-truth record" in out and READS_TRAIL in out, out
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_a_trace_given_as_the_annotations_names_its_importer(tmp_path: Path) -> None:
    code, out = _run("otel", SPANS, "--ground-truth", SPANS, "--out", tmp_path)
    assert code == 2 and f"{SPANS}:1:1: not TRAIL-style annotations" in out, out
    assert "`warroom import otel` reads them as a trace (give it as PATH, not as --ground-truth)" in out


@pytest.mark.parametrize(("content", "message"), [(b"", "the file is empty"),
                                                  (b"\xa8\x00binary", "not UTF-8 text: byte 0xa8 at offset 0")])
def test_a_bad_annotation_file_is_named_not_the_trace(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "truth.json"
    bad.write_bytes(content)
    for importer, trace in (("chat", RUN), ("openinference", FIXTURES / "frameworks" / "volume-langgraph.jsonl")):
        code, out = _run(importer, trace, "--ground-truth", bad, "--out", tmp_path / "out")
        assert code == 2 and f"{bad}:1:1: {message}" in out and f"{trace}:" not in out, out


def test_utf16_text_is_named_with_the_command_that_converts_it(tmp_path: Path) -> None:
    """A transcript saved as UTF-16 (PowerShell's `>` does so) is not refused as bytes: the encoding is named."""
    bad = tmp_path / "chat.json"
    bad.write_text('[{"role": "user", "content": "hi"}]', encoding="utf-16")
    code, out = _run("chat", bad, "--out", tmp_path / "out")
    assert code == 1 and f"{bad}:1:1: UTF-16 text (its byte-order mark), not UTF-8: convert it first (`iconv -f " \
        "UTF-16 -t UTF-8 FILE > OUT.json`)" in out, out
