"""Campaign 19 (issue 30): the store's per-cohort PostgreSQL roles and the served room's live table, attacked on the
newest code (docs/cohorts.md, "Roles: who sees what"; docs/serve.md)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from pg_support import PostgresServer

from warroom.cli import main
from warroom.store.live import read_live


def _cli(url: str, data: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--store", url, *args, "--data-dir", str(data)])
    assert "Traceback" not in result.output, result.output
    return result


def test_a_cohort_store_beside_a_store_in_public_is_secured_again_without_a_false_sharing_refusal(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A database holding a store in ``public`` and a cohort's store in a schema of its own: ``public`` grants
    USAGE to every role (PUBLIC), so the cohort's roles were said to "reach" the store in ``public`` (where they may
    read no table): running ``store secure`` again, which the docs say changes nothing, was refused ("already
    secure the store in schema `public`") and ``store status`` warned of a sharing that is not there."""
    tag = uuid.uuid4().hex[:8]
    db, schema = f"d_{tag}", f"k_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)
    public, cohort = postgres_server.url(db), postgres_server.url(db, schema=schema)
    assert _cli(public, tmp_path, "store", "migrate").exit_code == 0
    first = _cli(cohort, tmp_path, "store", "secure")
    assert first.exit_code == 0 and first.stderr == "", first.output
    again = _cli(cohort, tmp_path, "store", "secure")
    assert again.exit_code == 0 and again.stderr == "", again.output
    shared = _cli(public, tmp_path, "store", "secure").stderr  # the documented pair: other tests' databases on this
    assert "schema `" not in shared, shared  # server may hold it too (a true warning), never this database's cohort
    status = json.loads(_cli(cohort, tmp_path, "store", "status", "--format", "json").stdout)
    assert (status["roles"]["trainee"], status["shares_roles_with"]) == (f"warroom_trainee_{schema}", [])


def test_a_hung_live_table_child_is_given_up_within_a_bound_and_a_new_one_serves(tmp_path: Path, monkeypatch) -> None:
    """The live table's child stopped (SIGSTOP, a deadlock, a debugger): the host waited on its answer for ever, so
    the worker thread hung, every tab's claim behind it never opened and ``warroom serve`` never ended on Ctrl-C
    (its last call deletes this host's rows). A call of a child that answered before now waits at most
    :data:`CALL_WAIT_S`; the child is killed, the live table is said unavailable, and the next call starts another."""
    import os
    import signal
    import time

    from warroom.serve import LiveClass, _livestore

    monkeypatch.setattr(_livestore, "CALL_WAIT_S", 0.5)
    live = LiveClass("lab:8000#abc123", tmp_path)
    live.tab_opened("tab-1", "ann", None)
    try:
        live.tick()
        assert live.problem is None and live._store is not None and live._store.pid is not None
        hung = live._store.pid
        os.kill(hung, signal.SIGSTOP)
        started = time.monotonic()
        live.tick()
        assert time.monotonic() - started < 5
        assert live.problem is not None and "did not answer within 0.5 s" in live.problem, live.problem
        assert [r.tab for r in live.snapshot] == ["tab-1"]  # this host's own tabs
        live.tick()
        assert live.problem is None and live._store.pid not in (None, hung)
    finally:
        live._forget()


def test_the_live_table_child_imports_the_hosts_warroom_not_a_file_of_the_servers_working_folder(
    tmp_path: Path, monkeypatch
) -> None:
    """``warroom serve`` run in a folder holding a ``warroom.py`` (or ``sqlite3.py``, ...): the child, a ``python -c``,
    put the working folder first on its path and ran that file instead (code of whoever could write the folder,
    run as the facilitator), so the live table never worked and a new child ran it again every half second, the
    console saying the store's files had become read-only. The child now imports the host's own warroom."""
    from warroom.serve._livestore import LiveStore

    (tmp_path / "warroom.py").write_text("raise SystemExit('a file of the working folder ran')\n")
    (tmp_path / "sqlite3.py").write_text("raise SystemExit('a file of the working folder ran')\n")
    monkeypatch.chdir(tmp_path)
    store = LiveStore(tmp_path / "data")
    try:
        assert store.call(read_live) == []
    finally:
        store.close()


