"""Files replaced whole or not at all (warroom/core/files/_atomic.py): the one writer every file a reader may open
at any moment goes through."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from warroom.core.files import _atomic, replace_file, replace_files


def test_a_new_file_gets_its_bytes_and_a_new_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "drill.yaml"
    replace_file(target, "id: x\r\nwindows line ends kept\n")
    assert target.read_bytes() == b"id: x\r\nwindows line ends kept\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["drill.yaml"]


def test_a_replaced_file_keeps_its_mode_unless_one_is_given(tmp_path: Path) -> None:
    target = tmp_path / "roster.yaml"
    target.write_text("old")
    target.chmod(0o640)
    replace_file(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640
    replace_file(target, "newer", mode=0o600)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_failure_leaves_the_targets_as_they_were_and_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("a as it was")
    real = _atomic.write_temporary
    calls: list[Path] = []

    def full_at_the_second(path: Path, data: str | bytes, *, mode: int | None = None) -> Path:
        calls.append(Path(path))
        if len(calls) == 2:
            raise OSError(28, "No space left on device", "ignored")
        return real(path, data, mode=mode)

    monkeypatch.setattr(_atomic, "write_temporary", full_at_the_second)
    with pytest.raises(OSError) as info:
        replace_files([(a, "a new"), (b, "b new")])
    assert info.value.filename == str(b) and info.value.errno == 28  # named by its target, not its temporary
    assert a.read_text() == "a as it was" and not b.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def test_a_symbolic_link_at_the_temporary_name_is_never_followed(tmp_path: Path, monkeypatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not to be touched")
    target = tmp_path / "t.yaml"
    names = iter(["aaaaaaaaaaaa", "bbbbbbbbbbbb"])
    monkeypatch.setattr(_atomic.secrets, "token_hex", lambda n: next(names))
    (tmp_path / ".t.yaml.aaaaaaaaaaaa.tmp").symlink_to(elsewhere)  # taken: the next name is used
    replace_file(target, "written")
    assert target.read_text() == "written" and elsewhere.read_text() == "not to be touched"
