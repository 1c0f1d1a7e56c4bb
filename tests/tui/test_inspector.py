"""The inspector: a huge tool result is laid out in a worker thread, the UI shows its header at once."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

import warroom.tui
from warroom.core.load import load_drill
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event, payload_chars
from warroom.tui.widgets import BACKGROUND_CHARS, START_DELAY, Inspector

from .conftest import STALE, screen_text


class InspectorApp(App[None]):
    CSS_PATH = Path(warroom.tui.__file__).parent / "warroom.tcss"

    def compose(self) -> ComposeResult:
        yield Inspector(id="inspector")


def result_event(output: object):
    drill = load_drill(STALE)
    ev = next(e for e in drill.trace if e.kind == "tool_result")
    return drill, ev.model_copy(update={"output": output})


def test_payload_chars_counts_the_free_form_payload():
    drill, ev = result_event({"rows": "x" * 10})
    assert payload_chars(ev) == len('{"rows": "xxxxxxxxxx"}')
    assert payload_chars(ev.model_copy(update={"output": "é" * 7})) == 7
    report = next(e for e in drill.trace if e.kind == "executor_report")
    assert payload_chars(report) == len(report.content)


async def test_a_small_event_shows_at_once():
    drill, ev = result_event({"ok": True, "note": "[bold]not markup[/bold] \x1b[31m"})
    app = InspectorApp()
    async with app.run_test(size=(80, 20)) as pilot:
        inspector = app.query_one(Inspector)
        inspector.show_event(ev, TraceIndex(drill))
        assert not inspector.pending
        assert inspector.text == describe_event(ev, TraceIndex(drill)).plain
        await pilot.pause()
        text = screen_text(app)
        assert "[bold]not markup[/bold]" in text and "\\x1b[31m" in text and "\x1b" not in text


async def test_a_200_kb_result_is_laid_out_in_a_worker_and_a_newer_selection_wins():
    line = "".join(f"row {i:06d}; " for i in range(200_000 // 12))
    drill, big = result_event(line)
    assert payload_chars(big) > BACKGROUND_CHARS
    app = InspectorApp()
    async with app.run_test(size=(80, 20)) as pilot:
        inspector = app.query_one(Inspector)
        inspector.show_event(big, TraceIndex(drill))
        assert inspector.pending and inspector.text == ""
        # Until the worker hands the body over (on this event loop, so not before the next await): the header.
        assert "e31 · result" in inspector.render_line(0).text  # the drill's first tool result, its count query's
        assert f"laying out {len(line):,} characters…" in inspector.render_line(1).text
        await pilot.pause(START_DELAY * 2)  # the worker starts once the selection has stayed put
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not inspector.pending
        assert inspector.text == describe_event(big, TraceIndex(drill)).plain
        assert "row 000000; row 000001;" in screen_text(app)
        assert inspector.max_scroll_y > 2000  # every wrapped line of the 200 KB line is there to scroll to
        await pilot.press("tab")
        inspector.focus()
        await pilot.press("end")
        await pilot.pause()
        assert f"row {len(line) // 12 - 1:06d};" in screen_text(app)
        # A big event selected and then a small one: the small one stays when the worker finishes.
        inspector.show_event(big, TraceIndex(drill))
        _, small = result_event({"ok": "small"})
        inspector.show_event(small, TraceIndex(drill))
        await pilot.pause(START_DELAY * 2)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert inspector.text == describe_event(small, TraceIndex(drill)).plain
        assert 'ok: small' in screen_text(app)


async def test_the_scroll_range_follows_the_body_between_short_and_long_events():
    """The inspector keeps its scrollbar and sets a new body's height without laying the screen out again
    (Inspector._fit_virtual_size); the scroll range must still be exactly the body's overflow."""
    drill, short = result_event({"ok": True})
    long = short.model_copy(update={"output": {f"row{i}": i for i in range(60)}})
    longer = short.model_copy(update={"output": {f"row{i}": i for i in range(90)}})
    app = InspectorApp()
    async with app.run_test(size=(80, 20)) as pilot:
        inspector = app.query_one(Inspector)
        view = inspector.scrollable_content_region.height
        for event in (short, long, short, longer, long, short):
            inspector.show_event(event, TraceIndex(drill))
            await pilot.pause()
            lines = len(describe_event(event, TraceIndex(drill)).plain.splitlines())
            assert inspector.show_vertical_scrollbar
            assert inspector.max_scroll_y == max(0, inspector.virtual_size.height - view)
            if lines > view:
                assert inspector.virtual_size.height >= lines
                inspector.scroll_end(animate=False, immediate=True)
                await pilot.pause()
                assert inspector.scroll_y == inspector.max_scroll_y > 0
                assert inspector.vertical_scrollbar.window_virtual_size == inspector.virtual_size.height
            else:
                assert inspector.max_scroll_y == 0 and inspector.virtual_size.height == view


