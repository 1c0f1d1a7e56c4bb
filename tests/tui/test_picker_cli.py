"""The drill picker, `warroom run` and the real clock."""

from __future__ import annotations

from click.testing import CliRunner
from textual.widgets import DataTable

from warroom.cli import main
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import BriefingScreen, PickerScreen

from .conftest import STALE, advance, escalate, make_app, picker_ready, screen_text


async def test_picker_lists_the_bundled_drills(cold_services):
    """The first start: every bundled drill read from its file and checked (no picker cache yet)."""
    app = make_app(cold_services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        files = find_drill_files([bundled_drills_dir()])
        assert len(picker.entries) == len(files) >= 1
        table = picker.query_one("#picker-table", DataTable)
        assert table.row_count == len(files)
        titles = {str(table.get_row_at(i)[1]) for i in range(table.row_count)}
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
        await escalate(pilot, "s1")
        await advance(pilot, 5)
        total = app.screen.scorecard.total
        await pilot.press("p")
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        table = picker.query_one("#picker-table", DataTable)
        i = next(i for i, e in enumerate(picker.entries) if e.drill and e.drill.id == "duplicate-charge-refunds")
        assert str(table.get_row_at(i)[5]) == str(total)


async def test_picker_shows_a_broken_drill_with_its_problems(services, tmp_path):
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "broken.yaml").write_text("schema_version: 1\nid: broken\ntitle: [unclosed\n", encoding="utf-8")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(extra,))
    app = WarroomApp(services)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
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
        second = live.replay.drill.trace[1].t
        for _ in range(100):  # the timer's ticks, however slow a loaded machine makes them (at most 10 s)
            if live.replay.now > second:
                break
            await pilot.pause(0.1)
        assert live.replay.now > second  # the real clock drove the drill past its second event
        assert len(live.replay.released) >= 2


def _copy_drill(folder, stem: str, drill_id: str | None = None):
    text = STALE.read_text(encoding="utf-8").replace(
        "\nid: duplicate-charge-refunds\n", f"\nid: {drill_id or stem}\n", 1
    )
    path = folder / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_picker_sorts_drills_naturally(tmp_path):
    extra = tmp_path / "imported"
    extra.mkdir()
    for n in (10, 9, 1, 2):
        _copy_drill(extra, f"ww-hand-{n}")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(extra,))
    names = [e.path.stem for e in services.catalog() if e.path.parent == extra]
    assert names == ["ww-hand-1", "ww-hand-2", "ww-hand-9", "ww-hand-10"]


async def test_picker_keeps_the_cursor_on_the_drill_just_played(services):
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
        i = next(i for i, e in enumerate(picker.entries) if e.path.resolve() == STALE.resolve())
        assert i > 0
        picker.query_one("#picker-table", DataTable).move_cursor(row=i)
        await pilot.press("enter", "enter")  # the briefing, the war room
        await advance(pilot, 3)
        await pilot.press("q", "y")  # quit the drill: back to the picker
        await pilot.pause()
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        assert picker.query_one("#picker-table", DataTable).cursor_row == i
        assert picker.selected().path.resolve() == STALE.resolve()
        assert "Duplicate-charge refunds for INC-4471" in screen_text(app).split("╭")[-1]  # in the preview


async def test_picker_gives_the_preview_the_room_on_a_large_terminal(services):
    app = make_app(services, drill_path=None)
    # tall enough for the whole library's list and a 20-row preview, however many drills are bundled
    height = max(48, len(list(bundled_drills_dir().glob("*.yaml"))) + 3 + 2 + 22)
    async with app.run_test(size=(160, height)) as pilot:
        await pilot.pause()
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        detail = picker.query_one("#picker-detail")
        assert table.outer_size.height == table.row_count + 3  # every drill (and header, border), no empty rows
        assert detail.outer_size.height == height - 2 - table.outer_size.height  # the rest
        assert detail.size.height >= 20  # the height is chosen to leave a 20-row preview
        text = screen_text(app)
        entry = picker.entries[0]
        assert "You are watching" in text and f"{entry.card.plan[-1][0]} {entry.card.plan[-1][1]}" in text
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picker = await picker_ready(pilot)
        # a long list scrolls; the preview keeps 5 lines
        assert picker.query_one("#picker-detail").outer_size.height >= 7


