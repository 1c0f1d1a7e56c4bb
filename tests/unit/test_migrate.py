"""`warroom migrate`: version-1 drills rewritten as version 2, losslessly, with their comments and layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from locations import REPO

from warroom.core.author import migrate_file, seed_example_path
from warroom.core.author._migrate import migrate_text
from warroom.core.load import DrillLoadError, load_drill, load_drill_text

#: A bundled drill as it was in version 1 (the bundled drills are version 2 since the library was migrated).
V1_DRILL = REPO / "tests" / "fixtures" / "v1" / "sla-credits-october.yaml"
#: Every version-1 file: the bundled drills as they were in version 1 (tests/fixtures/v1, from git history before
#: the library was migrated), the seed example and the drills that load with warnings. (The fairness drills are
#: format 2, like the skeleton they are made from.)
V1_FILES = (
    sorted((REPO / "tests" / "fixtures" / "v1").glob("*.yaml"))
    + [seed_example_path()]
    + sorted((REPO / "tests" / "warnings").glob("*.yaml"))
)


@pytest.mark.parametrize("path", V1_FILES, ids=lambda p: p.stem)
def test_every_bundled_v1_file_migrates_losslessly(path: Path):
    text = path.read_text(encoding="utf-8")
    before = load_drill(path)
    assert before.schema_version == 1
    result = migrate_text(text, str(path))
    assert result.changed
    after = load_drill_text(result.text)
    assert after == before.model_copy(update={"schema_version": 2})
    old_lines, new_lines = text.splitlines(keepends=True), result.text.splitlines(keepends=True)
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=True) if a != b]
    ((old, new),) = changed  # one line changed; every comment and line kept
    assert old.startswith("schema_version: 1") and new == old.replace("schema_version: 1", "schema_version: 2", 1)


def test_the_old_skeleton_comment_keep_1_becomes_the_current_one_and_other_comments_stay():
    """The format-1 skeleton said "keep 1" beside the version; migrated, that would contradict the new value."""
    old = (REPO / "tests" / "fixtures" / "v1" / "sla-credits-october.yaml").read_text(encoding="utf-8")
    value_line = next(x for x in old.splitlines() if x.startswith("schema_version:"))
    stale = old.replace(value_line, "schema_version: 1                   # the drill format version; keep 1", 1)
    crlf = migrate_text(stale.replace("\n", "\r\n")).text
    assert "schema_version: 2                   # the drill format version: 2 is current (1 still loads)\r\n" in crlf
    assert "keep 1" not in crlf
    other = old.replace(value_line, "schema_version: 1   # keep 1 until the team upgrades", 1)
    assert "schema_version: 2   # keep 1 until the team upgrades\n" in migrate_text(other).text


def test_the_fairness_drills_are_format_2_without_a_stale_version_comment():
    for path in sorted((REPO / "tests" / "fairness").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert load_drill(path).schema_version == 2, path
        assert "keep 1" not in text, path


def test_the_v1_fixtures_are_the_fourteen_bundled_drills_as_they_were_in_version_1():
    from warroom.core.library import bundled_drills_dir

    v1 = {p.stem for p in (REPO / "tests" / "fixtures" / "v1").glob("*.yaml")}
    assert len(v1) == 14 and v1 <= {p.stem for p in bundled_drills_dir().glob("*.yaml")}


def test_migrating_keeps_a_byte_order_mark_crlf_and_a_comment_on_the_version_line(tmp_path: Path):
    text = V1_DRILL.read_text(encoding="utf-8")
    text = "\ufeff" + text.replace("schema_version: 1", "schema_version: 1   # the format").replace("\n", "\r\n")
    f = tmp_path / "sla-credits-october.yaml"
    f.write_bytes(text.encode("utf-8"))
    result = migrate_file(f)
    assert result.changed
    data = f.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert b"schema_version: 2   # the format\r\n" in data
    assert data.replace(b"schema_version: 2", b"schema_version: 1") == text.encode("utf-8")
    assert migrate_file(f).changed is False  # already version 2: left alone


def test_an_invalid_file_is_reported_and_left_alone(tmp_path: Path):
    f = tmp_path / "bad.yaml"
    original = (REPO / "tests" / "malformed" / "bad-id.yaml").read_bytes()
    f.write_bytes(original)
    with pytest.raises(DrillLoadError) as info:
        migrate_file(f)
    assert info.value.problems[0].line == 17
    assert f.read_bytes() == original


def test_dry_run_writes_nothing(tmp_path: Path):
    f = tmp_path / "sla-credits-october.yaml"
    original = V1_DRILL.read_bytes()
    f.write_bytes(original)
    assert migrate_file(f, write=False).changed
    assert f.read_bytes() == original


@pytest.mark.parametrize("path", sorted((REPO / "drills").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_drill_is_version_2_with_its_planner_and_executor(path: Path):
    drill = load_drill(path)
    assert drill.schema_version == 2
    roles = {a.role: a for a in drill.agents}
    assert roles["planner"].model == drill.models.planner.name
    assert roles["executor"].model == drill.models.executor.name
    assert migrate_file(path, write=False).changed is False
