"""A session of a drill with variants: it draws and stores a seed, plays that variant, and scoring, re-scoring,
recovery and the review replay exactly that variant (warroom/store/journal/_recorder.py with
warroom/core/variants/_apply.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.model import Action, ActionKind, PlayedAs
from warroom.core.play import Replay
from warroom.core.scoring import ScoringError, score
from warroom.core.variants import apply_variant, session_drill
from warroom.core.variants._apply import fingerprint
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.results import ResultsStore
from warroom.store.review import RescoreStatus, default_drill_resolver, load_drill_file, load_review, rescore

DRILL_ID = "late-delivery-replies"


def _drill_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "drills" / f"{DRILL_ID}.yaml"
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(bundled_drills_dir() / f"{DRILL_ID}.yaml", dest)
    return dest


def _play_to_detection(rec: SessionRecorder) -> None:
    """Escalate the origin step at the variant's earliest evidence, then play to the end, and store the result."""
    drill = rec.drill
    key = drill.answer_key
    first = min((drill.event(e) for e in key.evidence), key=lambda e: e.t)
    replay = Replay(drill, on_action=rec.record)
    replay.advance(first.t)
    replay.escalate(key.fault.origin_step, "CRM results are error objects", cites=[first.id])
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))


def test_a_session_stores_its_seed_and_plays_that_variant(tmp_path: Path):
    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, base)
    assert rec.info.seed is not None
    assert rec.drill == session_drill(base, rec.info.seed, PlayedAs.SIGNAL) and rec.drill != base  # (ids by position)
    _play_to_detection(rec)
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(rec.session_id)
    assert stored.seed == rec.info.seed


def test_a_fixed_seed_is_kept(tmp_path: Path):
    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    recs = [SessionRecorder.start(tmp_path / "data", "ann", path, base, seed=17) for _ in range(2)]
    assert [r.info.seed for r in recs] == [17, 17]
    assert recs[0].drill == recs[1].drill == session_drill(base, 17, PlayedAs.SIGNAL)
    for r in recs:
        r.abandon()


def test_a_trainee_replaying_a_drill_sees_another_trace(tmp_path: Path):
    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    seen = []
    for _ in range(6):
        rec = SessionRecorder.start(tmp_path / "data", "ann", path, base)
        seen.append(fingerprint(rec.drill))
        rec.abandon()
    assert len(set(seen)) == len(seen)


def test_rescore_and_review_replay_the_variant_that_was_played(tmp_path: Path):
    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, base, seed=4)
    variant = rec.drill
    assert [e.t for e in variant.trace] != [e.t for e in base.trace]  # the jitter moved the evidence
    _play_to_detection(rec)
    played = rec.scorecard
    assert played is not None and played.outcome.value == "contained" and played.time_to_detect == 0
    with ResultsStore(tmp_path / "data") as store:
        (result,) = rescore(store, default_drill_resolver())
        assert result.status is RescoreStatus.UNCHANGED, result
        session = store.get(rec.session_id)
    review = load_review(session)
    assert review.drill == variant
    # Scored on the drill as written, the same log would not be the same session.
    assert score(base, list(session.actions)).to_dict() != played.to_dict()


def test_a_recovered_session_is_scored_on_its_variant(tmp_path: Path):
    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    def first_evidence(drill) -> float:
        return min(drill.event(e).t for e in drill.answer_key.evidence)

    # A seed whose evidence comes earlier than as written: escalating then is detection in the variant only.
    seed = next(s for s in range(100) if first_evidence(apply_variant(base, s)) < first_evidence(base))
    rec = SessionRecorder.start(tmp_path / "data", "zoe", path, base, seed=seed)
    variant = rec.drill
    first = first_evidence(variant)
    cited = next(e for e in variant.answer_key.evidence if variant.event(e).t == first)
    rec.record(Action(t=first, kind=ActionKind.ESCALATE, step=variant.answer_key.fault.origin_step, note="x",
                      cites=[cited]))
    rec.close()  # as if killed
    (recovered,) = recover_unfinished(tmp_path / "data")
    with ResultsStore(tmp_path / "data") as store:
        session = store.get(rec.session_id)
    assert session.seed == seed and session.outcome == "contained"
    assert session.scorecard["time_to_detect"] == 0
    assert recovered is not None
    escalation = list(session.actions)[:1]
    # As written, the escalation comes before the evidence: the cited event is not even out yet.
    with pytest.raises(ScoringError, match="has not been released yet"):
        score(base, escalation)


def test_an_unreadable_stored_row_does_not_stop_a_new_session(tmp_path: Path):
    import sqlite3

    from warroom.store.datadir import DB_NAME

    path = _drill_copy(tmp_path)
    base = load_drill_file(path)
    first = SessionRecorder.start(tmp_path / "data", "ann", path, base)
    first.abandon()
    with sqlite3.connect(tmp_path / "data" / DB_NAME) as db:
        db.execute("UPDATE sessions SET outcome = 'won' WHERE session_id = ?", (first.session_id,))
    again = SessionRecorder.start(tmp_path / "data", "ann", path, base)  # the bad row is skipped, not fatal
    assert again.info.seed is not None and again.drill == session_drill(base, again.info.seed, PlayedAs.SIGNAL)
    again.abandon()
