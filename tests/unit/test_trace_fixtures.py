"""The committed OTLP/JSON fixtures are what tests/fixtures/generate_traces.py writes (they cannot drift), and they
cover what the importers must meet in real traces."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from trace_import_support import FIXTURES, converter

from warroom.importers import otel
from warroom.importers.otlp import read_spans


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_traces", FIXTURES / "generate_traces.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    return _generator()


def test_committed_fixtures_are_what_the_generator_writes(generator: ModuleType, tmp_path: Path) -> None:
    written = generator.generate(tmp_path)
    names = sorted(str(p.relative_to(tmp_path)) for p in written)
    assert names == ["openinference/phoenix.jsonl", "otel-split/part-1.jsonl", "otel-split/part-2.jsonl",
                     "otel/current.json", "otel/legacy.jsonl"]
    for name in names:
        assert (tmp_path / name).read_text(encoding="utf-8") == (FIXTURES / name).read_text(encoding="utf-8"), (
            f"tests/fixtures/{name} differs from what the generator writes: run "
            "`python tests/fixtures/generate_traces.py`")


def test_the_fixtures_are_otlp_json_as_the_collector_writes_it() -> None:
    doc = json.loads((FIXTURES / "otel" / "current.json").read_text(encoding="utf-8"))
    services = [next(a["value"]["stringValue"] for a in rs["resource"]["attributes"] if a["key"] == "service.name")
                for rs in doc["resourceSpans"]]
    assert services == ["ap-planner", "ap-executor"]
    spans = [s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    assert all(len(s["traceId"]) == 32 and int(s["traceId"], 16) for s in spans)  # hex, not protobuf's base64
    assert all(len(s["spanId"]) == 16 and isinstance(s["startTimeUnixNano"], str) for s in spans)
    failed = [s for s in spans if s["status"].get("code") == 2]
    assert [s["name"] for s in failed] == ["execute_tool erp.list_credits"]
    [event] = failed[0]["events"]
    assert event["name"] == "exception"
    assert {a["key"] for a in event["attributes"]} >= {"exception.type", "exception.message"}
    for line in (FIXTURES / "openinference" / "phoenix.jsonl").read_text(encoding="utf-8").splitlines():
        assert list(json.loads(line)) == ["resourceSpans"]  # one ExportTraceServiceRequest per line


def test_clock_skew_a_child_starts_before_its_parent() -> None:
    spans = {s.span_id: s for s in read_spans(FIXTURES / "otel" / "current.json")}
    early = [s for s in spans.values() if s.parent_id in spans and s.start_ns < spans[s.parent_id].start_ns]
    assert [(s.name, s.service, spans[s.parent_id].service) for s in early] == [
        ("invoke_agent scout", "ap-executor", "ap-planner")]
    assert spans[early[0].parent_id].start_ns - early[0].start_ns == 300_000_000


def test_the_big_trace_is_one_trace_of_the_spans_asked_for(generator: ModuleType, tmp_path: Path) -> None:
    doc = generator.big_trace(120)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    spans = read_spans(path)
    assert 120 <= len(spans) < 124 and len({s.trace_id for s in spans}) == 1
    [(data, _)] = converter(otel)(path)
    rounds = (len(spans) - 19) // 4  # 19 spans in the scripted run, 4 in each extra executor round
    assert sum(e["kind"] == "tool_call" for e in data["trace"]) == 5 + 2 * rounds


def test_every_committed_trace_fixture_is_generated(generator: ModuleType, tmp_path: Path) -> None:
    """No hand-written OTLP/JSON fixture is left: every one under tests/fixtures (the big trace aside, which is
    not committed) is one the generator writes (malformed input is built by the tests themselves)."""
    written = {str(p.relative_to(tmp_path)) for p in generator.generate(tmp_path)}
    committed = {str(p.relative_to(FIXTURES)) for folder in ("otel", "otel-split", "openinference")
                 for p in (FIXTURES / folder).iterdir()}
    assert committed == written


def test_the_legacy_fixture_has_what_real_older_traces_have() -> None:
    """otel/legacy.jsonl (older GenAI conventions): JSON Lines, one export request per line; the agent run (nested
    agents, tool calls with results, a tool error with its exception event, usage missing on one model call) and
    the follow-up question, a second trace."""
    lines = (FIXTURES / "otel" / "legacy.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(list(json.loads(line)) == ["resourceSpans"] for line in lines)
    spans = read_spans(FIXTURES / "otel" / "legacy.jsonl")
    traces = list(dict.fromkeys(s.trace_id for s in spans))
    assert len(traces) == 2
    run = {s.span_id: s for s in spans if s.trace_id == traces[0]}
    agents = [s for s in run.values() if s.attributes.get("gen_ai.operation.name") == "invoke_agent"]
    assert [(s.name, run[s.parent_id].name if s.parent_id else None) for s in agents] == [
        ("invoke_agent scout", "execute_tool transfer_to_scout"), ("invoke_agent lead", None)]
    [failed] = [s for s in run.values() if s.error]
    assert failed.name == "execute_tool erp.list_credits" and [e.name for e in failed.events][-1] == "exception"
    tools = [s for s in run.values() if s.attributes.get("gen_ai.operation.name") == "execute_tool"]
    assert sum(any(e.name == "gen_ai.choice" for e in s.events) for s in tools) == len(tools) - 1 == 4
    chats = [s for s in run.values() if s.name.startswith("chat ")]
    no_usage = [s.name for s in chats if not any(k.startswith("gen_ai.usage.") for k in s.attributes)]
    assert len(chats) == 6 and no_usage == ["chat gpt-4.1-mini"]
