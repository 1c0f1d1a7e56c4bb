"""A JSON Lines trace whose last line was cut off mid-write (a Collector file exporter or an SDK export stopped
part-way) imports its complete lines, with a `file:line` warning for the cut-off one; every importer that reads
JSON Lines does it through one piece of code (warroom.importers.reading.json_lines)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from trace_import_support import FIXTURES, converter

from warroom.importers import chat, langfuse, langsmith, openinference, otel
from warroom.importers import openai_agents as agentsdk
from warroom.importers.kit import ReadWarning, TraceError, collect_warnings, cut_off, json_lines, parse_json, warn

THIRD = FIXTURES / "thirdparty"


@pytest.mark.parametrize("line", [
    '{"a": "abc', '{"a": "abc\\', '{"a": "\\u12', '{"a": 1, "b": [1, 2', '{"a": 1', '{"a": 1,', '{"a":', '{"a"',
    '{"', '{', '{"a": tru', '{"a": fal', '{"a": nu', '{"a": -', '{"a": 1.', '{"a": 1e+', '{"a": -0.',
])
def test_a_line_that_stops_inside_a_value_is_cut_off(line: str) -> None:
    assert cut_off(line)


@pytest.mark.parametrize("line", [
    '{"a": 1}}', '{"a": x}', '{"a": 1,}', '{"a": "x\ty"}', '{"a": nx', '{"a": 1.x}', '{"a": 1}', 'x', "",
])
def test_a_line_with_a_mistake_in_it_or_complete_is_not_cut_off(line: str) -> None:
    assert not cut_off(line)


def _lines(text: str) -> list[tuple[int, Any]]:
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        whole = TraceError(f"not JSON: {e.msg}")
    return json_lines(text, whole, "a test file")


def test_the_cut_off_last_line_is_skipped_with_a_warning_at_its_line() -> None:
    with collect_warnings() as warnings:
        values = _lines('{"n": 1}\n\n{"n": 2}\n{"n": 3, "text": "cut he')
    assert values == [(1, {"n": 1}), (3, {"n": 2})]
    assert warnings == [ReadWarning(4, "the last line is cut off: it ends inside a JSON value, after 24 characters "
                                       "(a write stopped part-way); it is skipped, and the 2 lines before it are read")]
    assert warnings[0].at(Path("t.jsonl")) == f"t.jsonl:4: warning: {warnings[0].message}"


def test_one_line_before_the_cut_is_named_in_the_singular() -> None:
    with collect_warnings() as warnings:
        assert _lines('{"n": 1}\n{"n": 2') == [(1, {"n": 1})]
    assert warnings[0].message.endswith("it is skipped, and the line before it is read")


def test_a_trailing_newline_and_blank_last_lines_are_no_problem() -> None:
    with collect_warnings() as warnings:
        assert _lines('{"n": 1}\n{"n": 2}\n\n  \n') == [(1, {"n": 1}), (2, {"n": 2})]
    assert warnings == []


@pytest.mark.parametrize(("text", "message"), [
    ('{"n": 1}\n{"n": 2\n{"n": 3}\n', r"^line 2: not JSON: Expecting ',' delimiter"),  # cut, but not the last
    ('{"n": 1}\n{"n": 2}}\n',  # the last line, but not cut off
     r"^line 2: not JSON: text after the end of the JSON value at line 1 column 9 \(`}`\): remove it$"),
    ('{"n": 1}\n{"n": 2, x\n', r"^line 2: not JSON: Expecting property name"),
])
def test_a_bad_line_that_is_not_a_cut_off_end_still_refuses_the_file(text: str, message: str) -> None:
    with collect_warnings() as warnings, pytest.raises(TraceError, match=message):
        _lines(text)
    assert warnings == []


def test_a_file_of_one_cut_off_line_is_refused_as_one_value_cut_short() -> None:
    with pytest.raises(TraceError, match=r"^not JSON: Unterminated string"):
        _lines('{"n": "cut')


def test_lines_end_at_newlines_only_not_at_a_line_separator_inside_a_string() -> None:
    # json.dumps(..., ensure_ascii=False) writes U+2028 and form feeds raw; str.splitlines would split there
    text = json.dumps({"n": 1, "text": "a\u2028b\x0cc"}, ensure_ascii=False) + "\n" + json.dumps({"n": 2}) + "\n"
    assert _lines(text) == [(1, {"n": 1, "text": "a\u2028b\x0cc"}), (2, {"n": 2})]


def test_a_warning_outside_a_collection_is_dropped_and_collections_nest() -> None:
    warn("nobody is listening")
    with collect_warnings() as outer:
        warn("outer", 1)
        with collect_warnings() as inner:
            warn("inner")
        warn("outer again", 2)
    assert inner == [ReadWarning(None, "inner")]
    assert outer == [ReadWarning(1, "outer"), ReadWarning(2, "outer again")]
    assert inner[0].at("x.json") == "x.json: warning: inner"


Importer = Callable[..., Any]
Converter = Callable[[Path], list[tuple[dict[str, Any], str]]]

IMPORTERS: list[tuple[Importer, Converter, Path]] = [
    (otel.import_otel, converter(otel), FIXTURES / "otel" / "legacy.jsonl"),
    (openinference.import_openinference, converter(openinference), FIXTURES / "openinference" / "phoenix.jsonl"),
    (chat.import_chats, converter(chat), THIRD / "chat-finetune.jsonl"),
    (langsmith.import_langsmith, converter(langsmith), THIRD / "langsmith-planner-executor.json"),
    (langfuse.import_langfuse, converter(langfuse), THIRD / "langfuse-trace.json"),
    (agentsdk.import_openai_agents, converter(agentsdk), THIRD / "openai-agents-sdk-run.jsonl"),
]


def _complete_lines(source: Path) -> list[str]:
    """The export at ``source`` as JSON Lines: its own lines, or the one document on one line."""
    text = source.read_text(encoding="utf-8")
    if source.suffix == ".jsonl":
        return [line for line in text.split("\n") if line.strip()]
    return [json.dumps(json.loads(text))]


@pytest.mark.parametrize(("import_files", "convert", "source"), IMPORTERS,
                         ids=["otel", "openinference", "chat", "langsmith", "langfuse", "openai-agents"])
def test_every_json_lines_importer_imports_the_complete_lines_and_warns_of_the_cut_one(
        tmp_path: Path, import_files: Importer, convert: Converter, source: Path) -> None:
    lines = _complete_lines(source)
    whole = tmp_path / "whole.jsonl"
    whole.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines) + "\n" + lines[-1][: len(lines[-1]) // 2], encoding="utf-8")
    report = import_files([cut], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    expected = [data["trace"] for data, _ in convert(whole)]
    assert [data["trace"] for data, _ in convert(cut)] == expected
    assert len(report.imported) == len(expected)
    [(path, warning)] = report.warnings
    assert (path, warning.line) == (cut, len(lines) + 1)
    assert warning.message.startswith("the last line is cut off: it ends inside a JSON value")
    assert report.results[0].warnings == (warning,) and all(not r.warnings for r in report.results[1:])


def _chat_lines(n: int) -> list[str]:
    return [json.dumps({"messages": [{"role": "user", "content": f"café ☕ {i}"},
                                     {"role": "assistant", "content": "ok"}]}, ensure_ascii=False) for i in range(n)]


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_a_character_of_several_bytes_cut_in_half_on_the_last_line_is_a_cut_off_line(tmp_path: Path,
                                                                                     keep: int) -> None:
    # was `not UTF-8 text: byte 0xe2 at offset ... (line 3)`: the whole file refused for the half character
    lines = _chat_lines(3)
    last = lines[-1].encode("utf-8")
    cut = last[: last.index("☕".encode()) + keep]  # 1 or 2 of the cup's 3 bytes, or all 3 (a whole character)
    path = tmp_path / "cut.jsonl"
    path.write_bytes(("\n".join(lines[:-1]) + "\n").encode("utf-8") + cut)
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len(report.imported) == 2
    [(_, warning)] = report.warnings
    assert warning.line == 3 and warning.message.startswith("the last line is cut off")


def test_a_half_character_after_complete_json_is_still_not_utf8(tmp_path: Path) -> None:
    lines = _chat_lines(2)
    path = tmp_path / "stray.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8") + b"\xc3")
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error is not None and result.error.startswith("not UTF-8 text: byte 0xc3 at offset")


@pytest.mark.parametrize(("first", "message"), [
    ('{"messages": [], "n": ' + "1" * 40 + "}",
     "line 1: n is a number with 40 digits; numbers are limited to 30 digits"),
    ('{"messages": [], "s": "\\ud800"}',
     "line 1: s contains an unpaired surrogate (\\ud800), which is not a character"),
])
def test_a_first_line_refused_for_its_limits_is_named_by_its_line(first: str, message: str) -> None:
    # was `not JSON: Extra data at line 2 column 1`, the error of the file read as one value
    with pytest.raises(TraceError) as caught:
        _lines(first + "\n" + '{"messages": []}\n')
    assert str(caught.value) == message


@pytest.mark.parametrize("end", ["", "\n", "\r\n", "\n\n"])
def test_a_file_of_one_value_cut_off_says_so(end: str) -> None:
    # with a newline after the cut, was `not JSON: Invalid control character at line 1 column 11`
    text = '{"n": "cut' + end
    with pytest.raises(TraceError) as read:
        parse_json(text, TraceError)  # the error of the file read as one value, as the importers make it
    with pytest.raises(TraceError) as caught:
        json_lines(text, read.value, "a test file")
    assert str(caught.value) == ("not JSON: Unterminated string starting at line 1 column 7 (the file ends inside a "
                                 "JSON value, after 10 characters, as when a write stops part-way; no line of it is "
                                 "complete)")


def test_a_gzip_file_cut_off_is_named_with_a_command_that_reads_it(tmp_path: Path) -> None:
    # `gunzip -k FILE`, which the message for a whole gzip file advises, refuses a cut-off one and writes nothing
    whole = gzip.compress(("\n".join(_chat_lines(40)) + "\n").encode("utf-8"))
    path = tmp_path / "trace.jsonl.gz"
    path.write_bytes(whole[: len(whole) // 2])
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error == ("compressed (gzip) and cut off: the gzip stream ends part-way (a write stopped?); "
                            "`gunzip` refuses it, but `gzip -dc FILE > OUT.jsonl` writes the text it holds (a last "
                            "line cut off is then skipped with a warning): import that")
    path.write_bytes(whole)
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error is not None and result.error.startswith("compressed (gzip), not UTF-8 JSON text")
