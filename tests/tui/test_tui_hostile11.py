"""Campaign 11 on the terminal UI (issue 30): hostile drills, sizes and keys; what it found and what now holds."""

from __future__ import annotations

import re

from textual import events
from textual.widgets import Input, TextArea

from warroom.tui.author import DebriefDialog, DrillInfoDialog

from .conftest import author_mode, screen_text
from .test_annotate import imported

#: An SGR and a clear-screen sequence, an OSC title, a C1 CSI and a right-to-left override: drill text an imported
#: trace may hold (a model's output quoting a terminal), written in YAML as escapes (the drill format takes them).
HOSTILE_YAML = r'"T \e[2J\e[31mRED \e]0;title\a \x9b31m \u202eZ"'
HOSTILE = "T \x1b[2J\x1b[31mRED \x1b]0;title\x07 \x9b31m \u202eZ"
#: Characters that must never reach the terminal raw.
RAW = ("\x1b", "\x9b", "\u202e")


def _hostile_goal(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    text, count = re.subn(r"(?m)^(\s*goal:).*$", lambda m: f"{m.group(1)} {HOSTILE_YAML}", path.read_text(), count=1)
    assert count == 1
    path.write_text(text)
    return path


async def test_the_author_modes_fields_show_control_characters_visibly_and_keep_them(tmp_path):
    """A drill's text holding terminal escapes (an imported trace's first message quoting a terminal, the goal here)
    is shown everywhere escaped, but the author mode's fields (Textual's Input and TextArea) drew it raw: opening
    the drill's briefing (i) or a debrief holding one wrote ESC [2J (clear the screen), an OSC retitling the
    terminal and a right-to-left override to the author's terminal. Now each such character is drawn as a visible
    sign of one cell (ESC as ␛, a C1 or bidirectional control as �); the field's text is kept as it was."""
    path = _hostile_goal(tmp_path)
    async with author_mode(path, size=(160, 40)) as (app, pilot, _screen):
        await pilot.press("i")
        assert isinstance(app.screen, DrillInfoDialog)
        goal = app.screen.query_one("#info-goal", Input)
        assert goal.value == HOSTILE  # the text itself is kept
        shown = screen_text(app)
        assert not [c for c in RAW if c in shown], shown
        assert "T ␛[2J␛[31mRED ␛]0;title" in shown and "�31m �Z" in shown
        goal.focus()
        await pilot.pause()
        assert not [c for c in RAW if c in screen_text(app)]
        await pilot.press("escape")
        await pilot.press("b")
        assert isinstance(app.screen, DebriefDialog)
        editor = app.screen.query_one(TextArea)
        editor.load_text(f"first line\n{HOSTILE}\nlast")
        app.post_message(events.Paste(HOSTILE))  # pasted too: kept as pasted, drawn visibly
        await pilot.pause()
        assert HOSTILE in editor.text
        shown = screen_text(app)
        assert not [c for c in RAW if c in shown], shown
        assert "T ␛[2J␛[31mRED ␛]0;title" in shown and "�31m �Z" in shown


async def test_a_filter_key_that_keeps_the_same_drills_does_not_rebuild_the_pickers_list(services, monkeypatch):
    """Each key typed in the picker's filter cleared and refilled the whole list, and resolved two paths per row
    to keep the cursor on its drill: with a library of 2,000 drills (``warroom import`` of a corpus makes hundreds)
    a key took one to three seconds. Now a key whose filter keeps the same drills (a space, a letter every drill
    holds) leaves the list as it is and only the title changes; a key that changes the drills shown rebuilds it."""
    from textual.widgets import DataTable

    from warroom.tui.screens import PickerScreen

    from .conftest import make_app, picker_ready, type_text

    added: list[object] = []
    add_row = DataTable.add_row

    def counted(self, *cells, **kwargs):  # type: ignore[no-untyped-def]
        added.append(kwargs.get("key"))
        return add_row(self, *cells, **kwargs)

    app = make_app(services, None)
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        every = table.row_count
        monkeypatch.setattr(DataTable, "add_row", counted)
        await pilot.press("slash")
        await type_text(pilot, "  ")  # no word: every drill is kept
        assert added == [] and table.row_count == every
        assert str(table.border_title) == "Drills"  # spaces alone name no filter (campaign 22)
        await type_text(pilot, "tutorial")
        assert isinstance(app.screen, PickerScreen)
        assert 0 < table.row_count < every and added  # rebuilt as the drills shown changed
