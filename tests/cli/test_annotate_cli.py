"""`warroom annotate FILE` on the command line: bad input as `path: message` lines, a drill with an answer key opens
for editing, and `warroom validate` names what an unmarked or half-marked drill is missing, by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from trace_import_support import FIXTURES

from warroom.cli import main
from warroom.core.author import DeadlineMark, write_draft
from warroom.core.library import bundled_drills_dir
from warroom.core.rules import MISSING_ANSWER_KEY


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Stand in for the terminal UI: record the file each AnnotateApp would open instead of running it."""
    from warroom.tui.app import AnnotateApp

    seen: list[object] = []
    monkeypatch.setattr(AnnotateApp, "run", lambda self, *a, **k: seen.append(self.file))
    return seen


def imported(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "chat", str(FIXTURES / "chat" / "refund.json"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "chat-refund.yaml"


def test_a_missing_file_is_a_usage_error(tmp_path: Path, opened: list[object]) -> None:
    result = CliRunner().invoke(main, ["annotate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "does not exist" in result.output and "Traceback" not in result.output
    assert opened == []


def test_a_file_that_is_not_a_drill_is_reported_by_line(tmp_path: Path, opened: list[object]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 2\nid: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["annotate", str(bad)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{bad}:3:1: ") or lines[0].startswith(f"{bad}:2:")
    assert lines[-1] == f"{bad}: cannot be marked up until the problems above are fixed"
    assert opened == []


def test_an_imported_drill_opens_with_an_empty_key(tmp_path: Path, opened: list[object]) -> None:
    path = imported(tmp_path)
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 0, result.output
    (file,) = opened
    assert file.path == path and file.draft.missing()[0] == "answer_key.fault.origin_step"  # type: ignore[attr-defined]


def test_a_drill_with_an_answer_key_opens_for_editing(opened: list[object]) -> None:
    path = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    result = CliRunner().invoke(main, ["annotate", str(path)])
    assert result.exit_code == 0, result.output
    (file,) = opened
    assert not file.draft.missing()  # type: ignore[attr-defined]


def test_a_control_drill_is_refused(tmp_path: Path, opened: list[object]) -> None:
    from locations import ALL_CLEAR

    control = next(p for p in sorted(ALL_CLEAR.glob("*.yaml")) if "\nall_clear:" in p.read_text())
    result = CliRunner().invoke(main, ["annotate", str(control)])
    assert result.exit_code == 1
    assert f"{control}: this is a control drill (all_clear)" in result.output
    assert opened == []


def test_validate_names_every_missing_field_of_an_unmarked_drill(tmp_path: Path) -> None:
    path = imported(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"{path}:17:1: {MISSING_ANSWER_KEY}" in result.output.splitlines()
    for field in ("fault (origin_step, kind, summary)", "answer_key.evidence", "answer_key.damage (unit, entries)",
                  "answer_key.deadline", "answer_key.debrief", "warroom annotate FILE"):
        assert field in MISSING_ANSWER_KEY


def test_validate_names_what_a_half_marked_drill_misses_by_line(tmp_path: Path) -> None:
    from warroom.core.author import open_for_annotation

    path = imported(tmp_path)
    file = open_for_annotation(path)
    file.draft.origin_step, file.draft.evidence = "u01", ["m003"]
    file.draft.deadline = DeadlineMark(7, "m003")
    write_draft(path, file.draft, file.event_order)
    lines = path.read_text().splitlines()
    key_line = lines.index("answer_key:") + 1
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines()
                if line.startswith(f"{path}:") and "not checked" not in line]
    assert problems == [
        f"{path}:{key_line}:1: `answer_key` is missing the required key `damage`",
        f"{path}:{key_line}:1: `answer_key` is missing the required key `debrief`",
        f"{path}:{key_line + 1}:3: `answer_key.fault` is missing the required key `kind`",
        f"{path}:{key_line + 1}:3: `answer_key.fault` is missing the required key `summary`",
    ]


def test_a_fifo_is_refused_without_waiting_on_it(tmp_path: Path, opened: list[object]) -> None:
    import os

    fifo = tmp_path / "drill.yaml"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["annotate", str(fifo)])
    assert result.exit_code == 1
    assert f"{fifo}: this is a FIFO, not a drill file (only regular files are read)" in result.output
    assert opened == []


def test_a_file_that_is_not_utf8_is_named_by_line(tmp_path: Path, opened: list[object]) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"schema_version: 2\nid: caf\xe9\n")
    result = CliRunner().invoke(main, ["annotate", str(bad)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines()[0] == (
        f"{bad}:2:8: the file is not UTF-8 text (byte 0xe9 here); save it as UTF-8")
