"""Campaign 13 on the terminal UI (issue 30): hostile drills, sizes and keys; what it found and what now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult

from warroom.tui.widgets import TextEditor, TextInput

from .conftest import screen_text

#: A line of drill text opening with three terminal escapes (ESC), longer than the fields below are wide.
ESCAPED = "\x1b\x1b\x1babcdefghijklmnopqrstuvwxyz0123456789"
#: The same line as a field draws it: each ESC a visible sign of one cell.
DRAWN = "␛␛␛abcdefghijklmnopqrstuvwxyz0123456789"


class _Fields(App[None]):
    """An author-mode field alone (``TextEditor`` for a debrief, ``TextInput`` for a goal) 30 cells wide."""

    CSS = "TextEditor { height: 6; width: 30; } TextInput { width: 30; }"

    def __init__(self, field: Callable[[], Any]) -> None:
        super().__init__()
        self.make_field = field

    def compose(self) -> ComposeResult:
        yield self.make_field()


def _rows(app: App[Any]) -> list[str]:
    """The text inside the field's border on each row of the screen."""
    return [row.split("▊", 1)[-1].split("▎", 1)[0].strip() for row in screen_text(app).splitlines()]


async def test_a_debrief_line_holding_escapes_is_wrapped_and_scrolled_as_drawn_and_keeps_its_text():
    """Textual's TextArea lays its lines out by Rich's cell widths, which count ESC as no cell, while the field
    draws each ESC as ␛ (one cell): a line holding three wrapped three cells too late and lost its last three
    cells (here ``xyz`` was never on the screen), and scrolled three cells short. Now the field's document holds
    the signs (laid out as drawn) and keeps the text itself beside it, through edits, undo and paste."""
    app = _Fields(lambda: TextEditor(f"{ESCAPED}\nend", soft_wrap=True))
    async with app.run_test(size=(34, 8)) as pilot:
        await pilot.pause()
        editor = app.query_one(TextEditor)
        rows = _rows(app)
        assert "".join(rows[1:3]) == DRAWN, rows  # wrapped over two rows, no cell lost
        assert editor.text == f"{ESCAPED}\nend"  # the text itself
        editor.replace("\x1b[2J", (0, 0), (0, 3))  # a paste's escape sequence over the three ESC
        assert editor.text == "\x1b[2Jabcdefghijklmnopqrstuvwxyz0123456789\nend"
        editor.undo()  # the ESC it replaced come back as they were, never as their signs
        assert editor.text == f"{ESCAPED}\nend"
        editor.focus()
        editor.move_cursor((1, 3))
        await pilot.press("x", "left", "backspace")
        assert editor.text == f"{ESCAPED}\nenx"
        editor.soft_wrap = False
        editor.load_text(ESCAPED[:29])  # three ESC and a to z: 29 cells drawn in 26
        editor.move_cursor((0, 29))
        await pilot.pause()
        assert _rows(app)[1] == DRAWN[4:29], _rows(app)  # scrolled to show the line's end and the cursor after it


async def test_a_goal_holding_escapes_scrolls_to_its_end_and_takes_clicks_where_drawn():
    """Textual's Input measured its cursor on its value as it is (ESC: no cell) while drawing each ESC as ␛: at the
    end of a goal holding three, its last three cells and the cursor were past the field's edge, and a click landed
    three characters off. Now the cursor is measured with the signs in place."""
    app = _Fields(lambda: TextInput(ESCAPED))
    async with app.run_test(size=(34, 5)) as pilot:
        await pilot.pause()
        field = app.query_one(TextInput)
        assert field.has_focus and field.cursor_position == len(ESCAPED)
        field.action_home()
        await pilot.pause()
        field.action_end()
        await pilot.pause()
        assert _rows(app)[1] == DRAWN[-23:], _rows(app)  # as a goal without escapes shows its end
        assert field.cursor_screen_offset.x == field.content_region.x + 24  # the terminal's cursor: the cell after 9
        field.cursor_position = 0
        await pilot.pause()
        await pilot.click(field, offset=(3 + 5, 1))  # the border and padding, then ␛␛␛ab: on c
        await pilot.pause()
        assert field.cursor_position == ESCAPED.index("c")
        assert field.value == ESCAPED


