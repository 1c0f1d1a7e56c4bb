"""The store's tables for the facilitator's console (schema version 12), on both back ends: the facilitator's notes
on sessions and the live table every serve host writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_support import add_session

from warroom.store.errors import SessionNotFound, StoreError
from warroom.store.live import LiveTab, forget_host, publish_live, read_live
from warroom.store.results import ResultsStore

pytestmark = pytest.mark.usefixtures("backend_url")


def test_notes_are_numbered_per_session_read_with_it_and_deleted_with_it(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        add_session(store, "s1", trainee="ana")
        add_session(store, "s2", trainee="ben")
        store.add_note("s1", author="Fran", text="first\r\nsecond line", at="2026-12-01T14:10:00Z")
        note = store.add_note("s1", author="Fran", text="  again  ", at="2026-12-01T14:11:00Z")
        store.add_note("s2", author="Ann", text="other", at="2026-12-01T14:12:00Z")
        assert (note.seq, note.text) == (2, "again")
        got = store.get("s1").facilitator_notes
        assert [(n.seq, n.author, n.text) for n in got] == [(1, "Fran", "first\nsecond line"), (2, "Fran", "again")]
        assert store.get("s1").to_dict()["facilitator_notes"][0]["text"] == "first\nsecond line"
        assert list(store.facilitator_notes(["s1", "s2", "s3"])) == ["s1", "s2"]
        store.delete(["s1"])
        assert store.facilitator_notes(["s1"]) == {}
        with pytest.raises(SessionNotFound):
            store.add_note("s1", author="Fran", text="late", at="2026-12-01T14:13:00Z")
        for bad in ("   ", "x" * 4001, "bell \x07"):
            with pytest.raises(StoreError):
                store.add_note("s2", author="Fran", text=bad, at="2026-12-01T14:13:00Z")
        assert len(store.facilitator_notes(["s2"])["s2"]) == 1


def _row(host: str, tab: str, trainee: str, state: str, **kw) -> LiveTab:
    return LiveTab(host, tab, trainee, state, "2026-12-01T14:00:00Z", "", **kw)


def test_each_host_writes_its_own_rows_of_the_live_table_with_a_heartbeat(tmp_path: Path):
    with ResultsStore(tmp_path) as store:
        publish_live(store, "h1", [_row("h1", "t1", "ana", "picker")], [], "2026-12-01T14:00:01Z")
        publish_live(store, "h2", [_row("h2", "t1", "ben", "playing", drill_id="A", drill_time=12.5, paused=True)],
                     [], "2026-12-01T14:00:02Z")  # fmt: skip
        publish_live(store, "h1", [], [], "2026-12-01T14:00:05Z")  # a heartbeat: nothing changed
        rows = read_live(store)
        assert [(r.host, r.trainee, r.state, r.heartbeat_at) for r in rows] == [
            ("h1", "ana", "picker", "2026-12-01T14:00:05Z"),
            ("h2", "ben", "playing", "2026-12-01T14:00:02Z"),
        ]
        assert rows[1].paused is True and rows[1].drill_time == 12.5
        publish_live(store, "h1", [_row("h1", "t1", "ana", "playing", drill_id="B")], [], "2026-12-01T14:00:06Z")
        assert read_live(store)[0].drill_id == "B"  # replaced, not added
        publish_live(store, "h1", [], ["t1"], "2026-12-01T14:00:07Z")
        assert [r.host for r in read_live(store)] == ["h2"]
        forget_host(store, before="2026-12-01T14:00:03Z")  # hosts silent since before then
        assert read_live(store) == []


def test_a_host_restarted_on_its_port_forgets_its_killed_runs_rows_not_other_hosts(tmp_path: Path):
    """A server killed outright leaves its rows (fresh for a few seconds): the same machine's server started again
    on that port (``name:port#`` and a new run) deletes them, so the trainee playing there is not told they play
    on another host; other ports and machines keep theirs, whatever characters their names hold."""
    with ResultsStore(tmp_path) as store:
        at = "2026-12-01T14:00:01Z"
        for host in ("lab:8000#a1b2c3", "lab:8001#d4e5f6", "lab:80#000000", "lab_8000#111111", "other:8000#222222",
                     "lab:8000%#333333"):  # fmt: skip
            publish_live(store, host, [_row(host, "t1", "ana", "playing")], [], at)
        forget_host(store, "lab:8000#ffffff", earlier_runs=True)
        assert sorted(r.host for r in read_live(store)) == [
            "lab:80#000000", "lab:8000%#333333", "lab:8001#d4e5f6", "lab_8000#111111", "other:8000#222222"
        ]
        forget_host(store, "lab:8001#eeeeee")  # without earlier_runs: only its own rows (it has none)
        assert len(read_live(store)) == 5


def test_the_live_class_of_a_restarted_server_deletes_its_killed_runs_rows_as_it_first_writes(tmp_path: Path):
    from datetime import UTC, datetime

    from warroom.serve import LiveClass

    now = datetime.now(UTC)
    with ResultsStore(tmp_path) as store:
        for host in ("lab:8000#a1b2c3", "lab:8001#d4e5f6"):  # a moment ago: fresh
            publish_live(store, host, [_row(host, "t1", "ana", "playing")], [], now.isoformat().replace("+00:00", "Z"))
    live = LiveClass("lab:8000#ffffff", tmp_path)
    live.tick(now)
    live.close()
    with ResultsStore(tmp_path) as store:
        assert [r.host for r in read_live(store)] == ["lab:8001#d4e5f6"]


def test_a_live_class_whose_child_ended_writes_all_its_rows_again_once_a_new_child_holds_the_store(tmp_path: Path):
    """The live class asks its child's store whether it is open (:attr:`LiveStore.store_open`) instead of keeping a
    flag of its own: after a call failed (here the child killed), the next round deletes the host's earlier rows
    and writes every row again, not only those that changed."""
    import os
    import signal
    from datetime import UTC, datetime

    from warroom.serve import LiveClass

    now = datetime.now(UTC)
    live = LiveClass("lab:8000#a1b2c3", tmp_path)
    try:
        live.tab_opened("tab-1", "ana", None)
        live.tick(now)
        assert live.problem is None and live._store is not None and live._store.store_open
        with ResultsStore(tmp_path) as store:
            forget_host(store, "lab:8000#a1b2c3")  # the rows lost: unchanged, a new child must write them again
        os.kill(live._store.pid or 0, signal.SIGKILL)
        live._store._process.wait()
        live.tick(now)
        assert live.problem is not None and not live._store.store_open
        live.tick(now)
        assert live.problem is None and live._store.store_open
        assert [(r.tab, r.trainee) for r in live.snapshot] == [("tab-1", "ana")]
    finally:
        live.close()
    assert live._store is None
