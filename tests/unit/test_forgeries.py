"""Results no trainee can forge (issue 30, items 1 to 3): the score is recomputed from the stored action log and the
drill; a session a trainee's own client stores is not verified until a facilitator's ``warroom scores verify`` finds
it right; a forged journal end line is never trusted; edited columns are found; ``scores summary`` and ``report``
leave out what is not verified and say how many (docs/cohorts.md, "What a trainee can and cannot do to their
results")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import PostgresServer, as_role, group_roles, secured_roles
from store_support import DRILL_ID, add_session, bundled_drill_path, copy_drill, load

from warroom.cli import main
from warroom.core.model import Action, ActionKind, Drill, PlayedAs
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.core.variants import session_drill
from warroom.store.cohort import FactsQuery, cohort_stats, read_facts, unverified_sessions
from warroom.store.errors import StoreError
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.results import ResultsStore
from warroom.store.review import Verdict, default_drill_resolver, load_review, verify_sessions

#: A trainee who finds the fault on time: the bundled drill's evidence cited at 12 s (contained, 100), e06 as the
#: session shows it (by position; e04 in the drill file).
GOOD = [Action(t=12.0, kind=ActionKind.INSPECT, event="e06"),
        Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", note="stale snapshot: e06 served the cache before the "
               "write", cites=("e06",))]  # fmt: skip


def play(data: Path, trainee: str, actions: list[Action], drill_path: Path | None = None, mode: str = "practice"):
    """A session recorded by warroom's recorder (``actions`` played on the drill), as the war room records it."""
    path = drill_path or bundled_drill_path()
    drill = load(path)
    rec = SessionRecorder.start(data, trainee, path, drill, mode=mode)
    replay = Replay(rec.drill, on_action=rec.record)  # the ids as the session plays them (by position)
    for a in actions:
        replay.advance_to(a.t)
        if a.kind is ActionKind.INSPECT:
            replay.inspect(a.event)
        elif a.kind is ActionKind.FLAG:
            replay.flag(a.event, a.note)
        elif a.kind is ActionKind.ESCALATE:
            replay.escalate(a.step, a.note, a.cites)
    rec.finish(score(rec.drill, rec.actions))
    return rec


def forged_row(template: dict, session_id: str, **values) -> dict:
    """A stored row's columns with ``values`` changed (as a trainee writing SQL would write them)."""
    return {**template, "session_id": session_id, **values}


