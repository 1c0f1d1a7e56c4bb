"""The pause machinery of the session screen lives in its base, DrillScreen (the war room only redraws its header
through ``refresh_status``): a DrillScreen of its own pauses and resumes the drill clock for a dialog, journals the
pause and the resume, and stops and restarts its ticker, with no subclass to fill in."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.clock import MockClock

from warroom.core.model import ActionKind
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import DrillScreen
from warroom.tui.widgets import ConfirmScreen

from .conftest import STALE


class _Ticker:
    """Stands for the drill clock's interval timer: records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def pause(self) -> None:
        self.calls.append("pause")

    def resume(self) -> None:
        self.calls.append("resume")

    def stop(self) -> None:
        self.calls.append("stop")


class _BareApp(App[None]):
    def __init__(self, screen: DrillScreen) -> None:
        super().__init__()
        self.bare = screen

    def on_mount(self) -> None:
        self.push_screen(self.bare)


async def test_a_bare_drill_screen_pauses_for_a_dialog_and_resumes(tmp_path: Path) -> None:
    services = Services(trainee="tester", data_dir=tmp_path / "data")
    entry = load_entry(STALE)
    assert entry.drill is not None
    recorder = services.start_session(STALE, entry.drill)
    clock = MockClock()
    screen = DrillScreen(entry, recorder, services, clock, mode="practice")
    app = _BareApp(screen)
    async with app.run_test() as pilot:
        await pilot.pause()
        ticker = _Ticker()
        screen.ticker = ticker  # type: ignore[assignment]
        screen.open_dialog(ConfirmScreen("Go on?"))
        await pilot.pause()
        assert screen.paused and screen.dialog_paused
        assert ticker.calls == ["pause"]
        clock.set_time(3.0)
        await pilot.press("n")
        await pilot.pause()
        assert not screen.paused and not screen.dialog_paused
        assert screen._last_time == 3.0  # the drill clock counts on from the resume: the paused time is not played
        assert ticker.calls == ["pause", "resume"]
    kinds = [a.kind for a in recorder.actions]
    assert kinds == [ActionKind.PAUSE, ActionKind.RESUME]
    recorder.close()
