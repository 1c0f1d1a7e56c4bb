"""A thirteenth hostile campaign, on warroom's inputs (issue 30): drills, drill sets, the importers, the command
line's arguments. Each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warroom.importers import chat


def _chat_lines(n: int) -> list[str]:
    return [json.dumps({"messages": [{"role": "user", "content": f"refund {i}"},
                                     {"role": "assistant", "content": "done"}]}) for i in range(n)]


@pytest.mark.parametrize(("tail", "line", "zeros"), [(b"\n" + b"\x00" * 4096, 3, "4,096"), (b"\x00" * 100, 2, "100")])
def test_json_lines_whose_end_a_crash_left_as_nul_bytes_import_with_a_warning(tmp_path: Path, tail: bytes,
                                                                              line: int, zeros: str) -> None:
    """A file whose length reached the disk but not its last blocks (a crash on a file system that allocates late)
    ends in NUL bytes. Its complete lines were refused as `line 3: not JSON: Expecting value` (or `Extra data` when
    the zeros follow the last line), naming nothing an editor shows: the NUL bytes are skipped with a warning at
    the line where they start, as a cut-off last line is."""
    path = tmp_path / "crashed.jsonl"
    path.write_bytes("\n".join(_chat_lines(2)).encode() + tail)
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len(report.imported) == 2
    [(_, warning)] = report.warnings
    assert warning.line == line
    assert warning.message == (f"the file ends in {zeros} NUL bytes (zeros where a write had not "
                               "reached the disk when the machine stopped?); they are skipped, and the text before "
                               "them is read")


def test_one_json_document_followed_by_nul_bytes_imports_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "crashed.json"
    path.write_bytes(json.dumps({"messages": [{"role": "user", "content": "x"}]}, indent=1).encode() + b"\x00" * 9)
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    [(_, warning)] = report.warnings
    assert warning.line == 8 and warning.message.startswith("the file ends in 9 NUL bytes")


def test_a_file_of_nul_bytes_only_is_said_to_be_one(tmp_path: Path) -> None:
    path = tmp_path / "zeros.jsonl"
    path.write_bytes(b"\x00" * 512)
    [result] = chat.import_chats([path], tmp_path / "out").results
    assert result.error == ("the file holds only NUL bytes (512), no JSON: a crash may have left it unwritten; "
                            "import the file the trace was written to again")


def test_json_lines_joined_by_cat_from_files_with_a_byte_order_mark_import(tmp_path: Path) -> None:
    """docs/importing.md advises `cat a.jsonl b.jsonl > trace.jsonl` to join JSON Lines files; a file that starts
    with a byte-order mark (as Windows tools write UTF-8) is read, but joined after another its mark starts a line
    inside the file, which was refused as `line 2: not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)` (advice
    for a programmer's decode call). A byte-order mark at the start of a line is dropped, as at the file's start."""
    first, second = _chat_lines(2)
    path = tmp_path / "joined.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + first.encode() + b"\r\n" + b"\xef\xbb\xbf" + second.encode() + b"\r\n")
    report = chat.import_chats([path], tmp_path / "out")
    assert not report.failed, [r.error for r in report.failed]
    assert len(report.imported) == 2 and report.warnings == []
    # a line that is only a mark (an empty file joined in) is a blank line
    path.write_bytes(first.encode() + b"\n\xef\xbb\xbf\n" + second.encode() + b"\n")
    report = chat.import_chats([path], tmp_path / "out2")
    assert not report.failed and len(report.imported) == 2


def test_a_crashed_file_given_to_the_wrong_importer_warns_once(tmp_path: Path) -> None:
    """The importer reads the file, then the recogniser reads it again to name its format: one warning, not two."""
    from warroom.importers import otel

    path = tmp_path / "crashed.jsonl"
    path.write_bytes("\n".join(_chat_lines(2)).encode() + b"\n" + b"\x00" * 10)
    report = otel.import_otel([path], tmp_path / "out")
    [result] = report.results
    assert result.error is not None and "`warroom import chat` reads it" in result.error
    assert [w.line for _, w in report.warnings] == [3]