async def test_a_one_line_field_draws_a_line_break_and_the_controls_rich_drops_as_signs():
    """A drill's goal written as a YAML block (``goal: |``) holds line breaks: the author mode's one-line goal field
    drew them raw, the rest of the goal on the next row across the dialog. And Rich's Text drops BEL, BS, VT, FF
    and CR from what it is given, so a field's value holding one was drawn without it, its cursor and selection
    a character off per one dropped. Now each is drawn as a visible sign, the cursor on its character."""
    goal = "Pay.\nMail.\r\x07 Done"
    app = _Fields(lambda: TextInput(goal))
    async with app.run_test(size=(50, 5)) as pilot:
        await pilot.pause()
        field = app.query_one(TextInput)
        field.cursor_position = goal.index("D")
        await pilot.pause()
        rows = _rows(app)
        assert rows[1] == "Pay.␊Mail.␍␇ Done", rows
        cursor = field.get_component_rich_style("input--cursor")
        drawn = [s.text for s in field.render_line(0) if s.style is not None and s.style.bgcolor == cursor.bgcolor]
        assert drawn == ["D"], drawn
        assert field.value == goal


def test_the_inspectors_search_highlights_a_match_after_a_dotted_capital_i_where_it_is():
    """The inspector's search ignores case by searching the line lowered, and took a match's place in the lowered
    line for its place in the line itself: ``İ`` (U+0130, Turkish dotted capital I: ``İstanbul``) lowers to two
    characters, so every match after one on its line was highlighted a cell to the right per ``İ``, over other
    text. Now a match is placed in the line as shown."""
    from warroom.tui.widgets._inspector import find_matches

    assert find_matches(["İzmir, İstanbul: cursor c_8f2a"], "cursor") == [(0, 17, 23)]
    assert find_matches(["from İstanbul"], "istanbul") == [(0, 5, 13)]  # İ matches i, as a search ignoring case
    assert find_matches(["İİ x"], "İ") == [(0, 0, 1), (0, 1, 2)]  # a capital: case is not ignored


def test_the_author_modes_amounts_take_a_comma_only_between_thousands():
    """The author mode's damage amount and deadline dropped every comma of what was typed: ``1,5`` (one and a half,
    written with a decimal comma) was kept as 15 and ``2,50`` as 250, a damage or a deadline ten or a hundred times
    what the author meant, unsaid. A comma is now taken only between groups of three digits (``1,500``); anything
    else with a comma is refused, with the field's problem shown."""
    from warroom.tui.author._dialogs import parse_amount

    assert parse_amount("1,500", 0.0, strict=True) == 1500.0
    assert parse_amount(" 14,021.25 ", 0.0, strict=True) == 14021.25
    assert parse_amount("1,000,000", 0.0, strict=True) == 1_000_000.0
    for typed in ("1,5", "2,50", "12,34,567", "1,5000", ",500", "1,500,", "1,,500", "1.500,25"):
        assert parse_amount(typed, 0.0, strict=True) is None, typed
    assert parse_amount("7.5", 0.0, strict=False) == 7.5


def test_a_speed_next_to_one_offered_is_named_as_typed_when_refused():
    """``warroom run --speed 32.0000001`` was refused as ``32 is not a speed the war room offers: use one of 0.5, 1,
    2, 4, 8, 16, 32``: the speed refused written as one of those offered (six significant digits). It is now
    written as typed."""
    from click.testing import CliRunner

    from warroom.cli import main

    for typed in ("32.0000001", "0.4999999"):
        result = CliRunner().invoke(main, ["run", "tutorial", "--speed", typed])
        assert result.exit_code == 2, result.output
        assert f"{typed} is not a speed the war room offers" in result.output, result.output
    result = CliRunner().invoke(main, ["run", "tutorial", "--speed", "3"])
    assert "3 is not a speed the war room offers: use one of 0.5, 1, 2, 4, 8, 16, 32" in result.output


