"""A fifth newcomer's pass over the docs: what failed them, each pinned here when it fits nowhere else."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from warroom.cli import main


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "roster", "list", "{link}"],
        ["serve", "roster", "remove", "{link}", "Ann"],
        ["store", "import", "--all-trainees", "{link}"],
    ],
)
def test_a_path_that_is_a_symbolic_link_to_nothing_is_named_so(tmp_path, monkeypatch, args):
    # they said "no such roster (`warroom serve roster add` creates one)" and "No such file or directory"
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    link = tmp_path / "class.yaml"
    link.symlink_to(tmp_path / "gone.yaml")
    result = CliRunner().invoke(main, [a.replace("{link}", str(link)) for a in args])
    assert result.exit_code == 1, result.output
    assert (
        f"a symbolic link to {tmp_path / 'gone.yaml'}, which does not exist: point it at a file or remove it"
        in result.output
    )
    assert "no such roster" not in result.output and "No such file" not in result.output
