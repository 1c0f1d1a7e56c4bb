"""Campaign 20 (issue 30), results and scores: regression tests for the breaks it found."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from store_support import load

from warroom.core.library import bundled_drills_dir
from warroom.core.play import Replay
from warroom.core.scoring import score


def _abandoned_with_twin(data: Path, seed: int) -> str:
    """An assessment session of a bundled drill with a twin, quit at 5 s (abandoned) by warroom's recorder: its id."""
    from warroom.store.journal import SessionRecorder

    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    drill = load(path)
    assert drill.twin is not None
    rec = SessionRecorder.start(data, "ann", path, drill, mode="assessment", seed=seed)
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(5.0)
    replay.quit()
    rec.finish(score(rec.drill, rec.actions))
    return rec.session_id


def test_the_review_of_an_abandoned_session_hides_its_seed(tmp_path: Path, monkeypatch) -> None:
    """`warroom scores` shows no seed for a session that never reached its debrief (the seed draws its trial:
    `warroom run --seed N` would replay it knowing the trial), but `warroom review`'s heading showed it
    (`variant seed 4242`), and trainees read review output too. The heading names no seed for such a session."""
    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review
    from warroom.tui.screens._reviewpanels import headline

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    session_id = _abandoned_with_twin(tmp_path, 4242)
    with ResultsStore(tmp_path) as store:
        session = store.get(session_id)
        assert (session.outcome, session.seed) == ("abandoned", 4242)
        data = load_review(session, [], store)
    text = headline(data).plain
    assert "4242" not in text and "variant seed" not in text, text
    reached = dataclasses.replace(data, session=dataclasses.replace(session, outcome="missed"))
    assert "variant seed 4242)" in headline(reached).plain  # a session that reached its debrief shows it


def _cli(url: str, data: Path, *args: str):
    from click.testing import CliRunner

    from warroom.cli import main

    result = CliRunner().invoke(main, ["--store", url, *args, "--data-dir", str(data)])
    assert "Traceback" not in result.output, result.output
    return result


def test_a_cohort_store_made_again_does_not_take_last_years_members_of_its_roles(tmp_path: Path, postgres_server):
    """A cohort's schema dropped (the class is over) and made again for next year's class (or a new store given
    the cohort name of one dropped): its roles `warroom_trainee_NAME` and `warroom_facilitator_NAME` were left on
    the server with last year's members, and `store secure` took them as they were, saying nothing: last year's
    facilitator read, re-scored and deleted the new class's sessions, and last year's trainees stored theirs into it.
    Roles that secure no store but have members are refused, naming them (nothing changed); once they hold no
    member the store is secured with them."""
    import uuid

    import psycopg

    tag = uuid.uuid4().hex[:8]
    db, schema, old_fac = f"d_{tag}", f"k_{tag}", f"fac_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)
    url = postgres_server.url(db, schema=schema)
    assert _cli(url, tmp_path, "store", "migrate").exit_code == 0
    assert _cli(url, tmp_path, "store", "secure").exit_code == 0
    postgres_server.sql(f"CREATE ROLE {old_fac} LOGIN IN ROLE warroom_facilitator_{schema}", database=db)
    postgres_server.sql(f"DROP SCHEMA {schema} CASCADE", database=db)  # the class is over
    postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)  # next year's class, the same name
    assert _cli(url, tmp_path, "store", "migrate").exit_code == 0
    refused = _cli(url, tmp_path, "store", "secure")
    assert refused.exit_code == 1 and old_fac in refused.output and "nothing was changed" in refused.output, (
        refused.output)
    with psycopg.connect(postgres_server.url(db), autocommit=True) as conn:
        secured = conn.execute("SELECT relrowsecurity FROM pg_class WHERE oid = %s::regclass",
                               (f"{schema}.sessions",)).fetchone()  # fmt: skip
        assert secured == (False,)
        conn.execute(f"REVOKE warroom_facilitator_{schema} FROM {old_fac}")
    assert _cli(url, tmp_path, "store", "secure").exit_code == 0
    again = _cli(url, tmp_path, "store", "secure")  # secured with them now: running it again changes nothing
    assert again.exit_code == 0, again.output


