"""Defects found by driving ``warroom annotate`` end to end on hand-written traces, each with its test."""

from __future__ import annotations

from textual.clock import MockClock

from warroom.core.author import open_for_annotation
from warroom.tui.app import AnnotateApp
from warroom.tui.author import DebriefDialog
from warroom.tui.widgets import ConfirmScreen, Inspector, TraceTable

from .conftest import advance, author_mode, make_app, record_notifications, type_text
from .test_annotate import imported, select


async def test_ctrl_c_with_unsaved_marks_asks_before_quitting(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text()
    async with author_mode(path) as (app, pilot, screen):
        await pilot.press("E")
        await select(pilot, screen, "m003")
        await pilot.press("v")
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("n")
        assert app.screen is screen and screen.draft.evidence == ["m003"]
        await pilot.press("b")
        await type_text(pilot, "half a debrief")
        await pilot.press("ctrl+c")  # over an open dialog: asks too, and no goes back to the dialog's text
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, DebriefDialog)
        await pilot.press("ctrl+s")
        assert screen.draft.debrief == "half a debrief"
        await pilot.press("ctrl+c", "ctrl+c")  # a second ctrl+c at the question leaves
        await pilot.pause()
    assert app.return_code == 0 and path.read_text() == before


async def test_ctrl_c_with_everything_saved_quits_at_once(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
    assert app.return_code == 0


async def test_the_selected_event_is_shown_in_the_inspector(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(120, 40)) as (_, pilot, screen):
        await pilot.press("E", "g")
        inspector = screen.query_one(Inspector)
        assert inspector.text.startswith("m000 ·"), inspector.text
        await select(pilot, screen, "m003")
        assert inspector.text.startswith("m003 · result"), inspector.text
        await pilot.press("k")
        await pilot.pause()
        assert not inspector.text.startswith("m003"), inspector.text


async def test_a_long_error_in_a_dialog_wraps_inside_it_and_is_read_in_full(tmp_path):
    from textual.widgets import Label

    from .test_annotate_items import author_mode, stripped
    from .test_annotate_items import select as select_event

    path = stripped(tmp_path, "privilege-screen-production")
    async with author_mode(open_for_annotation(path)) as (app, pilot, screen):
        await select_event(pilot, screen, "e07")
        await pilot.press("f")
        await type_text(pilot, "summary.privilege_flags.withhold")
        await pilot.press("enter")
        dialog = app.screen
        label = dialog.query_one("#annotate-error", Label)
        box = dialog.query_one("#annotate-box")
        assert "the keys there: " in str(label.content)
        assert box.content_region.contains_region(label.region), (label.region, box.content_region)
        assert label.region.height >= 2  # wrapped, not cut at the dialog's edge


#: The answer key of the walk-through (docs/importing.md) for the otel fixture's drill, written by hand.
OTEL_KEY = """
answer_key:
  fault: {origin_step: p01, kind: pagination_truncated, summary: scout fetched one page of two.}
  evidence: [e0009]
  damage: {unit: USD late fees, entries: [{event: e0017, amount: 184.5}]}
  deadline: {event: e0009, after: 8}
  debrief: e0009 says returned 20 of total 40 with a next_cursor.
"""


def test_a_field_of_an_output_held_as_json_text_is_found_on_its_line():
    from warroom.tui.widgets import find_json_key_line

    lines = ["e0009 · result · 00:07", "output (raw)", '{"month": "2026-03", "returned": 20,', '"next_cursor": "c2"}']
    assert find_json_key_line(lines, "next_cursor") == 3
    assert find_json_key_line(lines, "invoice_ids[3]") == 2  # the key is not on a line of its own: the output's start
    assert find_json_key_line(lines[:1], "next_cursor") is None


async def test_colon_goes_to_a_field_of_an_imported_result_in_the_author_mode(tmp_path):
    path = imported(tmp_path, "otel", "otel/current.json", "otel-current.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        notes = record_notifications(app)
        screen = app.screen
        await pilot.press("E")
        await select(pilot, screen, "e0009")
        for path_typed in ("next_cursor", "invoice_ids[19]", "no_such_field"):
            await pilot.press("colon")
            await type_text(pilot, path_typed)
            await pilot.press("enter")
            await pilot.pause()
        assert notes == ["e0009 next_cursor = c2", "e0009 invoice_ids[19] = INV-2026-0320",
                         "No field no_such_field in e0009: `no_such_field` is not one of its fields; its fields: "
                         "month, returned, total, next_cursor, invoice_ids."]
        assert screen.fields == {"e0009": "invoice_ids[19]"}  # the last one that is there, offered by f


async def test_colon_goes_to_a_field_of_an_imported_result_in_the_war_room(tmp_path, services):
    path = imported(tmp_path, "otel", "otel/current.json", "otel-current.yaml")
    path.write_text(path.read_text() + OTEL_KEY)
    app = make_app(services, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 8.5)
        live = app.live
        await pilot.press("space")
        notes = record_notifications(app)
        table = live.query_one(TraceTable)
        table.move_cursor(table.row_index("e0009"))
        await pilot.pause()
        inspector = live.query_one(Inspector)
        await pilot.press("colon")
        await type_text(pilot, "next_cursor")
        await pilot.press("enter")
        await pilot.pause()
        assert notes == ["e0009 next_cursor = c2"]
        lines = inspector.text.splitlines()
        at = next(i for i, line in enumerate(lines) if '"next_cursor":' in line)
        top = round(inspector.scroll_y)
        assert top <= at < top + inspector.scrollable_content_region.height


async def test_enter_moves_into_the_inspector_as_the_help_says(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path) as (app, pilot, screen):
        await pilot.press("E")
        await select(pilot, screen, "m003")
        await pilot.press("enter")
        assert app.focused is screen.query_one(Inspector)
        await pilot.press("tab")  # back to the trace, still on the event
        assert app.focused is screen.query_one(TraceTable) and screen.query_one(TraceTable).selected_key == "m003"
        await pilot.press("v")
        assert screen.draft.evidence == ["m003"]


async def test_the_debrief_dialog_says_how_its_lines_are_shown(tmp_path):
    from warroom.tui.render import prose

    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("b")
        assert isinstance(app.screen, DebriefDialog)
        hint = " ".join(str(label.content) for label in app.screen.query(".dialog-hint"))
        assert "a blank line starts a paragraph (the debrief joins the lines of one" in hint
    # what the hint says is what the debrief does
    assert prose("one\ntwo\n\nthree\n- four") == "one two\n\nthree\n- four"


async def test_the_footer_shows_save_quit_and_help_in_80_columns(tmp_path):
    from warroom.tui.widgets import HelpScreen, help_rows

    from .conftest import screen_text

    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        for key in ("o Origin", "v Evidence", "x Distractor", "d Damage", "s Save", "q Quit", "? Help"):
            assert key in footer, footer
        text = screen_text(app)
        assert "deadline (l)" in text and "debrief (b)" in text  # the keys the footer leaves out: in the panel
        assert "Recommended:" in text and "habit (h)" in text  # not required, but validate warns without one
        screen = app.screen
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = {row[0]: row[1] for row in help_rows(screen)}
        assert rows["l"].startswith("the deadline") and rows["b"].startswith("write the debrief")


async def test_the_fault_dialog_shows_its_keys_and_errors_in_80_by_24(tmp_path):
    from warroom.tui.author import FaultDialog

    from .conftest import screen_text

    path = imported(tmp_path, "otel", "otel/current.json", "otel-current.yaml")
    async with author_mode(path, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("E")
        await select(pilot, screen, "e0009")
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog)
        assert "enter: next field, then done · escape cancels" in screen_text(app)
        await type_text(pilot, "bogus")
        await pilot.press("enter")
        await type_text(pilot, "one page of two")
        await pilot.press("enter")
        await pilot.pause()
        assert "bogus is not a fault kind; pick one of those listed" in screen_text(app)
        box = app.screen.query_one("#annotate-box")
        box.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        assert "environment_setup_failed, other" in screen_text(app)  # the whole list can be scrolled to


async def test_a_save_that_fails_keeps_the_marks_and_says_what_to_do(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        notes = record_notifications(app)
        screen = app.screen
        await pilot.press("E")
        await select(pilot, screen, "m003")
        await pilot.press("v")
        text = path.read_text()
        path.unlink()  # moved away while marking
        await pilot.press("s")
        assert not screen.saved and screen.draft.evidence == ["m003"]
        assert notes[-1].startswith(f"{path}: cannot read the drill file")
        assert notes[-1].endswith("Your marks are kept here: fix the file (or put it back) and press s again.")
        path.write_text(text)
        await pilot.press("s")
        assert screen.saved and open_for_annotation(path).draft.evidence == ["m003"]
