"""The session journal and SessionRecorder: fsynced lines, truncated and corrupt lines, a killed process, recovery."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from store_support import bundled_drill_path, copy_drill, load, scorecard

from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.journal import (
    JournalError,
    JournalWriter,
    SessionError,
    SessionRecorder,
    read_journal,
    recover_unfinished,
)
from warroom.store.results import ResultsStore
from warroom.store.review import default_drill_resolver, file_sha256

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")

ACTIONS = [
    Action(t=4.0, kind=ActionKind.INSPECT, event="e02"),
    Action(t=12.0, kind=ActionKind.INSPECT, event="e04"),
    Action(t=12.5, kind=ActionKind.FLAG, event="e04", note="rows from [last week]"),
    Action(t=13.0, kind=ActionKind.PAUSE),
]


def start(data_dir: Path, drill_path: Path | None = None, trainee: str = "ann") -> SessionRecorder:
    path = drill_path or bundled_drill_path()
    return SessionRecorder.start(data_dir, trainee, path, load(path))


def test_start_line_and_actions_are_on_disk_at_once(tmp_path: Path):
    rec = start(tmp_path)
    for a in ACTIONS:
        rec.record(a)
        # another reader sees the line as soon as record() returned
        assert read_journal(rec.journal_path).actions[-1] == a
    contents = read_journal(rec.journal_path)
    assert contents.session_id == rec.session_id
    assert contents.start["trainee"] == "ann"
    assert contents.start["drill_id"] == "duplicate-charge-refunds"
    assert contents.start["drill_version"] == 2
    assert contents.start["drill_sha256"] == file_sha256(bundled_drill_path())
    assert contents.start["drill_path"] == str(bundled_drill_path().resolve())
    assert contents.actions == ACTIONS
    assert not contents.finished and contents.problems == []
    rec.close()


def test_session_ids_are_unique_sortable_and_short(tmp_path: Path):
    recs = [start(tmp_path) for _ in range(20)]
    ids = [r.session_id for r in recs]
    assert len(set(ids)) == 20
    assert all(len(i) == 24 and i[:8].isdigit() for i in ids)  # (8 random characters: campaign 22)
    for r in recs:
        r.close()


def test_finish_stores_moves_the_journal_and_is_idempotent(tmp_path: Path):
    rec = start(tmp_path)
    for a in ACTIONS:
        rec.record(a)
    assert rec.finish(scorecard(total=70)) is True  # a scorecard the actions do not make: never stored (issue 30)
    assert rec.finish(scorecard(total=10)) is False
    assert rec.journal_path == tmp_path / "journals" / "done" / f"{rec.session_id}.jsonl"
    contents = read_journal(rec.journal_path)
    made = score(load(bundled_drill_path()), ACTIONS)
    assert contents.finished and contents.end["total"] == made.total == 0 and rec.scorecard == made
    with ResultsStore(tmp_path) as store:
        stored = store.get(rec.session_id)
    assert stored.total == 0 and stored.scorecard == made.to_dict()
    assert stored.actions == ACTIONS and not stored.recovered
    with pytest.raises(SessionError, match="finished"):
        rec.record(ACTIONS[0])


def test_truncated_last_line_is_reported_and_skipped(tmp_path: Path):
    rec = start(tmp_path)
    for a in ACTIONS[:2]:
        rec.record(a)
    rec.close()
    with open(rec.journal_path, "ab") as f:
        f.write(b'{"type":"action","seq":3,"action":{"t":12.5,"ki')
    contents = read_journal(rec.journal_path)
    assert contents.actions == ACTIONS[:2]
    (problem,) = contents.problems
    assert problem.truncated and problem.line == 4 and "truncated last line" in str(problem)


def test_corrupt_middle_line_is_reported_and_later_lines_kept(tmp_path: Path):
    rec = start(tmp_path)
    rec.record(ACTIONS[0])
    rec.close()
    with open(rec.journal_path, "ab") as f:
        f.write(b"\x00\x00garbage\n")
        f.write(b'{"type":"action","seq":2,"action":{"t":-1,"kind":"flag"}}\n')
        f.write(json.dumps({"type": "action", "seq": 3, "action": ACTIONS[1].model_dump(mode="json")}).encode() + b"\n")
    contents = read_journal(rec.journal_path)
    assert contents.actions == [ACTIONS[0], ACTIONS[1]]
    assert [p.line for p in contents.problems] == [3, 4]
    assert "corrupt line" in contents.problems[0].message and not contents.problems[0].truncated
    assert "corrupt action line" in contents.problems[1].message


def test_a_journal_without_a_start_line_is_an_error(tmp_path: Path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"type":"action","action":{"t":1,"kind":"pause"}}\n')
    with pytest.raises(JournalError, match="does not begin with a session start line"):
        read_journal(p)
    p.write_text("")
    with pytest.raises(JournalError, match="empty"):
        read_journal(p)
    with pytest.raises(JournalError, match="cannot read"):
        read_journal(tmp_path / "missing.jsonl")


def test_writer_refuses_to_overwrite(tmp_path: Path):
    w = JournalWriter.create(tmp_path / "a.jsonl")
    w.append({"type": "start"})
    with pytest.raises(FileExistsError):
        JournalWriter.create(tmp_path / "a.jsonl")
    w.close()
    w.close()
    with pytest.raises(ValueError, match="closed"):
        w.append({})


# -- a process killed mid-drill ------------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from warroom.core.play._replay import Replay
    from warroom.store.journal import SessionRecorder
    from warroom.store.review import load_drill_file

    data_dir, drill_path = Path(sys.argv[1]), Path(sys.argv[2])
    drill = load_drill_file(drill_path)
    rec = SessionRecorder.start(data_dir, "kim", drill_path, drill)
    replay = Replay(drill, on_action=rec.record)
    print(rec.session_id, flush=True)
    replay.advance(0)
    replay.inspect("e01")
    replay.advance(12)
    replay.inspect("e04")
    replay.flag("e04", "row count 41, billing said about 300")
    replay.set_speed(2.0)
    replay.escalate("s3", "wrong step on purpose")  # a false escalation, the drill goes on
    print("recorded", flush=True)
    time.sleep(60)  # mid-drill: the parent kills us here
    """
)


