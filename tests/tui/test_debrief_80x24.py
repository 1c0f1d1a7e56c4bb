"""Every bundled drill played headlessly by `warroom check`'s scripted trainees, each run's debrief rendered at
80x24 (issue 17, "Checks"): the outcome line and the score are on the first screen, and scrolling the debrief to
its end raises nothing.

The runs are those of :func:`warroom.core.author._check.play_scripted` (ideal, late, never, trigger-happy, wrong-step);
the
replay the debrief draws from is the run's action log re-applied by :func:`warroom.core.scoring.replay_actions`, as
the store's recovery and the review do.

The debriefs are rendered for a set of bundled drills that together use every feature of the bundled drills, the
longest title and the longest trace among them (tests/cover_support.py: a new drill with a new feature joins by
itself); that every scripted run of every bundled drill replays to its end, with an outcome the debrief names, is
checked without the terminal by tests/unit/test_scripted_replays.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cover_support import covering_drills

from warroom.core.author._check import TRAINEES, play_scripted
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import outcome_label
from warroom.core.scoring import replay_actions
from warroom.tui.logic import load_entry
from warroom.tui.screens import DebriefScreen

from .conftest import make_app, screen_text

BUNDLED = sorted(bundled_drills_dir().glob("*.yaml"))
#: Rendering a debrief costs about the same whatever the drill's duration: each drill costs one.
RENDERED = covering_drills(BUNDLED, cost="one")


def test_there_are_bundled_drills():
    assert len(BUNDLED) >= 14


@pytest.mark.parametrize("path", RENDERED, ids=lambda p: p.stem)
async def test_every_scripted_trainees_debrief_renders_at_80x24(services, path: Path):
    drill = load_drill(path)
    entry = load_entry(path)
    app = make_app(services, path)
    async with app.run_test(size=(80, 24)) as pilot:
        for trainee in TRAINEES:
            run = play_scripted(drill, trainee)
            card = run.scorecard
            replay, _ = replay_actions(drill, run.actions)
            assert replay.ended
            await app.push_screen(DebriefScreen(entry, replay, card))
            await pilot.pause()
            first = screen_text(app)
            lines = first.splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
            outcome = outcome_label(card.outcome.value, drill.is_all_clear)
            # the headline writes the outcome's value in capitals (RIGHT STEP UNSUPPORTED, as test_cite_evidence reads)
            headline = outcome.upper().replace(",", "")
            assert f" {headline} " in first, f"{trainee}: no outcome line {outcome!r}:\n{first}"
            assert f"{card.total}/{card.max_total}" in first, f"{trainee}: no score:\n{first}"
            # The whole debrief renders: scrolled to its last line (no animation: the key's smooth scroll is slow).
            app.screen.query_one("#debrief").scroll_end(animate=False, immediate=True)
            await pilot.pause()
            assert f"scoring version {card.scoring_version}" in screen_text(app), trainee
            app.pop_screen()
            await pilot.pause()
