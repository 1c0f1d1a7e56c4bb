"""ctrl+c in a served war room (issue 30): in a browser tab ctrl+c is the copy key, so it neither quits nor stores
the drill as abandoned; it says how to quit. In a terminal it still leaves at once, the drill stored as abandoned."""

from __future__ import annotations

from warroom.store.results import ResultsStore
from warroom.tui.app import WarroomApp
from warroom.tui.room import WarRoomScreen

from .conftest import advance, make_app


async def test_ctrl_c_in_a_browser_tab_keeps_the_drill_and_says_how_to_quit(services, monkeypatch):
    monkeypatch.setattr(WarroomApp, "is_web", property(lambda self: True))  # as textual-serve's web driver says
    app = make_app(services)
    hints: list[str] = []
    shown = app.notify
    monkeypatch.setattr(app, "notify", lambda message, **kw: hints.append(message) or shown(message, **kw))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 4)
        hints.clear()  # (what the picker and briefing said)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, WarRoomScreen) and app.return_code is None  # still playing
        assert hints == ["ctrl+c copies in a browser and does not quit: press q to quit (it asks first in a drill)"]
        with ResultsStore(services.data_dir) as store:
            assert list(store.query(trainee="tester")) == []  # nothing stored as abandoned
        await advance(pilot, 2)  # the drill plays on
        assert isinstance(app.screen, WarRoomScreen) and not app.leaving


async def test_ctrl_c_in_a_terminal_still_leaves_at_once(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.is_web is False
        await pilot.press("enter")
        await advance(pilot, 4)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0 and app.leaving
    with ResultsStore(services.data_dir) as store:
        assert [r.outcome for r in store.query(trainee="tester")] == ["abandoned"]
