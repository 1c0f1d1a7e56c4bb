"""An author who runs README's commands in order (`warroom new`, then `warroom migrate`) gets a file whose comments
still say what the file is."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main


def test_the_skeletons_version_comment_stays_true_after_migrate(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["new", "my-drill", "--out", str(tmp_path)]).exit_code == 0
    path = tmp_path / "my-drill.yaml"
    migrated = runner.invoke(main, ["migrate", str(path)])
    assert migrated.exit_code == 0, migrated.output
    [line] = [x for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("schema_version:")]
    assert line.split("#")[0].strip() == "schema_version: 2"
    assert "keep 1" not in line and "1 here" not in line, line
    assert runner.invoke(main, ["validate", str(path)]).exit_code == 0