def insert(conn, row: dict) -> None:
    columns = list(row)
    conn.execute(f"INSERT INTO sessions ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                 tuple(row.values()))  # fmt: skip


def row_of(conn, session_id: str) -> dict:
    cursor = conn.execute("SELECT * FROM sessions WHERE session_id = ?", (session_id,))
    names = [d[0] for d in cursor.description]
    return {k: v for k, v in zip(names, cursor.fetchone(), strict=True) if k != "countable"}


# -- 1: a trainee database role stores rows of its own ----------------------------------------------------------------


@pytest.fixture
def class_store(tmp_path: Path, postgres_server: PostgresServer, store_url: str, monkeypatch):
    """A secured PostgreSQL store with a trainee role ``ann_*`` and a facilitator role ``fac_*``."""
    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    return ann, as_role(store_url, ann), as_role(store_url, fac)


def test_forged_rows_of_a_trainee_role_are_left_out_and_verify_names_each(tmp_path: Path, class_store, monkeypatch):
    ann, ann_url, fac_url = class_store
    data = tmp_path / "ann"
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    played = play(data, ann, GOOD)  # a real session, stored by the trainee's own client
    with ResultsStore(data) as store:
        template = row_of(store.db.conn, played.session_id)
        for i in range(5):  # five forged "contained, 100, assessment" sessions with no action
            insert(store.db.conn, forged_row(template, f"forged-{i}", outcome="contained", total=100,
                                             mode="assessment", actions="[]", time_to_detect=0.5))  # fmt: skip
        assert store.db.conn.execute("SELECT count(*) FROM session_checks").fetchone()[0] == 6  # its own, each
        for statement in ("DELETE FROM session_checks", "UPDATE session_checks SET state = 'verified'"):
            with pytest.raises(Exception, match="permission denied"):  # the trainee cannot clear the records
                store.db.conn.execute(statement)
        with pytest.raises(StoreError, match=r"permission denied|row-level security"):
            store.mark("forged-0", "verified", "trust me")

    monkeypatch.setenv("WARROOM_STORE", fac_url)
    with ResultsStore(data) as store:  # the facilitator's figures count none of them yet
        assert cohort_stats(store, FactsQuery()).stats.trainees == []
        left = unverified_sessions(store)
        assert left.count == 6 and all(c.submitted_by == ann for c in left.checks)
        counted = cohort_stats(store, FactsQuery(include_unverified=True), "all").stats.trainees
        assert counted[0].hit_rate == 1.0 and counted[0].sessions == 6  # what the forgery was after
    summary = CliRunner().invoke(main, ["scores", "summary", "--data-dir", str(data)])
    assert summary.exit_code == 0, summary.output
    assert "6 sessions not verified" in summary.output and "left out" in summary.output
    assert "--include-unverified counts them" in summary.output

    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1
    lines = [line for line in verify.output.splitlines() if line.startswith("disagrees: forged-")]
    assert len(lines) == 5
    assert all("outcome \"contained\" is stored, \"missed\" recomputed" in line for line in lines)
    assert all("total 100 is stored, 0 recomputed" in line for line in lines)
    assert "verified 1 of 6 sessions: 5 disagree, 0 cannot be verified" in verify.output
    with ResultsStore(data) as store:  # the real one is counted from now on, the forged ones never
        stats = cohort_stats(store, FactsQuery(), "all").stats.trainees
        assert [(t.trainee, t.sessions) for t in stats] == [(ann, 1)]
        checks = store.checks()
        assert checks[played.session_id].state == "verified" and checks[played.session_id].submitted_by == ann
        assert {checks[f"forged-{i}"].state for i in range(5)} == {"disagrees"}
    report = CliRunner().invoke(main, ["report", "-o", str(tmp_path / "r.html"), "--data-dir", str(data)])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "r.html").read_text()
    assert "Sessions not verified" in page and page.count("forged-") == 5 and "5 sessions not verified" in page


def test_a_copy_of_a_real_session_dated_earlier_is_not_a_first_attempt(tmp_path: Path, class_store, monkeypatch):
    ann, ann_url, fac_url = class_store
    data = tmp_path / "ann"
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    late = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="a guess: s2 looked wrong in the trace, "
                  "escalating", cites=("e02",))
    first = play(data, ann, [late], mode="assessment").session_id  # a poor first attempt
    good = play(data, ann, GOOD, mode="assessment").session_id  # then the drill again, knowing the answer
    with ResultsStore(data) as store:
        template = row_of(store.db.conn, good)
        insert(store.db.conn, forged_row(template, "20260101-000000-copy", started_at="2026-01-01T00:00:00+00:00"))
    monkeypatch.setenv("WARROOM_STORE", fac_url)
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1, verify.output
    (line,) = [line for line in verify.output.splitlines() if line.startswith("disagrees:")]
    assert line.startswith("disagrees: 20260101-000000-copy")
    assert f"its drill, seed and action log are those of session {good}" in line
    assert "verified 2 of 3 sessions: 1 disagree" in verify.output
    with ResultsStore(data) as store:
        checks = store.checks()
        assert (checks[first].state, checks[good].state) == ("verified", "verified")
        (trainee,) = cohort_stats(store).stats.trainees
        assert trainee.hits == 0  # the first attempt counts, as played: the copy is left out


def test_a_trainee_role_may_not_record_a_verdict(tmp_path: Path, class_store, monkeypatch):
    ann, ann_url, _ = class_store
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    play(tmp_path, ann, GOOD)
    result = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "verified 1 of 1 session: 0 disagree" in result.output
    assert f"not recorded: the login role '{ann}' is a {group_roles(ann_url)[0]} and may not" in result.output
    with ResultsStore(tmp_path) as store:
        assert store.checks()[next(iter(store.checks()))].state == "unverified"


def test_sessions_a_served_or_facilitator_client_records_are_counted_at_once(tmp_path: Path, class_store, monkeypatch):
    ann, _, fac_url = class_store
    monkeypatch.setenv("WARROOM_STORE", fac_url)  # warroom serve's app processes store with the host's role
    rec = play(tmp_path, ann, GOOD)
    with ResultsStore(tmp_path) as store:
        assert store.checks() == {}
        assert [t.trainee for t in cohort_stats(store).stats.trainees] == [ann]
        assert store.get(rec.session_id).total == 100


