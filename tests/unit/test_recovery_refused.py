"""A finished session the store refuses at recovery (PostgreSQL's row-level security when the trainee name is not
the login role's, a constraint): nothing says it was stored, and `warroom store sync` exits 1 with it still queued."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner
from store_support import bundled_drill_path, load, scorecard

from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.errors import StoreError
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.results import ResultsStore

REFUSAL = 'cannot store session: new row violates row-level security policy for table "sessions"'


def finished_session(data_dir: Path) -> Path:
    """A session that ended (its end line written) but was never stored: what a refused store leaves queued."""
    path = bundled_drill_path()
    rec = SessionRecorder.start(data_dir, "annie", path, load(path))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()
    card = scorecard(outcome="missed", total=12).to_dict()
    end = {"type": "end", "ended_at": datetime.now(UTC).isoformat(), "outcome": card["outcome"],
           "total": card["total"], "scorecard": card}
    with rec.journal_path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(end) + "\n")
    return rec.journal_path


def _refuse(self, *args, **kwargs):
    raise StoreError(REFUSAL)


def test_a_refused_finished_session_is_not_said_to_be_stored(tmp_path: Path, monkeypatch) -> None:
    journal = finished_session(tmp_path)
    monkeypatch.setattr(ResultsStore, "insert", _refuse)
    (r,) = recover_unfinished(tmp_path)
    assert not r.stored and journal.exists()
    assert "row-level security" in str(r)
    assert "stored" not in " ".join(r.problems), r.problems  # it was not
    monkeypatch.undo()
    (r,) = recover_unfinished(tmp_path)  # delivered later: then the note is true, and kept with the session
    assert r.stored
    assert "the session had finished; its result was stored at recovery" in r.problems
    with ResultsStore(tmp_path) as store:
        assert "the session had finished; its result was stored at recovery" in store.get(r.session_id).notes


def test_sync_exits_1_when_a_queued_session_is_refused(tmp_path: Path, monkeypatch) -> None:
    finished_session(tmp_path)
    monkeypatch.setattr(ResultsStore, "insert", _refuse)
    result = CliRunner().invoke(main, ["store", "sync", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "row-level security" in result.output
    assert "0 sessions delivered; 1 still waiting" in result.output
