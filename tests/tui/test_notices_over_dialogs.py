"""Toasts never cover what the user needs (issue 35's walk-through): a toast still on screen is cleared when a
dialog opens (it was about the screen under it), a notice raised while a dialog with a line of its own is open goes
into that line, and the tutorial's last word is the debrief's first line, not a toast over its scorecard
(tests/tui/test_tutorial.py)."""

from __future__ import annotations

from pathlib import Path

from screen_support import lasting_notices

from warroom.tui.author import DebriefDialog, DrillInfoDialog
from warroom.tui.room import EscalateScreen

from .conftest import advance, author_mode, make_app, record_notifications, screen_text, type_text, until
from .test_annotate import imported

SHAPES = Path(__file__).parent.parent / "fixtures" / "shapes"


async def test_a_toast_from_before_the_escalation_dialog_does_not_cover_it(services):
    app = make_app(services, SHAPES / "shape-10-field-path.yaml")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        lasting_notices(app)  # "No field snapshot" lasts Textual's 5 s: a loaded machine could spend them
        told = record_notifications(app)
        await pilot.press("enter")
        await advance(pilot, 7)
        await pilot.press("space")  # pause on e03
        await pilot.press("colon")
        await type_text(pilot, "snapshot")
        await pilot.press("enter")
        await pilot.pause()
        assert "No field snapshot in e03:" in screen_text(app)  # a toast over the war room (with the fields e03 has)
        await pilot.press("e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen)
        assert "No field snapshot" not in screen_text(app)  # cleared as the dialog opened
        app.live.notify("Probe p9 answered.", markup=False)  # a notice while the dialog is open
        await pilot.pause()
        text = screen_text(app)
        assert "Probe p9 answered." in text and "Probe p9 answered." in str(dialog.query_one("#escalate-hint").render())
        assert told[-1] == "Probe p9 answered."


async def test_re_plan_written_does_not_cover_the_drill_info_dialog(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(80, 24), notifications=True) as (app, pilot, screen):
        lasting_notices(app)  # what is tested is that a dialog opening clears it, not how long it lasts
        await pilot.press("R")
        assert isinstance(app.screen, DebriefDialog)
        await type_text(pilot, "Escalation accepted: stop the refund.")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Re-plan written." in screen_text(app), "showing the notice")  # a loaded machine
        assert app.screen is screen
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, DrillInfoDialog)
        assert "Re-plan written." not in screen_text(app)
        screen.notify("Saved.", markup=False)  # a notice while the dialog is open: in its own line
        await pilot.pause()
        assert "Saved." in str(app.screen.query_one("#annotate-error").render())
