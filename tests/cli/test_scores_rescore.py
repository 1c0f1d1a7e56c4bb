"""`warroom scores --rescore` (the old spelling of `scores rescore`): recompute stored sessions, say which changed."""

from __future__ import annotations

from pathlib import Path

import pytest  # BACKEND-TMP
from scores_support import copy_drill_by_position, played_session, run, run_sub
from store_support import copy_drill

from warroom.core.scoring import Scorecard
from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


def test_rescore_says_which_changed(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    other = played_session(data, drill_path)
    with ResultsStore(data) as store:
        real = store.get(sid).scorecard
        # as if an older rule scored it
        store.update_scorecard(sid, Scorecard.from_dict({**real, "total": 3, "outcome": "missed"}))
    r = run(data, "--rescore")
    assert r.exit_code == 0, r.output
    changed = f"changed: {sid} (ann, duplicate-charge-refunds): outcome missed -> contained, score 3 -> {real['total']}"
    assert changed in r.stdout
    assert other not in r.stdout
    assert "re-scored 2 of 2 sessions: 1 changed, 1 unchanged, 0 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).total == real["total"] and store.get(sid).outcome == "contained"
    assert "0 changed, 2 unchanged, 0 skipped" in run(data, "--rescore").stdout


def test_rescore_reports_a_changed_drill_file(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
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


def test_rescore_allow_changed_records_the_drill_file_it_scored_against(tmp_path: Path):
    from warroom.store.review import file_sha256

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    original_text = drill_path.read_text()
    original_sha = file_sha256(drill_path)
    with ResultsStore(data) as store:
        before = store.get(sid)
    assert before.drill_sha256 == original_sha and before.drill_version == 2
    # The author edits the drill: earlier evidence (e03 at 7 s) makes the escalation at 12 s slower (fewer points).
    edited = original_text.replace("\nversion: 2\n", "\nversion: 3\n")
    edited = edited.replace("evidence: [e04]", "evidence: [e03, e04]")
    assert edited.count("\nversion: 3\n") == 1 and "evidence: [e03, e04]" in edited
    drill_path.write_text(edited)
    new_sha = file_sha256(drill_path)

    r = run(data, "--rescore", "--allow-changed")
    assert r.exit_code == 0, r.output
    assert f"changed: {sid}" in r.stdout and "drill file version 2 -> 3" in r.stdout
    with ResultsStore(data) as store:
        after = store.get(sid)
    assert (before.total, after.total) == (100, 96) and after.time_to_detect == 5.0
    assert after.drill_sha256 == new_sha and after.drill_version == 3
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
    from warroom.store.review import file_sha256

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    drill_path.write_text(drill_path.read_text() + "\n# a comment added after the session\n")
    r = run(data, "--rescore", "--allow-changed")
    assert r.exit_code == 0, r.output
    assert f"updated: {sid}" in r.stdout and "0 changed, 1 unchanged, 0 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).drill_sha256 == file_sha256(drill_path)
    assert run(data, "--rescore").exit_code == 0


def test_a_version_1_session_is_re_scored_by_version_1_unless_version_2_is_asked_for(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path, cites=None, rules="1")  # played before escalations cited events
    with ResultsStore(data) as store:
        old = store.get(sid)
    assert (old.scoring_version, old.outcome, old.total) == ("1", "contained", 100)
    r = run(data, "--rescore")
    assert r.exit_code == 0 and "re-scored 1 of 1 session: 0 changed, 1 unchanged, 0 skipped" in r.stdout
    r = run(data, "rescore", "--rules", "2")  # asked for rules: shown first, and refused without a terminal
    assert r.exit_code == 1 and "not rewriting the store without confirmation" in r.output
    with ResultsStore(data) as store:
        assert store.get(sid).scoring_version == "1"  # nothing rewritten
    r = run(data, "rescore", "--rules", "2", "--yes")
    assert r.exit_code == 0, r.output
    assert (
        f"changed: {sid} (ann, duplicate-charge-refunds): scoring rules version 1 -> 2, outcome contained -> "
        "right_step_unsupported, score 100 -> 10"
    ) in r.stdout
    with ResultsStore(data) as store:
        new = store.get(sid)
    assert (new.scoring_version, new.outcome, new.total) == ("2", "right_step_unsupported", 10)
    assert new.scorecard["scoring_version"] == "2" and new.time_to_detect is None
    # Back to version 1 on request (old spelling too); a plain re-score keeps each session's own rules.
    assert "score 10 -> 100" in run(data, "--rescore", "--rules", "1", "--yes").stdout
    bad = run(data, "rescore", "--rules", "7")
    assert bad.exit_code == 2 and "scoring rules version '7' is not known to this warroom" in bad.output
    assert run(data, "--rules", "2").exit_code == 2  # --rules only with --rescore


def test_rescore_keeps_the_pauses_and_drops_the_wall_time_to_detect_of_no_detection(tmp_path: Path):
    """Re-scoring keeps the recorder's pause figures; under rules 2 this escalation cites nothing, so it is "right
    step, unsupported": no detection, so no wall-clock time to detect either (as a session played so stores it)."""
    from warroom.core.scoring import Scorecard as Card
    from warroom.store.results import WallClock
    from warroom.store.review import default_drill_resolver, rescore

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path, cites=None, rules="1")
    wall = WallClock(pauses=2, paused_seconds=7.5, wall_time_to_detect=20.25)
    with ResultsStore(data) as store:  # the same session as played with two pauses (the recorder's figures)
        s = store.get(sid)
        store.delete([sid])
        store.insert(s.info(), Card.from_dict(s.scorecard), s.actions, ended_at=s.ended_at, wall=wall)
        (r,) = [r for r in rescore(store, default_drill_resolver(), rules="2") if r.session_id == sid]
        assert "score 100 -> 10" in r.message
        new = store.get(sid)
    assert new.total == 10 and (new.pauses, new.paused_seconds, new.wall_time_to_detect) == (2, 7.5, None)


def _v3_sessions(tmp_path: Path) -> tuple[Path, list[str]]:
    """Three sessions scored by the rules 3 on duplicate-charge-refunds at 12 s (a copy with its ids by position, so
    that the rules 3 and the recorder read them alike): s1 citing the evidence e06, s1 citing the last four events
    out (e03-e06, 1 of 4 evidence), s1 citing nothing."""
    drill_path = copy_drill_by_position(tmp_path / "drills")
    data = tmp_path / "data"
    cites = [("e06",), ("e03", "e04", "e05", "e06"), ()]
    return data, [played_session(data, drill_path, cites=c, rules="3") for c in cites]


def test_rescore_by_rules_4_shows_what_would_change_by_outcome_and_response_and_asks(tmp_path: Path, monkeypatch):
    import warroom.cli.scores._delete as delete

    data, (evidence, everything, nothing) = _v3_sessions(tmp_path)
    monkeypatch.setattr(delete, "_stdin_is_a_terminal", lambda: True)
    r = run_sub(data, "rescore", "--rules", "4", input="n\n")
    assert r.exit_code == 0, r.output
    assert "Re-scoring 3 sessions by the scoring rules 4 would rewrite 3:" in r.output
    assert "  by outcome:\n    contained (unchanged): 1\n    contained -> right step, unsupported: 1\n" in r.output
    assert "    right step, unsupported (unchanged): 1\n" in r.output
    assert "    (not recorded) -> hit: 1\n    (not recorded) -> localisation error: 2\n" in r.output
    assert (
        f"changed: {everything} (ann, duplicate-charge-refunds): scoring rules version 3 -> 4, outcome contained -> "
        "right_step_unsupported, score 100 -> 10"
    ) in r.output
    assert "Rewrite 3 sessions (each keeps its replaced scorecard in its history)? [y/N]" in r.output
    assert "Nothing rewritten." in r.output
    with ResultsStore(data) as store:
        assert {store.get(s).scoring_version for s in (evidence, everything, nothing)} == {"3"}
    r = run_sub(data, "rescore", "--rules", "4", input="y\n")
    assert r.exit_code == 0 and "re-scored 3 of 3 sessions: 3 changed, 0 unchanged, 0 skipped" in r.output
    with ResultsStore(data) as store:
        rows = {s: store.get(s) for s in (evidence, everything, nothing)}
        history = store.scorecard_history(everything)
    assert {s: (r.scoring_version, r.outcome, r.total, r.scorecard["response"]) for s, r in rows.items()} == {
        evidence: ("4", "contained", 100, "hit"),
        everything: ("4", "right_step_unsupported", 10, "localisation_error"),
        nothing: ("4", "right_step_unsupported", 10, "localisation_error"),
    }
    (replaced,) = history  # the version-3 scorecard, kept
    assert replaced.scorecard["scoring_version"] == "3" and replaced.total == 100 and replaced.rules == "4"
    again = run_sub(data, "rescore", "--rules", "4")  # nothing would change: nothing to ask
    assert again.exit_code == 0 and "0 changed, 3 unchanged, 0 skipped" in again.output
    assert "Rewrite" not in again.output


def test_rescore_by_rules_without_a_terminal_is_refused_unless_yes(tmp_path: Path):
    data, sessions = _v3_sessions(tmp_path)
    r = run_sub(data, "rescore", "--rules", "4")
    assert r.exit_code == 1
    assert "would rewrite 3" in r.output
    assert "not rewriting the store without confirmation: run it in a terminal, or add --yes" in r.output
    with ResultsStore(data) as store:
        assert {store.get(s).scoring_version for s in sessions} == {"3"}
    r = run(data, "--rescore", "--rules", "4", "--yes")  # the old spelling, with --yes
    assert r.exit_code == 0 and "3 changed" in r.output
