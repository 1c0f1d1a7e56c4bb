"""`warroom validate` groups repeated warnings by rule (issue 35 item 10): 529 warnings about decimal amounts in one
tool result become one line with their count and first places, and the two warnings that matter stay in view."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main
from warroom.core.library import bundled_drills_dir
from warroom.core.load import Problem, WarningGroup, group_warnings

N_AMOUNTS = 529


def _drill_with_amounts(tmp_path: Path) -> Path:
    """The bundled duplicate-charge drill with a tool result of 529 unquoted two-decimal amounts (`12.50`: kept as
    written, read by YAML 1.2 as 12.5), a briefing that names when to escalate and a title cut by ` #`."""
    text = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    rows = "".join(f"\n        - {{invoice: INV-{n:04d}, amount: {n % 90 + 10}.50}}" for n in range(N_AMOUNTS))
    marker = "\n      row_count: 318\n"
    assert marker in text
    text = text.replace(marker, marker + "      invoices:" + rows + "\n", 1)
    title = 'title: "Duplicate-charge refunds for INC-4471"'
    assert title in text
    text = text.replace(title, "title: Duplicate-charge refunds #ops", 1)
    goal = "  goal: >-\n    "
    assert goal in text
    text = text.replace(goal, goal + "Escalate as soon as you see a duplicate. ", 1)
    path = tmp_path / "duplicate-charge-refunds.yaml"
    path.write_text(text)
    return path


def test_529_decimal_amount_warnings_are_one_line_and_the_two_that_matter_are_not_buried(tmp_path):
    path = _drill_with_amounts(tmp_path)
    result = CliRunner().invoke(main, ["validate", str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    grouped = [ln for ln in lines if "warnings of one kind" in ln]
    assert len(grouped) == 1, lines
    first = grouped[0]
    assert first.startswith(f"{path}:")
    assert f"{N_AMOUNTS} warnings of one kind (yaml-data-number), the first: `10.50` in tool data" in first
    assert first.endswith(f" and {N_AMOUNTS - 4} more")
    assert first.count(", ") >= 2 and "; also at " in first  # three more places, line:column each
    places = first.split("; also at ")[1].split(" and ")[0].split(", ")
    assert len(places) == 3 and all(p.split(":")[0].isdigit() and p.split(":")[1].isdigit() for p in places)
    # the important ones, one line each
    assert any("the text stops before `#ops`" in ln and "of one kind" not in ln for ln in lines)
    assert any("briefing.goal says when to escalate" in ln for ln in lines)
    assert len(lines) == 4  # the group, the comment, the briefing, the summary
    assert lines[-1] == f"1 drill checked: 1 valid, 0 invalid ({N_AMOUNTS + 2} warnings)"


def test_all_warnings_lists_each_and_json_always_has_each_with_its_rule(tmp_path):
    path = _drill_with_amounts(tmp_path)
    every = CliRunner().invoke(main, ["validate", "--all-warnings", str(path)], catch_exceptions=False)
    assert sum(": warning: " in ln for ln in every.output.splitlines()) == N_AMOUNTS + 2
    out = CliRunner().invoke(main, ["validate", "--format", "json", str(path)], catch_exceptions=False)
    rows = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert len(rows) == N_AMOUNTS + 2
    rules = {r["rule"] for r in rows}
    assert rules == {"yaml-data-number", "comment-cut", "briefing-hint"}


def test_a_rule_seen_three_times_or_fewer_stays_one_line_each():
    warnings = [Problem("x.yaml", n, 3, f"w{n}", "warning", "yaml-data-number") for n in (4, 5, 6)]
    error = Problem("x.yaml", 7, 1, "an error")
    assert group_warnings([*warnings, error]) == [*warnings, error]
    four = [*warnings, Problem("x.yaml", 9, 3, "w9", "warning", "yaml-data-number")]
    (group, kept) = group_warnings([*four, error])
    assert isinstance(group, WarningGroup) and kept is error
    assert str(group) == ("x.yaml:4:3: warning: 4 warnings of one kind (yaml-data-number), the first: w4; also at 5:3, "
                          "6:3, 9:3")


def test_a_fault_drill_without_a_habit_is_warned_about_and_every_bundled_one_has_its_habit(tmp_path):
    """Issue 35 item 4: the habit is a field of the answer key; validate warns (rule no-habit) at the answer key of
    a fault drill without one, never of an all-clear drill; every bundled fault drill has one."""
    from warroom.core.library import find_drill_files
    from warroom.core.load import load_drill

    text = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    start = text.index("\n  habit: ")
    end = text.index("\n  replan:", start)
    path = tmp_path / "duplicate-charge-refunds.yaml"
    path.write_text(text[:start] + text[end:])
    line = text[:text.index("\nanswer_key:") + 1].count("\n") + 1
    out = CliRunner().invoke(main, ["validate", "--format", "json", str(path)], catch_exceptions=False)
    (row,) = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert (row["rule"], row["line"], row["severity"]) == ("no-habit", line, "warning")
    assert row["message"].startswith("the answer key has no `habit`: add the habit that would have caught the fault")
    drills = [load_drill(f) for f in find_drill_files([bundled_drills_dir()])]
    faulted = [d for d in drills if d.answer_key is not None]
    assert len(faulted) >= 30
    assert [d.id for d in faulted if not (d.answer_key.habit or "").strip()] == []
    # a habit is the check itself, not the debrief's own "The habit:" paragraph left behind
    assert [d.id for d in faulted if "The habit:" in d.answer_key.debrief] == []
    from locations import ALL_CLEAR

    control = next(f for f in find_drill_files([ALL_CLEAR]) if "all_clear:" in f.read_text())  # no key, no habit
    assert "no-habit" not in CliRunner().invoke(main, ["validate", "--format", "json", str(control)]).stdout
