"""The result-side breaks the fifth hostile campaign found and left (issue 30; docs/cohorts.md, "What a trainee can
and cannot do to their results"): a drill set's claimed trial, a copy given another seed, which of two copies of one
import counts on SQLite, a PostgreSQL import batched under a trainee role's policies, and the console's completion
grid against the gradebook; each with the right behaviour."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import load

from unit import test_forgeries
from unit.test_forgeries import GOOD, forged_row, insert, play, row_of
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.cohort import cohort_stats
from warroom.store.results import ResultsStore

#: A secured PostgreSQL store with a trainee role and a facilitator role (tests/unit/test_forgeries.py's).
class_store = test_forgeries.class_store
#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="a guess: s2 looked wrong in the trace, escalating",
              cites=("e02",))


def _export(data: Path, out: Path) -> list[dict]:
    result = CliRunner().invoke(main, ["store", "export", "--data-dir", str(data), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _import(lines: list[dict], file: Path, dest: Path, *who: str) -> None:
    file.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["store", "import", *(who or ["--all-trainees"]), str(file),
                                       "--data-dir", str(dest)])  # fmt: skip
    assert result.exit_code == 0, result.output


def _verify(data: Path) -> dict[str, dict]:
    result = CliRunner().invoke(main, ["scores", "verify", "--format", "json", "--data-dir", str(data)])
    assert result.exit_code in (0, 1), result.output
    return {r["session_id"]: r for r in json.loads(result.stdout)}


# -- 1: a drill set's claimed trial ------------------------------------------------------------------------------------


def _twin_drill() -> Path:
    from warroom.core.library import bundled_drills_dir

    return next(p for p in sorted(bundled_drills_dir().glob("*.yaml")) if "\ntwin:" in p.read_text(encoding="utf-8"))


def _set_session(data: Path, trainee: str, noise_rate: float, set_id: str | None = "week-1") -> str:
    """A session of the bundled twin drill recorded by warroom's recorder in drill set ``set_id`` (its trial drawn
    from its seed with ``noise_rate``), quit at once."""
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder, Trial

    drill = load(_twin_drill())
    rec = SessionRecorder.start(data, trainee, _twin_drill(), drill, mode="assessment", set_id=set_id,
                                trial=Trial(None, noise_rate))  # fmt: skip
    rec.finish(score(rec.drill, rec.actions))
    return rec.session_id


def test_a_set_session_stored_without_a_check_is_never_verified_on_the_trial_it_claims(tmp_path: Path):
    """A drill set draws each session's trial with the set's ``noise_rate``, which is in the set's file, not in the
    store: a trainee's file claiming a noise trial (``played_as`` and ``all_clear`` edited, the twin's) for a
    session whose seed drew a signal trial at the set's rate verified, a miss standing as a correct rejection. Any
    trial is the draw of some rate, so no check of the row can tell: every set session of a drill with a twin
    stored without a check is unverifiable (its trial), named so by verify, the summary and the report, and left
    out; one outside a set is checked against its seed's draw, and the recorder's own set sessions count."""
    src, dest = tmp_path / "ann", tmp_path / "fac"
    signal = _set_session(src, "ann", 0.0)  # a signal trial at the set's rate 0
    honest = _set_session(src, "ann", 1.0)  # a noise trial at the set's rate 1
    lines = _export(src, tmp_path / "x.jsonl")
    by_id = {line["session_id"]: line for line in lines}
    assert (by_id[signal]["played_as"], by_id[honest]["played_as"]) == ("signal", "noise")
    # the signal session, claimed as the noise trial it was not (its row and scorecard written as a noise trial's)
    forged = {**by_id[honest], "session_id": "20260101-000000-forged", "seed": by_id[signal]["seed"],
              "started_at": by_id[signal]["started_at"]}  # fmt: skip
    outside = {**by_id[honest], "session_id": "20260101-000000-outside", "set_id": None}
    _import([by_id[honest], forged, outside], tmp_path / "in.jsonl", dest, "--trainee", "ann")
    verdicts = _verify(dest)
    said = ("unverifiable trial: it claims a noise trial of drill set 'week-1', drawn from its seed with the set's "
            "noise_rate, which the store does not keep")  # fmt: skip
    for sid in (honest, "20260101-000000-forged"):
        assert verdicts[sid]["verdict"] == "unverifiable", verdicts[sid]
        assert verdicts[sid]["problems"][0].startswith(said), verdicts[sid]
    assert verdicts["20260101-000000-outside"]["verdict"] == "disagrees"  # outside a set: its seed's draw decides
    summary = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(dest)])
    unverified = json.loads(summary.stdout)["unverified"]
    assert unverified["sessions"] == 3 and not unverified["counted"]
    assert set(unverified["ids"]) == {honest, "20260101-000000-forged", "20260101-000000-outside"}
    play(dest, "cy", GOOD)  # a session the report counts
    report = CliRunner().invoke(main, ["report", "-o", str(tmp_path / "r.html"), "--data-dir", str(dest)])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Sessions not verified" in page and "unverifiable trial: it claims a noise trial" in page
    assert _verify(src)[honest]["verdict"] == "verified"  # the recorder's own (a serve host's): counted


# -- 2: a copy given another seed --------------------------------------------------------------------------------------


def test_a_copy_with_another_seed_that_scores_the_same_is_a_copy(tmp_path: Path):
    """A trainee's copy of their good session with another seed and an earlier start: verify recomputed the copy on
    its seed's drill (the same drill, for a drill without variants, or a variant the action log scores the same on)
    and found it right, and looked for copies only among sessions of the same seed: the copy stood as the first
    attempt. A copy is the same drill and action log whatever seed it claims."""
    src, dest = tmp_path / "ann", tmp_path / "fac"
    play(src, "ann", [LATE], mode="assessment")
    good = play(src, "ann", GOOD, mode="assessment").session_id
    lines = _export(src, tmp_path / "x.jsonl")
    template = next(line for line in lines if line["session_id"] == good)
    copy = {**template, "session_id": "20260101-000000-copy", "started_at": "2026-01-01T00:00:00+00:00",
            "seed": 4242}  # fmt: skip
    assert template["seed"] != 4242
    _import([*lines, copy], tmp_path / "in.jsonl", dest, "--trainee", "ann")
    verdicts = _verify(dest)
    assert verdicts["20260101-000000-copy"]["verdict"] == "disagrees"
    (problem,) = verdicts["20260101-000000-copy"]["problems"]
    assert problem == (f"its drill and action log are those of session {good} (started {template['started_at']}, "
                       f"seed {json.dumps(template['seed'])}; this one claims seed 4242): a copy, whatever its id, "
                       "seed and start time say")  # fmt: skip
    assert [v["verdict"] for k, v in verdicts.items() if k != "20260101-000000-copy"] == ["verified", "verified"]
    with ResultsStore(dest) as store:
        (trainee,) = cohort_stats(store).stats.trainees
        assert trainee.hits == 0  # the poor first attempt counts, as played


# -- 3: which of two copies of one import counts, on both back ends ----------------------------------------------------


def test_of_two_copies_in_one_import_the_one_stored_later_is_the_copy_on_both_back_ends(tmp_path: Path, backend_url):
    """A trainee's file holding their poor first attempt, their good second one and a copy of the poor one dated
    after both, imported at once: SQLite (and PostgreSQL, now that an import stores 500 lines a transaction) knew
    no order between the two copies and took the one claiming the earlier start, the session really played first,
    as the copy: the poor attempt left the figures and the good one became the first attempt counted. The store
    numbers the rows as it stores them (``stored_seq``): the copy is the one stored later, on both back ends."""
    src, dest = tmp_path / "ann", tmp_path / "fac"
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("WARROOM_STORE", raising=False)  # the trainee's own SQLite store
        first = play(src, "ann", [LATE], mode="assessment").session_id
        good = play(src, "ann", GOOD, mode="assessment").session_id
        lines = _export(src, tmp_path / "x.jsonl")
    poor = next(line for line in lines if line["session_id"] == first)
    copy = {**poor, "session_id": "29991231-000000-copy", "started_at": "2999-12-31T00:00:00+00:00",
            "ended_at": "2999-12-31T00:00:00+00:00"}
    _import([*lines, copy], tmp_path / "in.jsonl", dest, "--trainee", "ann")
    verdicts = _verify(dest)
    assert {k: v["verdict"] for k, v in verdicts.items()} == {
        first: "verified", good: "verified", "29991231-000000-copy": "disagrees"}  # fmt: skip
    assert f"those of session {first}" in verdicts["29991231-000000-copy"]["problems"][0]
    with ResultsStore(dest) as store:
        order = store.stored_order([first, good, "29991231-000000-copy"])
        assert order[first] < order[good] < order["29991231-000000-copy"]
        (trainee,) = cohort_stats(store).stats.trainees
        assert trainee.hits == 0  # the first attempt counts, as played


def test_the_store_numbers_each_row_as_it_stores_it_whatever_the_client_gives(tmp_path: Path, backend_url):
    """``stored_seq`` (schema version 20) is the database's: a row inserted by SQL with a number of its own, here one
    that would put it before every other row, is numbered after them."""
    first = play(tmp_path, "ann", GOOD).session_id
    second = play(tmp_path, "ann", [LATE]).session_id
    with ResultsStore(tmp_path) as store:
        assert store.schema_version == 25
        row = forged_row(row_of(store.db.conn, second), "20260101-000000-sql", stored_seq=-5)
        insert(store.db.conn, row)
        seqs = dict(store.db.conn.execute("SELECT session_id, stored_seq FROM sessions").fetchall())
    assert 0 < seqs[first] < seqs[second] < seqs["20260101-000000-sql"]


def test_a_sqlite_store_of_version_19_is_upgraded_its_older_rows_unnumbered(tmp_path: Path):
    """An upgrade adds the column and its trigger; a row stored before has no number (it comes before every row
    stored after, and two of them are told apart by their claimed starts, as before)."""
    import sqlite3

    old = play(tmp_path, "ann", GOOD).session_id
    db = tmp_path / "results.sqlite3"
    with sqlite3.connect(db) as conn:  # as schema version 19 left it
        conn.execute("DROP TRIGGER sessions_stored_seq")
        conn.execute("DROP INDEX ix_sessions_stored_seq")
        conn.execute("DROP INDEX ix_sessions_facts")  # (schema version 21's indexes hold the column)
        conn.execute("DROP INDEX ix_sessions_attempts")
        conn.execute("ALTER TABLE sessions DROP COLUMN stored_seq")
        conn.execute("PRAGMA user_version = 19")
    new = play(tmp_path, "ann", [LATE]).session_id  # opening the store upgrades it
    with ResultsStore(tmp_path) as store:
        assert store.schema_version == 25
        assert store.stored_order([old, new]) == {old: (0, 0), new: (1, 1)}


# -- 4: a PostgreSQL import batched under a trainee role's policies ----------------------------------------------------


@pytest.mark.parametrize("upgraded", [False, True])
def test_a_trainee_roles_import_stores_its_lines_in_one_transaction_a_savepoint_each(
    tmp_path: Path, class_store, monkeypatch, store_url: str, upgraded: bool
):
    """A PostgreSQL ``store import`` committed each line: a row stored in a savepoint has its subtransaction's
    ``xmin``, and the trainee role's policy on ``session_checks`` compared it with the transaction's own id, so it
    refused the record of every session stored in a savepoint. The policy accepts a session its own transaction
    stored in any savepoint of it: a file's lines go in one transaction (a savepoint each: another trainee's line is
    refused alone), each recorded as not verified; a store secured before schema version 20 gets the policy from its
    owner's upgrade."""
    from warroom.store.results import StoreConnection, import_lines

    ann, ann_url, fac_url = class_store
    monkeypatch.delenv("WARROOM_STORE", raising=False)
    if upgraded:  # as schema version 19 left it, then opened by the owner
        with ResultsStore(tmp_path / "owner", url=store_url) as store:
            store.db.conn.execute("UPDATE warroom_schema SET version = 19")
            store.db.conn.execute("ALTER POLICY warroom_trainee_own ON session_checks WITH CHECK (EXISTS (SELECT 1 "
                                  "FROM sessions s WHERE s.session_id = session_checks.session_id AND s.xmin = "
                                  "pg_current_xact_id()::xid))")  # fmt: skip
        with ResultsStore(tmp_path / "owner", url=store_url) as store:
            assert store.schema_version == 25
            (check,) = store.db.conn.execute("SELECT with_check FROM pg_policies WHERE tablename = 'session_checks' "
                                             "AND policyname = 'warroom_trainee_own'").fetchone()  # fmt: skip
            assert "pg_xact_status" in check
    src = tmp_path / "src"
    for _ in range(3):
        play(src, ann, GOOD)
    play(src, "bob", GOOD)
    lines = [json.dumps(line) for line in _export(src, tmp_path / "x.jsonl")]
    commits: list[int] = []
    real = StoreConnection.transaction

    def counted(self):
        commits.append(self._open_transactions)
        return real(self)

    monkeypatch.setattr(StoreConnection, "transaction", counted)
    with ResultsStore(tmp_path / "ann", url=ann_url) as store:
        commits.clear()
        result = import_lines(store, lines, "x.jsonl")
    assert (result.imported, len(result.refused)) == (3, 1), result.refused
    assert "violates row-level security policy" in str(result.refused[0])
    assert commits.count(0) == 1  # one transaction, a savepoint per line
    with ResultsStore(tmp_path / "fac", url=fac_url) as store:
        checks = store.checks()
        assert len(checks) == 3 and {c.state for c in checks.values()} == {"unverified"}
        assert {c.submitted_by for c in checks.values()} <= {ann, "warroom store import"}


