"""Campaign 21 (issue 30), results, stores and scores: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path, load

from unit.test_forgeries import GOOD, play
from unit.test_issue30_results_leftovers import LATE
from warroom.cli import main
from warroom.store.results import ResultsStore


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_store_moved_by_export_and_import_keeps_the_first_attempt_of_a_clock_set_back(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """A trainee plays a drill poorly, reads its debrief, sets their clock back and plays it again, well: the store's
    own order keeps the poor session the trial. The class's store is then moved (`warroom store export`, `warroom
    store import --all-trainees` into the new store, as docs/cohorts.md says to move results): the export wrote its
    lines in start order and the import numbers them in the order of the lines, so the good replay, which claims the
    earlier start, became the first attempt in the new store (ann: 1 hit of 1, verified). The export is written in
    the order the store stored the sessions, so the moved store counts what the old one counted."""
    from warroom.store.journal import _recorder

    source = tmp_path / "class"
    poor = play(source, "ann", [LATE], mode="assessment").session_id
    monkeypatch.setattr(_recorder, "utc_now", lambda: "2025-01-01T00:00:00.000000+00:00")
    monkeypatch.setattr(_recorder, "new_session_id", lambda now=None: "20250101-000000-aaaa")
    good = play(source, "ann", GOOD, mode="assessment").session_id
    with ResultsStore(source, url=backend_url) as store:
        assert store.get(good).started_at < store.get(poor).started_at  # the clock set back

    def ann(data: Path) -> tuple[int, int, int]:
        out = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
        (row,) = json.loads(out)["trainees"]
        return row["trials"], row["replays"], row["hits"]

    assert ann(source) == (1, 1, 0)
    export = tmp_path / "class.jsonl"
    _cli("store", "export", "--data-dir", str(source), "-o", str(export))
    lines = [json.loads(line)["session_id"] for line in export.read_text().splitlines()]
    assert lines == [poor, good]  # the order the store stored them, not their claimed starts
    moved = tmp_path / "moved"
    moved.mkdir()
    monkeypatch.delenv("WARROOM_STORE", raising=False)  # the new store: the moved data directory's SQLite file
    _cli("store", "import", "--all-trainees", "--data-dir", str(moved), str(export))
    _cli("scores", "verify", "--data-dir", str(moved))
    assert ann(moved) == (1, 1, 0)  # the poor session is still the trial; the good one a replay


@pytest.mark.parametrize(
    "command",
    [
        ("scores", "list", "--format", "csv"),
        ("scores", "summary", "--format", "json"),
        ("store", "export"),
        ("report",),
    ],
    ids=["scores-csv", "summary-json", "store-export", "report"],
)
def test_an_export_written_over_the_results_store_or_a_journal_is_refused(
    tmp_path: Path, command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
):
    """`warroom scores --format csv -o results.sqlite3` (tab completion in the data directory picks the store's
    file) replaced the results store with the CSV, exit 0: every session of the class gone. `store export`,
    `scores summary` and `report` did the same, and over a session's journal (a session waiting for its recovery)
    they lost that session. Every export and report is written by one function, which now refuses a file holding
    results (a SQLite database, its write-ahead log, a journal), exit 1, the file unchanged."""
    import sqlite3

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    data = tmp_path / "class"
    session = play(data, "ann", GOOD, mode="assessment").session_id
    store = data / "results.sqlite3"
    journal = next((data / "journals").rglob(f"{session}.jsonl"))
    wal_db = tmp_path / "other.sqlite3"
    writer = sqlite3.connect(wal_db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t (x)")
    writer.commit()  # in the write-ahead log only, while the connection is open
    wal = tmp_path / "other.sqlite3-wal"
    try:
        for target, kind in ((store, "a SQLite database"), (journal, "a session's journal"),
                             (wal, "a SQLite write-ahead log")):  # fmt: skip
            before = target.read_bytes()
            result = CliRunner().invoke(main, [*command, "--data-dir", str(data), "-o", str(target)])
            assert result.exit_code == 1, result.output
            assert "Traceback" not in result.output
            assert f"it is {kind}" in result.output and "nothing was written" in result.output, result.output
            assert target.read_bytes() == before
    finally:
        writer.close()
    with ResultsStore(data) as kept:
        assert kept.get(session).total == 100
    other = tmp_path / "out.txt"
    other.write_text("an old export\n")
    result = CliRunner().invoke(main, [*command, "--data-dir", str(data), "-o", str(other)])
    assert result.exit_code == 0, result.output
    assert other.read_text() != "an old export\n"  # an ordinary file is still replaced


def test_a_killed_session_is_never_stored_as_ended_before_its_last_action(tmp_path: Path, monkeypatch):
    """A practice session killed with a dialog open (its last action a pause) is recovered with the journal's last
    change as its end. The kernel keeps a file's change time in a coarser clock than the time warroom writes an action
    with, a few milliseconds behind: every such session was stored as ended before its last action, and its paused
    seconds (a pause never resumed runs to the end) were unknown. The end is now the later of the two."""
    import os
    from datetime import datetime

    from warroom.core.play import Replay
    from warroom.store.journal import SessionRecorder
    from warroom.store.journal._wallclock import parse_time

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drill_path()
    rec = SessionRecorder.start(tmp_path, "kim", path, load(path))
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(12.0)
    replay.pause()
    rec.close()  # the process killed here: the journal unfinished, its lock gone
    (journal,) = (tmp_path / "journals").glob(f"{rec.session_id}.jsonl")
    paused_at = parse_time(json.loads(journal.read_text().splitlines()[-1])["at"])
    assert paused_at is not None
    coarse = paused_at.timestamp() - 0.004  # the file's change time, one kernel tick behind
    os.utime(journal, (coarse, coarse))
    (row,) = json.loads(_cli("scores", "--data-dir", str(tmp_path), "--format", "json"))
    assert datetime.fromisoformat(row["ended_at"]) >= paused_at
    assert (row["pauses"], row["paused_seconds"]) == (1, 0.0)


@pytest.mark.parametrize("value", ["'abc'", "x'00'", "'7'", "2.5"])
def test_a_store_order_written_by_hand_as_text_is_read_alike_by_the_summary_and_the_report(tmp_path: Path, value: str):
    """A SQLite store edited by hand (a store is as private as its file) with text or a blob in `stored_seq`: the
    summary's SQL orders the attempts by it as a whole number and counted the session, while `warroom report` (and
    `scores delete`'s warning, the console) compared the text with a number: a traceback. Both now read it as the
    same whole number, and give the same figures."""
    import re
    import sqlite3

    from warroom.core.model import Action, ActionKind

    late = Action(t=60.0, kind=ActionKind.ESCALATE, step="s1", note="late", cites=("e04",))
    play(tmp_path, "dan", [late], mode="assessment")  # stored first: a miss (contained late)
    good = play(tmp_path, "dan", GOOD, mode="assessment").session_id  # stored second: a hit
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        db.execute(f"UPDATE sessions SET stored_seq = {value} WHERE session_id = ?", (good,))
    db.close()
    summary = json.loads(_cli("scores", "summary", "--format", "json", "--data-dir", str(tmp_path)))
    (dan,) = summary["trainees"]
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--data-dir", str(tmp_path), "-o", str(page)])
    assert result.exit_code == 0, result.output
    hit_rate = re.search(r"dan</td>(?:<td>[^<]*</td>){3}<td>([^<]*)</td>", page.read_text())
    assert hit_rate is not None
    # 'abc' and a blob read as 0 (the hit first), '7' as 7 and 2.5 as 2 (the miss, numbered 1, first)
    expected = 1 if value in ("'abc'", "x'00'") else 0
    assert (dan["hits"], dan["replays"]) == (expected, 1)
    assert hit_rate.group(1).startswith(f"{expected}/1 ")


def test_a_drills_discrimination_is_shown_with_the_trials_it_rests_on_and_its_interval():
    """docs/sessions.md promises every figure with the counts it rests on and its uncertainty, but a drill's
    discrimination (a point-biserial r) was shown alone, `-0.61`, from as few as 3 trials: a facilitator read a
    drill as separating weak trainees from strong ones on five trials. It now carries the trials it rests on and its
    95% interval by Fisher's z, in the JSON and CSV (`discrimination_trials`, `_low`, `_high`) and in every table
    (`-0.61 [-0.97, 0.59] (n=5)`); with 3 trials the interval is the whole range."""
    import math

    from warroom.core.model import Outcome, Response
    from warroom.core.stats import SessionFacts, drill_cells, summarize

    def fact(trainee: str, drill: str, hit: bool, score: float) -> SessionFacts:
        outcome, response = (Outcome.CONTAINED, Response.HIT) if hit else (Outcome.MISSED, Response.MISS)
        return SessionFacts(trainee, drill, True, outcome, score, f"2026-12-0{1 + (drill == 'B')}T00:00:00+00:00",
                            response=response, session_id=f"{trainee}-{drill}", mode="assessment")  # fmt: skip

    # drill A: correct for ann and bob; their scores on drill B (the rest scores) 100, 90, 10, 20, 50
    rows = [("ann", True, 100), ("bob", True, 90), ("cy", False, 10), ("dee", False, 20), ("eve", True, 50)]
    facts = [fact(n, "A", hit, 100 if hit else 0) for n, hit, _ in rows]
    facts += [fact(n, "B", rest >= 50, rest) for n, _, rest in rows]
    (a, _b) = summarize(facts).drills
    xs, ys = [1.0 if hit else 0.0 for _, hit, _ in rows], [float(rest) for _, _, rest in rows]
    mx, my = sum(xs) / 5, sum(ys) / 5
    r = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / math.sqrt(
        sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)
    )
    half = 1.959963984540054 / math.sqrt(5 - 3)
    assert a.discrimination == pytest.approx(r)
    assert a.discrimination_trials == 5
    assert (a.discrimination_low, a.discrimination_high) == pytest.approx(
        (math.tanh(math.atanh(r) - half), math.tanh(math.atanh(r) + half))
    )
    cell = drill_cells(a)[6]
    shown = f"{r:.2f} [{a.discrimination_low:.2f}, {a.discrimination_high:.2f}] (n=5)".replace("-0.00", "0.00")
    assert cell == shown == "0.88 [0.00, 0.99] (n=5)"
    three = summarize([f for f in facts if f.trainee in ("ann", "bob", "cy")]).drills[0]
    assert (three.discrimination_trials, three.discrimination_low, three.discrimination_high) == (3, -1.0, 1.0)
    for key in ("discrimination_trials", "discrimination_low", "discrimination_high"):
        assert key in a.to_dict()
