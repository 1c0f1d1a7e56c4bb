"""Campaign 22 (issue 30), results: the war room at the bound of actions one session keeps."""

from __future__ import annotations

import pytest

from warroom.core.model import ActionKind

from .conftest import make_app, record_notifications, war_room


async def test_past_the_most_actions_a_session_keeps_the_war_room_says_so_and_quitting_still_works(
    services, monkeypatch: pytest.MonkeyPatch
):
    """A session's log had no bound (a 16 MB log took `scores verify` 91 s). The war room now records at most
    MAX_ACTIONS - 1 actions and the quit: past them a key is refused with a notice, never a traceback, and `q` still
    ends the session. (The bound is lowered here to 4 so that a few key presses reach it.)"""
    from warroom.core.play import _replay

    monkeypatch.setattr(_replay, "MAX_ACTIONS", 4)
    app = make_app(services)
    messages = record_notifications(app)
    async with war_room(app, seconds=12) as (pilot, live):
        await pilot.press("space", "space", "space")  # pause, resume, pause: 3 actions
        await pilot.press("space")  # a fourth would leave no room for the quit
        await pilot.pause()
        assert [a.kind for a in live.replay.actions] == [ActionKind.PAUSE, ActionKind.RESUME, ActionKind.PAUSE]
        assert any("the most one session keeps before its end" in m for m in messages), messages
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 0
    assert [a.kind for a in live.recorder.actions][-1] is ActionKind.QUIT
    app.close_open_session()
