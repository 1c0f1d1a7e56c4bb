"""``warroom store migrate`` / ``status`` and ``--store URL`` on both back ends (a real PostgreSQL server)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from store_support import add_session, set_version

from warroom.cli import main
from warroom.store.results import SCHEMA_VERSION, ResultsStore


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store URL of each back end: an SQLite file outside the data directory, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/shared/results.sqlite3"
    return str(request.getfixturevalue("store_url"))


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_status_before_and_after_migrate(tmp_path: Path, url: str):
    data = tmp_path / "data"
    before = run("--store", url, "store", "status", "--data-dir", str(data))
    assert before.exit_code == 1 and "no results store at" in before.output
    if url.startswith("postgresql"):  # an empty database: what to run
        assert before.output.rstrip().endswith("(no session has been recorded there; `warroom store migrate` "
                                               "creates it)")
    migrated = run("--store", url, "store", "migrate", "--data-dir", str(data), "--format", "json")
    assert migrated.exit_code == 0, migrated.output
    status = json.loads(migrated.output)
    backend = url.split(":")[0]
    assert (status["backend"], status["schema_version"], status["sessions"]) == (backend, SCHEMA_VERSION, 0)
    with ResultsStore(data, url=url) as store:
        add_session(store, "s-1", trainee="ann", total=70)
    shown = run("store", "status", "--store", url, "--data-dir", str(data))
    assert shown.exit_code == 0
    assert f"back end:        {backend}" in shown.output and "sessions:        1" in shown.output
    assert not (data / "results.sqlite3").exists()  # the store named by the URL, not the data directory's file


def test_status_shows_an_older_store_as_it_is_and_migrate_upgrades_it(tmp_path: Path, url: str):
    data = tmp_path / "data"
    with ResultsStore(data, url=url) as store:
        add_session(store, "s-1", trainee="ann", total=70)
        add_session(store, "s-2", trainee="bob", total=40)
        set_version(store, 7)
    shown = run("--store", url, "store", "status", "--data-dir", str(data))
    assert shown.exit_code == 0, shown.output
    assert (f"schema version:  7 (this warroom uses {SCHEMA_VERSION}: `warroom store migrate` upgrades it)"
            in shown.output) and "sessions:        2" in shown.output
    again = json.loads(run("--store", url, "store", "status", "--data-dir", str(data), "--format", "json").output)
    assert (again["schema_version"], again["current_schema_version"], again["sessions"]) == (7, SCHEMA_VERSION, 2)
    migrated = json.loads(run("--store", url, "store", "migrate", "--data-dir", str(data), "--format", "json").output)
    assert (migrated["schema_version"], migrated["sessions"]) == (SCHEMA_VERSION, 2)
    after = run("--store", url, "store", "status", "--data-dir", str(data))
    assert f"schema version:  {SCHEMA_VERSION}\n" in after.output


def test_scores_read_the_store_the_url_names(tmp_path: Path, url: str):
    data = tmp_path / "data"
    with ResultsStore(data, url=url) as store:
        add_session(store, "s-1", trainee="ann", total=70)
        add_session(store, "s-2", trainee="bob", total=40)
    listed = run("--store", url, "scores", "--data-dir", str(data), "--format", "json")
    assert listed.exit_code == 0, listed.output
    assert sorted(r["session_id"] for r in json.loads(listed.output)) == ["s-1", "s-2"]
    default = run("scores", "--data-dir", str(data))
    assert "No sessions recorded yet" in default.output  # without --store: the data directory's own file


def test_password_is_never_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    url = f"postgresql://ann:hunter2@/cohort?host={tmp_path}/nowhere&connect_timeout=2"
    monkeypatch.setenv("WARROOM_STORE", url)
    for args in (["store", "status"], ["store", "migrate"], ["scores"]):
        result = CliRunner().invoke(main, [*args, "--data-dir", str(tmp_path / "d")])
        assert result.exit_code == 1
        assert "hunter2" not in result.output and "ann:***@" in result.output
        assert "Traceback" not in result.output