def test_journal_survives_sigkill_and_recovery_records_every_action(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data_dir = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir), str(drill_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        session_id = proc.stdout.readline().strip()
        assert proc.stdout.readline().strip() == "recorded"
        # While the process lives, its journal is locked: recovery leaves it alone.
        assert recover_unfinished(data_dir) == []
        assert (data_dir / "journals" / f"{session_id}.jsonl").exists()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    journal = data_dir / "journals" / f"{session_id}.jsonl"
    raw = journal.read_bytes()
    kinds = [a.kind for a in read_journal(journal).actions]
    assert kinds == ["inspect", "inspect", "flag", "speed", "escalate"]

    (rec,) = recover_unfinished(data_dir, default_drill_resolver())
    assert rec.stored and rec.session_id == session_id and rec.trainee == "kim"
    assert rec.outcome == "abandoned"
    assert [a.kind for a in rec.actions] == ["inspect", "inspect", "flag", "speed", "escalate", "quit"]
    assert rec.actions[-1].t == 27.0  # the false escalation moved the drill clock on by 15 s
    assert any("quit action" in p for p in rec.problems)
    head = f"recovered session {session_id} (kim, duplicate-charge-refunds): 6 actions, recorded as abandoned (0/100)"
    assert str(rec).startswith(head + "\n")
    assert "one was added at drill time 27 s" in str(rec)  # seconds as everywhere else, not 27.0 s
    done = data_dir / "journals" / "done" / f"{session_id}.jsonl"
    assert rec.journal == done and done.read_bytes() == raw  # kept, byte for byte
    assert not journal.exists()
    with ResultsStore(data_dir) as store:
        s = store.get(session_id)
    assert s.recovered and s.outcome == "abandoned" and s.false_escalations == 1
    assert s.actions == rec.actions
    assert s.actions[2].note == "row count 41, billing said about 300"
    assert recover_unfinished(data_dir) == []  # nothing left to do


def test_recovered_session_shows_the_outcome_label_and_the_scorecard_s_max():
    from warroom.store.journal import RecoveredSession

    rec = RecoveredSession(
        Path("j.jsonl"), "s1", "ann", "A", outcome="contained_late", total=37, max_total=100, stored=True
    )
    assert str(rec) == "recovered session s1 (ann, A): 0 actions, recorded as contained late (37/100)"
    assert str(RecoveredSession(Path("j"), "s2", "bob", "B", outcome="missed", total=0, stored=True)).endswith(
        "recorded as missed (0/100)"
    )


def test_recovery_of_a_journal_with_a_truncated_last_line(tmp_path: Path):
    rec = start(tmp_path)
    for a in ACTIONS:
        rec.record(a)
    rec.close()  # as if the process died
    with open(rec.journal_path, "ab") as f:
        f.write(b'{"type":"action","seq":5,"at":"2026')
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and r.outcome == "abandoned"
    assert r.actions[:-1] == ACTIONS and r.actions[-1].kind == "quit"
    assert any("truncated last line" in p for p in r.problems)
    with ResultsStore(tmp_path) as store:
        assert any("truncated last line" in n for n in store.get(r.session_id).notes)


def test_a_journal_saved_by_an_editor_with_a_byte_order_mark_is_recovered_whole(tmp_path: Path):
    """A journal opened and saved by hand in an editor that adds a UTF-8 byte-order mark (and CRLF line ends) keeps
    every action: the mark is not data, and the start line after it is read."""
    rec = start(tmp_path)
    for a in ACTIONS:
        rec.record(a)
    rec.close()  # as if the process died
    path = Path(rec.journal_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    assert read_journal(path).actions == ACTIONS and read_journal(path).problems == []
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and r.actions[:-1] == ACTIONS and r.actions[-1].kind == "quit"


def test_recovery_of_a_session_that_died_while_storing(tmp_path: Path):
    rec = start(tmp_path)
    rec.record(ACTIONS[0])
    made = score(load(bundled_drill_path()), [ACTIONS[0]]).to_dict()
    rec._writer.append({"type": "end", "ended_at": "2026-11-29T10:00:00.000000+00:00", "outcome": made["outcome"],
                        "total": made["total"], "scorecard": made})  # fmt: skip
    rec.close()
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and (r.outcome, r.total) == (made["outcome"], made["total"])
    assert "the session had finished; its result was stored at recovery" in r.problems
    with ResultsStore(tmp_path) as store:
        assert store.get(rec.session_id).actions == [ACTIONS[0]]
        assert store.checks() == {}  # its end line is what its actions score: nothing to flag


def test_recorder_abandon_adds_a_quit_and_scores(tmp_path: Path):
    rec = start(tmp_path)
    rec.record(ACTIONS[1])
    card = rec.abandon()
    assert card is not None and str(card.outcome) == "abandoned"
    assert [a.kind for a in rec.actions] == ["inspect", "quit"]
    assert rec.abandon() is None
    with ResultsStore(tmp_path) as store:
        assert store.get(rec.session_id).outcome == "abandoned"


def test_context_manager_abandons_on_an_exception(tmp_path: Path):
    with pytest.raises(KeyboardInterrupt), start(tmp_path) as rec:
        rec.record(ACTIONS[0])
        raise KeyboardInterrupt
    with ResultsStore(tmp_path) as store:
        assert store.get(rec.session_id).outcome == "abandoned"


def test_recovery_with_a_missing_drill_keeps_the_journal(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    rec = start(tmp_path / "data", drill_path)
    rec.record(ACTIONS[0])
    rec.close()
    drill_path.unlink()
    resolver = default_drill_resolver([tmp_path / "elsewhere"])

    def only_here(drill_id: str, path: str | None) -> Path:
        if path and Path(path).exists():
            return Path(path)
        raise FileNotFoundError(f"no drill {drill_id}")

    (r,) = recover_unfinished(tmp_path / "data", only_here)
    assert not r.stored and "not found" in r.error and rec.journal_path.exists()
    assert resolver is not None
    # once the drill is back, the next recovery stores it
    copy_drill(tmp_path / "drills")
    (r,) = recover_unfinished(tmp_path / "data", only_here)
    assert r.stored


def test_recovery_reports_a_changed_drill_file(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    rec = start(tmp_path / "data", drill_path)
    rec.record(ACTIONS[0])
    rec.close()
    played_sha = file_sha256(drill_path)
    drill_path.write_text(drill_path.read_text().replace("\nversion: 2\n", "\nversion: 3\n") + "\n# edited\n")
    (r,) = recover_unfinished(tmp_path / "data")
    assert r.stored and any("changed since the session" in p for p in r.problems)
    # Scored against the current file, so that file is recorded with the score (and the played one in a note).
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(rec.session_id)
    assert stored.drill_sha256 == file_sha256(drill_path) and stored.drill_version == 3
    assert any(played_sha in n and "played on version 2" in n for n in stored.notes)


def test_unreadable_journal_is_set_aside_never_deleted(tmp_path: Path):
    jdir = tmp_path / "journals"
    jdir.mkdir()
    (jdir / "20261129-000000-zzzz.jsonl").write_bytes(b"not json at all\n")
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and "no session start line" in r.error
    kept = jdir / "unreadable" / "20261129-000000-zzzz.jsonl"
    assert kept.read_bytes() == b"not json at all\n"


def test_citations_are_journalled_and_recovery_scores_by_the_rules_the_journal_recorded(tmp_path: Path):
    """An escalation's cited events are on the journal line; a killed session is recovered by the scoring rules its
    start line recorded: a journal started by a version-1 warroom (cites absent) stays on version 1."""
    from warroom.core.play import Replay

    cases = (("2", ("e04",), "contained"), ("1", None, "contained"), ("2", None, "right_step_unsupported"))
    for rules, cites, outcome in cases:
        data_dir = tmp_path / rules / str(cites)
        path = bundled_drill_path()
        rec = SessionRecorder.start(data_dir, "ann", path, load(path))
        replay = Replay(load(path), on_action=rec.record)
        replay.advance_to(12)
        replay.escalate("s1", "stale", cites)
        rec.close()  # killed before the end
        lines = rec.journal_path.read_text().splitlines()
        escalation = json.loads(lines[-1])["action"]
        assert escalation.get("cites") == (list(cites) if cites is not None else None)
        lines[0] = json.dumps({**json.loads(lines[0]), "scoring_version": rules})
        rec.journal_path.write_text("\n".join(lines) + "\n")
        (recovered,) = recover_unfinished(data_dir, default_drill_resolver())
        assert not recovered.quarantined, recovered.error
        with ResultsStore(data_dir) as store:
            row = store.get(rec.session_id)  # one PostgreSQL database holds every case's session
            assert (row.outcome, row.scorecard["scoring_version"]) == (outcome, rules)


def test_a_killed_assessment_session_is_a_trial_with_its_response_in_the_statistics(tmp_path: Path):
    """Quitting is a response (issue 31): an assessment session whose process died is recovered as abandoned and
    counted as what the trainee did until then: on the drill with a fault, having only looked, a miss; on an
    all-clear drill, having escalated nothing, no correct rejection (counted against, like a false alarm)."""
    from warroom.store.cohort import cohort_stats

    fault = bundled_drill_path()
    from locations import ALL_CLEAR

    clear = ALL_CLEAR / "clickstream-backfill.yaml"  # an all-clear drill, always a noise trial
    # (an assessment session never pauses: one that did would be flagged as contradicting its mode, and left out)
    for path, action in ((fault, ACTIONS[0]), (clear, Action(t=2.0, kind=ActionKind.INSPECT, event="e01"))):
        rec = SessionRecorder.start(tmp_path, "kim", path, load(path), mode="assessment")
        rec.record(action)
        rec.close()  # as if the process died
    recovered = recover_unfinished(tmp_path, default_drill_resolver())
    assert [(r.stored, r.outcome) for r in recovered] == [(True, "abandoned")] * 2
    with ResultsStore(tmp_path) as store:
        result = cohort_stats(store)
        responses = sorted(str(store.get(r.session_id).response) for r in recovered)
    assert responses == ["abandoned", "miss"]
    (kim,) = result.stats.trainees
    assert result.counted.label == "assessment" and (kim.trials, kim.abandoned, kim.abandoned_apart) == (2, 2, 0)
    assert (kim.signal_trials, kim.misses, kim.hit_rate) == (1, 1, 0.0)
    assert (kim.noise_trials, kim.noise_abandoned, kim.correct_rejections, kim.false_alarm_rate) == (1, 1, 0, 1.0)


def _with_format(journal: Path, value: object) -> None:
    """Rewrite the start line of ``journal`` with ``format`` set to ``value``."""
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    start = json.loads(lines[0])
    start["format"] = value
    lines[0] = json.dumps(start) + "\n"
    journal.write_text("".join(lines), encoding="utf-8")


def test_a_journal_of_a_newer_format_is_kept_for_a_newer_warroom_not_read_as_this_ones(tmp_path: Path):
    """The start line's ``format`` was never read: a journal of format 99 (a newer warroom's, whose lines may mean
    something else) was recovered as if it were format 1 and stored. It is kept in place, saying why and what to do;
    a format that is no format number is quarantined."""
    rec = start(tmp_path)
    rec.record(ACTIONS[0])
    rec.close()  # as if the process died
    _with_format(rec.journal_path, 99)
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and rec.journal_path.exists()
    assert r.error.endswith(
        ":1: a journal of format 99, written by a newer warroom (this one reads format 1); it was kept in place: "
        "recover it with a warroom as new as the one that wrote it (pip install --upgrade warroom, then start warroom)"
    ), r.error
    with ResultsStore(tmp_path) as store:
        assert store.count() == 0
    _with_format(rec.journal_path, "1")
    (r,) = recover_unfinished(tmp_path)
    assert r.quarantined and not r.stored and "the session start line's format is '1', not a journal format" in r.error
    _with_format(r.journal, 1)  # the format this warroom writes is recovered as before
    r.journal.rename(rec.journal_path)
    (r,) = recover_unfinished(tmp_path)
    assert r.stored
