"""The trace table's keys and mouse on a long trace: which event is selected, and what is on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult

import warroom.tui
from warroom.core.load import load_drill
from warroom.tui.widgets import TraceTable

from .conftest import STALE, advance, make_app, screen_text

ROWS = 400
SIZE = (100, 20)  # the table shows the header and 17 rows inside its border


def long_trace() -> list[Any]:
    """400 trace events (the bundled drill's, repeated) one drill second apart: row i shows time i as mm:ss."""
    trace = load_drill(STALE).trace
    return [trace[i % len(trace)].model_copy(update={"id": f"x{i}", "t": float(i)}) for i in range(ROWS)]


def clock(i: int) -> str:
    return f"{i // 60:02d}:{i % 60:02d}"


class TraceApp(App[None]):
    CSS_PATH = Path(warroom.tui.__file__).parent / "warroom.tcss"  # the war room's border around the trace

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[str] = []  # keys of the RowSelected messages, in order

    def compose(self) -> ComposeResult:
        yield TraceTable(id="trace-table")

    def on_line_table_row_selected(self, message: TraceTable.RowSelected) -> None:
        self.selected.append(message.key)


def shown_rows(app: App[Any]) -> list[int]:
    """The rows whose time is on screen (the trace's times are their row numbers)."""
    times = {clock(i): i for i in range(ROWS)}
    return [times[word] for line in screen_text(app).splitlines() for word in line.split() if word in times]


async def test_keys_move_the_selection_and_keep_it_on_screen():
    events = long_trace()
    app = TraceApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(TraceTable)
        table.append_events(events)
        table.focus()
        await pilot.pause()
        page = table.page_rows
        assert page == SIZE[1] - 3  # the border's two lines and the header
        assert table.selected_key == "x399"  # followed to the newest event
        assert shown_rows(app) == list(range(ROWS - page, ROWS))

        async def press(key: str, row: int) -> None:
            await pilot.press(key)
            await pilot.pause()
            assert table.selected_key == f"x{row}", key
            assert table.cursor_row == row
            assert row in shown_rows(app), key

        await press("home", 0)
        assert shown_rows(app) == list(range(page))
        await press("j", 1)
        await press("down", 2)
        await press("k", 1)
        await press("up", 0)
        await press("up", 0)  # stops at the first event
        await press("pagedown", page)
        await press("pagedown", 2 * page)
        await press("pageup", page)
        await press("end", ROWS - 1)
        assert shown_rows(app) == list(range(ROWS - page, ROWS))
        await press("down", ROWS - 1)  # stops at the newest event
        await press("g", 0)
        await press("G", ROWS - 1)
        await press("pageup", ROWS - 1 - page)
        await press("home", 0)
        await press("pageup", 0)


async def test_a_click_selects_a_row_and_a_second_click_inspects_it():
    events = long_trace()
    app = TraceApp()
    selected = app.selected
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(TraceTable)
        table.append_events(events)
        await pilot.press("home")
        await pilot.pause()
        # Line 0 is the border, line 1 the header: line 1 + n shows row n.
        await pilot.click(TraceTable, offset=(10, 1 + 1 + 5))
        await pilot.pause()
        assert table.selected_key == "x5" and selected == []
        await pilot.click(TraceTable, offset=(10, 1 + 1 + 5))
        await pilot.pause()
        assert table.selected_key == "x5" and selected == ["x5"]
        await pilot.click(TraceTable, offset=(10, 1))  # the header: nothing moves
        await pilot.pause()
        assert table.selected_key == "x5" and selected == ["x5"]
        await pilot.press("enter")
        await pilot.pause()
        assert selected == ["x5", "x5"]


async def test_new_rows_follow_only_at_the_bottom_and_end_follows_again():
    events = long_trace()
    app = TraceApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(TraceTable)
        table.append_events(events[:100])
        table.focus()
        await pilot.press("up")
        table.append_events(events[100:110])
        await pilot.pause()
        assert table.selected_key == "x98" and table.unseen == 10
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_key == "x109" and table.unseen == 0 and table.following
        table.append_events(events[110:120])
        await pilot.pause()
        assert table.selected_key == "x119"
        assert clock(119) in screen_text(app)


async def test_war_room_keys_and_click_drive_the_inspector(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 60, step=2)
        live = app.live
        table = live.query_one(TraceTable)
        first, newest = table.keys[0], table.keys[-1]
        assert table.selected_key == newest
        await pilot.press("home")
        await pilot.pause()
        assert table.selected_key == first
        assert screen_text(app).count(live.drill.event(first).id) == 2  # its row's id cell, the inspector's header
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_key == newest
        await pilot.press("g")
        await pilot.click(TraceTable, offset=(10, 1 + 1 + 2))
        await pilot.pause()
        assert table.selected_key == table.keys[2]
        assert f"{table.keys[2]} · " in screen_text(app)  # the inspector shows the clicked event
        await pilot.click(TraceTable, offset=(10, 1 + 1 + 2))  # again: inspect it (an action is recorded)
        await pilot.pause()
        assert [a.event for a in live.replay.actions if a.kind.value == "inspect"] == [table.keys[2]]


async def test_the_war_rooms_inspector_follows_the_cursor_in_the_same_call(services):
    """The war room's inspector shows the event under the cursor as the cursor moves, not once a posted message
    reached the screen: a key then draws one frame (cursor and inspector), not two a frame period or two apart."""
    from warroom.tui.widgets import Inspector

    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 60, step=2)
        live = app.live
        table, inspector = live.query_one(TraceTable), live.query_one(Inspector)
        first, newest = table.keys[0], table.keys[-1]
        assert inspector.shown_id == live.drill.event(newest).id
        table.move_cursor(0)  # nothing awaited: no message has been handled
        assert inspector.shown_id == live.drill.event(first).id
        await pilot.press("end")
        assert inspector.shown_id == live.drill.event(newest).id


