"""Re-scoring keeps history (schema version 11, warroom.store.results._history): every scorecard a re-score replaced
is kept with who re-scored, when, by which rules and why; the current scorecard is still what every figure reads;
store export and import carry the history; the review lists it; deleting a session deletes its history. On both
back ends (the SQLite file, a PostgreSQL schema: tests/pg_support.py)."""

from __future__ import annotations

import getpass
import io
import json
from pathlib import Path

import pytest
from scores_support import played_session, run
from store_support import copy_drill

from warroom.core.scoring import Scorecard
from warroom.store.cohort import cohort_stats
from warroom.store.journal import delete_sessions
from warroom.store.results import HISTORY_TABLE, ResultsStore, export_lines, import_lines, write_export
from warroom.store.review import default_drill_resolver, load_review, rescore

pytestmark = pytest.mark.usefixtures("backend_url")


def _rescored_once(tmp_path: Path) -> tuple[Path, str, dict[str, object]]:
    """A data directory holding one played session whose stored scorecard an "older rule" replaced (missed, 3), then
    re-scored by ``rescore``: returns the folder, the session id and the scorecard it was played with."""
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    with ResultsStore(data) as store:
        real = store.get(sid).scorecard
        store.update_scorecard(sid, Scorecard.from_dict({**real, "total": 3, "outcome": "missed"}), reason="by hand")
        (result,) = rescore(store, default_drill_resolver())
        assert result.status.value == "changed", result
    return data, sid, real


def _who(store: ResultsStore) -> str:
    if store.dialect.name == "sqlite":
        return getpass.getuser()
    return str(store.db.conn.execute("SELECT current_user").fetchone()[0])


def test_a_rescore_keeps_the_scorecard_it_replaces_with_who_when_which_rules_and_why(tmp_path: Path):
    data, sid, real = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        first, second = store.scorecard_history(sid)
        current = store.get(sid)
        who = _who(store)
    assert (first.seq, first.reason, first.replaced_by) == (1, "by hand", who)
    assert (first.outcome, first.total, first.scorecard) == (real["outcome"], real["total"], real)  # what was played
    assert first.rules == first.scoring_version == real["scoring_version"]  # the by-hand card kept the played rules
    assert (second.seq, second.replaced_by, second.outcome, second.total) == (2, who, "missed", 3)
    assert second.rules == current.scoring_version  # the rules the re-score applied
    assert second.reason == f"warroom scores rescore by the scoring rules {current.scoring_version} (the session's own)"
    assert first.replaced_at < second.replaced_at <= current.rescored_at  # ISO text sorts as time
    assert current.outcome == real["outcome"] and current.total == real["total"]  # the current one is the row's
    assert current.history == [first, second]  # get() reads it with the session
    with ResultsStore(data) as store:
        assert [c.seq for c in store.query(full=True)[0].history] == []  # lists of sessions do not read it
        assert store.scorecard_history("no-such-session") == []


def test_the_figures_read_the_current_scorecard_only(tmp_path: Path):
    data, _, real = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        (ann,) = cohort_stats(store, mode="all").stats.trainees
    assert (ann.sessions, ann.mean_score) == (1, real["total"])  # not the replaced 3, nor counted twice


def test_an_unchanged_rescore_keeps_no_history(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    assert "0 changed, 1 unchanged" in run(data, "--rescore").stdout
    with ResultsStore(data) as store:
        assert store.scorecard_history(sid) == []  # nothing was replaced


def test_export_and_import_carry_the_history(tmp_path: Path, backend_url: str | None):
    data, sid, _ = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        lines = list(export_lines(store))
        history = store.scorecard_history(sid)
    (line,) = lines
    exported = json.loads(line)["scorecard_history"]
    assert [c["seq"] for c in exported] == [1, 2] and "session_id" not in exported[0]
    other = tmp_path / "other"
    with ResultsStore(other, url="sqlite:///" + str(tmp_path / "other.sqlite3")) as copy:
        result = import_lines(copy, lines, "export.jsonl")
        assert (result.imported, result.refused) == (1, [])
        assert copy.scorecard_history(sid) == history
        out = io.StringIO()
        write_export(copy, out)
    assert out.getvalue().splitlines() == lines  # exported again: the same lines


def test_a_session_never_rescored_is_exported_as_before(tmp_path: Path):
    data = tmp_path / "data"
    played_session(data, copy_drill(tmp_path / "drills"))
    with ResultsStore(data) as store:
        (line,) = export_lines(store)
    assert "scorecard_history" not in json.loads(line)  # the lines of older exports, unchanged


def test_import_refuses_a_history_that_does_not_fit(tmp_path: Path):
    data, _, _ = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        (line,) = export_lines(store)
    bad = json.loads(line)
    bad["session_id"] = "another"
    bad["scorecard_history"][0]["total"] = "80"
    with ResultsStore(tmp_path / "other", url="sqlite:///" + str(tmp_path / "other.sqlite3")) as copy:
        result = import_lines(copy, [json.dumps(bad)], "export.jsonl")
        assert result.imported == 0
        (refused,) = result.refused
        assert refused.startswith("export.jsonl:1: scorecard_history: total: Input should be a valid integer")
        assert copy.count() == 0  # nothing of the line was stored


def test_the_review_lists_the_history(tmp_path: Path):
    data, sid, real = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    head, first, second = review.history_lines()
    assert head.startswith("This session was re-scored 2 times; the scorecard shown is the current one")
    assert first.startswith("re-score 1 at ") and f"it replaced {real['outcome']}, {real['total']}" in first
    assert "by hand" in first and "it replaced missed, 3" in second
    assert review.notices[-3:] == [head, first, second]


def test_deleting_a_session_deletes_its_history(tmp_path: Path):
    data, sid, _ = _rescored_once(tmp_path)
    with ResultsStore(data) as store:
        assert delete_sessions(data, store, [sid]).deleted == 1
        assert store.scorecard_history(sid) == []
        assert store.db.conn.execute(f"SELECT count(*) FROM {HISTORY_TABLE}").fetchone()[0] == 0
