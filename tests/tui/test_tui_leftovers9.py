"""What the last stop left open in the terminal UI (issue 30, leftovers of campaign 9): a symbol followed by U+FE0F
(VARIATION SELECTOR-16) in a drill's text."""

from __future__ import annotations

from rich.cells import cell_len

from warroom.tui.widgets import Inspector

from .conftest import STALE, make_app, screen_text, war_room


async def test_a_symbol_with_vs16_is_shown_one_cell_wide_in_the_trace_and_the_inspector(tmp_path, services):
    """``⚠`` followed by U+FE0F is two cells to Rich and Textual, one to tmux and most terminals: a trace row or an
    inspector line holding one was drawn one cell short on the terminal, its columns and the panel's border pushed
    left. The war room now shows such a symbol without the selector (its text presentation, one cell everywhere):
    nothing on the screen holds U+FE0F, and each symbol is one cell."""
    text = STALE.read_text(encoding="utf-8")
    for old, new in (("Plan for INC-4471", "\u26a0\ufe0f Plan for INC-4471"),
                     ("Starting s1.", "\u2714\ufe0f Starting s1."),
                     ("title: Find the", "title: \u2757\ufe0f Find the")):  # fmt: skip
        assert old in text
        text = text.replace(old, new, 1)
    drill = tmp_path / STALE.name
    drill.write_text(text, encoding="utf-8")
    app = make_app(services, drill)
    async with war_room(app, size=(140, 40), seconds=4.5) as (_pilot, _room):  # e02 (4 s) the newest
        shown = screen_text(app)
        assert "\ufe0f" not in shown
        assert "\u26a0 Plan for INC-4471" in shown and "\u2714 Starting s1." in shown, shown  # the trace table's rows
        inspector = app.screen.query_one(Inspector)
        assert inspector.shown_id == "e02", inspector.shown_id  # following the newest event
        assert "\u2757 Find the" in shown  # the plan panel's step
        assert "\u2757 Find the duplicate charges" in inspector.text and "\ufe0f" not in inspector.text
        assert "\u2714 Starting s1." in inspector.text
    assert cell_len("\u26a0") == cell_len("\u2714") == 1  # what the terminal draws too