async def test_a_flag_mark_replaces_the_cached_line_of_its_row():
    events = long_trace()
    app = TraceApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(TraceTable)
        table.append_events(events[:10])
        await pilot.pause()
        row = next(line for line in screen_text(app).splitlines() if clock(3) in line)
        assert "⚑" not in row  # drawn (and cached) before the flag
        table.mark_flagged("x3")
        await pilot.pause()
        flagged = [line for line in screen_text(app).splitlines() if "⚑" in line and "time" not in line]
        assert len(flagged) == 1 and clock(3) in flagged[0]
        assert table.mark_of("x3") == "⚑" and table.mark_of("x4") == ""


async def test_rows_added_below_the_view_repaint_no_line_and_lay_nothing_out():
    """A tick while the trainee reads older rows adds rows below the view: no line of the table is repainted and the
    screen is not laid out again; the scroll range and the scrollbar still follow the rows. Rows added in view are
    drawn."""
    events = long_trace()
    app = TraceApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(TraceTable)
        table.append_events(events[:5])
        table.focus()
        await pilot.press("home")
        table.append_events(events[5:10])  # the table is not full yet: the new rows are in view
        await pilot.pause()
        assert clock(9) in screen_text(app) and table.selected_key == "x0"
        table.append_events(events[10:100])
        await pilot.pause()
        calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
        refresh = table.refresh
        table.refresh = lambda *regions, **kw: (calls.append((regions, kw)), refresh(*regions, **kw))[1]  # type: ignore[method-assign]
        table.append_events(events[100:110])
        await pilot.pause()
        assert calls == []
        assert table.virtual_size.height == 111  # the header and 110 rows
        assert table.max_scroll_y == 111 - table.scrollable_content_region.height
        assert table.vertical_scrollbar.window_virtual_size == 111
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_key == "x109" and clock(109) in screen_text(app)
