"""`warroom scores`: table, CSV and JSON, filters, sorting, summaries, re-score, recovery, bad input."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import copy_drill, known_sessions, load

from warroom.cli import main
from warroom.cli.scores import CSV_COLUMNS
from warroom.core.actions import Action, ActionKind
from warroom.core.scoring import Scorecard
from warroom.store.results import DB_NAME, SCHEMA_VERSION, ResultsStore
from warroom.store.sessions import SessionRecorder


def run(data_dir: Path, *args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, ["scores", "--data-dir", str(data_dir), *args], env=env, catch_exceptions=False)


@pytest.fixture
def known(tmp_path: Path) -> Path:
    with ResultsStore(tmp_path) as store:
        known_sessions(store)
    return tmp_path


def test_table_lists_sessions_newest_first(known: Path):
    r = run(known)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert "7 session(s)" in lines[0]
    assert "time to detect" in r.stdout and "false esc." in r.stdout
    order = [ln.split()[1] for ln in lines if ln.startswith("│ s")]
    assert order == ["s7", "s6", "s5", "s4", "s3", "s2", "s1"]
    assert "contained late" in r.stdout and "contained_late" not in r.stdout and "10 s" in r.stdout


def test_table_limit_says_how_many_are_hidden(known: Path):
    r = run(known, "--limit", "2", "--sort", "score")
    assert "2 of 7 session(s)" in r.stdout and "--limit 0" in r.stdout
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


def test_summary_json_figures(known: Path):
    r = run(known, "--summary", "--format", "json")
    data = json.loads(r.stdout)
    assert data["counted"] == {"mode": "all", "sessions": 7, "left_out": 0}  # no assessment session: all count
    ann, bob = data["trainees"]
    assert {k: ann[k] for k in ("trainee", "sessions", "abandoned", "fault_sessions", "hits", "false_alarms")} == {
        "trainee": "ann", "sessions": 4, "abandoned": 0, "fault_sessions": 3, "hits": 1, "false_alarms": 0
    }  # fmt: skip
    # s1 contained (a hit), s2 contained late and s3 missed (misses), s4 all clear held
    assert ann["hit_rate"] == pytest.approx(1 / 3) and ann["false_alarm_rate"] == 0.0
    # log-linear: H = 1.5 / 4, F = 0.5 / 2; d' = z(0.375) - z(0.25)
    assert ann["d_prime"] == pytest.approx(-0.318639 + 0.674490, abs=1e-5)
    assert ann["a_prime"] == pytest.approx(0.5 + (1 / 3) * (4 / 3) / (4 / 3))
    assert (ann["median_time_to_detect"], ann["mean_score"]) == (7.0, 62.5)
    assert (bob["hit_rate"], bob["false_alarm_rate"], bob["mean_score"]) == (0.5, 1.0, 45.0)
    assert [(d["drill_id"], d["sessions"], d["difficulty"], d["all_clear"]) for d in data["drills"]] == [
        ("A", 3, pytest.approx(1 / 3), False),
        ("B", 2, 0.5, False),
        ("C", 2, 0.5, True),
    ]
    assert data["reliability"]["trainees"] == 2 and data["reliability"]["split_half_r"] is None


def test_summary_table_and_csv(known: Path):
    r = run(known, "--summary", env={"COLUMNS": "200"})
    assert r.exit_code == 0
    assert r.stdout.startswith("Counted: every session, 7 session(s) (0 abandoned, counted apart).")
    assert "Per trainee" in r.stdout and "Per drill" in r.stdout
    ann = next(ln for ln in r.stdout.splitlines() if "│ ann" in ln)
    cells = [c.strip() for c in ann.split("│")[1:-1]]
    assert cells[:8] == ["ann", "4", "0", "33%", "0%", "0.36", "0.5", "0.83"]
    assert cells[8] == "7 s" and cells[10] == "62.5"
    bars = [ln for ln in r.stdout.splitlines() if ln.startswith("bob ")]
    assert bars and "██████████  " in bars[0] and " 50%" in bars[0] and bars[0].endswith("█" * 20 + "  100%")
    rows = list(csv.DictReader(io.StringIO(run(known, "--summary", "--format", "csv").stdout)))
    assert [(row["scope"], row["name"]) for row in rows] == [
        ("trainee", "ann"),
        ("trainee", "bob"),
        ("drill", "A"),
        ("drill", "B"),
        ("drill", "C"),
        ("cohort", "reliability"),
    ]
    assert rows[1]["false_alarm_rate"] == "1.0" and rows[3]["difficulty"] == "0.5" and rows[4]["all_clear"] == "True"
    assert rows[2]["distractor_pulls"] == "{}" and {row["counted_mode"] for row in rows} == {"all"}


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
    assert f"recovered session {rec.session_id}" in r.stderr
    (row,) = json.loads(r.stdout)
    assert row["session_id"] == rec.session_id and row["outcome"] == "abandoned" and row["recovered"] is True


# -- re-score ------------------------------------------------------------------------------------------------------


def _played_session(data_dir: Path, drill_path: Path) -> str:
    from warroom.core.replay import Replay
    from warroom.core.scoring import score

    drill = load(drill_path)
    rec = SessionRecorder.start(data_dir, "ann", drill_path, drill)
    replay = Replay(drill, on_action=rec.record)
    replay.advance(12)
    replay.escalate("s1", "stale snapshot")
    rec.finish(score(drill, rec.actions))
    return rec.session_id


def test_rescore_says_which_changed(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = _played_session(data, drill_path)
    other = _played_session(data, drill_path)
    with ResultsStore(data) as store:
        real = store.get(sid).scorecard
        # as if an older rule scored it
        store.update_scorecard(sid, Scorecard.from_dict({**real, "total": 3, "outcome": "missed"}))
    r = run(data, "--rescore")
    assert r.exit_code == 0, r.output
    changed = f"changed: {sid} (ann, duplicate-charge-refunds): outcome missed -> contained, score 3 -> {real['total']}"
    assert changed in r.stdout
    assert other not in r.stdout
    assert "re-scored 2 of 2 session(s): 1 changed, 1 unchanged, 0 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).total == real["total"] and store.get(sid).outcome == "contained"
    assert "0 changed, 2 unchanged, 0 skipped" in run(data, "--rescore").stdout


def test_rescore_reports_a_changed_drill_file(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = _played_session(data, drill_path)
    with ResultsStore(data) as store:
        store.update_scorecard(sid, Scorecard.from_dict({**store.get(sid).scorecard, "total": 3}))
    drill_path.write_text(drill_path.read_text() + "\n# edited after the session\n")
    r = run(data, "--rescore")
    assert r.exit_code == 1
    assert "changed since the session" in r.stderr and "not re-scored" in r.stderr
    assert "0 changed, 0 unchanged, 1 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).total == 3  # not silently re-scored
    r = run(data, "--rescore", "--allow-changed")
    assert r.exit_code == 0 and "1 changed" in r.stdout


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


def test_exports_carry_every_stored_field(tmp_path: Path):
    from dataclasses import fields

    from warroom.store.results import SessionRow

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = _played_session(data, drill_path)
    with ResultsStore(data) as store:
        stored = store.get(sid)
        store.update_scorecard(sid, Scorecard.from_dict(stored.scorecard), note="a facilitator's note")
        stored = store.get(sid)
    flat = [f.name for f in fields(SessionRow)]

    (j,) = json.loads(run(data, "--format", "json").stdout)
    assert set(j) == {*flat, "scorecard", "actions"}
    assert j["scorecard"] == json.loads(json.dumps(stored.scorecard)) and j["scorecard"]["outcome"] == "contained"
    assert [a["kind"] for a in j["actions"]] == [a.kind.value for a in stored.actions]
    assert j["actions"][-1] == {"t": 12.0, "kind": "escalate", "step": "s1", "note": "stale snapshot"}
    assert j["drill_path"] == str(drill_path.resolve()) and j["notes"] == ["a facilitator's note"]
    assert j["rescored_at"] and j["all_clear"] is False

    r = run(data, "--format", "csv")
    (row,) = list(csv.DictReader(io.StringIO(r.stdout)))
    assert set(row) == set(flat)
    assert row["drill_path"] == str(drill_path.resolve()) and row["all_clear"] == "False"
    assert json.loads(row["notes"]) == ["a facilitator's note"] and row["rescored_at"] == j["rescored_at"]
    # With no store yet the CSV header is the same.
    empty = run(tmp_path / "nothing", "--format", "csv").stdout
    assert empty.strip().split(",") == list(CSV_COLUMNS) and set(CSV_COLUMNS) == set(flat)


def test_rescore_allow_changed_records_the_drill_file_it_scored_against(tmp_path: Path):
    from warroom.store.sessions import file_sha256

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = _played_session(data, drill_path)
    original_text = drill_path.read_text()
    original_sha = file_sha256(drill_path)
    with ResultsStore(data) as store:
        before = store.get(sid)
    assert before.drill_sha256 == original_sha and before.drill_version == 1
    # The author edits the drill: earlier evidence (e03 at 7 s) makes the escalation at 12 s slower (fewer points).
    edited = original_text.replace("\nversion: 1\n", "\nversion: 2\n")
    edited = edited.replace("evidence: [e04]", "evidence: [e03, e04]")
    assert edited.count("version: 2") == 1 and "evidence: [e03, e04]" in edited
    drill_path.write_text(edited)
    new_sha = file_sha256(drill_path)

    r = run(data, "--rescore", "--allow-changed")
    assert r.exit_code == 0, r.output
    assert f"changed: {sid}" in r.stdout and "drill file version 1 -> 2" in r.stdout
    with ResultsStore(data) as store:
        after = store.get(sid)
    assert (before.total, after.total) == (100, 96) and after.time_to_detect == 5.0
    assert after.drill_sha256 == new_sha and after.drill_version == 2
    assert after.rescored_at is not None
    (note,) = after.notes
    assert "changed drill file" in note and new_sha in note and original_sha in note

    # The stored score and its recorded drill file agree: a plain re-score changes nothing and skips nothing.
    r = run(data, "--rescore")
    assert r.exit_code == 0 and "0 changed, 1 unchanged, 0 skipped" in r.stdout
    # Putting the old file back does not silently flip the score back: it is a changed file again.
    drill_path.write_text(original_text)
    r = run(data, "--rescore")
    assert r.exit_code == 1 and "changed since the session" in r.stderr
    with ResultsStore(data) as store:
        assert store.get(sid).total == after.total


def test_rescore_allow_changed_records_the_file_even_when_the_score_is_the_same(tmp_path: Path):
    from warroom.store.sessions import file_sha256

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = _played_session(data, drill_path)
    drill_path.write_text(drill_path.read_text() + "\n# a comment added after the session\n")
    r = run(data, "--rescore", "--allow-changed")
    assert r.exit_code == 0, r.output
    assert f"updated: {sid}" in r.stdout and "0 changed, 1 unchanged, 0 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).drill_sha256 == file_sha256(drill_path)
    assert run(data, "--rescore").exit_code == 0


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


def test_corrupt_rows_are_skipped_and_reported_never_modified(known: Path):
    before = _corrupt(known)
    r = run(known, "--format", "json")
    assert r.exit_code == 1
    ids = [row["session_id"] for row in json.loads(r.stdout)]
    assert ids == ["s7", "s6", "s4", "s3", "s1"]
    assert "skipped: stored session s2 cannot be read" in r.stderr and "not valid JSON" not in r.stdout
    assert "skipped: stored session s5 cannot be read: an action in its log is invalid (kind" in r.stderr
    assert "2 stored session(s) could not be read" in r.stderr

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


# -- readable at any width ------------------------------------------------------------------------------------------


@pytest.fixture
def long_ids(tmp_path: Path) -> Path:
    """Sessions with real-length ids: a 20-character session id, a 27-character drill id, a 44-character unit."""
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        add_session(store, "20261102-100000-abcd", trainee="annabel", drill_id="review-classifier-benchmark",
                    outcome="contained_late", total=37, ttd=18.25, damage=4413.0, false_escalations=1,
                    damage_unit="USD of orders confirmed that cannot ship")  # fmt: skip
        add_session(store, "20261103-093000-wxyz", trainee="bob", drill_id="duplicate-charge-refunds",
                    started_at="2026-11-03T09:30:00.000000+00:00", outcome="all_clear_held", total=100, ttd=None,
                    damage=0.0, damage_unit="USD")  # fmt: skip
    return tmp_path


@pytest.mark.parametrize("columns", ["80", "60", "100"])
def test_table_at_a_narrow_width_keeps_ids_whole(long_ids: Path, columns: str):
    r = run(long_ids, env={"COLUMNS": columns})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert max(len(ln) for ln in lines) <= int(columns)
    assert all(ln == ln.rstrip() for ln in lines)  # no trailing spaces, the title line included
    assert lines[0] == "2 session(s)"
    table = lines[: next(i for i, ln in enumerate(lines) if ln.startswith("* damage in"))]
    for whole in ("20261102-100000-abcd", "20261103-093000-wxyz", "review-classifier-benchmark", "annabel"):
        assert sum(whole in ln for ln in table) == 1, whole  # on one line: never cut or wrapped
    assert "…" not in r.stdout
    assert "contained late" in r.stdout and "all clear held" in r.stdout and "contained_late" not in r.stdout
    assert "18.3 s" in r.stdout and "$4,413.00 *" in r.stdout  # halves up; the long unit in the footnote
    assert "* damage in USD of orders confirmed that cannot ship (review-classifier-benchmark)" in " ".join(
        " ".join(lines).split()
    )


def test_table_uses_the_whole_width_it_is_given(long_ids: Path):
    wide = run(long_ids).stdout.splitlines()  # not a terminal, no COLUMNS: nothing squeezed
    (row,) = [ln for ln in wide if "20261102-100000-abcd" in ln]
    assert "$4,413.00 of orders confirmed that cannot ship" in row and "contained late" in row and "2026-11-01" in row
    assert not any("* damage in" in ln for ln in wide)
    at_130 = run(long_ids, env={"COLUMNS": "130"}).stdout.splitlines()  # nine columns, the long unit in a footnote
    assert max(len(ln) for ln in at_130) <= 130
    (row,) = [ln for ln in at_130 if "20261102-100000-abcd" in ln]
    assert "│ annabel │ review-classifier-benchmark │" in row and "$4,413.00 *" in row
    assert at_130[-1] == "* damage in USD of orders confirmed that cannot ship (review-classifier-benchmark)"


def test_summary_rounds_halves_up_and_has_no_trailing_spaces(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        for i, total in enumerate((0, 0, 0, 25)):
            add_session(store, f"s{i}", trainee="zed", drill_id="A", outcome="missed", total=total, ttd=None)
        for i, ttd in enumerate((18.2, 18.3)):
            add_session(store, f"t{i}", trainee="yan", drill_id="A", outcome="contained", total=90, ttd=ttd)
    r = run(tmp_path, "--summary", env={"COLUMNS": "80"})
    lines = r.stdout.splitlines()
    assert all(ln == ln.rstrip() for ln in lines) and max(len(ln) for ln in lines) <= 80
    zed = " ".join(ln for ln in lines if "│ zed" in ln)
    assert " 6.3 │" in zed and "6.2" not in zed  # mean of 0, 0, 0, 25 = 6.25
    yan = " ".join(ln for ln in lines if "│ yan" in ln)
    assert "18.3 s" in yan  # median of 18.2 and 18.3 = 18.25
    assert json.loads(run(tmp_path, "--summary", "--format", "json").stdout)["trainees"][1]["mean_score"] == 6.25
