"""The SQLite results store: schema and versions, insert, get, filters, sorting, concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from store_support import add_session, bundled_drill_path, known_sessions, load, scorecard

from warroom.core.model import Action, ActionKind
from warroom.store.datadir import DB_NAME
from warroom.store.errors import SessionNotFound, StoreError, StoreVersionError
from warroom.store.results import SCHEMA_VERSION, ResultsStore, SessionInfo
from warroom.store.timestamps import parse_since


@pytest.fixture
def store(tmp_path: Path, backend_url: str | None):
    with ResultsStore(tmp_path, url=backend_url) as s:
        yield s


def user_version(data_dir: Path) -> int:
    """The schema version of the results database in ``data_dir`` (``PRAGMA user_version``)."""
    conn = sqlite3.connect(data_dir / DB_NAME)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_new_store_has_schema_version_and_wal(tmp_path: Path):
    ResultsStore(tmp_path).close()
    assert user_version(tmp_path) == SCHEMA_VERSION
    conn = sqlite3.connect(tmp_path / DB_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_version_1_store_is_upgraded_keeping_its_rows(tmp_path: Path):
    from warroom.store.results._migrations import MIGRATIONS as _MIGRATIONS

    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.executescript(_MIGRATIONS[1])
    conn.execute(
        "INSERT INTO sessions (session_id, trainee, drill_id, started_at, outcome, total, scorecard, actions) "
        "VALUES ('s-1', 'ana', 'd1', '2026-01-01T00:00:00+00:00', 'contained', 80, '{}', '[]')"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with ResultsStore(tmp_path) as s:
        assert user_version(tmp_path) == SCHEMA_VERSION == 25
        (row,) = s.query()
    assert (row.session_id, row.total, row.mode, row.set_id, row.seed) == ("s-1", 80, "practice", None, None)
    assert (row.pauses, row.paused_seconds, row.wall_time_to_detect) == (0, None, None)


def test_newer_schema_version_is_refused_and_left_untouched(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("CREATE TABLE future (x)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = (tmp_path / DB_NAME).read_bytes()
    with pytest.raises(StoreVersionError, match="newer warroom"):
        ResultsStore(tmp_path)
    assert (tmp_path / DB_NAME).read_bytes() == before
    assert not (tmp_path / f"{DB_NAME}-wal").exists()


def test_file_that_is_not_a_database_is_a_clear_error_and_kept(tmp_path: Path):
    (tmp_path / DB_NAME).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError) as raised:
        ResultsStore(tmp_path)
    # What it is and what to do (campaign 15: it said "file is not a database" and nothing to do).
    assert str(raised.value) == (
        f"the results store {tmp_path / DB_NAME} is not an SQLite database (file is not a database): another "
        "program's file, or one written over; warroom did not use or change it. Move it aside (e.g. rename it to "
        f"{DB_NAME}.not-a-store) and put back a copy from a backup, or let warroom start a new, empty store; or give "
        f"another data directory with --data-dir. The journal of every session stored in it is kept in "
        f"{tmp_path / 'journals' / 'done'}."
    )
    assert (tmp_path / DB_NAME).read_bytes() == b"this is not sqlite" * 100


def test_missing_store_without_create(tmp_path: Path):
    with pytest.raises(StoreError, match="no results store"):
        ResultsStore(tmp_path / "nowhere", create=False)
    assert not (tmp_path / "nowhere").exists()


def test_insert_is_idempotent_and_get_returns_everything(store: ResultsStore):
    actions = [
        Action(t=3, kind=ActionKind.FLAG, event="e04", note="odd"),
        Action(t=4, kind=ActionKind.ESCALATE, step="s1"),
    ]
    add_session(store, "20261101-100000-abcd", trainee="ann", actions=actions, total=77, drill_sha256="f" * 64)
    from warroom.store.errors import DuplicateSession
    from warroom.store.results import SessionInfo

    same = store.get("20261101-100000-abcd").info()
    assert store.insert(same, scorecard(total=1), actions, ended_at=None) is False  # the same session twice: ignored
    with pytest.raises(DuplicateSession, match="with another action log"):  # the same start, another log
        store.insert(same, scorecard(total=1), [], ended_at=None)
    other = SessionInfo("20261101-100000-abcd", "mallory", "X", 1, None, None, "2026-01-01T00:00:00+00:00")
    with pytest.raises(DuplicateSession, match="another session is stored under this id"):
        store.insert(other, scorecard(total=1), [], ended_at=None)  # a different session: never silently dropped
    s = store.get("20261101-100000-abcd")
    assert (s.trainee, s.total, s.drill_sha256) == ("ann", 77, "f" * 64)
    assert s.actions == actions
    assert s.scorecard["lines"] == ["contained: 77/100"]
    assert store.count() == 1


def test_get_by_unique_prefix_ambiguous_and_unknown(store: ResultsStore):
    add_session(store, "20261101-100000-aaaa", trainee="ann")
    add_session(store, "20261101-100000-aabb", trainee="ann")
    add_session(store, "20261102-090000-cccc", trainee="ann")
    assert store.get("20261102").session_id == "20261102-090000-cccc"
    assert store.get("20261101-100000-aab").session_id == "20261101-100000-aabb"
    with pytest.raises(SessionNotFound, match="matches several") as err:
        store.get("20261101-100000-aa")
    assert err.value.matches == ["20261101-100000-aaaa", "20261101-100000-aabb"]
    with pytest.raises(SessionNotFound, match="no stored session"):
        store.get("1999")


def test_get_by_unique_suffix_or_part(store: ResultsStore):
    add_session(store, "20261101-100000-jwvh", trainee="ann")
    add_session(store, "20261101-100000-wvhx", trainee="ann")
    add_session(store, "20261102-090000-abwv", trainee="ann")
    assert store.get("jwvh").session_id == "20261101-100000-jwvh"  # the short suffix people remember
    assert store.get("vhx").session_id == "20261101-100000-wvhx"
    assert store.get("0-ab").session_id == "20261102-090000-abwv"  # a unique part of the id
    assert store.get("20261102").session_id == "20261102-090000-abwv"  # a prefix first
    assert store.get("wv").session_id == "20261102-090000-abwv"  # a unique suffix before a shared part
    with pytest.raises(SessionNotFound, match="session id part '100000' matches several") as err:
        store.get("100000")
    assert err.value.matches == ["20261101-100000-jwvh", "20261101-100000-wvhx"]
    with pytest.raises(SessionNotFound, match="no stored session with id 'x-100000-jwvh'"):
        store.get("x-100000-jwvh")


def test_filters_sorting_and_limit(store: ResultsStore):
    known_sessions(store)
    ids = lambda rows: [r.session_id for r in rows]  # noqa: E731
    assert ids(store.query()) == ["s7", "s6", "s5", "s4", "s3", "s2", "s1"]
    assert ids(store.query(reverse=True)) == ["s1", "s2", "s3", "s4", "s5", "s6", "s7"]
    assert ids(store.query(trainee="ann")) == ["s4", "s3", "s2", "s1"]
    assert ids(store.query(drill="A")) == ["s5", "s2", "s1"]
    assert ids(store.query(trainee="bob", drill="B")) == ["s6"]
    assert ids(store.query(since=parse_since("2026-11-05"))) == ["s7", "s6", "s5"]
    assert ids(store.query(since=parse_since("2026-11-05T10:00:00.000001"))) == ["s7", "s6"]
    assert ids(store.query(sort="score")) == ["s4", "s1", "s6", "s2", "s7", "s5", "s3"]
    assert ids(store.query(sort="score", reverse=True)) == ["s3", "s5", "s7", "s2", "s6", "s1", "s4"]
    assert ids(store.query(sort="ttd"))[:3] == ["s1", "s6", "s2"]  # fastest first, undetected after
    assert ids(store.query(sort="score", limit=2)) == ["s4", "s1"]
    assert store.count(trainee="ann") == 4
    with pytest.raises(ValueError, match="unknown sort key"):
        store.query(sort="nope")


def test_parse_since():
    assert parse_since("2026-11-29") == "2026-11-29T00:00:00.000000+00:00"
    assert parse_since("2026-11-29T14:30") == "2026-11-29T14:30:00.000000+00:00"
    assert parse_since("2026-11-29T14:30:00+02:00") == "2026-11-29T12:30:00.000000+00:00"
    assert parse_since("2026-11-29T14:30:00Z") == "2026-11-29T14:30:00.000000+00:00"
    for bad in ("yesterday", "2026-13-01", "29/11/2026", ""):
        with pytest.raises(ValueError, match="not a date or ISO datetime"):
            parse_since(bad)


def test_best_scores(store: ResultsStore):
    known_sessions(store)
    assert store.best_scores("ann") == {"A": 90, "B": 0, "C": 100}
    assert store.best_scores("bob") == {"A": 20, "B": 85, "C": 30}
    assert store.best_scores("nobody") == {}


def test_best_scores_leave_out_abandoned_sessions(store: ResultsStore):
    add_session(store, "q1", trainee="cy", drill_id="A", outcome="abandoned", total=0, ttd=None)
    add_session(store, "q2", trainee="cy", drill_id="B", outcome="abandoned", total=0, ttd=None)
    add_session(store, "p2", trainee="cy", drill_id="B", outcome="missed", total=0, ttd=None)
    add_session(store, "q3", trainee="cy", drill_id="C", outcome="abandoned", total=0, ttd=None)
    add_session(store, "p3", trainee="cy", drill_id="C", outcome="contained", total=70)
    # A only quit: no best (None), B played to a 0: best 0, C: the played session's score
    assert store.best_scores("cy") == {"A": None, "B": 0, "C": 70}


def test_update_scorecard(store: ResultsStore):
    add_session(store, "s1", trainee="ann", outcome="missed", total=0, ttd=None, drill_sha256="a" * 64)
    store.update_scorecard("s1", scorecard(outcome="contained", total=95, ttd=2.5))
    s = store.get("s1")
    assert (s.outcome, s.total, s.time_to_detect, s.scorecard["total"]) == ("contained", 95, 2.5, 95)
    assert s.rescored_at is not None
    assert (s.drill_version, s.drill_sha256, s.notes) == (1, "a" * 64, [])  # left as they were
    with pytest.raises(SessionNotFound):
        store.update_scorecard("nope", scorecard())
    with pytest.raises(SessionNotFound):
        store.update_scorecard("nope", scorecard(), note="never stored")


def test_update_scorecard_records_the_drill_file_and_a_note(store: ResultsStore):
    add_session(store, "s1", trainee="ann", drill_sha256="a" * 64, drill_path="/old/A.yaml")
    store.update_scorecard("s1", scorecard(total=70), drill_sha256="b" * 64, drill_version=3, note="first")
    store.update_scorecard("s1", scorecard(total=71), note="second")
    s = store.get("s1")
    assert (s.total, s.drill_sha256, s.drill_version, s.drill_path) == (71, "b" * 64, 3, "/old/A.yaml")
    assert s.notes == ["first", "second"]


def test_migrates_an_unversioned_empty_database(tmp_path: Path):
    # a database with no tables and no user_version (a 0-byte file is refused: tests/cli/test_lesser_breaks.py)
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("DROP TABLE t")
    conn.commit()
    conn.close()
    assert (tmp_path / DB_NAME).stat().st_size > 0
    with ResultsStore(tmp_path) as s:
        assert user_version(tmp_path) == SCHEMA_VERSION
        assert s.query() == []


# -- several processes finishing sessions at once ------------------------------------------------------------------


def _finish_sessions(args: tuple[str, str, int, str | None]) -> list[str]:
    data_dir, trainee, n, url = args
    import os

    from warroom.core.model import Action, ActionKind
    from warroom.store.journal import SessionRecorder

    if url is not None:
        os.environ["WARROOM_STORE"] = url  # what ``warroom --store URL`` does for the whole process
    path = bundled_drill_path()
    drill = load(path)
    ids = []
    for i in range(n):
        rec = SessionRecorder.start(Path(data_dir), trainee, path, drill)
        rec.record(Action(t=1.0, kind=ActionKind.INSPECT, event="e01"))
        rec.record(Action(t=2.0 + i, kind=ActionKind.ESCALATE, step="s1", note=f"{trainee} #{i}"))
        rec.finish(scorecard(total=i))
        ids.append(rec.session_id)
    return ids


def test_concurrent_writers_lose_nothing(tmp_path: Path, backend_url: str | None):
    trainees = ["ann", "bob", "cho", "dev"]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        results = pool.map(_finish_sessions, [(str(tmp_path), t, 25, backend_url) for t in trainees])
    ids = [i for r in results for i in r]
    assert len(ids) == len(set(ids)) == 100
    assert (tmp_path / DB_NAME).exists() == (backend_url is None)  # the PostgreSQL sessions never went to a file
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.count() == 100
        for t in trainees:
            rows = store.query(trainee=t, limit=0)
            tags = [int(store.get(r.session_id).actions[-1].note.rsplit("#", 1)[1]) for r in rows]
            assert sorted(tags) == list(range(25))  # (the score is the actions': the note tells them apart)
        s = store.get(ids[-1])
        assert [a.kind for a in s.actions] == ["inspect", "escalate"]
    done = sorted(p.stem for p in (tmp_path / "journals" / "done").glob("*.jsonl"))
    assert done == sorted(ids)
    assert list((tmp_path / "journals").glob("*.jsonl")) == []


def test_the_store_takes_scorecards_only(tmp_path: Path):
    """A dict (e.g. one missing its total) is refused, never stored with a made-up 0."""
    info = SessionInfo("x1", "ann", "A", 1, None, None, "2026-11-01T10:00:00.000000+00:00")
    with ResultsStore(tmp_path) as store:
        card = {k: v for k, v in scorecard().to_dict().items() if k != "total"}
        with pytest.raises(TypeError):
            store.insert(info, card, [], ended_at=None)  # type: ignore[arg-type]
        assert store.count() == 0


def _store_many(args: tuple[str, str | None, int, int, int]) -> tuple[int, int]:
    """Process ``worker`` of ``workers`` stores ``n`` sessions of its own, each one also again after the next worker
    stored it (a session delivered twice): returns (inserted, already stored)."""
    data_dir, url, worker, workers, n = args
    from warroom.store.results import SessionInfo

    inserted = already = 0
    with ResultsStore(Path(data_dir), url=url) as store:
        for i in range(n):
            for w in (worker, (worker + 1) % workers):  # its own session, then the next worker's
                info = SessionInfo(f"w{w}-{i:04d}", f"t{w}", "A", 1, None, None, f"2026-11-01T10:{w:02d}:00+00:00")
                if store.insert(info, scorecard(total=i % 101), [], ended_at=None):
                    inserted += 1
                else:
                    already += 1
    return inserted, already


def test_eight_processes_storing_50_sessions_each_lose_and_double_nothing(tmp_path: Path, backend_url: str | None):
    # 50 each (400 sessions written by two processes at once; 200 each took twice the time, most of it the disk's
    # syncs): a check-then-insert written in place of the store's ON CONFLICT failed this at its first session
    workers, n = 8, 50
    ResultsStore(tmp_path, url=backend_url).close()  # created first: the race is the writes, not the migration
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        results = pool.map(_store_many, [(str(tmp_path), backend_url, w, workers, n) for w in range(workers)])
    assert sum(r[0] for r in results) == workers * n  # each session inserted by exactly one of its two writers
    assert sum(r[1] for r in results) == workers * n
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.count() == workers * n
        flagged = store.db.conn.execute("SELECT count(*) FROM sessions WHERE countable IS TRUE").fetchone()[0]
        assert flagged == workers * n  # each concurrent insert wrote its countable flag (schema version 7)
        for w in range(workers):
            rows = store.query(trainee=f"t{w}", limit=0)
            assert sorted(r.session_id for r in rows) == [f"w{w}-{i:04d}" for i in range(n)]


def _wall_ttd(store: ResultsStore, session_id: str) -> float | None:
    sql = "SELECT wall_time_to_detect FROM sessions WHERE session_id = ?"
    row = store.db.conn.execute(sql, (session_id,)).fetchone()
    return None if row[0] is None else float(row[0])


def test_migration_6_clears_a_wall_time_to_detect_stored_without_a_detection(tmp_path: Path, backend_url: str | None):
    """Before version 6, a "right step, unsupported" session kept a wall-clock time to detect although nothing was
    detected (its drill time to detect is empty); the upgrade clears it and leaves the detected sessions' alone."""
    with ResultsStore(tmp_path, url=backend_url) as s:
        add_session(s, "unsupported", trainee="ana", outcome="right_step_unsupported", total=10, ttd=None)
        add_session(s, "hit", trainee="ana", outcome="contained", total=90, ttd=5.0)
        s.db.conn.execute("UPDATE sessions SET wall_time_to_detect = 25.9")  # as the old code stored them
        if s.dialect.name == "sqlite":
            s.db.conn.execute("PRAGMA user_version = 5")
        else:
            s.db.conn.execute("UPDATE warroom_schema SET version = 5")
        if not getattr(s.db.conn, "in_transaction", False) and hasattr(s.db.conn, "commit"):
            s.db.conn.commit()
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert s.schema_version == SCHEMA_VERSION == 25
        assert _wall_ttd(s, "unsupported") is None
        assert _wall_ttd(s, "hit") == 25.9


