"""A ninth fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (traces recorded by
real frameworks and then edited: non-finite numbers, JSON text nested deep or holding what a drill cannot, captured
ingest bodies; drills in odd YAML; the authoring commands): each case a hostile author or a faulty world found, with
the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main

FIXTURES = TESTS / "fixtures"
CHAT = FIXTURES / "chat" / "refund.json"
MULTIPART = FIXTURES / "frameworks" / "langsmith-multipart.txt"


def _import(importer: str, source: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["import", importer, str(source), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _only_problem_is_the_answer_key(drill: Path) -> None:
    result = CliRunner().invoke(main, ["validate", str(drill)])
    problems = [ln for ln in result.output.splitlines() if ln.startswith(str(drill))]
    assert len(problems) == 1 and "needs an answer_key" in problems[0], result.output


def _otlp_trace(value: str) -> str:
    """An OTLP/JSON trace of an agent, a model call and a tool call whose tool span carries ``value`` (raw JSON text)
    as an ``intValue`` attribute."""
    def attrs(**kv: object) -> list[dict[str, object]]:
        return [{"key": k, "value": {"stringValue": v}} for k, v in kv.items()]

    def span(sid: str, parent: str, name: str, start: int, attributes: list[dict[str, object]]) -> dict[str, object]:
        return {"traceId": "4bf92f3577b34da6a3ce929d0e0e4736", "spanId": sid, "parentSpanId": parent, "name": name,
                "startTimeUnixNano": str(1774000000 * 10**9 + start * 10**9),
                "endTimeUnixNano": str(1774000000 * 10**9 + (start + 1) * 10**9), "attributes": attributes}

    tool = attrs(**{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                    "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.arguments": '{"q": 1}',
                    "gen_ai.tool.call.result": '{"rows": 3}'})
    tool.append({"key": "rows.count", "value": {"intValue": "SENTINEL"}})
    spans = [
        span("00f067aa0ba902b7", "", "invoke_agent a", 0, attrs(**{"gen_ai.operation.name": "invoke_agent",
                                                                    "gen_ai.agent.name": "a"})),
        span("00f067aa0ba902b8", "00f067aa0ba902b7", "chat m", 1, attrs(**{
            "gen_ai.operation.name": "chat", "gen_ai.request.model": "m",
            "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
                {"type": "tool_call", "id": "call_1", "name": "lookup", "arguments": {"q": 1}}]}])})),
        span("00f067aa0ba902b9", "00f067aa0ba902b7", "execute_tool lookup", 3, tool),
    ]
    doc = {"resourceSpans": [{"resource": {"attributes": attrs(**{"service.name": "s"})},
                              "scopeSpans": [{"scope": {"name": "x"}, "spans": spans}]}]}
    return json.dumps(doc).replace('"SENTINEL"', value)


def test_an_otlp_int_value_that_is_infinity_is_written_as_that_text_not_a_traceback(tmp_path: Path):
    """`{"intValue": Infinity}` (or `1e400`, or `NaN`: not JSON, but Python's json writes and reads them) in an
    OTLP/JSON attribute ended `warroom import otel` and `openinference` in an OverflowError traceback (`cannot convert
    float infinity to integer`). The value is read as the number it is (written as the text JSON writers use, as every
    non-finite number of a trace is, where a drill shows it), and the trace imports."""
    for literal in ("Infinity", "-1e400", "NaN"):
        source = tmp_path / "trace.json"
        source.write_text(_otlp_trace(literal), encoding="utf-8")
        out = tmp_path / literal
        status, output = _import("otel", source, out)
        assert status == 0, output
        assert "Traceback" not in output
        [drill] = out.glob("*.yaml")
        _only_problem_is_the_answer_key(drill)
