"""Every screen's help is built from its key bindings: every binding appears in it, with its help text, and nothing
else does (warroom.tui.widgets._keyhelp)."""

from __future__ import annotations

from textual.binding import Binding

from warroom.tui.logic import hidden_actions
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import BriefingScreen, DebriefScreen, PickerScreen, ReviewScreen
from warroom.tui.widgets import HelpScreen, TraceTable, help_rows, key_label

from .conftest import advance, escalate, make_app, screen_text, until

SCREENS = (PickerScreen, BriefingScreen, WarRoomScreen, DebriefScreen, ReviewScreen)


def _bindings(screen: type, hidden: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """(key as shown, help text) of every key the screen and its HELP_WIDGETS bind, read from the BINDINGS of
    their warroom classes (Textual's own base classes left out, as documented), but for the actions the screen's
    help leaves out (``hidden``, default its HELP_HIDDEN)."""
    hidden = getattr(screen, "HELP_HIDDEN", ()) if hidden is None else hidden
    out = []
    for cls in (screen, *getattr(screen, "HELP_WIDGETS", ())):
        helps = getattr(cls, "KEY_HELP", {})
        for klass in cls.__mro__:
            if klass.__module__.startswith("warroom.") and "BINDINGS" in vars(klass):
                for b in Binding.make_bindings(vars(klass)["BINDINGS"]):
                    if b.action not in hidden:  # a key_display may name several keys ("+ =")
                        for label in b.key_display.split() if b.key_display else [key_label(b.key)]:
                            out.append((label, helps.get(b.action) or b.tooltip))
    return out


def test_every_binding_is_in_its_screens_help_and_nothing_else():
    for screen in SCREENS:
        rows = help_rows(screen)
        bound = _bindings(screen)
        assert rows, screen
        for label, text in bound:
            assert text, f"{screen.__name__}: the binding of {label!r} has no help text"
            assert any(label in keys.split(" ") and what == text for keys, what in rows), (screen, label, text)
        for keys, what in rows:
            for label in keys.split(" "):
                assert (label, what) in bound, f"{screen.__name__}'s help lists {label!r} ({what}), which is not bound"
        assert len({what for _, what in rows}) == len(rows)  # one row per help text


def test_the_war_rooms_help_in_each_mode_lists_exactly_the_keys_that_mode_has():
    practice = help_rows(WarRoomScreen, hidden_actions("practice"))
    assessment = help_rows(WarRoomScreen, hidden_actions("assessment"))
    assert practice == help_rows(WarRoomScreen)  # practice is the class's own help
    for rows, mode in ((practice, "practice"), (assessment, "assessment")):
        bound = _bindings(WarRoomScreen, hidden_actions(mode))
        keys_of = {what: keys for keys, what in rows}
        assert set(keys_of) == {what for _, what in bound}, mode
        assert all(label in keys_of[what] for label, what in bound), mode
    texts = {what: keys for keys, what in assessment}
    assert "pause / resume the drill clock" not in texts and "slower playback" not in texts
    assert texts["assessment: the drill clock runs at 1x and cannot be paused (refused with a notice)"] == "space + = -"
    assert not any("assessment" in what for _, what in practice)


def test_the_trace_tables_keys_are_in_the_war_room_help_in_its_own_words():
    rows = dict((what, keys) for keys, what in help_rows(WarRoomScreen))
    assert rows["inspect the selected event"] == "enter"
    assert rows["the newest event, following new events again (moving or inspecting stops following)"] == (
        "end G ctrl+end"
    )
    assert rows["pause / resume the drill clock"] == "space"  # two bindings of one key (pause, resume), one row
    assert set(TraceTable.KEY_HELP.values()) <= set(rows)


async def _help_of(pilot) -> tuple[str, list[tuple[str, str]]]:
    app = pilot.app
    under = app.screen
    await pilot.press("question_mark")
    assert isinstance(app.screen, HelpScreen)
    text, keys = screen_text(app), list(app.screen.keys)
    await pilot.press("escape")
    assert app.screen is under
    assert keys == help_rows(under)
    return text, keys


async def test_the_help_each_screen_opens_shows_its_bindings(services):
    app = make_app(services)
    async with app.run_test(size=(120, 60)) as pilot:
        shown = {}
        shown["briefing"] = await _help_of(pilot)
        await pilot.press("enter")
        assert isinstance(app.screen, WarRoomScreen)
        shown["war room"] = await _help_of(pilot)
        await advance(pilot, 12)
        await escalate(pilot, "s1")
        await advance(pilot, 5)
        assert isinstance(app.screen, DebriefScreen)
        shown["debrief"] = await _help_of(pilot)
        for name, (text, rows) in shown.items():
            for keys, what in rows:
                assert keys in text and what[:40] in text, (name, keys, what)


async def test_the_briefings_home_and_end_are_in_its_help(services):
    # home and end move the briefing to its top and end (they did through Textual's own scroll bindings, which the
    # help leaves out, so the help did not list them).
    from textual.containers import VerticalScroll

    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        briefing = app.screen.query_one("#briefing", VerticalScroll)
        assert briefing.max_scroll_y > 0
        await pilot.press("end")
        await until(pilot, lambda: briefing.scroll_y == briefing.max_scroll_y, "at the briefing's end")
        await pilot.press("home")
        await until(pilot, lambda: briefing.scroll_y == 0, "at the briefing's top")
        text, rows = await _help_of(pilot)
        keys = dict((what, keys) for keys, what in rows)
        assert keys["the top / end of the briefing"] == "home g ctrl+home end G ctrl+end"
        assert "home g ctrl+home end G ctrl+end" in text


async def test_the_war_rooms_help_and_footer_name_equals_beside_plus(tmp_path):
    """`=` (`+` unshifted) speeds playback up too: the help's row and the footer say `+ =`, in 80 columns, and in
    assessment mode the refused keys include it; `=` does speed up."""
    from warroom.tui.logic import Services

    from .conftest import STALE

    for mode in ("practice", "assessment"):
        services = Services(trainee="ann", data_dir=tmp_path / mode, mode=mode)
        app = make_app(services, STALE)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            assert isinstance(app.screen, WarRoomScreen)
            live = app.screen
            footer = screen_text(app).splitlines()[-1]
            assert "? Help" in footer, footer  # every key still fits in 80 columns
            await pilot.press("question_mark")
            lines = [" ".join(line.split()) for line in screen_text(app).splitlines()]
            await pilot.press("escape")
            if mode == "practice":
                assert "+ = Faster" in footer
                assert any(" + = faster playback (0.5x" in line for line in lines), lines
                await pilot.press("equals_sign")
                assert live.speed == 2.0
            else:
                assert "space + = - 1x, no pause" in footer
                assert any(" space + = - assessment: the drill clock" in line for line in lines)
                await pilot.press("equals_sign")
                assert live.speed == 1.0
