"""Campaign 18 on the terminal UI (issue 30): what the trainee sees against what is scored, keys typed ahead of a
move of the focus, drill sets end to end; what it found and what now holds."""

from __future__ import annotations

from textual.events import Key
from textual.pilot import Pilot
from textual.widgets import Input

from warroom.tui.widgets import Inspector, TraceTable

from .conftest import make_app, picker_ready, type_text, war_room


async def _keys(pilot: Pilot, *names: str) -> None:
    """Send the keys ``names`` to the app one after another without waiting between them (a fast typist, a paste),
    then let every widget handle them (as :func:`type_text` does, for key names rather than characters)."""
    app = pilot.app
    for name in names:
        key = Key(name, name if len(name) == 1 else None)
        key.set_sender(app)
        app.post_message(key)
    await pilot.pause()
    await pilot.pause()


async def test_keys_typed_right_after_slash_in_the_picker_go_into_the_filter(services):
    """``/`` shows the filter box and moves the focus there, but Textual moves the focus at its next idle moment: the
    keys typed right behind ``/`` (``/dup`` typed fast, or pasted) went to the list and were lost, the filter empty;
    and the keys typed right behind ``enter`` (the filter kept, back to the list) or ``escape`` went into the box:
    ``j j`` to move down the kept list became a filter ``…jj`` that hid every drill."""
    app = make_app(services, None)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        await type_text(pilot, "/refund")
        assert picker.filter_text == "refund"
        kept = picker.selected()
        await _keys(pilot, "enter", "j")
        assert picker.filter_text == "refund" and picker.query_one("#picker-filter", Input).value == "refund"
        assert picker.selected() is not kept  # j moved down the list kept
        await _keys(pilot, "escape", "j")
        assert picker.filter_text == "" and not picker.query_one("#picker-filter", Input).display
        await type_text(pilot, "/a/b")  # a slash typed in the box is a character of the filter
        assert picker.filter_text == "a/b"
        await _keys(pilot, "escape", "home")
        first = picker.selected()
        await _keys(pilot, "tab", "j")  # into the preview: j scrolls it, the list stays
        assert picker.selected() is first and app.focused is picker.query_one("#picker-detail")


async def test_keys_typed_right_after_enter_in_the_war_room_scroll_the_inspector_not_the_trace(services):
    """``enter`` inspects the selected event and moves into the inspector to scroll it; ``down`` typed right behind
    it (before the app was idle) went to the trace instead and moved its cursor, so the inspector showed another
    event than the one inspected, and ``f`` then flagged that other event. Likewise ``escape`` or ``tab`` back."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        await pilot.press("up", "up")
        chosen = table.selected_key
        await _keys(pilot, "enter", "down", "down")
        assert table.selected_key == chosen and app.focused is live.query_one(Inspector)
        await _keys(pilot, "escape", "up")
        assert app.focused is table and table.selected_key != chosen
        await _keys(pilot, "tab", "down")
        assert app.focused is live.query_one(Inspector)
        await _keys(pilot, "tab", "down")
        assert app.focused is table