# -- 2: a forged journal end line --------------------------------------------------------------------------------------


def killed_with_end_line(data: Path, actions: list[Action], end: dict, drill_path: Path | None = None) -> str:
    """A session whose process died while storing it: its journal holds ``actions`` and the end line ``end``."""
    path = drill_path or bundled_drill_path()
    rec = SessionRecorder.start(data, "ann", path, load(path))
    for a in actions:
        rec.record(a)
    line = {"type": "end", "ended_at": "2026-11-29T10:00:00+00:00", **end}
    rec._writer.append(line)
    rec.close()
    return rec.session_id


def played_drill() -> Drill:
    """The bundled drill as a session of the current rules plays it (its ids by position, as :data:`GOOD` cites)."""
    return session_drill(load(bundled_drill_path()), None, PlayedAs.SIGNAL)


def perfect(drill_id: str = DRILL_ID) -> dict:
    card = score(played_drill(), GOOD).to_dict()
    return {**card, "drill_id": drill_id}


@pytest.mark.parametrize(
    ("actions", "end"),
    [
        ([], {"outcome": "contained", "total": 100, "scorecard": perfect()}),  # a perfect score with no action
        (GOOD[:1], {"outcome": "contained", "total": 100, "scorecard": perfect("another-drill")}),  # another drill's
        (GOOD[:1], {"outcome": "missed", "total": 100, "scorecard": {**perfect(), "outcome": "missed"}}),  # contradicts
    ],
    ids=["perfect-without-actions", "another-drill", "total-contradicts-outcome"],
)
def test_recovery_never_trusts_a_forged_end_line(tmp_path: Path, actions, end):
    sid = killed_with_end_line(tmp_path, actions, end)
    (rec,) = recover_unfinished(tmp_path)
    made = score(played_drill(), actions)
    assert rec.stored and (rec.outcome, rec.total) == (made.outcome.value, made.total) and made.total < 100
    assert any("the journal's end line is not what its actions score" in p for p in rec.problems)
    with ResultsStore(tmp_path) as store:
        stored = store.get(sid)
        assert (stored.outcome, stored.total) == (made.outcome.value, made.total)
        assert stored.scorecard == made.to_dict()
        assert store.checks()[sid].state == "disagrees"
        assert cohort_stats(store).stats.trainees == []  # flagged: left out until a facilitator looks
        assert unverified_sessions(store).count == 1


def test_the_later_of_two_end_lines_is_not_taken(tmp_path: Path):
    made = score(played_drill(), GOOD).to_dict()
    sid = killed_with_end_line(tmp_path, GOOD, {"outcome": made["outcome"], "total": made["total"], "scorecard": made})
    path = tmp_path / "journals" / f"{sid}.jsonl"
    forged = {"type": "end", "ended_at": "2026-11-29T10:01:00+00:00", "outcome": "contained", "total": 100,
              "scorecard": {**made, "total": 100, "false_escalations": 0, "damage": 0.0}}  # fmt: skip
    with path.open("a") as f:
        f.write(json.dumps(forged) + "\n")
    (rec,) = recover_unfinished(tmp_path)
    assert rec.stored and rec.total == made["total"]
    assert any("a second end line (skipped" in p for p in rec.problems)


def killed_journal(data: Path, drill_path: Path, start: dict, actions: list[Action], **trial) -> str:
    """A session killed mid-drill (no end line) whose journal start line was edited: ``start``'s values written over
    what the recorder wrote."""
    rec = SessionRecorder.start(data, "ann", drill_path, load(drill_path), **trial)
    for a in actions:
        rec.record(a)
    rec.close()
    path = data / "journals" / f"{rec.session_id}.jsonl"
    first, rest = path.read_text().split("\n", 1)
    path.write_text(json.dumps({**json.loads(first), **start}) + "\n" + rest)
    return rec.session_id


def recovered_verdict(data: Path, sid: str) -> tuple[str | None, str, Verdict]:
    """What recovery recorded for ``sid`` (its state and reason), and what ``scores verify`` finds afterwards."""
    (rec,) = recover_unfinished(data)
    assert rec.stored, rec
    with ResultsStore(data) as store:
        check = store.checks().get(sid)
        (verified,) = verify_sessions(store, default_drill_resolver(), record=False)
    return (check.state if check else None), (check.reason if check else ""), verified.verdict