def test_a_second_session_of_a_drill_cannot_start_while_the_first_is_still_played(tmp_path: Path, monkeypatch):
    """A trainee's first attempt at a drill is the session the store stores first. Two windows: the trainee starts
    the drill (assessment), escalates, sees no containment, leaves that window open (nothing stored), starts the
    drill again in a second window knowing the step that is not the fault, contains it there and ends it: that
    second session was stored first, so it was their trial (a hit), and the first, stored when its window was
    closed, a replay listed apart. Best of as many windows as they open. A session of a drill cannot start while
    the same trainee's session of it is being played from the data directory; another drill can."""
    import pytest

    from warroom.tui.logic import Services, SessionUnavailable

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    other = bundled_drills_dir() / "clickstream-backfill.yaml"
    services = Services(trainee="ann", data_dir=tmp_path, mode="assessment")
    first = services.start_session(path, load(path))
    with pytest.raises(SessionUnavailable, match="another window"):
        Services(trainee="ann", data_dir=tmp_path, mode="assessment").start_session(path, load(path))
    Services(trainee="bob", data_dir=tmp_path, mode="assessment").start_session(path, load(path))  # not ann's
    services.start_session(other, load(other))  # another drill
    first.inner.finish(score(first.inner.drill, first.inner.actions))
    services.start_session(path, load(path))  # once the first has ended: a replay, as any