def test_a_rescore_without_a_detection_clears_the_wall_time_to_detect(store: ResultsStore):
    add_session(store, "s-1", trainee="ana", outcome="contained", total=90, ttd=5.0)
    store.db.conn.execute("UPDATE sessions SET wall_time_to_detect = 7.5")
    if hasattr(store.db.conn, "commit"):
        store.db.conn.commit()
    store.update_scorecard("s-1", scorecard(outcome="right_step_unsupported", total=10, ttd=None))
    assert _wall_ttd(store, "s-1") is None
    add_session(store, "s-2", trainee="ana", outcome="contained", total=90, ttd=5.0)
    store.db.conn.execute("UPDATE sessions SET wall_time_to_detect = 7.5 WHERE session_id = 's-2'")
    if hasattr(store.db.conn, "commit"):
        store.db.conn.commit()
    store.update_scorecard("s-2", scorecard(outcome="contained", total=95, ttd=4.0))
    assert _wall_ttd(store, "s-2") == 7.5  # still detected: the wall figure is kept


def test_migration_10_drops_the_counts_that_versions_8_and_9_kept(tmp_path: Path, backend_url: str | None):
    """A store of schema version 9 had the summary's counts in a table kept by triggers (statement triggers and their
    functions on PostgreSQL); the upgrade drops them all, keeps every session, and the summary counts the sessions."""
    from store_support import set_version

    from warroom.store.cohort import cohort_stats

    with ResultsStore(tmp_path, url=backend_url) as s:
        add_session(s, "a", trainee="ana", total=90)
        conn = s.db.conn
        conn.execute("CREATE TABLE session_counts (mode TEXT, n INTEGER)")
        if s.dialect.name == "sqlite":
            conn.execute("CREATE TRIGGER sessions_counts_insert AFTER INSERT ON sessions BEGIN "
                         "INSERT INTO session_counts VALUES (NEW.mode, 1); END")
        else:
            conn.execute("CREATE FUNCTION warroom_session_counts() RETURNS trigger LANGUAGE plpgsql AS "
                         "$$ BEGIN INSERT INTO session_counts VALUES ('x', 1); RETURN NULL; END $$")
            conn.execute("CREATE TRIGGER sessions_counts_insert AFTER INSERT ON sessions "
                         "FOR EACH STATEMENT EXECUTE FUNCTION warroom_session_counts()")
        set_version(s, 9)
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert s.schema_version == SCHEMA_VERSION
        conn = s.db.conn
        if s.dialect.name == "sqlite":
            left = conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%counts%'").fetchall()
        else:
            left = conn.execute(
                "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'sessions_counts%' UNION ALL "
                "SELECT proname FROM pg_proc WHERE proname LIKE 'warroom_session_counts%' "
                "AND pronamespace = to_regnamespace(current_schema()) UNION ALL "
                "SELECT relname FROM pg_class WHERE relname = 'session_counts' "
                "AND relnamespace = to_regnamespace(current_schema())"
            ).fetchall()
        assert left == []
        add_session(s, "b", trainee="ana", drill_id="other-drill", total=70)  # no trigger left to fire
        (ana,) = cohort_stats(s, mode="all").stats.trainees
        assert (ana.trials, ana.mean_score) == (2, 80)


def test_a_write_transaction_commits_at_its_end_and_rolls_back_when_it_raises(store: ResultsStore):
    db = store.db
    db.write(lambda: db.conn.execute("CREATE TABLE scratch (n INTEGER)"))
    db.write(lambda: db.conn.execute("INSERT INTO scratch VALUES (1)"))

    def fails() -> None:
        db.conn.execute("INSERT INTO scratch VALUES (2)")
        raise RuntimeError("in the middle")

    with pytest.raises(RuntimeError, match="in the middle"):
        db.write(fails)
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute("INSERT INTO scratch VALUES (3)")
        raise RuntimeError("again")
    assert [r[0] for r in db.conn.execute("SELECT n FROM scratch")] == [1]