def test_recovery_flags_an_assessment_journal_that_paused_as_verify_does(tmp_path: Path):
    paused = [Action(t=1.0, kind=ActionKind.PAUSE), Action(t=1.0, kind=ActionKind.RESUME), *GOOD]
    sid = killed_journal(tmp_path, bundled_drill_path(), {"mode": "assessment"}, paused)
    state, reason, verdict = recovered_verdict(tmp_path, sid)
    assert (state, verdict) == ("disagrees", Verdict.DISAGREES)
    assert "an assessment session whose action log pauses or changes the speed" in reason
    with ResultsStore(tmp_path) as store:
        assert cohort_stats(store).stats.trainees == []  # left out of the figures from the moment it is stored


def test_recovery_flags_a_noise_journal_that_claims_a_fault_drill(tmp_path: Path):
    from warroom.core.author._examples import example_path
    from warroom.core.model import PlayedAs
    from warroom.store.journal import Trial

    drill = tmp_path / "drills" / "fanout-retries.yaml"
    drill.parent.mkdir()
    drill.write_bytes(example_path("full").read_bytes())
    sid = killed_journal(tmp_path / "data", drill, {"all_clear": False}, [], trial=Trial(PlayedAs.NOISE))
    state, reason, verdict = recovered_verdict(tmp_path / "data", sid)
    assert (state, verdict) == ("disagrees", Verdict.DISAGREES)
    assert "all_clear false is stored, its drill (played as noise) is an all-clear drill" in reason


def test_recovery_of_an_honest_journal_records_no_verdict(tmp_path: Path):
    sid = killed_journal(tmp_path, bundled_drill_path(), {}, GOOD, mode="assessment")
    assert recovered_verdict(tmp_path, sid) == (None, "", Verdict.VERIFIED)


def test_the_recorder_stores_the_score_its_actions_make_whatever_it_is_given(tmp_path: Path):
    path = bundled_drill_path()
    drill = load(path)
    rec = SessionRecorder.start(tmp_path, "ann", path, drill)
    drill = rec.drill
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    forged = score(drill, GOOD)  # a perfect scorecard for a session that did not escalate
    rec.finish(forged)
    with ResultsStore(tmp_path) as store:
        stored = store.get(rec.session_id)
    assert forged.total == 100 and stored.total == rec.scorecard.total == score(drill, rec.actions).total < 100


# -- 3: edited columns are found -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("total", 100, "total 100 is stored"),
        ("outcome", "contained_late", 'outcome "contained_late" is stored, "contained" recomputed'),
        ("time_to_detect", 0.25, "time_to_detect 0.25 is stored, 8.0 recomputed"),
        ("drill_id", "other-drill", "drill_id 'other-drill' is stored, but its drill file"),
        ("false_escalations", 0, None),  # unchanged value: nothing to find
        ("mode", "assessment", None),  # GOOD neither pauses nor changes speed: an assessment session could be it
        ("scorecard", "edited-card", "its scorecard says total 100 where its action log scores 92"),
        ("response", "correct_rejection", 'response "correct_rejection" is stored'),  # the trial the figures count
    ],
)
def test_verify_finds_every_edited_column(tmp_path: Path, column: str, value, said: str | None):
    drill = copy_drill(tmp_path / "drills")
    actions = [GOOD[0], Action(t=20.0, kind=ActionKind.ESCALATE, step="s1", note="late", cites=("e06",))]
    sid = play(tmp_path / "data", "ann", actions, drill).session_id
    db = tmp_path / "data" / "results.sqlite3"
    conn = sqlite3.connect(db)
    if value == "edited-card":
        card = json.loads(conn.execute("SELECT scorecard FROM sessions").fetchone()[0])
        value = json.dumps({**card, "total": 100})
    conn.execute(f"UPDATE sessions SET {column} = ?", (value,))
    conn.commit()
    conn.close()
    result = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(tmp_path / "data")])
    if said is None:
        assert result.exit_code == 0 and "verified 1 of 1 session" in result.output, result.output
        return
    assert result.exit_code == 1, result.output
    assert f"disagrees: {sid}" in result.output or f"unverifiable: {sid}" in result.output
    assert said in result.output
    with ResultsStore(tmp_path / "data") as store:  # what `warroom review` says before anything else
        data = load_review(store.get(sid), (drill.parent,), store)
    assert data.disagrees and any(n.startswith("The stored results") and said in n for n in data.notices)


