"""Campaign 21 on the terminal UI (issue 30): the picker and the author mode's dialogs with the mouse alone, wide
terminals (the trace's agent column, the review's marks), small ones (40x12: the war room's header, a dialog taller
than the terminal, the review's table under many notes), the header's long title, j k g G on every screen; what it
found and what now holds."""

from __future__ import annotations

import shutil

from textual.widgets import Button, DataTable

from warroom.tui.screens import BriefingScreen, PickerScreen
from warroom.tui.widgets import help_rows

from .conftest import STALE, make_app, picker_ready, screen_text


async def test_a_second_click_on_the_highlighted_drill_of_the_picker_opens_its_briefing(services):
    """A click on a drill highlighted it; a second click on it did nothing (enter only opened it), so a trainee with
    only a mouse could not start a drill. A second click on the highlighted drill now opens its briefing, wherever in
    the row it lands; a first click on another drill only highlights it."""
    async with make_app(services, drill_path=None).run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        await pilot.click(table, offset=(20, 5))  # the border and the header, then the fourth drill
        await pilot.pause()
        assert app_screen(pilot) is picker and table.cursor_row == 3
        chosen = picker.selected()
        assert chosen is not None and chosen.card is not None
        await pilot.click(table, offset=(60, 5))  # the same drill, another column
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        briefing = app_screen(pilot)
        assert isinstance(briefing, BriefingScreen), screen_text(pilot.app)
        assert briefing.entry.path == chosen.path
    assert any("a click on it too" in what for _, what in help_rows(PickerScreen))  # the help says so


def app_screen(pilot):
    return pilot.app.screen



async def _click(pilot, selector: str) -> None:
    """Click the button ``selector`` of the dialog on top, which must be drawn whole inside the terminal (once the
    dialog has been laid out: a click at a region not yet laid out lands beside it, outside the dialog)."""
    await pilot.pause()
    button = pilot.app.screen.query_one(selector)
    region, size = button.region, pilot.app.size
    assert region.width and region.height and region.right <= size.width and region.bottom <= size.height, region
    await pilot.click(button)
    await pilot.pause()


async def test_an_author_who_uses_only_the_mouse_answers_and_cancels_every_author_mode_dialog(tmp_path):
    """The author mode's dialogs (the fault, a distractor's reason, damage, the deadline, the debrief, the habit, the
    re-plan, the drill's title and briefing, and the go-to-field dialog both modes share) answered only to keys: an
    author with only a mouse could not keep or cancel one. Each now has ``Done (enter)`` (``Done (ctrl+s)`` for a
    longer text; ``Go (enter)`` to go to a field) and ``Cancel (esc)``, drawn inside 80x24; Done on fields that hold no
    answer shows why and keeps the dialog open."""
    from textual.widgets import Input, TextArea

    from warroom.tui.author import DamageDialog, DebriefDialog, DrillInfoDialog, FaultDialog, TextDialog
    from warroom.tui.widgets import FieldScreen, TraceTable

    from .conftest import author_mode, type_text, until

    drill = tmp_path / STALE.name
    shutil.copy(STALE, drill)
    async with author_mode(drill, size=(80, 24), whole_trace=True) as (app, pilot, screen):
        table = screen.query_one(TraceTable)
        table.move_cursor(table.row_index("e03"))
        await pilot.press("x")
        assert isinstance(app.screen, TextDialog)
        await _click(pilot, "#annotate-done")  # nothing typed: refused, said, the dialog stays
        assert isinstance(app.screen, TextDialog)
        assert "write something" in str(app.screen.query_one("#annotate-error").render())
        await type_text(pilot, "only a retry")
        await _click(pilot, "#annotate-done")
        await until(pilot, lambda: app.screen is screen, "the dialog closed")
        assert screen.file.draft.distractors["e03"] == "only a retry"
        await pilot.press("d")
        assert isinstance(app.screen, DamageDialog)
        await _click(pilot, "#annotate-cancel")
        await until(pilot, lambda: app.screen is screen, "the dialog closed")
        assert "e03" not in [d.event for d in screen.file.draft.damage]
        for key, dialog in (("b", DebriefDialog), ("h", DebriefDialog), ("R", DebriefDialog), ("i", DrillInfoDialog),
                            ("l", TextDialog), ("colon", FieldScreen)):
            await pilot.press(key)
            assert isinstance(app.screen, dialog), key
            await _click(pilot, "#field-cancel" if dialog is FieldScreen else "#annotate-cancel")
            await until(pilot, lambda: app.screen is screen, f"the dialog of {key} closed")
        await pilot.press("b")
        app.screen.query_one(TextArea).text = "Watch the refund ids."
        assert str(app.screen.query_one("#annotate-done", Button).label) == "Done (ctrl+s)"
        await _click(pilot, "#annotate-done")
        await until(pilot, lambda: app.screen is screen, "the dialog closed")
        assert screen.file.draft.debrief == "Watch the refund ids."
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog)
        app.screen.query_one("#fault-kind", Input).value = "wrong_record"
        app.screen.query_one("#fault-summary", Input).value = "refunded the wrong charge"
        await pilot.pause()
        await _click(pilot, "#annotate-done")
        await until(pilot, lambda: app.screen is screen, "the dialog closed")
        assert screen.file.draft.kind == "wrong_record"


