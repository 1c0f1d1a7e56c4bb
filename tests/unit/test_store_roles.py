"""Row-level security in a shared PostgreSQL store: a trainee stores and sees only their own sessions, a
facilitator sees every one (real roles on a real server)."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import PostgresServer, as_role, group_roles, secured_roles
from store_support import add_session

from warroom.cli import main
from warroom.store.cohort import FactsQuery, cohort_stats
from warroom.store.errors import DuplicateSession, StoreError
from warroom.store.results import ResultsStore, export_lines, import_lines


def test_trainees_see_their_own_sessions_and_facilitators_all(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    tag = uuid.uuid4().hex[:8]  # roles belong to the whole server: names of this test's own
    ann, bob, fac = f"ann_{tag}", f"bob_{tag}", f"fac_{tag}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    trainees, facilitators = group_roles(store_url)  # the store's own: it is in a schema of its own
    assert (f"grant a login role one of the store's roles: {trainees} (a trainee: `GRANT {trainees} TO ann`) or "
            f"{facilitators} (a facilitator)") in " ".join(secured.output.split()), secured.output
    again = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert again.exit_code == 0 and again.stderr == "", again.output  # idempotent
    for role, group in ((ann, trainees), (bob, trainees), (fac, facilitators)):
        postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group}")

    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        add_session(store, "s-ann", trainee=ann, total=80)
        with pytest.raises(StoreError, match="row-level security"):
            add_session(store, "s-forged", trainee=bob, total=100)  # a trainee cannot store for another
    with ResultsStore(tmp_path, url=as_role(store_url, bob)) as store:
        add_session(store, "s-bob", trainee=bob, total=40)
        assert [r.session_id for r in store.query()] == ["s-bob"]
        assert [s.trainee for s in cohort_stats(store, FactsQuery(include_unverified=True)).stats.trainees] == [bob]
        assert cohort_stats(store).stats.trainees == []  # stored by a trainee role: not verified (issue 30)
        with pytest.raises(DuplicateSession):  # ann's id: refused, and ann's row stays hidden
            add_session(store, "s-ann", trainee=bob, total=10)
    with ResultsStore(tmp_path, url=as_role(store_url, fac)) as store:
        assert sorted(r.session_id for r in store.query()) == ["s-ann", "s-bob"]
        assert store.get("s-ann").total == 80


def test_secure_refuses_a_sqlite_store(tmp_path: Path):
    result = CliRunner().invoke(main, ["store", "secure", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and "is a SQLite store: it has no roles" in result.output


def test_a_login_role_of_neither_group_is_told_which_grant_it_needs(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    role = f"plain_{uuid.uuid4().hex[:8]}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    schema = store_url.split("search_path%3D")[1]
    postgres_server.sql(f"CREATE ROLE {role} LOGIN")
    postgres_server.sql(f"GRANT USAGE ON SCHEMA {schema} TO {role}")  # as PUBLIC has on the public schema
    url = as_role(store_url, role)
    result = CliRunner().invoke(main, ["--store", url, "store", "status", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    trainees, facilitators = group_roles(store_url)
    assert result.output.strip().endswith(
        "permission denied for table warroom_schema (the login role needs a group of `warroom store secure`: "
        f"GRANT {trainees}, or {facilitators}, TO it)"
    ), result.output


def test_secure_by_a_role_that_does_not_own_the_tables_says_who_may_run_it(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    role = f"fac_{uuid.uuid4().hex[:8]}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group_roles(store_url)[1]}")
    again = CliRunner().invoke(main, ["--store", as_role(store_url, role), "store", "secure", "--data-dir",
                                      str(tmp_path)])
    assert again.exit_code == 1
    assert again.output.strip().endswith(
        "must be owner of table sessions (`warroom store secure` must be run as the owner of the tables, the role "
        "that ran `warroom store migrate`, with CREATEROLE while the two roles do not exist)"), again.output


def test_a_trainee_role_meeting_a_store_of_an_older_warroom_is_told_the_owner_upgrades_it(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    """A ``warroom_trainee`` role may not create the tables of a newer schema version: it is told the store's
    version, the one this warroom needs and who upgrades it, not the server's bare ``permission denied for schema``
    with the migration's SQL; the store is left as it was, and the owner's ``store migrate`` upgrades it."""
    from warroom.store.results import SCHEMA_VERSION

    role = f"ann_{uuid.uuid4().hex[:8]}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    with ResultsStore(tmp_path, url=store_url) as store:
        add_session(store, "s-old", trainee=role, total=80)
        store.db.conn.execute("UPDATE warroom_schema SET version = ?", (SCHEMA_VERSION - 1,))
    postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group_roles(store_url)[0]}")
    url = as_role(store_url, role)
    status = CliRunner().invoke(main, ["--store", url, "store", "status", "--data-dir", str(tmp_path)])
    assert status.exit_code == 0, status.output  # shown as it is, not upgraded
    assert f"schema version:  {SCHEMA_VERSION - 1} (this warroom uses {SCHEMA_VERSION}:" in status.output
    for command in (["scores", "summary"], ["store", "migrate"]):
        result = CliRunner().invoke(main, ["--store", url, *command, "--data-dir", str(tmp_path)])
        assert result.exit_code == 1, result.output
        # (the server's words name what the first statement of the upgrade may not touch: the schema, or a table,
        # or, for version 16's policy, the table whose owner may change it; for version 21's, an index it remakes)
        assert re.fullmatch(
            re.escape(f"Error: the results store {url} has schema version {SCHEMA_VERSION - 1}, and this warroom needs "
                      f"version {SCHEMA_VERSION}; the login role '{role}' may not upgrade it (")
            + rf"(?:permission denied for (schema {re.escape(store_url.split('search_path%3D')[1])}|table \w+)"
            + r"|must be owner of (relation|table|index) \w+)"
            + re.escape("). The owner of its tables upgrades it once with `warroom store migrate` (nothing was "
                        "changed)."),
            result.output.strip(),
        ), result.output
    with ResultsStore(tmp_path, url=store_url, create=False) as store:
        assert store.schema_version == SCHEMA_VERSION  # the owner's open upgrades it
    with ResultsStore(tmp_path, url=url) as store:
        assert [r.session_id for r in store.query()] == ["s-old"]


def test_a_trainee_role_deleting_or_rescoring_is_told_which_role_may(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    """A ``warroom_trainee`` role may store and read its own sessions only: ``scores delete`` of its own session is
    refused by the server, and the message says which role may (not the server's bare ``permission denied``)."""
    role = f"ann_{uuid.uuid4().hex[:8]}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    trainees, facilitators = group_roles(store_url)
    postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {trainees}")
    url = as_role(store_url, role)
    with ResultsStore(tmp_path, url=url) as store:
        add_session(store, "s-own", trainee=role, total=80)
    result = CliRunner().invoke(main, ["--store", url, "scores", "delete", "s-own", "--yes", "--data-dir",
                                       str(tmp_path)])  # fmt: skip
    assert result.exit_code == 1, result.output
    assert f"permission denied for table sessions (a {trainees} role may store and read its own sessions " \
        f"only: re-scoring or deleting sessions takes a {facilitators} role or the owner of the tables)" \
        in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output
    with ResultsStore(tmp_path, url=url) as store:
        assert [r.session_id for r in store.query()] == ["s-own"]  # nothing deleted


def test_the_scorecard_history_has_the_sessions_row_level_security(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    """A facilitator's re-score keeps the replaced scorecard (schema version 11) under the facilitator's name; a
    trainee reads the history of their own sessions only."""
    from store_support import scorecard

    tag = uuid.uuid4().hex[:8]
    ann, bob, fac = f"ann_{tag}", f"bob_{tag}", f"fac_{tag}"
    secured = CliRunner().invoke(main, ["--store", store_url, "store", "secure", "--data-dir", str(tmp_path)])
    assert secured.exit_code == 0, secured.output
    trainees, facilitators = group_roles(store_url)
    for role, group in ((ann, trainees), (bob, trainees), (fac, facilitators)):
        postgres_server.sql(f"CREATE ROLE {role} LOGIN IN ROLE {group}")
    with ResultsStore(tmp_path, url=store_url) as store:
        add_session(store, "s-ann", trainee=ann, total=80)
        add_session(store, "s-bob", trainee=bob, total=40)
    with ResultsStore(tmp_path, url=as_role(store_url, fac)) as store:
        for sid in ("s-ann", "s-bob"):
            store.update_scorecard(sid, scorecard(total=90), reason="the facilitator's re-score")
        assert [c.replaced_by for c in store.scorecard_history("s-bob")] == [fac]
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        (mine,) = store.scorecard_history("s-ann")
        assert (mine.total, mine.replaced_by, mine.reason) == (80, fac, "the facilitator's re-score")
        assert store.scorecard_history("s-bob") == []  # bob's history stays hidden, as bob's session does
        # and a trainee re-scores nothing: its history entry is refused first (schema version 18), else the update
        with pytest.raises(StoreError, match='violates row-level security policy for table "scorecard_history"'):
            store.update_scorecard("s-ann", scorecard(total=100))
        assert [(c.total, c.replaced_by) for c in store.scorecard_history("s-ann")] == [(80, fac)]


def test_a_trainee_role_adds_a_check_record_only_as_its_own_client_does(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    """A trainee role may add a verification record only for a session it stores in the same transaction, not
    verified, under its own name (the trigger's; ``store import``'s): never to a session stored before without one
    (one the facilitator's server stored), never naming another user as checker or submitter (schema version 16)."""
    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    with ResultsStore(tmp_path, url=as_role(store_url, fac)) as store:
        add_session(store, "s-served", trainee=ann, total=80)  # stored by the facilitator's server: no record
    forge = "INSERT INTO session_checks VALUES (?, 'unverified', 'x', '2026-11-01T10:00:00+00:00', ?, ?)"
    with ResultsStore(tmp_path, url=store_url) as store:
        (line,) = [text for text in export_lines(store) if '"s-served"' in text]
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store:
        for who in ((fac, fac), (ann, fac), (ann, ann)):
            with pytest.raises(Exception, match="row-level security"):
                store.db.conn.execute(forge, ("s-served", *who))
        add_session(store, "s-own", trainee=ann, total=40)  # the trigger's record, as before
        imported = import_lines(store, [line.replace('"s-served"', '"s-imported"')], "x.jsonl")
        assert (imported.imported, imported.refused) == (1, [])  # and store import's
    with ResultsStore(tmp_path, url=as_role(store_url, fac)) as store:
        rows = store.db.conn.execute("SELECT session_id, checked_by, submitted_by FROM session_checks").fetchall()
        assert sorted(tuple(r) for r in rows) == [("s-imported", ann, ann), ("s-own", ann, ann)]


def test_the_upgrade_to_version_16_narrows_the_trainee_policy_on_check_records(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    from store_support import set_version

    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    with ResultsStore(tmp_path, url=store_url) as store:
        add_session(store, "s-served", trainee=ann, total=80)
        own = "EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = session_checks.session_id)"
        store.db.conn.execute("DROP POLICY warroom_trainee_own ON session_checks")
        store.db.conn.execute(
            f"CREATE POLICY warroom_trainee_own ON session_checks TO {group_roles(store_url)[0]} USING ({own}) "
            f"WITH CHECK ({own} AND state = 'unverified' AND submitted_by IS NOT NULL)"
        )  # version 15's
        set_version(store, 15)
    migrated = CliRunner().invoke(main, ["--store", store_url, "store", "migrate", "--data-dir", str(tmp_path)])
    assert migrated.exit_code == 0, migrated.output
    with ResultsStore(tmp_path, url=as_role(store_url, ann)) as store, pytest.raises(Exception, match="row-level"):
        store.db.conn.execute("INSERT INTO session_checks VALUES ('s-served', 'unverified', 'x', "
                                  f"'2026-11-01T10:00:00+00:00', '{fac}', '{fac}')")  # fmt: skip
