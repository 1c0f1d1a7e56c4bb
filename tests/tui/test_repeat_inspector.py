"""The inspector of a repeated event keeps up with its repetitions while it is selected (issue 15, item 5)."""

from __future__ import annotations

from warroom.core.author._examples import example_path
from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import Inspector, TraceTable

from .conftest import advance, make_app, screen_text


async def test_the_inspector_of_a_selected_repeated_event_counts_on_as_it_repeats(services):
    app = make_app(services, example_path("full"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 13)  # e10 (x10, every 1 s from 13 s; shown as e13) has its first repetition
        timeline = live.query_one(TraceTable)
        timeline.move_cursor(timeline.row_index("e13"))
        await pilot.pause()
        assert "1 so far: 00:13" in screen_text(app)
        await advance(pilot, 3)  # still selected: 14, 15 and 16 s follow
        assert timeline.selected_key == "e13"
        assert "4 so far: 00:13 00:14 00:15 00:16" in screen_text(app)
        assert "×4 ↻e11" in screen_text(app)  # the table and the inspector agree


async def test_a_repetition_keeps_the_inspector_where_the_trainee_scrolled_it(services):
    app = make_app(services, example_path("full"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 13)
        timeline = live.query_one(TraceTable)
        timeline.move_cursor(timeline.row_index("e13"))
        await pilot.pause()
        inspector = live.query_one(Inspector)
        inspector.scroll_to(y=2, animate=False, immediate=True)
        await pilot.pause()
        await advance(pilot, 2)
        assert inspector.scroll_y == 2
