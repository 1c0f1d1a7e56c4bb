"""A connection the PostgreSQL server refuses for good (no such database or role, a role that may not log in, a
wrong or missing password) is an error with what to do, not "unreachable": `warroom` then stops with exit 1 rather
than letting a trainee play with every session queued locally until someone notices (real server)."""

from __future__ import annotations

import uuid
from pathlib import Path

import click
import pytest
from pg_support import PostgresServer

from warroom.cli.common import check_store
from warroom.core.settings import Settings
from warroom.store.backends import connect
from warroom.store.backends._refusal import refused_for_good
from warroom.store.errors import StoreError, StoreUnreachable


def _with(url: str, old: str, new: str) -> str:
    assert old in url
    return url.replace(old, new, 1)


def test_a_missing_database_is_refused_for_good(
    tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _with(postgres_server.url(), "/postgres?", "/no_such_db?")
    with pytest.raises(StoreError) as info:
        connect(url)
    assert not isinstance(info.value, StoreUnreachable)
    assert str(info.value).endswith('database "no_such_db" does not exist (create it (docs/cohorts.md, "Setting up '
                                    'a class"), or correct the URL)')
    monkeypatch.setenv("WARROOM_STORE", url)
    with pytest.raises(click.ClickException) as stopped:
        check_store(Settings(trainee="ann", data_dir=tmp_path))
    assert stopped.value.message == str(info.value)


def test_check_store_stops_for_a_refusal_and_warns_for_an_unreachable_store(
    tmp_path: Path, postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(trainee="ann", data_dir=tmp_path)
    role = f"nologin_{uuid.uuid4().hex[:8]}"
    postgres_server.sql(f"CREATE ROLE {role} NOLOGIN")
    monkeypatch.setenv("WARROOM_STORE", _with(postgres_server.url(), "//warroom@", f"//{role}@"))
    with pytest.raises(click.ClickException) as stopped:
        check_store(settings)
    assert stopped.value.message.endswith(f'role "{role}" is not permitted to log in (the role is not a LOGIN role: '
                                          "ALTER ROLE ... LOGIN)")
    monkeypatch.setenv("WARROOM_STORE", f"postgresql://ann:hunter2@/cohort?host={tmp_path}/no-server")
    check_store(settings)  # unreachable: the trainee plays, the sessions are queued
    assert "the sessions played now are kept here until `warroom store sync`" in capsys.readouterr().err


@pytest.mark.parametrize(("libpq", "advice"), [
    ('connection to server at "db", port 5432 failed: FATAL:  password authentication failed for user "ann"',
     "check the user and password: in the URL, ~/.pgpass or $PGPASSWORD"),
    ('connection to server at "db", port 5432 failed: fe_sendauth: no password supplied',
     "give the password in ~/.pgpass, $PGPASSWORD or the URL"),
    ('connection to server at "db", port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.0.0.9", user "ann"',
     "the server does not admit this host, user or database: ask its administrator"),
    ('connection to server at "db", port 5432 failed: Connection refused\n\tIs the server running on that host?', None),
    ('connection to server at "db", port 5432 failed: FATAL:  sorry, too many clients already', None),
    ('connection to server at "db", port 5432 failed: FATAL:  the database system is starting up', None),
    ("connection to server at \"db\", port 5432 failed: timeout expired", None),
])
def test_which_libpq_messages_are_refusals_for_good(libpq: str, advice: str | None) -> None:
    assert refused_for_good(libpq) == advice
