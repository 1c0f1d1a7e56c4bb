"""Format recognition in one place (warroom.importers.kit.recognise): every fixture file is recognised as the format
its importer reads (or as none: drills, files that are not JSON), by exactly one importer; given to every importer,
each file is read by its own importer and refused by every other one, the refusal naming the importer that reads
it (issue 29: "every refusal can name the right importer")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES

from warroom.importers.kit import convert, file_values, importers, recognise, recognise_values

#: The importer of each fixture, by its folder or (in thirdparty/) the start of its name.
BY_FOLDER = {"chat": "chat", "openinference": "openinference", "otel": "otel", "otel-split": "otel",
             "good": "who-and-when", "shapes": None, "round2": None, "v1": None, "magentic-one": "chat",
             "failed": "chat", "tau-retail": None, "all-clear": None}
#: Framework recordings (tests/fixtures/frameworks), by name: the convention their spans follow.
FRAMEWORKS = {"langgraph-openinference.jsonl": "openinference", "openai-agents-openinference.jsonl": "openinference",
              "pydantic-ai.jsonl": "otel", "langfuse-otel.jsonl": "langfuse", "langsmith-batch.jsonl": "langsmith",
              "smolagents-openinference.jsonl": "openinference", "llama-index-openinference.jsonl": "openinference",
              "openai-v2.jsonl": "otel", "openai-v2-content.jsonl": "otel", "volume-langgraph.jsonl": "openinference",
              "volume-pydantic-ai.jsonl": "otel", "volume-openai-agents.jsonl": "openinference",
              "volume-smolagents.jsonl": "openinference", "volume-llama-index.jsonl": "openinference",
              "volume-langsmith-batch.jsonl": "langsmith", "volume-openai-v2-content.jsonl": "otel",
              "volume-langfuse-otel.jsonl": "langfuse", "openai-agents-openinference-streamed.jsonl": "openinference",
              "autogen-swarm.jsonl": "otel", "langgraph-handoff-openinference.jsonl": "openinference",
              "langsmith-handoff-batch.jsonl": "langsmith", "langfuse-handoff-otel.jsonl": "langfuse",
              "langgraph-openinference-hidden.jsonl": "openinference", "langsmith-hidden-batch.jsonl": "langsmith",
              "pydantic-ai-no-content.jsonl": "otel", "strands-agents.jsonl": "otel",
              "strands-agents-latest.jsonl": "otel", "strands-swarm.jsonl": "otel", "google-adk.jsonl": "otel",
              "google-adk-content.jsonl": "otel", "semantic-kernel.jsonl": "otel",
              "agno-openinference.jsonl": "openinference",
              "crewai-openinference.jsonl": "openinference", "haystack-openinference.jsonl": "openinference",
              "openai-tool-loop-openinference.jsonl": "openinference", "openai-tool-loop-genai.jsonl": "otel",
              "langchain-create-agent-openinference.jsonl": "openinference",
              "langsmith-create-agent-batch.jsonl": "langsmith", "dspy-openinference.jsonl": "openinference",
              "ag2-otel.jsonl": "otel", "langchain-openai-openinference.jsonl": "openinference",
              "anthropic-tool-loop-openinference.jsonl": "openinference"}
BY_NAME = {"chat-": "chat", "genai-": "otel", "jaeger-": "otel", "langfuse-": "langfuse", "langsmith-": "langsmith",
           "logfire-": "otel", "oi-": "openinference", "openai-agents-": "openai-agents", "openllmetry-": "otel",
           "phoenix-": "openinference", "pydantic-ai-": "otel", "sdk-console": "otel"}
#: The healthy runs the projection tests start from (projection/), by the start of their names.
BY_RUN = {"tau-": "chat", "chat-": "chat", "otel-": "otel", "openinference-": "openinference"}
#: The bad Who&When records that are no record by their shape: not JSON, not UTF-8, a list of chat messages.
NOT_RECORDS = {"not-json.json": None, "not-utf8.json": None, "top-level-array.json": "chat"}


def _fixtures() -> list[tuple[Path, str | None]]:
    """Every trace, record and drill fixture with the importer that reads it (None: no importer does)."""
    out = []
    for path in sorted(FIXTURES.rglob("*")):
        if not path.is_file() or path.suffix not in (".json", ".jsonl", ".yaml"):
            continue
        folder = path.parent.parent.name if path.parent.parent.name == "good" else path.parent.name
        if folder == "frameworks":
            expected = FRAMEWORKS[path.name]
        elif folder == "thirdparty":
            expected = next(v for k, v in BY_NAME.items() if path.name.startswith(k))
        elif folder == "projection":
            expected = next(v for k, v in BY_RUN.items() if path.name.startswith(k))
        elif path.name == "ground_truth.json" or folder == "trail":  # annotations (--ground-truth): no trace
            expected = None
        elif folder == "bad":
            expected = NOT_RECORDS.get(path.name, "who-and-when")
        else:
            expected = BY_FOLDER[folder]
        out.append((path, expected))
    return out


FIXTURE_FILES = _fixtures()
IDS = [str(p.relative_to(FIXTURES)) for p, _ in FIXTURE_FILES]


def test_the_registry_holds_every_format_and_the_fixtures_cover_them() -> None:
    assert list(importers()) == ["chat", "langfuse", "langsmith", "openai-agents", "openinference", "otel",
                                 "who-and-when"]
    assert {e for _, e in FIXTURE_FILES} == {*importers(), None}
    assert len(FIXTURE_FILES) > 80


@pytest.mark.parametrize(("path", "expected"), FIXTURE_FILES, ids=IDS)
def test_each_fixture_is_recognised_as_its_format_by_exactly_one_importer(path: Path, expected: str | None) -> None:
    values = file_values(path)
    found = [i.name for i in importers().values() if values and i.recognises(values)]
    assert found == ([expected] if expected else [])
    assert (recognise(path).name if recognise(path) else None) == expected


@pytest.mark.parametrize(("path", "expected"), FIXTURE_FILES, ids=IDS)
def test_each_fixture_given_to_every_importer_is_read_by_its_own_or_refused_naming_it(path: Path,
                                                                                       expected: str | None) -> None:
    for name, importer in importers().items():
        try:
            drills = convert(importer, path)
        except importer.error as e:
            message = str(e)
            assert "\n" not in message and message, (name, message)
            if expected is not None and expected != name:
                assert f"`warroom import {expected}`" in message, (name, message)
        else:
            assert name == expected and drills, name


def _otlp_line(span_id: str, attributes: dict[str, str]) -> str:
    span = {"traceId": "5b8aa5a2d2c872e8321cf37308d69df2", "spanId": span_id, "name": "span",
            "startTimeUnixNano": "1774000000000000000", "endTimeUnixNano": "1774000001000000000",
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attributes.items()]}
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})


def test_json_lines_are_recognised_by_every_line_and_a_cut_off_last_line_is_left_out(tmp_path: Path) -> None:
    # the first line holds an HTTP span of neither convention; the OpenInference spans come after it
    path = tmp_path / "export.jsonl"
    lines = [_otlp_line("051581bf3cb55c13", {"http.method": "GET"}),
             _otlp_line("051581bf3cb55c14", {"openinference.span.kind": "LLM"}),
             _otlp_line("051581bf3cb55c15", {"openinference.span.kind": "TOOL"})]
    path.write_text("\n".join(lines) + '\n{"resourceSpans": [{"scopeSp', encoding="utf-8")
    assert len(file_values(path)) == 3
    assert recognise(path).name == "openinference"
    with pytest.raises(importers()["otel"].error, match=r"`warroom import openinference`"):
        convert(importers()["otel"], path)
    path.write_text(_otlp_line("051581bf3cb55c16", {"gen_ai.operation.name": "chat"}), encoding="utf-8")
    assert recognise(path).name == "otel"


def test_what_is_not_a_trace_is_recognised_as_nothing(tmp_path: Path) -> None:
    assert recognise_values([]) is None
    assert recognise_values([{"schema_version": 2, "id": "x", "trace": []}]) is None  # a drill written as JSON
    assert recognise_values([{"turns": []}]) is None and recognise_values([42]) is None
    (tmp_path / "folder").mkdir()
    assert recognise(tmp_path / "folder") is None and recognise(tmp_path / "missing.json") is None


@pytest.mark.parametrize(("fixture", "expected"), [("thirdparty/openai-agents-sdk-run.jsonl", "openai-agents"),
                                                   ("thirdparty/langsmith-planner-executor.json", "langsmith")])
def test_objects_written_over_several_lines_are_named_to_chat(tmp_path: Path, fixture: str, expected: str) -> None:
    """JSON Lines whose objects are each written over several lines (pretty-printed, one after another) given to
    `import chat`: the refusal names the importer that reads them, as for the one-line form (issue 33, gap 8)."""
    source = FIXTURES / fixture
    text = source.read_text(encoding="utf-8")
    values = [json.loads(line) for line in text.splitlines() if line.strip()] if source.suffix == ".jsonl" \
        else json.loads(text)
    path = tmp_path / "pretty.jsonl"
    path.write_text("\n".join(json.dumps(v, indent=2) for v in values) + "\n", encoding="utf-8")
    with pytest.raises(importers()["chat"].error, match=rf"`warroom import {expected}` reads them"):
        convert(importers()["chat"], path)


@pytest.mark.parametrize("name", ["otel/current.json", "frameworks/langfuse-otel.jsonl",
                                  "frameworks/langgraph-openinference.jsonl"])
def test_the_spans_convention_is_worked_out_once_per_recognition(name: str, monkeypatch: pytest.MonkeyPatch):
    """Issue 30: the otel, openinference and langfuse importers each asked a file's spans convention, which reads
    every span: three times over a 50,000-span file (refusing it took 5 s of CPU). Worked out once, same answer."""
    import warroom.importers.otlp._convention as convention

    values = file_values(FIXTURES / name)
    expected = recognise_values(values)
    calls: list[int] = []
    real = convention._convention

    def counted(vals):
        calls.append(1)
        return real(vals)

    monkeypatch.setattr(convention, "_convention", counted)
    assert recognise_values(values) is expected and expected is not None
    assert len(calls) == 1
    assert convention.span_convention(list(values)) == convention.span_convention(values)  # plain lists: no memo
