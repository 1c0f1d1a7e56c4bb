"""Campaign 15 on the terminal UI (issue 30): state across screens, the drill clock under pause and speed changes,
signals and files changing under the UI; what it found and what now holds."""

from __future__ import annotations

from warroom.tui.screens import BriefingScreen

from .conftest import STALE, author_mode, make_app, record_notifications, war_room


async def test_a_speed_change_plays_the_time_before_it_at_the_speed_it_ran_at(services):
    """The ticker comes up to a second after the last tick, and a speed key changed the speed without playing the
    real time since then: that time was played at the new speed, so 0.9 s at 1x, then ``+`` five times (32x), moved
    the drill clock 28.8 s instead of 0.9 s (events a trainee never saw played at 1x were released at once). Pausing
    likewise dropped the time since the last tick."""
    app = make_app(services)
    async with war_room(app, size=(80, 24), seconds=2) as (pilot, live):
        app.clock.set_time(app.clock.time + 0.9)  # 0.9 s of 1x before the next tick is due
        await pilot.press("plus", "plus", "plus", "plus", "plus")
        assert live.speed == 32
        live.tick()
        assert live.replay.now == 2.9
        app.clock.set_time(app.clock.time + 0.25)  # a quarter of a second at 32x, then space before the next tick
        await pilot.press("space")
        assert live.replay.now == 10.9
        assert [(a.kind.value, a.t) for a in live.replay.actions][-2:] == [("speed", 2.9), ("pause", 10.9)]


async def test_the_author_modes_speed_change_plays_the_time_before_it_at_the_speed_it_ran_at():
    async with author_mode(STALE, size=(80, 24)) as (app, pilot, screen):
        start = screen.replay.now
        app.clock.set_time(app.clock.time + 0.09)  # under the author mode's tick interval
        await pilot.press("plus", "plus", "plus", "plus", "plus")
        screen.tick()
        assert round(screen.replay.now - start, 6) == 0.09


async def test_warroom_run_does_not_start_a_drill_whose_file_changed_while_its_briefing_was_open(tmp_path, services):
    """The picker's drills were refused once their file changed under the briefing, but a drill given to ``warroom
    run FILE`` (or ``warroom tutorial``) was started: the session played the drill as it was read and recorded the
    changed file's SHA-256, so the review would replay another drill."""
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8"), encoding="utf-8")
    app = make_app(services, drill)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        drill.write_text(STALE.read_text(encoding="utf-8").replace("INC-4471", "INC-9999"), encoding="utf-8")
        notes = record_notifications(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.live is None
        assert any("its file changed since it was opened" in n for n in notes), notes
