"""An escalation is recorded at the drill time of the key that confirmed it, in every mode (issue 30): in assessment
the drill clock runs on under the escalation dialog, and the escalation was recorded at the clock's last tick, up to
a second before the confirming key (its time to detect that much shorter); in practice the dialog stops the drill
clock (a recorded pause), so the drill time of the confirming key is the one at which the dialog opened."""

from __future__ import annotations

import time

import pytest
from textual import events
from textual.clock import MockClock

from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.tui.app import WarroomApp
from warroom.tui.app._relayed import KeyClock
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import EscalateScreen, WarRoomScreen

from .conftest import STALE, make_app, type_text, until, war_room


@pytest.mark.parametrize(("mode", "expected"), [("assessment", 12.8), ("practice", 12.0)])
async def test_an_escalation_is_timed_at_its_confirming_key(tmp_path, mode, expected):
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode=mode)
    app = make_app(services)
    async with war_room(app, size=(100, 34), seconds=12) as (pilot, live):
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EscalateScreen)
        await type_text(pilot, "s1")
        await pilot.press("tab", "tab")
        await type_text(pilot, "e06")
        await pilot.press("space")
        app.clock.set_time(app.clock.time + 0.8)  # the confirming keys come 0.8 s after the clock's last tick
        await pilot.press("enter", "y")
        await until(pilot, lambda: any(a.kind == ActionKind.ESCALATE for a in live.replay.actions), "escalated")
        (escalation,) = [a for a in live.replay.actions if a.kind == ActionKind.ESCALATE]
        assert escalation.t == pytest.approx(expected)
        await pilot.press("d")
        await until(pilot, lambda: app.live is not live, "past the war room")
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="ann")
        card = store.get(row.session_id).scorecard
    assert card["contained_at"] == pytest.approx(expected)
    assert card["time_to_detect"] == pytest.approx(expected - card["first_evidence_at"])


class MockKeyClock(KeyClock, MockClock):
    """The served app's clock on a mock clock's time (the relay's times are real :func:`time.monotonic` ones)."""


@pytest.mark.parametrize("ticker_in_gap", [False, True])
async def test_a_served_assessment_escalation_is_timed_when_the_relay_received_its_confirming_key(
    tmp_path, ticker_in_gap
):
    """In a browser tab the confirming key counts from when the server's relay received it (warroom.tui.app's
    ``KeyClock``), not from when the app process read it, nor from the drill clock's last tick."""
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="assessment")
    clock = MockKeyClock()
    app = WarroomApp(services, start=load_entry(STALE), clock=clock)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert isinstance(live, WarRoomScreen)
        for t in range(1, 27):  # 13 s of drill time, ticked every half second: e06, the evidence, is out
            clock.set_time(t / 2)
            live.tick(at_key=False)
        await pilot.press("e")
        await pilot.pause()
        await pilot.press(*"s1", "tab", "tab")
        if "e06" not in app.screen.cites:  # type: ignore[attr-defined]
            await pilot.press(*"e06", "space")
        await pilot.press("enter")
        clock.set_time(16.0)  # the app reads `y` at 16.0; the relay received it at 15.0
        clock.received(time.monotonic() - 1.0)
        key = events.Key("y", "y")
        clock.posted(key)  # as the served app's driver does
        if ticker_in_gap:  # the drill clock's ticker fires once the app has handed `y` to the dialog, before it acts
            target = app.focused or app.screen
            handle = target.on_event

            async def late(event: events.Event) -> None:
                if event is key:
                    live.tick(at_key=False)
                await handle(event)

            target.on_event = late  # type: ignore[method-assign]
        app.post_message(key)
        await until(pilot, lambda: live.replay.contained, "escalated")
        escalations = [a.t for a in live.replay.actions if a.kind is ActionKind.ESCALATE]
    assert escalations == [pytest.approx(15.0, abs=0.2)], escalations
