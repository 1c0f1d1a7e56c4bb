"""The picker over the whole malformed corpus: every broken drill is listed with its ``path:line:col: message``
problem, cannot be started, and the picker keeps running (issue 12: no input may stop the picker)."""

from __future__ import annotations

from pathlib import Path

from malformed_cases import EXPECTED, MALFORMED

from warroom.tui.logic import Services
from warroom.tui.screens import PickerScreen

from .conftest import make_app, picker_ready, screen_text, until


def test_every_malformed_drill_is_listed_with_its_position_and_cannot_start(tmp_path: Path):
    entries = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(MALFORMED,)).catalog()
    by_path = {e.path.resolve(): e for e in entries}
    for name, (line, column, fragment) in EXPECTED.items():
        entry = by_path[(MALFORMED / f"{name}.yaml").resolve()]
        assert not entry.ok, name
        where = f"{MALFORMED / name}.yaml:{line}:{column}: "
        assert any(p.startswith(where) and fragment in p for p in entry.problems), (name, entry.problems)
    assert sum(e.ok for e in entries) >= 14  # the bundled drills are still offered


async def test_the_picker_shows_the_malformed_corpus_and_keeps_running(tmp_path: Path):
    services = Services(trainee="t", data_dir=tmp_path / "data", drill_dirs=(MALFORMED,))
    app = make_app(services, None)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await picker_ready(pilot)
        await pilot.press("end")  # the malformed files come after the bundled library
        await until(pilot, lambda: "cannot load" in screen_text(app), "showing the malformed files")
        await pilot.press("enter")  # a broken drill cannot be started: still the picker
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