async def test_a_layout_is_kept_by_content_and_a_changed_body_is_laid_out_again(monkeypatch):
    """Going back to an event shown a moment ago reuses its layout; the cache is keyed by the body's content and
    the width, so a body that changed (another event, the same event with other content) is laid out again."""
    import warroom.tui.widgets._inspector as inspector_module

    widths: list[int] = []
    lay_out = inspector_module._lay_out
    def counted(body, width):
        widths.append(width)
        return lay_out(body, width)

    monkeypatch.setattr(inspector_module, "_lay_out", counted)
    drill, first = result_event({"ok": True})
    second = first.model_copy(update={"output": {"ok": False, "why": "changed"}})
    app = InspectorApp()
    async with app.run_test(size=(80, 20)) as pilot:
        inspector = app.query_one(Inspector)
        await pilot.pause()
        width = inspector.scrollable_content_region.width
        widths.clear()  # the empty body laid out when the inspector got its size
        inspector.show_event(first, TraceIndex(drill))
        await pilot.pause()
        assert widths == [width]
        inspector.show_event(second, TraceIndex(drill))  # the same event id, other output: laid out again
        await pilot.pause()
        assert widths == [width, width]
        assert inspector.text == describe_event(second, TraceIndex(drill)).plain
        assert "why: changed" in screen_text(app)
        inspector.show_event(first, TraceIndex(drill))  # back to the first body: its layout is reused
        await pilot.pause()
        assert widths == [width, width]
        assert inspector.text == describe_event(first, TraceIndex(drill)).plain
        assert "why: changed" not in screen_text(app) and "ok: true" in screen_text(app)
        await pilot.resize_terminal(60, 20)  # another width: laid out for it, not the kept one
        await pilot.pause()
        narrow = inspector.scrollable_content_region.width
        assert narrow < width and widths[-1] == narrow
        assert all(inspector.render_line(y).cell_length == narrow for y in range(3))


async def test_a_war_room_opening_lays_its_first_event_out_once_at_the_inspectors_width(services, monkeypatch):
    """The war room selects its first event while it is being mounted, before the inspector has a width: the body
    waits for the inspector's size instead of being laid out one cell wide first (a line per character: 5,663 lines
    for a 5,768-character body), and it is on screen once the war room is."""
    import warroom.tui.widgets._inspector as inspector_module
    from warroom.tui.room import WarRoomScreen

    from .conftest import make_app

    widths: list[int] = []
    lay_out = inspector_module._lay_out

    def counted(body, width):
        widths.append(width)
        return lay_out(body, width)

    monkeypatch.setattr(inspector_module, "_lay_out", counted)
    app = make_app(services)
    async with app.run_test(size=(120, 40)) as pilot:
        widths.clear()  # the briefing
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, WarRoomScreen)
        inspector = app.screen.query_one(Inspector)
        width = inspector.scrollable_content_region.width
        assert width > 1 and widths == [width]
        first_line = inspector.text.splitlines()[0]
        assert first_line and first_line in screen_text(app)


def test_a_list_index_counts_the_lists_own_items_not_those_of_a_list_nested_in_one():
    """A new trainee's `:results[2].name` on harbor-outage-credit's account search: the second account's
    `open_cases` list has an item of its own, counted as `results[2]`, so the path was not found in the lines and
    the inspector fell back to the output's first line, the field off screen, while the notice gave its value."""
    from warroom.tui.widgets._fieldjump import find_field_line

    lines = [
        "output (raw)", "total: 3", "results:",
        "  -", "    account_id: A1", "    name: Harbor Freight Partners", "    open_cases: []",
        "  -", "    account_id: A2", "    name: Harborview Health", "    open_cases:",
        "      -", "        case: CS-7741", "        subject: 18 Nov outage",
        "  -", "    account_id: A3", "    name: Harbor & Finch", "    open_cases: []",
    ]
    assert find_field_line(lines, "results[2].name") == 16
    assert find_field_line(lines, "results[1].open_cases[0].case") == 12
    assert find_field_line(lines, "results[3]") is None