def test_a_live_table_child_that_ends_without_a_sigbus_is_not_said_to_be_a_fault_of_shared_memory(
    tmp_path: Path, monkeypatch
) -> None:
    """A child that ends with an exit status (an error at its start, its traceback in the server's output), or a
    PostgreSQL store's child killed (the OOM killer's SIGKILL), was said to be SQLite's shared memory of a folder
    made read-only (SIGBUS), with the advice to make the data folder writable."""
    import pytest

    from warroom.serve import _livestore
    from warroom.serve._livestore import LiveStore
    from warroom.store.errors import StoreError

    dead = LiveStore(tmp_path / "data", url="postgresql://fac:secret@db.example/warroom")
    dead._start()
    dead._process.kill()
    dead._process.wait(10)
    with pytest.raises(StoreError) as ended:
        dead.call(read_live)
    said = str(ended.value)
    assert "killed by SIGKILL" in said and "SIGBUS" not in said and "writable" not in said, said
    assert "secret" not in said
    monkeypatch.setattr(_livestore, "_CHILD", "import sys; sys.exit(3)")
    failed = LiveStore(tmp_path / "data")
    with pytest.raises(StoreError) as ended:
        failed.call(read_live)
    said = str(ended.value)
    assert "exit status 3" in said and "SIGBUS" not in said and "server's output" in said, said

def test_a_live_table_child_hung_before_its_first_answer_is_given_up_within_a_bound(tmp_path: Path, monkeypatch):
    """A new child's first call (an interpreter started, the store opened and perhaps migrated) was waited for
    without a bound: a child hung as it starts (a server that accepts the connection and never answers) held the
    host's one live-table thread, and every tab's claim behind it, for ever. It is given up after
    :data:`FIRST_CALL_WAIT_S`, the child killed, and the live table said unavailable."""
    import time

    from warroom.serve import _livestore
    from warroom.serve._livestore import LiveStore
    from warroom.store.errors import StoreError

    monkeypatch.setattr(_livestore, "FIRST_CALL_WAIT_S", 0.5)
    monkeypatch.setattr(_livestore, "_CHILD", "import time; time.sleep(60)")
    hung = LiveStore(tmp_path / "data")
    began = time.monotonic()
    with pytest.raises(StoreError) as given_up:
        hung.call(read_live)
    assert time.monotonic() - began < 10
    assert "did not answer within 0.5 s" in str(given_up.value)
    assert hung._process is None or hung._process.poll() is not None



def test_a_session_of_rules_numbered_past_what_int_converts_is_a_newer_warrooms_not_a_traceback(
    tmp_path: Path, monkeypatch
) -> None:
    """Rules newer than this warroom's were told by converting the stored version to a number: a version of 5,000
    digits (a row a trainee role's client wrote, or SQL) is past Python's 4,300-digit limit of ``int``, so
    ``scores verify`` and ``scores rescore`` stopped with a ValueError traceback, and ``scores summary`` left the
    session out naming that limit. It is a newer warroom's version, as ``7`` is, and said cut."""
    import sqlite3

    from unit.test_forgeries import GOOD, play

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    session_id = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    version = "9" * 5000
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        (card,) = db.execute("SELECT scorecard FROM sessions").fetchone()
        db.execute("UPDATE sessions SET scoring_version = ?, scorecard = ?",
                   (version, json.dumps({**json.loads(card), "scoring_version": version})))  # fmt: skip
    db.close()
    data = ["--data-dir", str(tmp_path)]
    summary = json.loads(CliRunner().invoke(main, ["scores", "summary", "--format", "json", *data]).stdout)
    assert (summary["counted"]["trials"], summary["counted"]["approximated"]) == (1, 0), summary["counted"]
    verified = CliRunner().invoke(main, ["scores", "verify", "--format", "json", *data])
    assert verified.exception is None or isinstance(verified.exception, SystemExit), repr(verified.exception)
    (verdict,) = json.loads(verified.stdout)
    assert verdict["verdict"] == "unverifiable" and "999999999999… (5,000 digits)" in verdict["problems"][0], verdict
    rescored = CliRunner().invoke(main, ["scores", "rescore", "--yes", *data])
    assert rescored.exception is None or isinstance(rescored.exception, SystemExit), repr(rescored.exception)
    assert f"skipped: {session_id}" in rescored.output and "newer warroom" in rescored.output, rescored.output


