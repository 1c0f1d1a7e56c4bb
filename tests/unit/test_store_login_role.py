"""Issue 30: a trainee's login role that becomes another role (``SET ROLE warroom_trainee``, or a connection with
``options=-c role=NAME``) stored sessions under that role's name. The row-level security of ``warroom store secure``
compared ``trainee`` with ``current_user``, which ``SET ROLE`` changes to any role the login is a member of: its
trainee group, or another trainee's role it was granted; the trigger's not-verified record named that role too, so a
session genuinely played that way passed ``scores verify`` and counted under a name not the login's. From schema
version 25 the policies and the trigger name the login (``session_user``), and an upgrade gives a store secured
before them."""

from __future__ import annotations

import uuid
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from click.testing import CliRunner
from pg_support import PostgresServer, as_role, group_roles, secured_roles

from warroom.cli import main
from warroom.store import backends
from warroom.store.results import SCHEMA_VERSION, ResultsStore

#: A session's columns as a trainee writing SQL gives them (the others take their defaults).
_ROW = ("INSERT INTO sessions (session_id, trainee, drill_id, started_at, outcome, total, scorecard, actions) "
        "VALUES (%s, %s, 'd', '2026-12-07T10:00:00+00:00', 'contained', 100, '{}', '[]')")  # fmt: skip
#: A not-verified record of a session, naming the current role as its checker and submitter.
_CHECK = ("INSERT INTO session_checks (session_id, state, reason, checked_at, checked_by, submitted_by) "
          "VALUES (%s, 'unverified', 'x', 'now', current_user, current_user)")  # fmt: skip


@pytest.fixture
def class_roles(tmp_path: Path, postgres_server: PostgresServer, store_url: str):
    """A secured store with a trainee ``ann_*``, a facilitator ``fac_*`` and a second trainee ``bob_*`` whose role
    ``ann_*`` was granted (a member role it may ``SET ROLE`` to); the names and the store's trainee group."""
    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    trainees, _ = group_roles(store_url)
    bob = f"bob_{uuid.uuid4().hex[:8]}"
    postgres_server.sql(f"CREATE ROLE {bob} LOGIN IN ROLE {trainees}")
    postgres_server.sql(f"GRANT {bob} TO {ann}")
    return ann, fac, bob, trainees


def _as_other_role(conn: psycopg.Connection, role: str, login: str) -> None:
    conn.execute(f'SET ROLE "{role}"')
    assert conn.execute("SELECT current_user, session_user").fetchone() == (role, login)


@pytest.mark.parametrize("other", ["group", "member"])
def test_a_trainee_login_that_sets_another_role_stores_and_reads_only_as_itself(
    class_roles, store_url: str, other: str
):
    ann, fac, bob, trainees = class_roles
    role = trainees if other == "group" else bob
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as conn:
        _as_other_role(conn, role, ann)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(_ROW, ("forged", role))  # under the role's name: refused
        conn.execute(_ROW, ("own", ann))  # under the login's own name: stored, as it would be without SET ROLE
        assert conn.execute("SELECT session_id FROM sessions").fetchall() == [("own",)]
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(_CHECK, ("own",))  # a record naming the role, not the login
    with psycopg.connect(as_role(store_url, bob), autocommit=True) as conn:
        conn.execute(_ROW, ("bobs", bob))
    with psycopg.connect(as_role(store_url, fac), autocommit=True) as conn:
        rows = conn.execute("SELECT s.session_id, s.trainee, c.state, c.checked_by, c.submitted_by FROM sessions s "
                            "JOIN session_checks c USING (session_id) ORDER BY 1").fetchall()  # fmt: skip
    assert rows == [("bobs", bob, "unverified", bob, bob), ("own", ann, "unverified", ann, ann)]
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as conn:  # bob's session stays out of reach
        _as_other_role(conn, role, ann)
        assert conn.execute("SELECT session_id FROM sessions").fetchall() == [("own",)]


def test_a_connection_as_the_trainee_group_is_told_the_logins_name(tmp_path: Path, class_roles, store_url: str):
    """``options=-c role=warroom_trainee`` in the store's URL: warroom's own check before a war room opens names the
    login, whose sessions the store takes, never the group (which it refuses)."""
    ann, _, _, trainees = class_roles
    url = as_role(store_url, ann) + quote(f" -c role={trainees}", safe="")
    with ResultsStore(tmp_path / "ann", url=url) as store:
        assert store.db.conn.execute("SELECT current_user").fetchone()[0] == trainees
        assert backends.own_sessions_only(store) == ann
        refused = backends.trainee_refused(ann, trainees, backends.group_roles(store))
        assert refused is not None and f"may store only the sessions of trainee {ann!r}" in refused


