"""`warroom scores --delete ID...`: test sessions can be deleted, after seeing them and confirming."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path, load

from warroom.cli import main
from warroom.store.errors import SessionNotFound
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


def played(data_dir: Path, trainee: str) -> str:
    """A finished session (journal in journals/done/), quit at once."""
    path = bundled_drill_path()
    rec = SessionRecorder.start(data_dir, trainee, path, load(path))
    rec.abandon()
    return rec.session_id


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, str, str]:
    return tmp_path, played(tmp_path, "test-user"), played(tmp_path, "ann")


def delete(data_dir: Path, *args: str, input: str | None = None):
    return CliRunner().invoke(main, ["scores", "--data-dir", str(data_dir), "--delete", *args], input=input)


def ids(data_dir: Path) -> list[str]:
    with ResultsStore(data_dir) as store:
        return sorted(r.session_id for r in store.query())


def done(data_dir: Path, sid: str) -> Path:
    return data_dir / "journals" / "done" / f"{sid}.jsonl"


def test_delete_with_yes_removes_the_row_and_its_journal(two, backend_url: str | None):
    data, test_sid, kept = two
    assert done(data, test_sid).exists()
    r = delete(data, test_sid[-4:], "--yes")  # a suffix, as review accepts
    assert r.exit_code == 0, r.output
    # a shared store is named by its URL (without a password): the rows go from there, not from the data directory
    assert f"1 session to delete from {backend_url or data}:" in r.output
    assert test_sid in r.output and "test-user" in r.output
    assert "Deleted 1 session and 1 journal." in r.output
    assert ids(data) == [kept] and not done(data, test_sid).exists() and done(data, kept).exists()


def test_delete_refuses_without_a_terminal_unless_yes(two):
    data, test_sid, kept = two
    r = delete(data, test_sid)
    assert r.exit_code == 1 and "not deleting without confirmation" in r.output and "--yes" in r.output
    assert ids(data) == sorted([test_sid, kept])


def test_delete_asks_and_a_no_deletes_nothing(two, monkeypatch):
    import warroom.cli.scores._delete as scores

    data, test_sid, kept = two
    monkeypatch.setattr(scores, "_stdin_is_a_terminal", lambda: True)
    r = delete(data, test_sid, input="n\n")
    assert r.exit_code == 0 and "Delete this session?" in r.output and "Nothing deleted." in r.output
    assert ids(data) == sorted([test_sid, kept])
    r = delete(data, test_sid, kept, input="y\n")
    assert r.exit_code == 0 and "Deleted 2 sessions and 2 journals." in r.output
    assert ids(data) == []


def test_an_unknown_or_ambiguous_id_deletes_nothing(two):
    data, test_sid, kept = two
    r = delete(data, test_sid, "zzzz", "--yes")
    assert r.exit_code == 1 and "no stored session with id 'zzzz'; nothing was deleted" in r.output
    common = test_sid[:9]  # both ids begin with the same UTC date
    assert kept.startswith(common)
    r = delete(data, common, "--yes")
    assert r.exit_code == 1 and "matches several sessions" in r.output and "nothing was deleted" in r.output
    assert ids(data) == sorted([test_sid, kept])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delete"], "--delete needs the ids"),
        (["s1"], "session ids are only taken with --delete"),
        (["--delete", "s1", "--summary"], "--delete cannot be combined"),
        (["--yes"], "--yes only applies with --delete or --rescore"),
    ],
)
def test_delete_usage_errors(tmp_path: Path, args: list[str], message: str):
    r = CliRunner().invoke(main, ["scores", "--data-dir", str(tmp_path), *args])
    assert r.exit_code == 2 and message in r.output


def test_resolve_takes_an_id_a_unique_prefix_or_a_unique_suffix(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path) as store:
        for sid in ("20261101-100000-abcd", "20261101-100000-wxcd", "20261102-090000-k3f9"):
            add_session(store, sid, trainee="ann")
        assert store.resolve("20261101-100000-abcd") == "20261101-100000-abcd"
        assert store.resolve("20261102") == "20261102-090000-k3f9"
        assert store.resolve("k3f9") == "20261102-090000-k3f9"
        assert store.get("abcd").session_id == "20261101-100000-abcd"
        with pytest.raises(SessionNotFound, match="session id suffix 'cd' matches several") as err:
            store.resolve("cd")
        assert err.value.matches == ["20261101-100000-abcd", "20261101-100000-wxcd"]
        assert store.delete(["20261101-100000-abcd", "nope"]) == 1
        assert store.count() == 2
