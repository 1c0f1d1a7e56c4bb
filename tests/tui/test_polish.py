"""Second new-user trial: review help and marks, meters at 80 columns, clamped totals, picker jumps, layout."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore
from warroom.store.review import load_review
from warroom.tui.logic import load_entry
from warroom.tui.render import describe_event
from warroom.tui.screens import BriefingScreen, DebriefScreen, ReviewTable
from warroom.tui.widgets import HelpScreen, Meters, TraceTable, help_rows

from .conftest import STALE, advance, make_app, picker_ready, screen_text, until

REFUNDS = STALE


def _stored_session(data: Path) -> str:
    drill = load_entry(REFUNDS).drill
    rec = SessionRecorder.start(data, "ann", REFUNDS, drill)
    replay = Replay(drill, on_action=rec.record)
    replay.advance(12)
    replay.flag("e04", "41 rows")
    replay.escalate("s3", "batch looks small")
    replay.escalate("s1", "snapshot is stale")
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    return rec.session_id


async def test_review_has_help_short_answer_key_marks_and_no_palette(tmp_path: Path):
    from warroom.tui.app import ReviewApp
    from warroom.tui.screens import ReviewScreen

    data = tmp_path / "data"
    sid = _stored_session(data)
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    app = ReviewApp(review)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("ctrl+p")
        assert app.screen is screen  # no command palette
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Review keys" in text and "ORIGIN" in text
        await pilot.press("escape")
        assert app.screen is screen
        text = screen_text(app)
        assert "EVID1" in text and "fault s" not in text  # distinct marks, not cut-off words
        head = [line.rstrip() for line in str(screen.query_one("#review-head").content).splitlines()]
        assert not any(line.endswith("·") for line in head)
        # The session's facts stay on one line at 80 columns: nothing dangles where it wraps.
        assert all(line.rstrip().endswith("·") is False for line in text.splitlines()[:4])
    async with ReviewApp(review).run_test(size=(160, 48)) as pilot:
        table = pilot.app.screen.query_one("#review-table", ReviewTable)
        width = table.scrollable_content_region.width
        widths = dict(zip((c.key for c in table.columns), table.column_widths(width), strict=True))
        assert widths["key"] <= 14 and widths["summary"] > widths["trainee"]
        used = sum(widths.values()) + 2 * table.CELL_PADDING * len(table.columns)
        # The summary takes the free width: the columns fill the table, no more.
        assert used == width


async def test_meters_fit_80_columns_once_damage_shows(services):
    app = make_app(services, drill_path=REFUNDS)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 60, step=2)
        live = app.live
        assert live.replay.damage > 0
        line = str(live.query_one(Meters).render())
        assert "damage " in line and " exec $" in line and " plan $" in line
        assert len(line) <= 80
        executor = line.rsplit(" exec ", 1)[1]
        assert executor.startswith("$") and executor[1:].replace(".", "").isdigit()  # not cut off
        shown = next(row for row in screen_text(app).splitlines() if "damage " in row)
        assert shown.rstrip().endswith(executor)


async def test_debrief_shows_the_clamped_total_line(services):
    app = make_app(services)
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("enter")
        entry = app.live.entry
        replay = Replay(entry.drill)
        replay.advance(1)
        replay.escalate("s3", "")
        replay.escalate("s2", "")
        replay.run_to_end()
        card = score(entry.drill, replay.actions)
        assert card.total == 0 and sum(c.points for c in card.components) < 0
        app.live.finished = True  # leave the live drill out of this
        app.show_debrief(entry, replay, card)
        await pilot.pause()
        assert isinstance(app.screen, DebriefScreen)
        flat = " ".join(screen_text(app).replace("│", " ").split())
        assert "clamped to 0..100" in flat and "0 of 100" in flat


async def test_picker_home_end_g_and_pages(services):
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await picker_ready(pilot)
        table = screen.query_one("#picker-table", DataTable)
        last = table.row_count - 1
        assert last > 2
        await pilot.press("end")
        assert table.cursor_row == last
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == last
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("pagedown")
        assert table.cursor_row > 0
        await pilot.press("pageup")
        assert table.cursor_row == 0
        assert any("first / last drill" in what for _, what in help_rows(app.screen))
        await pilot.press("question_mark")
        assert "home g end G" in screen_text(app)


async def test_preview_headings_and_briefing_objectives_wrap_under_themselves(services):
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(70, 120)) as pilot:  # the list takes the rows it needs, the preview the rest
        await picker_ready(pilot)
        text = screen_text(app)
        assert any(line.strip(" │") == "You are watching" for line in text.splitlines())
        await pilot.press("enter")
        assert isinstance(app.screen, BriefingScreen)
        lines = screen_text(app).splitlines()
        i = next(i for i, line in enumerate(lines) if "objective: " in line and len(line.rstrip(" │")) > 60)
        col = lines[i].index("objective: ") + len("objective: ")
        following = lines[i + 1]
        assert following[:col].strip(" │") == ""  # the wrapped objective stays in its column
        assert following[col:].strip()


async def test_timeline_keeps_its_ellipsis_with_a_scrollbar_and_inspector_labels_line_up(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 60, step=2)
        timeline = app.live.query_one(TraceTable)
        assert timeline.show_vertical_scrollbar
        width = timeline.scrollable_content_region.width
        used = sum(timeline.column_widths(width)) + 2 * timeline.CELL_PADDING * len(timeline.columns)
        assert used == width  # the summary takes what the scrollbar leaves, no more
        assert any("…" in line for line in screen_text(app).splitlines())
        ev = next(e for e in app.live.drill.trace if e.kind == "tool_call" and e.step)
        lines = describe_event(ev, app.live.index).plain.splitlines()
        labels = {line.split()[0]: line for line in lines[1:4]}
        cols = {len(line) - len(line[len(name):].lstrip()) for name, line in labels.items()}
        assert set(labels) == {"step", "objective", "tool"} and len(cols) == 1


async def test_help_fits_80x24_or_says_it_scrolls(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "escape closes" in text  # the bottom of the box is on screen
        body = app.screen.query_one("#help-body")
        if body.max_scroll_y > 0:
            assert "↑ ↓ scroll" in text
            await pilot.press("down")
            await until(pilot, lambda: body.scroll_y > 0, "scrolled down")


async def test_a_distractor_mark_is_not_cut_off_the_narrow_review_column(tmp_path: Path):
    # At 80 columns the answer-key column is 7 cells: a distractor in a cascade step showed "CASCAD…", hiding
    # DISTR, the mark that tells the row apart; the marks that tell rows apart come first.
    from warroom.tui.app import ReviewApp
    from warroom.tui.screens import key_marks

    assert key_marks(["cascade", "distractor"]).startswith("DISTR")
    assert key_marks(["fault step", "earliest evidence", "evidence"]) == "EVID1 ORIGIN"
    assert key_marks(["cascade", "damage 4413 USD"]) == "DMG CASCADE"
    drill = load_entry(REFUNDS).drill
    data = tmp_path / "data"
    rec = SessionRecorder.start(data, "bo", REFUNDS, drill)
    replay = Replay(drill, on_action=rec.record)
    replay.advance(24)
    replay.escalate("s1", "the refunds list is empty", ["e07"])
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    with ResultsStore(data) as store:
        review = load_review(store.get(rec.session_id))
    async with ReviewApp(review).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = [line for line in screen_text(pilot.app).splitlines() if " 00:23 " in line]
        assert rows and "DISTR" in rows[0], rows