async def test_picker_flags_duplicate_ids_and_ids_that_differ_from_the_file_name(tmp_path):
    extra = tmp_path / "more"
    extra.mkdir()
    dup = _copy_drill(extra, "duplicate-charge-refunds")  # the same id as the bundled drill
    odd = _copy_drill(extra, "refunds-copy", drill_id="refunds-other")  # id differs from its file name
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(extra,))
    app = make_app(services)  # play the bundled one first, so it has a best score
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await escalate(pilot, "s1")
        await advance(pilot, 5)
        total = app.screen.scorecard.total
        await pilot.press("p")
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        table = picker.query_one("#picker-table", DataTable)
        rows = {e.path: i for i, e in enumerate(picker.entries)}
        bundled = next(p for p in rows if p.resolve() == STALE.resolve())
        assert picker.entries[rows[bundled]].ok and str(table.get_row_at(rows[bundled])[5]) == str(total)
        for path, words in ((dup, "is already the id of"), (odd, "does not match the file name")):
            entry = picker.entries[rows[path]]
            assert not entry.ok and entry.drill is not None
            assert any(p.startswith(f"{path}:") and words in p for p in entry.problems), entry.problems
            assert str(table.get_row_at(rows[path])[5]) == "—"  # not the bundled drill's best score
            assert str(table.get_row_at(rows[path])[3]) == "has problems"
            table.move_cursor(row=rows[path])
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert "cannot be started until this is fixed" in text and words in text
            await pilot.press("enter")
            assert app.screen is picker  # it cannot be started


async def test_catalog_reloads_only_changed_drill_files(tmp_path, monkeypatch):
    import os

    import warroom.tui.logic._services as services_module

    extra = tmp_path / "mine"
    extra.mkdir()
    a = _copy_drill(extra, "cached-a")
    _copy_drill(extra, "cached-b")
    services = Services(trainee="tester", data_dir=tmp_path / "data", drill_dirs=(extra,))
    first = {e.path: e for e in services.catalog()}
    loaded = []
    real = services_module.load_entry
    monkeypatch.setattr(services_module, "load_entry", lambda p: loaded.append(p) or real(p))
    second = {e.path: e for e in services.catalog()}
    assert loaded == [] and all(second[p] is first[p] for p in first)  # nothing parsed again
    a.write_text(a.read_text(encoding="utf-8").replace("title: ", "title: Edited ", 1), encoding="utf-8")
    st = a.stat()
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    third = {e.path: e for e in services.catalog()}
    assert loaded == [a] and third[a].drill.title.startswith("Edited ")


async def test_picker_tells_a_quit_drill_from_a_played_zero(services):
    from store_support import add_session

    from warroom.store.results import ResultsStore

    with ResultsStore(services.data_dir) as store:
        add_session(store, "q1", trainee=services.trainee, drill_id="duplicate-charge-refunds", outcome="abandoned",
                    total=0, ttd=None)  # fmt: skip
        add_session(store, "q2", trainee=services.trainee, drill_id="clinic-rebooking", outcome="abandoned", total=0,
                    ttd=None)  # fmt: skip
        add_session(store, "p2", trainee=services.trainee, drill_id="clinic-rebooking", outcome="missed", total=0,
                    ttd=None)  # fmt: skip
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        assert isinstance(picker, PickerScreen)
        table = picker.query_one("#picker-table", DataTable)
        best = {e.card.id: table.get_row_at(i)[5] for i, e in enumerate(picker.entries) if e.card}
        quit_cell = best["duplicate-charge-refunds"]
        assert str(quit_cell) == "quit" and "italic" in str(quit_cell.style)
        assert str(best["clinic-rebooking"]) == "0"
        assert str(best["held-orders-release"]) == "—"


async def test_a_picker_replaced_before_its_drills_are_read_fills_nothing_and_raises_nothing(services):
    """A drill started while the picker's worker still reads the drills (a quick start, a slow machine): the
    worker's late result must not crash the app looking for the picker's table (a loaded test run hit it)."""
    from textual.widgets import DataTable

    from warroom.tui.logic import load_entry
    from warroom.tui.screens import PickerScreen

    from .conftest import STALE, make_app, picker_ready

    app = make_app(services, drill_path=None)
    async with app.run_test() as pilot:
        picker = await picker_ready(pilot)
        entries = list(picker.entries)
        assert entries and isinstance(picker, PickerScreen)
        assert picker.query_one("#picker-table", DataTable).row_count == len(entries)
        app.start_drill(load_entry(STALE))
        await pilot.pause()
        assert app.live is not None and app.screen is app.live
        picker._fill(entries, {}, None)  # the worker's result arriving after the switch
        await pilot.pause()
        assert app.is_running and app.screen is app.live