async def test_a_wide_terminal_shows_each_agent_name_whole_in_the_trace(services):
    """The trace table's agent column was 7 cells at any width: at 200 columns ``coordinator`` read ``coordi…``
    beside a summary of a hundred cells. The column now widens to the drill's longest agent name while the summary
    keeps 60 cells; at 100 columns it is cut as before (twins cut in the middle), and it follows a resize."""
    from warroom.core.library import bundled_drills_dir
    from warroom.tui.widgets import TraceTable

    from .conftest import advance, war_room

    app = make_app(services, bundled_drills_dir() / "dental-recall-calls.yaml")
    async with war_room(app, size=(200, 40), seconds=5) as (pilot, live):
        table = live.query_one(TraceTable)
        assert "e03" in table.keys  # the coordinator's first message (e02 is the lead's handoff to it)
        row = next(line for line in screen_text(app).splitlines() if " e03 " in line)
        assert " coordinator " in row and "coordi…" not in row, row
        await pilot.resize_terminal(100, 30)
        await advance(pilot, 0.5)
        row = next(line for line in screen_text(app).splitlines() if " e03 " in line)
        assert " coordi… " in row, row


async def test_a_wide_review_shows_the_answer_key_and_trainee_marks_whole(tmp_path):
    """The review's answer-key and trainee columns stopped at 14 and 22 cells at any width: at 300 columns a row read
    ``inspected at 12 s, fl…`` beside a summary of a hundred cells. They now widen to what their marks need (up to 40
    cells) while the summary keeps 60; at 100 columns they are cut as before."""
    from store_support import copy_drill

    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review
    from warroom.tui.app import ReviewApp
    from warroom.tui.screens import ReviewTable

    from .test_review import play

    data = tmp_path / "data"
    sid = play(data, copy_drill(tmp_path / "drills"))
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    async with ReviewApp(review).run_test(size=(300, 60)) as pilot:
        await pilot.pause()
        row = next(line for line in screen_text(pilot.app).splitlines() if "inspected at 12 s" in line)
        assert "inspected at 12 s, flagged, cited" in row, row
        table = pilot.app.screen.query_one(ReviewTable)
        widths = table.column_widths(table.scrollable_content_region.width)
        assert widths[3] >= 60 and widths[5] >= len("inspected at 12 s, flagged, cited")
        assert table.column_widths(100)[5] == 22  # narrower: the bound as before


async def test_the_briefing_and_the_debrief_take_j_k_g_and_capital_g_as_every_other_screen(services):
    """The picker, the war room and the review move with j k and g G; the debrief took neither (j, k, g, G did
    nothing there) and the briefing no g G. Both now scroll with them, and their help lists them."""
    from textual.containers import VerticalScroll

    from warroom.tui.screens import DebriefScreen
    from warroom.tui.widgets import HelpScreen

    from .conftest import advance, until

    app = make_app(services, speed=32.0)
    async with app.run_test(size=(80, 16)) as pilot:
        await pilot.pause()
        briefing = app.screen.query_one("#briefing", VerticalScroll)
        await pilot.press("G")
        await until(pilot, lambda: briefing.scroll_y == briefing.max_scroll_y > 0, "the briefing at its end")
        await pilot.press("g")
        await until(pilot, lambda: briefing.scroll_y == 0, "the briefing at its top")
        await pilot.press("enter")
        await advance(pilot, 10, step=1)
        assert isinstance(app.screen, DebriefScreen)
        pane = app.screen.query_one(VerticalScroll)
        await pilot.press("j", "j")
        await until(pilot, lambda: pane.scroll_y == 2, "the debrief two lines down")
        await pilot.press("k")
        await until(pilot, lambda: pane.scroll_y == 1, "the debrief a line up")
        await pilot.press("G")
        await until(pilot, lambda: pane.scroll_y == pane.max_scroll_y > 2, "the debrief at its end")
        await pilot.press("g")
        await until(pilot, lambda: pane.scroll_y == 0, "the debrief at its top")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = {key for key, _ in app.screen.keys}
        assert any("j" in key and "↓" in key for key in keys) and any("G" in key for key in keys), keys


