"""The drill picker's columns follow the terminal's width after a resize (QA: a picker first laid out narrow kept
its narrow title and tags columns, `Business…`, in an 80-column terminal with half the table empty)."""

from __future__ import annotations

from textual.widgets import DataTable

from .conftest import make_app, picker_ready, until


def _widths(table: DataTable) -> dict[str, int]:
    return {str(key.value): column.width for key, column in table.columns.items()}


async def test_a_resize_gives_the_columns_the_widths_of_a_picker_started_at_that_size(services):
    async with make_app(services, drill_path=None).run_test(size=(80, 24)) as pilot:
        table = (await picker_ready(pilot)).query_one("#picker-table", DataTable)
        at_80 = _widths(table)
    assert at_80 == {"group": 16, "title": 22, "level": 5, "tags": 11, "length": 6, "best": 4}
    async with make_app(services, drill_path=None).run_test(size=(10, 24)) as pilot:
        table = (await picker_ready(pilot)).query_one("#picker-table", DataTable)
        assert _widths(table)["title"] == 8  # laid out narrow first: the minimum
        await pilot.resize_terminal(80, 24)
        # the columns are fitted again after the layout that follows the resize: a loaded machine takes more pauses
        await until(pilot, lambda: _widths(table) == at_80, "the columns of an 80-column picker", required=False)
        assert _widths(table) == at_80
        assert table.max_scroll_x == 0
