"""Breaks found by following the README and docs/ as a new trainee, author and facilitator would (campaign nu2)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main

SET_WITH_ID = "id: week-1\ntitle: Week 1\ndrills:\n  - duplicate-charge-refunds\n"


def test_a_drill_set_written_with_id_for_set_is_named_a_set_missing_its_set_key(tmp_path: Path):
    """A facilitator's first set, `id: week-1` for `set: week-1`: `warroom validate` listed seven missing drill keys
    and `unknown key `drills` in the drill`, and `warroom --set` said it was a drill to play with `warroom run`.
    Both now name the one fix."""
    path = tmp_path / "week-1.set.yaml"
    path.write_text(SET_WITH_ID, encoding="utf-8")
    env = {"WARROOM_DATA_DIR": str(tmp_path / "data"), "WARROOM_CACHE_DIR": str(tmp_path / "cache")}
    validated = CliRunner().invoke(main, ["validate", str(path)], env=env)
    assert validated.exit_code == 1
    assert (f"{path}:1:1: this file looks like a drill set (a `drills` list) without its `set` key: a drill set "
            "names itself with `set: ID`, not `id: ID` (docs/drill-sets.md)") in validated.output
    assert "missing the required key" not in validated.output
    listed = CliRunner().invoke(main, ["scores", "--set", str(path)], env=env)
    assert listed.exit_code == 1
    assert (f"{path}:1:1: this drill set has no `set` key: a drill set names itself with `set: ID`, not `id: ID` "
            "(docs/drill-sets.md)") in listed.output
    assert "warroom run" not in listed.output
