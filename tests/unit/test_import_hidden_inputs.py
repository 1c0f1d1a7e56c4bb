"""A tracer that hides a tool call's input (``LANGSMITH_HIDE_INPUTS``, ``OPENINFERENCE_HIDE_INPUTS``, content
capture off) leaves the call's arguments not recorded: the drill says so, as it says a hidden result is not
recorded. The calls showed ``arguments: {}``, which reads as a tool called with no arguments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from trace_import_support import FIXTURES, converter, framework_drill

from warroom.importers import langsmith, openinference

HIDDEN = "(not recorded: the trace holds no arguments for this tool call; its input was hidden or not captured)"


def _calls(data: dict[str, Any]) -> dict[str, Any]:
    return {e["tool"]: e["arguments"] for e in data["trace"] if e["kind"] == "tool_call"}


def test_tool_calls_whose_inputs_and_outputs_were_hidden_say_their_arguments_are_not_recorded() -> None:
    for fixture in ("langsmith-hidden-batch.jsonl", "langgraph-openinference-hidden.jsonl"):
        calls = _calls(framework_drill(fixture))
        assert calls and all(args == {"arguments": HIDDEN} for args in calls.values()), (fixture, calls)


def test_langsmith_inputs_hidden_alone(tmp_path: Path) -> None:
    recorded = (FIXTURES / "frameworks" / "langsmith-batch.jsonl").read_text(encoding="utf-8")
    batches = [json.loads(line) for line in recorded.splitlines()]
    for run in (r for batch in batches for key in ("post", "patch") for r in batch.get(key, [])):
        if run.get("run_type") == "tool" and run.get("inputs"):
            run["inputs"] = {}
    path = tmp_path / "hidden-inputs.jsonl"
    path.write_text("".join(json.dumps(b) + "\n" for b in batches), encoding="utf-8")
    [(data, _)] = converter(langsmith)(path)
    assert _calls(data) and all(a == {"arguments": HIDDEN} for a in _calls(data).values()), _calls(data)
    results = [e for e in data["trace"] if e["kind"] == "tool_result"]
    assert results and not any(str(r["output"]).startswith("(not recorded:") for r in results)  # outputs kept


def test_openinference_inputs_hidden_alone(tmp_path: Path) -> None:
    recorded = (FIXTURES / "frameworks" / "langgraph-openinference.jsonl").read_text(encoding="utf-8")
    exports = [json.loads(line) for line in recorded.splitlines() if line.strip()]
    masked = 0
    for span in (s for e in exports for r in e["resourceSpans"] for sc in r["scopeSpans"] for s in sc["spans"]):
        if {"key": "openinference.span.kind", "value": {"stringValue": "TOOL"}} in span["attributes"]:
            for kv in span["attributes"]:
                if kv["key"] == "input.value":
                    kv["value"], masked = {"stringValue": "__REDACTED__"}, masked + 1
    path = tmp_path / "hidden-inputs.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in exports), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    calls = _calls(data)
    assert masked == 4 and calls and all(a == {"arguments": HIDDEN} for a in calls.values()), calls
