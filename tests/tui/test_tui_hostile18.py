"""Campaign 18 on the terminal UI (issue 30): what the trainee sees against what is scored, keys typed ahead of a
move of the focus, drill sets end to end; what it found and what now holds."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.color import ColorSystem
from textual.color import Color
from textual.widget import Widget
from textual.widgets import Input

from warroom.tui.widgets import Inspector, TraceTable

from .conftest import make_app, picker_ready, type_keys, type_text, war_room


async def test_keys_typed_fast_in_the_picker_go_where_the_keys_before_them_left_the_focus_and_the_cursor(
    services, monkeypatch
):
    """``/`` shows the filter box and moves the focus there, but Textual moves the focus at its next idle moment: the
    keys typed right behind ``/`` (``/dup`` typed fast, or pasted) went to the list and were lost, the filter empty;
    the keys typed right behind ``enter`` (the filter kept, back to the list) or ``escape`` went into the box (``j j``
    to move down the kept list became a filter ``…jj`` that hid every drill), and those behind ``tab`` to the list,
    not the preview. And enter runs as the app reads it while the moves ran later: ``j j enter`` typed fast opened
    the drill the cursor had left (the tutorial, first in the list)."""
    from warroom.tui.screens import BriefingScreen

    from .conftest import until

    monkeypatch.setenv("NO_COLOR", "1")  # and the banner's " WAR ROOM " (reverse red) on its panel: see below
    app = make_app(services, None)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        # under NO_COLOR the label's red is drawn bright black (8), and so was the banner's panel: grey on grey
        banner = picker.query_one("#picker-banner")
        assert _drawn(Color(0, 0, 0, 0), banner, True) != Color.from_rich_color(RichColor.from_ansi(8)), banner
        await type_text(pilot, "/refund")
        assert picker.filter_text == "refund"
        kept = picker.selected()
        await type_keys(pilot, "enter", "j")
        assert picker.filter_text == "refund" and picker.query_one("#picker-filter", Input).value == "refund"
        assert picker.selected() is not kept  # j moved down the list kept
        await type_keys(pilot, "escape", "j")
        assert picker.filter_text == "" and not picker.query_one("#picker-filter", Input).display
        await type_text(pilot, "/a/b")  # a slash typed in the box is a character of the filter
        assert picker.filter_text == "a/b"
        await type_keys(pilot, "escape", "slash", "r", "e", "f", "enter")  # all at once: the box stays shown
        assert picker.filter_text == "ref" and picker.query_one("#picker-filter", Input).display
        await type_keys(pilot, "escape", "home", "j", "j")
        third = picker.selected()
        await type_keys(pilot, "home", "tab", "j")  # into the preview: j scrolls it, the list stays
        assert picker.selected() is not third and app.focused is picker.query_one("#picker-detail")
        await type_keys(pilot, "tab", "home", "j", "j", "enter")
        await until(pilot, lambda: isinstance(app.screen, BriefingScreen), "the briefing")
        assert app.screen.entry.path == third.path


async def test_keys_typed_fast_in_the_war_room_run_in_order_and_go_where_the_focus_moved(services):
    """``enter`` inspects the selected event and moves into the inspector to scroll it; ``down`` typed right behind
    it (before the app was idle) went to the trace instead and moved its cursor, so the inspector showed another
    event than the one inspected, and ``f`` then flagged that other event. Likewise ``escape`` or ``tab`` back. And
    the war room's keys (f, e, v, enter ...) run as the app reads each key while the trace's moves ran later: ``↑ f``
    typed fast flagged the event the cursor left, ``↑ enter`` inspected it."""
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        table = live.query_one(TraceTable)
        await pilot.press("up")
        assert table.selected_key == "e05"
        await type_keys(pilot, "up", "enter", "down", "down")
        assert [(a.kind.value, a.event) for a in live.replay.actions][-1] == ("inspect", "e04")
        assert table.selected_key == "e04" and app.focused is live.query_one(Inspector)
        await type_keys(pilot, "escape", "k", "f", "enter")
        assert [(a.kind.value, a.event) for a in live.replay.actions if a.kind.value == "flag"] == [("flag", "e03")]
        assert app.focused is table
        await type_keys(pilot, "tab", "down")
        assert app.focused is live.query_one(Inspector) and table.selected_key == "e03"
        await type_keys(pilot, "tab", "down")
        assert app.focused is table and table.selected_key == "e04"


def _drawn(color: Color, widget: Widget, mono: bool) -> Color:
    """``color`` as a terminal shows it over ``widget``'s background: in monochrome (NO_COLOR: Textual's grey of
    it, then one of the 16 standard colours, as TEXTUAL_COLOR_SYSTEM=standard draws it) or as it is."""
    blended = widget.background_colors[1] + color
    if not mono:
        return blended
    return Color.from_rich_color(blended.monochrome.rich_color.downgrade(ColorSystem.STANDARD))


def _title_colour(widget: Widget) -> Color:
    """The colour a widget's border title is drawn in: its own, else (alpha 0: unset) its border's."""
    own = widget.styles.border_title_color
    return own if own.a > 0 else widget.styles.border_top[1]


async def test_every_panels_border_and_title_and_the_evidence_lists_citing_can_be_read(services, monkeypatch):
    """Under NO_COLOR (monochrome, 16 colours) a border blended toward the background, as a blurred panel's is, came
    out black on a black background: the plan's and the inspector's borders and titles were never on the screen.
    And in every terminal the escalation dialog's blurred lists drew their titles in their border's colour, rgb
    25,25,25 on 30,30,30: while the keys were in the steps, the evidence list's bottom border (``citing: e06``, what
    the escalation cites) could not be read; nor the step list's title while they were in the evidence list."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(services)
    async with war_room(app, size=(100, 30), seconds=13) as (pilot, live):
        for panel in (live.query_one("#plan"), live.query_one(Inspector), live.query_one(TraceTable)):
            border = panel.styles.border_top[1]
            assert _drawn(border, panel, True) != _drawn(Color(0, 0, 0, 0), panel, True), panel
            # a scrollbar's thumb (drawn reversed: its colour is the cell's background) was black on black too
            assert _drawn(panel.styles.scrollbar_color, panel, True) != _drawn(Color(0, 0, 0, 0), panel, True)
        await pilot.press("e")  # the keys in the steps: the reason box and the evidence list blurred
        cites = app.screen.query_one("#escalate-cites")
        assert cites.styles.border_subtitle_color == cites.styles.border_title_color  # the subtitle: "citing: …"
        _legible_title(cites)
        _legible_title(app.screen.query_one("#escalate-reason"))
        await pilot.press("tab", "tab")  # the keys in the evidence list: the steps blurred
        _legible_title(app.screen.query_one("#escalate-steps"))


