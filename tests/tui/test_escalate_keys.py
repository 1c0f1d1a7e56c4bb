"""The escalation dialog: the step list stops at its ends, and every key typed right after `e` reaches it."""

from __future__ import annotations

from textual import events

from warroom.core.actions import ActionKind
from warroom.tui.modals import EscalateScreen

from .conftest import advance, make_app


async def _war_room(pilot):
    await pilot.press("enter")  # leave the briefing
    await advance(pilot, 12)  # e04 (step s1) is the newest event
    return pilot.app.live


async def test_up_stops_at_the_first_step_and_down_at_the_last(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, EscalateScreen) and screen.step == "s1"
        await pilot.press("up", "up", "up")
        assert screen.step == "s1"  # no wrap-around to the last step
        last = live.drill.plan[-1].id
        await pilot.press(*["down"] * (len(live.drill.plan) + 3))
        assert screen.step == last  # no wrap-around to the first
        await pilot.press("tab")  # the list itself has the focus: same ends
        assert screen.focused.id == "escalate-steps"
        await pilot.press("down")
        assert screen.step == last
        await pilot.press(*["up"] * (len(live.drill.plan) + 3))
        assert screen.step == "s1"


def _key(name: str) -> events.Key:
    return events.Key(name, name if len(name) == 1 else (" " if name == "space" else None))


async def test_keys_typed_at_once_after_e_all_reach_the_dialog(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        before = list(live.replay.actions)
        # As a fast typist (or tmux send-keys) does: the keys arrive together, before the dialog is mounted.
        keys = ["e", "up", "up"] + ["space" if c == " " else c for c in "rows from a cache f q e"] + ["enter"]
        for name in keys:
            app.post_message(_key(name))
        for _ in range(10):
            await pilot.pause()
        new = live.replay.actions[len(before):]
        # Nothing reached the war room (space would pause, f flag, q ask to quit, e open a second dialog).
        assert [a.kind for a in new] == [ActionKind.ESCALATE], new
        assert (new[0].step, new[0].note) == ("s1", "rows from a cache f q e")
        assert live.replay.contained
