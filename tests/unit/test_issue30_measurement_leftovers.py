"""Issue 30's measurement leftovers: a session scored by the first edition of the scoring rules re-scores as
unchanged by its own rules (its scorecard's keys were renamed and added to since, not its figures)."""

from __future__ import annotations

import json
from pathlib import Path

from scores_support import played_session, run_sub
from store_support import copy_drill

from warroom.store.results import ResultsStore

#: The keys the first edition of the scoring rules did not write (added with rules 2; 0 and [] by rules 1).
_ADDED_SINCE = ("distractors_shown", "distractor_escalations")


def _first_edition_session(tmp_path: Path) -> tuple[Path, str, dict[str, object]]:
    """A data directory holding one session scored by rules 1 and stored as the first scoring edition wrote it:
    ``ended_at`` and ``escalations`` for ``end_time`` and ``escalation_count``, without the keys added since.
    Returns the folder, the session id and the stored scorecard."""
    data = tmp_path / "data"
    sid = played_session(data, copy_drill(tmp_path / "drills"), cites=None, rules="1")
    with ResultsStore(data) as store:
        card = dict(store.get(sid).scorecard)
        card["ended_at"], card["escalations"] = card.pop("end_time"), card.pop("escalation_count")
        for key in _ADDED_SINCE:
            assert card.pop(key) in (0, [])
        with store.db.conn:
            store.db.conn.execute("UPDATE sessions SET scorecard = ? WHERE session_id = ?", (json.dumps(card), sid))
    return data, sid, card


def test_a_first_edition_session_re_scores_unchanged_by_its_own_rules(tmp_path: Path):
    data, sid, card = _first_edition_session(tmp_path)
    for args in (("--rules", "1", "--yes"), ()):
        result = run_sub(data, "rescore", *args)
        assert result.exit_code == 0, result.output
        assert "0 changed, 1 unchanged, 0 skipped" in result.stdout, result.output
    with ResultsStore(data) as store:
        stored = store.get(sid)
        assert store.scorecard_history(sid) == []  # nothing was replaced
    assert stored.scorecard == card and stored.rescored_at is None  # kept as the first edition wrote it
    verified = run_sub(data, "verify")
    assert "0 disagree, 0 cannot be verified" in verified.stdout, verified.output


def test_a_first_edition_session_whose_figures_differ_is_still_changed(tmp_path: Path):
    data, sid, card = _first_edition_session(tmp_path)
    with ResultsStore(data) as store, store.db.conn:
        wrong = {**card, "ended_at": float(card["ended_at"]) + 5}  # type: ignore[arg-type]
        store.db.conn.execute("UPDATE sessions SET scorecard = ? WHERE session_id = ?", (json.dumps(wrong), sid))
    result = run_sub(data, "rescore", "--rules", "1", "--yes")
    assert "1 changed, 0 unchanged" in result.stdout, result.output
    with ResultsStore(data) as store:
        stored = store.get(sid).scorecard
    assert "end_time" in stored and "ended_at" not in stored  # written by the current edition
