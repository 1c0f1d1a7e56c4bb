"""Gemini's content parts read by one reader (``exports.gemini_part_text``) wherever they come: ``warroom import
chat`` (a ``contents`` history, camel case as the REST API writes it or snake case as google-genai's
``model_dump()`` does) and the OpenTelemetry GenAI messages (``gen_ai.*.messages`` holding Gemini ``Content``).
Parts that are neither text nor a tool call (code, its result, media) were refused by ``chat`` ("a content part is
an object with `type`") and dropped by ``otel``; a dumped text part (every other field None) was dropped by chat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from trace_import_support import converter

from warroom.cli import main
from warroom.importers import chat, otel

CODE = {"language": "PYTHON", "code": "print(sum([12, 30]))"}
RESULT = {"outcome": "OUTCOME_OK", "output": "42\n"}
INLINE = {"mime_type": "image/png", "data": "iVBORw0KGgo" * 10}
FILE = {"mime_type": "application/pdf", "file_uri": "gs://b/invoice.pdf"}
#: Each part (snake case) and what the drill shows for it.
SHOWN = [
    ({"executable_code": CODE}, "[executableCode part PYTHON]\nprint(sum([12, 30]))"),
    ({"code_execution_result": RESULT}, "[codeExecutionResult part OUTCOME_OK]\n42\n"),
    ({"inline_data": INLINE}, "[inlineData part image/png, 110 characters]"),
    ({"file_data": FILE}, "[fileData part application/pdf gs://b/invoice.pdf]"),
]


def _camel(value: Any) -> Any:
    if isinstance(value, dict):
        return {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): _camel(v)
                for k, v in value.items()}
    return [_camel(v) for v in value] if isinstance(value, list) else value


def _history(part: dict[str, Any], *, dumped: bool) -> list[dict[str, Any]]:
    """A Gemini chat history whose model turn holds ``part`` between a text and a function call; ``dumped``: as
    google-genai's ``Content.model_dump()`` writes parts (snake case, the other fields None)."""
    nones = {"text": None, "thought": None, "function_call": None, "inline_data": None} if dumped else {}
    turns = [
        {"role": "user", "parts": [{**nones, "text": "Add 12 and 30, then refund order 42."}]},
        {"role": "model", "parts": [{**nones, "text": "Computing."}, {**nones, **part},
                                    {**nones, "function_call": {"id": "c1", "name": "refund", "args": {"order": 42}}}]},
        {"role": "user", "parts": [{**nones, "function_response": {"id": "c1", "name": "refund",
                                                                  "response": {"output": "refunded"}}}]},
        {"role": "model", "parts": [{**nones, "text": "Done."}]}]
    return turns if dumped else _camel(turns)


@pytest.mark.parametrize("dumped", [False, True], ids=["camel", "snake"])
@pytest.mark.parametrize(("part", "shown"), SHOWN, ids=[next(iter(p)) for p, _ in SHOWN])
def test_warroom_import_chat_shows_each_gemini_part(tmp_path: Path, part: dict[str, Any], shown: str,
                                                    dumped: bool) -> None:
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps({"contents": _history(part, dumped=dumped)}), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "chat", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    [(data, _)] = converter(chat)(path)
    assert [(e["kind"], e.get("content", e.get("tool", e.get("output")))) for e in data["trace"]] == [
        ("human_message", "Add 12 and 30, then refund order 42."), ("executor_message", f"Computing.\n{shown}"),
        ("tool_call", "refund"), ("tool_result", "refunded"), ("executor_message", "Done.")]


def _otel(tmp_path: Path, messages: list[dict[str, Any]]) -> dict[str, Any]:
    attrs = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gemini-2.5-flash",
             "gen_ai.input.messages": json.dumps(messages[:1]), "gen_ai.output.messages": json.dumps(messages[1:2])}
    span = {"traceId": "ab" * 16, "spanId": "01", "parentSpanId": "", "name": "chat gemini-2.5-flash",
            "startTimeUnixNano": "1000000000", "endTimeUnixNano": "2000000000",
            "attributes": [{"key": k, "value": {"stringValue": v}} for k, v in attrs.items()]}
    path = tmp_path / "otel.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="utf-8")
    [(data, _)] = converter(otel)(path)
    return data


@pytest.mark.parametrize("dumped", [False, True], ids=["camel", "snake"])
@pytest.mark.parametrize(("part", "shown"), SHOWN, ids=[next(iter(p)) for p, _ in SHOWN])
def test_the_otel_path_shows_each_gemini_part_as_chat_does(tmp_path: Path, part: dict[str, Any], shown: str,
                                                           dumped: bool) -> None:
    data = _otel(tmp_path, _history(part, dumped=dumped))
    [said] = [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert said["content"] == f'Computing.\n{shown}\n[tool call refund {{"order": 42}}]'
    assert data["briefing"]["goal"] == "Add 12 and 30, then refund order 42."


@pytest.mark.parametrize("dumped", [False, True], ids=["camel", "snake"])
def test_the_otel_path_shows_a_gemini_function_response(tmp_path: Path, dumped: bool) -> None:
    history = _history({"executable_code": CODE}, dumped=dumped)
    data = _otel(tmp_path, [history[0], history[2]])  # a function response as the "output": shown, not dropped
    [said] = [e for e in data["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert said["content"] == "[tool call response c1 {\"output\": \"refunded\"}]"


@pytest.mark.parametrize("dumped", [False, True], ids=["camel", "snake"])
def test_a_gemini_function_response_is_the_tools_answer_not_the_users_words(tmp_path: Path, dumped: bool) -> None:
    # otel left only GenAI's `tool_call_response` parts out of the user's words: a Gemini user turn of function
    # responses would be read as the user's request; the one message reader reads such a turn as a tool message
    from warroom.importers.exports import message

    history = _history({"executable_code": CODE}, dumped=dumped)
    data = _otel(tmp_path, [history[2], history[1]])
    assert data["briefing"]["goal"].startswith("(the trace records no user request")
    read = message(history[2])
    assert read is not None and (read.role, read.call_id) == ("tool", "c1")


def test_a_gemini_part_of_a_kind_no_reader_knows_is_shown_by_its_field_not_refused(tmp_path: Path) -> None:
    # a part kind a later API adds (an object under a field of its own) was refused by chat ("a content part is an
    # object with `type`") and dropped by otel
    part, shown = {"toolCall": {"name": "web_search", "args": {"q": "order 42"}}}, \
        '[toolCall part {"name": "web_search", "args": {"q": "order 42"}}]'
    history = _history(part, dumped=False)
    path = tmp_path / "gemini.json"
    path.write_text(json.dumps({"contents": history}), encoding="utf-8")
    [(data, _)] = converter(chat)(path)
    assert data["trace"][1]["content"] == f"Computing.\n{shown}"
    [said] = [e for e in _otel(tmp_path, history)["trace"] if e["kind"] in ("planner_call", "executor_message")]
    assert said["content"] == f'Computing.\n{shown}\n[tool call refund {{"order": 42}}]'
