"""Recovery never crashes a start and never loses a session silently: bad journal lines are checked with the store's
models, unrecoverable journals are quarantined (kept, named, not retried), failures to store keep the journal, and
non-regular files in the journals folder are never opened."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from store_support import bundled_drill_path, load, scorecard

from warroom.core.model import Action, ActionKind
from warroom.store.errors import StoreError
from warroom.store.journal import NotRegularFile, SessionRecorder, read_journal, recover_unfinished
from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


def killed_session(data_dir: Path, extra: list[dict] | None = None, start: dict | None = None) -> Path:
    """A session killed after one inspect, its journal with ``extra`` lines appended and ``start`` keys changed."""
    path = bundled_drill_path()
    rec = SessionRecorder.start(data_dir, "ann", path, load(path))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()
    lines = rec.journal_path.read_text().splitlines()
    if start:
        lines[0] = json.dumps({**json.loads(lines[0]), **start})
    lines += [json.dumps(x) for x in extra or []]
    rec.journal_path.write_text("\n".join(lines) + "\n")
    return rec.journal_path


def end_line(**card: object) -> dict:
    d = {**scorecard(outcome="missed", total=12).to_dict(), **card}
    return {"type": "end", "ended_at": "2026-11-29T10:00:00+00:00", "outcome": d["outcome"], "total": d["total"],
            "scorecard": d}  # fmt: skip


def stored_ids(data_dir: Path) -> list[str]:
    with ResultsStore(data_dir) as store:
        return [r.session_id for r in store.query()]


# -- item 7: corrupt journal lines ----------------------------------------------------------------------------------


def test_an_action_time_of_1e308_is_a_corrupt_line_skipped_and_reported(tmp_path: Path):
    bad_time = {"type": "action", "seq": 2, "at": "x", "action": {"t": 1e308, "kind": "pause"}}
    journal = killed_session(tmp_path, [bad_time])
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and [a.kind for a in r.actions] == ["inspect", "quit"]
    line = (tmp_path / "journals" / "done" / journal.name).read_text(encoding="utf-8").splitlines()[2]
    at = line.index('"t"') + 1  # the column of the key of the value refused
    assert any(f"{journal}:3:{at}: corrupt action line (action.t: the drill time 1e+308 is not between 0 and" in p
               for p in r.problems)  # fmt: skip
    assert stored_ids(tmp_path) == [r.session_id]


@pytest.mark.parametrize("total", [10**30, "abc", -5])
def test_an_end_line_with_a_bad_total_is_reported_and_the_session_scored_from_its_actions(tmp_path: Path, total):
    killed_session(tmp_path, [end_line(total=total)])
    (r,) = recover_unfinished(tmp_path)
    assert r.stored and r.outcome == "abandoned" and r.total == 0
    assert any("corrupt end line (total:" in p for p in r.problems)
    with ResultsStore(tmp_path) as store:
        assert store.get(r.session_id).total == 0


@pytest.mark.parametrize(
    ("start", "why"),
    [
        ({"drill_sha256": 12345}, "drill_sha256: Input should be a valid string (got 12345)"),
        ({"drill_version": "x"}, "drill_version: Input should be a valid integer"),
        ({"trainee": None}, "trainee: Input should be a valid string (got None)"),
        ({"started_at": "yesterday"}, "started_at: not an ISO 8601 date and time"),
        ({"session_id": "../../etc"}, "session_id: a session id is letters"),
    ],
)
def test_a_start_line_with_bad_values_is_quarantined_once(tmp_path: Path, start: dict, why: str):
    journal = killed_session(tmp_path, start=start)
    raw = journal.read_bytes()
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and r.quarantined
    dest = tmp_path / "journals" / "quarantine" / journal.name
    assert r.journal == dest and dest.read_bytes() == raw and not journal.exists()  # kept byte for byte
    assert why in r.error and "quarantined" in r.error and "not retried" in r.error and str(dest) in r.error
    assert why in (dest.parent / f"{journal.name}.why.txt").read_text()
    assert recover_unfinished(tmp_path) == []  # never retried silently
    assert stored_ids(tmp_path) == []


def test_any_failure_while_recovering_quarantines_the_journal_and_the_start_goes_on(tmp_path: Path, monkeypatch):
    import warroom.store.journal._recovery as recovery

    killed_session(tmp_path)

    def boom(drill, actions, *rules):
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(recovery, "score_session", boom)
    (r,) = recover_unfinished(tmp_path)
    assert r.quarantined and "recovering it failed: OverflowError: cannot convert float infinity" in r.error


# -- item 9: actions that do not replay -----------------------------------------------------------------------------


def test_a_journal_whose_actions_do_not_replay_is_reported_and_quarantined(tmp_path: Path):
    journal = killed_session(tmp_path, [{"type": "action", "seq": 2, "at": "x",
                                         "action": {"t": 5, "kind": "inspect", "event": "e99"}}])  # fmt: skip
    (r,) = recover_unfinished(tmp_path)
    assert r.quarantined and not r.stored
    assert "do not replay on its drill" in r.error and "no trace event 'e99'" in r.error
    assert (tmp_path / "journals" / "quarantine" / journal.name).exists()
    assert recover_unfinished(tmp_path) == []


# -- item 6: a session that fails to insert never vanishes ----------------------------------------------------------


def test_a_store_failure_keeps_the_journal_in_place_and_says_so(tmp_path: Path, monkeypatch):
    journal = killed_session(tmp_path)

    def fail(self, *args, **kwargs):
        raise StoreError("cannot store session: NOT NULL constraint failed: sessions.trainee")

    monkeypatch.setattr(ResultsStore, "insert", fail)
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and not r.quarantined and journal.exists()
    assert "NOT NULL constraint failed" in r.error and "kept in place" in r.error
    assert "recovered" not in str(r).split(":")[0]
    monkeypatch.undo()
    (r,) = recover_unfinished(tmp_path)  # retried at the next start, and stored
    assert r.stored and stored_ids(tmp_path) == [r.session_id]


def test_a_different_session_under_a_stored_id_is_quarantined_not_dropped(tmp_path: Path):
    journal = killed_session(tmp_path)
    sid = journal.stem
    lines = journal.read_text().splitlines()
    (r,) = recover_unfinished(tmp_path)
    assert r.stored
    other = {**json.loads(lines[0]), "trainee": "bob"}
    journal.write_text("\n".join([json.dumps(other), *lines[1:]]) + "\n")
    (r,) = recover_unfinished(tmp_path)
    assert r.quarantined and "another session is stored under this id" in r.error
    with ResultsStore(tmp_path) as store:
        assert store.get(sid).trainee == "ann"


def test_the_same_session_recovered_twice_is_stored_once(tmp_path: Path):
    journal = killed_session(tmp_path)
    raw = journal.read_bytes()
    (r,) = recover_unfinished(tmp_path)
    journal.write_bytes(raw)  # as if a copy came back
    (again,) = recover_unfinished(tmp_path)
    assert again.stored and stored_ids(tmp_path) == [r.session_id]


# -- item 2: non-regular files in the journals folder ---------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["20261101-100000-abcd.jsonl", ".20261101-100000-abcd.jsonl.tmp"])
def test_a_fifo_in_the_journals_folder_is_reported_never_opened(tmp_path: Path, name: str):
    killed_session(tmp_path)
    fifo = tmp_path / "journals" / name
    os.mkfifo(fifo)
    old = os.path.getmtime(fifo) - 3600
    os.utime(fifo, (old, old))  # a stale .tmp
    out: list = []
    t = threading.Thread(target=lambda: out.append(recover_unfinished(tmp_path)), daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive(), "recovery blocked on a FIFO"
    (results,) = out
    fifo_reports = [r for r in results if r.journal == fifo]
    assert len(fifo_reports) == 1 and f"{fifo} is a FIFO, not a journal file" in fifo_reports[0].error
    assert any(r.stored for r in results)  # the real journal is still recovered
    assert fifo.exists()  # left as it is
    with pytest.raises(NotRegularFile):
        read_journal(fifo)


def test_a_symbolic_link_journal_is_not_followed(tmp_path: Path):
    outside = tmp_path / "outside.jsonl"
    outside.write_text("secret\n")
    (tmp_path / "journals").mkdir()
    link = tmp_path / "journals" / "20261101-100000-abcd.jsonl"
    link.symlink_to(outside)
    (r,) = recover_unfinished(tmp_path)
    assert "is a symbolic link, not a journal file" in r.error and outside.read_text() == "secret\n"
