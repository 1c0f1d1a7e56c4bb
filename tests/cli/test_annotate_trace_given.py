"""``warroom annotate`` given the trace file instead of the drill imported from it says which import to run first,
instead of a YAML error about the trace's JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import REPO

from warroom.cli import main

FIXTURES = REPO / "tests" / "fixtures"


CHAT, OTEL = "a chat transcript", "OpenTelemetry GenAI traces"


@pytest.mark.parametrize("fixture,importer,what", [
    ("chat/refund.json", "chat", CHAT),
    ("thirdparty/chat-anthropic.json", "chat", CHAT),
    ("thirdparty/chat-finetune.jsonl", "chat", CHAT),
    ("thirdparty/chat-sharegpt.json", "chat", CHAT),
    ("thirdparty/chat-tau2.json", "chat", CHAT),
    ("otel/current.json", "otel", OTEL),
    ("otel/legacy.jsonl", "otel", OTEL),
    ("thirdparty/jaeger-export.json", "otel", OTEL),
    ("thirdparty/sdk-console.json", "otel", OTEL),
    # Phoenix's span JSON is OpenInference's (each span names its kind): was named an `otel` trace
    ("thirdparty/phoenix-spans.json", "openinference", "OpenInference traces"),
    ("openinference/phoenix.jsonl", "openinference", "OpenInference traces"),
    ("who_and_when/good/magentic-one/mini.json", "who-and-when", "a Who&When record"),
    # an export whose importer came after annotate's own checks: was `it looks like LangSmith runs` with no import
    ("thirdparty/langsmith-runs.json", "langsmith", "LangSmith runs"),
    ("thirdparty/langfuse-trace.json", "langfuse", "a Langfuse export"),
    ("thirdparty/openai-agents-trace.json", "openai-agents", "OpenAI Agents SDK traces"),
])
def test_a_trace_given_to_annotate_names_the_import_to_run_first(fixture, importer, what):
    path = FIXTURES / fixture
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}: this is {what}, not a drill: import it first with `warroom import {importer} {path} --out DIR`, "
        "then `warroom annotate` the drill it writes in DIR (docs/importing.md)"]


def test_a_broken_drill_written_as_json_still_gets_its_problems(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(json.dumps({"schema_version": 2, "id": "x", "trace": []}))
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 1
    assert "not a drill" not in result.output
    assert result.output.splitlines()[-1] == f"{path}: cannot be marked up until the problems above are fixed"
