"""Recovery notices (issue 30): a trainee's notice box on a shared data folder can be written by any trainee, so a
box holds only pointers, and a notice is shown only as the store (or the quarantine folder) says it: of a session
stored under that trainee's name and recovered, or of a journal of theirs set aside. A forged box shows nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_support import bundled_drill_path, load, notice_box, scorecard

from warroom.core.model import Action, ActionKind
from warroom.store.journal import SessionRecorder, recover_unfinished, take_notices

pytestmark = pytest.mark.usefixtures("backend_url")


def killed(data_dir: Path, trainee: str, extra: str | None = None) -> Path:
    """A session of ``trainee`` killed after one inspect (``extra``: one more line in its journal)."""
    rec = SessionRecorder.start(data_dir, trainee, bundled_drill_path(), load(bundled_drill_path()))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()
    if extra:
        with open(rec.journal_path, "a", encoding="utf-8") as f:
            f.write(extra + "\n")
    return rec.journal_path


#: An action line that does not replay on its drill (no such plan step): its journal is set aside.
NO_STEP = '{"type":"action","seq":2,"action":{"t":5.0,"kind":"escalate","step":"s9"}}'


def finished(data_dir: Path, trainee: str) -> str:
    rec = SessionRecorder.start(data_dir, trainee, bundled_drill_path(), load(bundled_drill_path()))
    rec.record(Action(t=4.0, kind=ActionKind.QUIT))
    rec.finish(scorecard())
    return rec.session_id


def test_a_session_recovered_by_someone_else_is_told_to_its_trainee_once_from_the_store(tmp_path: Path):
    killed(tmp_path, "ann")
    (r,) = recover_unfinished(tmp_path, shown_to="fac")  # a facilitator's `warroom scores`
    assert take_notices(tmp_path, "bob") == []  # never anybody else
    assert take_notices(tmp_path, "ann") == [
        f"recovered session {r.session_id} (duplicate-charge-refunds): its warroom stopped mid-drill; recorded as "
        f"abandoned (0/100); `warroom review {r.session_id}` shows it"
    ]
    assert take_notices(tmp_path, "ann") == []  # shown once
    assert not any((tmp_path / "journals" / "notices").iterdir())


def test_a_box_written_by_another_trainee_shows_no_made_up_notice(tmp_path: Path):
    killed(tmp_path, "bob")
    (bobs,) = recover_unfinished(tmp_path, shown_to="fac")  # bob's own recovered session
    take_notices(tmp_path, "bob")
    played = finished(tmp_path, "ann")  # ann's session, played to its end: never recovered
    killed(tmp_path, "bob", extra=NO_STEP)  # bob's journal, set aside
    (set_aside,) = recover_unfinished(tmp_path, shown_to="fac")
    assert set_aside.quarantined
    box = notice_box(tmp_path, "ann")
    box.parent.mkdir(parents=True, exist_ok=True)
    forged = [
        {"at": "2026-12-01T10:00:00+00:00", "text": "Your facilitator says: sign in again at http://evil.example"},
        {"at": "x", "session": bobs.session_id},  # another trainee's recovered session
        {"at": "x", "session": played},  # ann's own, never recovered
        {"at": "x", "session": "no-such-session"},
        {"at": "x", "session": "../../etc/passwd"},
        {"at": "x", "set_aside": set_aside.journal.name},  # bob's journal set aside, not ann's
        {"at": "x", "set_aside": "../../results.sqlite3"},
    ]
    twice = '{"at": "x", "session": "a", "session": "b"}'  # and a key twice
    box.write_text("\n".join([*(json.dumps(p) for p in forged), twice]) + "\n")
    assert take_notices(tmp_path, "ann") == []
    assert not box.exists()  # taken all the same


def test_a_journal_set_aside_is_told_to_its_trainee_and_repeating_a_true_pointer_shows_it_once(tmp_path: Path):
    killed(tmp_path, "ann", extra=NO_STEP)
    (r,) = recover_unfinished(tmp_path, shown_to="fac")
    assert r.quarantined
    name = r.journal.name
    told = take_notices(tmp_path, "ann")
    assert told == [f"a session of yours could not be recovered and was set aside, not stored: journals/quarantine/"
                    f"{name} (the reason is in {name}.why.txt beside it; ask your facilitator)"]  # fmt: skip
    box = notice_box(tmp_path, "ann")  # another trainee repeats the pointer: the same true notice, once
    box.write_text("".join(json.dumps({"at": at, "set_aside": name}) + "\n" for at in ("x", "y")))
    assert take_notices(tmp_path, "ann") == told


def test_a_box_filled_with_pointers_costs_one_query_and_shows_the_true_notice_once(tmp_path: Path, monkeypatch):
    """A trainee filling another's box (up to its 256 KiB) with made-up ids costs that trainee's start one read of
    their recovered sessions, never one search of the store per pointer."""
    from warroom.store.results import ResultsStore

    killed(tmp_path, "ann")
    (r,) = recover_unfinished(tmp_path, shown_to="fac")
    box = notice_box(tmp_path, "ann")
    lines = [json.dumps({"at": "x", "session": f"made-up-{i:05}"}) for i in range(4000)]
    box.write_text("\n".join([json.dumps({"at": "x", "session": r.session_id}), *lines, ""]))
    with ResultsStore(tmp_path) as store:
        reads = []
        real = store.query_readable
        monkeypatch.setattr(store, "query_readable", lambda **kw: reads.append(kw) or real(**kw))
        (told,) = take_notices(tmp_path, "ann", store)
    assert reads == [{"trainee": "ann"}] and told.startswith(f"recovered session {r.session_id} ")
