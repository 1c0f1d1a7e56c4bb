"""The terminal UI's reads of the store (the picker's best scores, a drill set's attempts) follow ``--store`` /
``$WARROOM_STORE``, not only the SQLite file of the data directory: a PostgreSQL store or a ``sqlite:///FILE``
store holds the trainee's sessions though the data directory has no ``results.sqlite3``."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_support import add_session, scorecard

from warroom.store.results import ResultsStore, SessionInfo
from warroom.tui.logic import ResultsUnavailable, Services, load_active_set

DRILL = "carbon-aware-memo"


@pytest.fixture(params=["sqlite-file", "postgresql"])
def other_store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A store URL that is not the data directory's SQLite file, set as ``$WARROOM_STORE``."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}" if request.param == "sqlite-file" else \
        str(request.getfixturevalue("store_url"))
    monkeypatch.setenv("WARROOM_STORE", url)
    return url


def _store_two(data_dir: Path, url: str) -> None:
    with ResultsStore(data_dir, url=url) as store:
        add_session(store, "s1", trainee="ann", drill_id=DRILL, outcome="contained", total=91)
        add_session(store, "s2", trainee="bob", drill_id=DRILL, outcome="missed", total=0, ttd=None)


def test_the_pickers_best_scores_come_from_the_store_url(tmp_path: Path, other_store: str) -> None:
    data_dir = tmp_path / "data"
    _store_two(data_dir, other_store)
    assert not (data_dir / "results.sqlite3").exists()
    assert Services(trainee="ann", data_dir=data_dir).best_scores() == {DRILL: 91}
    assert Services(trainee="bob", data_dir=data_dir).best_scores() == {DRILL: 0}


def test_a_drill_sets_attempts_are_counted_in_the_store_url(tmp_path: Path, other_store: str) -> None:
    data_dir = tmp_path / "data"
    set_file = tmp_path / "week.set.yaml"
    set_file.write_text(f"set: week\ntitle: Week\nattempts: 1\ndrills: [{DRILL}]\n", encoding="utf-8")
    info = SessionInfo(session_id="w1", trainee="ann", drill_id=DRILL, drill_version=1, drill_sha256=None,
                       drill_path=None, started_at="2026-11-01T10:00:00.000000+00:00", all_clear=False, set_id="week")
    with ResultsStore(data_dir, url=other_store) as store:
        assert store.insert(info, scorecard(drill_id=DRILL, total=75), [], ended_at=info.started_at)
    services = Services(trainee="ann", data_dir=data_dir, drill_set=load_active_set(set_file))
    progress = services.set_progress()[DRILL]
    assert (progress.played, progress.done, progress.left) == (1, True, 0)
    assert services.cannot_start(services.set_catalog()[0]) == (
        "no attempts left on this drill in the drill set (1 allowed)")


def test_a_missing_sqlite_file_store_means_nothing_stored_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARROOM_STORE", f"sqlite:///{tmp_path / 'none.sqlite3'}")
    assert Services(trainee="ann", data_dir=tmp_path / "data").best_scores() == {}


def test_a_store_url_of_no_back_end_is_shown_not_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARROOM_STORE", "mysql://ann:hunter2@db/x")
    with pytest.raises(ResultsUnavailable) as info:
        Services(trainee="ann", data_dir=tmp_path).best_scores()
    assert "hunter2" not in str(info.value) and "mysql://ann:***@db/x" in str(info.value)
