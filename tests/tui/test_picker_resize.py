"""The drill picker's columns follow the terminal's width after a resize (QA: a picker first laid out narrow kept
its narrow title and tags columns, `Business…`, in an 80-column terminal with half the table empty)."""

from __future__ import annotations

from textual.widgets import DataTable

from .conftest import make_app, picker_ready, screen_text, until


def _widths(table: DataTable) -> dict[str, int]:
    return {str(key.value): column.width for key, column in table.columns.items()}


async def test_a_resize_gives_the_columns_the_widths_of_a_picker_started_at_that_size(services):
    async with make_app(services, drill_path=None).run_test(size=(80, 24)) as pilot:
        table = (await picker_ready(pilot)).query_one("#picker-table", DataTable)
        at_80 = _widths(table)
    # at 80 columns the tags column folds away (the preview names the tags): the title has 33 cells, not 22
    assert at_80 == {"group": 16, "title": 33, "level": 5, "tags": 0, "length": 6, "best": 4}
    async with make_app(services, drill_path=None).run_test(size=(10, 24)) as pilot:
        table = (await picker_ready(pilot)).query_one("#picker-table", DataTable)
        assert _widths(table)["title"] == 8  # laid out narrow first: the minimum
        await pilot.resize_terminal(80, 24)
        # the columns are fitted again after the layout that follows the resize: a loaded machine takes more pauses
        await until(pilot, lambda: _widths(table) == at_80, "the columns of an 80-column picker", required=False)
        assert _widths(table) == at_80
        assert table.max_scroll_x == 0


async def test_titles_have_the_room_at_80x24_and_the_preview_names_the_tags(services):
    async with make_app(services, drill_path=None).run_test(size=(80, 24)) as pilot:
        await picker_ready(pilot)
        text = screen_text(pilot.app)
        assert "Weekly Dependabot merge train fo…" in text, text  # 33 cells of title (it was "Weekly Dependabot mer…")
        assert "tags" not in text.splitlines()[2]  # the header: no tags column
        await pilot.press("slash", *"dependabot", "enter")  # the filter: the one drill, under the cursor
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "code-agents · tags:" in text and "│ ci-cd " in text, text  # the preview names the folded tags
    async with make_app(services, drill_path=None).run_test(size=(120, 30)) as pilot:
        table = (await picker_ready(pilot)).query_one("#picker-table", DataTable)
        assert _widths(table)["tags"] > 8  # wide enough: the tags column is back
