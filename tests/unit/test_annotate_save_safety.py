"""``warroom annotate``'s save against what other editors and file systems do (issue 30, item 9): a file changed on
disk since it was opened is not overwritten, a symbolic link stays a link, a read-only file is refused, a save that
changes nothing is byte for byte (CRLF, a byte-order mark, no final newline), and valid drills with a ``%YAML 1.2``
directive or a U+2028 in a comment can be saved into."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from warroom.core.author import AnnotateError, ChangedOnDisk, KeyWriteError, open_for_annotation, write_draft
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill

DRILL = "duplicate-charge-refunds"


def drill_copy(tmp_path: Path, name: str = DRILL, transform=lambda text: text) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(transform((bundled_drills_dir() / f"{name}.yaml").read_text(encoding="utf-8")).encode("utf-8"))
    return path


def save_unchanged(path: Path) -> None:
    f = open_for_annotation(path)
    write_draft(path, f.draft, f.event_order, f.sha256)


def save_changed(path: Path) -> None:
    """A real change: one more accepted event (an evidence event the draft lacks) or the distractors dropped."""
    f = open_for_annotation(path)
    if f.draft.distractors:
        f.draft.distractors.clear()
    else:
        f.draft.deadline = None
    write_draft(path, f.draft, f.event_order, f.sha256)


@pytest.mark.parametrize(
    "transform",
    [
        lambda t: t.replace("\n", "\r\n"),
        lambda t: "\ufeff" + t,
        lambda t: "\ufeff" + t.replace("\n", "\r\n"),
        lambda t: t.rstrip("\n"),
        lambda t: t.replace("\n", "\r"),
        lambda t: t.replace("\nanswer_key:", '\n"answer_key":'),
        lambda t: "%YAML 1.2\n---\n" + t,
    ],
    ids=["crlf", "bom", "bom-crlf", "no-final-newline", "lone-cr", "quoted-key", "yaml-directive"],
)
def test_a_save_that_changes_nothing_is_byte_for_byte(tmp_path: Path, transform):
    path = drill_copy(tmp_path, transform=transform)
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    save_unchanged(path)
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime  # not even rewritten


def test_a_flow_mapping_in_the_answer_key_is_kept_by_a_save_that_changes_nothing(tmp_path: Path):
    path = drill_copy(tmp_path, "api-dns-cutover")
    before = path.read_bytes()
    save_unchanged(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_a_changed_save_keeps_crlf_line_ends_and_a_byte_order_mark(tmp_path: Path, bom: str):
    path = drill_copy(tmp_path, transform=lambda t: bom + t.replace("\n", "\r\n"))
    save_changed(path)
    raw = path.read_bytes()
    assert raw.startswith(bom.encode("utf-8")) and b"\n" not in raw.replace(b"\r\n", b"")
    load_drill(path)


@pytest.mark.parametrize(
    "transform",
    [
        lambda t: "%YAML 1.2\n---\n" + t,
        lambda t: t.replace("\nanswer_key:", "\n# was a\u2028b\u2029c\x85d\nanswer_key:"),
    ],
    ids=["yaml-directive", "odd-line-breaks-in-a-comment"],
)
def test_valid_drills_that_other_yaml_readers_misread_can_be_saved_into(tmp_path: Path, transform):
    path = drill_copy(tmp_path, transform=transform)
    load_drill(path)  # valid as written
    save_changed(path)
    load_drill(path)
    text = path.read_text(encoding="utf-8")
    assert "\u2028" in text or "%YAML 1.2" in text  # the rest kept as written


def test_a_file_changed_on_disk_since_it_was_opened_is_not_overwritten(tmp_path: Path):
    path = drill_copy(tmp_path)
    f = open_for_annotation(path)
    other = path.read_text(encoding="utf-8") + "# another editor's line\n"
    path.write_text(other, encoding="utf-8")
    f.draft.distractors.clear()
    with pytest.raises(ChangedOnDisk, match="changed on disk since it was opened"):
        write_draft(path, f.draft, f.event_order, f.sha256)
    assert path.read_text(encoding="utf-8") == other


def test_saves_one_after_the_other_are_not_taken_for_another_editor(tmp_path: Path):
    path = drill_copy(tmp_path)
    f = open_for_annotation(path)
    f.draft.distractors.clear()
    f.sha256 = write_draft(path, f.draft, f.event_order, f.sha256)
    f.draft.deadline = None
    f.sha256 = write_draft(path, f.draft, f.event_order, f.sha256)
    assert open_for_annotation(path).draft.deadline is None


def test_a_symlinked_drill_stays_a_symlink_and_its_target_is_saved_into(tmp_path: Path):
    target = drill_copy(tmp_path / "store")
    link = tmp_path / "linked.yaml"
    link.symlink_to(target)
    save_changed(link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert not open_for_annotation(target).draft.distractors


def test_a_read_only_drill_is_refused_clearly_and_left_as_it_is(tmp_path: Path):
    path = drill_copy(tmp_path)
    path.chmod(0o444)
    before = path.read_bytes()
    with pytest.raises(KeyWriteError, match=r"read-only \(mode -r--r--r--\): make it writable"):
        save_changed(path)
    assert path.read_bytes() == before and path.stat().st_mode & 0o777 == 0o444
    save_unchanged(path)  # nothing to write: no refusal


def test_every_bundled_drill_saves_unchanged_byte_for_byte(tmp_path: Path):
    for source in sorted(bundled_drills_dir().glob("*.yaml")):
        path = tmp_path / source.name
        shutil.copyfile(source, path)
        try:
            f = open_for_annotation(path)
        except AnnotateError:  # a control drill, or one the author mode does not open (it says why)
            continue
        before = path.read_bytes()
        write_draft(path, f.draft, f.event_order, f.sha256)
        assert path.read_bytes() == before, source.name
