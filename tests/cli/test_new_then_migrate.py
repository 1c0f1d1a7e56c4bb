"""An author who runs README's commands in order (`warroom new`, then `warroom migrate`) gets a format-2 file
that `migrate` leaves as it is; the format-1 form of the same skeleton still loads and migrates to it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main
from warroom.core.author import skeleton_text
from warroom.core.author._migrate import migrate_text
from warroom.core.load import load_drill_text


def test_the_new_skeleton_is_format_2_and_migrate_leaves_it_alone(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["new", "my-drill", "--out", str(tmp_path)]).exit_code == 0
    path = tmp_path / "my-drill.yaml"
    before = path.read_bytes()
    [line] = [x for x in before.decode().splitlines() if x.startswith("schema_version:")]
    assert line.split("#")[0].strip() == "schema_version: 2"
    assert "keep 1" not in line and "1 here" not in line, line
    migrated = runner.invoke(main, ["migrate", str(path)])
    assert migrated.exit_code == 0, migrated.output
    assert path.read_bytes() == before
    assert runner.invoke(main, ["validate", str(path)]).exit_code == 0


def test_a_format_1_skeleton_still_loads_and_migrates_to_the_same_drill() -> None:
    """Format 1 is still read: the skeleton without its format-2 part (`agents`) as version 1 loads, and
    `warroom migrate` turns it into the same drill as version 2."""
    text = skeleton_text("old-drill")
    start = text.index("# The agents in the trace")
    end = text.index("\n\n", text.index("agents:\n", start)) + 1
    v1 = (text[:start] + text[end:]).replace("schema_version: 2 ", "schema_version: 1 ", 1)
    old = load_drill_text(v1, "old-drill.yaml")
    assert (old.schema_version, old.agents) == (1, [])
    result = migrate_text(v1, "old-drill.yaml")
    assert result.changed
    new = load_drill_text(result.text, "old-drill.yaml")
    assert new == old.model_copy(update={"schema_version": 2})
