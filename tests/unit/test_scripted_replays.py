"""Every bundled drill played by `warroom check`'s scripted trainees (ideal, late, never, trigger-happy, wrong-step):
each run's action log, re-applied by :func:`warroom.core.scoring.replay_actions` as the debrief, the store's recovery
and the review do, plays the drill to its end, and its outcome has a label for the debrief's headline. The debriefs
themselves are rendered at 80x24 for a set of drills covering every feature of the bundled ones
(tests/tui/test_debrief_80x24.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.core.author._check import TRAINEES, play_scripted
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import outcome_label
from warroom.core.scoring import replay_actions

BUNDLED = sorted(bundled_drills_dir().glob("*.yaml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_scripted_run_of_every_bundled_drill_replays_to_its_end(path: Path):
    drill = load_drill(path)
    for trainee in TRAINEES:
        run = play_scripted(drill, trainee)
        replay, _ = replay_actions(drill, run.actions)
        assert replay.ended, trainee
        assert outcome_label(run.scorecard.outcome.value, drill.is_all_clear), trainee