def test_two_windows_starting_a_drill_together_do_not_both_start_it(tmp_path: Path, monkeypatch):
    """The check for a live session of the drill ran before the new journal was created and locked: two windows
    started together both passed it, and both played the drill (their trainee chose which attempt counts). It is
    made again once the journal is locked: a start that finds another live session of the drill removes its own
    journal and refuses."""
    import threading

    from warroom.store.datadir import journal_files, journals_dir
    from warroom.store.journal import SessionRecorder, sessions_in_progress
    from warroom.tui.logic import Services, SessionUnavailable

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    together = threading.Barrier(2, timeout=30)
    start = SessionRecorder.start

    def start_together(*args, **kwargs):  # type: ignore[no-untyped-def]
        together.wait()  # both windows passed the first check
        return start(*args, **kwargs)

    monkeypatch.setattr(SessionRecorder, "start", start_together)
    started: list[object] = []
    refused: list[str] = []

    def window() -> None:
        try:
            started.append(Services(trainee="ann", data_dir=tmp_path, mode="assessment").start_session(path,
                                                                                                      load(path)))
        except SessionUnavailable as exc:
            refused.append(str(exc))

    threads = [threading.Thread(target=window) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(started) <= 1 and len(started) + len(refused) == 2, (started, refused)
    assert all("another window" in message for message in refused)
    assert sessions_in_progress(tmp_path, "ann") == len(started)
    assert len(journal_files(journals_dir(tmp_path))) == len(started)  # a refused start leaves no journal


def test_a_killed_session_a_new_start_stores_is_told_to_its_trainee(tmp_path: Path, monkeypatch):
    """A session killed mid-drill is recorded as abandoned by the next start of a drill (delivered before it begins),
    which showed nobody what it stored: the trainee's next start of the war room says so, as for a session it
    recovers itself."""
    from warroom.store.journal import SessionRecorder
    from warroom.tui.logic import Services

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    other = bundled_drills_dir() / "clickstream-backfill.yaml"
    killed = SessionRecorder.start(tmp_path, "ann", path, load(path), mode="assessment")
    killed.close()  # the process killed: the journal unfinished, its lock gone
    Services(trainee="ann", data_dir=tmp_path, mode="assessment").start_session(other, load(other))
    told = Services(trainee="ann", data_dir=tmp_path, mode="assessment").recover()
    assert len(told) == 1 and killed.session_id in told[0], told


def test_a_store_made_by_the_first_schema_7_is_summarised_after_its_upgrade(tmp_path: Path, monkeypatch):
    """Schema version 7 was first released (commit cd9c2a8c) without the partial index of the sessions that cannot
    be counted, which migration 7 was given 20 minutes later; a store made by that release, with sessions in it,
    upgraded to version 23 without the index, and `scores summary` (and `report`, the console) then failed on
    every call: `cannot use the results store ...: no such index: ix_sessions_not_countable`. Migration 24 makes the
    index such a store lacks (tests/unit/test_store_not_countable_index.py), and the summary counts it as any."""
    import sqlite3

    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    _abandoned_with_twin(tmp_path, 7)
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        db.execute("DROP INDEX ix_sessions_not_countable")  # the store cd9c2a8c made, as an upgrade to 23 left it
        db.execute("PRAGMA user_version = 23")
    db.close()
    result = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    counted = json.loads(result.stdout)["counted"]
    assert (counted["sessions"], counted["trials"], counted["abandoned"]) == (1, 1, 1), counted


def test_a_store_of_the_branch_where_version_12_was_the_verification_records_is_upgraded(tmp_path, monkeypatch):
    """Two branches each released a schema version 12 before they were merged (commits 828aa69e and c99874bf:
    version 12 was the table of verification records, now version 14; on the other branch, kept, the trial's
    response). A store made on the first branch claims version 12 without the `response` column, so the upgrade
    began at 13 and every command then failed (`not a usable warroom results store: no such column: response`),
    its sessions unreachable. The upgrade starts from the last version whose columns the store has."""
    import sqlite3

    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.store.backends import SQLITE
    from warroom.store.results._migrations import MIGRATIONS, backfills_to

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    played = tmp_path / "played"
    session_id = _abandoned_with_twin(played, 11)
    with sqlite3.connect(played / "results.sqlite3") as db:
        db.row_factory = sqlite3.Row
        row = dict(db.execute("SELECT * FROM sessions").fetchone())
    db.close()
    branch = tmp_path / "branch"
    branch.mkdir()
    db = sqlite3.connect(branch / "results.sqlite3", isolation_level=None)
    backfills = backfills_to(11)
    for v in range(1, 12):
        for statement in MIGRATIONS[v].split(";"):
            if statement.strip():
                db.execute(statement)
        if v in backfills:
            backfills[v](db, SQLITE)
    db.execute(MIGRATIONS[14])  # the branch's version 12: the verification records
    columns = [r[1] for r in db.execute("PRAGMA table_info(sessions)")]
    assert "response" not in columns and "played_as" not in columns
    kept = [c for c in columns if c in row]
    db.execute(f"INSERT INTO sessions ({', '.join(kept)}) VALUES ({', '.join('?' for _ in kept)})",
               [row[c] for c in kept])  # fmt: skip
    db.execute("PRAGMA user_version = 12")
    db.close()
    listed = CliRunner().invoke(main, ["scores", "list", "--format", "json", "--data-dir", str(branch)])
    assert listed.exit_code == 0, listed.output
    assert [s["session_id"] for s in json.loads(listed.stdout)] == [session_id]
    summary = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(branch)])
    assert summary.exit_code == 0, summary.output
    assert json.loads(summary.stdout)["counted"]["trials"] == 1


def test_a_session_queued_while_the_store_was_down_is_stored_before_the_next_session_of_its_drill(
    tmp_path: Path, monkeypatch
):
    """Attempt 1 played with the shared store out of reach (a trainee can pull the cable): its result is queued in
    the journal and its debrief, answer key included, is shown; the store back, attempt 2 of the same drill, played
    knowing the answer, was stored first, so it was the trial and attempt 1, delivered later, a replay. A new session
    delivers the trainee's queued sessions first (as a start of the war room does), so attempt 1 stays the first."""
    from warroom.store.errors import StoreUnreachable
    from warroom.store.results import ResultsStore
    from warroom.tui.logic import Services

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    services = Services(trainee="ann", data_dir=tmp_path, mode="assessment")
    first = services.start_session(path, load(path)).inner
    real_insert = ResultsStore.insert

    def unreachable(self, *args, **kwargs):
        raise StoreUnreachable("the results store cannot be reached (cable pulled)")

    monkeypatch.setattr(ResultsStore, "insert", unreachable)
    first.finish(score(first.drill, first.actions))
    assert first.queued
    monkeypatch.setattr(ResultsStore, "insert", real_insert)  # the store is back
    second = services.start_session(path, load(path)).inner
    second.finish(score(second.drill, second.actions))
    with ResultsStore(tmp_path) as store:
        order = [r[0] for r in store.db.conn.execute("SELECT session_id FROM sessions ORDER BY stored_seq")]
    assert order == [first.session_id, second.session_id]


