"""The local queue of a shared store: sessions finished while the PostgreSQL server is down stay in the journal
folder and arrive once (``warroom store sync``, or the next start), however often they are delivered."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import PostgresServer
from store_support import bundled_drill_path, load, scorecard

from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.cohort import cohort_stats
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore


def play(data: Path, trainee: str, tag: int) -> SessionRecorder:
    """One finished session of the bundled drill for ``trainee``, its escalation's note ending in ``#tag`` (the
    store keeps the score the actions make, whatever scorecard is passed: the note tells the sessions apart)."""
    path = bundled_drill_path()
    rec = SessionRecorder.start(data, trainee, path, load(path))
    rec.record(Action(t=1.0, kind=ActionKind.INSPECT, event="e01"))
    rec.record(Action(t=2.0, kind=ActionKind.ESCALATE, step="s1", note=f"{trainee} escalates #{tag}"))
    rec.finish(scorecard(total=tag))
    return rec


def tags(data: Path, rows: list) -> list[int]:
    """The tag of each stored session (see :func:`play`)."""
    with ResultsStore(data) as store:
        return [int(store.get(r.session_id).actions[-1].note.rsplit("#", 1)[1]) for r in rows]


def sync(data: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["store", "sync", "--data-dir", str(data)])
    return result.exit_code, result.output


def test_sessions_queued_while_the_server_is_down_arrive_once(
    tmp_path: Path, own_postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
):
    server = own_postgres_server
    monkeypatch.setenv("WARROOM_STORE", server.url())
    data = tmp_path / "data"
    first = play(data, "ann", 90)
    assert not first.queued and (data / "journals" / "done" / f"{first.session_id}.jsonl").exists()

    server.stop("immediate")  # the server dies between two sessions
    queued = [play(data, "bob", 50), play(data, "cho", 60)]
    assert all(r.queued for r in queued)
    waiting = sorted(p.name for p in (data / "journals").glob("*.jsonl"))
    assert waiting == sorted(f"{r.session_id}.jsonl" for r in queued)
    code, output = sync(data)
    assert code == 1 and "cannot connect to the results store" in output
    assert sorted(p.name for p in (data / "journals").glob("*.jsonl")) == waiting  # nothing lost, nothing moved

    server.start()
    code, output = sync(data)
    assert code == 0 and "2 sessions delivered; 0 still waiting" in output
    # Delivered again (a lost reply after the commit, a journal put back by hand): recognised by its id, not doubled.
    done = data / "journals" / "done" / f"{queued[0].session_id}.jsonl"
    shutil.copyfile(done, data / "journals" / done.name)
    code, output = sync(data)
    assert code == 0 and "1 session delivered; 0 still waiting" in output
    with ResultsStore(data, url=server.url()) as store:
        counted = cohort_stats(store, mode="all").stats.trainees
        assert sum(t.sessions + t.abandoned for t in counted) == 3  # the cohort statistics: each session once
    with ResultsStore(data) as store:
        rows = store.query(sort="trainee")
    assert [r.trainee for r in rows] == ["ann", "bob", "cho"] and tags(data, rows) == [90, 50, 60]
    assert [r.recovered for r in rows] == [False, True, True]  # delivered late, and marked so


def test_the_next_start_delivers_the_queue(
    tmp_path: Path, own_postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
):
    server = own_postgres_server
    monkeypatch.setenv("WARROOM_STORE", server.url())
    data = tmp_path / "data"
    server.stop("immediate")
    rec = play(data, "ann", 70)
    assert rec.queued
    down = CliRunner().invoke(main, ["scores", "--data-dir", str(data)])
    assert down.exit_code == 1 and "stay queued" in down.output and "Traceback" not in down.output
    server.start()
    up = CliRunner().invoke(main, ["scores", "--data-dir", str(data), "--format", "json"])
    assert up.exit_code == 0, up.output
    assert rec.session_id in up.output
    assert list((data / "journals").glob("*.jsonl")) == []


def test_the_war_room_opens_when_the_shared_store_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """Before the terminal UI opens, an unreachable shared store is a warning (the session will be queued), while a
    store that refuses this warroom is still an error."""
    import click

    from warroom.cli.common import check_store
    from warroom.core.settings import Settings

    settings = Settings.resolve(trainee="ann", data_dir=tmp_path / "data")
    monkeypatch.setenv("WARROOM_STORE", f"postgresql://ann:hunter2@/cohort?host={tmp_path}/nowhere")
    check_store(settings)
    err = capsys.readouterr().err
    assert "warning: cannot connect to the results store postgresql://ann:***@/cohort" in err and "hunter2" not in err
    monkeypatch.setenv("WARROOM_STORE", "mysql://ann@db/x")
    with pytest.raises(click.ClickException, match="neither sqlite"):
        check_store(settings)


def test_server_killed_while_sessions_are_being_written_loses_and_doubles_nothing(
    tmp_path: Path, own_postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
):
    """One thread finishes sessions without a pause while the server is killed (immediate shutdown, whatever it was
    doing) and started again: every session is stored or queued, and after a sync each is in the store once."""
    import threading
    import time

    server = own_postgres_server
    monkeypatch.setenv("WARROOM_STORE", server.url())
    data = tmp_path / "data"
    played: list[SessionRecorder] = []
    failures: list[BaseException] = []

    def writer() -> None:
        try:
            for i in range(30):
                played.append(play(data, f"t{i % 3}", i))
        except BaseException as exc:  # reported below: a session that could be neither stored nor queued
            failures.append(exc)

    thread = threading.Thread(target=writer)
    thread.start()
    while len(played) < 5 and thread.is_alive():
        time.sleep(0.01)
    server.stop("immediate")  # mid-stream: a connect, an insert or a commit is cut off
    queued_from = len(played)
    while len(played) < queued_from + 5 and thread.is_alive():
        time.sleep(0.01)
    server.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and failures == []
    assert any(r.queued for r in played)
    code, output = sync(data)
    assert code == 0, output
    code, output = sync(data)  # a second sync finds nothing left and stores nothing twice
    assert code == 0 and "0 sessions delivered; 0 still waiting" in output
    with ResultsStore(data) as store:
        rows = store.query(limit=0)
    assert sorted(r.session_id for r in rows) == sorted(r.session_id for r in played)
    assert len(rows) == 30 and sorted(tags(data, rows)) == list(range(30))