def _legible_title(field: Widget) -> None:
    """``field``'s border title stands out from its background, in colour and in monochrome."""
    title, background = _title_colour(field), Color(0, 0, 0, 0)
    assert abs(_drawn(title, field, False).brightness - _drawn(background, field, False).brightness) > 0.3, field
    assert _drawn(title, field, True) != _drawn(background, field, True), field


async def test_keys_typed_right_after_enter_in_an_author_mode_dialog_go_into_the_next_field(tmp_path):
    """``warroom annotate``'s dialogs move to the next field on enter, but at the app's next idle moment: ``12⏎USD⏎``
    typed fast in the damage dialog made an amount of ``12USD``, the unit and the note untouched (and the kind of a
    fault ``stale_datathe summary``). And in its trace, as in the war room's, ``enter ↓`` scrolls the inspector and
    ``tab ↓`` moves in the trace."""
    import shutil

    from warroom.tui.author import DamageDialog

    from .conftest import STALE, author_mode

    drill = tmp_path / STALE.name
    shutil.copy(STALE, drill)
    async with author_mode(drill, size=(100, 30), whole_trace=True) as (app, pilot, screen):
        table = screen.query_one(TraceTable)
        table.move_cursor(table.row_index("e06"))
        await pilot.press("d")
        assert isinstance(app.screen, DamageDialog)
        await type_keys(pilot, "1", "2", "enter", "U", "S", "D", "enter", "n")
        fields = {field.id: field.value for field in app.screen.query(Input)}
        assert fields == {"damage-amount": "12", "damage-unit": "USD", "damage-note": "n"}
        await pilot.press("escape")
        await type_keys(pilot, "enter", "down", "down")  # the trace's keys run as read, the focus moved at once
        assert app.focused is screen.query_one(Inspector) and table.selected_key == "e06"
        await type_keys(pilot, "tab", "down")
        assert app.focused is table and table.selected_key == "e07"
