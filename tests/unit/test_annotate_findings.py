"""The author mode's findings after a save say what ``warroom validate`` and ``warroom check`` say of the file,
including their rules beyond one drill's load: the id must match the file name, and briefing hints are warned."""

from __future__ import annotations

from click.testing import CliRunner

from warroom.cli import main
from warroom.core.author import findings
from warroom.core.library import bundled_drills_dir

DRILL = bundled_drills_dir() / "duplicate-charge-refunds.yaml"


def test_an_id_that_is_not_the_file_name_is_a_problem_as_validate_says(tmp_path):
    path = tmp_path / "my-copy.yaml"
    path.write_text(DRILL.read_text(encoding="utf-8"), encoding="utf-8")
    found = findings(path)
    assert len(found.problems) == 1 and not found.ok
    assert "drill id `duplicate-charge-refunds` does not match the file name `my-copy.yaml`" in found.problems[0]
    assert found.problems[0].startswith(f"{path}:")
    validate = CliRunner().invoke(main, ["validate", str(path)])
    assert validate.exit_code == 1 and found.problems[0] in validate.output


def test_a_briefing_that_names_the_damage_unit_is_warned_as_validate_warns(tmp_path):
    path = tmp_path / "duplicate-charge-refunds.yaml"
    goal = "  goal: >-\n"
    text = DRILL.read_text(encoding="utf-8").replace(goal, goal + "    Avoid USD refunded in error.\n", 1)
    path.write_text(text, encoding="utf-8")
    found = findings(path)
    assert found.ok, found
    assert len(found.warnings) == 1 and "names the damage unit 'USD refunded in error'" in found.warnings[0]
    validate = CliRunner().invoke(main, ["validate", str(path)])
    assert found.warnings[0] in validate.output


def test_a_bundled_drill_has_no_findings():
    assert findings(DRILL).ok and findings(DRILL).warnings == []


def test_text_that_yaml_1_1_reads_otherwise_is_saved_in_quotes_and_draws_no_warning(tmp_path):
    from warroom.core.author import open_for_annotation, write_draft

    path = tmp_path / "duplicate-charge-refunds.yaml"
    path.write_text(DRILL.read_text(encoding="utf-8"), encoding="utf-8")
    opened = open_for_annotation(path)
    draft = opened.draft
    draft.summary, draft.damage_unit, draft.debrief = "12:30", "Off", "0755"
    first = draft.damage[0]
    draft.set_damage(first.event, first.amount, "no")
    write_draft(path, draft, opened.event_order)
    text = path.read_text(encoding="utf-8")
    for written in ("summary: '12:30'", "unit: 'Off'", "note: 'no'", "debrief: '0755'"):
        assert written in text
    again = open_for_annotation(path).draft
    assert (again.summary, again.damage_unit, again.debrief, again.damage[0].note) == ("12:30", "Off", "0755", "no")
    found = findings(path)
    assert found.ok and found.warnings == [], found
