"""Campaign 22 (issue 30), results, stores and scores: regression tests for the breaks it found."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main


@pytest.fixture(scope="module")
def class_of_two(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder where `ann` and `bob` each played the bundled drill once (read only)."""
    data = tmp_path_factory.mktemp("class")
    play(data, "ann", GOOD)
    play(data, "bob", GOOD[:1])
    return data


def test_a_trainee_with_no_stored_session_is_named_with_a_did_you_mean(class_of_two: Path, tmp_path: Path):
    """`warroom report --trainee ann --trainee anne` (a typo) wrote the report of ann alone, exit 0, its first line
    "Sessions of ann, anne."; `scores summary --trainee anne` said only "No sessions match.", and `scores --trainee
    anne` that other sessions are stored. Each now says that no session of trainee 'anne' is stored, with the
    store and a did-you-mean; the report writes nothing, exit 1."""
    store = class_of_two / "results.sqlite3"
    page = tmp_path / "r.html"
    runner = CliRunner()
    data = ["--data-dir", str(class_of_two)]
    said = runner.invoke(main, ["report", "--trainee", "ann", "--trainee", "anne", *data, "-o", str(page)])
    assert said.exit_code == 1 and not page.exists()
    assert said.stderr == (f"Error: no session of trainee 'anne' is stored in {store} (did you mean `ann`?): nothing "
                           "written (--trainee names a trainee with stored sessions)\n")
    said = runner.invoke(main, ["report", "--trainee", "nobody", *data, "-o", str(page)])
    assert said.exit_code == 1 and "no session of trainee 'nobody' is stored in" in said.stderr
    assert "did you mean" not in said.stderr  # nothing near enough to offer
    summary = runner.invoke(main, ["scores", "summary", "--trainee", "anne", *data])
    assert summary.exit_code == 0
    assert summary.stdout == (
        f"No sessions match --trainee anne: no session of trainee 'anne' is stored in {store} (did you mean `ann`?).\n")
    listed = runner.invoke(main, ["scores", "--trainee", "bbo", *data])
    assert listed.stdout == (
        f"No sessions match --trainee bbo: no session of trainee 'bbo' is stored in {store} (did you mean `bob`?).\n")
    as_json = runner.invoke(main, ["scores", "summary", "--format", "json", "--trainee", "anne", *data])
    assert as_json.exit_code == 0 and as_json.stderr.startswith("note: no session of trainee 'anne' is stored in")
