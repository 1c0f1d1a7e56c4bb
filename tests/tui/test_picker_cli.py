"""The drill picker, `warroom run` and the real clock."""

from __future__ import annotations

from click.testing import CliRunner
from textual.widgets import DataTable

from warroom.cli import main
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.tui.app import WarroomApp
from warroom.tui.live import WarRoomScreen
from warroom.tui.picker import BriefingScreen, PickerScreen
from warroom.tui.services import Services, load_entry

from .conftest import STALE, advance, make_app, screen_text


async def test_picker_lists_the_bundled_drills(services):
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        assert isinstance(picker, PickerScreen)
        files = find_drill_files([bundled_drills_dir()])
        assert len(picker.entries) == len(files) >= 1
        table = picker.query_one("#picker-table", DataTable)
        assert table.row_count == len(files)
        titles = {str(table.get_row_at(i)[0]) for i in range(table.row_count)}
        for entry in picker.entries:
            assert entry.ok, entry.problems
            assert entry.drill.title in titles
        i = next(i for i, e in enumerate(picker.entries) if e.path.resolve() == STALE.resolve())
        table.move_cursor(row=i)
        await pilot.press("enter")
        assert isinstance(app.screen, BriefingScreen)
        assert "Duplicate-charge refunds for INC-4471" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, PickerScreen)


async def test_picker_shows_best_scores_after_a_session(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("e", "enter")
        await advance(pilot, 5)
        total = app.screen.scorecard.total
        await pilot.press("p")
        picker = app.screen
        assert isinstance(picker, PickerScreen)
        table = picker.query_one("#picker-table", DataTable)
        i = next(i for i, e in enumerate(picker.entries) if e.drill and e.drill.id == "duplicate-charge-refunds")
        assert str(table.get_row_at(i)[4]) == str(total)


async def test_picker_shows_a_broken_drill_with_its_problems(services, tmp_path):
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "broken.yaml").write_text("schema_version: 1\nid: broken\ntitle: [unclosed\n", encoding="utf-8")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(extra,))
    app = WarroomApp(services)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = app.screen
        i = next(i for i, e in enumerate(picker.entries) if e.path.name == "broken.yaml")
        assert not picker.entries[i].ok
        picker.query_one("#picker-table", DataTable).move_cursor(row=i)
        await pilot.pause()
        text = screen_text(app)
        assert "cannot be loaded" in text and "YAML syntax error" in text and "broken.yaml" in text
        assert f"{picker.entries[i].path}:4:1:" in picker.entries[i].problems[0]
        await pilot.press("enter")
        assert app.screen is picker  # a broken drill cannot be started


def test_load_entry_reports_path_line_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nid: [x\n", encoding="utf-8")
    entry = load_entry(bad)
    assert entry.drill is None
    assert entry.problems and all(p.startswith(f"{bad}:") for p in entry.problems)


def test_run_reports_a_broken_drill_on_stderr(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema_version: 1\nid: bad\ntitle: 3\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}:" in result.stderr
    assert "Traceback" not in result.output


def test_run_reports_an_unknown_drill(tmp_path):
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", "no-such-drill"])
    assert result.exit_code == 2  # a usage error, like `warroom cost no-such-drill`
    assert "Invalid value for PATH_OR_ID: no drill file or drill id 'no-such-drill'" in result.stderr
    assert "Traceback" not in result.output


async def test_smoke_the_real_clock_drives_the_drill(services):
    # The one test on real time: the interval timer ticks the drill clock on its own.
    app = WarroomApp(services, start=load_entry(STALE), speed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await pilot.pause(0.5)
        assert live.replay.now > 0.5
        assert len(live.replay.released) >= 2
