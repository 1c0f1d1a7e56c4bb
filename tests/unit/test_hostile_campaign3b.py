"""The four items campaign 3 left (issue 30): each with the right behaviour (docs/reliability.md, docs/cohorts.md,
docs/drill-sets.md, benchmarks/README.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from store_support import bundled_drill_path, load

from warroom.core.model import Action, ActionKind
from warroom.store.journal import SessionRecorder, recover_unfinished, take_notices
from warroom.store.journal._notices import _box, leave_notice


def _killed(data_dir: Path, trainee: str) -> None:
    rec = SessionRecorder.start(data_dir, trainee, bundled_drill_path(), load(bundled_drill_path()))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()


def _link_on_the_way(data_dir: Path, elsewhere: Path, which: str) -> None:
    """``journals/notices`` (or ``journals`` itself) made a symbolic link to ``elsewhere``, as a trainee on a shared
    data folder could."""
    if which == "notices":
        (data_dir / "journals").mkdir(exist_ok=True)
        (data_dir / "journals" / "notices").symlink_to(elsewhere, target_is_directory=True)
    else:
        real = elsewhere / "journals"
        real.mkdir()
        (data_dir / "journals").symlink_to(real, target_is_directory=True)
        (real / "notices").mkdir()


@pytest.mark.parametrize("which", ["notices", "journals"])
def test_no_notice_is_kept_or_taken_through_a_symlinked_notices_folder(tmp_path: Path, which: str):
    """A trainee on a shared data folder points ``journals/notices`` (or ``journals``) at another folder (another
    trainee's, or one they read): notices were written there, and a start moved and deleted the box found there.
    No notice goes through a link: the box in the folder it points at is neither written, nor moved, nor deleted, and
    the recovery that could not keep a notice says why."""
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    elsewhere.mkdir()
    _link_on_the_way(data, elsewhere, which)
    target = elsewhere / "journals" / "notices" if which == "journals" else elsewhere
    planted = target / _box(data, "ann").name
    planted.write_text('{"at": "x", "session": "someone-elses"}\n')
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    assert leave_notice(data, "ann", "2026-01-01T00:00:00+00:00", session="s1") is False
    assert take_notices(data, "ann") == []
    if which == "notices":  # a whole journals folder through a link is recovered from (the user's layout); see below
        _killed(data, "ann")
        (rec,) = recover_unfinished(data, shown_to="fac")
        assert rec.stored
        assert rec.problems[-1] == (
            f"no notice was kept for its trainee's next start: {data / 'journals' / 'notices'} (or the journals "
            f"folder holding it) is a symbolic link or not a folder, and notices are never kept through one: move it "
            f"away (warroom makes the folder again)"
        )
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_notices_are_kept_again_once_the_link_is_moved_away(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = tmp_path / "data"
    data.mkdir()
    _link_on_the_way(data, elsewhere, "notices")
    assert leave_notice(data, "ann", "x", session="s1") is False
    (data / "journals" / "notices").unlink()
    assert leave_notice(data, "ann", "x", session="s1") is True
    assert json.loads(_box(data, "ann").read_text()) == {"at": "x", "session": "s1"}
    assert not os.listdir(elsewhere)
