"""A fifth fresh hostile campaign on issue 30's promises about results (docs/reliability.md, docs/cohorts.md, "What a
trainee can and cannot do to their results"): hand-edited SQLite stores, killed journals of odd action sequences,
export and import round trips and the figures, as a hostile trainee or a faulty world would attack them; each case
it found, with the right behaviour."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main


@pytest.mark.parametrize("version", [-1, -2147483648])
@pytest.mark.parametrize("command", [["scores"], ["scores", "verify"], ["store", "status"]])
def test_a_store_whose_schema_version_is_negative_is_damaged_not_a_traceback(
    tmp_path: Path, version: int, command: list[str]
):
    """A SQLite store whose ``PRAGMA user_version`` was set below 0 by hand: opening it ran the migrations from
    that version and every command died with ``KeyError: 0`` (a traceback). No warroom writes such a version: the
    store is damaged, named with what to do, exit status 1, and the file is left as it was."""
    play(tmp_path, "ann", GOOD)
    db = tmp_path / "results.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {version}")
    before = db.read_bytes()
    result = CliRunner().invoke(main, [*command, "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert f"the results store {db} has schema version {version}, which no warroom writes" in result.output
    assert "rename it to results.sqlite3.damaged" in result.output
    assert "Traceback" not in result.output
    assert db.read_bytes() == before
