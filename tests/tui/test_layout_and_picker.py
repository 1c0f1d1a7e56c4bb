"""Layout at scale and small sizes, the picker's keyboard preview and broken drills (issue 11 items 8, 13; issue 12
item 1, picker side)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import DataTable

from warroom.core.load import load_drill
from warroom.core.model import PlanStep
from warroom.tui.logic import Services, load_entry
from warroom.tui.logic import _entries as entries_module
from warroom.tui.screens import PickerScreen
from warroom.tui.widgets import PlanPanel, TraceTable

from .conftest import STALE, advance, make_app, picker_ready, screen_text


def _long_plan_drill(steps: int = 200):
    drill = load_drill(STALE)
    extra = [PlanStep(id=f"x{n}", title=f"extra step {n}", objective="o") for n in range(6, steps + 1)]
    return drill.model_copy(update={"plan": [*drill.plan, *extra]})


class _PlanApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PlanPanel(id="plan")


async def test_the_plan_panel_follows_the_selected_step_in_a_200_step_plan():
    drill = _long_plan_drill()
    app = _PlanApp()
    async with app.run_test(size=(40, 12)) as pilot:
        panel = app.query_one(PlanPanel)
        panel.show(drill, {}, "x150")
        await pilot.pause()
        text = screen_text(app)
        assert "x150 extra step 150" in text and "s1 " not in text
        assert panel.border_subtitle == "139-150 of 200" or panel.border_subtitle.endswith("of 200")
        panel.show(drill, {}, "s2")  # back up: scrolled just enough to show it
        await pilot.pause()
        assert "s2 " in screen_text(app) and "x150" not in screen_text(app)
        panel.show(drill, {}, None)  # no step selected: the window stays where it is
        await pilot.pause()
        assert "s2 " in screen_text(app)


async def test_at_60x20_the_plan_panel_gives_way_to_the_trace(services):
    app = make_app(services)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        live = app.live
        plan = live.query_one("#plan")
        timeline = live.query_one(TraceTable)
        assert plan.size.width <= 14
        widths = timeline.column_widths(timeline.scrollable_content_region.width)
        summary = widths[[c.key for c in timeline.columns].index("summary")]
        assert summary >= 14, summary


async def test_the_picker_preview_scrolls_from_the_keyboard(services):
    app = make_app(services, None)
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        detail = picker.query_one("#picker-detail")
        row = picker.query_one("#picker-table", DataTable).cursor_row
        await pilot.press("tab")
        assert detail.has_focus
        assert detail.max_scroll_y > 0
        await pilot.press("j", "j", "down")
        assert detail.scroll_y == 3
        assert picker.query_one("#picker-table", DataTable).cursor_row == row  # the list did not move
        await pilot.press("G")
        assert detail.scroll_y == detail.max_scroll_y
        await pilot.press("g")
        assert detail.scroll_y == 0
        await pilot.press("tab")
        assert picker.query_one("#picker-table", DataTable).has_focus


async def test_a_drill_that_crashes_the_loader_is_listed_broken_and_the_picker_runs_on(tmp_path, monkeypatch):
    folder = tmp_path / "drills"
    folder.mkdir()
    (folder / "overflow.yaml").write_text("id: overflow\nduration_ms: 1e400\n")
    good = folder / "duplicate-charge-refunds-copy.yaml"
    good.write_text(STALE.read_text())
    real = entries_module.load_drill

    def crashing(path: Path):
        if Path(path).name == "overflow.yaml":
            raise OverflowError("cannot convert float infinity to integer")
        return real(path)

    monkeypatch.setattr(entries_module, "load_drill", crashing)
    entry = load_entry(folder / "overflow.yaml")
    assert entry.drill is None
    assert entry.problems[0].startswith(f"{folder / 'overflow.yaml'}:1:1: cannot load this drill (OverflowError")
    svc = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(folder,))
    app = make_app(svc, None)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        names = [e.path.name for e in picker.entries]
        assert "overflow.yaml" in names
        row = names.index("overflow.yaml")
        picker.query_one("#picker-table", DataTable).move_cursor(row=row)
        await pilot.pause()
        text = screen_text(app)
        assert "cannot load" in text and "OverflowError" in text
        await pilot.press("enter")  # refused, and the picker stays
        assert app.screen is picker


def test_launch_fails_with_the_apps_return_code(monkeypatch, tmp_path):
    from warroom.tui.app import _app as app_module
    from warroom.tui.app import _launch as launch_module

    class Failing(app_module.WarroomApp):
        failed = False

        def run(self, *args, **kwargs):  # as Textual does after an unhandled error in the app: return code 1
            self.failed = True

        @property
        def return_code(self):
            return 1 if self.failed else None

    monkeypatch.setattr(app_module, "WarroomApp", Failing)

    class S:
        trainee = "tester"
        data_dir = tmp_path / "data"
        drill_dirs = ()

    with pytest.raises(SystemExit) as exc:
        launch_module.launch(S())  # type: ignore[arg-type]
    assert exc.value.code == 1


def test_an_unreadable_drill_folder_is_listed_with_its_problem(tmp_path, monkeypatch):
    import warroom.core.library as library

    folder = tmp_path / "drills"
    folder.mkdir()
    real = library.find_drill_files

    def failing(paths, *args, **kwargs):
        if Path(next(iter(paths))) == folder:
            raise PermissionError(13, "Permission denied", str(folder))
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(library, "find_drill_files", failing)
    entries = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(folder,)).catalog()
    broken = [e for e in entries if e.path == folder]
    assert len(broken) == 1 and broken[0].problems == (f"{folder}: cannot read this folder (permission denied)",)
    assert any(e.ok for e in entries)  # the bundled drills are still offered
