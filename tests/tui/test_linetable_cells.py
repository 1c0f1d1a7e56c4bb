"""warroom.tui.widgets._linetable: a LineTable draws each row from the ``cells`` function it is made with (a typed
argument, not a method for subclasses to override), only for the rows drawn, and draws a row
again after refresh_row."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import App, ComposeResult

from warroom.tui.widgets import Column, LineTable


class _Rows:
    def __init__(self) -> None:
        self.asked: list[int] = []
        self.suffix = ""

    def cells(self, index: int) -> Sequence[Text]:
        self.asked.append(index)
        return [Text(f"row {index}{self.suffix}"), Text(f"[b]{index}[/b]")]


class _App(App[None]):
    def __init__(self, rows: _Rows) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        yield LineTable([Column("name", "Name"), Column("n", "N")], self.rows.cells, id="t")


async def test_the_rows_drawn_come_from_the_cells_function():
    rows = _Rows()
    app = _App(rows)
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(LineTable)
        table.add_rows([f"k{i}" for i in range(100)])
        await pilot.pause()
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert lines[0].split() == ["Name", "N"]
        assert lines[1].split() == ["row", "0", "[b]0[/b]"]  # a cell's text shown literally
        assert max(rows.asked) < 10  # only the rows on screen
        rows.suffix = " again"
        table.refresh_row(1)
        await pilot.pause()
        assert table.render_line(2).text.split()[:3] == ["row", "1", "again"]
