"""Finding text in the inspector as in `less` (issue 35 item 5): `/` asks for a text, every place it appears is
highlighted and the inspector scrolls to the first; `n` and `N` go to the next and previous place, wrapping around;
the bottom border counts them; `:` still goes to a field path. Also the trace's event-id column."""

from __future__ import annotations

from warroom.tui.widgets import FieldScreen, Inspector, SearchScreen, TraceTable
from warroom.tui.widgets._inspector import find_matches

from .conftest import advance, make_app, record_notifications, screen_text, type_text


def test_matches_are_found_in_every_line_ignoring_case_unless_a_capital_is_typed():
    lines = ["next_cursor: c_9f2a", "Cursor again", "total: 412 · cursor"]
    assert find_matches(lines, "cursor") == [(0, 5, 11), (1, 0, 6), (2, 13, 19)]
    assert find_matches(lines, "Cursor") == [(1, 0, 6)]  # a capital: exact case
    assert find_matches(["日本 cursor"], "cursor") == [(0, 5, 11)]  # wide characters count two cells
    assert find_matches(lines, "") == [] and find_matches(lines, "absent") == []


async def test_slash_finds_a_text_n_and_shift_n_go_through_its_places(services):
    app = make_app(services)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)  # e06: the duplicate-charge query's result, with dates of 2026 in it
        live = app.live
        assert live.query_one(TraceTable).selected_key == "e06"
        told = record_notifications(app)
        await pilot.press("slash")
        assert isinstance(app.screen, SearchScreen)
        await type_text(pilot, "2026")
        await pilot.press("enter")
        await pilot.pause()
        inspector = live.query_one(Inspector)
        count = len(inspector.matches)
        assert count >= 4 and inspector.current_match == 0
        assert inspector.border_subtitle == f"/2026 1 of {count}"
        assert f"/2026 1 of {count}" in screen_text(app)
        first_line = inspector.matches[0][0]
        await pilot.press("n", "n")
        assert inspector.current_match == 2 and inspector.border_subtitle == f"/2026 3 of {count}"
        line = inspector.matches[2][0]
        top = round(inspector.scroll_y)
        assert top <= line < top + inspector.scrollable_content_region.height  # scrolled to it
        await pilot.press("N", "N", "N")  # back past the first: wraps to the last
        assert inspector.current_match == count - 1
        assert any("Search wrapped to the bottom" in m for m in told)
        assert first_line <= inspector.matches[-1][0]
        # The search stays for the next event: its places are found again.
        await pilot.press("k")
        assert inspector.current_match is None and inspector.border_subtitle.startswith("/2026")
        # A text that is nowhere says so.
        await pilot.press("slash")  # the last text is offered, selected: typing replaces it
        await pilot.pause()
        assert app.screen.query_one("#search-text").value == "2026"
        await type_text(pilot, "zzz-nowhere")
        await pilot.press("enter")
        await pilot.pause()
        assert inspector.matches == [] and any("No “zzz-nowhere” in e05" in m for m in told)
        # `:` still goes to a field path.
        await pilot.press("colon")
        assert isinstance(app.screen, FieldScreen)
        await pilot.press("escape")


async def test_the_trace_shows_event_ids_and_the_agent_column_folds_away_at_80_columns(services):
    from warroom.core.author._examples import example_path

    app = make_app(services, example_path("full"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 16)
        table = app.live.query_one(TraceTable)
        text = screen_text(app)
        header = next(line for line in text.splitlines() if "summary" in line)
        assert "⚑ id" in header and "agent" not in header  # folded at 80 columns
        assert any(f" {table.keys[-1]} " in line for line in text.splitlines())  # each row names its event
        widths = dict(zip((c.key for c in table.columns), table.column_widths(table.scrollable_content_region.width),
                          strict=True))
        assert widths["agent"] == 0 and widths["summary"] >= 20, widths
        app.close_open_session()  # as the app's launcher does: the next app may start the drill again
    app = make_app(services, example_path("full"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 16)
        header = next(line for line in screen_text(app).splitlines() if "summary" in line)
        assert "agent" in header  # room enough: shown