async def test_the_deadline_dialog_opens_on_the_deadline_as_written(tmp_path):
    """``l`` on the deadline's event opened its dialog on the deadline written with six significant digits
    (``f"{after:g}"``): a deadline of 7.1234567 s after its event read ``7.12346``, and enter (nothing typed) moved
    it; one of 1234567 s read ``1.23457e+06``. The dialog now opens on the number as written."""
    from textual.widgets import Input

    from warroom.tui.author import NumberDialog
    from warroom.tui.widgets import TraceTable

    from .conftest import STALE, author_mode

    drill = tmp_path / STALE.name
    text = STALE.read_text(encoding="utf-8")
    assert "  deadline: 37\n" in text
    drill.write_text(text.replace("  deadline: 37\n", "  deadline: {event: e04, after: 7.1234567}\n"), encoding="utf-8")
    async with author_mode(drill, size=(90, 24), whole_trace=True) as (app, pilot, screen):
        table = screen.query_one(TraceTable)
        table.move_cursor(table.row_index("e04"))
        await pilot.press("l")
        assert isinstance(app.screen, NumberDialog)
        assert app.screen.query_one(Input).value == "7.1234567"
        await pilot.press("enter")
        assert screen.draft.deadline is not None and screen.draft.deadline.after == 7.1234567


def test_re_timing_for_reading_writes_each_time_moved_exactly():
    """``warroom annotate --reading-time`` wrote each event time it moved with six significant digits: in a drill
    past 1,000 s (an imported run of half an hour, times in milliseconds) 1844.123 was written 1844.12, every
    later event moved by a few milliseconds more or less than the rest; past 100,000 s by tenths of a second. Each
    time is now written as computed."""
    from warroom.core.author._retime import retime_text

    text = ("trace:\n  - id: e1\n    t: 1834.123\n  - id: e2\n    t: 1834.5\n  - id: e3\n    t: 123456.257\n")
    out, by = retime_text(text, "e1", 10)
    assert by == 9.623
    assert "    t: 1834.123\n" in out and "    t: 1844.123\n" in out and "    t: 123465.88\n" in out, out


async def test_the_author_modes_panel_shows_each_damage_amount_as_written(tmp_path):
    """The author mode's answer-key panel (and the notice after ``d``) wrote each damage amount with six significant
    digits: 14,021.25 USD was shown as ``14021.2``, 1,234,567 records as ``1.23457e+06``. Now as written."""
    from .conftest import STALE, author_mode

    drill = tmp_path / STALE.name
    text = STALE.read_text(encoding="utf-8")
    for old, new in (("{event: e11, amount: 4413,", "{event: e11, amount: 14021.25,"),
                     ("{event: e13, amount: 4527,", "{event: e13, amount: 1234567,")):  # fmt: skip
        assert old in text
        text = text.replace(old, new)
    drill.write_text(text, encoding="utf-8")
    async with author_mode(drill, size=(160, 30)) as (app, _pilot, _screen):
        shown = screen_text(app)
        assert "e11 14021.25, e13 1234567, e15 5081" in shown, shown


def test_the_debriefs_clock_beside_a_moment_is_the_clock_of_the_moment_itself():
    """The debrief follows each moment written with a decimal (``at 23.5 s``) by what the war room's clock showed
    then, but read that clock off the text, already rounded to a tenth: an escalation at 23.46 s (the clock, and the
    trace's row, at 00:23) was written ``at 23.5 s (00:24)``. The clock is now that of the moment itself, found
    among the session's times (its events, actions, deadline); the text's own value only when none or several
    clocks match."""
    from warroom.tui.screens._debrief import on_the_clock

    assert on_the_clock("You escalated s1 at 23.5 s.", [4.0, 23.46, 30.0]) == "You escalated s1 at 23.5 s (00:23)."
    assert on_the_clock("at 23.5 s", [23.54]) == "at 23.5 s (00:24)"
    assert on_the_clock("at 23.5 s", [23.46, 23.54]) == "at 23.5 s (00:24)"  # two clocks: the text's value
    assert on_the_clock("at 1,234.5 s", []) == "at 1,234.5 s (20:35)"
