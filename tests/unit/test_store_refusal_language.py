"""A connection the PostgreSQL server refuses for good is told from an unreachable store whatever language the
server speaks (its ``lc_messages``): by the SQLSTATE where psycopg gives one, libpq's "needs a password" flag, and
else by asking the server again with ``PQping`` (which reads the SQLSTATE the server sent). Real server speaking
German (``LANGUAGE=de`` with ``lc_messages`` ``C.UTF-8``; skipped where its German messages are not installed)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import psycopg.errors
import pytest
from pg_support import PostgresServer, _new_server

from warroom.store.backends import connect
from warroom.store.backends._refusal import _ANSWERED, _ANSWERED_AFTER_PASSWORD, _NEEDS_PASSWORD, connect_refusal
from warroom.store.errors import StoreError, StoreUnreachable

#: A password with every character a URL or a password file must escape.
PASSWORD = "p:a\\ss@w/rd #1"
ROLE = "pwrole"


@pytest.fixture(scope="module")
def german_server() -> Iterator[PostgresServer]:
    """A server whose messages are German, with the role ``pwrole`` that must give its password (scram)."""
    before = os.environ.get("LANGUAGE")
    os.environ["LANGUAGE"] = "de"  # the server's gettext reads it: lc_messages is C.UTF-8 (initdb --locale)
    try:
        server = _new_server()
    finally:
        if before is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = before
    try:
        escaped = PASSWORD.replace("'", "''")
        server.sql(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{escaped}'")
        hba = server.data / "pg_hba.conf"
        hba.write_text(f"local all {ROLE} scram-sha-256\n" + hba.read_text(encoding="utf-8"), encoding="utf-8")
        server._run(str(server.bindir / "pg_ctl"), "-D", str(server.data), "-w", "reload")
        try:
            psycopg.connect(server.url("no_such_db")).close()
        except psycopg.OperationalError as exc:
            if "existiert nicht" not in str(exc):
                pytest.skip(f"the PostgreSQL server has no German messages installed: {exc}")
        yield server
    finally:
        server.remove()


def _as(server: PostgresServer, password: str | None, database: str = "postgres") -> str:
    user = ROLE if password is None else f"{ROLE}:{quote(password, safe='')}"
    return server.url(database).replace("//warroom@", f"//{user}@")


def test_a_missing_database_in_german_is_refused_for_good(german_server: PostgresServer) -> None:
    with pytest.raises(StoreError) as info:
        connect(german_server.url("no_such_db"))
    assert not isinstance(info.value, StoreUnreachable)
    assert "Datenbank »no_such_db« existiert nicht" in str(info.value)
    assert str(info.value).endswith(f"({_ANSWERED})")


def test_a_role_that_may_not_log_in_in_german_is_refused_for_good(german_server: PostgresServer) -> None:
    german_server.sql("CREATE ROLE nologin_de NOLOGIN")
    with pytest.raises(StoreError) as info:
        connect(german_server.url().replace("//warroom@", "//nologin_de@"))
    assert not isinstance(info.value, StoreUnreachable)
    assert "keine Berechtigung zum Einloggen" in str(info.value)


def test_passwords_in_german_wrong_missing_and_right(german_server: PostgresServer) -> None:
    with pytest.raises(StoreError) as wrong:
        connect(_as(german_server, "not-it"))
    assert not isinstance(wrong.value, StoreUnreachable)
    assert "Passwort-Authentifizierung" in str(wrong.value)
    assert str(wrong.value).endswith(f"({_ANSWERED_AFTER_PASSWORD})")
    assert "not-it" not in str(wrong.value)
    with pytest.raises(StoreError) as missing:
        connect(_as(german_server, None))
    assert not isinstance(missing.value, StoreUnreachable)
    assert str(missing.value).endswith(f"({_NEEDS_PASSWORD})")
    conn = connect(_as(german_server, PASSWORD))  # the password reaches libpq through a password file
    try:
        assert conn.execute("SELECT current_user").fetchone()[0] == ROLE
    finally:
        conn.close()


def test_the_urls_password_wins_over_pgpassword_as_before(
    german_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PGPASSWORD", "not-it")
    conn = connect(_as(german_server, PASSWORD))
    conn.close()
    # with no password in the URL, $PGPASSWORD is libpq's as ever
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    conn = connect(_as(german_server, None))
    conn.close()


def test_a_wrong_password_names_where_it_came_from_never_warroom_s_own_password_file(
    german_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the URL's password reaches libpq in warroom's password file: libpq's "password retrieved from file
    # "/proc/self/fd/N"" would name a file the user never made (and gone by then)
    with pytest.raises(StoreError) as from_url:
        connect(_as(german_server, "not-it"))
    assert "password taken from the URL" in str(from_url.value)
    assert "retrieved from file" not in str(from_url.value) and "/proc/self/fd" not in str(from_url.value)
    # a password file of the user's own is still named: that is where to look
    pgpass = tmp_path / "pgpass"
    pgpass.write_text("*:*:*:*:not-it\n", encoding="utf-8")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    with pytest.raises(StoreError) as from_file:
        connect(_as(german_server, None))
    assert f'password retrieved from file "{pgpass}"' in str(from_file.value)
    assert not isinstance(from_file.value, StoreUnreachable)


def test_a_server_that_is_not_there_is_unreachable(tmp_path: Path) -> None:
    with pytest.raises(StoreUnreachable):
        connect(f"postgresql://ann:hunter2@/cohort?host={tmp_path}")


@pytest.mark.parametrize(("error", "advice"), [
    (psycopg.errors.InvalidPassword("Passwort falsch"), "check the user and password: in the URL, ~/.pgpass or "
                                                        "$PGPASSWORD"),
    (psycopg.errors.InvalidCatalogName("Datenbank fehlt"), "create it (docs/cohorts.md, \"Setting up a class\"), or "
                                                           "correct the URL"),
    (psycopg.errors.InvalidAuthorizationSpecification("nein"), "the server does not admit this user, host or "
     "database (no such role, a role that may not log in, or no pg_hba.conf entry): check the user in the URL, or "
     "ask the server's administrator"),
    (psycopg.errors.InsufficientPrivilege("nein"), "the role may not connect to this database: GRANT CONNECT ON "
                                                   "DATABASE ... TO the role, or use another role"),
    (psycopg.errors.TooManyConnections("zu viele"), None),
    (psycopg.errors.CannotConnectNow("startet"), None),
    (psycopg.errors.AdminShutdown("beendet"), None),
])
def test_the_sqlstate_decides_before_any_words(error: psycopg.Error, advice: str | None) -> None:
    # the words are in no language warroom reads; no second attempt is made (no connection arguments given)
    assert connect_refusal(error, {}, timed_out=False) == advice


def test_a_timed_out_attempt_is_unreachable_without_asking_again() -> None:
    assert connect_refusal(psycopg.OperationalError("Zeitüberschreitung"), {"conninfo": "host=/nowhere"},
                           timed_out=True) is None


def test_a_password_with_a_line_break_is_a_clear_error() -> None:
    with pytest.raises(StoreError) as info:
        connect("postgresql://ann:two%0Alines@/cohort?host=/nowhere")
    assert not isinstance(info.value, StoreUnreachable)
    assert str(info.value) == ("cannot connect to the results store postgresql://ann:***@/cohort?host=/nowhere: a "
                               "password with a line break cannot be given in a password file")


def test_connection_arguments_never_hold_the_password() -> None:
    from warroom.store.backends import StoreTarget
    from warroom.store.backends._secret import connection_args

    with connection_args(StoreTarget("postgresql", url="postgresql://ann:s%3Acret@db/x?sslmode=require")) as args:
        assert args["conninfo"] == "postgresql://ann@db/x?sslmode=require" and args["password"] == ""
        assert "s:cret" not in repr(args) and "s%3Acret" not in repr(args)
        with open(args["passfile"], encoding="utf-8") as passfile:
            assert passfile.read() == "*:*:*:*:s\\:cret\n"
        assert os.stat(args["passfile"]).st_mode & 0o077 == 0
    with connection_args(StoreTarget("postgresql", url="postgresql://ann:@db/x")) as args:
        assert args == {"conninfo": "postgresql://ann@db/x", "password": ""}  # empty: ~/.pgpass, as libpq does
    with connection_args(StoreTarget("postgresql", url="postgresql://ann@db/x")) as args:
        assert args == {"conninfo": "postgresql://ann@db/x"}
