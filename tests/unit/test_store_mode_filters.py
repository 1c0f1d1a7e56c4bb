"""The drill set and mode filters of the results store, on both back ends: every read that takes the trainee,
drill and since filters takes ``set_id`` and ``mode`` too (query, count, iter_sessions, invalid_rows)."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_support import scorecard

from warroom.store.results import ResultsStore, SessionInfo, WallClock


@pytest.fixture
def store(tmp_path: Path, backend_url: str | None):
    with ResultsStore(tmp_path, url=backend_url) as s:
        for i, (trainee, mode, set_id, outcome, total) in enumerate([
            ("ann", "practice", None, "contained", 90),
            ("ann", "assessment", "wk-1", "contained", 70),
            ("bob", "assessment", "wk-1", "missed", 10),
            ("bob", "practice", "wk-1", "contained", 50),
        ]):
            started = f"2026-11-0{i + 1}T10:00:00.000000+00:00"
            info = SessionInfo(
                session_id=f"s{i}", trainee=trainee, drill_id="d", drill_version=1, drill_sha256=None,
                drill_path=None, started_at=started, mode=mode, set_id=set_id,
            )  # fmt: skip
            wall = WallClock(pauses=i, paused_seconds=float(i), wall_time_to_detect=None)
            assert s.insert(info, scorecard(outcome=outcome, total=total), [], ended_at=started, wall=wall)
        yield s


def test_query_and_count_keep_one_mode_and_one_set(store: ResultsStore):
    assert [r.session_id for r in store.query(mode="assessment", sort="when", reverse=True)] == ["s1", "s2"]
    assert [r.session_id for r in store.query(set_id="wk-1", mode="practice")] == ["s3"]
    assert store.count(set_id="wk-1") == 3 and store.count(mode="practice") == 2
    assert store.count(trainee="ann", set_id="wk-1", mode="assessment") == 1
    assert store.query(set_id="no-such-set") == []
    [row] = store.query(set_id="wk-1", mode="practice")
    assert (row.mode, row.set_id, row.pauses, row.paused_seconds) == ("practice", "wk-1", 3, 3.0)


def test_rescore_reads_keep_them_too(store: ResultsStore):
    assert [s.session_id for s in store.iter_sessions(set_id="wk-1", mode="assessment")] == ["s1", "s2"]
    assert store.invalid_rows(set_id="wk-1") == []