def test_an_assessment_session_that_paused_disagrees(tmp_path: Path):
    sid = play(tmp_path, "ann", GOOD).session_id
    with ResultsStore(tmp_path) as store:
        store.db.conn.execute("UPDATE sessions SET mode = 'assessment'")
        store.db.conn.execute(
            "UPDATE sessions SET actions = ?",
            (json.dumps([{"t": 1.0, "kind": "pause"}, {"t": 1.0, "kind": "resume"},
                         *(a.model_dump(mode="json", exclude_none=True) for a in GOOD)]),),
        )  # fmt: skip
        (r,) = verify_sessions(store, default_drill_resolver())
    assert r.session_id == sid and r.verdict is Verdict.DISAGREES
    assert "an assessment session whose action log pauses" in r.reason


def test_a_session_whose_drill_is_gone_cannot_be_verified_and_is_left_out(tmp_path: Path):
    drill = copy_drill(tmp_path / "drills", "gone-drill")
    sid = play(tmp_path / "data", "ann", [Action(t=4.0, kind=ActionKind.INSPECT, event="e02")], drill).session_id
    drill.unlink()
    with ResultsStore(tmp_path / "data") as store:
        (r,) = verify_sessions(store, default_drill_resolver())
        assert r.verdict is Verdict.UNVERIFIABLE and "is not found" in r.reason
        assert store.checks()[sid].state == "unverifiable"
        assert read_facts(store)[0] == [] and len(read_facts(store, FactsQuery(include_unverified=True))[0]) == 1


def test_an_imported_session_is_not_verified_until_verify_finds_it_right(tmp_path: Path):
    src, dest = tmp_path / "trainee", tmp_path / "facilitator"
    play(src, "ann", GOOD)
    with ResultsStore(src) as store:  # and one forged in the trainee's own SQLite file
        add_session(store, "forged", trainee="ann", outcome="contained", total=100, actions=[])
    export = CliRunner().invoke(main, ["store", "export", "--data-dir", str(src), "-o", str(tmp_path / "x.jsonl")])
    assert export.exit_code == 0, export.output
    imported = CliRunner().invoke(main, ["store", "import", "--all-trainees",
                                         str(tmp_path / "x.jsonl"), "--data-dir", str(dest)])
    assert imported.exit_code == 0, imported.output
    with ResultsStore(dest) as store:
        assert cohort_stats(store).stats.trainees == [] and unverified_sessions(store).count == 2
        assert {c.submitted_by for c in store.checks().values()} == {"warroom store import"}
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(dest)])
    assert verify.exit_code == 1 and "disagrees: forged (ann, duplicate-charge-refunds)" in verify.output
    with ResultsStore(dest) as store:
        assert [(t.trainee, t.sessions) for t in cohort_stats(store).stats.trainees] == [("ann", 1)]
    summary = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(dest)])
    data = json.loads(summary.stdout)
    assert data["unverified"] == {"sessions": 1, "counted": False, "ids": ["forged"]}
    assert "1 session not verified" in summary.stderr
    everything = CliRunner().invoke(
        main, ["scores", "summary", "--format", "json", "--include-unverified", "--data-dir", str(dest)]
    )
    assert json.loads(everything.stdout)["unverified"]["counted"] is True
    assert json.loads(everything.stdout)["counted"]["sessions"] == 2


# -- trainee names: the rule of the command line holds for every name the store is given ----------------------------


@pytest.mark.parametrize("name", ["ann\u202emallory", "ann\x1b[2J", "ann\u200b", " ann", "a" * 81])
def test_a_journal_start_line_with_an_unreadable_trainee_name_is_quarantined(tmp_path: Path, name: str):
    sid = killed_journal(tmp_path, bundled_drill_path(), {"trainee": name}, GOOD)
    (rec,) = recover_unfinished(tmp_path)
    assert rec.quarantined and not rec.stored
    assert "the session start line has bad values: trainee: a trainee name that" in rec.error
    with ResultsStore(tmp_path) as store:
        assert sid not in {r.session_id for r in store.query()}


