"""The author mode's save when another editor saved the drill file meanwhile (issue 30, item 9): nothing is written
over it, the author is told, and the marks go to the recovery copy that the next ``warroom annotate`` offers."""

from __future__ import annotations

from pathlib import Path

from warroom.core.author import recover
from warroom.core.library import bundled_drills_dir

from .conftest import author_mode, record_notifications


async def test_a_save_over_a_file_changed_on_disk_is_refused_and_the_marks_kept(tmp_path: Path):
    path = tmp_path / "duplicate-charge-refunds.yaml"
    path.write_bytes((bundled_drills_dir() / path.name).read_bytes())
    async with author_mode(path) as (app, pilot, screen):
        messages = record_notifications(app)
        screen.draft.distractors.clear()
        screen.saved = False
        other = path.read_text(encoding="utf-8") + "# saved by another editor\n"
        path.write_text(other, encoding="utf-8")
        await pilot.press("s")
        await pilot.pause()
        assert not screen.saved
        assert any("changed on disk since it was opened" in m and "Your marks are kept in" in m for m in messages)
        await pilot.press("s")  # again: still refused, never written over
        await pilot.pause()
    assert path.read_text(encoding="utf-8") == other
    assert (tmp_path / "duplicate-charge-refunds.yaml.unsaved").is_file()
    from warroom.core.author import open_for_annotation

    again = recover(open_for_annotation(path))  # the next `warroom annotate` of the file as it is now
    assert again.draft is not None and not again.draft.distractors
