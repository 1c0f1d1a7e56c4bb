"""Campaign 16 on the terminal UI (issue 30): the day's new code (the drill clock across speed keys, pauses and
dialogs); what it found and what now holds."""

from __future__ import annotations

import pytest

from .conftest import make_app, war_room


@pytest.mark.parametrize("key", ["e", "question_mark", "q"])
async def test_a_dialog_opened_plays_the_time_before_it_as_the_pause_key_does(services, key):
    """A dialog stops the drill clock in practice, journalled as a pause, as the space key does; but where space
    plays the real time since the last tick first (campaign 15), a dialog dropped it: a quarter of a second at 32x
    before the next tick, then ``e``, recorded the pause 8 drill seconds early and never played them."""
    app = make_app(services, speed=32)
    async with war_room(app, size=(80, 24), seconds=0.1) as (pilot, live):
        before = live.replay.now
        app.clock.set_time(app.clock.time + 0.25)  # a quarter of a second at 32x, then the key before the next tick
        await pilot.press(key)
        await pilot.pause()
        assert live.paused and live.replay.now == before + 8
        assert [(a.kind.value, a.t) for a in live.replay.actions][-1] == ("pause", before + 8)


async def test_ctrl_q_in_a_browser_tab_says_it_does_not_quit_not_what_ctrl_c_does(services, monkeypatch):
    """ctrl+q (Textual's own quit key) in a served tab showed ctrl+c's hint, "ctrl+c copies in a browser and does not
    quit", to a trainee who had pressed ctrl+q. It says its own now, and still neither quits nor stores the drill."""
    from warroom.tui.app import WarroomApp
    from warroom.tui.room import WarRoomScreen

    monkeypatch.setattr(WarroomApp, "is_web", property(lambda self: True))  # as textual-serve's web driver says
    app = make_app(services)
    hints: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **kw: hints.append(message))
    async with war_room(app, size=(80, 24), seconds=1) as (pilot, _live):
        hints.clear()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, WarRoomScreen) and app.return_code is None and not app.leaving
        assert hints == ["ctrl+q does not quit in a browser: press q to quit (it asks first in a drill)"]
