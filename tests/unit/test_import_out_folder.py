"""`--out` folders that already hold things: a folder where a drill would go is refused even with --force, and a
file's drills are written all or none (a file that fails leaves nothing in --out, as docs/importing.md says)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warroom.core.files import _atomic as files
from warroom.importers import chat


def _three_chats(path: Path) -> Path:
    lines = [json.dumps({"messages": [{"role": "user", "content": f"refund order {i}"},
                                      {"role": "assistant", "content": "done"}]}) for i in range(3)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_folder_where_a_drill_goes_refuses_the_file_before_anything_is_written(tmp_path: Path) -> None:
    # was: with --force, chat-inc-0.yaml (the author's file) overwritten, then `cannot write the drill: Is a
    # directory` for chat-inc-1.yaml: the file reported failed with one of its drills written
    out = tmp_path / "out"
    out.mkdir()
    (out / "chat-inc-0.yaml").write_text("an author's edits\n", encoding="utf-8")
    (out / "chat-inc-1.yaml").mkdir()
    report = chat.import_chats([_three_chats(tmp_path / "inc.jsonl")], out, force=True)
    [result] = report.results
    assert result.error == (f"{out / 'chat-inc-1.yaml'} is a folder, not a drill file: move it away or import "
                            "into another --out folder")
    assert (out / "chat-inc-0.yaml").read_text(encoding="utf-8") == "an author's edits\n"
    assert sorted(p.name for p in out.iterdir()) == ["chat-inc-0.yaml", "chat-inc-1.yaml"]


def test_a_drill_that_cannot_be_written_leaves_none_of_its_files_drills(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    real = files.write_temporary
    calls: list[Path] = []

    def disk_full_at_the_second(path: Path, text: str, *, mode: int | None = None) -> Path:
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(path.parent / f".{path.name}.0a1b2c.tmp"))
        return real(path, text, mode=mode)

    monkeypatch.setattr(files, "write_temporary", disk_full_at_the_second)
    [result] = chat.import_chats([_three_chats(tmp_path / "inc.jsonl")], out).results
    assert result.error == f"cannot write {out / 'chat-inc-1.yaml'}: No space left on device"
    assert list(out.iterdir()) == []  # no drill, and no temporary file


def test_every_drill_of_a_file_is_written_when_nothing_fails(tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = chat.import_chats([_three_chats(tmp_path / "inc.jsonl")], out)
    assert [r.output for r in report.results] == [out / f"chat-inc-{i}.yaml" for i in range(3)]
    assert sorted(p.name for p in out.iterdir()) == [f"chat-inc-{i}.yaml" for i in range(3)]
