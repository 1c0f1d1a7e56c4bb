"""Wall-clock figures of a session (pauses, wall seconds paused, wall-clock time to detect) from the journal's times,
when a session finishes and when it is recovered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_support import bundled_drill_path, load

from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder, detected_at, recover_unfinished, wall_clock
from warroom.store.results import ResultsStore, WallClock
from warroom.store.review import default_drill_resolver

START = "2026-11-30T10:00:00.000000+00:00"


def at(seconds: float) -> str:
    return f"2026-11-30T10:{int(seconds // 60):02d}:{seconds % 60:09.6f}+00:00"


def test_pauses_paused_seconds_and_wall_time_to_detect():
    actions = [
        Action(t=2.0, kind=ActionKind.PAUSE),
        Action(t=2.0, kind=ActionKind.RESUME),
        Action(t=30.0, kind=ActionKind.PAUSE),
        Action(t=30.0, kind=ActionKind.RESUME),
        Action(t=38.0, kind=ActionKind.ESCALATE, step="s1"),
    ]
    times = [at(3), at(13.5), at(40), at(100), at(120.25)]
    wall = wall_clock(START, actions, times, contained_at=38.0)
    assert wall == WallClock(pauses=2, paused_seconds=70.5, wall_time_to_detect=120.25)


def test_a_faster_playback_makes_the_wall_time_to_detect_shorter_than_the_drill_time():
    """docs/sessions.md: at 4x the escalation at drill time 40 s comes 10 real seconds after the start (plus the
    second before the speed change): the wall-clock time to detect can be less than the drill time."""
    actions = [Action(t=0.0, kind=ActionKind.SPEED, speed=4.0), Action(t=40.0, kind=ActionKind.ESCALATE, step="s1")]
    wall = wall_clock(START, actions, [at(1), at(11)], contained_at=40.0)
    assert wall == WallClock(pauses=0, paused_seconds=0.0, wall_time_to_detect=11.0)


def test_a_false_escalation_leaves_the_wall_time_to_detect_15_s_below_the_drill_time():
    """docs/sessions.md: an assessment session (1x, no pause) with a false escalation at drill time 14.5 s, whose
    re-plan jumps the drill clock 15 s, contains at drill time 34.3 s after 19.3 real seconds."""
    actions = [Action(t=14.5, kind=ActionKind.ESCALATE, step="s1"), Action(t=34.3, kind=ActionKind.ESCALATE, step="s2")]
    wall = wall_clock(START, actions, [at(14.5), at(19.3)], contained_at=34.3)
    assert wall == WallClock(pauses=0, paused_seconds=0.0, wall_time_to_detect=19.3)


def test_a_pause_never_resumed_runs_to_the_end_and_no_containment_has_no_wall_ttd():
    actions = [Action(t=1.0, kind=ActionKind.PAUSE), Action(t=1.0, kind=ActionKind.QUIT)]
    wall = wall_clock(START, actions, [at(5), at(6)], contained_at=None, ended_at=at(65))
    assert wall == WallClock(pauses=1, paused_seconds=60.0, wall_time_to_detect=None)


def test_only_the_containing_escalation_counts_and_missing_times_give_none():
    actions = [
        Action(t=5.0, kind=ActionKind.ESCALATE, step="s3"),  # false escalation
        Action(t=40.0, kind=ActionKind.ESCALATE, step="s1"),
    ]
    assert wall_clock(START, actions, [at(5), at(50)], contained_at=40.0).wall_time_to_detect == 50.0
    assert wall_clock(START, actions, [at(5), None], contained_at=40.0).wall_time_to_detect is None
    paused = [Action(t=1.0, kind=ActionKind.PAUSE), Action(t=1.0, kind=ActionKind.RESUME)]
    assert wall_clock(START, paused, [None, at(9)], contained_at=None) == WallClock(1, None, None)
    with pytest.raises(ValueError):
        wall_clock(START, paused, [at(1)], contained_at=None)


def _played(rec: SessionRecorder) -> list[Action]:
    actions = [
        Action(t=10.0, kind=ActionKind.PAUSE),
        Action(t=10.0, kind=ActionKind.RESUME),
        Action(t=38.0, kind=ActionKind.ESCALATE, step="s1", note="stale snapshot", cites=("e06",)),
    ]  # e06: the evidence as the session shows it (by position; e04 in the drill file)
    for a in actions:
        rec.record(a)
    return actions


def test_a_finished_session_stores_its_wall_clock_figures(tmp_path: Path):
    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode="practice", set_id="wk1")
    actions = _played(rec)
    rec.finish(score(rec.drill, actions))
    lines = [json.loads(x) for x in rec.journal_path.read_text().splitlines()]
    times = [x["at"] for x in lines if x["type"] == "action"]
    expected = wall_clock(rec.info.started_at, actions, times, contained_at=38.0)
    with ResultsStore(tmp_path) as store:
        row = store.get(rec.session_id)
    assert row.pauses == 1 and row.set_id == "wk1" and row.mode == "practice"
    assert row.paused_seconds == expected.paused_seconds is not None
    assert row.wall_time_to_detect == expected.wall_time_to_detect is not None


def test_a_recovered_session_gets_its_wall_clock_figures_from_the_journal(tmp_path: Path):
    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode="assessment")
    rec.record(Action(t=10.0, kind=ActionKind.PAUSE))
    path = rec.journal_path
    rec.close()  # killed while paused
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[1]["at"] = "2026-11-30T10:00:03.000000+00:00"
    lines[0]["started_at"] = START
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    [recovered] = recover_unfinished(tmp_path, default_drill_resolver())
    assert recovered.stored, recovered.error
    with ResultsStore(tmp_path) as store:
        row = store.get(rec.session_id)
    assert row.mode == "assessment" and row.outcome == "abandoned"
    assert row.pauses == 1 and row.wall_time_to_detect is None
    assert row.paused_seconds is not None and row.paused_seconds > 0  # until the journal's last write


def test_the_right_step_unsupported_has_no_wall_time_to_detect(tmp_path: Path):
    # Origin s1 named citing only the distractor e07: the cascade stops (contained_at is set) but nothing was
    # detected, so the wall-clock time to detect is as empty as the drill-clock one, finished or recovered.
    drill = load(bundled_drill_path())
    escalation = Action(t=30.0, kind=ActionKind.ESCALATE, step="s1", cites=("e07",))
    card = score(drill, [escalation])
    assert card.outcome.value == "right_step_unsupported" and card.contained_at == 30.0
    assert card.time_to_detect is None
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode="practice")
    rec.record(escalation)
    rec.finish(card)
    with ResultsStore(tmp_path) as store:
        row = store.get(rec.session_id)
    assert row.outcome == "right_step_unsupported" and row.wall_time_to_detect is None
    contained = score(drill, [Action(t=30.0, kind=ActionKind.ESCALATE, step="s1", cites=("e04",))])
    assert detected_at(contained) == 30.0 and detected_at(card) is None


def test_an_unknown_mode_is_refused(tmp_path: Path):
    with pytest.raises(ValueError, match="mode"):
        SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), load(bundled_drill_path()), mode="exam")
