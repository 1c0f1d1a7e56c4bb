"""Issue 30's leftovers on the results side (docs/cohorts.md, "What a trainee can and cannot do to their results";
docs/sessions.md, "Cohort statistics"): the order of a trainee's attempts, first attempts that cannot be counted,
copies of short logs, seedless sessions of a drill with a twin, an end before the start, and each with the right
behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.cohort import FactsQuery, cohort_stats
from warroom.store.cohort._count import facts_stats
from warroom.store.results import ResultsStore

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="guess", cites=("e02",))


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout


def _ann(store: ResultsStore) -> list[tuple[int, int, int, int]]:
    """Ann's (trials, replays, hits, signal trials), counted in SQL (the summary) and session by session (the
    report and the console)."""
    out = []
    for result in (cohort_stats(store, mode="all"), facts_stats(store, FactsQuery(), "all")):
        (ann,) = result.stats.trainees
        out.append((ann.trials, ann.replays, ann.hits, ann.signal_trials))
    return out


def test_a_clock_set_back_does_not_make_a_replay_the_first_attempt(
    tmp_path: Path, backend_url: str | None, monkeypatch: pytest.MonkeyPatch
):
    """A trainee plays a drill poorly, reads its debrief, sets their clock back a year and plays it again, well.
    The first attempt was the session with the earliest ``started_at``, which the trainee's clock sets, so the
    informed replay counted as a hit. The store's own order (``stored_seq``, which no client sets) decides: the
    poor session stays the trial, the good one a replay; on both back ends, in SQL and in process."""
    from warroom.store.journal import _recorder

    poor = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    monkeypatch.setattr(_recorder, "utc_now", lambda: "2025-01-01T00:00:00.000000+00:00")
    monkeypatch.setattr(_recorder, "new_session_id", lambda now=None: "20250101-000000-aaaa")
    good = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with ResultsStore(tmp_path, url=backend_url) as store:
        assert store.get(good).started_at < store.get(poor).started_at  # the clock set back
        assert _ann(store) == [(1, 1, 0, 1)] * 2
    summary = json.loads(_cli("scores", "summary", "--format", "json", "--data-dir", str(tmp_path))[1])
    (ann,) = summary["trainees"]
    assert (ann["trials"], ann["replays"], ann["hits"]) == (1, 1, 0), ann


def test_sessions_stored_before_the_store_numbered_them_come_first_in_start_order(tmp_path: Path):
    """A session without ``stored_seq`` (stored before schema version 20) was stored before every numbered one:
    it is the first attempt whatever start a numbered session claims, and two unnumbered ones are ordered by their
    starts."""
    old = play(tmp_path, "ann", [LATE], mode="assessment").session_id
    new = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with ResultsStore(tmp_path) as store:
        store.db.conn.execute("UPDATE sessions SET stored_seq = NULL WHERE session_id = ?", (old,))
        store.db.conn.execute("UPDATE sessions SET started_at = '2030-01-01T00:00:00.000000+00:00' WHERE "
                              "session_id = ?", (old,))  # fmt: skip
        assert _ann(store) == [(1, 1, 0, 1)] * 2  # the unnumbered poor session, though it claims a later start
        store.db.conn.execute("UPDATE sessions SET stored_seq = NULL WHERE session_id = ?", (new,))
        assert _ann(store) == [(1, 1, 1, 1)] * 2  # both unnumbered: by start, the good one
