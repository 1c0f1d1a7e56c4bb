"""Campaign 20 on the terminal UI (issue 30): keys typed fast behind the author mode's answers, the mouse alone, the
help and footer against each screen's keys, long drills, format 2 at two sizes, the tutorial failed and resumed, what
a screen reader gets; what it found and what now holds."""

from __future__ import annotations

import shutil

from textual.widgets import Input

from warroom.tui.author import NumberDialog
from warroom.tui.widgets import TraceTable

from .conftest import STALE, author_mode, type_keys


async def test_keys_typed_right_behind_an_author_mode_dialogs_answer_reach_the_trace(tmp_path):
    """The author mode's dialogs had no held keys (``Dialog.held``): the keys typed right behind the enter (ctrl+s in
    a longer text) that answered one went into its field before it closed: ``x r ⏎ j`` typed fast marked a
    distractor whose reason was ``rj``, the cursor unmoved, ``h a ctrl+s j`` a habit starting ``aj``, and ``l 5 ⏎ j``
    a deadline of ``5j``, refused, the dialog left open. A refused answer keeps the dialog, and the keys typed behind
    it go into its field, as typed."""
    drill = tmp_path / STALE.name
    shutil.copy(STALE, drill)
    async with author_mode(drill, whole_trace=True) as (app, pilot, screen):
        table = screen.query_one(TraceTable)
        table.move_cursor(table.row_index("e03"))
        await type_keys(pilot, "x", "r", "enter", "j")
        assert app.screen is screen and screen.file.draft.distractors["e03"] == "r" and table.selected_key == "e04"
        await type_keys(pilot, "l", "5", "enter", "k")
        assert app.screen is screen and screen.file.draft.deadline.event == "e04" and table.selected_key == "e03"
        await type_keys(pilot, "h", "a", "ctrl+s", "j")
        assert app.screen is screen and screen.file.draft.habit.startswith("aBefore") and table.selected_key == "e04"
        await type_keys(pilot, "d", "1", "enter", "U", "enter", "enter", "j")
        assert app.screen is screen and screen.file.draft.damage_unit == "U" and table.selected_key == "e05"
        await type_keys(pilot, "l", "x", "enter", "1")  # refused: the dialog stays, the 1 typed into its field
        assert isinstance(app.screen, NumberDialog) and app.screen.query_one(Input).value == "x1"