def test_a_sigterm_to_the_servers_process_group_leaves_the_live_child_to_delete_the_hosts_rows(
    tmp_path: Path, caplog
) -> None:
    """``systemctl stop`` (SIGTERM to every process of the service), ``timeout`` or ``kill -- -PGID`` signal the live
    table's child with the host: the child died first, so the host's last call, deleting its rows from the live
    table as it stops, failed (`killed by SIGTERM`) and every console showed its tabs live until they aged out.
    The child runs in a process group of its own and leaves SIGTERM (and SIGHUP) to the host, as it does Ctrl-C: it
    ends when the host closes its end."""
    import os
    import signal

    from warroom.serve import LiveClass
    from warroom.serve._livestore import LiveStore

    live = LiveClass("lab:8000#abc123", tmp_path)
    live.tab_opened("tab-1", "ann", None)
    live.tick()
    assert live.problem is None and live._store is not None and live._store.pid is not None
    child = live._store.pid
    assert os.getpgid(child) != os.getpgid(0)  # nor does a signal to the group reach it while it starts
    for sent in (signal.SIGTERM, signal.SIGHUP):
        os.kill(child, sent)
    live._forget()
    assert "could not be deleted" not in caplog.text, caplog.text
    reader = LiveStore(tmp_path)
    try:
        assert reader.call(read_live) == []
    finally:
        reader.close()


def test_a_refused_login_role_is_told_the_grant_of_a_schema_whose_quoted_name_holds_a_comma(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A login role that may use no schema is told the grant of the roles of the store its URL names, read from its
    search path (``?options=-csearch_path%3D"a,b"``): the path was split at every comma, quoted names too, so a
    schema ``a,b`` was read as ``"a`` and the role told ``GRANT "warroom_trainee_""a", or ...``, roles that do not
    exist."""
    from urllib.parse import quote

    from pg_support import as_role

    tag = uuid.uuid4().hex[:8]
    schema, login = f"k{tag},b", f"nobody_{tag}"
    postgres_server.sql(f'CREATE SCHEMA "{schema}"')
    postgres_server.sql(f"CREATE ROLE {login} LOGIN")
    url = postgres_server.url() + "&options=" + quote(f'-c search_path="{schema}"', safe="")
    assert _cli(url, tmp_path, "store", "secure").exit_code == 0
    refused = _cli(as_role(url, login), tmp_path, "scores", "list")
    assert refused.exit_code == 1
    said = " ".join(refused.output.split())
    assert f'GRANT "warroom_trainee_{schema}", or "warroom_facilitator_{schema}", TO it' in said, said


def test_a_live_table_child_that_keeps_ending_is_started_again_less_and_less_often(tmp_path: Path, monkeypatch) -> None:
    """A fault that stays (a data folder left immutable: each new child faults at its first write) started a new
    interpreter, which imported the store and faulted, at every call, every half second: most of a core for as long
    as the fault stayed. The first new child starts at the next call (a passing fault costs nothing); each next one
    after twice as long, at most :data:`RESTART_MAX_S`; meanwhile a call says why, without a child."""
    import time

    import pytest

    from warroom.serve import _livestore
    from warroom.serve._livestore import LiveStore
    from warroom.store.errors import StoreError

    monkeypatch.setattr(_livestore, "_CHILD", "import sys; sys.exit(3)")  # ends at once, every time
    store = LiveStore(tmp_path / "data")
    started = []
    real_start = store._start
    monkeypatch.setattr(store, "_start", lambda: (started.append(1), real_start())[1])
    for _ in range(6):
        with pytest.raises(StoreError) as failed:
            store.call(read_live)
    assert len(started) == 2, started  # the first child, then one more at once; the next waits a second
    assert "exit status 3" in str(failed.value) and "the next try in" in str(failed.value), failed.value
    store._retry_at = 0.0  # a second later
    with pytest.raises(StoreError):
        store.call(read_live)
    assert len(started) == 3 and store._retry_at - time.monotonic() > 1.5  # then two seconds
