"""`warroom scores` listing (the bare form; `scores list` takes the same options): table, CSV and JSON, filters,
sorting, recovery first, bad input, unreadable rows."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import sqlite_only
from scores_support import known_store, played_session, run
from store_support import copy_drill, load

from warroom.cli import main
from warroom.cli.scores._list import CSV_COLUMNS
from warroom.core.model import Action, ActionKind
from warroom.core.scoring import Scorecard
from warroom.store.datadir import DB_NAME
from warroom.store.journal import SessionRecorder
from warroom.store.results import SCHEMA_VERSION, ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


@pytest.fixture
def known(tmp_path: Path) -> Path:
    return known_store(tmp_path)


def test_table_lists_sessions_newest_first(known: Path):
    r = run(known)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert "7 sessions" in lines[0]
    assert "time to detect" in r.stdout and "false esc." in r.stdout
    order = [ln.split()[1] for ln in lines if ln.startswith("│ s")]
    assert order == ["s7", "s6", "s5", "s4", "s3", "s2", "s1"]
    assert "contained late" in r.stdout and "contained_late" not in r.stdout and "10 s" in r.stdout


def test_table_limit_says_how_many_are_hidden(known: Path):
    r = run(known, "--limit", "2", "--sort", "score")
    assert "2 of 7 sessions" in r.stdout and "--limit 0" in r.stdout
    assert [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("│ s")] == ["s4", "s1"]


def test_csv_export_with_filters(known: Path):
    r = run(known, "--format", "csv", "--trainee", "ann", "--sort", "score", "--reverse")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [row["session_id"] for row in rows] == ["s3", "s2", "s1", "s4"]
    assert rows[0]["outcome"] == "missed" and rows[0]["time_to_detect"] == "" and rows[0]["damage"] == "500.0"
    assert rows[1]["false_escalations"] == "1" and rows[1]["time_to_detect"] == "10.0"


def test_json_export_with_drill_and_since(known: Path):
    r = run(known, "--format", "json", "--drill", "A", "--since", "2026-11-02")
    data = json.loads(r.stdout)
    assert [d["session_id"] for d in data] == ["s5", "s2"]
    assert data[0]["trainee"] == "bob" and data[0]["outcome"] == "wrong_step" and data[0]["total"] == 20
    assert data[1]["started_at"] == "2026-11-02T10:00:00.000000+00:00"


def test_mine_uses_the_current_trainee(known: Path):
    r = run(known, "--format", "json", "--mine", env={"WARROOM_TRAINEE": "bob"})
    assert {d["trainee"] for d in json.loads(r.stdout)} == {"bob"}


def test_empty_data_dir(tmp_path: Path):
    r = run(tmp_path / "none")
    assert r.exit_code == 0 and "No sessions recorded yet" in r.stdout
    assert json.loads(run(tmp_path / "none", "--format", "json").stdout) == []
    assert not (tmp_path / "none").exists()


def test_bad_since_is_a_clear_error(known: Path):
    r = run(known, "--since", "last tuesday")
    assert r.exit_code == 2
    assert "'last tuesday' is not a date or ISO datetime" in r.output
    assert "Traceback" not in r.output


@sqlite_only
def test_newer_database_is_a_clear_error_and_untouched(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    before = (tmp_path / DB_NAME).read_bytes()
    r = run(tmp_path)
    assert r.exit_code == 1
    assert "newer warroom" in r.output and "Traceback" not in r.output
    assert (tmp_path / DB_NAME).read_bytes() == before


def test_unfinished_sessions_are_recovered_first(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    rec = SessionRecorder.start(tmp_path / "data", "zoe", drill_path, load(drill_path))
    rec.record(Action(t=0.0, kind=ActionKind.INSPECT, event="e01"))
    rec.close()  # as if killed
    r = run(tmp_path / "data", "--format", "json")
    assert r.exit_code == 0
    # zoe's session is recovered and listed, but whoever runs the command is told only that one was (issue 30, item 4)
    assert "recovered 1 session of other trainees killed mid-drill" in r.stderr
    assert rec.session_id not in r.stderr and "zoe" not in r.stderr
    (row,) = json.loads(r.stdout)
    assert row["session_id"] == rec.session_id and row["outcome"] == "abandoned" and row["recovered"] is True


def test_table_shows_names_literally(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        add_session(store, "s1", trainee="[bold]eve\x1b[31m")
    r = run(tmp_path)
    assert "[bold]eve\\x1b[31m" in r.stdout and "\x1b" not in r.stdout


def test_table_shows_times_with_one_decimal_and_damage_with_its_unit(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        add_session(store, "s1", trainee="ann", ttd=18.5141, damage=931837.5)
    r = run(tmp_path)
    (row,) = [ln for ln in r.stdout.splitlines() if ln.startswith("│ s1")]
    assert "18.5 s" in row and "18.5141" not in row
    assert "$931,837.50 refunded in error" in row  # USD damage is money: one format for USD everywhere
    (exported,) = list(csv.DictReader(io.StringIO(run(tmp_path, "--format", "csv").stdout)))
    assert exported["time_to_detect"] == "18.5141"  # exports keep full precision
    assert exported["damage"] == "931837.5" and exported["damage_unit"] == "USD refunded in error"
    (j,) = json.loads(run(tmp_path, "--format", "json").stdout)
    assert j["time_to_detect"] == 18.5141 and j["damage"] == 931837.5 and j["damage_unit"] == "USD refunded in error"


def test_help_says_trainee_filters_and_defaults_to_every_trainee(tmp_path: Path):
    r = CliRunner().invoke(main, ["scores", "--help"])
    helptext = " ".join(r.stdout.split())
    start = helptext.index("--trainee TEXT")
    trainee_help = helptext[start : helptext.index("--mine", start)]
    assert "every trainee" in trainee_help and "$WARROOM_TRAINEE" not in trainee_help


@sqlite_only
def test_exports_carry_every_stored_field(tmp_path: Path):
    from dataclasses import fields

    from warroom.store.results import SessionRow

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    with ResultsStore(data) as store:
        stored = store.get(sid)
        store.update_scorecard(sid, Scorecard.from_dict(stored.scorecard), note="a facilitator's note")
        stored = store.get(sid)
    flat = [f.name for f in fields(SessionRow)]

    (j,) = json.loads(run(data, "--format", "json").stdout)
    assert set(j) == {*flat, "scorecard", "actions", "verification"} and j["verification"] is None
    assert j["scorecard"] == json.loads(json.dumps(stored.scorecard)) and j["scorecard"]["outcome"] == "contained"
    assert [a["kind"] for a in j["actions"]] == [a.kind.value for a in stored.actions]
    assert j["actions"][-1] == {
        "t": 12.0,
        "kind": "escalate",
        "step": "s1",
        "note": "stale snapshot",
        "cites": ["e06"],
    }
    assert j["drill_path"] == str(drill_path.resolve()) and j["notes"] == ["a facilitator's note"]
    assert j["rescored_at"] and j["all_clear"] is False

    r = run(data, "--format", "csv")
    (row,) = list(csv.DictReader(io.StringIO(r.stdout)))
    assert set(row) == {*flat, "verification"} and row["verification"] == ""
    assert row["drill_path"] == str(drill_path.resolve()) and row["all_clear"] == "False"
    assert json.loads(row["notes"]) == ["a facilitator's note"] and row["rescored_at"] == j["rescored_at"]
    # With no store yet the CSV header is the same.
    empty = run(tmp_path / "nothing", "--format", "csv").stdout
    assert empty.strip().split(",") == list(CSV_COLUMNS) and set(CSV_COLUMNS) == {*flat, "verification"}


def _corrupt(data_dir: Path) -> dict[str, tuple]:
    """Damage two stored rows as a bad disk or a hand edit might: s2's scorecard is not JSON, s5's action log has an
    action of an unknown kind. Returns the rows as they are now, to check they are never modified."""
    db = sqlite3.connect(data_dir / DB_NAME)
    with db:
        db.execute("UPDATE sessions SET scorecard = '{not json' WHERE session_id = 's2'")
        db.execute("""UPDATE sessions SET actions = '[{"t": 1, "kind": "dance"}]' WHERE session_id = 's5'""")
    rows = {r[0]: r for r in db.execute("SELECT * FROM sessions WHERE session_id IN ('s2', 's5')")}
    db.close()
    return rows


@sqlite_only
def test_corrupt_rows_are_skipped_and_reported_never_modified(known: Path):
    before = _corrupt(known)
    r = run(known, "--format", "json")
    assert r.exit_code == 1
    ids = [row["session_id"] for row in json.loads(r.stdout)]
    assert ids == ["s7", "s6", "s4", "s3", "s1"]
    assert "skipped: stored session s2 cannot be read" in r.stderr and "not valid JSON" not in r.stdout
    assert "skipped: stored session s5 cannot be read: an action in its log is invalid (kind" in r.stderr
    assert "2 stored sessions could not be read" in r.stderr

    r = run(known, "--rescore")
    assert r.exit_code == 1
    assert "skipped: s2: stored session s2 cannot be read" in r.stderr and "skipped: s5:" in r.stderr

    r = CliRunner().invoke(main, ["review", "s5", "--data-dir", str(known)])
    assert r.exit_code == 1 and "stored session s5 cannot be read" in r.stderr and "Traceback" not in r.output

    db = sqlite3.connect(known / DB_NAME)
    after = {r[0]: r for r in db.execute("SELECT * FROM sessions WHERE session_id IN ('s2', 's5')")}
    db.close()
    assert after == before

    # The table lists only the flat columns, so it still shows every session.
    assert run(known).exit_code == 0


def test_mode_tutorial_lists_the_tutorial_sessions_the_statistics_never_count(known: Path):
    """A tutorial session is stored and listed; --mode tutorial lists only those (bare `scores` and `scores list`),
    the help says so, and the summary refuses the mode rather than count them."""
    from scores_support import run_sub
    from store_support import scorecard

    from warroom.store.results import SessionInfo

    info = SessionInfo(
        session_id="tut1", trainee="ann", drill_id="tutorial", drill_version=1, drill_sha256=None, drill_path=None,
        started_at="2026-11-09T10:00:00.000000+00:00", all_clear=False, mode="tutorial",
    )
    with ResultsStore(known) as store:
        assert store.insert(info, scorecard(drill_id="tutorial"), [], ended_at=info.started_at)
    for result in (run(known, "--mode", "tutorial", "--format", "json"),
                   run_sub(known, "list", "--mode", "tutorial", "--format", "json")):
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)
        assert [(r["session_id"], r["mode"]) for r in rows] == [("tut1", "tutorial")]
    everyone = json.loads(run(known, "--format", "json").stdout)
    assert len(everyone) == 8 and "tut1" in {r["session_id"] for r in everyone}
    practice = json.loads(run(known, "--mode", "practice", "--format", "json").stdout)
    assert "tut1" not in {r["session_id"] for r in practice}
    assert "tutorial" in " ".join(run_sub(known, "list", "--help").stdout.split())
    refused = run_sub(known, "summary", "--mode", "tutorial")
    assert refused.exit_code == 2
    assert "never count tutorial sessions" in refused.output and "scores list --mode tutorial" in refused.output
