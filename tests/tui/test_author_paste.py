"""A megabyte pasted into the author mode's fields (issue 30): the debrief's text area holds at most TEXT_MAX
characters and a one-line field LINE_MAX; a paste is cut to what is left, with a notice naming the bound. Before, a
1 MB paste into the debrief took seconds to take in, and every key after one into a one-line field half a second
(their speed is not timed here: the bound is what keeps them fast)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input, TextArea

from warroom.tui.author import DebriefDialog, DrillInfoDialog
from warroom.tui.author._dialogs import LINE_MAX, TEXT_MAX

from .conftest import author_mode, record_notifications
from .test_annotate import imported

#: A megabyte of log lines, as an author pastes a whole log by mistake.
MEGABYTE = "2026-12-01 14:10:02 INFO a line of a long log pasted whole\n" * 17_000


async def _paste(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


async def test_a_megabyte_pasted_into_the_debrief_and_a_title_is_cut_to_their_bounds_with_a_notice(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(120, 40)) as (app, pilot, screen):
        notes = record_notifications(app)
        bells: list[None] = []
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
        await pilot.press("b")
        assert isinstance(app.screen, DebriefDialog)
        editor = app.screen.query_one(TextArea)
        await _paste(pilot, "The fault: ")
        await _paste(pilot, MEGABYTE)
        assert len(editor.text) == TEXT_MAX
        assert editor.text.startswith("The fault: 2026-12-01 14:10:02 INFO a line")
        assert notes == [f"The paste was cut to {TEXT_MAX - 11:,} of its {len(MEGABYTE):,} characters: this field "
                         f"holds at most {TEXT_MAX:,}."]  # fmt: skip
        await pilot.press("x")  # a key at the bound: refused, a bell
        assert len(editor.text) == TEXT_MAX and len(notes) == 1 and len(bells) == 1
        await pilot.press("backspace", "y")  # room again: typed
        assert len(editor.text) == TEXT_MAX and editor.text.endswith("y")
        await pilot.press("ctrl+s")
        assert app.screen is screen and len(screen.draft.debrief) <= TEXT_MAX

        await pilot.press("i")
        assert isinstance(app.screen, DrillInfoDialog)
        title = app.screen.focused
        assert isinstance(title, Input)
        await pilot.press("ctrl+a", "ctrl+k")
        await _paste(pilot, MEGABYTE.replace("\n", " "))  # one line: a one-line field takes a paste's first line
        assert len(title.value) == LINE_MAX and title.value.startswith("2026-12-01 14:10:02 INFO")
        assert notes[-1] == (f"The paste was cut to {LINE_MAX:,} of its {len(MEGABYTE):,} characters: this field "
                             f"holds at most {LINE_MAX:,}.")