def test_a_session_queued_is_stored_before_the_next_session_of_its_drill_that_ends_once_the_store_is_back(
    tmp_path: Path, monkeypatch
):
    """As above, with attempt 2 started while the store is still out of reach (nothing can be delivered then) and
    ended once it is back: attempt 2 was stored at its end, before attempt 1, still queued. The war room delivers the
    trainee's queued sessions before it stores the one that ends."""
    from warroom.store.errors import StoreUnreachable
    from warroom.store.results import ResultsStore
    from warroom.tui.logic import Services

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    services = Services(trainee="ann", data_dir=tmp_path, mode="assessment")
    real_insert = ResultsStore.insert

    def unreachable(self, *args, **kwargs):
        raise StoreUnreachable("the results store cannot be reached (cable pulled)")

    monkeypatch.setattr(ResultsStore, "insert", unreachable)
    first = services.start_session(path, load(path))
    first.finish(score(first.drill, first.actions))
    second = services.start_session(path, load(path))  # still out of reach: nothing delivered
    monkeypatch.setattr(ResultsStore, "insert", real_insert)  # back before attempt 2 ends
    second.finish(score(second.drill, second.actions))
    with ResultsStore(tmp_path) as store:
        order = [r[0] for r in store.db.conn.execute("SELECT session_id FROM sessions ORDER BY stored_seq")]
    assert order == [first.session_id, second.session_id]


def test_a_login_role_named_like_a_cohorts_group_is_not_made_that_group(tmp_path: Path, postgres_server):
    """Trainee names are the trainees' own (`--trainee`, the OS user), and a trainee's login role is named like the
    trainee: one of cohort A named `warroom_facilitator_b` had a login role of that name before cohort B's store was
    secured, and `store secure` took that role as cohort B's facilitator group, so its holder, a trainee of A, read,
    re-scored and deleted every session of B. A login role of a group's name is refused (nothing changed)."""
    import uuid

    tag = uuid.uuid4().hex[:8]
    db, schema = f"d_{tag}", f"b_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    postgres_server.sql(f"CREATE ROLE warroom_facilitator_{schema} LOGIN")  # a trainee of another cohort
    url = postgres_server.url(db, schema=schema)
    assert _cli(url, tmp_path, "store", "migrate").exit_code == 0
    refused = _cli(url, tmp_path, "store", "secure")
    assert refused.exit_code == 1 and "login role" in refused.output and "nothing was changed" in refused.output, (
        refused.output)
    assert _cli(url, tmp_path, "store", "secure", "--cohort", f"c_{tag}").exit_code == 0


def test_cohort_public_names_roles_after_it_as_any_cohort_name_does(tmp_path: Path, postgres_server):
    """`store secure --cohort NAME` names the roles `warroom_trainee_NAME` and `warroom_facilitator_NAME`
    (its --help, docs/cohorts.md), but `--cohort public` gave a cohort's store the documented pair of the default
    schema, which the store in `public` then shared: that store's facilitator read and deleted the cohort's sessions
    (a warning said so only once that store was secured)."""
    import uuid

    tag = uuid.uuid4().hex[:8]
    db, schema = f"d_{tag}", f"k_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    url = postgres_server.url(db, schema=schema)
    assert _cli(url, tmp_path, "store", "migrate").exit_code == 0
    secured = _cli(url, tmp_path, "store", "secure", "--cohort", "public")
    assert secured.exit_code == 0, secured.output
    status = json.loads(_cli(url, tmp_path, "store", "status", "--format", "json").stdout)
    assert status["roles"] == {"trainee": "warroom_trainee_public", "facilitator": "warroom_facilitator_public"}, (
        status["roles"])
