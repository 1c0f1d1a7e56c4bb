"""Broken drill set files, and a set given where a drill is expected or a drill where a set is: each is reported as
``path:line:col: message`` lines with exit status 1, never a traceback (docs/drill-sets.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path

from warroom.cli import main

#: (file name, set file text, the first problem's line:col, text the message holds)
BROKEN = [
    (
        "unknown-id",
        "set: s\ntitle: t\ndrills:\n  - no-such-drill\n",
        "4:5",
        "no drill file or drill id 'no-such-drill'",
    ),
    ("duplicate", "set: s\ntitle: t\ndrills:\n  - {d}\n  - {d}\n", "5:5", "is already item 1 of `drills`"),
    ("empty-list", "set: s\ntitle: t\ndrills: []\n", "3:9", "`drills`: list should have at least 1 item"),
    ("empty-file", "", "1:1", "a drill set file must be a mapping of keys"),
    ("drills-text", "set: s\ntitle: t\ndrills: {d}\n", "3:9", "`drills`: input should be a valid list"),
    ("attempts-zero", "set: s\ntitle: t\nattempts: 0\ndrills: [{d}]\n", "3:11", "greater than or equal to 1"),
    ("attempts-text", "set: s\ntitle: t\nattempts: two\ndrills: [{d}]\n", "3:11", "a valid integer, got 'two'"),
    ("mode-typo", "set: s\ntitle: t\nmode: exam\ndrills: [{d}]\n", "3:7", "'practice' or 'assessment', got 'exam'"),
    ("due-bad", "set: s\ntitle: t\ndue: 2026-13-40\ndrills: [{d}]\n", "3:6", "`due` must be a date written YYYY-MM-DD"),
    ("id-bad", 'set: "a b!"\ntitle: t\ndrills: [{d}]\n', "1:6", "the set id must use letters, digits"),
    ("no-title", "set: s\ndrills: [{d}]\n", "1:1", "missing the required key `title`"),
    ("unknown-key", "set: s\ntitle: t\ndrillz: [{d}]\ndrills: [{d}]\n", "3:1", "unknown key `drillz`"),
    (
        "item-mapping",
        "set: s\ntitle: t\ndrills:\n  - {{id: {d}}}\n",
        "4:5",
        "item #1 of `drills` must be a drill id or a drill file's path, got a mapping (key: value lines)",
    ),
    ("set-is-list", "- set: s\n", "1:1", "a drill set file must be a mapping of keys"),
    ("yaml-syntax", "set: s\ntitle: [t\ndrills: [{d}]\n", "3:7", "YAML syntax error"),
    ("duplicate-key", "set: s\ntitle: t\ntitle: u\ndrills: [{d}]\n", "3:1", "duplicate key `title`"),
    ("invalid-drill", "set: s\ntitle: t\ndrills: [bad/bad.yaml]\n", "3:10", "'bad/bad.yaml' does not load: "),
    (
        "names-a-set",
        "set: s\ntitle: t\ndrills: [other.set.yaml]\n",
        "3:10",
        "'other.set.yaml' is a drill set, not a drill",
    ),
    ("names-a-folder", "set: s\ntitle: t\ndrills: [bad/]\n", "3:10", "bad/ is a folder, not a drill file"),
    (
        "adaptive-bad",
        "set: s\ntitle: t\ndrills: [{d}]\nadaptive:\n  seed: 1\n  length: 0\n",
        "6:11",
        "`adaptive.length`",
    ),
    (
        "adaptive-no-seed",
        "set: s\ntitle: t\ndrills: [{d}]\nadaptive:\n  length: 2\n",
        "4:1",
        "`adaptive` is missing the required key `seed`",
    ),
]


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The arguments `warroom` would open the terminal UI with (the UI is not started)."""
    calls: list[dict[str, Any]] = []
    import warroom.tui.app as launch_module  # the CLI imports launch from the API

    monkeypatch.setattr(launch_module, "launch", lambda settings, **kw: calls.append(kw))
    return calls


def write_broken(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / "bad").mkdir(exist_ok=True)
    (tmp_path / "bad" / "bad.yaml").write_text("id: bad\ntitle: not a drill yet\n")
    (tmp_path / "other.set.yaml").write_text("set: other\ntitle: t\ndrills: [duplicate-charge-refunds]\n")
    path = tmp_path / f"{name}.set.yaml"
    path.write_text(text.format(d="duplicate-charge-refunds"))
    return path


