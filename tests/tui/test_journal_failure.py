"""The session journal becomes unwritable mid-drill (disk full, data directory removed): the war room pauses the
drill, says plainly that actions can no longer be saved and where the saved ones are, and quitting still works;
the session is later recovered as abandoned, its scorecard computed from exactly the log on disk."""

from __future__ import annotations

import os

from warroom.core.model import ActionKind, Outcome
from warroom.core.scoring import score
from warroom.store.results import ResultsStore
from warroom.tui.logic import JournalUnwritable
from warroom.tui.room import WarRoomScreen

from .conftest import advance, make_app, record_notifications, screen_text


def break_journal(live: WarRoomScreen) -> None:
    """Make the live session's journal unwritable: its descriptor now refers to a read-only file (EBADF on write)."""
    recorder = live.recorder
    fd = recorder.inner._writer._fd
    read_only = os.open(recorder.journal_path, os.O_RDONLY)
    os.dup2(read_only, fd)
    os.close(read_only)


async def test_unwritable_journal_pauses_the_drill_and_quitting_still_works(services):
    app = make_app(services)
    messages = record_notifications(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 12)
        await pilot.press("enter")  # inspect e04: saved
        assert [a.kind for a in live.recorder.actions] == [ActionKind.INSPECT]
        journal = live.recorder.journal_path
        break_journal(live)

        await pilot.press("space")  # a pause that cannot be saved
        await pilot.pause()
        assert isinstance(live.journal_error, JournalUnwritable)
        assert live.paused and not live.running
        # Not saved, so not recorded: the Replay's log and the journal's agree.
        assert [a.kind for a in live.replay.actions] == [ActionKind.INSPECT]
        assert any("can no longer be saved" in m and str(journal) in m for m in messages), messages
        assert "NOT SAVED" in screen_text(app)

        now = live.replay.now
        await advance(pilot, 5)  # the drill clock stays stopped
        assert live.replay.now == now
        await pilot.press("space")  # resuming is refused too (it could not be saved)
        assert live.paused and [a.kind for a in live.replay.actions] == [ActionKind.INSPECT]

        await pilot.press("q")
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0  # no traceback, and the app's close does not raise either
    app.close_open_session()

    # The next start recovers the session as abandoned from the actions on disk.
    messages = services.recover()
    assert any("abandoned" in m for m in messages), messages
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        stored = store.get(row.session_id)
    assert [a.kind for a in stored.actions] == [ActionKind.INSPECT, ActionKind.QUIT]
    assert stored.outcome == Outcome.ABANDONED
    assert stored.scorecard == score(live.drill, stored.actions).to_dict()


async def test_the_stored_scorecard_is_the_score_of_the_stored_log(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 12)
        await pilot.press("space", "space")  # pause, resume
        await pilot.press("q", "y")
        await pilot.pause()
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        stored = store.get(row.session_id)
    # space paused and resumed; the quit's confirmation paused again (practice), and the quit ended the drill
    assert [a.kind for a in stored.actions] == [
        ActionKind.PAUSE, ActionKind.RESUME, ActionKind.PAUSE, ActionKind.QUIT,
    ]
    assert stored.actions == live.replay.actions
    assert stored.scorecard == score(live.drill, stored.actions).to_dict()
