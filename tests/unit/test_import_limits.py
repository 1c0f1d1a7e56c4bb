"""`warroom import who-and-when` within limits: every record either becomes a drill that loads and passes
`warroom check`, or is refused with a one-line reason; one bad file never stops the others (docs/importing.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import WHO_AND_WHEN

from warroom.cli import main
from warroom.core.author import MIN_REACTION_WINDOW, run_checks
from warroom.core.load import load_drill
from warroom.importers import who_and_when as ww

FIXTURES = WHO_AND_WHEN
GOOD = sorted((FIXTURES / "good").rglob("*.json"))
BAD = FIXTURES / "bad"


def _with_mistake_at(src: Path, index_from_end: int, tmp_path: Path) -> tuple[Path, int]:
    data = json.loads(src.read_text(encoding="utf-8"))
    index = len(data["history"]) - index_from_end
    data["mistake_step"] = str(index)
    out = tmp_path / src.parent.name / src.name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data), encoding="utf-8")
    return out, index


@pytest.mark.parametrize("src", GOOD, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_mistake_at_the_second_to_last_entry_still_leaves_a_readable_window(src: Path, tmp_path: Path):
    record_file, _index = _with_mistake_at(src, 2, tmp_path)
    report = ww.import_records([record_file], tmp_path / "out")
    [result] = report.results
    assert result.ok, result.error
    drill = load_drill(result.output)  # validates
    key = drill.answer_key
    evidence_t = drill.event(key.evidence[0]).t
    assert key.deadline - evidence_t >= MIN_REACTION_WINDOW
    assert key.deadline < max(drill.event(e.event).t for e in key.damage.entries)
    check = run_checks(drill)
    assert check.passed, check.problems


@pytest.mark.parametrize("src", GOOD, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_mistake_position_of_every_fixture_imports_into_a_drill_that_passes_check(src: Path, tmp_path: Path):
    n = len(json.loads(src.read_text(encoding="utf-8"))["history"])
    for from_end in range(1, n + 1):
        record_file, index = _with_mistake_at(src, from_end, tmp_path)
        record = ww.parse_record(ww.read_record(record_file), record_file.stem)
        try:
            _, drill = ww.convert_record(record)
        except ww.RecordError as e:
            # Only a mistake in one of the first two events cannot make a fair drill (scoring rules 4): at the first
            # event (the task itself, at 00:00), an escalation of whatever comes first is a hit; as the second (the
            # first message after the task, in captain-agent), citing both events out then is specific, so a guess
            # of its step is a hit.
            first_event = src.parent.name == "magentic-one" and index == 0
            rule = "trigger-happy-contains" if first_event else "battery-hit"
            assert index <= 1 and f"fails `warroom check`: fairness rule {rule}: " in str(e), (index, str(e))
            continue
        assert run_checks(drill).passed, (index, run_checks(drill).problems)


def test_a_drill_that_would_fail_check_is_refused_never_written(tmp_path: Path, monkeypatch):
    from warroom.importers.who_and_when import _pace as pace

    monkeypatch.setattr(pace, "EVIDENCE_MIN_GAP", 0.0)  # the old pacing: 1 s between evidence and deadline
    monkeypatch.setattr(pace, "MIN_REACTION_WINDOW", 0.0)  # and no guard of the importer's own
    record_file, _ = _with_mistake_at(FIXTURES / "good" / "captain-agent" / "mini.json", 2, tmp_path)
    report = ww.import_records([record_file], tmp_path / "out")
    [result] = report.results
    assert not result.ok
    assert "fails `warroom check`: cannot be won by a person" in result.error
    assert list((tmp_path / "out").iterdir()) == []


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path, monkeypatch):
    big = tmp_path / "big.json"
    with big.open("wb") as f:  # sparse: no disk space used, never committed
        f.truncate(ww.MAX_RECORD_BYTES + 1)
    read = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda *a: read.append(a) or real_read(*a))
    with pytest.raises(ww.RecordError, match=r"^the file is 8.0 MiB; records are limited to 8 MiB$"):
        ww.read_record(big)
    assert read == []


def test_a_fifo_is_refused_without_blocking(tmp_path: Path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(ww.RecordError, match=r"^is a FIFO, not a record file$"):
        ww.read_record(fifo)
    report = ww.import_records([fifo], tmp_path / "out")
    assert [r.error for r in report.results] == ["is a FIFO, not a record file"]  # worded as for drill files


def test_a_level_in_other_digits_is_ignored_not_a_traceback(tmp_path: Path):
    data = json.loads((FIXTURES / "good" / "captain-agent" / "mini.json").read_text(encoding="utf-8"))
    data["level"] = "\u00b2" * 5000  # superscript two: str.isdigit() says yes, int() says no
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    record = ww.parse_record(ww.read_record(tmp_path / "r.json"), "r")
    assert record.level is None


def test_a_folder_import_goes_on_after_each_bad_file_and_exits_1_with_nothing_half_written(tmp_path: Path):
    folder = tmp_path / "records"
    folder.mkdir()
    for bad in ("unpaired-surrogate.json", "mistake-5000-digits.json"):
        (folder / f"0-{bad}").write_bytes((BAD / bad).read_bytes())
    (folder / "1-good.json").write_bytes((FIXTURES / "good" / "captain-agent" / "mini.json").read_bytes())
    with (folder / "2-big.json").open("wb") as f:
        f.truncate(ww.MAX_RECORD_BYTES + 1)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "who-and-when", str(folder), "--out", str(out)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    errors = result.stderr.splitlines()
    assert errors == [
        f"{folder / '0-mistake-5000-digits.json'}:1:1: mistake_step is a number with 5,000 digits; numbers are limited "
        "to 30 digits",
        f"{folder / '0-unpaired-surrogate.json'}:1:1: history[3].content contains an unpaired surrogate (\\ud800), "
        "which is not a character",
        f"{folder / '2-big.json'}:1:1: the file is 8.0 MiB; records are limited to 8 MiB",
    ]
    assert "1 of 4 records imported" in result.stdout
    assert [p.name for p in out.iterdir()] == ["ww-captain-agent-1-good.yaml"]  # no temporary file left
