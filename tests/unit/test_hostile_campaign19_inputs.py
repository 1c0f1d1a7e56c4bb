"""Campaign 19 (issue 30), projection and the importers' readers: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from projection_support import HEALTHY
from trace_import_support import converter

from warroom.cli import main
from warroom.core.library import run_fingerprint
from warroom.core.model import Drill
from warroom.core.projection import Options, damage_rules, project, read_source, survey
from warroom.importers import chat


@pytest.fixture(scope="module")
def newline_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The healthy tau-bench run of the projection tests, each JSON tool result ending with a newline (as a tool
    that prints its JSON writes it), imported by `warroom import chat`."""
    tmp = tmp_path_factory.mktemp("nl")
    runs = json.loads((HEALTHY / "tau-retail-healthy.json").read_text(encoding="utf-8"))
    for message in runs[0]["traj"]:
        if message.get("role") == "tool" and message["content"].lstrip()[:1] in "{[":
            message["content"] += "\n"
    (tmp / "nl.json").write_text(json.dumps(runs), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "chat", str(tmp / "nl.json"), "--out", str(tmp / "out"), "--force"])
    assert result.exit_code == 0, result.output
    return tmp / "out" / "chat-nl-0.yaml"


def test_a_projected_result_keeps_the_white_space_around_the_sources_json(newline_run: Path):
    """The changed result and the twin's were written anew without the source's trailing newline, which every other
    result of the run kept: the fault's result was the one result of the trace without it (a wrong-record fault's
    twin, the source's text, had it: the trial told by the layout), and a wrong-record projection of a run had
    another fingerprint than its other projections (the twin's result ended otherwise)."""
    found = survey(read_source(newline_run), damage_rules([])[0])
    prints = set()
    for template in ("wrong-record", "pagination-truncated", "stale-data", "error-flag-ignored"):
        projection = project(found, template, "m011", Options(distractors=0))
        fault = next(e for e in projection.data["trace"] if e["id"] == "m011")["output"]
        twin = projection.twin["replace"]["m011"]["output"]
        assert fault.endswith("}\n") and not fault.startswith(" ") and twin.endswith("}\n"), template
        prints.add(run_fingerprint(Drill.model_validate({**projection.data, "twin": projection.twin})))
    assert len(prints) == 1


def test_a_gemini_history_dumped_by_the_python_sdk_and_a_failed_function_response(tmp_path: Path):
    """google-genai's ``Content.model_dump()`` (a chat's ``get_history()`` saved from Python) writes its parts in
    snake case (``function_call``, ``function_response``): such a history was refused ("a content part is an object
    with `type`"). And a function response that says ``{"error": ...}`` (the API's convention: ``output`` for the
    function's output, ``error`` for its error) was an ok result."""
    history = [
        {"role": "user", "parts": [{"text": "Refund order 42."}]},
        {"role": "model", "parts": [{"text": "Refunding.", "thought_signature": None},
                                    {"function_call": {"id": None, "name": "refund", "args": {"order": 42}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "refund",
                                                          "response": {"error": "order 42 is locked"}}}]},
        {"role": "model", "parts": [{"function_call": {"name": "lookup", "args": {"order": 42}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "lookup", "response": {"output": {"paid": True}}}}]},
        {"role": "model", "parts": [{"text": "Done."}]}]
    path = tmp_path / "gemini-history.json"
    path.write_text(json.dumps(history), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert [(e["kind"], e.get("tool", e.get("output", e.get("content"))), e.get("status")) for e in data["trace"]] == [
        ("human_message", "Refund order 42.", None), ("executor_message", "Refunding.", None),
        ("tool_call", "refund", None), ("tool_result", "order 42 is locked", "error"),
        ("tool_call", "lookup", None), ("tool_result", '{"paid": true}', None), ("executor_message", "Done.", None)]


def test_langsmith_tool_runs_sent_with_hidden_outputs_only_are_not_recorded_not_empty_results(tmp_path: Path):
    """LANGSMITH_HIDE_OUTPUTS alone: the SDK sends each run's outputs as {} and its inputs as they are (a tool run's
    outputs are never {} otherwise: ``{"output": ...}``); each tool result was ``{}`` with status ok, a silent
    failure's very shape (campaign 18 read them as not recorded only when the inputs were hidden too)."""
    from trace_import_support import FIXTURES

    from warroom.importers import langsmith

    recorded = (FIXTURES / "frameworks" / "langsmith-batch.jsonl").read_text(encoding="utf-8")
    batches = [json.loads(line) for line in recorded.splitlines()]
    for batch in batches:
        for run in (r for key in ("post", "patch") for r in batch.get(key, [])):
            if run.get("run_type") == "tool" and run.get("outputs"):
                run["outputs"] = {}
    path = tmp_path / "hidden-outputs.jsonl"
    path.write_text("".join(json.dumps(b) + "\n" for b in batches), encoding="utf-8")
    [(data, _)] = converter(langsmith)(path)
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    calls = {e["id"]: e["tool"] for e in data["trace"] if e["kind"] == "tool_call"}
    shown = {calls[call]: (r["status"], r["output"][:14]) for call, r in results.items()}
    assert shown == {"list_charges": ("ok", "(not recorded:"), "get_order": ("ok", "(not recorded:"),
                     "close_ticket": ("ok", "(not recorded:"), "crm_lookup": ("error", "RuntimeError('")}


def test_openinference_tool_spans_with_only_their_outputs_masked_are_not_recorded_not_empty_results(tmp_path: Path):
    """OPENINFERENCE_HIDE_OUTPUTS alone: each TOOL span's ``output.value`` is ``__REDACTED__``, its ``input.value``
    as it was; each result was an empty text with status ok, a silent failure's very shape (campaign 18 read a tool
    span as not recorded only when its input was masked too)."""
    from trace_import_support import FIXTURES

    from warroom.importers import openinference

    recorded = (FIXTURES / "frameworks" / "langgraph-openinference.jsonl").read_text(encoding="utf-8")
    exports = [json.loads(line) for line in recorded.splitlines() if line.strip()]
    spans = [span for export in exports for resource in export["resourceSpans"]
             for scope in resource["scopeSpans"] for span in scope["spans"]]
    masked = 0
    for span in spans:
        if {"key": "openinference.span.kind", "value": {"stringValue": "TOOL"}} in span["attributes"]:
            for kv in span["attributes"]:
                if kv["key"] == "output.value":
                    kv["value"], masked = {"stringValue": "__REDACTED__"}, masked + 1
    path = tmp_path / "hidden-outputs.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in exports), encoding="utf-8")
    [(data, _)] = converter(openinference)(path)
    results = {e["call"]: e for e in data["trace"] if e["kind"] == "tool_result"}
    calls = {e["id"]: e["tool"] for e in data["trace"] if e["kind"] == "tool_call"}
    shown = {calls[call]: (r["status"], str(r["output"])[:14]) for call, r in results.items()}
    assert masked == 3 and shown == {
        "list_charges": ("ok", "(not recorded:"), "get_order": ("ok", "(not recorded:"),
        "close_ticket": ("ok", "(not recorded:"), "crm_lookup": ("error", "RuntimeError: ")}
