"""A symbolic link loop among the drills of a --drills folder (``a.yaml -> b.yaml -> a.yaml``) is listed by the
picker as a drill that cannot be loaded, with its problem; it crashed warroom with a RuntimeError traceback."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services

from .conftest import picker_ready, screen_text


async def test_a_symbolic_link_loop_is_listed_as_a_drill_that_cannot_load(tmp_path: Path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")
    services = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(folder,), cache_dir=tmp_path / "cache")
    app = WarroomApp(services)
    app.last_drill_path = folder / "b.yaml"  # as if back from it: the picker looks for it by its real path
    async with app.run_test(size=(100, 30)) as pilot:
        picker = await picker_ready(pilot)
        loops = [e for e in picker.entries if e.path.parent == folder]
        assert [e.path.name for e in loops] == ["a.yaml", "b.yaml"]
        assert all(e.card is None and "a symbolic link that leads round in a loop" in e.problems[0] for e in loops)
        table = picker.query_one("#picker-table", DataTable)
        assert picker.entries[table.cursor_row].path == folder / "b.yaml"
        shown = screen_text(app)
        assert "⚠ a.yaml" in shown and "⚠ b.yaml" in shown and "This drill cannot be loaded:" in shown
