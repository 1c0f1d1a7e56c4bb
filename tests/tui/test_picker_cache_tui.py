"""The drill picker on a second start lists its drills from its cache (warroom.core.library._cache) and reads a drill
from
its file, in full, when it is opened; a drill changed since it was listed is not opened: the picker says so and
reads its drills again."""

from __future__ import annotations

from pathlib import Path

import pytest
from screen_support import record_notifications
from textual.widgets import DataTable

from warroom.core.library import _cache as cardcache
from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services
from warroom.tui.screens import BriefingScreen, PickerScreen

from .conftest import STALE, picker_ready, screen_text


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(cardcache, "RECENT_NS", -1)  # the files were written a moment ago: cache them anyway
    mine = tmp_path / "mine"
    mine.mkdir()
    text = STALE.read_text(encoding="utf-8").replace("\nid: duplicate-charge-refunds\n", "\nid: cached-copy\n", 1)
    (mine / "cached-copy.yaml").write_text(text.replace("\ntitle: ", "\ntitle: Cached copy of ", 1), encoding="utf-8")
    return mine


def _services(tmp_path: Path, folder: Path) -> Services:
    """A new start's services (nothing read by an earlier one kept but the cache on disk)."""
    return Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(folder,), cache_dir=tmp_path / "cache")


async def _select(pilot, name: str) -> PickerScreen:
    picker = await picker_ready(pilot)
    row = next(i for i, e in enumerate(picker.entries) if e.path.name == name)
    picker.query_one("#picker-table", DataTable).move_cursor(row=row)
    await pilot.pause()
    return picker


async def test_a_drill_listed_from_the_cache_is_read_from_its_file_when_opened(tmp_path, folder):
    assert all(e.drill is not None for e in _services(tmp_path, folder).catalog())  # the first start fills the cache
    app = WarroomApp(_services(tmp_path, folder))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await _select(pilot, "cached-copy.yaml")
        entry = picker.selected()
        assert entry is not None and entry.drill is None and entry.card.title.startswith("Cached copy of ")
        assert "Cached copy of" in screen_text(app)  # listed and previewed from the cache
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen)
        assert app.screen.entry.drill is not None and app.screen.entry.drill.id == "cached-copy"
        assert app.screen.entry.path == folder / "cached-copy.yaml"


async def test_a_drill_edited_after_it_was_listed_is_not_opened_and_the_list_is_read_again(tmp_path, folder):
    _services(tmp_path, folder).catalog()
    app = WarroomApp(_services(tmp_path, folder))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await _select(pilot, "cached-copy.yaml")
        said = record_notifications(app)
        path = folder / "cached-copy.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("title: Cached copy of", "title: Renamed", 1))
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is picker
        assert said == ["This drill changed since the list was read: the drills are read again."]
        await picker_ready(pilot)
        entry = next(e for e in picker.entries if e.path == path)
        assert entry.card.title.startswith("Renamed") and entry.drill is not None
        await _select(pilot, "cached-copy.yaml")
        await pilot.press("enter")  # read by this start and unchanged: opened at once
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.screen.entry.card.title.startswith("Renamed")


async def test_a_drill_edited_while_its_briefing_is_open_is_not_started(tmp_path, folder):
    """The session would record the edited file's SHA-256 for the drill as it was read (its review would then replay
    another drill): the start is refused, nothing is stored, and opening it again plays it as it is now."""
    app = WarroomApp(_services(tmp_path, folder))
    async with app.run_test(size=(100, 30)) as pilot:
        await _select(pilot, "cached-copy.yaml")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        briefing = app.screen
        assert isinstance(briefing, BriefingScreen)
        path = folder / "cached-copy.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("title: Cached copy of", "title: Edited", 1))
        said = record_notifications(app)
        await pilot.press("enter")  # start the drill
        await pilot.pause()
        assert app.live is None and app.screen is briefing
        assert said == [
            "Cannot start this drill: its file changed since it was opened: go back and open it again to play it as it "
            "is now."
        ]
        assert not (tmp_path / "data" / "journals").exists() or not list((tmp_path / "data" / "journals").iterdir())
        await pilot.press("escape")
        await _select(pilot, "cached-copy.yaml")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.screen.entry.card.title.startswith("Edited")
        await pilot.press("enter")
        await pilot.pause()
        assert app.live is not None  # the drill as it is now


async def test_the_cursor_stays_on_the_drill_when_the_list_is_read_again(tmp_path, folder):
    # QA: after "This drill changed since the list was read" (and after `r`) the cursor went back to the first drill,
    # so the next enter opened another drill than the one the author had just chosen.
    _services(tmp_path, folder).catalog()
    app = WarroomApp(_services(tmp_path, folder))
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await _select(pilot, "cached-copy.yaml")
        path = folder / "cached-copy.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("title: Cached copy of", "title: Renamed", 1))
        await pilot.press("enter")
        await picker_ready(pilot)
        entry = picker.selected()
        assert entry is not None and entry.path == path and entry.card.title.startswith("Renamed")
        assert "Renamed" in screen_text(app).split("Preview", 1)[1]  # the preview shows it too
        path.write_text(path.read_text(encoding="utf-8").replace("title: Renamed", "title: Again", 1))
        await pilot.press("r")
        await picker_ready(pilot)
        entry = picker.selected()
        assert entry is not None and entry.path == path and entry.card.title.startswith("Again")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, BriefingScreen) and app.screen.entry.path == path
