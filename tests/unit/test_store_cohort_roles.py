"""Cohorts on one PostgreSQL server share no roles (issue 30, privacy): ``warroom store secure`` gives a store in a
schema of its own two group roles of its own, and every check and message names the store's own roles (real roles
on a real server; docs/cohorts.md, "Roles: who sees what")."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner, Result
from pg_support import PostgresServer, as_role
from store_support import add_session

from warroom.cli import main
from warroom.store.backends import DEFAULT_ROLES, roles_for
from warroom.store.errors import StoreError
from warroom.store.results import ResultsStore


def _cli(url: str, data: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--store", url, *args, "--data-dir", str(data)])
    assert "Traceback" not in result.output, result.output
    return result


def _cohort(server: PostgresServer, data: Path, tag: str, name: str) -> tuple[str, str, str]:
    """A store in a schema of its own, secured, with a trainee and a facilitator login role in its groups: (its
    URL, the trainee's name, the facilitator's name)."""
    schema = f"{name}_{tag}"
    server.sql(f"CREATE SCHEMA {schema}")
    url = server.url(schema=schema)
    secured = _cli(url, data, "store", "secure")
    assert secured.exit_code == 0 and secured.stderr == "", secured.output
    trainees, facilitators = roles_for(schema)
    assert (trainees, facilitators) == (f"warroom_trainee_{schema}", f"warroom_facilitator_{schema}")
    ann, fac = f"ann_{name}_{tag}", f"fac_{name}_{tag}"
    server.sql(f"CREATE ROLE {ann} LOGIN IN ROLE {trainees}")
    server.sql(f"CREATE ROLE {fac} LOGIN IN ROLE {facilitators}")
    return url, ann, fac


def _as(url: str, role: str) -> psycopg.Connection:
    """A plain connection to the database of ``url`` as the login role ``role``."""
    return psycopg.connect(as_role(url, role), autocommit=True)


def test_a_facilitator_or_trainee_of_one_cohort_reaches_nothing_of_another_on_the_same_server(
    tmp_path: Path, postgres_server: PostgresServer
):
    """Two cohorts in two schemas of one server, each secured: the two group roles were the server's, so a
    facilitator of cohort A read, re-scored and deleted cohort B's sessions, and a trainee of A stored sessions into
    B. Each store now has its own roles: A's facilitator can neither read, re-score nor delete B's sessions, A's
    trainee cannot store into B, and each store's own trainee and facilitator work as before."""
    tag = uuid.uuid4().hex[:8]
    a_url, a_ann, a_fac = _cohort(postgres_server, tmp_path, tag, "a")
    b_url, b_ann, b_fac = _cohort(postgres_server, tmp_path, tag, "b")
    with ResultsStore(tmp_path, url=as_role(b_url, b_ann)) as store:
        add_session(store, "s-b", trainee=b_ann, total=40)  # B's trainee stores into B, as before
    with ResultsStore(tmp_path, url=as_role(a_url, a_ann)) as store:
        add_session(store, "s-a", trainee=a_ann, total=80)  # A's trainee stores into A, as before
    b_schema = f"b_{tag}"
    with _as(a_url, a_fac) as conn:  # A's facilitator, straight at B's tables
        for statement in (f"SELECT count(*) FROM {b_schema}.sessions",
                          f"UPDATE {b_schema}.sessions SET total = 100",
                          f"DELETE FROM {b_schema}.sessions"):  # fmt: skip
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)  # type: ignore[arg-type]
    for role in (a_fac, a_ann):  # and through warroom, with B's URL
        listed = _cli(as_role(b_url, role), tmp_path, "scores", "list")
        assert listed.exit_code == 1 and "s-b" not in listed.output, listed.output
        assert (f"GRANT {roles_for(b_schema).trainee}, or {roles_for(b_schema).facilitator}, TO it"
                in listed.output), listed.output  # the grant B's owner would give: B's own roles
    with pytest.raises(StoreError), ResultsStore(tmp_path, url=as_role(b_url, a_ann)) as store:
        add_session(store, "s-forged", trainee=a_ann, total=100)  # A's trainee cannot store into B
    deleted = _cli(as_role(b_url, a_fac), tmp_path, "scores", "delete", "s-b", "--yes")
    assert deleted.exit_code == 1, deleted.output
    with ResultsStore(tmp_path, url=as_role(b_url, b_fac)) as store:  # B's facilitator: all of B, as before
        assert [(r.session_id, r.total) for r in store.query()] == [("s-b", 40)]
    with ResultsStore(tmp_path, url=as_role(a_url, a_fac)) as store:
        assert [r.session_id for r in store.query()] == ["s-a"]
        add_session(store, "s-a2", trainee="zed", total=10)  # a facilitator stores any trainee's session
    with ResultsStore(tmp_path, url=as_role(a_url, a_ann)) as store:
        assert [r.session_id for r in store.query()] == ["s-a"]  # A's trainee sees their own only
    status = _cli(a_url, tmp_path, "store", "status")
    assert status.exit_code == 0 and status.stderr == "", status.output
    assert (f"roles:           warroom_trainee_a_{tag} (trainees), warroom_facilitator_a_{tag} (facilitators)"
            in status.output), status.output


