"""The Timeline's O(1) geometry and event lookup agree with DataTable's own (whole-table) computations."""

from __future__ import annotations

import pytest

from rich.text import Text
from textual.app import App, ComposeResult
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from warroom.core.loader import load_drill
from warroom.core.model import Drill
from warroom.tui.widgets import Inspector, Timeline, describe_event

from .conftest import STALE


class TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Timeline(id="timeline")
        yield Inspector(id="inspector")


def geometry(table: Timeline, base: bool) -> dict:
    """Every row and cell region, every line's (row key, line in row), the total height and the fixed offset,
    computed by Timeline (``base=False``) or by DataTable's own code (``base=True``)."""
    cls = DataTable if base else Timeline
    header = table.header_height if table.show_header else 0
    return {
        "rows": [cls._get_row_region(table, i) for i in range(-1, table.row_count + 1)],
        "cells": [
            cls._get_cell_region(table, Coordinate(r, c))
            for r in range(-1, table.row_count + 1)
            for c in range(len(table.columns))
        ],
        "offsets": [cls._get_offsets(table, y) for y in range(header + cls._total_row_height.fget(table))],
        "total": cls._total_row_height.fget(table),
        "fixed": cls._get_fixed_offset(table),
    }


def drill() -> Drill:
    return load_drill(STALE)


async def test_timeline_geometry_matches_datatable():
    d = drill()
    app = TimelineApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(Timeline)
        table.append_events(d.trace[:10])
        table.append_note(40.0, "re-plan", "a note")
        table.append_events(d.trace[10:])
        await pilot.pause()
        assert table.row_count == len(d.trace) + 1
        assert geometry(table, base=False) == geometry(table, base=True)
        table.fixed_rows = 2
        table.show_header = False
        await pilot.pause()
        assert geometry(table, base=False) == geometry(table, base=True)
        # Past the last line: both refuse.
        for cls in (Timeline, DataTable):
            with pytest.raises(LookupError):
                cls._get_offsets(table, table.row_count + 5)


async def test_a_taller_row_falls_back_to_datatable_geometry():
    d = drill()
    app = TimelineApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(Timeline)
        table.append_events(d.trace[:3])
        table.add_row(Text(""), Text(""), Text(""), Text("note"), Text("two\nlines"), height=2, key="tall")
        table.append_events(d.trace[3:6])
        await pilot.pause()
        ours = geometry(table, base=False)
        assert ours == geometry(table, base=True)
        assert ours["total"] == table.row_count + 1  # the tall row counts twice
        assert ours["rows"][5].y == 4 + 2  # row 4 (index 5 with the -1 probe) starts below the tall row
        table.clear()
        table.append_events(d.trace[:4])
        await pilot.pause()
        assert table.events.keys() == {e.id for e in d.trace[:4]}
        assert geometry(table, base=False) == geometry(table, base=True)


async def test_cursor_moves_scroll_the_selected_row_into_view():
    d = drill()
    events = [e.model_copy(update={"id": f"{e.id}-{i}"}) for i in range(30) for e in d.trace]
    app = TimelineApp()
    async with app.run_test(size=(100, 20)) as pilot:
        table = app.query_one(Timeline)
        table.append_events(events)
        table.focus()
        await pilot.pause()
        assert table.selected_key == events[-1].id  # followed to the newest row
        assert table.scroll_y == table.max_scroll_y > 0
        table.move_cursor(row=0)
        await pilot.pause()
        assert table.scroll_y == 0
        await pilot.press("G")  # follow: back to the newest row
        await pilot.press("up", "up")
        assert table.selected_key == events[-3].id
        assert table.scroll_y == table.max_scroll_y


async def test_timeline_looks_up_events_by_id():
    d = drill()
    app = TimelineApp()
    async with app.run_test(size=(100, 20)):
        table = app.query_one(Timeline)
        table.append_events(d.trace)
        key = table.append_note(1.0, "re-plan", "note")
        for ev in d.trace:
            assert table.event(ev.id) is ev
        assert key not in table.events
        with pytest.raises(KeyError):  # a note row is not a trace event
            table.event(key)


def test_describe_event_with_an_event_index_matches_the_drill_lookup():
    d = drill()
    index = {e.id: e for e in d.trace}
    results = [e for e in d.trace if e.kind == "tool_result"]
    assert results
    for ev in d.trace:
        assert describe_event(ev, d, index) == describe_event(ev, d)
        if ev.kind != "tool_call":  # a call's result line names only results shown (in the index)
            assert describe_event(ev, d, {}) == describe_event(ev, d)  # ids missing from the index: the drill's
