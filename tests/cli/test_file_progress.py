"""`warroom validate` and `warroom check` over many drill files draw a progress bar on stderr when it is a terminal
(and nothing on a pipe), so that a big library is never silent until its summary."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from store_support import bundled_drills_dir

import warroom.cli.common._progress as progress_module
from warroom.cli import main
from warroom.cli.common import file_progress


def library(tmp_path: Path, n: int) -> Path:
    """A folder of ``n`` valid drills: copies of a bundled drill with their own ids, and one that does not load."""
    folder = tmp_path / "lib"
    folder.mkdir()
    text = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    for i in range(n):
        (folder / f"copy-{i}.yaml").write_text(text.replace("id: duplicate-charge-refunds", f"id: copy-{i}", 1))
    (folder / "broken.yaml").write_text("id: broken\nschema_version: two\n")
    return folder


def test_the_bar_counts_the_files_done_and_is_drawn_only_on_a_terminal():
    buf = io.StringIO()
    with file_progress(3, "validating", live=True, console=Console(file=buf, force_terminal=True, width=100)) as done:
        for _ in range(3):
            done()
    assert "validating" in buf.getvalue() and "3/3" in buf.getvalue()
    quiet = io.StringIO()
    with file_progress(3, "validating", live=False, console=Console(file=quiet, force_terminal=True)) as done:
        done()
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(("command", "words"), [("validate", ["validating"]), ("check", ["loading", "checking"])])
def test_validate_and_check_show_progress_on_a_terminal(tmp_path: Path, monkeypatch, command, words):
    folder = library(tmp_path, 3)
    plain = CliRunner().invoke(main, [command, str(folder)])
    assert plain.exit_code == 1 and not any(w in plain.stderr for w in words)  # a pipe: no bar
    monkeypatch.setattr(progress_module, "stderr_is_terminal", lambda: True)
    r = CliRunner().invoke(main, [command, str(folder)])
    assert r.exit_code == 1
    for word in words:
        assert word in r.stderr and "4/4" in r.stderr, r.stderr
    assert r.stdout == plain.stdout  # the report and its summary are unchanged
    assert f"{folder / 'broken.yaml'}:2:17: schema_version must be 1 or 2" in r.output
    summary = r.stdout.splitlines()[-1]
    assert summary.startswith(("4 drills checked: 3 valid, 1 invalid (", "4 drills checked: 3 passed, 1 failed."))
