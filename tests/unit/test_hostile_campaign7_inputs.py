"""A seventh fresh hostile campaign on issue 30's promises, on the reading and authoring inputs (the importers fed
recorded fixtures mutated structurally, drill sets that name sets, symlinks and odd paths, `annotate` round trips,
`migrate` then `validate`, and the commands the docs show run as written): each case a hostile author or a faulty
world found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main

FIXTURES = TESTS / "fixtures"
DRILLS = TESTS.parent / "drills"


def test_a_set_of_too_many_drills_is_one_short_problem_not_its_whole_list_echoed(tmp_path: Path):
    """A set of 20,000 drill names was refused in one problem line of 189,000 characters: the whole list, as the
    value it got. The value a set's problem quotes is cut to 80 characters, as a drill's are."""
    (tmp_path / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    names = "".join(f"  - d{i}\n" for i in range(20000))
    (tmp_path / "s.set.yaml").write_text("set: w1\ntitle: W1\ndrills:\n" + names)
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "s.set.yaml")])
    assert result.exit_code == 1
    problem, summary = result.output.splitlines()
    assert problem.startswith(f"{tmp_path / 's.set.yaml'}:3:1: `drills`: list should have at most 1000 items")
    assert problem.endswith(", got ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10', 'd11', 'd...")
    assert summary == "1 drill set checked: 0 valid, 1 invalid (1 problem)"


def test_a_set_due_date_of_a_long_text_is_quoted_cut_short(tmp_path: Path):
    (tmp_path / "a.yaml").write_text((DRILLS / "duplicate-charge-refunds.yaml").read_text())
    (tmp_path / "s.set.yaml").write_text(f"set: w1\ntitle: W1\ndue: '{'2' * 5000}'\ndrills: [a.yaml]\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "s.set.yaml")])
    assert result.exit_code == 1
    problem = result.output.splitlines()[0]
    assert problem == f"{tmp_path / 's.set.yaml'}:3:6: `due` must be a date written YYYY-MM-DD, got '{'2' * 76}..."
