"""Campaign 10 on the terminal UI (issue 30): what changed today (the author mode's field bounds), attacked."""

from __future__ import annotations

import re

from textual import events
from textual.widgets import Input, TextArea

from warroom.tui.author import DebriefDialog, DrillInfoDialog
from warroom.tui.author._dialogs import LINE_MAX, TEXT_MAX

from .conftest import author_mode, record_notifications
from .test_annotate import imported


async def test_a_goal_written_past_the_bound_can_be_shortened_and_is_never_lengthened(tmp_path):
    """A drill's briefing goal longer than LINE_MAX (the model sets no bound: written by hand, or a long first
    message): its field refused every backspace with a bell (Textual's Input refuses a change leaving the value past
    max_length), so the author could not shorten it."""
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    long = "g" * (LINE_MAX + 500)
    text, count = re.subn(r"(?m)^(\s*goal:).*$", lambda m: f"{m.group(1)} {long}", path.read_text(), count=1)
    assert count == 1
    path.write_text(text)
    async with author_mode(path, size=(120, 40)) as (app, pilot, _screen):
        notes = record_notifications(app)
        bells: list[None] = []
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
        await pilot.press("i")
        assert isinstance(app.screen, DrillInfoDialog)
        goal = app.screen.query_one("#info-goal", Input)
        goal.focus()
        await pilot.pause()
        assert goal.value == long  # shown whole, never cut on opening
        goal.cursor_position = len(goal.value)
        await pilot.press("backspace", "backspace")
        assert goal.value == long[:-2] and bells == []
        await pilot.press("x")  # past the bound: refused, a bell
        assert goal.value == long[:-2] and len(bells) == 1
        goal.selection = goal.selection.__class__(0, 10)
        app.post_message(events.Paste("0123456789abc"))  # ten characters selected: ten of the paste's 13 fit
        await pilot.pause()
        assert goal.value == "0123456789" + long[10:-2]
        assert notes == [f"The paste was cut to 10 of its 13 characters: this field holds at most {LINE_MAX:,}."]


async def test_a_debrief_written_past_the_bound_takes_a_change_no_longer_than_what_it_replaces(tmp_path):
    """A debrief longer than TEXT_MAX: a key typed over a selection was cut to nothing (its room counted from the
    bound, not from the text it replaces), so such a debrief could only be cut, never reworded."""
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(120, 40)) as (app, pilot, _screen):
        bells: list[None] = []
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
        await pilot.press("b")
        assert isinstance(app.screen, DebriefDialog)
        editor = app.screen.query_one(TextArea)
        long = "d" * (TEXT_MAX + 50)
        editor.load_text(long)  # as a debrief written longer by hand is shown
        editor.move_cursor((0, len(long)))
        await pilot.press("backspace")
        assert editor.text == long[:-1] and bells == []
        await pilot.press("x")
        assert editor.text == long[:-1] and len(bells) == 1
        editor.selection = editor.selection.__class__((0, 0), (0, 5))
        await pilot.press("y")  # replaces five characters: fits
        assert editor.text == "y" + long[5:-1] and len(bells) == 1
