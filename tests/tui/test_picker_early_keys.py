"""Keys typed while the drill picker is being built or reading its drills reach the list (the flaky served test
``test_a_malformed_message_ends_only_its_session_with_one_line_in_the_log``: an enter that never opened the
briefing). Textual focuses a new screen's first focusable widget, which was the picker's filter box, hidden but
focusable, until the list took the focus a moment later: a key typed meanwhile went into the hidden box."""

from __future__ import annotations

import threading

import pytest
from textual import events
from textual.widgets import DataTable, Input

from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services
from warroom.tui.screens import BriefingScreen, PickerScreen

from .conftest import picker_ready


def _typed_while_built(monkeypatch: pytest.MonkeyPatch, key: str, character: str) -> None:
    """``key`` reaches the app while the picker is being mounted (typed ahead of it, as a browser's keys arrive while
    the app process starts): queued before anything the picker's ``on_mount`` asks for."""
    mount = PickerScreen.on_mount

    def on_mount(self: PickerScreen) -> None:
        self.app.post_message(events.Key(key, character))
        mount(self)

    monkeypatch.setattr(PickerScreen, "on_mount", on_mount)


async def test_a_key_typed_while_the_picker_is_built_moves_in_the_list_not_into_the_hidden_filter(
    services, monkeypatch
):
    _typed_while_built(monkeypatch, "j", "j")
    app = WarroomApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        box = picker.query_one("#picker-filter", Input)
        # it was a filter "j" typed into the hidden box: the drills without a "j" in their words hidden
        assert picker.filter_text == "" and box.value == "" and not box.display
        assert len(picker.entries) == len(picker._catalog) > 1
        assert picker.focused is picker.query_one("#picker-table", DataTable)


async def test_the_picker_s_list_has_the_focus_from_its_first_frame(services, monkeypatch):
    focused: list[object] = []
    mount = PickerScreen.on_mount

    def on_mount(self: PickerScreen) -> None:
        focused.append(self.focused)  # before on_mount asks for the list's focus
        mount(self)

    monkeypatch.setattr(PickerScreen, "on_mount", on_mount)
    app = WarroomApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        assert focused == [picker.query_one("#picker-table", DataTable)]


async def test_enter_while_the_drills_are_read_again_opens_the_drill_shown_under_the_cursor(tmp_path, monkeypatch):
    """``r`` reads the drills again in a worker; the list read before stays on screen meanwhile, and enter opens the
    drill under the cursor (here listed from the picker's cache, so read from its file by another worker) before the
    new list has come."""
    from warroom.core.library import _cache as cardcache

    monkeypatch.setattr(cardcache, "RECENT_NS", -1)  # cache the bundled drills whatever their age

    def services() -> Services:
        return Services(trainee="t", data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")

    services().catalog()  # an earlier start wrote the cache: this one lists its drills from it
    mine = services()
    app = WarroomApp(mine)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        entry = picker.selected()
        assert entry is not None and entry.drill is None  # from the cache
        release = threading.Event()
        catalog = mine.catalog
        monkeypatch.setattr(mine, "catalog", lambda: release.wait(30) and catalog())
        await pilot.press("r")
        await pilot.pause()
        assert picker.loading  # the reading worker waits
        await pilot.press("enter")
        for _ in range(200):
            if isinstance(app.screen, BriefingScreen):
                break
            await pilot.pause(0.05)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.screen.entry.path == entry.path


async def test_enter_pressed_as_the_terminal_is_resized_opens_the_drill_listed_from_the_cache(tmp_path, monkeypatch):
    """A resize re-adds the list's columns and rows at their new widths (:func:`fit_columns`, once at once and once
    after the next layout); an enter pressed meanwhile opens the drill under the cursor, read from its file."""
    from warroom.core.library import _cache as cardcache

    monkeypatch.setattr(cardcache, "RECENT_NS", -1)
    Services(trainee="t", data_dir=tmp_path / "data", cache_dir=tmp_path / "cache").catalog()
    app = WarroomApp(Services(trainee="t", data_dir=tmp_path / "data", cache_dir=tmp_path / "cache"))
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
        entry = picker.selected()
        assert entry is not None and entry.drill is None
        await pilot.resize_terminal(120, 30)
        await pilot.press("enter")  # before the layout that follows the resize
        await app.workers.wait_for_complete()
        for _ in range(100):
            if isinstance(app.screen, BriefingScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, BriefingScreen) and app.screen.entry.path == entry.path


async def test_enter_opens_the_briefing_even_when_the_hidden_filter_box_holds_the_focus(services):
    """However the hidden filter box comes to hold the focus (Textual's default focus, or its giving the focus back,
    on the first key after an app blur, to the widget focused when the app was blurred), it never takes the list's
    keys: enter opens the briefing of the drill under the cursor (it was the box's, 'start' refused while the box
    had the focus, and swallowed)."""
    app = WarroomApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        box = picker.query_one("#picker-filter", Input)
        picker.set_focus(box)
        await pilot.pause()
        assert picker.focused is box and not box.display
        await pilot.press("enter")
        for _ in range(100):
            if isinstance(app.screen, BriefingScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, BriefingScreen)


async def test_a_picker_whose_widgets_are_gone_does_not_load(services):
    """A served tab closed while its app process was starting: the app closed the picker's widgets while the
    picker still asked to (re)load, and ``load`` raised ``NoMatches: '#picker-detail-body'``, a traceback the
    server's log copied (campaign 9). Now a picker without its widgets loads nothing."""
    app = WarroomApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        await picker.query_one("#picker-detail-body").remove()
        picker.loading = False
        picker.load()  # raised NoMatches
        await pilot.pause()
        assert picker.loading is False
