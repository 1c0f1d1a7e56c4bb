"""How a store URL a user typed is shown back: never its password, in any spelling libpq takes, and as typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.store.backends import StoreURLError, redact, scrub, store_target
from warroom.store.backends._dialect import secrets_of

CONNINFO = "host=/run/pg dbname=cohort user=ann password=hunter2"


@pytest.mark.parametrize(("conninfo", "shown"), [
    (CONNINFO, "host=/run/pg dbname=cohort user=ann password=***"),
    ("password = hunter2 dbname=cohort", "password = *** dbname=cohort"),
    ("dbname=cohort password='hunter 2'", "dbname=cohort password=***"),
    ("dbname=cohort PASSWORD=hunter2", "dbname=cohort PASSWORD=***"),
])
def test_a_libpq_keyword_string_is_shown_without_its_password(conninfo: str, shown: str) -> None:
    assert redact(conninfo) == shown
    assert scrub(f"cannot use {conninfo}", conninfo) == f"cannot use {shown}"


def test_the_refusal_of_a_keyword_string_does_not_print_its_password(tmp_path: Path) -> None:
    with pytest.raises(StoreURLError) as info:
        store_target(tmp_path, CONNINFO)
    assert "hunter2" not in str(info.value)
    assert "password=***" in str(info.value)
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "--store", CONNINFO, "store", "status"])
    assert result.exit_code == 1
    assert "hunter2" not in result.output and "password=***" in result.output


def test_secrets_of_a_keyword_string() -> None:
    assert secrets_of("dbname=x password='a b' user=y") == ["'a b'", "a b"]


@pytest.mark.parametrize("url", [
    "postgresql:///cohort?host=/tmp/pg&user=ann",
    "postgresql://@/cohort?host=/tmp/pg",
    "postgresql://",
])
def test_a_url_without_a_host_is_shown_as_typed(url: str) -> None:
    assert redact(url) == url


def test_a_url_without_a_host_keeps_its_slashes_when_its_password_is_hidden() -> None:
    shown = "postgresql:///cohort?host=/tmp/pg&password=***"
    assert redact("postgresql:///cohort?host=/tmp/pg&password=hunter2") == shown


def test_a_driver_message_over_several_lines_is_one_line() -> None:
    url = "postgresql://ann:hunter2@/cohort?host=/tmp/none"
    libpq = ('connection is bad: connection to server on socket "/tmp/none/.s.PGSQL.5432" failed: No such file or '
             "directory\n\tIs the server running locally and accepting connections on that socket?\n")
    assert scrub(f"cannot connect to the results store {url}: {libpq}", url) == (
        "cannot connect to the results store postgresql://ann:***@/cohort?host=/tmp/none: connection is bad: "
        'connection to server on socket "/tmp/none/.s.PGSQL.5432" failed: No such file or directory Is the server '
        "running locally and accepting connections on that socket?")


def test_an_unreachable_store_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    url = f"postgresql://ann:hunter2@/cohort?host={tmp_path}/no-server&connect_timeout=2"
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "--store", url, "store", "status"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot connect to the results store"), result.output
    assert "hunter2" not in result.output


#: Passwords a newcomer types into a URL without percent-encoding them, and a URL missing the "//".
UNENCODED = [
    ("postgresql://ann:pa/ss@db/cohort", "postgresql://ann:***@db/cohort"),
    ("postgresql://ann:pa#ss@db/cohort", "postgresql://ann:***@db/cohort"),
    ("postgresql://ann:pa?ss@db/cohort", "postgresql://ann:***@db/cohort"),
    ("postgresql://ann:p@ss@db:5432/cohort", "postgresql://ann:***@db:5432/cohort"),
    ("postgresql://ann:pa/ss@db/cohort?password=pq", "postgresql://ann:***@db/cohort?password=***"),
    ("postgresql:/ann:pa55@db/cohort", "postgresql:***"),
    ("postgres:ann:pa55@db/cohort", "postgres:***"),
]


@pytest.mark.parametrize(("url", "shown"), UNENCODED)
def test_a_password_typed_without_percent_encoding_is_still_hidden(url: str, shown: str) -> None:
    assert redact(url) == shown
    secret = "pa55" if "pa55" in url else url.split("ann:", 1)[1].rsplit("@", 1)[0]
    assert secret in secrets_of(url)
    assert secret not in scrub(f"cannot use {url}: failed for {secret}", url)


@pytest.mark.parametrize("url", ["postgresql:/ann:pa55@db/cohort", "postgresql:ann:pa55@db/cohort"])
def test_a_postgresql_url_without_its_two_slashes_is_refused_without_its_password(tmp_path: Path, url: str) -> None:
    with pytest.raises(StoreURLError) as info:
        store_target(tmp_path, url)
    assert str(info.value) == "store URL postgresql:***: write postgresql://USER@HOST/DATABASE (two slashes after " \
                              "postgresql:)"
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "--store", url, "store", "status"])
    assert result.exit_code == 1
    assert "pa55" not in result.output and "postgresql:***" in result.output


@pytest.mark.parametrize("password", ["pa/ss", "pa#ss", "pa?ss"])
def test_an_unencoded_password_never_reaches_the_command_line_output(tmp_path: Path, password: str) -> None:
    url = f"postgresql://ann:{password}@localhost:1/cohort?connect_timeout=2"
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "--store", url, "store", "status"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: cannot connect to the results store postgresql://ann:***@localhost:1/")
    assert password not in result.output


def test_a_store_targets_repr_shows_no_password(tmp_path: Path) -> None:
    """A crash report that prints local variables (Textual's does, with reprs) must not show the password."""
    target = store_target(tmp_path, "postgresql://ann:hunter2@db.example/cohort")
    assert target.url == "postgresql://ann:hunter2@db.example/cohort"  # still there for the driver
    assert "hunter2" not in repr(target)
    assert repr(target) == "StoreTarget(backend='postgresql', location='postgresql://ann:***@db.example/cohort')"


@pytest.mark.parametrize(("url", "shown", "given"), [
    # a @ in a query value is not the end of the user part: the URL reaches libpq whole (it was cut at that @)
    ("postgresql://ann@db:5432/x?application_name=fac@laptop", "postgresql://ann@db:5432/x?application_name=fac@laptop",
     None),
    ("postgresql://ann:pw@db:5432/x?application_name=fac@laptop",
     "postgresql://ann:***@db:5432/x?application_name=fac@laptop", "pw"),
    ("postgresql://ann:pa?ss@db/x?app=a@b", "postgresql://ann:***@db/x?app=a@b", "pa?ss"),
    # unencoded passwords as before: the last @ when no ? and = come before it
    ("postgresql://ann:p@ss@db/x", "postgresql://ann:***@db/x", "p@ss"),
    ("postgresql://ann:pa/ss#1@db:5/x?sslmode=require", "postgresql://ann:***@db:5/x?sslmode=require", "pa/ss#1"),
    ("postgresql://ann:a?b=c@db/x", "postgresql://ann:***@db/x", "a?b=c"),  # every @ after ? and =: the last
])
def test_a_at_sign_in_a_query_value_is_not_the_user_part_s(url: str, shown: str, given: str | None) -> None:
    from warroom.store.backends._secret import without_password

    assert redact(url) == shown
    assert without_password(url) == (shown.replace(":***@", "@"), given)


def test_a_url_with_a_at_sign_in_a_query_value_connects(postgres_server) -> None:
    from warroom.store.backends import connect

    url = postgres_server.url() + "&application_name=fac@laptop"
    conn = connect(url)
    try:
        assert conn.execute("SELECT current_setting('application_name')").fetchone()[0] == "fac@laptop"
    finally:
        conn.close()
