"""`?` on every screen, the escalation dialog's keys, no command palette."""

from __future__ import annotations

from warroom.core.model import ActionKind
from warroom.tui.room import EscalateScreen, WarRoomScreen
from warroom.tui.screens import BriefingScreen, DebriefScreen
from warroom.tui.widgets import HelpScreen, help_rows

from .conftest import advance, escalate, make_app, picker_ready, screen_text, type_text


async def _help_shows(pilot, title: str) -> None:
    app = pilot.app
    under = app.screen
    keys = help_rows(under)
    await pilot.press("question_mark")
    assert isinstance(app.screen, HelpScreen)
    text = screen_text(app)
    assert title in text
    for _key, what in keys:
        assert what in text, what
    await pilot.press("escape")
    assert app.screen is under


async def test_question_mark_opens_the_help_of_every_screen(services):
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await picker_ready(pilot)
        await _help_shows(pilot, "Drill picker keys")
        i = next(i for i, e in enumerate(app.screen.entries) if e.card and e.card.id == "duplicate-charge-refunds")
        app.screen.query_one("#picker-table").move_cursor(row=i)
        await pilot.press("enter")
        assert isinstance(app.screen, BriefingScreen)
        await _help_shows(pilot, "Briefing keys")
        await pilot.press("enter")
        assert isinstance(app.screen, WarRoomScreen)
        await pilot.press("question_mark")
        assert "War room keys" in screen_text(app) and "escalate to the planner" in screen_text(app)
        await pilot.press("escape")
        await advance(pilot, 12)
        await escalate(pilot, "s1")  # contained
        await advance(pilot, 5)
        assert isinstance(app.screen, DebriefScreen)
        await _help_shows(pilot, "Debrief keys")


async def test_briefing_lists_the_war_room_keys_in_a_table(services):
    app = make_app(services)
    async with app.run_test(size=(60, 60)) as pilot:
        for _ in range(8):
            await pilot.press("pagedown")
        lines = screen_text(app).splitlines()
        first = next(i for i, line in enumerate(lines) if "pause / resume the drill clock" in line)
        last = next(i for i, line in enumerate(lines) if "this help" in line)
        col = lines[first].index("pause")
        keys = {key for key, _ in help_rows(WarRoomScreen)}
        wrapped = 0
        for line in lines[first : last + 1]:
            # Each line starts with a key, or is a description wrapping under itself (nothing under the keys).
            key = line[:col].strip(" │")
            assert key in keys or key == "", line
            wrapped += key == ""
        assert wrapped >= 1  # at 60 columns some descriptions wrap


async def _open_escalate(pilot):
    await pilot.press("enter")  # leave the briefing
    await advance(pilot, 12)  # e04 (step s1) is the newest event
    await pilot.press("e")
    assert isinstance(pilot.app.screen, EscalateScreen)
    return pilot.app.live


async def test_escalate_hint_and_reason_box_show_and_escalation_needs_confirmation(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _open_escalate(pilot)
        assert "reason (optional)" in screen_text(app) and "enter escalates" in screen_text(app)
        await type_text(pilot, "s1")
        await pilot.press("enter")
        assert "y escalates" in screen_text(app)
        assert not any(a.kind is ActionKind.ESCALATE for a in live.replay.actions)
        await pilot.press("y")
        await pilot.pause()
        # practice: the dialog paused the drill; the escalation resumed it
        assert [a.kind for a in live.replay.actions] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME]
        action = live.replay.actions[1]
        assert (action.kind, action.step, action.note) == (ActionKind.ESCALATE, "s1", None)
        assert live.replay.contained


async def test_escalate_tab_and_shift_tab_move_between_the_list_and_the_reason(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _open_escalate(pilot)
        await pilot.press("j", "tab")  # s1, then to the reason box
        assert app.screen.focused.id == "escalate-reason"
        await type_text(pilot, "stale")
        await pilot.press("shift+tab")
        assert app.screen.focused.id == "escalate-steps"
        await pilot.press("down")
        assert app.screen.step == "s2"
        await pilot.press("up", "enter", "y")
        await pilot.pause()
        assert [a.kind for a in live.replay.actions] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME]
        action = live.replay.actions[1]
        assert (action.kind, action.step, action.note) == (ActionKind.ESCALATE, "s1", "stale")
        assert live.replay.contained


async def test_escalate_escape_cancels_from_the_list_and_the_reason_box(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _open_escalate(pilot)
        await type_text(pilot, "nope")
        await pilot.press("escape")
        assert app.screen is live
        await pilot.press("e", "tab")
        assert app.screen.focused.id == "escalate-reason"
        await pilot.press("escape")
        assert app.screen is live
        assert not any(a.kind is ActionKind.ESCALATE for a in live.replay.actions)
        assert not live.replay.ended


async def test_no_command_palette(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert "palette" not in screen_text(app)
        await pilot.press("ctrl+p")
        assert app.screen is live  # nothing opened: quitting always goes through the confirmation
        await pilot.press("q")
        assert "Quit this drill?" in screen_text(app)
