"""Smoke test of the drill model and replay on the first bundled drill (fuller tests live beside each module)."""

import yaml

from warroom.core.library import bundled_drills_dir
from warroom.core.model import Drill
from warroom.core.replay import EndReason, Replay


def test_bundled_drill_contains_on_correct_escalation():
    path = bundled_drills_dir() / "stale-refund-snapshot.yaml"
    drill = Drill.model_validate(yaml.safe_load(path.read_text()))
    replay = Replay(drill)
    replay.advance(12)
    assert replay.evidence_released
    result = replay.escalate("s1", "cache snapshot from last week")
    assert result.contained and not result.late
    replay.advance(10)
    assert replay.ended and replay.end_reason is EndReason.CONTAINED
    assert replay.damage == 0
    assert replay.full_damage == 14021
