"""The store URL (``--store`` / ``$WARROOM_STORE``): which back end and where, and a password never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.store.backends import POSTGRESQL, SQLITE, STORE_ENV, StoreURLError, redact, scrub, store_target
from warroom.store.datadir import DB_NAME
from warroom.store.errors import StoreError
from warroom.store.results import ResultsStore
from warroom.store.results._checks import valid_row_sql


def test_default_is_the_sqlite_file_in_the_data_directory(tmp_path: Path):
    target = store_target(tmp_path)
    assert (target.backend, target.path, target.url) == ("sqlite", tmp_path / DB_NAME, None)
    assert store_target(tmp_path, "sqlite://").path == tmp_path / DB_NAME


def test_sqlite_urls_relative_and_absolute(tmp_path: Path):
    assert store_target(tmp_path, "sqlite:///rel/r.sqlite3").path == Path("rel/r.sqlite3")
    assert store_target(tmp_path, f"sqlite:///{tmp_path}/a.sqlite3").path == tmp_path / "a.sqlite3"
    with pytest.raises(StoreURLError, match="sqlite:///relative/file"):
        store_target(tmp_path, "sqlite:/x")


def test_environment_variable_and_explicit_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(STORE_ENV, "postgresql://ann:pw@db/cohort")
    assert store_target(tmp_path).backend == "postgresql"
    assert store_target(tmp_path, "sqlite://").backend == "sqlite"  # the explicit URL wins


def test_unknown_scheme_is_refused_without_its_password(tmp_path: Path):
    with pytest.raises(StoreURLError) as info:
        store_target(tmp_path, "mysql://ann:hunter2@db/x")
    assert "hunter2" not in str(info.value) and "mysql://ann:***@db/x" in str(info.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://ann:hunter2@db:5432/cohort", "postgresql://ann:***@db:5432/cohort"),
        ("postgresql://ann@db/cohort?sslmode=require", "postgresql://ann@db/cohort?sslmode=require"),
        ("postgresql://db/cohort?user=ann&password=hunter2", "postgresql://db/cohort?user=ann&password=***"),
        ("postgresql://ann:p%40ss@db/cohort", "postgresql://ann:***@db/cohort"),
    ],
)
def test_redact(url: str, shown: str):
    assert redact(url) == shown


def test_scrub_removes_the_password_as_written_and_decoded():
    url = "postgresql://ann:p%40ss@db/cohort"
    text = scrub(f"cannot reach {url}: password p@ss refused (p%40ss)", url)
    assert "p@ss" not in text and "p%40ss" not in text
    assert text.startswith("cannot reach postgresql://ann:***@db/cohort")


def test_unreachable_server_error_names_the_url_without_its_password(tmp_path: Path):
    url = f"postgresql://ann:hunter2@/cohort?host={tmp_path}/no-server&connect_timeout=2"
    with pytest.raises(StoreError) as info:
        ResultsStore(tmp_path, url=url)
    assert "hunter2" not in str(info.value)
    assert "cannot connect to the results store postgresql://ann:***@/cohort" in str(info.value)


def test_dialects_share_the_sql_but_spell_placeholders_types_and_checks_their_way():
    assert SQLITE.sql("a = ? AND b LIKE '%x'") == "a = ? AND b LIKE '%x'"
    assert POSTGRESQL.sql("a = ? AND b LIKE '%x'") == "a = %s AND b LIKE '%%x'"
    ddl = "CREATE TABLE t (a TEXT PRIMARY KEY, n INTEGER, r REAL) WITHOUT ROWID; CREATE INDEX i ON t(n)"
    assert SQLITE.ddl(ddl)[0].endswith("WITHOUT ROWID")
    assert POSTGRESQL.ddl(ddl) == [
        'CREATE TABLE t (a TEXT COLLATE "C" PRIMARY KEY, n BIGINT, r DOUBLE PRECISION)',
        "CREATE INDEX i ON t(n)",
    ]
    assert "typeof" in valid_row_sql() and "typeof" not in valid_row_sql(loose_types=False)
    assert "total BETWEEN 0 AND 100" in valid_row_sql(loose_types=False)
