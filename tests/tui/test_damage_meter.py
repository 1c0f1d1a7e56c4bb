"""The damage meter names nothing from the answer key until damage accrues: at the start of a set of drills that
covers every feature of the bundled drills and the all-clear fixtures (tests/cover_support.py; the plan every drill
shows at the start is checked for every bundled drill by tests/unit/test_hygiene_trace.py)."""

from __future__ import annotations

from pathlib import Path

from cover_support import covering_drills
from textual.clock import MockClock

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.model import Drill
from warroom.core.text import clean_line
from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import Meters

from .conftest import advance, make_app, screen_text


class NullRecorder:
    """A recorder that keeps its actions in memory only (these tests look at the screen only)."""

    session_id = "null"

    def __init__(self) -> None:
        self.actions = []

    def record(self, action) -> None:
        self.actions.append(action)

    def close(self) -> None:
        pass

    def finish(self, scorecard) -> None:
        pass


class NoStoreServices(Services):
    def start_session(self, drill_path, drill):
        return NullRecorder()


def answer_fragments(drill: Drill) -> list[str]:
    """Pieces of the drill's answer key (or all-clear note) that must not be on screen before the debrief."""
    out: list[str] = []
    key = drill.answer_key
    if key is not None:
        out += [key.damage.unit, key.fault.kind.value, clean_line(key.fault.summary)[:30], clean_line(key.debrief)[:30]]
    if drill.all_clear is not None:
        out.append(clean_line(drill.all_clear.debrief)[:30])
    out += [clean_line(d.why_harmless)[:30] for d in drill.distractors]
    out += ["all clear", "all-clear", "control drill", "no fault"]
    return out


def meter_line(app: WarroomApp) -> str:
    return app.screen.query_one(Meters).render().plain


async def test_no_drill_shows_its_damage_unit_or_answer_at_the_start(tmp_path: Path):
    from locations import ALL_CLEAR

    files = covering_drills(find_drill_files([bundled_drills_dir(), ALL_CLEAR]), cost="one")
    assert any("all_clear:" in f.read_text(encoding="utf-8") for f in files)  # all-clear drills are among them
    services = NoStoreServices(trainee="tester", data_dir=tmp_path / "data")
    app = WarroomApp(services, clock=MockClock())
    meters = set()
    async with app.run_test(size=(160, 48)) as pilot:
        for path in files:
            entry = load_entry(path)
            assert entry.ok, entry.problems
            app.start_drill(entry)
            await pilot.pause()
            assert isinstance(app.screen, WarRoomScreen) and app.screen.replay.now == 0
            text = screen_text(app)
            leaked = [f for f in answer_fragments(entry.drill) if f.lower() in text.lower()]
            assert not leaked, (path.name, leaked)
            line = meter_line(app)
            assert line.startswith(" damage none yet  cost "), line
            meters.add(line.split("  cost ")[0])
    assert meters == {" damage none yet"}  # fault and all-clear drills look the same


async def test_only_the_amount_shows_once_damage_accrues(services):
    """The damage unit is part of the answer key (warroom.core.model._hygiene): the meter shows the bare amount, never
    "$... refunded in error", until the debrief."""
    from warroom.core.text import amount

    app = make_app(services, speed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        damage_at = min(
            live.drill.event(e.event).t for e in live.drill.answer_key.damage.entries
        )
        while live.replay.now + 4 < damage_at:
            await advance(pilot, 0.5)
            assert live.replay.damage == 0
            assert "damage none yet" in screen_text(app)
        await advance(pilot, 1)
        assert live.replay.damage > 0
        assert meter_line(app).startswith(f" damage {amount(live.replay.damage)}  cost ")
        assert "refunded in error" not in screen_text(app)
        assert "USD" not in meter_line(app) and "$" not in meter_line(app).split("  cost ")[0]