def test_a_trainee_role_of_its_own_store_is_refused_another_trainees_name_naming_its_own_group(
    tmp_path: Path, postgres_server: PostgresServer
):
    """The checks before a war room opens and ``scores verify``'s "may not record verdicts" read the store's own
    trainee group: a member of ``warroom_trainee_SCHEMA`` is limited to its own sessions as a ``warroom_trainee``
    was."""
    tag = uuid.uuid4().hex[:8]
    url, ann, _ = _cohort(postgres_server, tmp_path, tag, "c")
    ann_url = as_role(url, ann)
    from warroom.store.backends import own_sessions_only

    with ResultsStore(tmp_path, url=ann_url) as store:
        assert own_sessions_only(store) == ann
    verified = _cli(ann_url, tmp_path, "scores", "verify")
    assert verified.exit_code == 0, verified.output
    assert (f"(not recorded: the login role '{ann}' is a warroom_trainee_c_{tag} and may not record verdicts)"
            in verified.output), verified.output


def test_a_store_secured_with_the_shared_roles_moves_to_its_own_and_status_says_it_shares_until_then(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A store in a second schema secured by an older warroom is granted to ``warroom_trainee`` and
    ``warroom_facilitator``, which also reach the first: ``store status`` says so, and ``store secure`` run again
    moves it to roles of its own (the shared ones lose every right on it) and says what to grant."""
    from warroom.store.backends._roles import _statements

    tag = uuid.uuid4().hex[:8]
    first, second = f"old_a_{tag}", f"old_b_{tag}"
    db = f"old_{tag}"  # a database of its own: the shared pair also secures other databases' default schemas
    postgres_server.sql(f"CREATE DATABASE {db}")
    for schema in (first, second):
        postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)
        with ResultsStore(tmp_path, url=postgres_server.url(db, schema=schema)) as store:
            store.db.conn.execute(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'warroom_trainee') THEN "
                "CREATE ROLE warroom_trainee NOLOGIN; END IF; IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                "'warroom_facilitator') THEN CREATE ROLE warroom_facilitator NOLOGIN; END IF; END $$"
            )
            for statement in _statements(schema, DEFAULT_ROLES):  # as `store secure` of an older warroom did
                store.db.conn.execute(statement)
            add_session(store, f"s-{schema}", trainee="ann", total=80)
    url = postgres_server.url(db, schema=second)
    status = _cli(url, tmp_path, "store", "status")
    assert status.exit_code == 0, status.output
    assert "roles:           warroom_trainee (trainees), warroom_facilitator (facilitators)" in status.output
    said = " ".join(status.stderr.split())  # other tests' databases on this server may hold the shared pair too
    assert "warning: warroom_trainee and warroom_facilitator also reach the store in " in said, said
    assert (f"schema `{first}` of this server, so a facilitator of one cohort reads, re-scores and deletes the "
            "sessions of the other") in said, said
    shared_fac = f"shared_fac_{tag}"
    postgres_server.sql(f"CREATE ROLE {shared_fac} LOGIN IN ROLE warroom_facilitator")
    moved = _cli(url, tmp_path, "store", "secure")
    assert moved.exit_code == 0, moved.output
    own = roles_for(second)
    said = " ".join(moved.stderr.split())
    assert (f"the store's roles were warroom_trainee and warroom_facilitator, which no longer reach it: grant its "
            f"login roles the new ones (`GRANT {own.trainee} TO ann`, `GRANT {own.facilitator} TO fac`)") in said
    with _as(url, shared_fac) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(f"SELECT count(*) FROM {second}.sessions")  # type: ignore[arg-type]
    again = _cli(url, tmp_path, "store", "status")
    assert again.stderr == "" and f"roles:           {own.trainee} (trainees)" in again.output, again.output
    postgres_server.sql(f"GRANT {own.facilitator} TO {shared_fac}")
    with ResultsStore(tmp_path, url=as_role(url, shared_fac)) as store:
        assert [r.session_id for r in store.query()] == [f"s-{second}"]
    resecured = _cli(url, tmp_path, "store", "secure")  # idempotent: the store keeps its own
    assert resecured.exit_code == 0 and resecured.stderr == "", resecured.output


def test_a_cohort_name_making_a_role_name_past_63_bytes_or_already_taken_is_refused(
    tmp_path: Path, postgres_server: PostgresServer, store_url: str
):
    """PostgreSQL cuts a name at 63 bytes: two cohorts whose names differ only past that would share roles. Such a
    name is refused, as is a cohort name whose roles already secure another store of the server; nothing is
    changed either way."""
    long = "c" * 44  # warroom_facilitator_ + 44 bytes = 64
    refused = _cli(store_url, tmp_path, "store", "secure", "--cohort", long)
    assert refused.exit_code == 1, refused.output
    assert (f"the cohort name '{long}' makes the role name 'warroom_facilitator_{long}' 64 bytes long, and "
            "PostgreSQL cuts names at 63 bytes (two cohorts would share roles): give `warroom store secure --cohort "
            "NAME` a name of at most 43 bytes (nothing was changed)") in " ".join(refused.output.split())
    assert _cli(store_url, tmp_path, "store", "secure", "--cohort", "c" * 43).exit_code == 0
    tag = uuid.uuid4().hex[:8]
    postgres_server.sql(f"CREATE ROLE nobody_{tag} LOGIN")  # in no group: told the grant, of --cohort's roles
    listed = _cli(as_role(store_url, f"nobody_{tag}"), tmp_path, "scores", "list")
    assert listed.exit_code == 1, listed.output
    assert f"GRANT warroom_trainee_{'c' * 43}, or warroom_facilitator_{'c' * 43}, TO it" in listed.output, listed.output
    other = f"other_{tag}"
    postgres_server.sql(f"CREATE SCHEMA {other}")
    taken = _cli(postgres_server.url(schema=other), tmp_path, "store", "secure", "--cohort", "c" * 43)
    assert taken.exit_code == 1, taken.output
    schema = store_url.split("search_path%3D")[1]
    assert (f"the roles warroom_trainee_{'c' * 43} and warroom_facilitator_{'c' * 43} already secure the store in "
            f"schema `{schema}` of this server: give this store a cohort name of its own, `warroom store secure "
            "--cohort NAME` (nothing was changed)") in " ".join(taken.output.split()), taken.output
    status = _cli(postgres_server.url(schema=other), tmp_path, "store", "status")
    assert "roles:           not secured (`warroom store secure`)" in status.output, status.output


def test_a_schema_whose_name_needs_quotes_gets_roles_that_work_and_messages_quote_them(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A schema named with capitals, a dash and a double quote: its roles are created, granted and named in the
    policies and the trigger quoted, and a message tells the GRANT with the name quoted as SQL needs it."""
    tag = uuid.uuid4().hex[:6]
    schema = f'Cohort-{tag}"x'
    quoted = '"' + schema.replace('"', '""') + '"'
    postgres_server.sql(f"CREATE SCHEMA {quoted}")
    url = postgres_server.url(schema=quoted)
    secured = _cli(url, tmp_path, "store", "secure")
    assert secured.exit_code == 0 and secured.stderr == "", secured.output
    trainees, facilitators = roles_for(schema)
    shown = '"' + trainees.replace('"', '""') + '"'
    assert f"`GRANT {shown} TO ann`" in " ".join(secured.output.split()), secured.output
    ann, fac = f"ann_q_{tag}", f"fac_q_{tag}"
    postgres_server.sql(f"CREATE ROLE {ann} LOGIN IN ROLE {shown}")
    postgres_server.sql(f'CREATE ROLE {fac} LOGIN IN ROLE "{facilitators.replace(chr(34), chr(34) * 2)}"')
    with ResultsStore(tmp_path, url=as_role(url, ann)) as store:
        add_session(store, "s-q", trainee=ann, total=80)
        assert store.checks()["s-q"].state == "unverified"  # the trigger, naming the quoted facilitator group
    with ResultsStore(tmp_path, url=as_role(url, fac)) as store:
        add_session(store, "s-f", trainee="zed", total=10)
        assert "s-f" not in store.checks()  # a facilitator's session is not marked: the trigger knows its group
        assert sorted(r.session_id for r in store.query()) == ["s-f", "s-q"]
    status = _cli(as_role(url, ann), tmp_path, "store", "status")  # a trainee's role reads them too
    assert f'roles:           {shown} (trainees)' in status.output, status.output
    as_json = json.loads(_cli(url, tmp_path, "store", "status", "--format", "json").stdout)
    assert as_json["roles"] == {"trainee": trainees, "facilitator": facilitators}  # for programs: the names
    escaped = _cli(url, tmp_path, "store", "secure", "--cohort", f"e{tag}\x1b[31m")  # no terminal escape shown
    assert escaped.exit_code == 0 and "\x1b" not in escaped.output and "\\x1b[31m" in escaped.output, escaped.output


def test_serve_refuses_a_trainee_role_of_a_cohorts_store_naming_that_stores_facilitator_group(
    tmp_path: Path, postgres_server: PostgresServer
):
    """``warroom serve``'s check of its login role reads the store's own groups: a role of the cohort's trainee
    group cannot store the roster's sessions, and the message names the cohort's facilitator group to use."""
    tag = uuid.uuid4().hex[:8]
    url, ann, _ = _cohort(postgres_server, tmp_path, tag, "s")
    roster = tmp_path / "class.yaml"
    added = CliRunner().invoke(main, ["serve", "roster", "add", str(roster), "bob"])
    assert added.exit_code == 0, added.output
    served = _cli(as_role(url, ann), tmp_path, "serve", "--roster", str(roster))
    assert served.exit_code == 1, served.output
    assert (f"the store's login role '{ann}' is a warroom_trainee_s_{tag} and may store only the sessions of "
            f"trainee '{ann}', not of 'bob'; a served class needs a login role that stores every trainee's "
            f"sessions: a warroom_facilitator_s_{tag} role or the owner of the tables") in " ".join(
        served.output.split()), served.output


def test_the_default_schemas_of_two_databases_keep_the_documented_pair_with_a_warning_until_one_has_a_cohort(
    tmp_path: Path, postgres_server: PostgresServer
):
    """A store in the default schema keeps ``warroom_trainee`` and ``warroom_facilitator`` (no single-cohort class
    changes); two such stores in two databases of one server share them, which ``store secure`` and ``store status``
    say (the other database is seen through the server's record of the roles' rights), until ``--cohort NAME``."""
    tag = uuid.uuid4().hex[:8]
    first, second = f"d1_{tag}", f"d2_{tag}"
    for db in (first, second):
        postgres_server.sql(f"CREATE DATABASE {db}")
    alone = _cli(postgres_server.url(first), tmp_path, "store", "secure")
    assert alone.exit_code == 0, alone.output
    assert "one of the store's roles: warroom_trainee (a trainee: `GRANT warroom_trainee TO ann`)" in " ".join(
        alone.output.split())
    shared = _cli(postgres_server.url(second), tmp_path, "store", "secure")
    assert shared.exit_code == 0, shared.output
    said = " ".join(shared.stderr.split())
    assert said.startswith("warning: warroom_trainee and warroom_facilitator also reach the store in ") and (
        f"database `{first}`" in said), said
    status = _cli(postgres_server.url(second), tmp_path, "store", "status", "--format", "json")
    assert f"database `{first}`" in json.loads(status.stdout)["shares_roles_with"]
    own = _cli(postgres_server.url(second), tmp_path, "store", "secure", "--cohort", f"c_{tag}")
    assert own.exit_code == 0 and "warning" not in own.stderr, own.output
    status = json.loads(_cli(postgres_server.url(second), tmp_path, "store", "status", "--format", "json").stdout)
    assert (status["roles"], status["shares_roles_with"]) == (
        {"trainee": f"warroom_trainee_c_{tag}", "facilitator": f"warroom_facilitator_c_{tag}"}, [])


def test_store_migrate_as_the_owner_creates_the_cohorts_schema_and_its_roles_reach_no_public_store(
    tmp_path: Path, postgres_server: PostgresServer
):
    """docs/cohorts.md as written: a database owned by `wrowner` (no superuser), its default schema's store secured,
    then a cohort's store `?options=-csearch_path%3DNAME` made by `warroom store migrate` as `wrowner`. The schema
    was never made (the server said only `no schema has been selected to create in`, and warroom's advice was to run
    that same `store migrate`); and once secured, `store status` warned that the cohort's own roles "also reach the
    store in schema `public`", because every role has USAGE on `public` (granted to PUBLIC), though no right on its
    tables."""
    tag = uuid.uuid4().hex[:8]
    owner, db, cohort = f"wrowner_{tag}", f"cohort_{tag}", f"cohort_2026_{tag}"
    postgres_server.sql(f"CREATE ROLE {owner} LOGIN CREATEROLE")
    postgres_server.sql(f"CREATE DATABASE {db} OWNER {owner}")
    public_url = as_role(postgres_server.url(db), owner)
    for args in (("store", "migrate"), ("store", "secure")):
        done = _cli(public_url, tmp_path, *args)
        assert done.exit_code == 0, done.output
    url = as_role(postgres_server.url(db), owner) + "&options=-csearch_path%3D" + cohort
    migrated = _cli(url, tmp_path, "store", "migrate")
    assert migrated.exit_code == 0, migrated.output
    assert "schema version:  " in migrated.output
    with _as(url, owner) as conn:
        row = conn.execute(
            "SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = %s", (cohort,)
        ).fetchone()
    assert row == (owner,)
    secured = _cli(url, tmp_path, "store", "secure")
    assert secured.exit_code == 0 and secured.stderr == "", secured.output
    status = _cli(url, tmp_path, "store", "status", "--format", "json")
    assert status.exit_code == 0 and status.stderr == "", status.output
    shown = json.loads(status.stdout)
    assert shown["roles"] == {"trainee": f"warroom_trainee_{cohort}", "facilitator": f"warroom_facilitator_{cohort}"}
    assert shown["shares_roles_with"] == []


def test_first_schema_of_a_search_path_is_the_cohorts_own_quotes_undone():
    """The schema `store migrate` creates is the first the search path names that is not `$user` or a system
    schema, as PostgreSQL reads the setting (unquoted names in lower case)."""
    from warroom.store.backends._role_names import first_schema

    assert first_schema("cohort_2026") == "cohort_2026"
    assert first_schema('"$user", public') is None
    assert first_schema('"Cohort 2026", public') == "Cohort 2026"
    assert first_schema("Cohort_B, public") == "cohort_b"
    assert first_schema('"a""b"') == 'a"b'


def test_a_migration_whose_rollback_fails_reports_its_own_error_and_runs_no_more_sql():
    """A migration that fails on a connection that then dies (its ROLLBACK fails too) raises the migration's own
    error, and sends nothing after the failed ROLLBACK: the rollback went on to create the URL's schema, whose
    statements failed in turn and replaced the real error (or, on a live connection, ran CREATE SCHEMA outside the
    failed migration)."""
    from warroom.store.backends._postgres import PgConnection

    class Dead(Exception):
        """The connection's failure the test stands in for."""

    class Raw:
        def __init__(self) -> None:
            self.sent: list[str] = []
            self.dead = False

        def execute(self, sql: str, params: tuple[object, ...] = ()) -> object:
            self.sent.append(sql)
            if self.dead:
                raise Dead(f"connection lost (statement {len(self.sent)})")
            if "pg_try_advisory_lock" in sql:
                return _Row(True)
            if "to_regclass('warroom_schema')" in sql:
                self.dead = True
                raise Dead("the migration's own error")
            return _Row(None)

    class _Row:
        def __init__(self, value: object) -> None:
            self.value = value

        def fetchone(self) -> tuple[object]:
            return (self.value,)

    from warroom.store.backends import migrate_schema

    raw = Raw()
    with pytest.raises(Dead, match="the migration's own error"):
        migrate_schema(PgConnection(raw, timeout=None), {1: "CREATE TABLE t (x INTEGER)"}, 1)
    after = raw.sent[raw.sent.index("ROLLBACK") + 1:]
    assert [s for s in after if "advisory_unlock" not in s] == []


def test_a_refused_login_role_is_told_the_grant_of_an_unquoted_mixed_case_schema_in_lower_case(
    tmp_path: Path, postgres_server: PostgresServer
):
    """``?options=-csearch_path%3DCohort_B``: PostgreSQL reads the unquoted name as ``cohort_b``, the schema
    ``store secure`` secures and names its roles after; a login role that may use no schema was told to be granted
    ``warroom_trainee_Cohort_B``, a role that does not exist (the search path was read again without lower-casing)."""
    tag = uuid.uuid4().hex[:8]
    schema, login = f"cohort_b_{tag}", f"nobody_{tag}"
    postgres_server.sql(f"CREATE SCHEMA {schema}")
    postgres_server.sql(f"CREATE ROLE {login} LOGIN")
    url = postgres_server.url() + "&options=-csearch_path%3D" + schema.replace("cohort_b", "Cohort_B")
    assert _cli(url, tmp_path, "store", "secure").exit_code == 0
    refused = _cli(as_role(url, login), tmp_path, "scores", "list")
    assert refused.exit_code == 1
    said = " ".join(refused.output.split())
    assert f"GRANT warroom_trainee_{schema}, or warroom_facilitator_{schema}, TO it" in said, said


def test_a_stores_group_roles_are_those_read_when_it_was_opened(tmp_path: Path):
    """``group_roles`` queried the catalogs again, though the store read its roles when it was opened: after a
    statement refused inside a transaction (the catalogs unreadable) it named the documented pair, not the store's
    own roles. The callers guarded against that query; the roles are now the store's, read once."""
    import sqlite3

    from warroom.store.backends import DEFAULT_ROLES, POSTGRESQL, Roles, group_roles
    from warroom.store.results import ResultsStore

    own = Roles("warroom_trainee_k1", "warroom_facilitator_k1")

    class Failed:  # a transaction refused: no statement runs any more
        def execute(self, *_: object) -> None:
            raise sqlite3.OperationalError("current transaction is aborted")

    class Db:
        conn = Failed()
        errors = (sqlite3.OperationalError,)
        roles = own

    class Store:
        db = Db()
        dialect = POSTGRESQL
        location = "postgresql://class"

    assert group_roles(Store()) == own  # type: ignore[arg-type]
    with ResultsStore(tmp_path) as store:
        assert group_roles(store) == DEFAULT_ROLES  # a SQLite store: the documented pair
