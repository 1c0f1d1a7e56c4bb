"""Drill sets and modes on the command line: `warroom --set FILE`, `--mode`, `warroom validate` of a set file and
`warroom scores --set ID`."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path, load

from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder

GOOD = """
set: week-1
title: Week one
mode: assessment
attempts: 2
drills:
  - duplicate-charge-refunds
"""

BAD = """
set: week-1
title: Week one
attempts: two
drills:
  - duplicate-charge-refunds
  - nowhere/missing.yaml
"""


def write(tmp_path: Path, text: str, name: str = "week.set.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The arguments `warroom` would open the terminal UI with (the UI is not started)."""
    calls: list[dict[str, Any]] = []
    import warroom.tui.app as launch_module  # the CLI imports launch from the API

    monkeypatch.setattr(launch_module, "launch", lambda settings, **kw: calls.append(kw))
    return calls


def test_warroom_set_opens_the_picker_on_the_set(tmp_path: Path, launched):
    path = write(tmp_path, GOOD)
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 0, r.output
    [kw] = launched
    assert kw["drill_set"].set_id == "week-1" and kw["mode"] == "practice"
    assert [d.drill.id for d in kw["drill_set"].drills] == ["duplicate-charge-refunds"]


def test_a_set_that_does_not_validate_is_reported_and_nothing_opens(tmp_path: Path, launched):
    path = write(tmp_path, BAD)
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 1 and launched == []
    errors = r.stderr.splitlines()
    assert errors[0].startswith(f"{path}:3:11: `attempts`")
    assert errors[1].startswith(f"{path}:6:5: no drill file") and len(errors) == 2  # all at once (docs/drill-sets.md)
    path.write_text(path.read_text().replace("attempts: two", "attempts: 2"))
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 1 and r.stderr.startswith(f"{path}:6:5: no drill file")


def test_mode_options(tmp_path: Path, launched):
    data = ["--data-dir", str(tmp_path / "d")]
    assert CliRunner().invoke(main, [*data, "--mode", "assessment"]).exit_code == 0
    assert launched[-1]["mode"] == "assessment"
    r = CliRunner().invoke(main, [*data, "run", "duplicate-charge-refunds", "--mode", "assessment"])
    assert r.exit_code == 0, r.output
    assert launched[-1]["mode"] == "assessment" and launched[-1]["speed"] == 1.0
    r = CliRunner().invoke(main, [*data, "--mode", "assessment", "run", "duplicate-charge-refunds"])
    assert r.exit_code == 0 and launched[-1]["mode"] == "assessment"
    r = CliRunner().invoke(main, [*data, "run", "duplicate-charge-refunds", "--mode", "assessment", "--speed", "4"])
    assert r.exit_code == 2 and "assessment sessions play at 1x only" in r.stderr
    r = CliRunner().invoke(main, [*data, "--mode", "exam"])
    assert r.exit_code == 2
    # a mode no command reads is refused, not silently dropped (the tutorial has a mode of its own)
    count = len(launched)
    for command in (["tutorial"], ["scores", "list"]):
        r = CliRunner().invoke(main, [*data, "--mode", "assessment", *command])
        assert r.exit_code == 2 and "--mode applies to playing a drill" in r.stderr, command
    assert len(launched) == count
    r = CliRunner().invoke(main, [*data, "--set", str(write(tmp_path, GOOD)), "scores"])
    assert r.exit_code == 2 and "--set opens the drill picker" in r.stderr
    r = CliRunner().invoke(main, [*data, "run", str(tmp_path / "week.set.yaml")])
    assert r.exit_code == 2 and "is a drill set: play it with `warroom --set " in r.stderr


def test_validate_checks_a_set_file_and_its_drills(tmp_path: Path):
    good, bad = write(tmp_path, GOOD, "good.yaml"), write(tmp_path, BAD, "bad.yaml")
    r = CliRunner().invoke(main, ["validate", str(good)])
    assert r.exit_code == 0 and r.stdout.strip() == "1 drill set checked: 1 valid, 0 invalid"
    r = CliRunner().invoke(main, ["validate", str(good), str(bad), str(bundled_drill_path())])
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"{bad}:3:11: `attempts`: input should be a valid integer")
    assert lines[1].startswith(f"{bad}:6:5: no drill file")  # the drills are looked up though `attempts` is wrong
    assert lines[-1] == "1 drill and 2 drill sets checked: 2 valid, 1 invalid (2 problems)"


def test_scores_filter_by_set_and_mode(tmp_path: Path):
    drill = load(bundled_drill_path())
    for mode, set_id in (("assessment", "week-1"), ("practice", None)):
        rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode=mode, set_id=set_id)
        rec.record(Action(t=1.0, kind=ActionKind.QUIT))
        rec.finish(score(drill, rec.actions))
    runner = CliRunner()
    base = ["scores", "--data-dir", str(tmp_path), "--format", "csv"]
    rows = runner.invoke(main, [*base, "--set", "week-1"]).stdout.splitlines()
    assert len(rows) == 2 and rows[1].count("week-1") == 1 and ",assessment," in rows[1]
    rows = runner.invoke(main, [*base, "--mode", "practice"]).stdout.splitlines()
    assert len(rows) == 2 and ",practice," in rows[1]
    summary = runner.invoke(main, ["scores", "--data-dir", str(tmp_path), "--summary", "--set", "week-1"])
    assert summary.exit_code == 0 and "│ ann" in summary.stdout
    assert "Per trainee (drill set week-1)" in summary.stdout
    summary = runner.invoke(main, ["scores", "--data-dir", str(tmp_path), "--summary", "--mode", "assessment"])
    assert "Per drill (assessment sessions)" in summary.stdout and "│ ann" in summary.stdout
    none = runner.invoke(main, ["scores", "--data-dir", str(tmp_path), "--set", "week-2"])
    assert none.stdout.strip().startswith("No sessions match --set week-2: ")


def test_a_list_that_matches_nothing_names_its_filters_and_what_is_stored(tmp_path: Path):
    # a facilitator's README line, `warroom scores list --set week-1 --mode assessment`, after a set played in
    # practice: "No sessions match." did not say that the sessions were there, in the other mode
    drill = load(bundled_drill_path())
    for name in ("Ada Lovelace", "ben"):
        rec = SessionRecorder.start(tmp_path, name, bundled_drill_path(), drill, mode="practice", set_id="week-1")
        rec.record(Action(t=1.0, kind=ActionKind.QUIT))
        rec.finish(score(drill, rec.actions))
    runner = CliRunner()
    base = ["scores", "list", "--data-dir", str(tmp_path)]
    none = runner.invoke(main, [*base, "--set", "week-1", "--mode", "assessment"])
    assert none.exit_code == 0 and none.stdout.strip() == (
        "No sessions match --set week-1 --mode assessment: 2 sessions are stored (`warroom scores` without these "
        "options lists them).")
    quoted = runner.invoke(main, [*base, "--trainee", "Ada Lovelace", "--drill", "nope"])
    assert quoted.stdout.startswith("No sessions match --trainee 'Ada Lovelace' --drill nope: 2 sessions are stored")
    empty = tmp_path / "empty"
    with_store = runner.invoke(main, ["scores", "list", "--data-dir", str(empty), "--set", "week-1"])
    assert with_store.exit_code == 0 and "No session" in with_store.stdout