def test_the_trainee_roles_policy_still_refuses_a_record_of_a_session_stored_before_even_in_a_savepoint(
    tmp_path: Path, class_store, monkeypatch
):
    """Not weakened: in a savepoint or not, a trainee role adds no record to a session of its own stored by an
    earlier transaction, nor a history to it."""
    import psycopg

    ann, ann_url, fac_url = class_store
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    sid = play(tmp_path, ann, GOOD).session_id
    with psycopg.connect(fac_url, autocommit=True) as conn:
        conn.execute("DELETE FROM session_checks WHERE session_id = %s", (sid,))  # as if verified
    record = ("INSERT INTO session_checks (session_id, state, reason, checked_at, checked_by, submitted_by) "
              "VALUES (%s, 'unverified', 'x', 'now', current_user, current_user)")  # fmt: skip
    history = ("INSERT INTO scorecard_history (session_id, seq, replaced_at, replaced_by, reason, scorecard, outcome, "
               "total) VALUES (%s, 1, 'now', current_user, 'x', '{}', 'contained', 100)")  # fmt: skip
    for statement in (record, history):
        for savepoint in (False, True):
            with psycopg.connect(ann_url) as conn:
                if savepoint:
                    conn.execute("SAVEPOINT a")
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
                    conn.execute(statement, (sid,))


