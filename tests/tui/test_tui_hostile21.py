"""Campaign 21 on the terminal UI (issue 30): the picker, the trace table and the author mode's dialogs with the mouse,
wide terminals; what it found and what now holds."""

from __future__ import annotations

from textual.widgets import DataTable

from warroom.tui.screens import BriefingScreen

from .conftest import make_app, picker_ready, screen_text


async def test_a_second_click_on_the_highlighted_drill_of_the_picker_opens_its_briefing(services):
    """A click on a drill highlighted it; a second click on it did nothing (enter only opened it), so a trainee with
    only a mouse could not start a drill. A second click on the highlighted drill now opens its briefing, wherever in
    the row it lands; a first click on another drill only highlights it."""
    async with make_app(services, drill_path=None).run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        await pilot.click(table, offset=(20, 5))  # the border and the header, then the fourth drill
        await pilot.pause()
        assert app_screen(pilot) is picker and table.cursor_row == 3
        chosen = picker.selected()
        assert chosen is not None and chosen.card is not None
        await pilot.click(table, offset=(60, 5))  # the same drill, another column
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        briefing = app_screen(pilot)
        assert isinstance(briefing, BriefingScreen), screen_text(pilot.app)
        assert briefing.entry.path == chosen.path


def app_screen(pilot):
    return pilot.app.screen

