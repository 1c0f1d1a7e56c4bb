"""A session killed mid-drill whose drill file became a symbolic link loop (``x.yaml -> y.yaml -> x.yaml``) is kept
and retried, as one whose drill is missing, not quarantined for good: Path.resolve raised RuntimeError there."""

from __future__ import annotations

from pathlib import Path

from store_support import copy_drill, load

from warroom.core.model import Action, ActionKind
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.review import default_drill_resolver


def test_a_drill_file_turned_into_a_symlink_loop_keeps_the_journal_for_the_next_start(tmp_path: Path):
    drills = tmp_path / "drills"
    drills.mkdir()
    path = copy_drill(drills, "loop-drill")  # an id the bundled library cannot stand in for
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load(path))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()  # killed: no end line
    journal = rec.journal_path
    path.rename(drills / "saved.real")
    path.symlink_to("other.yaml")
    (drills / "other.yaml").symlink_to(path.name)

    resolver = default_drill_resolver([drills])  # `warroom --drills DRILLS`: the drill is looked up there by id
    (r,) = recover_unfinished(tmp_path / "data", resolver)
    assert not r.stored and not r.quarantined and journal.is_file()
    assert r.error is not None and "Too many levels of symbolic links" in r.error
    assert "retried at the next start" in str(r)

    path.unlink()
    (drills / "saved.real").rename(path)  # the link fixed: the session is recovered at the next start
    (r,) = recover_unfinished(tmp_path / "data", resolver)
    assert r.stored and r.outcome == "abandoned" and [a.kind for a in r.actions] == ["inspect", "quit"]
