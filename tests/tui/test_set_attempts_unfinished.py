"""A drill set's attempts count the sessions still being played (another warroom open on the same drill) and those
killed but not yet recovered: a trainee cannot open a drill twice at once to get more attempts than the set allows
(one to see the debrief, the other to use it)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from store_support import load

from warroom.core.library import bundled_drills_dir
from warroom.store.journal import SessionRecorder
from warroom.tui.logic import Services, load_active_set, unfinished_sessions
from warroom.tui.screens import PickerScreen

from .conftest import make_app, picker_ready, record_notifications, screen_text

SET = """
set: week-1
title: Week one
mode: assessment
attempts: 1
drills: [late-delivery-replies, duplicate-charge-refunds]
"""


def start_elsewhere(data: Path, trainee: str, drill_id: str, set_id: str | None) -> SessionRecorder:
    """A session started (and not finished) as another warroom process would: its journal only."""
    path = bundled_drills_dir() / f"{drill_id}.yaml"
    return SessionRecorder.start(data, trainee, path, load(path), mode="assessment", set_id=set_id)


async def test_a_drill_being_played_elsewhere_uses_its_attempt(tmp_path: Path):
    set_path = tmp_path / "week.set.yaml"
    set_path.write_text(textwrap.dedent(SET).lstrip())
    data = tmp_path / "data"
    other = start_elsewhere(data, "ann", "late-delivery-replies", "week-1")
    start_elsewhere(data, "bob", "duplicate-charge-refunds", "week-1")  # another trainee's: not ann's attempt
    start_elsewhere(data, "ann", "duplicate-charge-refunds", "week-2")  # another set's: not this set's attempt
    services = Services(trainee="ann", data_dir=data, drill_set=load_active_set(set_path))
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(120, 34)) as pilot:
        await picker_ready(pilot)  # the drills are read in a worker thread: a screen before that shows none of them
        text = screen_text(app)
        assert text.count("no attempts left") == 1
        # ann's session of the drill in another set: this set's session of it would be a replay (issue 31)
        assert text.count("replay · 1 left") == 1
        told = record_notifications(app)
        await pilot.press("enter")  # late-delivery-replies, first in the set
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert told == ["Cannot start this drill: no attempts left on this drill in the drill set (1 allowed)."]
    other.close()


def test_unfinished_sessions_reads_the_journals_start_lines(tmp_path: Path):
    data = tmp_path / "data"
    assert unfinished_sessions(data, "ann", None) == []  # no data directory yet
    start_elsewhere(data, "ann", "late-delivery-replies", "week-1")
    start_elsewhere(data, "ann", "duplicate-charge-refunds", None)
    (data / "journals" / "garbage.jsonl").write_text("not json\n")
    got = unfinished_sessions(data, "ann", None)
    assert sorted((u.drill_id, u.set_id, u.outcome) for u in got) == [
        ("duplicate-charge-refunds", None, "abandoned"),
        ("late-delivery-replies", "week-1", "abandoned"),
    ]
    assert [u.drill_id for u in unfinished_sessions(data, "ann", "week-1")] == ["late-delivery-replies"]
    assert unfinished_sessions(data, "bob", None) == []