async def test_a_title_too_long_for_the_status_bar_is_cut_with_an_ellipsis_not_dropped(services, tmp_path):
    """Textual wraps a Static's text whatever the Rich Text's ``no_wrap`` says: the status bar (one line) showed the
    words of the drill's title that fit and dropped the rest without "…", and a title whose first word did not fit
    (an imported run's id, a hyphenated name) was not shown at all. The bar now cuts it with "…"."""
    from .conftest import war_room

    title = "Reconcile-" + "-".join(["ledger"] * 20)
    drill = tmp_path / STALE.name
    drill.write_text(STALE.read_text(encoding="utf-8").replace(
        'title: "Duplicate-charge refunds for INC-4471"', f'title: "{title}"', 1), encoding="utf-8")
    async with war_room(make_app(services, drill), size=(80, 24)) as (_pilot, _live):
        top = screen_text(_pilot.app).splitlines()[0].rstrip()
        assert "Reconcile-ledger-ledger" in top and top.endswith("…"), top


async def test_a_review_with_many_notes_or_a_long_head_keeps_rows_of_its_trace(tmp_path):
    """The review's head and its notices (the facilitators' notes) took the lines they needed: a session with many
    notes, or a long title at 40x12, left the trace table no row at all (its header alone), the actions unseen. The
    head and the notices now take at most a part of the screen each, and scroll; the table keeps its rows."""
    from store_support import copy_drill

    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review
    from warroom.tui.app import ReviewApp
    from warroom.tui.screens import ReviewTable

    from .test_review import play

    data = tmp_path / "data"
    sid = play(data, copy_drill(tmp_path / "drills"))
    with ResultsStore(data) as store:
        for i in range(30):
            store.add_note(sid, author="Fran Allen", text=f"note {i}: " + "look again " * 3, at="2026-12-01T14:10:00Z")
        review = load_review(store.get(sid))
    for size in ((80, 24), (40, 12)):
        async with ReviewApp(review).run_test(size=size) as pilot:
            await pilot.pause()
            table = pilot.app.screen.query_one(ReviewTable)
            assert table.size.height - 1 >= size[1] // 4, (size, table.size)  # rows beside its header
            top = pilot.app.screen.query_one("#review-top")
            assert top.max_scroll_y > 0  # the head and the notes scroll: the last note can be read
            top.scroll_end(animate=False)
            await pilot.pause()
            assert "note 29:" in screen_text(pilot.app), screen_text(pilot.app)


async def test_at_40x12_the_war_room_shows_its_header_and_the_escalation_dialog_scrolls_to_its_buttons(services):
    """At 40x12 the war room's panes asked for 15 rows at least (6 for the trace, 6 for the inspector): the screen
    scrolled, and the header (the drill clock, PAUSED) was out of sight. And the escalation dialog, taller than the
    terminal, was cut off: its reason, evidence list and buttons could not be scrolled to. The panes now fit 12 rows,
    and a dialog taller than the terminal scrolls (the wheel; the focus moving into a field scrolls to it)."""
    from textual.widgets import Input

    from warroom.tui.room import EscalateScreen

    from .conftest import advance, war_room

    async with war_room(make_app(services), size=(40, 12), seconds=8) as (pilot, live):
        await advance(pilot, 0.5)
        assert live.scroll_y == 0 and screen_text(pilot.app).splitlines()[0].startswith(" ⏱ 00:0")
        await pilot.press("e")
        dialog = pilot.app.screen
        assert isinstance(dialog, EscalateScreen)
        box = dialog.query_one("#escalate-box")
        assert box.max_scroll_y > 0
        await pilot.press("tab")  # into the reason: scrolled into view
        await pilot.pause()
        reason = dialog.query_one("#escalate-reason", Input)
        assert box.region.contains_region(reason.region), (box.region, reason.region)
        box.scroll_end(animate=False)
        await pilot.pause()
        assert "Escalate (enter)" in screen_text(pilot.app)
        await pilot.click("#escalate-second")  # Cancel, reached
        await pilot.pause()
        assert pilot.app.screen is live


async def test_the_fault_dialogs_other_origin_is_chosen_with_the_mouse(tmp_path):
    """With two origins (a planner call: the plan, or its step) the fault dialog switched between them only with
    ctrl+o; it has an ``Other origin (ctrl+o)`` button now, and Done keeps the origin shown."""
    from textual.widgets import Input

    from warroom.core.author import open_for_annotation
    from warroom.tui.author import FaultDialog

    from .conftest import author_mode, until
    from .test_annotate import imported
    from .test_annotate_items import select

    file = open_for_annotation(imported(tmp_path, "otel", "otel/current.json", "otel-current.yaml"))
    async with author_mode(file, whole_trace=True) as (app, pilot, screen):
        await select(pilot, screen, "e0012")
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog)
        await _click(pilot, "#fault-next-origin")
        await until(pilot, lambda: "Fault origin: step p02" in screen_text(app), "the other origin shown")
        app.screen.query_one("#fault-kind", Input).value = "invented_constraint"
        app.screen.query_one("#fault-summary", Input).value = "The re-plan was wrong."
        await _click(pilot, "#annotate-done")
        await until(pilot, lambda: app.screen is screen, "the dialog closed")
        draft = screen.draft
        assert (draft.origin, draft.origin_step, draft.kind) == ("step", "p02", "invented_constraint")