# -- 5: the console's completion grid agrees with the gradebook --------------------------------------------------------


def test_the_completion_grid_shows_the_first_attempt_as_the_gradebook_does():
    """The grid's done cell showed the best finished session (abandon, read the review, replay: a 100 in the grid)
    while the gradebook and the figures count the first attempt. The cell is the first attempt's, in the gradebook's
    words, and links to it."""
    from dataclasses import dataclass

    from warroom.console import completion_grid, gradebook_csv

    @dataclass
    class Row:
        trainee: str
        drill_id: str
        outcome: str
        total: int
        session_id: str
        started_at: str
        set_id: str = "week-1"

    sessions = [
        Row("ana", "A", "contained", 100, "s3", "2026-11-30T12:00:00Z"),  # the replay, knowing the answer
        Row("ana", "A", "abandoned", 40, "s9", "2026-11-30T10:00:00Z"),  # the first attempt: abandoned, 0
        Row("ana", "B", "missed", 10, "s4", "2026-11-30T10:00:00Z"),
        Row("ana", "B", "contained", 90, "s5", "2026-11-30T11:00:00Z"),
    ]
    grid = completion_grid("week-1", "Week 1", "assessment", 3, None, [("A", "a"), ("B", "b")], ["ana"], sessions,
                           set(), date(2026, 12, 1))  # fmt: skip
    ((_, (a, b)),) = grid.rows
    assert (a.state, a.outcome, a.score, a.session_id) == ("done", "abandoned", 0, "s9")
    assert a.text == "done · abandoned · 0 (2 attempts, best 100) · 1 left"
    assert b.text == "done · missed · 10 (2 attempts, best 90) · 1 left" and b.session_id == "s4"
    ((_, row),) = [list(csv.reader(io.StringIO(gradebook_csv(sessions, ["A", "B"], ["ana"]))))]
    assert row[1:3] == ["0 (2 attempts, best 100)", "10 (2 attempts, best 90)"]
    assert [a.grade, b.grade] == row[1:3]