@pytest.mark.parametrize("name", ["mallory\x1b[31m", "bob\u2066", "eve\u00a0"])
def test_store_import_refuses_an_unreadable_trainee_name_and_names_its_line(tmp_path: Path, name: str):
    src = tmp_path / "trainee"
    play(src, "ann", GOOD)
    out = tmp_path / "x.jsonl"
    export = CliRunner().invoke(main, ["store", "export", "--data-dir", str(src), "-o", str(out)])
    assert export.exit_code == 0, export.output
    (line,) = out.read_text().splitlines()
    out.write_text(json.dumps({**json.loads(line), "trainee": name}) + "\n")
    imported = CliRunner().invoke(main, ["store", "import", "--all-trainees",
                                         str(out), "--data-dir", str(tmp_path / "dest")])
    assert imported.exit_code != 0
    assert f"{out}:1:" in imported.output and "trainee: a trainee name that contains" in imported.output
    assert "\x1b" not in imported.output and "\u2066" not in imported.output
    with ResultsStore(tmp_path / "dest") as store:
        assert store.query() == []


def test_a_stored_row_with_an_older_name_stays_readable(tmp_path: Path):
    sid = play(tmp_path, "ann", GOOD).session_id
    with ResultsStore(tmp_path) as store:
        store.db.conn.execute("UPDATE sessions SET trainee = ?", ("ann\u200b",))
        (row,) = store.query()
    assert (row.session_id, row.trainee) == (sid, "ann\u200b")


# -- what `scores list` shows of sessions that are not verified -------------------------------------------------------


def test_scores_list_marks_sessions_that_are_not_verified(tmp_path: Path):
    honest = play(tmp_path, "ann", GOOD).session_id
    with ResultsStore(tmp_path) as store:
        add_session(store, "forged", trainee="ann", outcome="contained", total=100, actions=[])
        store.mark("forged", "disagrees", "total 100 is stored, 0 recomputed")
    table = CliRunner().invoke(main, ["scores", "list", "--data-dir", str(tmp_path)], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    lines = {line.split()[1]: line for line in table.output.splitlines() if line.startswith("│ ")}
    assert "100 !" in lines["forged"] and " !" not in lines[honest]
    assert "! not verified (1 disagrees): left out of the statistics" in table.output
    data = CliRunner().invoke(main, ["scores", "list", "--data-dir", str(tmp_path), "--format", "json"])
    assert {r["session_id"]: r["verification"] for r in json.loads(data.output)} == {honest: None,
                                                                                   "forged": "disagrees"}
    out = tmp_path / "all.csv"
    CliRunner().invoke(main, ["scores", "list", "--data-dir", str(tmp_path), "--format", "csv", "-o", str(out)])
    import csv

    rows = {r["session_id"]: r["verification"] for r in csv.DictReader(out.open(encoding="utf-8"))}
    assert rows == {honest: "", "forged": "disagrees"}


def test_the_tutorial_mode_on_another_drill_is_not_verified(tmp_path: Path):
    sid = killed_journal(tmp_path, bundled_drill_path(), {"mode": "tutorial"}, GOOD)
    state, reason, verdict = recovered_verdict(tmp_path, sid)
    assert (state, verdict) == ("disagrees", Verdict.DISAGREES)  # it would hide an attempt from every figure
    assert "mode \"tutorial\" is stored, but 'duplicate-charge-refunds' is not the tutorial's drill" in reason


def test_a_journal_delivered_again_says_it_was_already_stored(tmp_path: Path):
    import shutil

    rec = play(tmp_path, "ann", GOOD)
    done = tmp_path / "journals" / "done" / f"{rec.session_id}.jsonl"
    shutil.copyfile(done, tmp_path / "journals" / done.name)  # the same finished journal, delivered twice
    (again,) = recover_unfinished(tmp_path)
    assert again.stored and "this session was already stored; nothing was stored again" in again.problems
    assert not any("its result was stored at recovery" in p for p in again.problems)
    with ResultsStore(tmp_path) as store:
        assert [r.session_id for r in store.query()] == [rec.session_id]
        assert store.get(rec.session_id).notes == []  # the stored session is as it was
