"""A tenth fresh hostile campaign on the command line and the results (issue 30): what changed on the day of
campaign 10 (re-scoring edited columns, ``--output -``, ``warroom new x.yaml``, the store's own order of sessions).
Each case it found, with the right behaviour."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.store.results import ResultsStore


def _cli(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of a ``warroom`` command, which never shows a traceback."""
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def _figures(data: Path, session_id: str) -> tuple:
    conn = sqlite3.connect(data / "results.sqlite3")
    try:
        sql = "SELECT response, distractors_shown, distractor_escalations FROM sessions WHERE session_id = ?"
        return tuple(conn.execute(sql, (session_id,)).fetchone())
    finally:
        conn.close()


def test_rescore_corrects_the_counted_columns_edited_beside_an_unedited_scorecard(tmp_path: Path):
    """A hit whose ``response`` column was edited to ``miss`` and ``distractors_shown`` to 5 by SQL, its scorecard
    JSON left as it was: ``scores verify`` found both, but ``scores rescore`` compared only the scorecard's own
    columns (total, outcome...), said "0 changed, 2 unchanged" and kept the edited values, which the statistics
    count (its hit counted as a miss once verified). Re-scoring rewrites them from the scorecard, naming them."""
    data = tmp_path / "data"
    sid = play(data, "ann", GOOD, mode="assessment").session_id
    truth = _figures(data, sid)
    assert truth[0] == "hit", truth
    conn = sqlite3.connect(data / "results.sqlite3")
    conn.execute("UPDATE sessions SET response = 'miss', distractors_shown = 5 WHERE session_id = ?", (sid,))
    conn.commit()
    conn.close()
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 0, err
    assert (f"stored columns disagreed with the scorecard: distractors_shown 5 -> {truth[1]!r}, response 'miss' -> "
            "'hit'") in out + err, out + err
    assert _figures(data, sid) == truth
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert "1 unchanged" in out + err, out + err
    code, out, err = _cli("scores", "verify", "--format", "json", "--data-dir", str(data))
    assert [v["verdict"] for v in json.loads(out)] == ["verified"], out
    code, out, err = _cli("scores", "summary", "--format", "json", "--data-dir", str(data))
    (row,) = json.loads(out)["trainees"]
    assert (row["hits"], row["misses"]) == (1, 0), row


def test_rescore_leaves_a_session_it_wrote_unchanged_on_both_counts(tmp_path: Path):
    """The counted columns of a session warroom stored agree with its scorecard: re-scoring finds nothing to
    correct (no session is "changed" by the comparison itself)."""
    data = tmp_path / "data"
    play(data, "ann", GOOD, mode="assessment")
    play(data, "ann", [], mode="assessment")
    code, out, err = _cli("scores", "rescore", "--yes", "--data-dir", str(data))
    assert code == 0 and "0 changed, 2 unchanged" in out + err, out + err
    with ResultsStore(data) as store:
        assert all(s.rescored_at is None for s in store.iter_sessions())