def _as_version_24(store_url: str, version: int = 24) -> None:
    """The store's policies and trigger as schema version 24 made them (``current_user``), and its ``version``."""
    with psycopg.connect(store_url, autocommit=True) as conn:
        roles = backends.store_roles(_Qmark(conn))
        assert roles is not None
        old = [*backends.sessions_policies(roles), *backends.trainee_checks_policy(roles),
               backends.mark_submitted_function(roles), *backends.history_statements(roles)]  # fmt: skip
        for statement in old:
            conn.execute(statement.replace("session_user", "current_user"))
        conn.execute("UPDATE warroom_schema SET version = %s", (version,))


class _Qmark:
    """A psycopg connection taking warroom's ``?`` placeholders (as the store's own wrapper does)."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> psycopg.Cursor:
        return self.conn.execute(sql.replace("?", "%s"), params)


def _logins_named(store_url: str) -> list[str]:
    """Every policy of the store and its trigger function that names ``session_user`` (the login)."""
    with psycopg.connect(store_url, autocommit=True) as conn:
        policies = conn.execute("SELECT tablename FROM pg_policies WHERE policyname = 'warroom_trainee_own' AND "
                                "schemaname = current_schema() AND concat(qual, ' ', with_check) ILIKE "
                                "'%session_user%' ORDER BY 1").fetchall()  # fmt: skip
        row = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'warroom_mark_submitted' AND "
                           "pronamespace = current_schema()::regnamespace").fetchone()  # fmt: skip
    assert row is not None
    body = str(row[0])
    return [str(t) for (t,) in policies] + (["trigger"] if "session_user, session_user" in body else [])


def test_a_store_secured_at_version_24_gets_the_logins_policies_on_upgrade(
    tmp_path: Path, class_roles, store_url: str
):
    ann, _, _, trainees = class_roles
    _as_version_24(store_url)
    assert _logins_named(store_url) == []
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as conn:  # what version 24 let the login do
        _as_other_role(conn, trainees, ann)
        conn.execute(_ROW, ("forged-24", trainees))
        assert conn.execute("SELECT submitted_by FROM session_checks").fetchall() == [(trainees,)]
    data = ["--store", store_url, "--data-dir", str(tmp_path / "owner")]
    status = CliRunner().invoke(main, [*data[:2], "store", "status", *data[2:]])
    assert f"schema version:  24 (this warroom uses {SCHEMA_VERSION}: `warroom store migrate` upgrades it)" in (
        status.output
    ), status.output
    migrated = CliRunner().invoke(main, [*data[:2], "store", "migrate", *data[2:]])
    assert migrated.exit_code == 0 and f"schema version:  {SCHEMA_VERSION}\n" in migrated.output, migrated.output
    assert _logins_named(store_url) == ["scorecard_history", "session_checks", "sessions", "trigger"]
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as conn:
        _as_other_role(conn, trainees, ann)
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
            conn.execute(_ROW, ("forged-25", trainees))
        conn.execute(_ROW, ("own", ann))
        assert conn.execute("SELECT session_id, submitted_by FROM session_checks").fetchall() == [("own", ann)]


def _played(data: Path, trainee: str) -> str:
    """A session played for real and stored by warroom's recorder (no action: missed, 0), as ``trainee``."""
    from store_support import bundled_drill_path, load

    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder

    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(data, trainee, bundled_drill_path(), drill)
    rec.finish(score(drill, rec.actions))
    return rec.session_id


def test_a_session_stored_under_the_group_before_the_upgrade_never_verifies(
    tmp_path: Path, class_roles, store_url: str, monkeypatch
):
    """A session genuinely played by a login connected as its trainee group (``options=-c role=...``), stored under
    the group's name at schema version 24, was verified by ``scores verify`` and counted under that name: its record
    names a role that cannot log in, and it is unverifiable (whose it is is not known); the login's own session,
    stored after the upgrade, is verified."""
    ann, fac, _, trainees = class_roles
    _as_version_24(store_url, version=SCHEMA_VERSION)  # the policies of 24 (the store's version kept: no upgrade)
    monkeypatch.setenv("WARROOM_STORE", as_role(store_url, ann) + quote(f" -c role={trainees}", safe=""))
    forged = _played(tmp_path / "ann", trainees)
    _as_version_24(store_url)
    migrated = CliRunner().invoke(main, ["--store", store_url, "store", "migrate", "--data-dir", str(tmp_path / "o")])
    assert migrated.exit_code == 0, migrated.output
    monkeypatch.setenv("WARROOM_STORE", as_role(store_url, ann))
    own = _played(tmp_path / "ann", ann)
    monkeypatch.setenv("WARROOM_STORE", as_role(store_url, fac))
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(tmp_path / "fac")])
    assert f"unverifiable: {forged} ({trainees}, " in verify.output, verify.output
    assert f"stored by the role '{trainees}', which cannot log in" in verify.output
    assert "verified 1 of 2 sessions: 0 disagree, 1 cannot be verified" in verify.output
    with ResultsStore(tmp_path / "fac") as store:
        checks = store.checks()
    assert (checks[forged].state, checks[own].state, checks[own].submitted_by) == ("unverifiable", "verified", ann)
