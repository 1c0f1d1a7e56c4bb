"""PostgreSQL's kept counts (:mod:`warroom.store.counts`) under concurrent writers: two facilitators deleting
sets of sessions of the same keys, whose rows come in opposite key orders, interleaved at a barrier: each deletion
paused at its first row's after-row triggers until both are, by a test trigger waiting on an advisory lock the test
holds (a session both delete would make the second wait for the first before that, on the session's row).
Version 9's statement triggers upsert the keys in key order at the end of each statement: no deadlock, and the
counts stay exact. Version 8's row triggers, interleaved the same way, deadlock (which shows that the barrier makes
the interleaving that used to).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from counts_support import as_version_8, assert_counts_exact, row_triggers
from stats_support import add

from warroom.store.counts import TRIGGERS
from warroom.store.errors import StoreError
from warroom.store.results import ResultsStore

# After each row deleted (after-row triggers run once the statement has deleted its rows): the first time in a
# transaction whose setting warroom_test.pause names an advisory lock, wait for that lock (held by the test), then
# clear the setting. Its name sorts after the counts' delete trigger, so with row triggers the row's counts are
# upserted (their row locked) before the pause.
_PAUSE = (
    "CREATE FUNCTION pause_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF coalesce(current_setting('warroom_test.pause', true), '') <> '' THEN "
    "PERFORM pg_advisory_xact_lock(current_setting('warroom_test.pause')::bigint); "
    "PERFORM set_config('warroom_test.pause', '', false); END IF; RETURN NULL; END $$",
    f"CREATE TRIGGER {TRIGGERS[2]}_pause AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION pause_once()",
)


def _cohort(store: ResultsStore) -> None:
    """Sessions stored in this order (the order a deletion meets them): A's of keys ann then bob, B's of bob then
    ann."""
    for sid, trainee in (("a1", "ann"), ("a2", "bob"), ("b1", "bob"), ("b2", "ann"), ("keep", "bob")):
        add(store, sid, trainee, "A", "contained", 70, ttd=4.0)


def _paused(monitor: ResultsStore, pid: int) -> bool:
    sql = "SELECT wait_event FROM pg_stat_activity WHERE pid = ?"
    return monitor._conn.execute(sql, (pid,)).fetchone()[0] == "advisory"


def _delete_concurrently(tmp_path: Path, url: str, upgrade: bool = True) -> tuple[list[int], list[BaseException]]:
    """Two stores delete [a1, a2] and [b1, b2] at once, each paused after its first row until both are;
    returns how many each deleted and the errors raised (``upgrade`` False: the stores opened as they are)."""
    deleted: list[int] = []
    errors: list[BaseException] = []
    with (
        ResultsStore(tmp_path, url=url, upgrade=upgrade) as monitor,
        ResultsStore(tmp_path, url=url, upgrade=upgrade) as a,
        ResultsStore(tmp_path, url=url, upgrade=upgrade) as b,
    ):
        monitor._conn.execute("SELECT pg_advisory_lock(1), pg_advisory_lock(2)")

        def run(store: ResultsStore, ids: list[str]) -> None:
            try:
                deleted.append(store.delete(ids))
            except BaseException as exc:  # the deadlock's error, reported to the test
                errors.append(exc)

        threads = []
        for lock, (store, ids) in enumerate(((a, ["a1", "a2"]), (b, ["b1", "b2"])), start=1):
            store._conn.execute(f"SELECT set_config('warroom_test.pause', '{lock}', false)")
            pid = store._conn.execute("SELECT pg_backend_pid()").fetchone()[0]
            threads.append(threading.Thread(target=run, args=(store, ids)))
            threads[-1].start()
            while not _paused(monitor, pid):  # the barrier: this deletion waits after its first row
                assert threads[-1].is_alive(), (deleted, errors)
                time.sleep(0.01)
        monitor._conn.execute("SELECT pg_advisory_unlock_all()")  # both go on
        for thread in threads:
            thread.join(timeout=60)
            assert not thread.is_alive()
    return deleted, errors


def test_two_deletions_of_the_same_keys_in_opposite_orders_do_not_deadlock(tmp_path: Path, store_url: str):
    with ResultsStore(tmp_path, url=store_url) as store:
        _cohort(store)
        assert not any(row_triggers(store).values())
        for statement in _PAUSE:
            store._conn.execute(statement)
    deleted, errors = _delete_concurrently(tmp_path, store_url)
    assert errors == []
    assert deleted == [2, 2]
    with ResultsStore(tmp_path, url=store_url) as store:
        assert [r.session_id for r in store.query()] == ["keep"]
        kept = assert_counts_exact(store)
        assert sum(c[1] for c in kept.values()) == 1


def test_version_8s_row_triggers_deadlocked_there(tmp_path: Path, store_url: str):
    with ResultsStore(tmp_path, url=store_url) as store:
        _cohort(store)
        as_version_8(store)
        assert all(row_triggers(store).values())
        for statement in _PAUSE:
            store._conn.execute(statement)
    deleted, errors = _delete_concurrently(tmp_path, store_url, upgrade=False)
    assert len(deleted) == len(errors) == 1
    assert isinstance(errors[0], StoreError) and "deadlock detected" in str(errors[0])
    assert getattr(errors[0].__cause__, "sqlstate", None) == "40P01"


def test_migration_9_gives_a_version_8_store_the_statement_triggers(tmp_path: Path, store_url: str):
    from warroom.store.schema import SCHEMA_VERSION

    with ResultsStore(tmp_path, url=store_url) as store:
        _cohort(store)
        as_version_8(store)
        store.delete(["a1"])  # kept by the row triggers
    with ResultsStore(tmp_path, url=store_url) as store:
        assert store.schema_version == SCHEMA_VERSION == 9
        assert row_triggers(store) == dict.fromkeys(TRIGGERS, False)
        assert_counts_exact(store)
        store.delete(["a2", "b2"])  # now by the statement triggers
        add(store, "d", "cy", "B", "missed", 10)
        store._conn.execute("UPDATE sessions SET trainee = 'ann' WHERE trainee = 'bob'")  # many rows, keys merged
        store._conn.execute("UPDATE sessions SET notes = '[]'")  # no column the counts read
        kept = assert_counts_exact(store)
        assert {key[2] for key in kept} == {"ann", "cy"}


pytestmark = pytest.mark.usefixtures("postgres_server")
