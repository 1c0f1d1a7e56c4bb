"""`warroom import who-and-when`: bad records reported per file, exit statuses, prices, written files, and the
whole shared corpus imported, loaded and played when it is present (skipped cleanly otherwise)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from import_support import (
    BAD,
    GOOD,
    assert_no_answer_before_the_debrief,
    assert_playable,
    by_id,
    corpus_dir,
    load,
    run_checks_if_available,
    text_of,
)
from screen_support import screen_text

from warroom.cli import main
from warroom.importers import who_and_when as ww
from warroom.importers.kit import find_input_files, refusal_position

BAD_MESSAGES = {
    "content-not-text.json": "history[3].content is a JSON array, not text",
    "empty-history.json": "field 'history' is empty",
    "missing-history.json": "missing field 'history'",
    "missing-question.json": "missing field 'question'",
    "mistake-not-number.json": "mistake_step 'three' is not a whole number",
    "mistake-out-of-range.json": "mistake_step 4 is out of range: history has 4 messages (0 to 3)",
    "not-json.json": "not JSON: Expecting value at line 1 column 15",
    "not-utf8.json": "not UTF-8 text: byte 0xff at offset 13 (line 1, column 14)",
    "top-level-array.json": "the top level is a JSON array, not an object",
    "unknown-kind.json": "cannot tell the record's kind",
    "unpaired-surrogate.json": "history[3].content contains an unpaired surrogate (\\ud800), which is not a character",
    "mistake-5000-digits.json": "mistake_step is a number with 5,000 digits; numbers are limited to 30 digits",
    "mistake-5000-digits-text.json": "mistake_step is a number with 5,000 digits; history has 4 messages (0 to 3)",
    "huge-number-elsewhere.json": "is_correct is a number with 5,000 digits; numbers are limited to 30 digits",
}


def test_every_bad_fixture_has_an_expected_message():
    assert {p.name for p in BAD.glob("*.json")} == set(BAD_MESSAGES)


@pytest.mark.parametrize("name", sorted(BAD_MESSAGES))
def test_bad_record_is_reported_with_a_clear_message(name, tmp_path):
    report = ww.import_records([BAD / name], tmp_path)
    [result] = report.results
    assert not result.ok and BAD_MESSAGES[name] in result.error
    assert list(tmp_path.iterdir()) == []


#: Good records whose drill `warroom check` refuses (scoring rules version 4): the mistake is in the first agent
#: message, the second event of the trace, so citing everything released by then (two events, one of them the
#: evidence) is a specific citation and a guess at the first step wins (rule battery-hit).
UNFAIR_GOOD = {"captain-agent/mistake-zero.json": "s01 at 4 s", "magentic-one/plan-mistake.json": "s00 at 2.2 s"}


def test_cli_reports_bad_records_per_file_and_imports_the_rest(tmp_path):
    out = tmp_path / "new" / "drills"
    result = CliRunner().invoke(main, ["import", "who-and-when", str(GOOD), str(BAD), "--out", str(out)])
    assert result.exit_code == 1, result.output
    for name, message in BAD_MESSAGES.items():  # path:line:col: message, the place taken out of the message
        line, col, said = refusal_position(message)
        assert f"{BAD / name}:{line}:{col}: " in result.stderr and said in result.stderr
    for name, where in UNFAIR_GOOD.items():
        assert (
            f"{GOOD / name}:1:1: the drill made from this record fails `warroom check`: fairness rule battery-hit: the "
            f"cite-everything trainee is a hit without reading the trace: its first escalation named {where} citing"
        ) in result.stderr
    good = sorted(p for p in GOOD.rglob("*.json") if f"{p.parent.name}/{p.name}" not in UNFAIR_GOOD)
    n = len(good) + len(UNFAIR_GOOD) + len(BAD_MESSAGES)
    failed = len(BAD_MESSAGES) + len(UNFAIR_GOOD)
    assert f"{len(good)} of {n} records imported into {out}, {failed} failed" in result.stdout
    written = sorted(p.name for p in out.glob("*.yaml"))
    assert written == sorted(f"ww-{p.parent.name}-{p.stem}.yaml" for p in good)
    for p in out.glob("*.yaml"):
        drill = load(p)
        assert_playable(drill)
        run_checks_if_available(drill)


def test_cli_exit_0_when_all_import_and_force_to_overwrite(tmp_path):
    runner = CliRunner()
    args = ["import", "who-and-when", str(GOOD / "captain-agent" / "mini.json"), "--out", str(tmp_path), "-v"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "1 of 1 record imported" in first.stdout and "ww-captain-agent-mini.yaml" in first.stdout
    target = tmp_path / "ww-captain-agent-mini.yaml"
    target.write_text("# edited by an author\n", encoding="utf-8")
    again = runner.invoke(main, args)
    assert again.exit_code == 1
    assert "already exists (use --force to overwrite it)" in again.stderr
    assert target.read_text(encoding="utf-8") == "# edited by an author\n"  # nothing lost without --force
    forced = runner.invoke(main, [*args, "--force"])
    assert forced.exit_code == 0 and load(target).id == "ww-captain-agent-mini"


def test_cli_prices(tmp_path):
    src = GOOD / "magentic-one" / "mini.json"
    result = CliRunner().invoke(
        main,
        ["import", "who-and-when", str(src), "--out", str(tmp_path), "--planner-price", "3/15",
         "--executor-price", "0.25/1.25"],
    )
    assert result.exit_code == 0, result.output
    drill = load(tmp_path / "ww-magentic-one-mini.yaml")
    assert drill.models.planner.output_usd_per_mtok == 15 and drill.models.executor.input_usd_per_mtok == 0.25


@pytest.mark.parametrize(
    "extra",
    [["--planner-price", "5"], ["--executor-price", "x/1"]],
)
def test_cli_bad_price_is_a_usage_error(extra, tmp_path):
    result = CliRunner().invoke(main, ["import", "who-and-when", str(GOOD), "--out", str(tmp_path), *extra])
    assert result.exit_code == 2 and "IN/OUT" in result.output
    assert list(tmp_path.iterdir()) == []


def test_cli_usage_errors(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["import", "who-and-when", str(tmp_path / "nope"), "--out", str(tmp_path)])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    empty = tmp_path / "empty"
    empty.mkdir()
    none = runner.invoke(main, ["import", "who-and-when", str(empty), "--out", str(tmp_path / "o")])
    assert none.exit_code == 2 and "no record files" in none.output
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    not_dir = runner.invoke(main, ["import", "who-and-when", str(GOOD), "--out", str(a_file)])
    assert not_dir.exit_code == 2 and "Traceback" not in not_dir.output
    no_out = runner.invoke(main, ["import", "who-and-when", str(GOOD)])
    assert no_out.exit_code == 2 and "--out" in no_out.output


def test_written_drill_files_have_the_normal_mode_of_new_files(tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        report = ww.import_records([GOOD / "captain-agent" / "mini.json"], tmp_path)
        again = ww.import_records([GOOD / "captain-agent" / "mini.json"], tmp_path, force=True)
        os.umask(0o027)
        other = ww.import_records([GOOD / "magentic-one" / "mini.json"], tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(report.results[0].output.stat().st_mode) == 0o644  # 0666 minus the umask, like `warroom new`
    assert stat.S_IMODE(again.results[0].output.stat().st_mode) == 0o644
    assert stat.S_IMODE(other.results[0].output.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ww-captain-agent-mini.yaml", "ww-magentic-one-mini.yaml"]


def test_not_utf8_names_the_byte_and_its_offset(tmp_path):
    bad = tmp_path / "bin.json"
    bad.write_bytes(b"\xef\xbb\xbf{\n  \"history\": \"\xc3\x28\"}")  # a BOM, then a broken two-byte sequence
    with pytest.raises(ww.RecordError, match=r"^not UTF-8 text: byte 0xc3 at offset 19 \(line 2, column 15\)$"):
        ww.read_record(bad)
    (tmp_path / "zero.json").write_bytes(b"\xff")
    with pytest.raises(ww.RecordError, match=r"^not UTF-8 text: byte 0xff at offset 0 \(line 1, column 1\)$"):
        ww.read_record(tmp_path / "zero.json")


def test_the_whole_corpus_imports_loads_and_plays(tmp_path):
    corpus = corpus_dir()
    if corpus is None:
        pytest.skip("the shared Who&When corpus (../shared/corpora/who-and-when) is not present")
    report = ww.import_records([corpus], tmp_path)
    # Refused only where the mistake is the first agent message (the second event: citing all that is out then is
    # specific, so a guess wins: scoring rules version 4's rule battery-hit)
    for r in report.failed:
        assert "fairness rule battery-hit: the cite-everything trainee is a hit" in r.error, (r.source, r.error)
        assert "only 2 events were out by then" in r.error, (r.source, r.error)
        assert int(json.loads(r.source.read_text(encoding="utf-8"))["mistake_step"]) <= 1, r.source
    assert len(report.imported) + len(report.failed) == len(list(corpus.rglob("*.json")))
    assert len(report.failed) <= len(report.imported) / 5  # a few of the real traces, not the corpus
    for result in report.imported:
        record = json.loads(result.source.read_text(encoding="utf-8"))
        drill = load(result.output)
        ev = by_id(drill)
        width = max(3, len(str(len(record["history"]) - 1)))
        for i, message in enumerate(record["history"]):
            assert text_of(ev[f"h{i:0{width}d}"]) == message["content"], (result.source, i)
        assert drill.answer_key.evidence == [f"h{int(record['mistake_step']):0{width}d}"]
        assert_no_answer_before_the_debrief(drill, record)
        assert_playable(drill)
        # No second `run_checks` here: the importer ran the battery on every drill it wrote (kit.checked_drill, on
        # the very text of the file) and wrote none that failed; the refusals asserted above are that battery's.
        # Running it again on the 114 files was a third of this test's time.


async def test_an_imported_drill_plays_to_a_debrief_in_the_tui(tmp_path):
    from textual.clock import MockClock

    from warroom.tui.app import WarroomApp
    from warroom.tui.logic import Services, load_entry
    from warroom.tui.room import WarRoomScreen
    from warroom.tui.screens import DebriefScreen

    report = ww.import_records([GOOD / "magentic-one" / "odd-text.json"], tmp_path / "drills")
    entry = load_entry(report.results[0].output)
    assert entry.ok, entry.problems
    drill_text = entry.drill.event("h007").content
    assert drill_text.startswith("[bold red]not markup[/]")
    app = WarroomApp(Services(trainee="tester", data_dir=tmp_path / "data"), start=entry, clock=MockClock())

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)

        async def run_until(t: float) -> None:
            while live.replay.now < t and not live.replay.ended:
                app.clock.set_time(app.clock.time + 0.5)
                live.tick()
            await pilot.pause()

        await run_until(entry.drill.event("h007").t)
        assert drill_text in screen_text(app)  # shown literally, not read as Rich markup
        # Escalate the origin step (s01, typed in the dialog) with a reason, cite the evidence (tab to the evidence
        # list, type its id, space ticks it), and confirm.
        evidence = entry.drill.answer_key.evidence[0]
        assert evidence != "h007"  # the newest event, which the trace follows: the trainee chose nothing
        await pilot.press("e", "s", "0", "1", "tab", "w", "e", "b", "tab", *evidence, "space", "enter", "y")
        assert live.replay.contained and live.replay.actions[-1].step == "s01"
        assert live.replay.actions[-1].cites == (evidence,)  # only what the trainee ticked (issue 31)
        await run_until(live.replay.now + 2)
        assert isinstance(app.screen, DebriefScreen)
        assert "CONTAINED" in screen_text(app)


def test_record_files_are_found_in_natural_order_by_the_library_search(tmp_path):
    for name in ("10.json", "2.json", "1.json", "notes.txt", "a.yaml"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in find_input_files([tmp_path], ww.IMPORTER.suffixes)] == ["1.json", "2.json", "10.json"]
    with pytest.raises(FileNotFoundError):
        find_input_files([tmp_path / "missing"], ww.IMPORTER.suffixes)