@pytest.mark.parametrize(("name", "text", "where", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_set_is_reported_at_its_position_by_validate_and_by_set(
    tmp_path: Path, launched: list[dict[str, Any]], name: str, text: str, where: str, message: str
):
    path = write_broken(tmp_path, name, text)
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 1 and launched == []
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{where}: ") and message in first, first
    assert "Traceback" not in r.output
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    lines = r.stdout.splitlines()
    assert any(line.startswith(f"{path}:{where}: ") for line in lines), lines  # (an empty file is read as a drill)
    assert "0 valid, 1 invalid" in lines[-1]


def test_a_drill_given_to_set_says_it_is_a_drill(tmp_path: Path, launched: list[dict[str, Any]]):
    drill = bundled_drill_path()
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(drill)])
    assert r.exit_code == 1 and launched == []
    [line] = r.stderr.splitlines()  # one line, not an "unknown key" for every key of a drill
    assert line.startswith(f"{drill}:") and "is a drill, not a drill set (no `set:` key)" in line
    assert f"play it with `warroom run {drill}`" in line


def test_a_drill_with_only_an_id_given_to_set_is_still_a_drill(tmp_path: Path, launched: list[dict[str, Any]]):
    path = tmp_path / "half.yaml"
    path.write_text(
        textwrap.dedent("""\
        # a drill being written
        id: half
        title: Half a drill
    """)
    )
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 1 and r.stderr.splitlines() == [
        f"{path}:2:1: this file is a drill, not a drill set (no `set:` key): play it with `warroom run {path}`"
    ]


def test_a_set_without_its_set_key_is_still_reported_as_a_set(tmp_path: Path, launched: list[dict[str, Any]]):
    path = tmp_path / "week.set.yaml"
    path.write_text("title: Week\ndrills: [duplicate-charge-refunds]\n")
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "--set", str(path)])
    assert r.exit_code == 1 and r.stderr.splitlines() == [
        f"{path}:1:1: the drill set is missing the required key `set`"
    ]


def record_in_set(data: Path, set_id: str | None) -> None:
    from store_support import load

    from warroom.core.model import Action, ActionKind
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder

    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(data, "ann", bundled_drill_path(), drill, mode="assessment", set_id=set_id)
    rec.record(Action(t=1.0, kind=ActionKind.QUIT))
    rec.finish(score(drill, rec.actions))


def test_scores_summary_and_report_take_the_set_file_as_well_as_its_id(tmp_path: Path):
    pytest.importorskip("matplotlib")
    data = tmp_path / "d"
    record_in_set(data, "week-1")
    record_in_set(data, None)
    set_file = tmp_path / "week.set.yaml"
    set_file.write_text("set: week-1\ntitle: Week one\ndrills: [duplicate-charge-refunds]\n")
    runner = CliRunner()
    for given in ("week-1", str(set_file)):
        r = runner.invoke(main, ["scores", "--data-dir", str(data), "--set", given, "--format", "csv"])
        assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2 and "week-1" in r.stdout, (given, r.output)
        r = runner.invoke(main, ["scores", "summary", "--data-dir", str(data), "--set", given])
        assert r.exit_code == 0 and "Per trainee (drill set week-1)" in r.stdout, (given, r.output)
        out = tmp_path / "r.html"
        r = runner.invoke(main, ["report", "--data-dir", str(data), "--set", given, "-o", str(out)])
        assert r.exit_code == 0 and "played in drill set week-1" in out.read_text(), (given, r.output)


def test_a_set_option_naming_no_file_or_a_broken_set_file_is_refused(tmp_path: Path):
    data = tmp_path / "d"
    record_in_set(data, "week-1")
    runner = CliRunner()
    r = runner.invoke(main, ["scores", "--data-dir", str(data), "--set", "nowhere/week.set.yaml"])
    assert r.exit_code == 2 and "no drill set file 'nowhere/week.set.yaml'" in r.stderr
    broken = tmp_path / "week.set.yaml"
    broken.write_text("set: week-1\ntitle: Week one\nmode: exam\ndrills: [duplicate-charge-refunds]\n")
    r = runner.invoke(main, ["report", "--data-dir", str(data), "--set", str(broken), "-o", str(tmp_path / "r.html")])
    assert r.exit_code == 1 and r.stderr.startswith(f"{broken}:3:7: `mode`")
    r = runner.invoke(main, ["scores", "--data-dir", str(data), "--set", "week-2.yaml"])  # a set file, not an id
    assert r.exit_code == 2 and "no drill set file 'week-2.yaml'" in r.stderr


def test_a_set_file_saved_with_a_byte_order_mark_is_still_a_set(tmp_path: Path, launched: list[dict[str, Any]]):
    path = tmp_path / "week.set.yaml"
    text = "set: week-1\r\ntitle: Week\r\nattempts: two\r\ndrills:\r\n  - duplicate-charge-refunds\r\n"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 1 and r.stdout.splitlines() == [
        f"{path}:3:11: `attempts`: input should be a valid integer, got 'two'",
        "1 drill set checked: 0 valid, 1 invalid (1 problem)",
    ]
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", str(path)])
    assert r.exit_code == 2 and "is a drill set: play it with `warroom --set " in r.stderr and launched == []
