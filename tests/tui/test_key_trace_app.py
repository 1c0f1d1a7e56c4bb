"""The app's side of the key trace (``$WARROOM_KEY_TRACE``, docs/serve.md "Tracing a tab's keys"): each key it
receives with the focus, the screens and the picker's state, what enter on the picker did, the briefing opened."""

from __future__ import annotations

import re

from textual import events

from warroom.tui.app import WarroomApp
from warroom.tui.screens import BriefingScreen

from .conftest import picker_ready, until


async def test_enter_on_the_picker_is_traced_from_the_key_to_the_briefing(services, tmp_path, monkeypatch):
    trace = tmp_path / "keys.trace"
    monkeypatch.setenv("WARROOM_KEY_TRACE", str(trace))
    app = WarroomApp(services)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        first = picker.selected()
        assert first is not None
        app.post_message(events.AppBlur())  # as textual-serve's terminal blurs the app as it starts
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, BriefingScreen), "showing the briefing")
        listed = len(picker.entries)
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert all(re.match(r"\d+\.\d{3} app\d+ ", line) for line in lines), lines
    said = [line.split(" ", 2)[2] for line in lines]
    name, opened = first.path.name, f"briefing of {first.path.name} opened"
    assert said[:2] == [
        "AppBlur: focus DrillTable(id='picker-table'), screens Screen > PickerScreen; picker loading False, "
        f"{listed} drills listed, {listed} rows, opening none",
        "key 'enter': focus None, screens Screen > PickerScreen; picker loading False, "
        f"{listed} drills listed, {listed} rows, opening none",
    ]
    assert said[2] in (f"start: {name}", f"start: {name}, read from its file first") and said[-1] == opened
