"""Bad trace files a new author feeds the importers by mistake: each message names the real problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trace_import_support import FIXTURES, converter

from warroom.importers import chat, openinference, otel
from warroom.importers.kit import TraceError, parse_json
from warroom.importers.otlp import read_spans

CURRENT = FIXTURES / "otel" / "current.json"


def test_a_truncated_pretty_printed_document_is_not_read_as_json_lines(tmp_path: Path) -> None:
    # a document written with indentation (many lines), cut short: not "line 1: ... column 2" of JSON Lines
    text = CURRENT.read_text(encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(TraceError) as e:
        read_spans(cut)
    message = str(e.value)
    assert message.startswith("not JSON: "), message
    assert not message.startswith("line 1:"), message
    lineno = text[: len(text) // 2].count("\n") + 1
    assert f"at line {lineno} column" in message, message


def test_a_truncated_line_before_the_last_of_json_lines_still_refuses_the_file_naming_its_line(
        tmp_path: Path) -> None:
    # corruption inside the file, not a write stopped at its end
    lines = (FIXTURES / "otel" / "legacy.jsonl").read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join([*lines[:-2], lines[-2][:50], lines[-1]]) + "\n", encoding="utf-8")
    with pytest.raises(TraceError, match=rf"^line {len(lines) - 1}: not JSON: "):
        read_spans(cut)


@pytest.mark.parametrize(("value", "kind"), [("5", "a JSON number"), ('{"spans": []}', "a JSON object"),
                                               ('"x"', "a JSON string")])
def test_resource_spans_of_the_wrong_type_is_named_as_such(tmp_path: Path, value: str, kind: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(f'{{"resourceSpans": {value}}}', encoding="utf-8")
    with pytest.raises(TraceError) as e:
        read_spans(bad)
    assert str(e.value) == f"not OTLP/JSON traces: `resourceSpans` is {kind}, not a list"


def test_an_object_without_resource_spans_still_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"spans": []}', encoding="utf-8")
    with pytest.raises(TraceError, match=r"^not OTLP/JSON traces: an object without `resourceSpans`$"):
        read_spans(bad)


@pytest.mark.parametrize(("module", "path", "other"), [
    (openinference, CURRENT, "otel"),
    (openinference, FIXTURES / "otel" / "legacy.jsonl", "otel"),
    (otel, FIXTURES / "openinference" / "phoenix.jsonl", "openinference"),
])
def test_a_trace_in_the_other_convention_is_refused_not_imported_empty(module, path: Path, other: str) -> None:
    # the other importer's fixture has error spans, which alone used to make a drill of one log event
    with pytest.raises(TraceError) as e:
        converter(module)(path)
    message = str(e.value)
    assert "no span of this trace is an agent, model call or tool call" in message
    assert f"warroom import {other}" in message


def test_json_error_messages_do_not_repeat_at() -> None:
    with pytest.raises(ValueError) as e:
        parse_json('{"a": "unterminated')
    assert str(e.value) == "not JSON: Unterminated string starting at line 1 column 7"


def test_a_tool_call_name_that_is_not_text_is_named_so(tmp_path: Path) -> None:
    bad = tmp_path / "c.json"
    bad.write_text(json.dumps([{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": 5, "arguments": "{}"}}]}]), encoding="utf-8")
    with pytest.raises(TraceError, match=r"^\[1\]\.tool_calls\[0\]\.function\.name is a JSON number, not a tool "
                                         r"name$"):
        converter(chat)(bad)
