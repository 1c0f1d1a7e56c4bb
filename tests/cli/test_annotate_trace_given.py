"""``warroom annotate`` given the trace file instead of the drill imported from it says which import to run first,
instead of a YAML error about the trace's JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import REPO

from warroom.cli import main

FIXTURES = REPO / "tests" / "fixtures"


@pytest.mark.parametrize("fixture,command", [
    ("chat/refund.json", "warroom import chat"),
    ("thirdparty/chat-anthropic.json", "warroom import chat"),
    ("thirdparty/chat-finetune.jsonl", "warroom import chat"),
    ("thirdparty/chat-sharegpt.json", "warroom import chat"),
    ("thirdparty/chat-tau2.json", "warroom import chat"),
    ("otel/current.json", "warroom import otel"),
    ("otel/legacy.jsonl", "warroom import otel"),
    ("thirdparty/jaeger-export.json", "warroom import otel"),
    ("thirdparty/sdk-console.json", "warroom import otel"),
    ("thirdparty/phoenix-spans.json", "warroom import otel"),
])
def test_a_trace_given_to_annotate_names_the_import_to_run_first(fixture, command):
    path = FIXTURES / fixture
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}: this is {'a chat transcript' if 'chat' in command else 'a trace of spans'}, not a drill: import "
        f"it first with `{command} {path} --out DIR`"
        + (" (OpenTelemetry GenAI spans; `openinference` for OpenInference)" if "otel" in command else "")
        + ", then `warroom annotate` the drill it writes in DIR (docs/importing.md)"]


def test_an_export_no_importer_reads_is_named():
    path = FIXTURES / "thirdparty" / "langsmith-runs.json"
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}: this is not a drill: it looks like LangSmith runs")


def test_a_broken_drill_written_as_json_still_gets_its_problems(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(json.dumps({"schema_version": 2, "id": "x", "trace": []}))
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 1
    assert "not a drill" not in result.output
    assert result.output.splitlines()[-1] == f"{path}: cannot be marked up until the problems above are fixed"
